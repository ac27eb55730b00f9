"""`lsp.readiness.WorkspaceReadiness`: which servers' word a workspace-wide request waits
for, and that a word that never comes costs one bounded wait, not one per request. (The
real wait against basedpyright: tests/lsp/test_discovery.py.)"""

from __future__ import annotations

from simple_brief.lsp.readiness import WorkspaceReadiness


def test_pyright_and_basedpyright_are_ready_once_they_logged_the_files_they_found() -> None:
    for name, message in (("basedpyright", "Found 5 source files"), ("Pyright", "No source files found.")):
        ready = WorkspaceReadiness()
        ready.expect(name)
        ready.logged("No include entries specified; assuming /tmp/project")
        assert not ready.wait(0.0)
        ready = WorkspaceReadiness()
        ready.expect(name)
        ready.logged(message)
        assert ready.wait(0.0)


def test_a_server_with_no_known_word_is_ready_at_once() -> None:
    for name in ("jedi-language-server", None, 3):
        ready = WorkspaceReadiness()
        ready.expect(name)
        assert ready.wait(0.0)


def test_a_word_that_never_comes_is_waited_for_once() -> None:
    ready = WorkspaceReadiness()
    ready.expect("basedpyright")
    assert not ready.wait(0.05)
    assert ready.wait(0.0)  # no second wait: the server now counts as ready
