"""The debug sessions of one MCP server or CLI run (`Sessions`, kept in `tools.Session.debug`):
ids, the limit on live sessions, and ending every session with its processes."""

from __future__ import annotations

import threading

from simple_brief.debug.session import DebugSession
from simple_brief.errors import UserError

#: Sessions alive at once per server; ended ones kept for `debug_sessions`.
MAX_LIVE_SESSIONS = 8
MAX_ENDED_KEPT = 16


class Sessions:
    """The debug sessions of one server: ids `d1`, `d2`, … never reused."""

    def __init__(self) -> None:
        self._by_id: dict[str, DebugSession] = {}
        self._issued = 0
        self._lock = threading.Lock()

    def next_id(self) -> str:
        """A new session id.

        Raises:
            UserError: too many sessions are alive.
        """
        with self._lock:
            live = [s for s in self._by_id.values() if s.state != "ended"]
            if len(live) >= MAX_LIVE_SESSIONS:
                raise UserError(
                    f"{len(live)} debug sessions are alive, the most one server keeps; end one with debug_terminate."
                )
            ended = [k for k, s in self._by_id.items() if s.state == "ended"]
            for key in ended[: max(len(ended) - MAX_ENDED_KEPT, 0)]:
                del self._by_id[key]
            self._issued += 1
            return f"d{self._issued}"

    def add(self, session: DebugSession) -> None:
        """Keep a started session."""
        with self._lock:
            self._by_id[session.id] = session

    def get(self, session_id: str) -> DebugSession:
        """A session by id.

        Raises:
            UserError: no such session.
        """
        with self._lock:
            found = self._by_id.get(session_id)
            known = ", ".join(self._by_id) or "none"
        if found is None:
            raise UserError(
                f"there is no debug session `{session_id[:40]}` (sessions: {known}); debug_launch starts one."
            )
        return found

    def all(self) -> list[DebugSession]:
        """Every session kept, oldest first."""
        with self._lock:
            return list(self._by_id.values())

    def close(self) -> None:
        """End every session and its processes."""
        for session in self.all():
            session.on_end = None  # the editor may be closing too
            if session.state != "ended" or session.client.members():
                session.end("the server stopped")
                session.client.kill()
