"""Workspaces the daemon keeps between calls, keyed by resolved root: their parse caches
and, once a call opened it, their persistent symbol index (`simple_brief.index`, kept in
`Workspace.attached`) stay warm; after a call the index watches its tree (`watch()`), so
the next query checks only what the kernel reported changed instead of walking the tree.

A call gets the cached Workspace only when nothing that decides its answers changed: the
secrets rules come from the configs again on every call (an edited config gives a fresh
Workspace), and overlays never outlive the call that laid them (standalone, a process
ends with its overlays).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import OrderedDict
from pathlib import Path

from simple_brief import config
from simple_brief.workspace import Overlays, Workspace

log = logging.getLogger("simple_brief.daemon")

#: Workspaces kept; the least recently used one is dropped (with its caches) beyond this.
MAX_WORKSPACES = 16


class WarmWorkspaces:
    """`Workspace.at` with memory: the same root gives the same Workspace while its config holds."""

    def __init__(self, limit: int = MAX_WORKSPACES) -> None:
        self.limit = limit
        self._by_root: OrderedDict[Path, Workspace] = OrderedDict()
        self._lock = threading.Lock()

    def at(self, root: str | os.PathLike[str] | None = None) -> Workspace:
        """As `Workspace.at(root)` (same checks, same errors), reusing a warm Workspace.

        Raises:
            UserError: the root is not a directory, or its config is broken.
        """
        path = Path(root if root is not None else os.getcwd()).expanduser()
        if not path.is_dir():
            return Workspace.at(root)  # raises the standalone error, word for word
        real = path.resolve()
        secrets = config.load(real).secrets
        with self._lock:
            ws = self._by_root.get(real)
            if ws is None or ws.secrets != secrets:
                ws = Workspace(root=real, secrets=secrets)
                self._by_root[real] = ws
            self._by_root.move_to_end(real)
            while len(self._by_root) > self.limit:
                _, dropped = self._by_root.popitem(last=False)
                _close_attached(dropped)
        ws.overlays = Overlays()  # a fresh layer: nothing from an earlier call
        return ws

    def settle(self) -> None:
        """After a call: the indexes it opened watch their trees from now on."""
        with self._lock:
            kept = list(self._by_root.values())
        for ws in kept:
            index = ws.attached.get("symbol_index")
            watch = getattr(index, "watch", None)
            if callable(watch) and not getattr(index, "closed", False):
                try:
                    watch()
                except Exception:
                    log.exception("the symbol index of %s cannot watch its tree", ws.root)

    def roots(self) -> list[str]:
        """The roots kept warm, most recently used last."""
        with self._lock:
            return [str(root) for root in self._by_root]


def _close_attached(ws: Workspace) -> None:
    """Close what a dropped workspace kept open (its symbol index: watcher, SQLite)."""
    for thing in list(ws.attached.values()):
        close = getattr(thing, "close", None)
        if callable(close):
            with contextlib.suppress(Exception):
                close()
    ws.attached.clear()
