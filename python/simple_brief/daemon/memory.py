"""The daemon's memory policy over its host: after a call, above `MEMORY_SOFT_LIMIT` of
resident memory the warm symbol indexes are closed once (they reopen from disk on next
use); indexes that need more than that once reopened are kept. The indexes kept watch
their trees, so the next query checks only what the kernel reported changed."""

from __future__ import annotations

import logging
from collections.abc import Callable

from simple_brief.daemon.server import release_memory
from simple_brief.host.core import Host

log = logging.getLogger("simple_brief.daemon")

#: Resident memory above which the daemon closes its warm indexes after a call (they
#: reopen from disk on next use). A first index build leaves ~450 MB more behind it
#: than the same index reopened (stdlib + site-packages: 844 MB; reopened 404 MB).
MEMORY_SOFT_LIMIT = 450 * 1000 * 1000


class MemorySettle:
    """`settle()` after each call (see the module's docstring)."""

    def __init__(self, host: Host, rss: Callable[[], int] | None = None, limit: int = MEMORY_SOFT_LIMIT) -> None:
        self.host = host
        self.rss = rss if rss is not None else (lambda: 0)
        self.limit = limit
        #: Memory a reopened index turned out to need (never closed again for less).
        self._tolerated = 0
        self._just_closed = False

    def settle(self) -> None:
        """After a call: above the limit, close the warm indexes once (memory back to what a
        reopened index needs: a build leaves much more); if the reopened indexes alone are
        above it, keep them (no reopening on every call). The indexes kept watch their trees."""
        now = self.rss()
        if now > max(self.limit, self._tolerated):
            if not self._just_closed:
                self.host.close_indexes()  # (their language servers are other processes)
                release_memory()
                self._just_closed = True
                log.info("%.0f MB after a call: closed the warm indexes (%.0f MB now)", now / 1e6, self.rss() / 1e6)
                return
            self._tolerated = now * 3 // 2
            log.info("the reopened indexes need %.0f MB: kept", now / 1e6)
        self._just_closed = False
        self.host.watch_indexes()
