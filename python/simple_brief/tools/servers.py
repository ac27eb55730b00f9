"""Asking language servers, for the tools of every toolset: who answers a method for a file
(the editor's LSP clients, else the session's language servers: from the configs, or found
installed, `simple_brief.intel.server_discovery`), the question with its positions converted,
their findings and fix-its.

The session's servers are started by the factory the host was built with
(`Session.server_pool`: the disk-mode client, `simple_brief.lsp.pool.ServerPool`).
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.intel import LanguageIntel, LspReply
from simple_brief.intel.protocol import (
    convert_positions,
    diagnostic_from_lsp,
    diagnostic_to_lsp,
    fixit_from_action,
    path_to_uri,
    uri_to_path,
)
from simple_brief.model import Diagnostic, FixIt
from simple_brief.render.diagnostics import OWN_SOURCE
from simple_brief.source import Source
from simple_brief.tools import Call

#: How long one request may wait for its servers, seconds.
TIMEOUT = 10.0

#: Code actions are asked for at most this many diagnostics of one call (one request each).
MAX_FIXIT_REQUESTS = 40
#: And for at most this long in all, seconds.
FIXIT_SECONDS = 15.0


def session_pool(call: Call) -> LanguageIntel:
    """The session's language servers from the configs (the user's own, and the workspace's
    once trusted), or found installed for languages they name none for; created on first
    use; started anew when the servers named or `servers.discover` change (the person
    trusted the workspace config, or edited it)."""
    settings = call.config
    call.session.untrusted = settings.untrusted
    start = call.session.server_pool
    if start is None:
        return _NO_SERVERS
    with call.session.servers_lock:
        current = call.session.language_servers
        if current is not None and (
            current.config.servers != settings.servers or current.config.discover != settings.discover
        ):
            current.close()
            current = None
        if current is None:
            current = call.session.language_servers = start(call.workspace, settings)
        pool: LanguageIntel = current
    return pool


class _NoServers:
    """The session's servers when the host was built without a way to start them."""

    def servers(self, path: Path, method: str) -> list[str]:
        return []

    def request(self, path: Path, method: str, params: dict[str, Any], timeout: float = TIMEOUT) -> list[LspReply]:
        return []

    def diagnostics(self, path: Path, timeout: float = TIMEOUT) -> list[LspReply] | None:
        return []

    def close(self) -> None:
        return None


_NO_SERVERS = _NoServers()


def no_server_hint(call: Call, path: Path | None = None) -> str:
    """How to get a language server for a file (default: the one the servers were last asked
    about): trust the workspace config that names one, trust the workspace whose virtual
    environment holds one, install one, or name one (the end of a sentence)."""
    untrusted: str | None = getattr(call.session, "untrusted", None)
    pool = call.session.language_servers
    asked = getattr(pool, "discovery", None)
    found = asked(languages.for_path(path).name if path is not None else None) if asked is not None else None
    hint = found.hint() if found is not None else None
    if untrusted and (found is None or hint is None or not found.found):
        return untrusted
    return hint or "attach one in Neovim or name one in .simple-brief.toml ([servers.NAME] command = [...])."


def provider(call: Call, real: Path, method: str, shown: str) -> LanguageIntel:
    """Who answers `method` for `real`: the editor's LSP clients when they serve it, else the
    session's configured servers.

    Raises:
        UserError: nobody answers the method for the file (the sentence says how to fix it).
    """
    editor = call.editor.intel()
    if editor is not None and editor.servers(real, method):
        return editor
    pool = session_pool(call)
    if pool.servers(real, method):
        return pool
    raise UserError(f"no language server answers {method} for {shown}; {no_server_hint(call, real)}")


def text_reader(call: Call, intel: LanguageIntel) -> Any:
    """`text_of(uri)` for position conversion: the workspace's view (overlays first), else the
    provider's own reader for files outside the workspace (library sources)."""
    outside = getattr(intel, "text_of", None)

    def text_of(uri: str) -> str | None:
        path = uri_to_path(uri)
        if path is None:
            return None
        try:
            return call.workspace.read(path)[1].text
        except UserError:
            return outside(uri) if outside is not None else None

    return text_of


def settle(call: Call, intel: LanguageIntel, real: Path, method: str) -> None:
    """Before a request about the whole workspace: wait (bounded, reporting progress) for the
    session's servers still loading it; the editor's clients are asked at once."""
    wait = getattr(intel, "settle", None)
    if wait is not None:
        wait(real, method, call.report)


def ask(
    call: Call, real: Path, shown: str, method: str, params: dict[str, Any], timeout: float = TIMEOUT
) -> tuple[LanguageIntel, list[LspReply]]:
    """Send a request through the provider; replies with positions in code points. Raises a
    UserError when every server failed (their errors named)."""
    intel = provider(call, real, method, shown)
    settle(call, intel, real, method)
    replies = intel.request(real, method, params, timeout)
    text_of = text_reader(call, intel)
    uri = path_to_uri(real)
    for reply in replies:
        if reply.error is None and reply.result is not None:
            reply.result = convert_positions(reply.result, text_of, reply.encoding, uri)
    if replies and all(r.error is not None for r in replies):
        failed = "; ".join(f"{r.server}: {r.error}" for r in replies)
        raise UserError(f"the language server could not answer {method} for {shown} ({failed}); try again or check it.")
    return intel, replies


def locate(call: Call, path: str, line: int, col: int) -> tuple[Path, str, Source, dict[str, int]]:
    """The file, how it is shown, its text, and the LSP position (0-based) of `line:col`."""
    real, source = call.workspace.read(path)
    shown = call.workspace.display(real)
    count = max(source.line_count, 1)
    if not 1 <= line <= count:
        raise UserError(f"line {line} is outside {shown}, which has {count} lines; give a line from 1 to {count}.")
    width = len(source.lines[line - 1]) if line - 1 < len(source.lines) else 0
    if not 1 <= col <= width + 1:
        raise UserError(
            f"column {col} is outside line {line} of {shown} ({width} characters); give a column from 1 to {width + 1}."
        )
    return real, shown, source, {"line": line - 1, "character": col - 1}


def error_notes(replies: list[LspReply]) -> list[str]:
    """One `[server: error]` note per server that failed (shown after the answer)."""
    return [f"[{r.server}: {r.error}]" for r in replies if r.error is not None]


def incomplete_notice(replies: list[LspReply]) -> str | None:
    """The line that opens an answer some server gave with a caveat (it was still loading
    the workspace: the answer may be incomplete), or None."""
    notes = [f"{r.server} {r.note}" for r in replies if r.error is None and r.note]
    return f"[{'; '.join(notes)}.]" if notes else None


def server_diagnostics(call: Call, real: Path) -> tuple[list[tuple[Diagnostic, dict[str, Any]]], list[str], list[str]]:
    """Language-server findings for one file with their LSP JSON (for code actions), notes
    (servers that failed), and who was asked (empty: no server checks this file).

    Neovim mode: the editor's diagnostics (every source). Otherwise the session's configured
    servers, waiting for their publish after syncing the current text.
    """
    if call.editor.name != "disk":
        # Neovim publishes its clients' findings; a clean buffer has none listed at all.
        editor_found = call.editor.diagnostics().get(real)
        editor = call.editor.intel()
        if editor_found is not None or (editor is not None and editor.servers(real, "textDocument/hover")):
            return [(d, diagnostic_to_lsp(d)) for d in editor_found or []], [], ["neovim"]
    pool = session_pool(call)
    replies = pool.diagnostics(real, TIMEOUT) or []
    found: list[tuple[Diagnostic, dict[str, Any]]] = []
    text_of = text_reader(call, pool)
    for reply in replies:
        items = convert_positions(reply.result or [], text_of, reply.encoding, path_to_uri(real))
        found.extend((diagnostic_from_lsp(raw, reply.server), raw) for raw in items if isinstance(raw, dict))
    return found, error_notes(replies), [r.server for r in replies]


def add_fixits(call: Call, real: Path, found: list[tuple[Diagnostic, dict[str, Any]]]) -> tuple[list[Diagnostic], str]:
    """The diagnostics with fix-its from quickfix code actions (one request per diagnostic,
    bounded by MAX_FIXIT_REQUESTS and FIXIT_SECONDS); a note when not all were asked."""
    method = "textDocument/codeAction"
    out = [d for d, _ in found]
    todo = [i for i, (d, _) in enumerate(found) if d.source != OWN_SOURCE]
    if not todo:
        return out, ""
    try:
        intel = provider(call, real, method, call.workspace.display(real))
    except UserError:
        return out, ""
    text_of = text_reader(call, intel)
    deadline = time.monotonic() + FIXIT_SECONDS
    asked = 0
    for i in todo[:MAX_FIXIT_REQUESTS]:
        if time.monotonic() > deadline:
            break
        asked += 1
        diag, raw = found[i]
        params = {
            "range": raw.get("range") or diag.range.to_lsp(),
            "context": {"diagnostics": [raw], "only": ["quickfix"]},
        }
        fixes: list[FixIt] = []
        for reply in intel.request(real, method, params, min(TIMEOUT, max(deadline - time.monotonic(), 0.5))):
            if reply.error is not None or not isinstance(reply.result, list):
                continue
            actions = convert_positions(reply.result, text_of, reply.encoding, path_to_uri(real))
            for action in actions:
                fix = fixit_from_action(action, raw, real) if isinstance(action, dict) else None
                if fix is not None:
                    fixes.append(fix)
        fixes.sort(key=lambda f: -f.confidence)
        out[i] = dataclasses.replace(diag, fixits=tuple(fixes))
    note = ""
    if asked < len(todo):
        note = f"[fix-its asked for {asked} of {len(todo)} diagnostics (one request each); the rest have none shown.]"
    return out, note
