"""The engine's one host (issue 27): each call sees its own editor's unsaved buffers, the
workspace config is read once per call, one state per workspace root, and `close` stops
what the calls started.

The editors here are `DiskBackend`s that report unsaved buffers: what the host does with a
call's buffers does not depend on where they come from, and the Neovim backend hands its
buffers over through the same `EditorBackend.overlays` (tests/nvim checks that side with a
real headless Neovim), so no Neovim is needed to show that two calls' buffers stay apart.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from simple_brief import cli
from simple_brief import tools as registry
from simple_brief.editor import DiskBackend
from simple_brief.files import config
from simple_brief.host.core import Host
from simple_brief.host.served import Served
from simple_brief.index import open_symbol_index

from conftest import write_trusted_config

APP = "def on_disk():\n    pass\n"


class UnsavedEditor(DiskBackend):
    """An editor with one unsaved buffer: `path` holding `text`."""

    def __init__(self, path: Path, text: str) -> None:
        self.buffers = {path: text}

    def overlays(self) -> dict[Path, str]:
        return dict(self.buffers)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(APP)
    return tmp_path.resolve()


def _names(answer: Any) -> str:
    assert not answer.is_error, answer.blocks
    return "\n".join(answer.blocks)


def test_two_calls_at_once_each_see_only_their_own_editors_buffers(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both calls take their editor's buffers, then both tools run (a barrier holds each
    tool until the other call has taken its buffers): neither sees the other's text."""
    host = Host()
    first = UnsavedEditor(root / "app.py", "def from_the_first_editor():\n    pass\n")
    second = UnsavedEditor(root / "app.py", "def from_the_second_editor():\n    pass\n")
    both_started = threading.Barrier(2, timeout=30)
    real_invoke = registry.invoke

    def after_both(name: str, args: dict[str, Any], call: registry.Call) -> registry.ToolResult:
        both_started.wait()
        return real_invoke(name, args, call)

    monkeypatch.setattr(registry, "invoke", after_both)
    seen: dict[str, str] = {}

    def ask(label: str, editor: UnsavedEditor) -> None:
        seen[label] = _names(host.call("simple_read", {"path": "app.py"}, root=root, editor=editor))

    threads = [threading.Thread(target=ask, args=pair) for pair in (("first", first), ("second", second))]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        host.close()
    assert "from_the_first_editor" in seen["first"] and "from_the_second_editor" not in seen["first"]
    assert "from_the_second_editor" in seen["second"] and "from_the_first_editor" not in seen["second"]
    assert host.workspaces() == []  # (closed)


def test_an_editors_buffers_are_never_left_in_the_workspace(root: Path) -> None:
    host = Host()
    editor = UnsavedEditor(root / "app.py", "def unsaved():\n    pass\n")
    assert "unsaved" in _names(host.call("simple_read", {"path": "app.py"}, root=root, editor=editor))
    assert host.state(root).workspace.overlays.editor == {}
    assert "on_disk" in _names(host.call("simple_read", {"path": "app.py"}, root=root))
    host.close()


def test_the_agents_overlay_is_kept_between_calls_and_wins_over_the_editors_buffer(root: Path) -> None:
    host = Host()
    editor = UnsavedEditor(root / "app.py", "def unsaved():\n    pass\n")
    laid = host.call("files_apply_overlay", {"path": "app.py", "content": "def agents():\n    pass\n"}, root=root)
    assert not laid.is_error, laid.blocks
    shown = _names(host.call("simple_read", {"path": "app.py"}, root=root, editor=editor))
    assert "agents" in shown and "unsaved" not in shown
    host.close()


def _count_config_reads(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Each config file parsed, with how often (`config.parse`, behind every `config.load`)."""
    parsed: dict[str, int] = {}
    real_parse = config.parse

    def counted(text: str, path: Path, user: bool = False) -> config.Config:
        parsed[str(path)] = parsed.get(str(path), 0) + 1
        return real_parse(text, path, user)

    monkeypatch.setattr(config, "parse", counted)
    return parsed


@pytest.fixture
def configured(root: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace config (trusted) and a user config, both naming something."""
    write_trusted_config(root, "[limits]\nbudget = 4000\n")
    user = tmp_path_factory.mktemp("user") / "config.toml"
    user.write_text('[secrets]\ndeny = ["*.vault"]\n')
    monkeypatch.setenv("SIMPLE_BRIEF_CONFIG", str(user))
    return root


def test_a_command_reads_the_config_once(configured: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`simple-brief run server_status` (the workspace, the budget, the tool's own notes all
    came from the config: it was read three times) reads each config file once."""
    parsed = _count_config_reads(monkeypatch)
    assert cli.main(["run", "server_status", "--root", str(configured)]) == 0
    assert parsed and set(parsed.values()) == {1}, parsed


def test_a_servers_call_reads_the_config_once_and_the_call_carries_it(
    configured: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[config.Config] = []
    real_invoke = registry.invoke

    def keep(name: str, args: dict[str, Any], call: registry.Call) -> registry.ToolResult:
        seen.append(call.config)
        return real_invoke(name, args, call)

    state = Served(Host(), configured)
    parsed = _count_config_reads(monkeypatch)
    monkeypatch.setattr(registry, "invoke", keep)
    try:
        for _ in range(2):
            assert not state.call("server_status", {}).is_error
            assert set(parsed.values()) == {1}, parsed
            parsed.clear()
    finally:
        state.close()
    assert [c.budget for c in seen] == [4000, 4000] and "*.vault" in seen[0].secrets.deny


def test_one_state_per_root_until_its_secrets_change(root: Path) -> None:
    host = Host()
    first = host.state(root)
    assert host.state(root / ".") is first
    (root / ".simple-brief.toml").write_text('[secrets]\ndeny = ["*.vault"]\n')
    again = host.state(root)
    assert again is not first and "*.vault" in again.workspace.secrets.deny
    host.close()


def test_a_closed_host_stops_what_its_calls_started_and_refuses_new_calls(root: Path) -> None:
    host = Host()
    assert not host.call("docs", {"action": "search", "query": "on_disk"}, root=root).is_error
    workspace = host.state(root).workspace
    store = open_symbol_index(workspace)
    assert store is not None and store.docs is not None  # the docs index is its file store's
    host.close()
    assert store.closed and open_symbol_index(workspace) is None and host.roots() == []
    refused = host.call("simple_read", {"path": "app.py"}, root=root)
    assert refused.is_error and "shutting down" in refused.blocks[0]
