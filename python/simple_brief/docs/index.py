"""The docs index facade: open the persisted database of a workspace, keep it current
(run by `docs.indexing`), answer queries (run by `docs.queries`). The tools
(`simple_brief.tools.docs`) use only this module.

Behaviour the tools rely on:

- `DocsIndex.open` never re-indexes: queries answer from the stored database at once;
  call `refresh()` (cheap when nothing changed) before answering.
- The workspace's files are not tracked here: the workspace's file store (`files`,
  `simple_brief.index`, which opens its docs index) walks or watches the tree, keeps the
  one table of files (stat, then content hash) and parses each changed file once for the
  symbol rows and the doc items, handed here (`take`). `refresh()` brings the store up to
  date (`refresh(force=True)`: with a full walk even while it watches), then writes the
  overlays (they win over the disk) and reads again what the store holds and the
  database lacks (after a rebuild); files the store no longer holds drop their items.
  When another process holds the write lock longer than the busy timeout the refresh
  is skipped (`RefreshStats.skipped` says why) and answers come from what is stored.
- Queries never wait for indexing: they read on their own connection (WAL) while an
  index writes short batches on another, so a docs search answers from what is indexed
  so far while a long `docs action=index` runs. A second refresh (or library index) waits at
  most `WAIT_SECONDS` for the one running, then answers without.
- Libraries (`index_library`): `python`, `site-packages`, `nvim`, or a folder listed under
  `[docs] folders` in the config (`docs.libraries.find`); anything else is refused. The
  workspace's own items are library `workspace`. `library=None` in queries means all.
- One call indexes for at most `indexing.MAX_SECONDS` and `indexing.MAX_FILES` files
  (`RefreshStats.stopped`); what it did is kept and running it again continues.
- Secrets files are never indexed, and items of files that match a secrets rule now
  (indexed before the rule existed) are never answered.
- Only public items are indexed unless `include_private` (or $SIMPLE_BRIEF_DOCS_PRIVATE=1).
- A damaged database — corrupt, truncated, old schema, deleted (with its -wal left), or
  a folder, symlink or FIFO in its place (checked with `lstat` before SQLite opens
  anything: `docs.storage`) — is set aside and rebuilt. The list of indexed libraries
  survives in a sidecar file; `RefreshStats.rebuilt` of the next refresh says why, and
  `RefreshStats.reindex` which libraries to index again.
- Files it writes are 0600 in 0700 folders.
- Raises `UserError` for a library it may not read (in `index_library`, or as a filter
  of a library that was never indexed); nothing else a user can cause raises.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from simple_brief.docs import db, indexing, queries, ranking, relations, storage
from simple_brief.docs import libraries as libs
from simple_brief.docs.indexing import Budget, Origin, ParsedDocs, RefreshStats, WorkspaceFiles
from simple_brief.docs.model import Item
from simple_brief.docs.queries import Hit, ModuleListing, Related
from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.private_files import private_dir
from simple_brief.files.workspace import Workspace
from simple_brief.model import ProgressFn

log = logging.getLogger(__name__)

#: Seconds a refresh or library index waits for the one already running in this index.
WAIT_SECONDS = 10.0
T = TypeVar("T")

__all__ = ["DocsIndex", "Hit", "LibraryInfo", "ModuleListing", "RefreshStats", "Related"]


@dataclass
class LibraryInfo:
    """An indexed library: its name, root folder, file and item counts."""

    name: str
    root: str
    files: int
    items: int


class _Store:
    """The writing side of a DocsIndex (`indexing.Store`): its own connection, one short
    transaction at a time under the write lock, nothing held between them."""

    def __init__(self, index: DocsIndex) -> None:
        self.index = index

    def read(self, body: Callable[[sqlite3.Connection], T]) -> T:
        with self.index._write_lock:
            return body(self.index._writer_connection())

    def write(self, body: Callable[[sqlite3.Connection], Any]) -> None:
        with self.index._write_lock:
            db.write(self.index._writer_connection(), body)


class DocsIndex:
    """The docs database of one workspace (and the libraries indexed into it)."""

    #: Index private items too (class default; $SIMPLE_BRIEF_DOCS_PRIVATE=1 turns it on).
    include_private: bool = os.environ.get("SIMPLE_BRIEF_DOCS_PRIVATE", "") not in ("", "0")

    def __init__(self, workspace: Workspace, path: Path, include_private: bool, files: WorkspaceFiles) -> None:
        self.workspace = workspace
        self.path = path
        self.include_private = include_private
        #: The workspace's file store, which hands this index the items of what it parses.
        self.files = files
        #: The refresh running in this index, which counts what `take` writes meanwhile.
        self._taking: RefreshStats | None = None
        # Lock order: refresh or library, then write, then read. Queries take only the read lock.
        self._write_lock = threading.RLock()
        self._read_lock = threading.RLock()
        self._refresh_lock = threading.Lock()
        self._library_lock = threading.Lock()
        #: A forced refresh (docs_index of the workspace) holds `_refresh_lock`: others do not wait for it.
        self._indexing_workspace = False
        self._store = _Store(self)
        self._rebuilt: str | None = None
        self._generation = 0
        self._reader: sqlite3.Connection | None = None
        self._writer: sqlite3.Connection | None = None
        self._listing: storage.Listing = {}
        with self._write_lock, self._read_lock:
            self._open()

    @classmethod
    def open(cls, workspace: Workspace, cache_dir: Path | None = None, *, files: WorkspaceFiles) -> DocsIndex:
        """Open (or create) the DB for `workspace.root` under `cache_dir` (default: the
        user's cache directory), kept current by the workspace's file store `files`; a
        damaged or old-schema DB is rebuilt, never a crash.

        Raises:
            UserError: the cache folder cannot be created or written, or another process
                holds the database's lock while it is being created.
        """
        path = db.db_path(workspace.root, cache_dir)
        try:
            private_dir(path.parent.resolve())
            return cls(workspace, path, cls.include_private, files)
        except (OSError, sqlite3.OperationalError) as exc:
            raise UserError(
                f"cannot open the docs database {path} ({exc}); set SIMPLE_BRIEF_CACHE_DIR to a writable folder."
            ) from None

    # ---------------------------------------------------------------- connections

    def _options(self) -> dict[str, str]:
        return {"include_private": "1" if self.include_private else "0"}

    def _open(self) -> None:
        """Open both connections (write and read locks held); rebuild what cannot be used.
        The layout is checked with `lstat` first: SQLite never opens a FIFO or follows a symlink."""
        reason = storage.layout_problem(self.path) or db.problem(self.path)
        if reason is None:
            writer = None
            try:
                storage.create_file(self.path)
                writer = db.connect(self.path)
                reason = db.schema_problem(writer, self._options())
                if reason is None:
                    # A current database is opened without writing (another process may hold the lock).
                    if not db.has_schema(writer):
                        db.create(writer, self.workspace.root, self._options())
                    self._attach(writer)
                    writer = None
                    self._sync_listing()
                    return
            except sqlite3.DatabaseError as exc:
                if not db.is_damage(exc):
                    raise
                reason = f"it is damaged ({exc})"
            finally:
                if writer is not None:
                    writer.close()
        self._rebuild(reason)

    def _attach(self, writer: sqlite3.Connection) -> None:
        self._writer = writer
        self._reader = db.connect(self.path, read_only=True)
        storage.narrow_all(self.path)

    def _sync_listing(self) -> None:
        """Keep the sidecar list of libraries in step with the database (an older database has none)."""
        assert self._writer is not None
        listing = storage.read_listing(self.path)
        missing = {
            name: {"root": root, "source": name if name in libs.KNOWN else root}
            for name, root in self._writer.execute("SELECT name, root FROM libraries")
            if name not in listing
        }
        self._listing = {**listing, **missing}
        if missing or not storage.side(self.path, storage.SIDECAR).exists():
            storage.write_listing(self.path, self._listing)

    def _rebuild(self, reason: str) -> None:
        """Set the database aside and create it afresh, keeping the list of libraries
        (write and read locks held)."""
        log.warning("docs database %s rebuilt: %s", self.path, reason)
        listing = {**storage.salvage_listing(self.path), **storage.read_listing(self.path), **self._listing}
        self._close_connections()
        storage.move_aside(self.path)
        storage.create_file(self.path)
        writer = db.connect(self.path)
        try:
            db.create(writer, self.workspace.root, self._options())
        except BaseException:
            writer.close()
            raise
        self._attach(writer)
        self._listing = listing
        storage.write_listing(self.path, listing)
        self._rebuilt = reason
        self._generation += 1

    def _rebuild_after(self, generation: int, reason: str) -> None:
        """Rebuild for damage seen at `generation`, unless another thread already did."""
        if not self._write_lock.acquire(timeout=WAIT_SECONDS):
            log.warning("docs database damaged (%s) but busy; rebuilt by a later call", reason)
            return
        try:
            with self._read_lock:
                if self._generation == generation:
                    self._rebuild(reason)
        finally:
            self._write_lock.release()

    def _run(self, what: Callable[[sqlite3.Connection], T], default: T) -> T:
        """Run a read on the reading connection; damage found on the way rebuilds the DB
        and answers `default`. Never waits for an index run (only for another query)."""
        if self._reader is None:
            with self._write_lock, self._read_lock:
                if self._reader is None:
                    self._open()
        with self._read_lock:
            generation = self._generation
            try:
                assert self._reader is not None
                return what(self._reader)
            except sqlite3.DatabaseError as exc:
                if db.is_locked(exc):
                    log.warning("docs database busy, answering without it: %s", exc)
                    return default
                if not db.is_damage(exc):
                    log.exception("docs query failed")
                    return default
                reason = f"it is damaged ({exc})"
        self._rebuild_after(generation, reason)
        return default

    def _writer_connection(self) -> sqlite3.Connection:
        """The writing connection (write lock held)."""
        if self._writer is None:
            with self._read_lock:
                self._open()
        assert self._writer is not None
        return self._writer

    def _close_connections(self) -> None:
        for conn in (self._reader, self._writer):
            if conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
        self._reader = self._writer = None

    def close(self) -> None:
        """Close the database."""
        with self._write_lock, self._read_lock:
            self._close_connections()

    # ---------------------------------------------------------------- indexing

    def refresh(
        self, progress: ProgressFn | None = None, force: bool = False, view: Workspace | None = None
    ) -> RefreshStats:
        """Bring the workspace's items up to date through the file store (`files`): only
        files whose content hash changed are parsed; overlays win over the disk — those of
        `view`, the calling call's view of the workspace (its editor's unsaved buffers under
        the agent's overlays; None: the workspace's own).

        `force` walks the whole tree even while the store watches it. Waits at
        most WAIT_SECONDS for another call's refresh, not at all for a docs_index of the
        workspace (`skipped` says so: answers come from what is indexed so far)."""
        started = time.perf_counter()
        stats = RefreshStats()
        wait = 0.0 if self._indexing_workspace else WAIT_SECONDS
        if not self._refresh_lock.acquire(timeout=wait):
            stats.skipped = "another docs call is still indexing the workspace; answers come from what is indexed"
        else:
            try:
                self._indexing_workspace = force
                stats.rebuilt = self._take_rebuilt()
                budget = Budget.start()
                self._guarded(
                    stats,
                    lambda again: self._refresh(stats, progress, force or again, budget, view or self.workspace),
                    "answers may be stale",
                )
            finally:
                self._indexing_workspace = False
                self._refresh_lock.release()
        self._finish(stats, started)
        return stats

    def _guarded(self, stats: RefreshStats, run: Callable[[bool], None], busy: str) -> None:
        """Run an index step; damage rebuilds the database and runs it once more (`run(True)`),
        another process's lock skips it (`stats.skipped`)."""
        for attempt in range(2):
            generation = self._generation
            try:
                run(attempt > 0)
                return
            except sqlite3.DatabaseError as exc:
                if db.is_locked(exc):
                    stats.skipped = f"another process is writing the docs database ({exc}); {busy}"
                    log.warning("docs index skipped: %s", stats.skipped)
                    return
                if not db.is_damage(exc) or attempt:
                    raise
                self._rebuild_after(generation, f"it is damaged ({exc})")
                stats.rebuilt = self._take_rebuilt() or stats.rebuilt

    def _finish(self, stats: RefreshStats, started: float) -> None:
        if stats.rebuilt:
            stats.reindex = self.pending_libraries()
        stats.seconds = time.perf_counter() - started

    def _take_rebuilt(self) -> str | None:
        """Why the database was rebuilt since last asked, if it was (opened again first
        after a `close`, so a rebuild it needs shows now)."""
        with self._write_lock:
            self._writer_connection()
            reason, self._rebuilt = self._rebuilt, None
        return reason

    def _refresh(
        self, stats: RefreshStats, progress: ProgressFn | None, force: bool, budget: Budget, view: Workspace
    ) -> None:
        self._taking = stats
        try:
            if force:
                self.files.refresh(progress)
            else:
                self.files.ensure_fresh(progress)
        finally:
            self._taking = None
        held = self.files.documented()
        known = self._store.read(lambda c: indexing.known_files(c, libs.WORKSPACE))
        todo, overlays = indexing.overlay_changes(view, known)
        behind, removed = indexing.behind_store(known, held, overlays)
        stats.files_seen = len(held | dict.fromkeys(overlays))
        indexing.index_files(
            self._store,
            Origin.of_workspace(self.workspace),
            todo + behind,
            known,
            removed,
            stats,
            progress,
            self.include_private,
            budget,
            force_hash=[rel for rel, _t, _i in behind],
        )

    def take(self, parsed: list[ParsedDocs], gone: list[str]) -> None:
        """Write the items of files the file store parsed, and drop the files it no longer
        holds (paths escaped). A database busy or damaged now is left as it is: the next
        `refresh` reads what it lacks (`indexing.behind_store`)."""
        if not parsed and not gone:
            return
        counts: list[tuple[int, int, int]] = []
        generation = self._generation
        try:
            self._store.write(lambda c: counts.append(indexing.store_batch(c, libs.WORKSPACE, parsed, gone)))
        except sqlite3.DatabaseError as exc:
            if not (db.is_locked(exc) or db.is_damage(exc)):
                raise
            log.warning("docs database not written (%s); the next docs call catches up", exc)
            if db.is_damage(exc):
                self._rebuild_after(generation, f"it is damaged ({exc})")
            return
        stats = self._taking
        if stats is not None and counts:
            stats.files_removed += counts[0][0]
            stats.files_indexed += counts[0][1]
            stats.items += counts[0][2]

    def index_library(
        self, name: str, progress: ProgressFn | None = None, folders: Sequence[Path] | None = None
    ) -> RefreshStats:
        """Index (or refresh) a library: `python` (the running interpreter's standard
        library), `site-packages` (its installed packages), `nvim` (Neovim's runtime Lua),
        or a folder listed under `[docs] folders` (`folders`; default: the config's),
        named by its path or its last component.

        Raises:
            UserError: any other name or path, a missing listed folder, or no Neovim runtime found.
        """
        if folders is None:
            folders = config.load(self.workspace.root).docs_folders
        library = libs.find(name, folders, self.workspace.root)
        started = time.perf_counter()
        stats = RefreshStats(library=library.name)
        if not self._library_lock.acquire(timeout=WAIT_SECONDS):
            stats.skipped = "another docs action=index is still indexing a library; run this one again when it is done"
        else:
            try:
                stats.rebuilt = self._take_rebuilt()
                self._remember(library)
                budget = Budget.start()
                self._guarded(
                    stats,
                    lambda _again: indexing.index_library(
                        self._store, library, stats, progress, self.include_private, self.workspace.secrets, budget
                    ),
                    "try again later",
                )
            finally:
                self._library_lock.release()
        self._finish(stats, started)
        return stats

    def _remember(self, library: libs.Library) -> None:
        """Add a library to the sidecar list, which survives a rebuild of the database."""
        with self._write_lock:
            listing = {**self._listing, **storage.read_listing(self.path)}
            listing[library.name] = {"root": str(library.root), "source": library.argument}
            self._listing = listing
            storage.write_listing(self.path, listing)

    def pending_libraries(self) -> list[tuple[str, str]]:
        """Libraries indexed before a rebuild and not since, as (name, what docs_index
        takes to index it again); only those the config still allows."""
        indexed = {info.name for info in self.libraries()}
        waiting = [(name, entry["source"]) for name, entry in sorted(self._listing.items()) if name not in indexed]
        if not waiting:
            return []
        try:
            folders = config.load(self.workspace.root).docs_folders
        except UserError:
            folders = []
        allowed = []
        for name, source in waiting:
            with contextlib.suppress(UserError):
                libs.find(source, folders, self.workspace.root)
                allowed.append((name, source))
        return allowed

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
                f"library {library!r} is not indexed; index it first (docs action=index library={library}) "
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
        hits = self._run(lambda c: queries.search(c, query, kind, module, library, limit), list[Hit]())
        return [hit for hit in hits if self._shown(hit.item)]

    def get(self, item_id: str, library: str | None = None) -> Item | None:
        """The item with exactly this id (documented and public first when several share it)."""
        item = self._run(lambda c: queries.get(c, item_id, library), None)
        return item if item is not None and self._shown(item) else None

    def list_module(self, module: str, library: str | None = None) -> ModuleListing:
        """A module's item, its public items and submodules."""
        self._check_library(library)
        listing = self._run(lambda c: queries.list_module(c, module, library), ModuleListing(None))
        shown_module = listing.module if listing.module is not None and self._shown(listing.module) else None
        return ModuleListing(shown_module, [i for i in listing.items if self._shown(i)], listing.submodules)

    def resolve(self, symbol: str, context: str | None = None, library: str | None = None) -> list[Item]:
        """Items a (possibly partial) name may mean, best first; `context` is a module id
        (or a file path) the name is used in, whose own and imported names win."""
        self._check_library(library)

        def run(conn: sqlite3.Connection) -> list[Item]:
            ctx_module, ctx_imports = queries.context_of(conn, context, self.workspace.root)
            return queries.resolve(conn, symbol, ctx_module, ctx_imports, library)

        return [item for item in self._run(run, list[Item]()) if self._shown(item)]

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
        ranked = sorted((r for r in out.values() if self._shown(r.item)), key=lambda r: (-r.relevance, r.item.id))
        return ranked[:limit]

    def _shown(self, item: Item) -> bool:
        """Whether an item may be answered: not from a file that matches a secrets rule
        (the path relative to its library's root; rows stored before the rule existed)."""
        return self.workspace.secrets.rule_for(item.path) is None
