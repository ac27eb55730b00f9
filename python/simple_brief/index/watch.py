"""Which paths of a workspace changed on disk, told by the kernel (inotify through
`watchfiles`' Rust watcher) to a long-lived file store (`simple_brief.index`), so a query
of either index — symbols or docs — checks only those instead of walking the tree: one
watcher per workspace serves both.

The watches are in place when `Watcher` returns (the Rust side adds them in its
constructor); a change is reported within `STEP_MS` of the last event of a burst.
When the watcher fails (too many folders for the inotify limit, a folder it cannot
read, the root removed) or reports the root itself (the root's own change, or the
kernel's queue overflowing, reported on the watched root) it reports `None`: the index
walks the whole tree again, once.

In a long-lived process (`long_lived()`: the daemon, the MCP server) an index starts its
watcher before its first walk, so that walk is the only one: what changes during it or
after it arrives as events (a watcher started after the walk would have to walk once more
for the changes made in between: the daemon's second call walked 100,000 files again).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simple_brief.files.workspace import Workspace

log = logging.getLogger(__name__)

#: A burst of events is reported once no new event came for this long.
STEP_MS = 5
#: A burst is reported after at most this long, even while events keep coming.
DEBOUNCE_MS = 50
#: How often the thread looks at its stop flag while nothing happens.
TIMEOUT_MS = 500
#: watchfiles' words for a file name that is not UTF-8: it fails on every start while the name is there.
UNDECODABLE = "Unable to decode path"

_long_lived = threading.Event()


def long_lived() -> None:
    """This process serves many calls (the daemon, the MCP server): from now on every symbol
    index watches its tree from before its first walk, and starts a watcher again (then
    walks once) when one stopped."""
    _long_lived.set()


def is_long_lived() -> bool:
    """Whether `long_lived()` was called in this process."""
    return _long_lived.is_set()


class Watcher:
    """Reports changed paths below `root` to `changed` (a set of absolute paths, or None
    when it lost track) from a daemon thread, until `stop()`."""

    def __init__(self, root: Path, changed: Callable[[set[str] | None], None]) -> None:
        from watchfiles._rust_notify import RustNotify  # only long-lived processes watch

        self._changed = changed
        #: Why the watcher stopped by itself, if it did.
        self.failure: str | None = None
        self._root = str(root)
        self._stop = threading.Event()
        self._notify = RustNotify([str(root)], False, False, 300, True, True)
        self._thread = threading.Thread(target=self._run, name=f"simple-brief watch {root.name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                got = self._notify.watch(DEBOUNCE_MS, STEP_MS, TIMEOUT_MS, self._stop)
            except Exception as exc:  # any failure: walk again, stop watching
                self.failure = str(exc)
                log.warning("file watcher stopped (%s); the index walks the tree on each query", exc)
                self._changed(None)
                return
            if isinstance(got, set):
                paths = {path for _, path in got}
                # The root's own event: it was moved, removed or changed, or the kernel's queue
                # overflowed (reported on the watched root): what changed is unknown.
                self._changed(None if self._root in paths else paths)

    @property
    def lasting_failure(self) -> bool:
        """Whether it stopped for a reason a new watcher would meet again at once (a file
        name it cannot decode): the index then walks instead of starting one per query."""
        return self.failure is not None and UNDECODABLE in self.failure

    @property
    def alive(self) -> bool:
        """Whether changes are still being reported."""
        return self._thread.is_alive() and not self._stop.is_set()

    def stop(self) -> None:
        """Stop watching (waits for the thread at most a moment)."""
        self._stop.set()
        self._thread.join(timeout=2)
        close = getattr(self._notify, "close", None)
        if close is not None:
            close()


def keep_watching(workspaces: Iterable[Workspace]) -> None:
    """After a call in a long-lived process (the daemon, the MCP server): every open file
    store of these workspaces watches its tree from now on, so the next query of its symbol
    or docs index checks only what changed instead of walking the tree. A workspace whose index was never opened is
    left alone (watching costs a thread and the kernel's watches)."""
    for ws in workspaces:
        index = ws.attached.get("symbol_index")
        watch = getattr(index, "watch", None)
        if callable(watch) and not getattr(index, "closed", False):
            try:
                watch()
            except Exception:
                log.exception("the symbol index of %s cannot watch its tree", ws.root)
