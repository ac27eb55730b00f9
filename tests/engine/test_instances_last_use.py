"""Several Neovims on one workspace: ordered by the person's last use (issue 14).

The instance files are written here as lua/simple_brief/instances.lua writes them; the two
live processes are this one and its parent. `AutoBackend` is checked with a stand-in for
`NvimBackend` (tests/nvim/test_two_nvims.py does it with real Neovims and a real client).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, ClassVar

import pytest

from simple_brief.editor import Snapshot
from simple_brief.editor.context import build_context, context_line, following
from simple_brief.editor.nvim import attach as attach_mod
from simple_brief.editor.nvim import instances

ME, PARENT = os.getpid(), os.getppid()


def put(state: Path, pid: int, cwd: Path, started: float, used: Any = None, **extra: Any) -> None:
    folder = state / "instances"
    folder.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = {"servername": f"127.0.0.1:{pid}", "cwd": str(cwd), "pid": pid, "started": started}
    record["version"] = "0.1.0"
    if used is not None:
        record["used"] = used
    record.update(extra)
    tmp = folder / f"{pid}.json.tmp"
    tmp.write_text(json.dumps(record), encoding="utf-8")
    tmp.replace(folder / f"{pid}.json")  # as M.write does: a rename into the folder


def test_instances_are_ordered_by_last_use_falling_back_to_started(tmp_path: Path) -> None:
    put(tmp_path, PARENT, tmp_path, started=100)
    put(tmp_path, ME, tmp_path, started=200)
    # Neither used yet: the newest first (as before).
    assert [e["pid"] for e in instances.instances(tmp_path)] == [ME, PARENT]
    assert [instances.used(e) for e in instances.instances(tmp_path)] == [200, 100]
    # The older one used after the newer one started: it comes first.
    put(tmp_path, PARENT, tmp_path, started=100, used=250.5, file=str(tmp_path / "a.py"))
    found = instances.instances(tmp_path)
    assert [e["pid"] for e in found] == [PARENT, ME]
    assert found[0].get("file") == str(tmp_path / "a.py") and "file" not in found[1]
    put(tmp_path, ME, tmp_path, started=200, used=250.75)
    assert [e["pid"] for e in instances.instances(tmp_path)] == [ME, PARENT]


@pytest.mark.parametrize("used", [True, "300", [1]])
def test_a_malformed_used_counts_as_started(tmp_path: Path, used: Any) -> None:
    put(tmp_path, PARENT, tmp_path, started=100, used=used)
    put(tmp_path, ME, tmp_path, started=200)
    found = instances.instances(tmp_path)
    assert [e["pid"] for e in found] == [ME, PARENT]
    assert "used" not in found[1] and instances.used(found[1]) == 100


def test_best_instance_is_the_one_used_last_among_those_on_the_workspace(tmp_path: Path) -> None:
    state, root = tmp_path / "state", tmp_path / "ws"
    (root / "sub").mkdir(parents=True)
    put(state, PARENT, root, started=100, used=150)
    put(state, ME, tmp_path / "elsewhere", started=200, used=300)  # used last, but not on the workspace
    best = instances.best_instance(root / "sub", state)
    assert best is not None and best["pid"] == PARENT
    put(state, ME, tmp_path, started=200, used=300)  # an ancestor of the workspace
    assert [e["pid"] for e in instances.for_workspace(root, state)] == [ME, PARENT]
    best = instances.best_instance(root, state)
    assert best is not None and best["pid"] == ME


def test_the_registry_stamp_changes_with_every_write(tmp_path: Path) -> None:
    assert instances.registry_stamp(tmp_path) is None
    put(tmp_path, ME, tmp_path, started=1)
    first = instances.registry_stamp(tmp_path)
    assert first is not None
    os.utime(tmp_path / "instances", ns=(1, 1))  # whatever the clock's granularity
    put(tmp_path, ME, tmp_path, started=1, used=2)
    assert instances.registry_stamp(tmp_path) not in (None, 1)


def test_the_line_says_which_neovim_only_when_several_run() -> None:
    ctx = build_context(Snapshot(Path("/ws/src/x.py"), "python", 10, False, (4, 1)), [])
    assert following([]) is None
    one = [{"pid": 7, "followed": True, "usedLast": True, "origin": "instances"}]
    assert following(one) is None
    assert context_line(ctx, "/ws") == "editor: src/x.py:4:1 python"
    two: list[dict[str, Any]] = [{"pid": 3, "usedLast": False, "followed": False}, {**one[0], "pid": 4242}]
    ctx["neovim"] = following(two)
    assert ctx["neovim"] == {"index": 2, "count": 2, "pid": 4242, "usedLast": True, "origin": "instances"}
    assert context_line(ctx, "/ws") == "editor: src/x.py:4:1 python · Neovim 2 of 2 (pid 4242, used last)"
    # Kept because the agent runs inside it ($NVIM), not because it was used last.
    inside: list[dict[str, Any]] = [{"pid": 3, "usedLast": True}, {"pid": 4242, "followed": True, "origin": "$NVIM"}]
    ctx["neovim"] = following(inside)
    assert context_line(ctx, "/ws").endswith(" · Neovim 2 of 2 (pid 4242, $NVIM)")


class FakeNvim:
    """Stands in for NvimBackend: answers at addresses listed in `LIVE`."""

    LIVE: ClassVar[set[str]] = set()
    opened: ClassVar[list[FakeNvim]] = []
    name = "nvim"

    def __init__(self, address: str, origin: str = "explicit", **options: Any) -> None:
        self.address, self.origin, self.options = address, origin, options
        self.connected = address in self.LIVE
        self.stalled = False
        self.closed = False
        self.opened.append(self)

    @classmethod
    def connect(cls, address: str, **options: Any) -> FakeNvim:
        return cls(address, **options)

    def status(self) -> dict[str, Any]:
        return {"backend": "nvim", "address": self.address, "origin": self.origin, "pid": int(self.address[10:])}

    def snapshot(self) -> None:
        return None

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> type[FakeNvim]:
    monkeypatch.setattr(attach_mod, "NvimBackend", FakeNvim)
    monkeypatch.delenv("NVIM", raising=False)
    FakeNvim.LIVE = {f"127.0.0.1:{ME}", f"127.0.0.1:{PARENT}"}
    FakeNvim.opened = []
    return FakeNvim


def test_auto_backend_follows_the_one_used_last_and_closes_the_old(tmp_path: Path, fake: type[FakeNvim]) -> None:
    state = tmp_path / "state"
    put(state, PARENT, tmp_path, started=100)
    put(state, ME, tmp_path, started=200)
    auto = attach_mod.AutoBackend(tmp_path, state_dir=state, retry_interval=3600, secrets=None)
    first = auto.current
    assert isinstance(first, FakeNvim) and first.address == f"127.0.0.1:{ME}"  # the newest, none used yet
    put(state, PARENT, tmp_path, started=100, used=300)
    auto.snapshot()  # a call starts: the registry changed, the older one was used last
    now = auto.current
    assert isinstance(now, FakeNvim) and now.address == f"127.0.0.1:{PARENT}" and now.origin == "instances"
    assert first.closed and not now.closed
    assert [(e["pid"], e["followed"], e["usedLast"]) for e in auto.editors()] == [
        (PARENT, True, True),
        (ME, False, False),
    ]
    # One that was used last but does not answer is left alone (and not asked again until used again).
    fake.LIVE.discard(f"127.0.0.1:{ME}")
    put(state, ME, tmp_path, started=200, used=400)
    auto.snapshot()
    auto.snapshot()
    assert auto.current is now and not now.closed
    assert [b.address for b in fake.opened].count(f"127.0.0.1:{ME}") == 2  # at start, and once now
    fake.LIVE.add(f"127.0.0.1:{ME}")
    put(state, ME, tmp_path, started=200, used=500)
    auto.status()
    latest = auto.current
    assert isinstance(latest, FakeNvim) and latest.address == f"127.0.0.1:{ME}" and now.closed
    auto.close()


def test_auto_backend_keeps_nvim_and_dollar_nvim(
    tmp_path: Path, fake: type[FakeNvim], monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    put(state, PARENT, tmp_path, started=100)
    put(state, ME, tmp_path, started=200)
    explicit = attach_mod.AutoBackend(tmp_path, f"127.0.0.1:{ME}", state_dir=state, retry_interval=0)
    monkeypatch.setenv("NVIM", f"127.0.0.1:{ME}")
    inside = attach_mod.AutoBackend(tmp_path, state_dir=state, retry_interval=0)
    start = inside.current
    assert isinstance(start, FakeNvim) and start.origin == "$NVIM"
    put(state, PARENT, tmp_path, started=100, used=300)
    for auto in (explicit, inside):
        auto.snapshot()
        kept = auto.current
        assert isinstance(kept, FakeNvim) and kept.address == f"127.0.0.1:{ME}"
        followed = [e for e in auto.editors() if e["followed"]]
        assert [(e["pid"], e["usedLast"]) for e in followed] == [(ME, False)]
    assert not any(b.address == f"127.0.0.1:{PARENT}" for b in fake.opened)
