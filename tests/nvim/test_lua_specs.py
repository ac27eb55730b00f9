"""The Lua unit specs (tests/lua/*_spec.lua), run by busted under Neovim's LuaJIT."""

from __future__ import annotations

import glob
import subprocess

import pytest

from nvim_session import ROOT, nvim_binary

RUNNER = ROOT / "tests" / "busted.lua"
SPECS = ROOT / "tests" / "lua"
# Where Debian's lua-busted (and luarocks) put busted for Lua 5.1; tests/busted.lua looks there too.
BUSTED_DIRS = ["/usr/share/lua/5.1/busted", "/usr/local/share/lua/5.1/busted"]


def busted_installed() -> bool:
    """Whether busted for Lua 5.1 and its C modules are where tests/busted.lua looks."""
    has_busted = any(glob.glob(f"{d}/runner.lua") for d in BUSTED_DIRS)
    has_lfs = any(glob.glob(pattern) for pattern in ("/usr/lib/*/lua/5.1/lfs.so", "/usr/local/lib/lua/5.1/lfs.so"))
    return has_busted and has_lfs


def test_lua_specs() -> None:
    if not busted_installed():
        reason = "busted for Lua 5.1 is not installed; install it with `apt-get install lua-busted` (Debian/Ubuntu)"
        print(f"SKIPPED test_lua_specs: {reason}")
        pytest.skip(reason)
    proc = subprocess.run(
        [nvim_binary(), "--clean", "--headless", "-l", str(RUNNER), "-o", "utfTerminal", str(SPECS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"busted failed (exit {proc.returncode}):\n{output}"
    assert " 0 failures / 0 errors" in output, output
