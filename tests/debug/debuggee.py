"""Real Python programs to debug, and a way to call the debug tools as the MCP server does."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pynvim

from simple_brief import tools as registry
from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, ToolResult

sys.path.insert(0, str(Path(__file__).parents[1] / "tasks"))
from projects import alive

__all__ = ["alive"]

#: app.py: the lines the tests stop at, by name.
APP = """\
class Box:
    def __init__(self, n):
        self.n = n
        self.items = [n, n + 1]


def helper(x):
    y = x * 2
    return y + 1


def main():
    count = 3
    table = {"a": 1, "b": [1, 2]}
    box = Box(count)
    total = helper(count)
    print("total", total)
    for i in range(5):
        total += i
    return total


main()
"""
LINE_CALL = 16  # total = helper(count)
LINE_HELPER_BODY = 8  # y = x * 2
LINE_PRINT = 17
LINE_LOOP_BODY = 19  # total += i
LINE_ENTRY = 1

FAILING = """\
def parse(text):
    return int(text)


def main():
    values = ["1", "2", "three"]
    return [parse(v) for v in values]


main()
"""
LINE_RAISE = 2

ENDLESS = """\
import time

n = 0
while True:
    n += 1
    if n % 100000 == 0:
        time.sleep(0.001)
"""

TEST_FILE = """\
def double(x):
    return x * 2


def test_double():
    value = double(21)
    assert value == 42
"""
LINE_TEST_ASSERT = 7


def project(root: Path) -> Path:
    """A workspace with the programs above."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "app.py").write_text(APP, encoding="utf-8")
    (root / "failing.py").write_text(FAILING, encoding="utf-8")
    (root / "endless.py").write_text(ENDLESS, encoding="utf-8")
    (root / "test_double.py").write_text(TEST_FILE, encoding="utf-8")
    return root


def make_call(root: Path) -> Call:
    """A call with a session of its own, as one MCP server's calls share one."""
    return Call(Workspace.at(root), session=Session(server_pool=ServerPool))


def run(call: Call, name: str, **args: Any) -> ToolResult:
    """Call a tool by name with its arguments checked, as every adapter does."""
    return registry.invoke(name, args, call)


def debuggee_pid(call: Call, session_id: str) -> int:
    """The debugged program's pid, asked of the program itself."""
    result = run(call, "debug_evaluate", session_id=session_id, expression="__import__('os').getpid()")
    pid = int(result.data["result"]["value"])
    assert pid != os.getpid()
    return pid


@contextmanager
def nvim_editor(tmp_path: Path, sockets: Path) -> Iterator[tuple[pynvim.Nvim, Served, Path]]:
    """A headless Neovim showing the project's app.py, and an MCP server state attached to it
    with the debug toolset; the project's root."""
    from nvim_session import nvim

    root = project(tmp_path / "app")
    address = str(sockets / "nvim.sock")
    with nvim(tmp_path / "nvim", "--listen", address, str(root / "app.py")) as nv:
        backend = NvimBackend.connect(address, lsp_timeout_ms=10000, retry_interval=0)
        state = Served.over(workspace=Workspace.at(root), editor=backend, toolsets=("debug",))
        try:
            yield nv, state, root.resolve()
        finally:
            state.close()
            backend.close()


def run_answer(state: Served, tool: str, **args: Any) -> Any:
    """Call a tool as the MCP server does (editor context and all); the answer, not an error."""
    result = state.call(registry.get(tool), args)
    assert not result.is_error, result.blocks
    return result
