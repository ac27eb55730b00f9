"""When a started language server has its whole workspace in view.

A question about every use of a symbol (references, call hierarchy, rename) asked the
moment a server has started can get an answer from the open files only: pyright and
basedpyright find the workspace's source files only after `initialized` and the settings,
and answer `textDocument/references` meanwhile from what they have (the first call in a
workspace missed every use in the other files). Such requests wait, once per server and a
bounded time, for the server's own word that it has found them. A server with no known
word is taken as ready at once.
"""

from __future__ import annotations

import re
import threading

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
#: Seconds a workspace-wide request waits for the server's word, at most (once: a server
#: whose word never comes is then taken as ready).
READY_WAIT = 10.0

#: The log message (`window/logMessage`) with which a server (by `serverInfo.name`,
#: lowercased) says it has found the workspace's files; pyright's analyzer service logs it
#: after enumerating them ("Found 12 source files", "No source files found.").
_PYRIGHT_FOUND = re.compile(r"^(?:Found \d+ source files?\b|No source files found)")
_READY_LOGS = {"pyright": _PYRIGHT_FOUND, "basedpyright": _PYRIGHT_FOUND}


class WorkspaceReadiness:
    """Whether a server has said it has found the workspace's files."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._word: re.Pattern[str] | None = None

    def expect(self, server_name: object) -> None:
        """After `initialize`: the word to wait for from this server (none known: ready)."""
        word = _READY_LOGS.get(server_name.lower()) if isinstance(server_name, str) else None
        if word is None:
            self._ready.set()
        else:
            self._word = word

    def logged(self, message: object) -> None:
        """A `window/logMessage` of the server."""
        if self._word is not None and isinstance(message, str) and self._word.match(message.strip()):
            self._ready.set()

    def wait(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the word; whether it came. After a wait that ran
        out the server counts as ready, so no later request waits again."""
        if self._ready.wait(max(timeout, 0.0)):
            return True
        self._ready.set()
        return False
