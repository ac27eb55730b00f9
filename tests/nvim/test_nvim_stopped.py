"""A stopped Neovim (SIGSTOP, as Ctrl-Z does; not dead): tools answer from the disk within
the backend's deadline and say so; later calls do not wait again; after SIGCONT Neovim is
used again. Real headless Neovims; every test resumes (SIGCONT) and ends its Neovim.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pynvim
import pytest
from mcp import Client

from simple_brief.editor.nvim.attach import AutoBackend
from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.files.workspace import Workspace
from simple_brief.host.context import attach_editor
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server

from nvim_session import nvim

SAVED = "def main():\n    return 1\n"
UNSAVED = "# only in the Neovim buffer"
#: NvimBackend's default: how long a call waits for Neovim (`call_timeout`).
DEADLINE = 2.0


@pytest.fixture
def editing(tmp_path: Path, sockets: Path) -> Iterator[tuple[pynvim.Nvim, str, Path, int]]:
    """A Neovim with an unsaved line at the top of app.py; resumed if a test left it stopped."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text(SAVED)
    address = str(sockets / "nvim.sock")
    with nvim(tmp_path / "nvim", "--listen", address) as nv:
        nv.command(f"cd {root}")
        nv.command("edit app.py")
        nv.current.buffer[0:0] = [UNSAVED]
        pid = int(nv.call("getpid"))
        try:
            yield nv, address, root, pid
        finally:
            os.kill(pid, signal.SIGCONT)


def _text(result: Any) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def _timed_calls(state: Served, pid: int) -> list[tuple[str, float]]:
    """One read while Neovim runs, three while it is stopped, then reads after SIGCONT until
    the editor is back (bounded): (answer text, seconds) each."""
    out: list[tuple[str, float]] = []
    args = {"path": "app.py", "mode": "full"}
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(60):

            async def read() -> None:
                start = time.monotonic()
                result = await client.call_tool("simple_read", args)
                out.append((_text(result), time.monotonic() - start))

            await read()
            os.kill(pid, signal.SIGSTOP)
            try:
                for _ in range(3):
                    await read()
            finally:
                os.kill(pid, signal.SIGCONT)
            deadline = time.monotonic() + 10
            while True:
                await read()
                if out[-1][0].startswith("editor: ") or time.monotonic() > deadline:
                    break
    return out


def test_a_stopped_neovim_answers_from_disk_once_per_stop_and_comes_back(
    editing: tuple[pynvim.Nvim, str, Path, int],
) -> None:
    _, address, root, pid = editing
    state = Served.over(workspace=Workspace.at(root))
    state.editor = attach_editor(state.workspace.root, address)
    try:
        calls = anyio.run(_timed_calls, state, pid)
    finally:
        state.session.close()
        close = getattr(state.editor, "close", None)
        if close is not None:
            close()
    before, stopped, after = calls[0], calls[1:4], calls[4:]
    assert before[0].startswith("editor: app.py:2:1 python modified") and UNSAVED in before[0]
    for i, (text, seconds) in enumerate(stopped):
        note = text.splitlines()[0]
        assert note.startswith(f"[Neovim at {address} has not answered for "), note
        assert "answering from disk, so unsaved changes in Neovim may be missing]" in note
        assert "stopped" in note
        assert UNSAVED not in text and "def main():" in text  # the file on disk
        # The first call waits out the deadline; later ones do not wait again.
        assert seconds < (DEADLINE + 3.0 if i == 0 else DEADLINE / 2), (i, seconds)
    text, _ = after[-1]
    assert text.startswith("editor: app.py:2:1 python modified") and UNSAVED in text, after


def _register(state_dir: Path, address: str, pid: int, cwd: Path) -> None:
    """An instance file as lua/simple_brief/instances.lua writes it."""
    folder = state_dir / "instances"
    folder.mkdir(parents=True, exist_ok=True)
    record = {"servername": address, "cwd": str(cwd), "pid": pid, "started": int(time.time()), "version": "0.1.0"}
    entry = folder / f"{pid}.json"
    entry.write_text(json.dumps(record), encoding="utf-8")
    entry.chmod(0o600)


def test_a_neovim_stopped_before_attaching_is_kept_and_used_once_resumed(
    editing: tuple[pynvim.Nvim, str, Path, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, address, root, pid = editing
    monkeypatch.delenv("NVIM", raising=False)
    state_dir = tmp_path / "state"
    _register(state_dir, address, pid, root)
    os.kill(pid, signal.SIGSTOP)
    backend = None
    try:
        start = time.monotonic()
        backend = AutoBackend(root, None, state_dir=state_dir, retry_interval=0)
        assert time.monotonic() - start < DEADLINE + 3.0
        for _ in range(3):
            start = time.monotonic()
            assert backend.snapshot() is None and backend.overlays() == {}
            assert time.monotonic() - start < DEADLINE / 2  # not one more attach per call
        status = backend.status()
        assert status["connected"] is False and status["address"] == address
        assert "answering from disk, so unsaved changes in Neovim may be missing" in status["message"]
        os.kill(pid, signal.SIGCONT)
        deadline = time.monotonic() + 10
        snap = backend.snapshot()
        while snap is None and time.monotonic() < deadline:
            snap = backend.snapshot()
        assert snap is not None and snap.text is not None and snap.text.startswith(UNSAVED)
        assert backend.status()["connected"] is True and "message" not in backend.status()
        assert backend.overlays() == {(root / "app.py").resolve(): f"{UNSAVED}\n{SAVED}"}
    finally:
        os.kill(pid, signal.SIGCONT)
        if backend is not None:
            backend.close()


def test_status_of_a_busy_call_clears_once_it_is_answered(
    editing: tuple[pynvim.Nvim, str, Path, int],
) -> None:
    nv, address, _, pid = editing
    be = NvimBackend.connect(address, call_timeout=0.2, retry_interval=0)
    try:
        assert be.status()["connected"] is True
        os.kill(pid, signal.SIGSTOP)
        try:
            assert be.snapshot() is None
            assert be.stalled and be.status()["connected"] is False
        finally:
            os.kill(pid, signal.SIGCONT)
        deadline = time.monotonic() + 10
        while be.stalled and time.monotonic() < deadline:
            nv.exec_lua("return 1")  # the harness's own channel: Neovim runs again
        assert not be.stalled and be.status()["connected"] is True and "error" not in be.status()
    finally:
        be.close()


class _StopsDuringTheCall:
    """An editor whose snapshot answered but which stopped answering during the call.

    Not a real Neovim: a real one cannot be stopped at exactly that point between the
    snapshot and the tool's own requests, which is the moment this test is about.
    """

    name = "nvim"

    def snapshot(self) -> Any:
        from simple_brief.editor import Snapshot

        return Snapshot(path=None, filetype="", line_count=1, modified=False, cursor=(1, 1))

    def overlays(self) -> dict[Path, str]:
        return {}

    def diagnostics(self) -> dict[Path, list[Any]]:
        return {}

    def symbols(self, path: Path) -> None:
        return None

    def status(self) -> dict[str, Any]:
        return {"connected": False, "message": "Neovim has not answered for 2 s; answering from disk"}

    def intel(self) -> None:
        return None


def test_a_neovim_that_stops_after_the_snapshot_still_gets_the_disk_note(tmp_path: Path) -> None:
    from simple_brief import tools as registry

    (tmp_path / "a.py").write_text(SAVED)
    state = Served.over(Workspace.at(tmp_path), editor=_StopsDuringTheCall())  # type: ignore[arg-type]
    result = state.call(registry.get("simple_read"), {"path": "a.py"})
    assert "[Neovim has not answered for 2 s; answering from disk]" in result.blocks
