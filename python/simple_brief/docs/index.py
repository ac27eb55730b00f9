"""The docs index facade: open the persisted database of a workspace, keep it current
(run by `docs.indexing`), answer queries (run by `docs.queries`). The tools
(`simple_brief.tools.docs`) use only this module.

Behaviour the tools rely on:

- `DocsIndex.open` never re-indexes: queries answer from the stored database at once;
  call `refresh()` (cheap when nothing changed) before answering.
- `refresh()` walks the workspace at most every `WALK_INTERVAL` seconds per DocsIndex
  (other calls only look at overlays); `refresh(force=True)` walks now. Only files whose
  content hash changed are re-indexed; overlays win over the disk; removed files drop
  their items. When another process holds the write lock longer than the busy timeout
  the refresh is skipped (`RefreshStats.skipped` says why) and answers come from what
  is stored.
- Libraries (`index_library`): `python` (standard library), `site-packages`, `nvim`
  (Neovim's runtime Lua) or an absolute folder (named after it); the workspace's own
  items are library `workspace`. `library=None` in queries means all of them.
- Only public items are indexed unless `include_private` (or $SIMPLE_BRIEF_DOCS_PRIVATE=1).
- A corrupt, truncated or old-schema database is moved aside and rebuilt
  (`RefreshStats.rebuilt` of the next refresh says why, and a warning is logged).
- Raises `UserError` for an unknown library name (in `index_library`, or as a filter
  of a library that was never indexed); nothing else a user can cause raises.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from simple_brief.docs import db, indexing, queries, ranking, relations
from simple_brief.docs import libraries as libs
from simple_brief.docs.indexing import RefreshStats
from simple_brief.docs.model import Item
from simple_brief.docs.queries import Hit, ModuleListing, Related
from simple_brief.errors import UserError
from simple_brief.tools import ProgressFn
from simple_brief.workspace import Workspace

log = logging.getLogger(__name__)

#: The disk walk of `refresh()` runs at most this often per DocsIndex (overlays are always checked).
WALK_INTERVAL = 2.0
T = TypeVar("T")

__all__ = ["DocsIndex", "Hit", "LibraryInfo", "ModuleListing", "RefreshStats", "Related"]


@dataclass
class LibraryInfo:
    """An indexed library: its name, root folder, file and item counts."""

    name: str
    root: str
    files: int
    items: int


class DocsIndex:
    """The docs database of one workspace (and the libraries indexed into it)."""

    #: Index private items too (class default; $SIMPLE_BRIEF_DOCS_PRIVATE=1 turns it on).
    include_private: bool = os.environ.get("SIMPLE_BRIEF_DOCS_PRIVATE", "") not in ("", "0")

    def __init__(self, workspace: Workspace, path: Path, include_private: bool) -> None:
        self.workspace = workspace
        self.path = path
        self.include_private = include_private
        self._lock = threading.RLock()
        self._last_walk = float("-inf")
        self._rebuilt: str | None = None
        self._conn: sqlite3.Connection | None = None
        self._open()

    @classmethod
    def open(cls, workspace: Workspace, cache_dir: Path | None = None) -> DocsIndex:
        """Open (or create) the DB for `workspace.root` under `cache_dir` (default: the
        user's cache directory); a corrupt or old-schema DB is rebuilt, never a crash.

        Raises:
            UserError: the cache folder cannot be created or written, or another process
                holds the database's lock while it is being created.
        """
        path = db.db_path(workspace.root, cache_dir)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            return cls(workspace, path, cls.include_private)
        except (OSError, sqlite3.OperationalError) as exc:
            raise UserError(
                f"cannot open the docs database {path} ({exc}); set SIMPLE_BRIEF_CACHE_DIR to a writable folder."
            ) from None

    # ---------------------------------------------------------------- connection

    def _options(self) -> dict[str, str]:
        return {"include_private": "1" if self.include_private else "0"}

    def _open(self) -> None:
        reason = db.problem(self.path)
        if reason is None:
            try:
                conn = db.connect(self.path)
                reason = db.schema_problem(conn, self._options())
                if reason is None:
                    # A current database is opened without writing (another process may hold the lock).
                    if not db.has_schema(conn):
                        db.create(conn, self.workspace.root, self._options())
                    self._conn = conn
                    return
                conn.close()
            except sqlite3.DatabaseError as exc:
                if not db.is_damage(exc):
                    raise
                reason = f"it is damaged ({exc})"
        self._rebuild(reason)

    def _rebuild(self, reason: str) -> None:
        log.warning("docs database %s rebuilt: %s", self.path, reason)
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None
        db.move_aside(self.path)
        conn = db.connect(self.path)
        db.create(conn, self.workspace.root, self._options())
        self._conn = conn
        self._rebuilt = reason
        self._last_walk = float("-inf")

    def _run(self, what: Callable[[sqlite3.Connection], T], default: T) -> T:
        """Run a read; damage found on the way rebuilds the DB and answers `default`."""
        with self._lock:
            conn = self._connection()
            try:
                return what(conn)
            except sqlite3.DatabaseError as exc:
                if db.is_damage(exc):
                    self._rebuild(f"it is damaged ({exc})")
                elif db.is_locked(exc):
                    log.warning("docs database busy, answering without it: %s", exc)
                else:
                    log.exception("docs query failed")
                return default

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._open()
        assert self._conn is not None
        return self._conn

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # ---------------------------------------------------------------- indexing

    def refresh(self, progress: ProgressFn | None = None, force: bool = False) -> RefreshStats:
        """Bring the workspace's items up to date: only files whose content hash changed
        are re-indexed; overlays (`workspace.overlays`) win over the disk.

        The disk walk runs at most every WALK_INTERVAL seconds unless `force`."""
        started = time.perf_counter()
        with self._lock:
            stats = RefreshStats(rebuilt=self._take_rebuilt())
            try:
                self._refresh(stats, progress, force)
            except sqlite3.DatabaseError as exc:
                if db.is_damage(exc):
                    self._rebuild(f"it is damaged ({exc})")
                    stats.rebuilt = self._take_rebuilt()
                    self._refresh(stats, progress, True)
                elif not db.is_locked(exc):
                    raise
                else:
                    stats.skipped = f"another process is writing the docs database ({exc}); answers may be stale"
                    log.warning("docs refresh skipped: %s", stats.skipped)
        stats.seconds = time.perf_counter() - started
        return stats

    def _take_rebuilt(self) -> str | None:
        reason, self._rebuilt = self._rebuilt, None
        return reason

    def _refresh(self, stats: RefreshStats, progress: ProgressFn | None, force: bool) -> None:
        conn = self._connection()
        walk = force or time.monotonic() - self._last_walk >= WALK_INTERVAL
        # Between walks only overlays and files last indexed from an overlay (mtime -1) matter.
        only = None if walk else [r for r in (self._rel(p) for p in self.workspace.overlays) if r]
        known = indexing.known_files(conn, libs.WORKSPACE, only)
        if walk:
            self._last_walk = time.monotonic()
        todo, removed, recheck = indexing.workspace_changes(self.workspace, known, walk, stats)
        indexing.index_files(
            conn,
            libs.WORKSPACE,
            self.workspace.root,
            todo,
            known,
            removed,
            stats,
            progress,
            self.include_private,
            force_hash=recheck,
        )

    def _rel(self, path: Path) -> str:
        try:
            return Path(path).relative_to(self.workspace.root).as_posix()
        except ValueError:
            return ""

    def index_library(self, name: str, progress: ProgressFn | None = None) -> RefreshStats:
        """Index (or refresh) a named library: `python` (the running interpreter's standard
        library), `site-packages` (its installed packages), `nvim` (Neovim's runtime Lua),
        or an absolute folder path (named after the folder).

        Raises:
            UserError: an unknown name, a missing folder, or no Neovim runtime found.
        """
        library = libs.find(name)
        started = time.perf_counter()
        with self._lock:
            stats = RefreshStats(rebuilt=self._take_rebuilt())
            for attempt in range(2):
                try:
                    indexing.index_library(self._connection(), library, stats, progress, self.include_private)
                    break
                except sqlite3.DatabaseError as exc:
                    if not db.is_damage(exc) and not db.is_locked(exc):
                        raise
                    if db.is_locked(exc):
                        stats.skipped = f"another process is writing the docs database ({exc}); try again later"
                        log.warning("docs library index skipped: %s", stats.skipped)
                        break
                    if attempt:
                        raise
                    self._rebuild(f"it is damaged ({exc})")
                    stats.rebuilt = self._take_rebuilt()
        stats.seconds = time.perf_counter() - started
        return stats

    # ---------------------------------------------------------------- queries

    def libraries(self) -> list[LibraryInfo]:
        """The workspace and every library indexed so far."""

        def query(conn: sqlite3.Connection) -> list[LibraryInfo]:
            roots = dict(conn.execute("SELECT name, root FROM libraries").fetchall())
            counts = {
                row[0]: (row[1], row[2] or 0)
                for row in conn.execute("SELECT library, count(*), sum(items) FROM files GROUP BY library")
            }
            out = [LibraryInfo(libs.WORKSPACE, str(self.workspace.root), *counts.get(libs.WORKSPACE, (0, 0)))]
            out += [LibraryInfo(name, root, *counts.get(name, (0, 0))) for name, root in sorted(roots.items())]
            return out

        return self._run(query, [LibraryInfo(libs.WORKSPACE, str(self.workspace.root), 0, 0)])

    def _check_library(self, library: str | None) -> None:
        if library is None or library == libs.WORKSPACE:
            return
        names = [info.name for info in self.libraries()]
        if library not in names:
            raise UserError(
                f"library {library!r} is not indexed; index it first (docs library {library}) "
                f"or use one of: {', '.join(names)}."
            )

    def search(
        self,
        query: str,
        kind: str | None = None,
        module: str | None = None,
        library: str | None = None,
        limit: int = 10,
    ) -> list[Hit]:
        """Items ranked by bm25 (name > signature > summary > body), best first.

        An item whose name or id is the query comes first. FTS syntax in `query` is
        taken as plain words (never an error)."""
        self._check_library(library)
        return self._run(lambda c: queries.search(c, query, kind, module, library, limit), [])

    def get(self, item_id: str, library: str | None = None) -> Item | None:
        """The item with exactly this id (documented and public first when several share it)."""
        return self._run(lambda c: queries.get(c, item_id, library), None)

    def list_module(self, module: str, library: str | None = None) -> ModuleListing:
        """A module's item, its public items and submodules."""
        self._check_library(library)
        return self._run(lambda c: queries.list_module(c, module, library), ModuleListing(None))

    def resolve(self, symbol: str, context: str | None = None, library: str | None = None) -> list[Item]:
        """Items a (possibly partial) name may mean, best first; `context` is a module id
        (or a file path) the name is used in, whose own and imported names win."""
        self._check_library(library)

        def run(conn: sqlite3.Connection) -> list[Item]:
            ctx_module, ctx_imports = queries.context_of(conn, context, self.workspace.root)
            return queries.resolve(conn, symbol, ctx_module, ctx_imports, library)

        return self._run(run, [])

    def related(self, item_id: str, limit: int = 10) -> list[Related]:
        """Items related to `item_id`, most relevant first: see_also 1.0, implements 0.8,
        same_module 0.5, similar_signature 0.3-0.7."""
        item = self.get(item_id)
        if item is None:
            return []
        out: dict[tuple[str, str, int], Related] = {}

        def add(other: Item, reason: str, relevance: float) -> None:
            if other.id == item.id and other.path == item.path and other.line == item.line:
                return
            key = (other.id, other.path, other.line)
            if key not in out or out[key].relevance < relevance:
                out[key] = Related(other, reason, round(relevance, 3))

        for target in item.doc.see_also:
            found = self.resolve(relations.see_target(target), context=item.module)
            if found:
                add(found[0], "see_also", 1.0)
        for other in self._run(lambda c: relations.implementers(c, item), list[Item]()):
            add(other, "implements", 0.8)
        for other in self._run(
            lambda c: db.select_items(
                c, "module = ? AND library = ? AND id != ?", [item.module, item.library, item.id], "LIMIT 200"
            ),
            list[Item](),
        ):
            if other.kind != "module":
                # Siblings (same parent) first, then the rest of the module.
                sibling = ranking.norm_id(other.id).rsplit(".", 1)[0] == ranking.norm_id(item.id).rsplit(".", 1)[0]
                add(other, "same_module", 0.5 if sibling else 0.45)
        for other, relevance in self._run(lambda c: relations.similar(c, item, limit), list[tuple[Item, float]]()):
            add(other, "similar_signature", relevance)
        ranked = sorted(out.values(), key=lambda r: (-r.relevance, r.item.id))
        return ranked[:limit]
