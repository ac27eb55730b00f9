"""Workspaces the daemon keeps between calls, keyed by resolved root: their parse caches,
the language servers and docs index their calls started (`WarmWorkspaces.end`)
and, once a call opened it, their persistent symbol index (`simple_brief.index`), all
kept in `Workspace.attached`, stay warm; after a call the index watches its tree (`watch()`), so
the next query checks only what the kernel reported changed instead of walking the tree.

A call gets the cached Workspace only when nothing that decides its answers changed: the
secrets rules come from the configs again on every call (an edited config gives a fresh
Workspace), and overlays never outlive the call that laid them (standalone, a process
ends with its overlays).
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from simple_brief import tools as registry
from simple_brief.daemon.server import release_memory
from simple_brief.files import config
from simple_brief.files.workspace import Overlays, Workspace
from simple_brief.index.watch import keep_watching

log = logging.getLogger("simple_brief.daemon")

#: Resident memory above which the daemon closes its warm indexes after a call (they
#: reopen from disk on next use). A first index build leaves ~450 MB more behind it
#: than the same index reopened (stdlib + site-packages: 844 MB; reopened 404 MB).
MEMORY_SOFT_LIMIT = 450 * 1000 * 1000

#: Workspaces kept; the least recently used one is dropped (with its caches) beyond this.
MAX_WORKSPACES = 16


class WarmWorkspaces:
    """`Workspace.at` with memory: the same root gives the same Workspace while its config holds."""

    def __init__(self, limit: int = MAX_WORKSPACES) -> None:
        self.limit = limit
        self._by_root: OrderedDict[Path, Workspace] = OrderedDict()
        self._lock = threading.Lock()
        #: Memory a reopened index turned out to need (never closed again for less).
        self._tolerated = 0
        self._just_closed = False

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
                if ws is not None:
                    ws.close_attached()  # its index and servers answered under the old rules
                ws = Workspace(root=real, secrets=secrets)
                self._by_root[real] = ws
            self._by_root.move_to_end(real)
            while len(self._by_root) > self.limit:
                _, dropped = self._by_root.popitem(last=False)
                dropped.close_attached()
        ws.overlays = Overlays()  # a fresh layer: nothing from an earlier call
        return ws

    def start(self, ws: Workspace) -> registry.Session:
        """A call's session: new, with the language servers, docs index and debug sessions
        the workspace's earlier calls left running (everything else, such as `workspace_open`
        ids, starts empty as in a standalone run)."""
        kept = ws.attached.get("session_servers")
        if isinstance(kept, registry.Session):
            return registry.Session(docs=kept.docs, language_servers=kept.language_servers, debug=kept.debug)
        return registry.Session()

    def end(self, ws: Workspace, session: registry.Session) -> None:
        """After a call: what its session started stays with the workspace for the next call."""
        kept = registry.Session(docs=session.docs, language_servers=session.language_servers, debug=session.debug)
        with ws.attached_lock:
            ws.attached["session_servers"] = kept

    def settle(self, rss: Callable[[], int] | None = None, limit: int = MEMORY_SOFT_LIMIT) -> None:
        """After a call: above `limit` bytes of memory (`rss()`), close the warm indexes
        once (memory back to what a reopened index needs: a build leaves much more); if
        the reopened indexes alone are above it, keep them (no reopening on every call).
        The indexes kept watch their trees from now on."""
        with self._lock:
            kept = list(self._by_root.values())
        measure = rss if rss is not None else (lambda: 0)
        now = measure()
        if now > max(limit, self._tolerated):
            if not self._just_closed:
                for ws in kept:
                    ws.close_attached("symbol_index")  # (its language servers are other processes)
                release_memory()
                self._just_closed = True
                log.info("%.0f MB after a call: closed the warm indexes (%.0f MB now)", now / 1e6, measure() / 1e6)
                return
            self._tolerated = now * 3 // 2
            log.info("the reopened indexes need %.0f MB: kept", now / 1e6)
        self._just_closed = False
        keep_watching(kept)

    def close(self) -> None:
        """Close every warm workspace's index and stop its language servers (the daemon stops)."""
        with self._lock:
            kept = list(self._by_root.values())
            self._by_root.clear()
        for ws in kept:
            ws.close_attached()

    def roots(self) -> list[str]:
        """The roots kept warm, most recently used last."""
        with self._lock:
            return [str(root) for root in self._by_root]
