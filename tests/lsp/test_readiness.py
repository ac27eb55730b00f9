"""`lsp.readiness.WorkspaceReadiness`: which signs of loading a workspace-wide request waits
for (work-done progress, known log lines, a quiet period), and that loading a wait ran out
on costs one bounded wait, not one per request. These feed it the messages real servers
sent (recorded from pyright 1.1.414, basedpyright 1.40.2, typescript-language-server 5.3.0
and pylsp); the real servers themselves: tests/lsp/test_readiness_real.py."""

from __future__ import annotations

from pathlib import Path

from simple_brief.lsp import readiness
from simple_brief.lsp.readiness import WorkspaceReadiness


def never(loading: list[str], waited: float) -> None:
    raise AssertionError(f"waited for {loading}")


def settled(ready: WorkspaceReadiness) -> WorkspaceReadiness:
    """`ready` with its quiet period over (as if the last sign came long ago)."""
    ready._last_sign = -1e9
    return ready


def test_pyright_is_known_by_its_first_log_line_as_it_sends_no_server_info() -> None:
    """pyright 1.1.414 answers `initialize` without `serverInfo`: the old rule, keyed on that
    name, never waited for it (the first references of flask's `current_app`: 1 of 62)."""
    ready = WorkspaceReadiness("/somewhere/node_modules/.bin/some-wrapper")
    ready.logged("Pyright language server 1.1.414 starting")
    ready.expect(None)
    ready.initialized()
    ready.logged("Auto-excluding **/node_modules")
    assert ready.loading() == ["finding the workspace's source files"]
    ready.logged("Found 27 source files")
    assert ready.loading() == []


def test_basedpyright_by_its_server_info_and_pyright_by_its_program() -> None:
    for program, name in (("basedpyright-langserver", "basedpyright"), ("/opt/bin/pyright-langserver", None)):
        ready = WorkspaceReadiness(program)
        ready.expect(name)
        assert ready.loading() == ["finding the workspace's source files"], program
        ready.logged("No source files found.")
        assert ready.loading() == [], program


def test_work_done_progress_is_loading_until_its_end() -> None:
    """typescript-language-server: create, begin "Initializing JS/TS language features…", end."""
    ready = WorkspaceReadiness("typescript-language-server")
    ready.expect("typescript-language-server")
    ready.initialized()
    assert ready.loading() == []
    ready.opened()
    ready.created()
    ready.progressed("52461d1f", {"kind": "begin", "title": "Initializing JS/TS language features…"})
    ready.progressed("52461d1f", {"kind": "report", "message": "1/3"})
    assert ready.loading() == ["Initializing JS/TS language features…"]
    ready.progressed("52461d1f", {"kind": "end"})
    assert ready.loading() == []
    assert settled(ready).wait(0.0, never) == []


def test_linting_is_not_loading() -> None:
    """pylsp reports each lint run (`lint: ruff`) as work-done progress: not a reason to wait."""
    ready = settled(WorkspaceReadiness("pylsp"))
    ready.progressed(7, {"kind": "begin", "title": "lint: ruff"})
    assert ready.loading() == []
    assert settled(ready).wait(0.0, never) == []


def test_a_fresh_server_is_not_ready_before_its_quiet_period() -> None:
    """Right after `initialized` (or the first document opened) a server may not have said yet
    that it loads: a wait reports at once and runs to its bound."""
    ready = WorkspaceReadiness("jedi-language-server")
    ready.expect("jedi-language-server")
    ready.initialized()
    ticks: list[list[str]] = []
    assert ready.wait(0.05, lambda loading, waited: ticks.append(loading)) == []
    assert ticks and ticks[0] == ["settling after start"]
    settled(ready)
    assert ready.wait(0.0, never) == []


def test_a_later_document_restarts_the_quiet_period_only_for_servers_that_report_loading() -> None:
    quiet = settled(WorkspaceReadiness("jedi-language-server"))
    quiet.opened()
    settled(quiet).opened()  # the second document: jedi never reported progress
    assert quiet.wait(0.0, never) == []
    loud = settled(WorkspaceReadiness("typescript-language-server"))
    loud.opened()
    loud.progressed("t", {"kind": "begin", "title": "Initializing JS/TS language features…"})
    loud.progressed("t", {"kind": "end"})
    settled(loud).opened()  # another project may start loading now
    assert loud._last_sign is not None and loud._last_sign > 0


def test_loading_a_wait_ran_out_on_is_not_waited_for_again_but_still_said() -> None:
    """rust-analyzer or clangd may index for minutes: the first request waits its bound, the
    next ones go at once, and each answer says the server is still loading."""
    ready = settled(WorkspaceReadiness("clangd"))
    ready.progressed("backgroundIndexProgress", {"kind": "begin", "title": "indexing"})
    assert ready.wait(0.01) == ["indexing"]
    assert ready.wait(60.0, never) == ["indexing"]
    ready.progressed("backgroundIndexProgress", {"kind": "end"})
    assert settled(ready).wait(60.0, never) == []


def test_a_log_line_that_never_comes_is_waited_for_once_and_said_for_a_while() -> None:
    """Its log level may hide the line: after `GIVE_UP` seconds answers stop saying so."""
    ready = WorkspaceReadiness("basedpyright-langserver")
    ready.expect("basedpyright")
    settled(ready)
    assert ready.wait(0.01) == ["finding the workspace's source files"]
    assert ready.wait(60.0, never) == ["finding the workspace's source files"]
    for key in ready._waited_out:
        ready._waited_out[key] -= readiness.GIVE_UP + 1
    assert settled(ready).wait(60.0, never) == []


def test_typescript_language_server_is_awaited_until_its_first_progress_when_the_file_has_a_project(
    tmp_path: Path,
) -> None:
    """tsserver boots for a second before it reports loading the project of the first file
    opened (longer than the quiet period on a busy machine: 12 of rxjs's 115 `Subscription`
    sites); a file with no tsconfig.json above it loads no project, so nothing is awaited."""
    (tmp_path / "app").mkdir()
    (tmp_path / "tsconfig.json").write_text("{}")
    (tmp_path / "loose").mkdir()
    for folder, expected in (("app", ["starting tsserver"]), ("loose", [])):
        root = tmp_path if folder == "app" else tmp_path / "loose"
        ready = WorkspaceReadiness("/x/node_modules/.bin/wrapper")
        ready.logged('Using Typescript version (bundled) 5.9.3 from path "/x/typescript/lib/tsserver.js"')
        ready.expect(None)
        ready.opened(tmp_path / folder / "a.ts", root)
        assert ready.loading() == expected, folder
    ready.created()
    ready.progressed("t", {"kind": "begin", "title": "Initializing JS/TS language features…"})
    assert ready.loading() == ["Initializing JS/TS language features…"]


def test_its_state_says_what_is_loading_and_for_how_long_until_it_is_ready() -> None:
    """What `server_status` shows: settling right after start, the work's title while it
    runs (for how long since it began), ready once it ended and the quiet period passed."""
    ready = WorkspaceReadiness("clangd")
    ready.expect("clangd")
    assert ready.state().text() == "ready"  # not `initialized` yet: nothing said so far
    ready.initialized()
    assert ready.state().work == ["settling after start"]
    ready.progressed("backgroundIndexProgress", {"kind": "begin", "title": "indexing"})
    ready.progressed("other", {"kind": "begin", "title": "indexing"})
    assert ready._loading_since is not None
    ready._loading_since -= 12.0
    state = ready.state()
    assert (state.ready, state.work) == (False, ["indexing"]) and state.seconds is not None and state.seconds >= 12
    assert state.text() == f"loading the workspace ({state.seconds:g} s so far; work: indexing)"
    # clangd 14's reports: a count in `message`, else a percentage.
    ready.progressed("backgroundIndexProgress", {"kind": "report", "message": "12/83", "percentage": 14})
    ready.progressed("other", {"kind": "report", "percentage": 40})
    assert ready.state().work == ["indexing (12/83)", "indexing (40%)"]
    ready.progressed("backgroundIndexProgress", {"kind": "end"})
    assert ready.state().work == ["indexing (40%)"]
    assert ready.state().seconds is not None and ready.state().seconds >= 12  # the other is still on
    ready.progressed("other", {"kind": "end"})
    assert ready.state().work == ["settling after start"]
    assert settled(ready).state() == readiness.Loading([], None)
    assert ready.state().text() == "ready"


def test_a_wait_says_how_far_the_work_it_waits_for_is() -> None:
    """The MCP progress while a request waits, and the note when the wait ran out, carry the
    count clangd reports: an agent sees whether asking again soon is worth it."""
    ready = settled(WorkspaceReadiness("clangd"))
    ready.progressed("backgroundIndexProgress", {"kind": "begin", "title": "indexing", "percentage": 0})
    ready.progressed("backgroundIndexProgress", {"kind": "report", "message": "141/241", "percentage": 58})
    ticks: list[list[str]] = []
    assert ready.wait(0.05, lambda loading, waited: ticks.append(loading)) == ["indexing (141/241)"]
    assert ticks and ticks[0] == ["indexing (141/241)"]
