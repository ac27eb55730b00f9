"""Language servers simple-brief starts itself in disk mode: `ServerPool`, a `LanguageIntel`.

The servers come from the configs (`simple_brief.files.config`); for a language they name none
for, the first installed server found (`simple_brief.intel.server_discovery`, asked again on each
request so a new install or a new trust counts; a server no language chooses any more is
stopped). Each starts on the first request for a file of its language, with the workspace
root as rootUri and the only workspace folder; one that died is started again on the next request. Before each
request the file's current text (`Workspace.read`: overlays first) is synced to every
server of its language, and request positions are converted from code points to each
server's negotiated encoding. A request about the whole workspace (references, calls,
rename) first waits, bounded, until the server has loaded the workspace
(`simple_brief.lsp.readiness`); `settle` does that wait ahead with progress reports, and
an answer given while the server was still loading carries a note saying so. The protocol
itself lives in `simple_brief.lsp.process`.

A server that did not answer `initialize` within `START_TIMEOUT` is not started (and
waited for) again on every call: the failure is remembered for `START_FAILURE_COOLDOWN`
seconds, or until its config, its program or a file its command names changes, and
answered at once meanwhile.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.files.config import Config, ServerConfig, load
from simple_brief.files.workspace import Workspace
from simple_brief.intel import DEFAULT_TIMEOUT, LspReply
from simple_brief.intel.protocol import encode_positions, path_to_uri, uri_to_path
from simple_brief.intel.server_discovery import Discovery, discover
from simple_brief.lsp.process import Server, ServerGone, error_text, find_executable
from simple_brief.lsp.readiness import READY_WAIT, WORKSPACE_WIDE
from simple_brief.model import ProgressFn

log = logging.getLogger(__name__)

#: How long a server may take to answer `initialize` (imports, indexing), seconds.
START_TIMEOUT = 20.0
#: How long a server that did not answer `initialize` in time is not started again,
#: seconds (unless its config, program or a file its command names changes first).
START_FAILURE_COOLDOWN = 300.0
#: What to do about a server that does not answer `initialize`.
_START_ADVICE = "check that its command starts a language server that speaks LSP on stdio"
#: JSON-RPC's InternalError: the server failed inside; asked once more (see `request`).
INTERNAL_ERROR = -32603
#: How long `close()` waits for the answer to `shutdown`, seconds (then 1 s for the exit).
SHUTDOWN_TIMEOUT = 2.0
#: Files read for position conversion outside the workspace (library sources) stay under this.
_OUTSIDE_MAX_BYTES = 4 * 1024 * 1024


class ServerPool:
    """The workspace's configured (or found) language servers, started lazily, one set per language.

    Safe to call from several threads: starting is serialised, each server's document
    sync is serialised, requests to different servers run concurrently.
    """

    def __init__(self, workspace: Workspace, config: Config | None = None) -> None:
        self.workspace = workspace
        self.config = config if config is not None else load(workspace.root)
        self._servers: dict[str, Server] = {}
        self._start_failures: dict[str, _StartFailure] = {}
        #: What serves each language asked about, in the order first asked; and the last one.
        self._seen: dict[str, Discovery] = {}
        self._last: str | None = None
        self._lock = threading.Lock()
        self._closed = False

    # --- LanguageIntel ---------------------------------------------------------

    def servers(self, path: Path, method: str) -> list[str]:
        """Names of the configured servers for `path`'s language that support `method`
        (starting them if needed); empty when none is configured or supports it.

        Raises:
            UserError: a configured server's program is not on PATH, or none of them can
                answer because they failed to start (the sentence says why, e.g. it did not
                answer `initialize`).
        """
        running = self._running(path)
        names = [s.name for s in running if s.failure is None and s.alive and s.supports(method)]
        failures = [s.failure for s in running if s.failure is not None]
        if not names and failures:
            raise UserError("; ".join(failures) + ".")
        return names

    def request(
        self, path: Path, method: str, params: dict[str, Any], timeout: float = DEFAULT_TIMEOUT
    ) -> list[LspReply]:
        """Send `method` about `path` to every server of its language that supports it.

        `params` lack `textDocument` (added for `textDocument/*` methods) and count code
        points; each reply says its server's encoding for `protocol.convert_positions`.
        A failure (timeout, error, a server that died or did not start) becomes that
        reply's `error`; an internal error is asked once more first (only methods without
        side effects are sent here).

        Raises:
            UserError: the file cannot be read, or a configured server's program is missing.
        """
        real, source = self.workspace.read(path)
        targets = [s for s in self._running(real) if s.failure is not None or s.supports(method)]
        replies: dict[str, LspReply] = {}
        waiting: list[tuple[Server, dict[str, Any], Future[dict[str, Any]]]] = []
        unready: dict[str, list[str]] = {}
        ready_by = time.monotonic() + READY_WAIT
        for server in targets:
            if server.failure is not None:
                replies[server.name] = LspReply(server.name, server.encoding, error=server.failure)
                continue
            sent = dict(encode_positions(params, source.text, server.encoding))
            if method.startswith("textDocument/"):
                sent["textDocument"] = {"uri": path_to_uri(real)}
            try:
                server.sync(real, source.text, _language_id(real))
                if method in WORKSPACE_WIDE:
                    loading = server.workspace_ready.wait(ready_by - time.monotonic())
                    if loading:
                        unready[server.name] = loading
                waiting.append((server, sent, server.send_request(method, sent)))
            except ServerGone as exc:
                replies[server.name] = LspReply(server.name, server.encoding, error=str(exc))
        deadline = time.monotonic() + timeout
        for server, sent, future in waiting:
            reply, internal = _await(server, future, deadline, timeout)
            if internal and time.monotonic() < deadline:
                # An internal error is often a race inside the server (jedi-language-server and
                # pylsp reading one parso cache file while the other writes it); the methods
                # simple-brief sends have no side effects, so asking once more is safe.
                log.info(
                    "%s answered %s with an internal error (%s); asking once more", server.name, method, reply.error
                )
                reply, _ = _await(server, server.send_request(method, sent), deadline, timeout)
            if server.name in unready and reply.error is None:
                log.info("%s answered %s still loading the workspace: %s", server.name, method, unready[server.name])
                reply.note = loading_note(unready[server.name])
            replies[server.name] = reply
        only = (params.get("context") or {}).get("only") if method == "textDocument/codeAction" else None
        if only:
            for reply in replies.values():
                reply.result = _only_kinds(reply.result, only)
        return [replies[s.name] for s in targets]

    def settle(self, path: Path, method: str, report: ProgressFn | None = None) -> None:
        """Before a workspace-wide `method` about `path`: open the file in its servers and
        wait (at most `READY_WAIT` in all) until they have loaded the workspace, calling
        `report(waited, READY_WAIT, what)` about every half second meanwhile (which may
        raise to abandon the wait). Other methods return at once; `request` then sends
        at once and notes what is still loading.

        Raises:
            UserError: the file cannot be read, or a configured server's program is missing.
        """
        if method not in WORKSPACE_WIDE:
            return
        real, source = self.workspace.read(path)
        deadline = time.monotonic() + READY_WAIT
        for server in self._running(real):
            if server.failure is not None or not server.supports(method):
                continue
            try:
                server.sync(real, source.text, _language_id(real))
            except ServerGone:
                continue
            waited = READY_WAIT - (deadline - time.monotonic())

            def tick(loading: list[str], more: float, server: Server = server, waited: float = waited) -> None:
                if report is not None:
                    what = ", ".join(dict.fromkeys(loading))
                    report(
                        round(waited + more, 1),
                        READY_WAIT,
                        f"waiting for {server.name} to load the workspace ({what}); up to {READY_WAIT:g} s",
                    )

            server.workspace_ready.wait(deadline - time.monotonic(), tick)

    def diagnostics(self, path: Path, timeout: float = DEFAULT_TIMEOUT) -> list[LspReply]:
        """What each server of `path`'s language published for its current text, waiting up
        to `timeout` for a publish after the sync. A server that published nothing newer
        in time gives its older list (or none) with `error` saying it timed out.

        Raises:
            UserError: the file cannot be read, or a configured server's program is missing.
        """
        real, source = self.workspace.read(path)
        replies: list[LspReply] = []
        live: list[Server] = []
        for server in self._running(real):
            if server.failure is not None:
                replies.append(LspReply(server.name, server.encoding, error=server.failure))
                continue
            try:
                server.sync(real, source.text, _language_id(real))
                live.append(server)
            except ServerGone as exc:
                replies.append(LspReply(server.name, server.encoding, error=str(exc)))
        deadline = time.monotonic() + timeout
        for server in live:
            found, fresh = server.wait_diagnostics(real, max(deadline - time.monotonic(), 0))
            error = None
            if not server.alive:
                error = server.gone_note()
            elif not fresh:
                error = f"timed out after {timeout:g}s waiting for diagnostics"
            replies.append(LspReply(server.name, server.encoding, result=found, error=error))
        return replies

    def close(self) -> None:
        """Shut every server down (`shutdown`, `exit`), bounded; kill those that linger."""
        with self._lock:
            self._closed = True
            servers = list(self._servers.values())
            self._servers.clear()
        threads = [threading.Thread(target=s.stop, args=(SHUTDOWN_TIMEOUT,), daemon=True) for s in servers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=SHUTDOWN_TIMEOUT + 8)

    # --- helpers for the tools ---------------------------------------------------

    def text_of(self, uri: str) -> str | None:
        """The text a server's URI refers to, for `protocol.convert_positions`: the workspace's
        view (overlays first) inside the root; outside it (library sources a definition
        points into) the file on disk through the same no-symlink door; None when unreadable."""
        path = uri_to_path(uri)
        if path is None:
            return None
        try:
            return self.workspace.read(path)[1].text
        except UserError:
            pass
        try:
            return self.workspace.read_anywhere(path, _OUTSIDE_MAX_BYTES).decode("utf-8", "replace")
        except UserError:
            return None

    def status(self) -> list[dict[str, Any]]:
        """Each started server: name, command, running, encoding, failure, and whether it has
        loaded the workspace: `ready`, else what it is `loading` for `loading_s` seconds so far
        and `workspace` saying so (for `server_status`)."""
        with self._lock:
            servers = list(self._servers.values())
        found = []
        for s in servers:
            loading = s.workspace_ready.state()
            found.append(
                {
                    "name": s.name,
                    "command": list(s.config.command),
                    "running": s.alive,
                    "pid": s.proc.pid if s.proc is not None else None,
                    "encoding": s.encoding,
                    "failure": s.failure,
                    "ready": loading.ready,
                    "loading": loading.work,
                    "loading_s": loading.seconds,
                    "workspace": loading.text(),
                }
            )
        return found

    def discoveries(self) -> list[Discovery]:
        """What serves each language asked about so far: configured, or found and chosen."""
        with self._lock:
            return list(self._seen.values())

    def discovery(self, filetype: str | None = None) -> Discovery | None:
        """What serves `filetype` (default: the language of the last request), if asked about."""
        with self._lock:
            key = filetype if filetype is not None else self._last
            return self._seen.get(key) if key is not None else None

    def process_ids(self) -> list[int]:
        """Process ids of the servers started and still running."""
        with self._lock:
            return [s.proc.pid for s in self._servers.values() if s.proc is not None and s.alive]

    # --- starting ----------------------------------------------------------------

    def _running(self, path: Path) -> list[Server]:
        """The servers configured (or found) for `path`'s language, started (or restarted) as needed."""
        filetype = languages.for_path(path).name
        found = discover(filetype, self.workspace.root, self.config)
        configs = found.servers
        with self._lock:
            self._seen[filetype] = found
            self._last = filetype
            unwanted = self._unwanted()
        for server in unwanted:
            log.info("stopping %s: no language chooses it any more", server.name)
            server.kill()
        if not configs:
            return []
        with self._lock:
            if self._closed:
                raise UserError("the language servers were shut down with the session; start a new session.")
            stale = [c for c in configs if not self._usable(c)]
            for config in stale:
                find_executable(config, self.workspace.root)  # refuse before starting any
            result: list[Server] = []
            starting: list[tuple[Server, Future[dict[str, Any]]]] = []
            try:
                for config in configs:
                    old = self._servers.get(config.name)
                    if old is not None and config not in stale:
                        result.append(old)
                        continue
                    held = self._held_back(config)
                    if old is not None and held is not None:
                        old.failure = held  # not started again: the remembered failure, at once
                        result.append(old)
                        continue
                    if old is not None:
                        log.info("restarting %s: %s", config.name, old.failure or old.gone_note())
                        old.kill()
                    server = Server(config, self.workspace.root)
                    self._servers[config.name] = server
                    server.spawn()  # UserError when it cannot be executed
                    try:
                        starting.append((server, server.begin_initialize()))
                    except ServerGone as exc:
                        server.failure = str(exc)
                    result.append(server)
            finally:
                # Started together, awaited together: two servers cost the slower start, not
                # the sum; those started before a failure still get their `initialized`.
                deadline = time.monotonic() + START_TIMEOUT
                for server, future in starting:
                    server.finish_initialize(future, max(deadline - time.monotonic(), 0.01), START_TIMEOUT)
                    if server.initialize_timed_out:
                        self._remember_start_failure(server)
            return result

    def _usable(self, config: ServerConfig) -> bool:
        server = self._servers.get(config.name)
        return server is not None and server.alive and server.failure is None and server.config == config

    def _unwanted(self) -> list[Server]:
        """Started servers that no language asked about chooses any more (a found server
        replaced by another: a new trust, an install), taken out of the pool (under the lock)."""
        wanted = {c.name: c for d in self._seen.values() for c in d.servers}
        gone = [name for name, s in self._servers.items() if wanted.get(name) != s.config]
        return [self._servers.pop(name) for name in gone]

    def _remember_start_failure(self, server: Server) -> None:
        """Keep `server`'s unanswered `initialize` so the next calls are answered at once."""
        fact = server.failure
        now = time.time()
        self._start_failures[server.name] = _StartFailure(
            server.config,
            _fingerprint(server.config, self.workspace.root),
            time.monotonic() + START_FAILURE_COOLDOWN,
            f"{fact} at {_clock(now)}; simple-brief does not start it again before "
            f"{_clock(now + START_FAILURE_COOLDOWN)} unless its command or program changes: {_START_ADVICE}",
        )
        server.failure = (
            f"{fact}; {_START_ADVICE} (simple-brief tries it again in {_duration(START_FAILURE_COOLDOWN)}, "
            "or at once when its command or program changes)"
        )

    def _held_back(self, config: ServerConfig) -> str | None:
        """The remembered start failure of `config` while it holds (same config, program and
        files, within the cool-down), else None (and it is forgotten)."""
        failure = self._start_failures.get(config.name)
        if failure is None:
            return None
        if (
            failure.config == config
            and time.monotonic() < failure.until
            and failure.fingerprint == _fingerprint(config, self.workspace.root)
        ):
            return failure.note
        del self._start_failures[config.name]
        return None


@dataclass(frozen=True)
class _StartFailure:
    """A server that did not answer `initialize`: for which config and files, until when
    (`time.monotonic()`), and the sentence the calls meanwhile get (without its period)."""

    config: ServerConfig
    fingerprint: tuple[tuple[str, int, int, int], ...]
    until: float
    note: str


def _fingerprint(config: ServerConfig, root: Path) -> tuple[tuple[str, int, int, int], ...]:
    """Identity of the files `config.command` runs: its program and every argument that names
    a file (a script), relative to `root`; a change to one of them means try again."""
    try:
        files = [find_executable(config, root), *config.command[1:]]
    except UserError:
        files = list(config.command)
    found = []
    for name in files:
        try:
            path = root / Path(name).expanduser()
            info = path.stat() if path.is_file() else None
        except (OSError, ValueError):
            info = None
        if info is not None:
            found.append((str(path), info.st_ino, info.st_size, info.st_mtime_ns))
    return tuple(found)


def _clock(when: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(when))


def _duration(seconds: float) -> str:
    minutes = seconds / 60
    if seconds >= 60 and minutes == int(minutes):
        return f"{int(minutes)} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g}s"


def loading_note(loading: list[str]) -> str:
    """The caveat on an answer a server gave while still loading the workspace."""
    what = ", ".join(dict.fromkeys(loading))
    return (
        f"had not finished loading the workspace ({what}) after waiting up to {READY_WAIT:g} s, so this answer "
        "may be incomplete; ask the same again in a few seconds for the whole answer"
    )


def _await(server: Server, future: Future[dict[str, Any]], deadline: float, timeout: float) -> tuple[LspReply, bool]:
    """The reply, and whether it is an LSP InternalError (-32603)."""
    try:
        message = future.result(timeout=max(deadline - time.monotonic(), 0))
    except FutureTimeout:
        server.cancel(future)
        return LspReply(server.name, server.encoding, error=f"timed out after {timeout:g}s"), False
    except ServerGone as exc:
        return LspReply(server.name, server.encoding, error=str(exc)), False
    if "error" in message:
        error = message["error"]
        internal = isinstance(error, dict) and error.get("code") == INTERNAL_ERROR
        return LspReply(server.name, server.encoding, error=error_text(error)), internal
    return LspReply(server.name, server.encoding, result=message.get("result")), False


def _only_kinds(actions: Any, only: list[str]) -> Any:
    """Code actions of the asked kinds (or their sub-kinds): some servers ignore
    `context.only` (pylsp-ruff adds `source.fixAll` to a quickfix request)."""
    if not isinstance(actions, list):
        return actions
    return [
        a
        for a in actions
        if not isinstance(a, dict)
        or not isinstance(a.get("kind"), str)
        or any(a["kind"] == k or a["kind"].startswith(k + ".") for k in only)
    ]


def _language_id(path: Path) -> str:
    # Neovim's filetype names are LSP language ids for the languages simple-brief knows.
    return languages.for_path(path).name
