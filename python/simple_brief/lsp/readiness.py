"""When a started language server knows its whole workspace.

A question about every use of a symbol (references, call hierarchy, rename) asked while a
server is still loading gets an answer from what it has read so far: pyright answered
from the open file alone until it had found the workspace's files (1 of 62 uses of
flask's `current_app`), typescript-language-server from the open file until tsserver had
loaded the project (12 of 115 uses of rxjs's `Subscription`). Such requests wait, bounded,
until the server has said it is done, from three signs:

- work-done progress (`$/progress` begin ... end on a token, announced by
  `window/workDoneProgress/create`): typescript-language-server, rust-analyzer, gopls,
  clangd report their loading and indexing this way; work that is not loading (pylsp's
  linting) is listed in `NOT_LOADING`;
- known log lines (`LOADING_LOGS`): (based)pyright reports no progress while it finds the
  workspace's files but logs "Found N source files" once it has;
- a quiet period (`SETTLE`) after `initialized`, after the first document was opened, and
  after any of the above: a server that starts loading when a file is opened announces it
  a moment later; one known to announce it later still (typescript-language-server, whose
  tsserver boots first) is waited for until its progress begins (`LOADS_ON_OPEN`).

A wait that runs out is not paid again for the same work: later requests go at once and
their answers say the server is still loading, until that work ends.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Requests whose answer covers the whole workspace, not only the file asked about.
WORKSPACE_WIDE = frozenset(
    {
        "textDocument/references",
        "textDocument/rename",
        "textDocument/implementation",
        "textDocument/prepareCallHierarchy",
        "callHierarchy/incomingCalls",
        "callHierarchy/outgoingCalls",
        "workspace/symbol",
    }
)
#: Seconds a workspace-wide request waits for a loading server, at most.
READY_WAIT = 10.0
#: Seconds without a sign of loading after which a server counts as settled.
SETTLE = 0.5
#: Seconds between two progress reports while a request waits.
TICK = 0.5
#: Seconds after a wait ran out on a known log line (or a first progress) that never came
#: until answers stop saying the server is loading (its log level may hide the line).
GIVE_UP = 30.0


@dataclass(frozen=True)
class Loading:
    """What a server is loading now (`work`: each title, with how far it said it is:
    `indexing (12/83)`; empty when ready) and for how many seconds so far (`seconds`, None
    when ready)."""

    work: list[str]
    seconds: float | None

    @property
    def ready(self) -> bool:
        return not self.work

    def text(self) -> str:
        """`ready`, or `loading the workspace (3.2 s so far; work: indexing)`."""
        if self.ready:
            return "ready"
        return f"loading the workspace ({self.seconds:g} s so far; work: {', '.join(self.work)})"


@dataclass(frozen=True)
class LoadingLog:
    """A server that logs (`window/logMessage`) when it has found the workspace's files.

    Attributes:
        names: its `serverInfo.name` or program file name, lowercased.
        hello: the log line it starts with (pyright sends no `serverInfo`).
        done: the log line saying it has found the files.
        what: what it is doing until then, for the answer's note.
    """

    names: frozenset[str]
    hello: re.Pattern[str]
    done: re.Pattern[str]
    what: str


#: The servers whose log says when they know the workspace.
LOADING_LOGS: tuple[LoadingLog, ...] = (
    LoadingLog(
        frozenset({"pyright", "basedpyright", "pyright-langserver", "basedpyright-langserver"}),
        re.compile(r"^(?:based)?pyright language server \S+ starting", re.IGNORECASE),
        # pyright's analyzer service, after enumerating them: "Found 12 source files".
        re.compile(r"^(?:Found \d+ source files?\b|No source files found)"),
        "finding the workspace's source files",
    ),
)


@dataclass(frozen=True)
class LoadsOnOpen:
    """A server that starts loading a project when the first file of it is opened, and reports
    that as work-done progress once its helper is up (tsserver takes a second to boot on a
    busy machine: longer than the quiet period).

    Attributes:
        names: its `serverInfo.name` or program file name, lowercased.
        hello: a log line naming it (typescript-language-server sends no `serverInfo`).
        configs: the project files (in the opened file's folder or one above it, inside the
            workspace) that make it load a project; without one there is nothing to wait for.
        what: what it is doing until its progress begins, for the answer's note.
    """

    names: frozenset[str]
    hello: re.Pattern[str]
    configs: tuple[str, ...]
    what: str


#: The servers that load a project on the first file opened.
LOADS_ON_OPEN: tuple[LoadsOnOpen, ...] = (
    LoadsOnOpen(
        frozenset({"typescript-language-server"}),
        re.compile(r"^Using Typescript version "),
        ("tsconfig.json", "jsconfig.json"),
        "starting tsserver",
    ),
)

#: Titles of work-done progress that is not loading the workspace (pylsp: "lint: ruff").
NOT_LOADING = re.compile(r"^lint: ")

#: Pseudo-tokens: the known log line not logged yet; the progress a project's first file starts.
_LOG = object()
_OPEN = object()


class WorkspaceReadiness:
    """Whether a server is still loading its workspace, from its progress and its log."""

    def __init__(self, program: str = "") -> None:
        self._program = Path(program).name.lower()
        self._state = threading.Condition()
        #: What is loading: progress token (or `_LOG`) -> its title.
        self._loading: dict[Any, str] = {}
        #: How far the work on a progress token is, as it last said ("12/83", "40%").
        self._how_far: dict[Any, str] = {}
        #: Loading waited for until a wait ran out, and when (later requests do not wait again for it).
        self._waited_out: dict[Any, float] = {}
        self._log: LoadingLog | None = None
        self._on_open: LoadsOnOpen | None = None
        self._logged_done: set[LoadingLog] = set()
        #: `time.monotonic()` of the last sign (None: not `initialized` yet).
        self._last_sign: float | None = None
        self._opened = False
        self._reports_progress = False
        #: `time.monotonic()` when what is loading now began (None: nothing is).
        self._loading_since: float | None = None

    # --- what the connection sees ------------------------------------------------

    def expect(self, server_name: object) -> None:
        """After `initialize`: the server's `serverInfo.name` (or its program) may name a
        known log line to wait for."""
        names = {self._program}
        if isinstance(server_name, str):
            names.add(server_name.lower())
        for known in LOADING_LOGS:
            if names & known.names:
                self._expect_log(known)
        for loader in LOADS_ON_OPEN:
            if names & loader.names:
                self._on_open = self._on_open or loader

    def initialized(self) -> None:
        """`initialized` was sent: the quiet period starts."""
        self._sign()

    def opened(self, path: Path | None = None, root: Path | None = None) -> None:
        """The document at `path` was opened: the first one (and any, for a server that
        reports its loading) may start loading a project."""
        with self._state:
            if self._opened and not self._reports_progress:
                return
            first, self._opened = not self._opened, True
            loader = self._on_open
            if first and loader is not None and not self._reports_progress and _has_config(path, root, loader):
                self._add(_OPEN, loader.what)
        self._sign()

    def logged(self, message: object) -> None:
        """A `window/logMessage` of the server."""
        if not isinstance(message, str):
            return
        text = message.strip()
        for loader in LOADS_ON_OPEN:
            if loader.hello.match(text):
                with self._state:
                    self._on_open = self._on_open or loader
        for known in LOADING_LOGS:
            if known.hello.match(text):
                self._expect_log(known)
            elif known.done.match(text):
                with self._state:
                    self._logged_done.add(known)
                    if self._log is known:
                        self._end(_LOG)

    def created(self) -> None:
        """`window/workDoneProgress/create`: loading may begin (on the token it names)."""
        with self._state:
            self._reports_progress = True
            self._end(_OPEN)
        self._sign()

    def progressed(self, token: object, value: object) -> None:
        """`$/progress` on `token` (begin, report or end)."""
        if not isinstance(value, dict):
            return
        key = _key(token)
        kind = value.get("kind")
        with self._state:
            if kind == "begin":
                self._reports_progress = True
                self._end(_OPEN)
                title = str(value.get("title") or "loading")
                if not NOT_LOADING.match(title) and len(self._loading) < 1000:
                    self._add(key, title)
                    self._note_how_far(key, value)
            elif kind == "end":
                self._end(key)
            else:
                if key in self._loading:
                    self._note_how_far(key, value)
                return
        self._sign()

    # --- what a request asks --------------------------------------------------------

    def wait(self, timeout: float, tick: Callable[[list[str], float], None] | None = None) -> list[str]:
        """Wait up to `timeout` seconds for the server to settle; what it is still loading
        (empty: settled; each title with how far it said it is). `tick(loading, waited)` is
        called about every `TICK` seconds meanwhile. Loading still going on when the wait
        runs out is not waited for again."""
        start = time.monotonic()
        deadline = start + max(timeout, 0.0)
        next_tick = start
        while True:
            with self._state:
                now = time.monotonic()
                self._give_up(now)
                waiting = [k for k in self._loading if k not in self._waited_out]
                quiet_at = now if self._last_sign is None else self._last_sign + SETTLE
                if not waiting and now >= quiet_at:
                    return self._described(self._loading)
                if now >= deadline:
                    self._waited_out.update({k: now for k in self._loading if k not in self._waited_out})
                    self._last_sign = None if self._last_sign is None else min(self._last_sign, now - SETTLE)
                    return self._described(self._loading)
                titles = self._described(waiting) or ["settling after start"]
                until = min(deadline, next_tick if tick is not None else deadline)
                until = until if waiting else min(until, quiet_at)
                self._state.wait(max(until - now, 0.0))
            now = time.monotonic()
            if tick is not None and now >= next_tick and now < deadline:
                next_tick = now + TICK
                tick(titles, now - start)

    def loading(self) -> list[str]:
        """What the server is loading now (titles), without waiting."""
        with self._state:
            return list(self._loading.values())

    def state(self) -> Loading:
        """Whether the server is still loading its workspace, for how long and what (each
        work's title, and how far it said it is), now."""
        with self._state:
            now = time.monotonic()
            self._give_up(now)
            work = list(dict.fromkeys(self._described(self._loading)))
            if not work and self._last_sign is not None and now < self._last_sign + SETTLE:
                work = ["settling after start"]
            if not work:
                return Loading([], None)
            since = self._loading_since if self._loading_since is not None else self._last_sign
            return Loading(work, round(now - (since if since is not None else now), 1))

    # --- inside ---------------------------------------------------------------------

    def _expect_log(self, known: LoadingLog) -> None:
        with self._state:
            if self._log is None:
                self._log = known
                if known not in self._logged_done:
                    self._add(_LOG, known.what)
                    self._state.notify_all()

    def _add(self, key: Any, title: str) -> None:
        """Loading on `key` began (under the lock)."""
        if not self._loading:
            self._loading_since = time.monotonic()
        self._loading[key] = title

    def _end(self, key: Any) -> None:
        """Loading on `key` ended (under the lock)."""
        self._how_far.pop(key, None)
        if self._loading.pop(key, None) is not None:
            self._waited_out.pop(key, None)
            self._last_sign = time.monotonic()
            if not self._loading:
                self._loading_since = None
            self._state.notify_all()

    def _described(self, keys: Iterable[Any]) -> list[str]:
        """The work on `keys`: each title, with how far it last said it is (under the lock)."""
        return [
            f"{self._loading[key]} ({self._how_far[key]})" if key in self._how_far else self._loading[key]
            for key in keys
        ]

    def _note_how_far(self, key: Any, value: dict[str, Any]) -> None:
        """Keep what a begin or report on `key` says of its progress (under the lock)."""
        message, percentage = value.get("message"), value.get("percentage")
        if isinstance(message, str) and message.strip():
            self._how_far[key] = message.strip()[:60]
        elif isinstance(percentage, (int, float)) and not isinstance(percentage, bool):
            self._how_far[key] = f"{percentage:g}%"

    def _give_up(self, now: float) -> None:
        """Forget a known log line or a first progress waited for in vain `GIVE_UP` seconds
        ago (under the lock)."""
        for pseudo in (_LOG, _OPEN):
            if now - self._waited_out.get(pseudo, now) > GIVE_UP:
                self._loading.pop(pseudo, None)
                self._waited_out.pop(pseudo, None)
        if not self._loading:
            self._loading_since = None

    def _sign(self) -> None:
        with self._state:
            self._last_sign = time.monotonic()
            self._state.notify_all()


def _has_config(path: Path | None, root: Path | None, loader: LoadsOnOpen) -> bool:
    """Whether a project file of `loader` is in `path`'s folder or one above it, up to `root`."""
    if path is None or root is None:
        return False
    for folder in path.parents:
        if any((folder / name).is_file() for name in loader.configs):
            return True
        if folder == root or root not in folder.parents:
            return False
    return False


def _key(token: object) -> Any:
    """A progress token as a dict key (LSP tokens are integers or strings)."""
    return token if isinstance(token, (int, str)) else repr(token)
