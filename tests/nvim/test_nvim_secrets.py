"""Secrets files never leave Neovim (SPEC "Security"), against a real headless Neovim.

A modified, unsaved `.env` buffer holding a marker, with a live selection in it and a
vim.diagnostic whose message quotes the marker: neither the Lua side's raw answers nor the
backend's values nor any MCP answer carry the marker. The Lua matcher of the deny/allow
globs (nvim/rpc.lua) is checked against the Python one (secret_files.SecretRules).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
import pynvim
import pytest
from mcp import Client

from simple_brief.editor.context import build_context, context_line
from simple_brief.editor.nvim.attach import AutoBackend
from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.files.secret_files import DEFAULT_DENY, SecretRules
from simple_brief.files.workspace import Workspace
from simple_brief.host.context import attach_editor
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server

from nvim_session import nvim

MARKER = "sk-live-123"
APP = "def main():\n    return 1\n"

#: Globs with every feature of git's rules, and paths that do and do not match them.
GLOBS = [
    *DEFAULT_DENY,
    "*.vault",
    "config/secret.json",
    "/top.txt",
    "keys/",
    "private/**",
    "**/private/*.txt",
    "a/**/b",
    "[ab]c.txt",
    "[!x]y.cfg",
    "v[0-9].dat",
    "file?.txt",
    "\\#hash",
    "sec*/**",
    "deep/*/x",
    "dir/sub/",
    "/anch/",
    "é*.txt",
    "[]]x",
    "[a-]z",
    "q\\*",
    "trailing   ",
    "*",
    "**",
    "*/",
    "**/",
    "x[",
    "!negated",
    "#comment",
]
PATHS = [
    ".env", "a/.env", ".env/x", ".env.local", "a/.env.prod", "env", "k.pem", "d/k.pem", ".pem",
    "id_rsa.pub", "id_ed25519", "credentials.json", "secrets.yaml", "mysecrets.yaml", "x.vault",
    "config/secret.json", "a/config/secret.json", "top.txt", "a/top.txt", "keys/a", "keys",
    "a/keys/b", "private/x", "private", "a/private/n.txt", "private/n.txt", "a/b", "a/x/y/b", "ab",
    "ac.txt", "bc.txt", "cc.txt", "zy.cfg", "xy.cfg", "éy.cfg", "v1.dat", "va.dat", "file1.txt",
    "file12.txt", "fileé.txt", "#hash", "secrets/a", "secret/a", "deep/q/x", "deep/x",
    "deep/q/r/x", "dir/sub/x", "x/dir/sub/y", "dir/sub", "anch/q", "b/anch/q", "élan.txt", "]x",
    "ax", "-z", "az", "q*", "qq", "trailing", "negated", "#comment", "x[", "src/app.py",
]  # fmt: skip


def _install(nv: pynvim.Nvim) -> None:
    nv.exec_lua(resources.files("simple_brief.editor.nvim").joinpath("rpc.lua").read_text(encoding="utf-8"), None)


def _lua_rules(nv: pynvim.Nvim, rules: dict[str, Any], names: list[str]) -> list[str | None]:
    found = nv.exec_lua(
        "local rules, names = ...; local out = {}"
        " for i, name in ipairs(names) do out[i] = simple_brief_rpc.secret_rule(rules, name) or vim.NIL end"
        " return out",
        rules,
        names,
    )
    return [None if value is None else str(value) for value in found]


def test_neovim_matches_the_secrets_globs_as_python_does(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "docs").mkdir(parents=True)
    (root / ".env").write_text("x\n")
    (root / "docs" / "notes.txt").symlink_to(root / ".env")
    with nvim(tmp_path / "nvim") as nv:
        _install(nv)
        for glob in GLOBS:
            rules = SecretRules(deny=(glob,))
            expected = [rules.rule_for(p) for p in PATHS]
            lua = _lua_rules(nv, {"root": "/r", "deny": [glob], "allow": []}, [f"/r/{p}" for p in PATHS])
            assert lua == expected, glob
        # Allow globs (the user's own config) exempt a path; the first deny glob is named.
        both = {"root": "/r", "deny": [*DEFAULT_DENY, "*.cfg"], "allow": ["deploy/secrets.py"]}
        names = ["/r/deploy/secrets.py", "/r/secrets.py", "/r/local.cfg", "/r/src/app.py"]
        assert _lua_rules(nv, both, names) == [None, "secrets.*", "*.cfg", None]
        # Outside the root the whole path counts; a link inside it counts by the file it leads to.
        rules = {"root": str(root), "deny": list(DEFAULT_DENY), "allow": []}
        names = ["/elsewhere/.env", "/elsewhere/app.py", str(root / "docs" / "notes.txt"), str(root / "app.py")]
        assert _lua_rules(nv, rules, names) == [".env", None, ".env", None]


@pytest.fixture
def secret_editor(tmp_path: Path, sockets: Path) -> Iterator[tuple[pynvim.Nvim, str, Path]]:
    """A Neovim with app.py modified, a modified `.env` holding MARKER (current window, a
    live linewise selection over the marker) and an unwritten `deploy/.env.production`."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text(APP)
    (root / ".env").write_text("API_KEY=old\n")
    address = str(sockets / "nvim.sock")
    with nvim(tmp_path / "nvim", "--listen", address) as nv:
        nv.command(f"cd {root}")
        nv.command("edit app.py")
        nv.current.buffer[0:0] = ["# unsaved app"]
        nv.command("edit deploy/.env.production")
        nv.current.buffer[:] = [f"PROD_KEY={MARKER}"]
        nv.command("edit .env")
        nv.current.buffer[:] = ["# local settings", f"API_KEY={MARKER}"]
        nv.exec_lua(
            "local ns = vim.api.nvim_create_namespace('dotenv-lint')"
            f" vim.diagnostic.set(ns, 0, {{ {{ lnum = 1, col = 0, message = 'weak key {MARKER}', severity = 2 }} }})"
            " vim.api.nvim_win_set_cursor(0, { 2, 3 })"
        )
        nv.input("V")
        nv.exec_lua("vim.wait(2000, function() return vim.api.nvim_get_mode().mode == 'V' end, 10)")
        assert nv.api.get_mode()["mode"] == "V"
        yield nv, address, root


def test_a_secrets_buffer_sends_neither_text_nor_selection_nor_diagnostics(
    secret_editor: tuple[pynvim.Nvim, str, Path],
) -> None:
    nv, address, root = secret_editor
    be = NvimBackend.connect(address, root=root, retry_interval=0)
    try:
        assert be.connected
        # What the Lua side answers, read over the harness's own channel with the backend's rules.
        payload = be.guard.payload
        raw = {
            "snapshot": nv.exec_lua("return simple_brief_rpc.snapshot(...)", {}, True, payload),
            "overlays": nv.exec_lua("return simple_brief_rpc.overlays(...)", {}, payload),
            "diagnostics": nv.exec_lua("return simple_brief_rpc.diagnostics(...)", payload),
        }
        assert MARKER not in json.dumps(raw)
        assert raw["snapshot"]["withheld"] == ".env"
        assert raw["snapshot"]["selection"]["start"]["line"] == 2  # where, not what

        snap = be.snapshot()
        assert snap is not None and snap.path == (root / ".env").resolve()
        assert snap.text is None and snap.extra["withheld"] == ".env"
        assert snap.selection is not None and snap.selection.text == ""
        assert snap.cursor == (2, 4) and snap.modified
        overlays = be.overlays()
        assert overlays == {(root / "app.py").resolve(): "# unsaved app\n" + APP}
        assert be.diagnostics() == {}
        assert be.symbols(root / ".env") == []
        assert be.intel().texts([root / ".env", root / "app.py"]) == {
            (root / "app.py").resolve(): overlays[(root / "app.py").resolve()]
        }
        assert be.intel().servers(root / ".env", "textDocument/hover") == []
        assert MARKER not in repr((snap, overlays, be.diagnostics()))

        ctx = build_context(snap, [])
        assert ctx["file"]["path"] == str((root / ".env").resolve()) and ctx["cursor"] == {"line": 2, "character": 4}
        assert ctx["selection"]["isEmpty"] is False and ctx["selection"]["text"] is None
        assert ctx["symbols"]["warning"] == "Content withheld: the file matches the secrets rule `.env`"
        line = context_line(ctx, root)
        assert line.startswith("editor: .env:2:4 sh modified · Content withheld")
        assert MARKER not in json.dumps(ctx) + line
    finally:
        be.close()


def test_a_users_extra_deny_glob_is_honoured_in_neovim(tmp_path: Path, sockets: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / ".simple-brief.toml").write_text('[secrets]\ndeny = ["*.vault"]\n')
    address = str(sockets / "nvim.sock")
    with nvim(tmp_path / "nvim", "--listen", address) as nv:
        nv.command(f"cd {root}")
        nv.command("edit prod.vault")
        nv.current.buffer[:] = [f"token={MARKER}"]
        be = AutoBackend(root, address)
        try:
            snap = be.snapshot()
            assert snap is not None and snap.extra["withheld"] == "*.vault" and snap.text is None
            assert be.overlays() == {}
        finally:
            be.close()


def _text(result: Any) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def _mcp_calls(state: Served) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(60):
            for key, name, args in [
                ("read_env", "simple_read", {"path": ".env"}),
                ("read_prod", "simple_read", {"path": "deploy/.env.production"}),
                ("search", "search", {"query": "API_KEY"}),
                ("search_marker", "search", {"query": MARKER}),
                ("context", "editor_get_context", {}),
                ("diagnostics", "diagnostics", {}),
                ("app", "simple_read", {"path": "app.py", "mode": "full"}),
            ]:
                out[key] = await client.call_tool(name, args)
    return out


def test_through_the_mcp_server_the_marker_never_shows(secret_editor: tuple[pynvim.Nvim, str, Path]) -> None:
    _, address, root = secret_editor
    state = Served.over(workspace=Workspace.at(root))
    state.editor = attach_editor(state.workspace.root, address)
    try:
        result = anyio.run(_mcp_calls, state)
    finally:
        state.session.close()
        close = getattr(state.editor, "close", None)
        if close is not None:
            close()
    for key, answer in result.items():
        dumped = _text(answer) + json.dumps(answer.structured_content or {})
        if key == "search_marker":  # the answer repeats the query: it must find nothing
            assert answer.structured_content["matches"] == [], dumped
            dumped = dumped.replace(f'"{MARKER}"', "")
        assert MARKER not in dumped, key
    assert result["read_env"].is_error
    assert "matches the secrets rule `.env`" in _text(result["read_env"])
    assert result["read_prod"].is_error and "`.env.*`" in _text(result["read_prod"])
    context = result["context"].structured_content["editorContext"]
    assert context["file"]["path"] == str((root / ".env").resolve())
    assert context["selection"]["text"] is None
    assert "withheld" in context["symbols"]["warning"] and "`.env`" in context["symbols"]["warning"]
    first = _text(result["context"]).splitlines()[0]
    assert first.startswith("editor: .env:2:4 sh modified · ") and "withheld" in first
    # The other buffers still reach the agent: the unsaved line of app.py.
    assert "# unsaved app" in _text(result["app"])
