"""The docs index facade: open the persisted database of a workspace, keep it current,
answer queries (run by `docs.queries`). The tools (`simple_brief.tools.docs`) use only this module.

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
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from simple_brief import languages
from simple_brief.docs import db, queries
from simple_brief.docs import libraries as libs
from simple_brief.docs.items import FileDocs, extract
from simple_brief.docs.model import Item
from simple_brief.docs.queries import Hit, ModuleListing, Related
from simple_brief.errors import UserError
from simple_brief.scan import scan
from simple_brief.source import Source
from simple_brief.tools import ProgressFn
from simple_brief.workspace import Workspace

log = logging.getLogger(__name__)

#: The disk walk of `refresh()` runs at most this often per DocsIndex (overlays are always checked).
WALK_INTERVAL = 2.0
#: Files parsed before their items are written in one short transaction.
BATCH_FILES = 64
#: Progress is reported every this many files.
PROGRESS_EVERY = 50
T = TypeVar("T")


@dataclass
class RefreshStats:
    """What one refresh or library index did."""

    files_seen: int = 0
    files_indexed: int = 0
    files_removed: int = 0
    items: int = 0
    seconds: float = 0.0
    rebuilt: str | None = None  # why the DB was rebuilt (corrupt, old schema), if it was
    skipped: str | None = None  # why nothing was written (another writer held the lock), if so


@dataclass
class LibraryInfo:
    """An indexed library: its name, root folder, file and item counts."""

    name: str
    root: str
    files: int
    items: int


@dataclass
class _Parsed:
    """One file ready to be written."""

    rel: str
    hash: str
    mtime_ns: int
    size: int
    docs: FileDocs | None  # None: only the stat changed (same content)
    language: str = ""
    readable: bool = True  # False: binary, too large or unreadable (kept with no items, not retried)


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
            if self._conn is None:
                self._open()
            assert self._conn is not None
            try:
                return what(self._conn)
            except sqlite3.DatabaseError as exc:
                if db.is_damage(exc):
                    self._rebuild(f"it is damaged ({exc})")
                elif db.is_locked(exc):
                    log.warning("docs database busy, answering without it: %s", exc)
                else:
                    log.exception("docs query failed")
                return default

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
        if self._conn is None:
            self._open()
        conn = self._conn
        assert conn is not None
        root = self.workspace.root
        walk = force or time.monotonic() - self._last_walk >= WALK_INTERVAL
        # Between walks only overlays and files last indexed from an overlay (mtime -1) matter.
        sql = "SELECT path, hash, mtime_ns, size FROM files WHERE library = ?"
        if not walk:
            sql += " AND (mtime_ns = -1 OR path IN (SELECT value FROM json_each(?)))"
        args: tuple[str, ...] = (libs.WORKSPACE,)
        if not walk:
            rels = [self._rel(p) for p in self.workspace.overlays]
            args += (json.dumps([r for r in rels if r]),)
        known = {row[0]: (row[1], row[2], row[3]) for row in conn.execute(sql, args)}
        overlays: dict[str, str] = {}
        for real, text in self.workspace.overlays.items():
            try:
                rel = Path(real).relative_to(root).as_posix()
            except ValueError:
                continue
            if languages.for_path(real) is not languages.PLAIN:
                overlays[rel] = text
        todo: list[tuple[str, Path | None, str | None]] = []  # rel, disk path, overlay text
        for rel, text in overlays.items():
            old = known.get(rel)
            if old is None or old[0] != db.content_hash(text.encode("utf-8", "surrogatepass")):
                todo.append((rel, None, text))
        # Files indexed from an overlay that is gone: look at the disk again now.
        recheck = {rel for rel, (_h, mtime, _s) in known.items() if mtime == -1 and rel not in overlays}
        removed: list[str] = []
        if walk:
            self._last_walk = time.monotonic()
            seen = set(overlays)
            for path in self.workspace.files():
                rel = path.relative_to(root).as_posix()
                if rel in overlays:
                    continue
                seen.add(rel)
                todo.append((rel, path, None))
            removed = [rel for rel in known if rel not in seen]
            stats.files_seen = len(seen)
        else:
            for rel in recheck:
                path = root / rel
                if path.is_file():
                    todo.append((rel, path, None))
                else:
                    removed.append(rel)
        self._index(libs.WORKSPACE, root, todo, known, removed, stats, progress, force_hash=recheck)

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
                    self._index_library(library, stats, progress)
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

    def _index_library(self, library: libs.Library, stats: RefreshStats, progress: ProgressFn | None) -> None:
        if self._conn is None:
            self._open()
        conn = self._conn
        assert conn is not None
        old_root = conn.execute("SELECT root FROM libraries WHERE name = ?", (library.name,)).fetchone()
        if old_root is not None and old_root[0] != str(library.root):
            # Another folder of the same name: start that library afresh.
            db.write(conn, lambda c: db.drop_library(c, library.name))
        known = {
            row[0]: (row[1], row[2], row[3])
            for row in conn.execute("SELECT path, hash, mtime_ns, size FROM files WHERE library = ?", (library.name,))
        }
        todo: list[tuple[str, Path | None, str | None]] = []
        for path in libs.files(library):
            todo.append((path.relative_to(library.root).as_posix(), path, None))
        stats.files_seen = len(todo)
        seen = {rel for rel, _p, _t in todo}
        removed = [rel for rel in known if rel not in seen]
        db.write(
            conn,
            lambda c: c.execute(
                "INSERT OR REPLACE INTO libraries(name, root) VALUES(?, ?)", (library.name, str(library.root))
            ),
        )
        self._index(library.name, library.root, todo, known, removed, stats, progress)

    def _index(
        self,
        library: str,
        root: Path,
        todo: list[tuple[str, Path | None, str | None]],
        known: dict[str, tuple[str, int, int]],
        removed: list[str],
        stats: RefreshStats,
        progress: ProgressFn | None,
        force_hash: Iterable[str] = (),
    ) -> None:
        """Stat, hash and parse what changed in `todo`, write it in batches, drop `removed`."""
        conn = self._conn
        assert conn is not None
        forced = set(force_hash)
        total = len(todo)
        batch: list[_Parsed] = []
        for done, (rel, path, text) in enumerate(todo, 1):
            if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
                progress(done, total, f"{library}: {rel}")
            parsed = self._check(library, root, rel, path, text, known.get(rel), rel in forced)
            if parsed is not None:
                batch.append(parsed)
            if len(batch) >= BATCH_FILES:
                db.write(conn, lambda c, b=batch: self._store(c, library, b, stats))  # type: ignore[misc]
                batch = []
        if batch or removed:
            db.write(conn, lambda c: self._store(c, library, batch, stats, removed))

    def _check(
        self,
        library: str,
        root: Path,
        rel: str,
        path: Path | None,
        text: str | None,
        old: tuple[str, int, int] | None,
        force: bool,
    ) -> _Parsed | None:
        """The file parsed when its content changed, a stat-only update when only its stat did, else None."""
        if text is not None:
            data = text.encode("utf-8", "surrogatepass")
            mtime, size = -1, len(data)
        else:
            assert path is not None
            try:
                info = path.stat()
            except OSError:
                return None
            mtime, size = info.st_mtime_ns, info.st_size
            if old is not None and not force and old[1] == mtime and old[2] == size:
                return None
            try:
                data = path.read_bytes()
            except OSError:
                return None
        digest = db.content_hash(data)
        if old is not None and old[0] == digest:
            return _Parsed(rel, digest, mtime, size, None) if (old[1], old[2]) != (mtime, size) else None
        spec = languages.for_path(rel)
        try:
            source = Source(text) if text is not None else Source.from_bytes(data, name=rel)
            outline = scan(source, spec)
            docs = extract(outline, rel, root, library, private=self.include_private)
        except UserError as exc:
            log.info("docs: %s not indexed: %s", rel, exc)
            return _Parsed(rel, digest, mtime, size, FileDocs(module=""), spec.name, readable=False)
        except Exception:  # a scanner bug must not stop the whole index
            log.exception("docs: %s could not be read", rel)
            return _Parsed(rel, digest, mtime, size, FileDocs(module=""), spec.name, readable=False)
        return _Parsed(rel, digest, mtime, size, docs, spec.name)

    @staticmethod
    def _store(
        conn: sqlite3.Connection, library: str, batch: list[_Parsed], stats: RefreshStats, removed: Iterable[str] = ()
    ) -> None:
        for rel in removed:
            db.delete_file(conn, library, rel)
            stats.files_removed += 1
        for parsed in batch:
            if parsed.docs is None:
                db.update_stat(conn, library, parsed.rel, parsed.mtime_ns, parsed.size)
                continue
            db.store_file(
                conn, library, parsed.rel, parsed.docs, parsed.hash, parsed.mtime_ns, parsed.size, parsed.language
            )
            stats.files_indexed += int(parsed.readable)
            stats.items += len(parsed.docs.items)

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
            found = self.resolve(queries.see_target(target), context=item.module)
            if found:
                add(found[0], "see_also", 1.0)
        for other in self._run(lambda c: db.implementers(c, item), list[Item]()):
            add(other, "implements", 0.8)
        for other in self._run(
            lambda c: db.select_items(
                c, "module = ? AND library = ? AND id != ?", [item.module, item.library, item.id], "LIMIT 200"
            ),
            list[Item](),
        ):
            if other.kind != "module":
                # Siblings (same parent) first, then the rest of the module.
                sibling = db.norm_id(other.id).rsplit(".", 1)[0] == db.norm_id(item.id).rsplit(".", 1)[0]
                add(other, "same_module", 0.5 if sibling else 0.45)
        for other, relevance in self._run(lambda c: db.similar(c, item, limit), list[tuple[Item, float]]()):
            add(other, "similar_signature", relevance)
        ranked = sorted(out.values(), key=lambda r: (-r.relevance, r.item.id))
        return ranked[:limit]
