"""Two Neovims in one project: the agent follows the one the person used last (issue 14).

Two real headless Neovims with the plugin's `setup()` (tests/nvim/init.lua) register in an
isolated state directory, each showing its own file. A real MCP client (the SDK's `Client`
over stdio, running `simple-brief mcp` as a registration would) calls `editor_get_context`
while the test focuses one Neovim, then types in the other. The Neovim that the old rule
(newest started) would pick is the one used first, so following it is wrong.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pynvim
from anyio.from_thread import start_blocking_portal
from mcp import Client, StdioServerParameters

from nvim_session import nvim

_tokens = itertools.count(1)


def feed(nv: pynvim.Nvim, keys: str, timeout: float = 10.0) -> None:
    """Type `keys` as the person would, and return once Neovim has processed all of them."""
    token = next(_tokens)
    nv.input(f"{keys}<Cmd>let g:sb_fed = {token}<CR>")
    wait_for(lambda: nv.vars.get("sb_fed") == token, timeout, f"Neovim to process {keys!r}")


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    """Poll `predicate` until it returns something truthy (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def entry(state: Path, nv: pynvim.Nvim) -> dict[str, Any]:
    """This Neovim's instance file, as lua/simple_brief/instances.lua wrote it."""
    pid = int(nv.call("getpid"))
    data: dict[str, Any] = json.loads((state / "instances" / f"{pid}.json").read_text(encoding="utf-8"))
    return data


def last_use(data: dict[str, Any]) -> float:
    return float(data.get("used", data["started"]))


@contextmanager
def mcp_client(root: Path, state: Path) -> Iterator[Callable[..., Any]]:
    """`simple-brief mcp` over stdio with the SDK client, callable from this (non-async) thread."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "simple_brief", "mcp", "--root", str(root)],
        env={**os.environ, "NVIM": "", "SIMPLE_BRIEF_STATE_DIR": str(state)},
    )
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(Client(params)) as client:

        async def call(name: str, args: dict[str, Any]) -> Any:
            with anyio.fail_after(60):
                return await client.call_tool(name, args)

        yield lambda name, args=None: portal.call(call, name, args or {})


def editor_line(result: Any) -> str:
    text: str = result.content[0].text
    assert text.startswith("editor: "), text
    return text


def test_the_agent_follows_the_neovim_used_last(tmp_path: Path, sockets: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "alpha.py").write_text("def alpha():\n    return 1\n", encoding="utf-8")
    (root / "beta.py").write_text("def beta():\n    return 2\n", encoding="utf-8")
    state = tmp_path / "state"
    with (
        nvim(tmp_path / "one", "--listen", str(sockets / "one.sock"), SIMPLE_BRIEF_STATE_DIR=str(state)) as one,
        nvim(tmp_path / "two", "--listen", str(sockets / "two.sock"), SIMPLE_BRIEF_STATE_DIR=str(state)) as two,
    ):
        for nv, name in ((one, "alpha.py"), (two, "beta.py")):
            nv.command(f"cd {root}")
            nv.command(f"edit {name}")
            nv.api.win_set_cursor(0, [2, 4])
            nv.eval("1")  # a round trip: the autocommands of these commands have run
        # The one the old rule (newest started, then highest pid) picks is used FIRST.
        first, second = sorted((one, two), key=lambda nv: (entry(state, nv)["started"], entry(state, nv)["pid"]))
        newer, older = second, first
        older_file, newer_file = ("alpha.py", "beta.py") if older is one else ("beta.py", "alpha.py")
        older_pid, newer_pid = int(older.call("getpid")), int(newer.call("getpid"))

        feed(newer, "k")  # the person works in the newer one
        with mcp_client(root, state) as call:
            # The person switches to the older Neovim: the terminal reports the focus.
            older.command("doautocmd FocusGained")
            assert last_use(entry(state, older)) > last_use(entry(state, newer))
            line = editor_line(call("editor_get_context"))
            assert line.startswith(f"editor: {older_file}:2:5 python"), line
            older_index = 1 if older is one else 2
            assert line.endswith(f" · Neovim {older_index} of 2 (pid {older_pid}, used last)"), line

            # The file each shows is written with its next use (at most a second later).
            wait_for(lambda: entry(state, newer).get("file"), what="the newer's file in its instance file")
            listed = call("editor_get_context", {"list_editors": True})
            text = "\n".join(block.text for block in listed.content)
            rows = [row for row in text.splitlines() if row.startswith(("1. ", "2. "))]
            assert len(rows) == 2, text
            followed = [row for row in rows if "followed" in row]
            assert len(followed) == 1 and f"pid {older_pid} " in followed[0] and followed[0].endswith("used last")
            assert any(f"pid {newer_pid} " in row and newer_file in row for row in rows), text
            editors = listed.structured_content["editors"]
            assert {e["pid"] for e in editors} == {older_pid, newer_pid}
            assert all("address" not in e for e in editors)

            # Then the person types in the newer one: the next call follows it (its instance
            # file says so within about a second: writes are throttled while typing).
            feed(newer, "j")
            wait_for(lambda: last_use(entry(state, newer)) > last_use(entry(state, older)), what="the newer's `used`")
            line = editor_line(call("simple_read", {"path": older_file, "mode": "outline"}))
            assert line.startswith(f"editor: {newer_file}:2:5 python"), line
            assert line.endswith(f" · Neovim {3 - older_index} of 2 (pid {newer_pid}, used last)"), line
            status = call("server_status").structured_content["editor"]
            assert status["pid"] == newer_pid and status["connected"] is True

            # And back: one focus event is enough.
            older.command("doautocmd FocusGained")
            line = editor_line(call("editor_get_context"))
            assert line.startswith(f"editor: {older_file}:2:5 python") and f"(pid {older_pid}, used last)" in line


def test_one_neovim_adds_nothing_to_the_line(tmp_path: Path, sockets: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "alpha.py").write_text("def alpha():\n    return 1\n", encoding="utf-8")
    state = tmp_path / "state"
    with nvim(tmp_path / "one", "--listen", str(sockets / "one.sock"), SIMPLE_BRIEF_STATE_DIR=str(state)) as one:
        one.command(f"cd {root}")
        one.command("edit alpha.py")
        one.command("doautocmd FocusGained")
        pid = int(one.call("getpid"))
        with mcp_client(root, state) as call:
            line = editor_line(call("editor_get_context"))
            listed = call("editor_get_context", {"list_editors": True})
    assert line == "editor: alpha.py:1:1 python · Function:alpha", line
    rows = listed.content[-1].text.splitlines()
    assert rows[0] == "Neovims on this workspace (1), in the order they started:"
    assert rows[1].startswith(f"1. pid {pid} · cwd . · alpha.py · used ") and rows[1].endswith(
        " · followed · used last"
    )
