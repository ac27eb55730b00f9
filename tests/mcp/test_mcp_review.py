"""Issue 29 through the SDK's in-memory MCP Client and a real headless Neovim: what
`edit_propose`, `edit_status`, `editor_show` and `changes_since` send and answer, checked
against the contract (BRIEF29_CONTRACT.md) with a recording double of the Neovim side
(tests/mcp/review_double.lua: this branch has no lua/simple_brief/review.lua; the real one
is driven end to end by test_review_round.py)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pynvim
import pytest
from mcp import Client, StdioServerParameters
from review_person import Person, person_at, start_jedi

from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server

from nvim_session import nvim

DOUBLE = Path(__file__).with_name("review_double.lua")

SERVICE = """class Service:
    def start(self):
        return 1

    def run(self, n):
        total = n
        return total

    def stop(self):
        return 0
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[Path, Person, NvimBackend]]:
    with person_at(tmp_path, "service.py", SERVICE, before=f"dofile('{DOUBLE}')") as made:
        yield made


def _text(result: Any) -> str:
    return "\n".join(b.text for b in result.content)


def _server(root: Path, backend: NvimBackend) -> Any:
    return build_server(Served.over(Workspace.at(root), editor=backend, toolsets=("read", "edit")))


def _types_in_stop(nv: pynvim.Nvim) -> None:
    """The person changes `stop`'s last line (unsaved)."""
    nv.exec_lua("vim.api.nvim_buf_set_lines(0, 9, 10, false, {'        return -1'})")


def _answer_lines(result: Any) -> list[str]:
    # The first block is the editor context line.
    return "\n".join(b.text for b in result.content[1:]).splitlines()


@pytest.mark.anyio
async def test_a_proposal_written_against_an_older_read_is_rebased_and_sent_per_contract(
    setup: tuple[Path, Person, NvimBackend],
) -> None:
    root, person, backend = setup
    async with Client(_server(root, backend), raise_exceptions=True) as client:
        await client.call_tool("simple_read", {"path": "service.py"})
        # The person types (unsaved) in `stop` after the agent read the file.
        await person.act(_types_in_stop)
        agent = SERVICE.replace("return 1", "return 100").replace("total = n", "total = n * 2")
        result = await client.call_tool(
            "edit_propose", {"path": "service.py", "new_text": agent, "title": "scale things"}
        )
        lines = _answer_lines(result)
        assert lines[0].startswith("r1: 2 hunks proposed for service.py, shown in Neovim for the person's review")
        assert "Rebased on the person's edits since you read the file." in lines[0]
        assert lines[1:] == [
            "hunk 1 L3 in Class:Service > Method:start: -1 +1",
            "hunk 2 L6 in Class:Service > Method:run: -1 +1",
        ]
        sent = person.lua("return _G.review_double.sent")
        tick = person.lua("return vim.api.nvim_buf_get_changedtick(0)")
    assert sent == [
        {
            "id": "r1",
            "path": str(root / "service.py"),
            "title": "scale things",
            "tick": tick,
            "hunks": [
                {
                    "n": 1,
                    "start": 3,
                    "old": ["        return 1"],
                    "new": ["        return 100"],
                    "symbol": "Class:Service > Method:start",
                    "conflict": False,
                },
                {
                    "n": 2,
                    "start": 6,
                    "old": ["        total = n"],
                    "new": ["        total = n * 2"],
                    "symbol": "Class:Service > Method:run",
                    "conflict": False,
                },
            ],
        }
    ]
    # The person's unsaved edit is still there, and nothing was written.
    assert person.lua("return vim.api.nvim_buf_get_lines(0, 9, 10, false)") == ["        return -1"]
    assert (root / "service.py").read_text() == SERVICE


@pytest.mark.anyio
async def test_a_change_over_the_persons_lines_is_a_conflict_and_stale_is_sent_again(
    setup: tuple[Path, Person, NvimBackend],
) -> None:
    root, person, backend = setup
    async with Client(_server(root, backend), raise_exceptions=True) as client:
        await client.call_tool("expand_at", {"path": "service.py", "selector": "Service.stop"})
        await person.act(_types_in_stop)
        person.lua("_G.review_double.stale_once = true")
        result = await client.call_tool(
            "edit_propose", {"path": "service.py", "new_text": SERVICE.replace("return 0", "return None")}
        )
        lines = _answer_lines(result)
        sent = person.lua("return _G.review_double.sent")
    assert lines[1] == (
        "hunk 1 L10 in Class:Service > Method:stop: -1 +1 CONFLICT: the person changed these lines since you read them"
    )
    assert len(sent) == 2, "a stale answer makes the engine diff and send again"
    assert sent[1]["hunks"] == [
        {
            "n": 1,
            "start": 10,
            "old": ["        return -1"],
            "new": ["        return None"],
            "symbol": "Class:Service > Method:stop",
            "conflict": True,
        }
    ]


@pytest.mark.anyio
async def test_edit_status_reports_each_hunk_and_the_persons_tweaks(setup: tuple[Path, Person, NvimBackend]) -> None:
    root, person, backend = setup
    edits = (
        '[{"range": {"start": {"line": 3, "character": 16}, "end": {"line": 3, "character": 17}}, "newText": "100"},'
        ' {"range": {"start": {"line": 10, "character": 16}, "end": {"line": 10, "character": 17}}, "newText": "9"}]'
    )
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async with Client(_server(root, backend), raise_exceptions=True) as client:
        proposed = await client.call_tool("edit_propose", {"path": "service.py", "edits": edits})
        assert not proposed.is_error, _text(proposed)
        assert proposed.structured_content["id"] == "r1"
        first = await client.call_tool("edit_status", {"id": "r1"})
        assert _answer_lines(first)[0] == (
            "pending: r1 on service.py: 2 of 2 hunks await the person (hunk 1 pending, hunk 2 pending)."
        )

        def person_decides(nv: pynvim.Nvim) -> None:
            # Accept hunk 1 (its new line put in), reject hunk 2, and a tweak of their own: in
            # one request, so no status poll sees the decisions without the tweak.
            nv.exec_lua(
                "vim.api.nvim_buf_set_lines(0, 2, 3, false, {'        return 100'})"
                " vim.api.nvim_buf_set_lines(0, 5, 6, false, {'        total = n + 0'})"
                " _G.review_double.decide('r1', 1, 'accepted') _G.review_double.decide('r1', 2, 'rejected')"
            )

        async def decide_later() -> None:
            await anyio.sleep(1.5)
            await person.act(person_decides)

        # The status call waits while the person decides.
        async with anyio.create_task_group() as tg:
            tg.start_soon(decide_later)
            done = await client.call_tool("edit_status", {"id": "r1", "wait_s": 30}, progress_callback=on_progress)
    lines = _answer_lines(done)
    assert lines[0] == "done: r1 on service.py: hunk 1 accepted, hunk 2 rejected."
    assert lines[1:] == [
        "the person's own changes beyond the proposal (a diff to the buffer now):",
        "@@ -6 +6 @@",
        "-        total = n",
        "+        total = n + 0",
    ]
    assert done.structured_content["done"] is True and done.structured_content["tweaks"] == 1
    assert progress and progress[0][1] == 30 and "r1: 2 of 2 hunks await the person" in str(progress[0][2])
    assert (root / "service.py").read_text() == SERVICE


@pytest.mark.anyio
async def test_a_cancelled_wait_stops_polling(setup: tuple[Path, Person, NvimBackend]) -> None:
    root, person, backend = setup
    async with Client(_server(root, backend), raise_exceptions=True) as client:
        await client.call_tool("edit_propose", {"path": "service.py", "new_text": SERVICE.replace("return 0", "pass")})
        with anyio.move_on_after(2):
            await client.call_tool("edit_status", {"id": "r1", "wait_s": 120})
        await anyio.sleep(3)  # the worker sees the cancellation at its next poll (every 0.5 s)
        calls = person.lua("return _G.review_double.status_calls")
        await anyio.sleep(2)
        assert person.lua("return _G.review_double.status_calls") == calls, "still polling after the cancel"
        # The server still answers.
        again = await client.call_tool("edit_status", {"id": "r1"})
        assert _answer_lines(again)[0].startswith("pending: r1")


@pytest.mark.anyio
async def test_editor_show_resolves_symbols_and_waits_while_the_person_types(
    setup: tuple[Path, Person, NvimBackend],
) -> None:
    root, person, backend = setup
    async with Client(_server(root, backend), raise_exceptions=True) as client:
        shown = await client.call_tool(
            "editor_show", {"path": "service.py", "selector": "Service.run", "symbols": "Service.stop", "note": "here"}
        )
        assert _answer_lines(shown) == [
            "shown in Neovim: service.py:5 (Method:run), folded with only run L5-7, stop L9-10 open and the note."
        ]
        assert person.lua("return _G.review_double.shows") == [
            {"path": str(root / "service.py"), "line": 5, "open": [[5, 7], [9, 10]], "note": "here"}
        ]
        await person.act(lambda nv: nv.input("i"))
        person.lua("vim.wait(2000, function() return vim.api.nvim_get_mode().mode == 'i' end, 10)")
        waiting = await client.call_tool("editor_show", {"path": "service.py", "selector": "line:9"})
        assert _answer_lines(waiting) == [
            "waiting: the person is typing (insert mode); service.py:9 (Method:stop) shows when they leave it."
        ]


@pytest.mark.anyio
async def test_changes_since_sees_the_persons_unsaved_rename(setup: tuple[Path, Person, NvimBackend]) -> None:
    root, person, backend = setup
    async with Client(_server(root, backend), raise_exceptions=True) as client:
        await client.call_tool("simple_read", {"path": "service.py"})
        await person.act(lambda nv: nv.exec_lua("vim.api.nvim_buf_set_lines(0, 1, 2, false, {'    def begin(self):'})"))
        result = await client.call_tool("changes_since", {})
    assert _answer_lines(result) == [
        "service.py: 1 symbol change since you read it",
        "  ~ renamed Class:Service > Method:start -> Class:Service > Method:begin  F> def begin(self) { ... } L2-3",
    ]
    assert (root / "service.py").read_text() == SERVICE


@pytest.mark.anyio
async def test_without_neovim_review_says_so_in_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "service.py").write_text(SERVICE)
    server = build_server(Served.over(Workspace.at(tmp_path), toolsets=("read", "edit")))
    async with Client(server) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        result = await client.call_tool("edit_propose", {"path": "service.py", "new_text": "x = 1\n"})
        shown = await client.call_tool("editor_show", {"path": "service.py", "selector": "Service"})
    # A parameter named `title` is listed (the lean schema drops only pydantic's titles).
    assert list(listed["edit_propose"].input_schema["properties"]) == ["path", "new_text", "edits", "title"]
    assert set(listed) >= {"edit_propose", "edit_status", "changes_since", "editor_show"}
    assert result.is_error and "reviewing edits needs a running Neovim" in _text(result)
    assert "files_apply_overlay" in _text(result)
    assert shown.is_error and "needs a running Neovim" in _text(shown)


@pytest.mark.anyio
async def test_a_rename_with_review_is_sent_as_a_proposal(setup: tuple[Path, Person, NvimBackend]) -> None:
    root, person, backend = setup
    start_jedi(person, root, sys.executable)
    server = build_server(Served.over(Workspace.at(root), editor=backend, toolsets=("read", "lsp", "edit")))
    async with Client(server, raise_exceptions=True) as client:
        args = {"path": "service.py", "line": 5, "col": 9, "new_name": "execute", "review": True}
        result = await client.call_tool("refactor", {"action": "rename", **args})
        lines = _answer_lines(result)
        sent = person.lua("return _G.review_double.sent")
    assert lines[0] == (
        "rename `run` -> `execute` (jedi): 1 edit in 1 file; sent to the person's review in Neovim, "
        "one proposal per file (nothing applied):"
    ), lines
    assert lines[2] == "hunk 1 L5 in Class:Service > Method:run: -1 +1"
    assert sent[0]["hunks"][0]["old"] == ["    def run(self, n):"]
    assert sent[0]["hunks"][0]["new"] == ["    def execute(self, n):"]
    # Not applied: the buffer still says run.
    assert person.lua("return vim.api.nvim_buf_get_lines(0, 4, 5, false)") == ["    def run(self, n):"]


@pytest.mark.anyio
async def test_an_applied_rename_over_the_persons_change_is_refused(setup: tuple[Path, Person, NvimBackend]) -> None:
    root, person, backend = setup
    start_jedi(person, root, sys.executable)
    server = build_server(Served.over(Workspace.at(root), editor=backend, toolsets=("read", "lsp", "edit")))
    async with Client(server) as client:
        await client.call_tool("simple_read", {"path": "service.py"})
        # The person adds a comment on `run`'s line after the agent read the file.
        person.lua("vim.api.nvim_buf_set_lines(0, 4, 5, false, {'    def run(self, n):  # hot path'})")
        args = {"path": "service.py", "line": 5, "col": 9, "new_name": "execute", "apply": True}
        result = await client.call_tool("refactor", {"action": "rename", **args})
    assert result.is_error
    assert "lines 5 of service.py changed since you read it (the person's edits) and this edit touches them" in (
        _text(result)
    )
    assert person.lua("return vim.api.nvim_buf_get_lines(0, 4, 5, false)") == ["    def run(self, n):  # hot path"]


def test_the_edit_toolset_is_listed_when_the_server_starts_with_a_neovim(tmp_path: Path) -> None:
    (tmp_path / "service.py").write_text(SERVICE)
    address = str(Path(tempfile.mkdtemp(prefix="sb-ls-")) / "nvim.sock")
    first: list[str] = []

    async def listed(*extra: str, propose: bool = False) -> set[str]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "simple_brief", "mcp", "--root", str(tmp_path), *extra],
            env={**os.environ, "NVIM": ""},
        )
        async with Client(params) as client:
            if propose:  # the first call of a fresh server, to a Neovim it never talked to (no file open)
                args = {"path": "service.py", "new_text": SERVICE.replace("return 0", "return 1")}
                answer = await client.call_tool("edit_propose", args)
                first.extend("\n".join(b.text for b in answer.content).splitlines())
            return {t.name for t in (await client.list_tools()).tools}

    with nvim(tmp_path / "nvim", "--listen", address) as nv:
        nv.exec_lua(f"dofile('{DOUBLE}')")
        with_nvim = anyio.run(partial(listed, "--nvim", address, propose=True))
        chosen = anyio.run(listed, "--nvim", address, "--toolsets", "read")
    without = anyio.run(listed)
    edit = {"edit_propose", "edit_status", "changes_since", "editor_show"}
    assert edit <= with_nvim and "simple_read" in with_nvim
    assert not edit & chosen, "toolsets the person chose are kept as they are"
    assert not edit & without
    assert first[:2] == [
        "r1: 1 hunk proposed for service.py, shown in Neovim for the person's review (nothing written); "
        "edit_status id=r1 wait_s=60 waits for their decision.",
        "hunk 1 L10 in Class:Service > Method:stop: -1 +1",
    ], first


@pytest.mark.anyio
async def test_a_file_not_in_a_buffer_is_diffed_against_the_disk_not_the_agents_overlay(
    setup: tuple[Path, Person, NvimBackend],
) -> None:
    root, person, backend = setup
    (root / "other.py").write_text("A = 1\nB = 2\n")
    served = Served.over(Workspace.at(root), editor=backend, toolsets=("read", "workspace", "edit"))
    async with Client(build_server(served), raise_exceptions=True) as client:
        await client.call_tool("files_apply_overlay", {"path": "other.py", "content": "A = 10\nB = 2\n"})
        result = await client.call_tool("edit_propose", {"path": "other.py", "new_text": "A = 10\nB = 20\n"})
        sent = person.lua("return _G.review_double.sent")
    assert [h["old"] for h in sent[0]["hunks"]] == [["A = 1", "B = 2"]], "the person sees the disk's A = 1"
    assert sent[0]["tick"] is None
    assert _answer_lines(result)[1] == "hunk 1 L1-2 at top level: -2 +2"


@pytest.mark.anyio
async def test_bad_input_gets_one_sentence(setup: tuple[Path, Person, NvimBackend]) -> None:
    root, _, backend = setup
    calls = [
        ("edit_propose", {"path": "service.py", "edits": "[{"}, "parameter `edits` must be a JSON list"),
        ("edit_propose", {"path": "service.py", "new_text": "x", "edits": "[]"}, "give either `new_text`"),
        ("edit_propose", {"path": "service.py", "new_text": SERVICE}, "already reads as proposed"),
        ("edit_propose", {"path": "../outside.py", "new_text": "x"}, "outside"),
        ("edit_status", {"id": "r9"}, "there is no proposal `r9` in this workspace (proposals: none yet)."),
        ("edit_status", {"id": "r1", "wait_s": 500}, "`wait_s` must be between 0 and 120 seconds"),
        ("changes_since", {"path": "service.py"}, "service.py was not read in this session"),
    ]
    async with Client(_server(root, backend)) as client:
        for name, args, expected in calls:
            result = await client.call_tool(name, args)
            text = _text(result)
            assert result.is_error and expected in text, (name, args, text)
            assert "Traceback" not in text and len(text.splitlines()) == 1, text


@pytest.mark.anyio
async def test_without_a_read_the_persons_unsaved_edits_are_kept_not_proposed_away(
    setup: tuple[Path, Person, NvimBackend],
) -> None:
    root, person, backend = setup
    await person.act(_types_in_stop)
    async with Client(_server(root, backend), raise_exceptions=True) as client:
        # The agent read the file with its own tools (the disk), never through simple-brief.
        result = await client.call_tool(
            "edit_propose", {"path": "service.py", "new_text": SERVICE.replace("return 1", "return 2")}
        )
    assert _answer_lines(result)[1:] == ["hunk 1 L3 in Class:Service > Method:start: -1 +1"]
    assert "Rebased on the person's edits" in _answer_lines(result)[0]


@pytest.mark.anyio
async def test_a_wait_outlasts_a_neovim_busy_for_a_moment(setup: tuple[Path, Person, NvimBackend]) -> None:
    root, person, backend = setup
    async with Client(_server(root, backend), raise_exceptions=True) as client:
        await client.call_tool("edit_propose", {"path": "service.py", "new_text": SERVICE.replace("return 0", "pass")})
        person.lua("_G.review_double.busy_ms = 6000; _G.review_double.busy_once = true")

        async def decide_later() -> None:
            await anyio.sleep(8)
            person.lua("_G.review_double.decide('r1', 1, 'rejected')")

        async with anyio.create_task_group() as tg:
            tg.start_soon(decide_later)
            done = await client.call_tool("edit_status", {"id": "r1", "wait_s": 30})
    assert _answer_lines(done)[0] == "done: r1 on service.py: hunk 1 rejected."
