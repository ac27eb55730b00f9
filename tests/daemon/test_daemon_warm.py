"""The daemon's warm workspaces: the same root gives the same Workspace (its caches), until
its config changes; nothing a call laid over it reaches the next call."""

from __future__ import annotations

from pathlib import Path

import pytest

from simple_brief.daemon.warm import WarmWorkspaces
from simple_brief.errors import UserError


def test_the_same_root_is_the_same_workspace(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    warm = WarmWorkspaces()
    first = warm.at(str(tmp_path))
    first.outline("a.py")
    again = warm.at(str(tmp_path / "." / ""))
    assert again is first and len(again._cache) == 1  # the parse cache stayed
    assert warm.roots() == [str(tmp_path.resolve())]


def test_overlays_do_not_outlive_a_call(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    warm = WarmWorkspaces()
    warm.at(str(tmp_path)).set_overlay("a.py", "def g():\n    pass\n")
    assert not warm.at(str(tmp_path)).overlays


def test_a_changed_config_gives_a_fresh_workspace(tmp_path: Path) -> None:
    warm = WarmWorkspaces()
    first = warm.at(str(tmp_path))
    (tmp_path / ".simple-brief.toml").write_text('[secrets]\ndeny = ["*.vault"]\n')
    second = warm.at(str(tmp_path))
    assert second is not first and "*.vault" in second.secrets.deny


def test_errors_are_those_of_workspace_at(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="is not a directory"):
        WarmWorkspaces().at(str(tmp_path / "missing"))


def test_the_least_recently_used_workspace_is_dropped(tmp_path: Path) -> None:
    warm = WarmWorkspaces(limit=2)
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
        warm.at(str(tmp_path / name))
    assert warm.roots() == [str((tmp_path / n).resolve()) for n in ("b", "c")]


class _Index:
    """Stands for a symbol index kept in `Workspace.attached`."""

    def __init__(self) -> None:
        self.closed = False
        self.watching = False

    def watch(self) -> bool:
        self.watching = True
        return True

    def close(self) -> None:
        self.closed = True


def test_after_a_call_indexes_watch_or_are_closed_over_the_memory_limit(tmp_path: Path) -> None:
    warm = WarmWorkspaces()
    ws = warm.at(str(tmp_path))
    index = _Index()
    ws.attached["symbol_index"] = index
    warm.settle(lambda: 10, limit=100)
    assert index.watching and not index.closed
    warm.settle(lambda: 1000, limit=100)
    assert index.closed and "symbol_index" not in ws.attached
    # Reopened, the index alone is over the limit: kept from now on, not reopened every call.
    again = _Index()
    ws.attached["symbol_index"] = again
    warm.settle(lambda: 1000, limit=100)
    warm.settle(lambda: 1100, limit=100)
    assert not again.closed and again.watching
    warm.settle(lambda: 5000, limit=100)  # grown far beyond: closed again
    assert again.closed
