"""The workspace's file store and its two indexes: one table of the listed files (stat,
then content hash) in a SQLite file (`index.store`), one walk or watcher, and one parse per
changed file (`index.parse`) giving both every definition (the symbol index, answering
`search` and `workspace_symbols` without parsing: `index.query`) and the doc items (the
docs index, `docs.index.DocsIndex`, which the store opens and hands them to).

Behaviour the tools rely on:

- `symbol_index(workspace)` gives one `SymbolIndex` (the store) per Workspace, opened on
  first use; a long-lived process (MCP server, daemon, Neovim host) keeps it, and with it
  the in-memory name table, warm. `docs_index(workspace)` is its docs index (`.docs`),
  opened on the first docs call of the workspace (or with the store when its database
  exists from an earlier one): until then the store gives no doc items and parses
  with the lean scan, so `search` never pays for docs nobody asked for; the docs
  index's first refresh then reads what it lacks (`indexing.behind_store`).
- `refresh(progress)` lists the workspace's files (`Workspace.files`, .gitignore-aware,
  the listing `search` and `docs` use), stats each, and parses only files whose
  (mtime_ns, size) changed and whose content hash then differs; files gone (deleted,
  renamed) lose their rows. A file the docs index reads (`languages.documented`) gets the
  full scan and its doc items go to the docs index (`DocsIndex.take`, after each batch of
  symbol rows is committed); any other file the lean scan. Many files are parsed by one worker process per core
  (`ProcessPoolExecutor`, chunks of files), few in this process. Files left out as too
  big, binary or unreadable are recorded with the reason (`skipped_counts`).
- Overlays (the agent's and the editor's unsaved buffers) are never stored: queries
  parse them live and lay them over the stored rows of their file.
- A damaged, foreign or old-schema file is set aside and rebuilt with one warning
  (`refresh` then says why in `RefreshStats.rebuilt`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import stat as stat_mod
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from simple_brief import languages
from simple_brief.docs import db
from simple_brief.docs.index import DocsIndex
from simple_brief.docs.indexing import Known, ParsedDocs
from simple_brief.errors import UserError
from simple_brief.files.path_escapes import escape_path, unescape_path
from simple_brief.files.private_files import private_dir
from simple_brief.files.workspace import ALWAYS_SKIPPED, SKIP_BINARY, SKIP_UNREADABLE, Workspace
from simple_brief.index import store
from simple_brief.index.batch import Batch
from simple_brief.index.names import Names
from simple_brief.index.parse import DocsWanted, Parsed, diagnostics_from
from simple_brief.index.store import FileState
from simple_brief.model import Diagnostic, ProgressFn

if TYPE_CHECKING:
    from simple_brief.index.watch import Watcher

log = logging.getLogger(__name__)


__all__ = [
    "RefreshStats",
    "SymbolIndex",
    "close_symbol_index",
    "docs_index",
    "open_symbol_index",
    "symbol_index",
]


#: Held while a workspace's index is opened, replaced or closed. The index itself is kept on
#: its workspace (`Workspace.symbol_index`; a call's view shares its workspace's:
#: `Workspace.base`), not in a table here: a table would keep every workspace ever indexed,
#: and its databases' open files, alive. The host closes them with its workspaces.
_OPEN_LOCK = threading.Lock()


def symbol_index(workspace: Workspace, cache_dir: Path | None = None) -> SymbolIndex:
    """The symbol index of `workspace`: one object per Workspace (a call's view shares its
    workspace's), opened on first use and kept while the workspace lives, so a long-lived
    process keeps it warm.

    Raises:
        UserError: the cache folder cannot be created or written.
    """
    owner = workspace.base or workspace
    with _OPEN_LOCK:
        index: SymbolIndex | None = owner.symbol_index
        if index is None or index.closed:
            index = SymbolIndex.open(owner, cache_dir)
            owner.symbol_index = index
        return index


def open_symbol_index(workspace: Workspace) -> SymbolIndex | None:
    """The workspace's index if one is open (None: never opened, or closed)."""
    with _OPEN_LOCK:
        index: SymbolIndex | None = (workspace.base or workspace).symbol_index
    return None if index is None or index.closed else index


def close_symbol_index(workspace: Workspace) -> None:
    """Close the workspace's index (its watcher and SQLite connection), if one is open; the
    next `symbol_index` opens it again from disk."""
    owner = workspace.base or workspace
    with _OPEN_LOCK:
        index: SymbolIndex | None = owner.symbol_index
        owner.symbol_index = None
    if index is not None:
        index.close()


def docs_index(workspace: Workspace, cache_dir: Path | None = None) -> DocsIndex:
    """The docs index of `workspace`: the one its file store (`symbol_index`) keeps current.

    Raises:
        UserError: the cache folder cannot be created or written.
    """
    index = symbol_index(workspace, cache_dir)
    with index.docs_lock:  # not `lock`: a docs call never waits for another call's refresh
        if index.docs is None:
            index.docs = DocsIndex.open(index.workspace, index.cache_dir, files=index)
        return index.docs


@dataclass
class RefreshStats:
    """What one refresh did."""

    listed: int = 0
    parsed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: int = 0
    seconds: float = 0.0
    walk_seconds: float = 0.0
    rebuilt: str | None = None
    changed: list[str] = field(default_factory=list)


class SymbolIndex:
    """The symbol index of one workspace root."""

    def __init__(
        self,
        workspace: Workspace,
        path: Path,
        conn: sqlite3.Connection,
        rebuilt: str | None,
        cache_dir: Path | None = None,
    ) -> None:
        self.workspace = workspace
        self.path = path
        #: The cache folder asked for at `open` (None: the user's), where the docs index opens too.
        self.cache_dir = cache_dir
        self.lock = threading.RLock()
        #: Held while the docs index is opened (`docs_index`).
        self.docs_lock = threading.Lock()
        self._conn = conn
        self._rebuilt = rebuilt
        self._files: dict[str, FileState] = {}
        #: The skipped files by path (None: to be counted again after a change).
        self._skipped: dict[str, str] | None = None
        self._names: Names | None = None
        self._version: int | None = None
        self._watcher: Watcher | None = None
        self._dirty_lock = threading.Lock()
        self._dirty: set[str] = set()
        self._lost = False
        self._walked = False
        #: Set by `close()`: `symbol_index` opens a new one.
        self.closed = False
        #: The docs index this store hands the doc items of what it parses: opened by
        #: `open` when its database exists, else by the first `docs_index` call.
        self.docs: DocsIndex | None = None
        self._load_files()

    @classmethod
    def open(cls, workspace: Workspace, cache_dir: Path | None = None) -> SymbolIndex:
        """Open (or create) the index of `workspace.root`; a damaged one is rebuilt.

        Raises:
            UserError: the cache folder cannot be created or written.
        """
        path = store.db_path(workspace.root, cache_dir)
        try:
            private_dir(path.parent.resolve())
            conn, rebuilt = store.open_db(path, workspace.root)
            index = cls(workspace, path, conn, rebuilt, cache_dir)
        except (OSError, sqlite3.OperationalError) as exc:
            raise UserError(
                f"cannot open the symbol index {path} ({exc}); set SIMPLE_BRIEF_CACHE_DIR to a writable folder."
            ) from None
        try:
            if db.db_path(workspace.root, cache_dir).exists():
                index.docs = DocsIndex.open(workspace, cache_dir, files=index)
        except BaseException:
            conn.close()
            raise
        return index

    # ---------------------------------------------------------------- state

    @property
    def conn(self) -> sqlite3.Connection:
        """The connection (hold `lock` while using it)."""
        return self._conn

    def _load_files(self) -> None:
        self._version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        rows = self._conn.execute("SELECT path, id, mtime_ns, size, hash, skipped FROM files")
        self._files = {unescape_path(r[0]): FileState(*r[1:]) for r in rows}
        self._skipped = None
        self._names = None

    def sync(self) -> None:
        """Read the file state again when another process (a standalone CLI run beside a
        daemon) wrote the database since (`PRAGMA data_version`)."""
        with self.lock:
            if self._conn.execute("PRAGMA data_version").fetchone()[0] != self._version:
                log.info("symbol index %s changed by another process; reloading", self.path)
                self._load_files()

    def names(self) -> Names:
        """The in-memory table of distinct names (loaded on first use, then kept current)."""
        with self.lock:
            if self._names is None:
                self._names = Names(self._conn.execute("SELECT name, words, file FROM symbols"))
            return self._names

    def file_state(self, rel: str) -> FileState | None:
        """What the index holds for the file at `rel` (relative to the root), if listed."""
        return self._files.get(rel)

    def stored_diagnostics(self, path: Path) -> list[Diagnostic] | None:
        """The scan's findings for a listed file as stored (call `ensure_fresh` first), or
        None when the file must be parsed: an overlay, unknown, skipped, or not stored."""
        if path in self.workspace.overlays:
            return None
        try:
            rel = path.relative_to(self.workspace.root).as_posix()
        except ValueError:
            return None
        with self.lock:
            state = self._files.get(rel)
            if state is None or state.skipped is not None:
                return None
            row = self._conn.execute("SELECT diagnostics FROM files WHERE id = ?", (state.id,)).fetchone()
        return diagnostics_from(row[0]) if row is not None and row[0] is not None else None

    def documented(self) -> Known:
        """Every stored file the docs index reads (`docs.indexing.WorkspaceFiles`): by its
        escaped path, its content hash, mtime and size (a binary file too: the docs index
        keeps it with no items)."""
        with self.lock:
            return {
                escape_path(rel): (state.hash, state.mtime_ns, state.size)
                for rel, state in self._files.items()
                if state.skipped in (None, SKIP_BINARY) and state.hash and languages.documented(rel)
            }

    def skipped_counts(self, under: str | None = None) -> dict[str, int]:
        """How many listed files under `under` (a folder relative to the root, "dir/") were
        left out, by reason."""
        with self.lock:
            skipped = self._skipped
            if skipped is None:
                skipped = self._skipped = {r: s.skipped for r, s in self._files.items() if s.skipped is not None}
        counts: dict[str, int] = {}
        for rel, reason in skipped.items():
            if under is None or rel.startswith(under):
                counts[reason] = counts.get(reason, 0) + 1
        return counts

    def close(self) -> None:
        """Stop watching and close the database (and the docs index's)."""
        with self.lock:
            self.stop_watching()
            self._conn.close()
            if self.docs is not None:
                self.docs.close()
            self.closed = True

    def recover(self, exc: sqlite3.DatabaseError) -> None:
        """Damage found while working (`docs.db.is_damage`): set the file aside and start
        afresh (the next `refresh` indexes everything again and says why)."""
        reason = f"it is damaged ({exc})"
        with self.lock:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = store.rebuild(self.path, self.workspace.root, reason)
            self._rebuilt = reason
            self._files = {}
            self._skipped = None
            self._names = None

    # ---------------------------------------------------------------- refresh

    def refresh(self, progress: ProgressFn | None = None, workers: int | None = None) -> RefreshStats:
        """Bring the index up to date with the disk (see the module doc); damage found on
        the way rebuilds the file and indexes again."""
        with self.lock:
            for attempt in range(2):
                try:
                    return self._refresh(progress, workers)
                except sqlite3.DatabaseError as exc:
                    if attempt or not db.is_damage(exc):
                        raise
                    self.recover(exc)
        raise AssertionError("unreachable")

    def _refresh(self, progress: ProgressFn | None, workers: int | None) -> RefreshStats:
        self.sync()
        started = time.perf_counter()
        stats = RefreshStats(rebuilt=self._rebuilt)
        self._rebuilt = None
        root = self.workspace.root
        skips: dict[str, str] = {}

        def skipped(path: Path, reason: str) -> None:
            skips[path.relative_to(root).as_posix()] = reason

        seen: set[str] = set()
        with Batch(self.workspace.root, self.workspace.max_bytes, self._docs_wanted(), workers) as batch:
            for path in self.workspace.files(skipped=skipped):
                self._consider(path, seen, batch, skips, stats)
            stats.walk_seconds = time.perf_counter() - started
            gone = [rel for rel in self._files if rel not in seen and rel not in skips]
            self._finish(gone, skips, batch, stats, progress)
        stats.listed = len(seen) + len(skips)
        stats.seconds = time.perf_counter() - started
        return stats

    def _consider(self, path: Path, seen: set[str], batch: Batch, skips: dict[str, str], stats: RefreshStats) -> None:
        """A listed file: unchanged (stat), to parse (a job), or unreadable."""
        root = self.workspace.root
        rel = _relative(path, root)
        try:
            info = os.lstat(path)
            real_rel = rel
            if stat_mod.S_ISLNK(info.st_mode):
                real_rel = self.workspace.resolve(path).relative_to(root).as_posix()
                info = os.stat(path)
        except (OSError, UserError):
            if os.path.lexists(path):
                skips[rel] = SKIP_UNREADABLE
            return  # else an overlay standing for a new file: queries parse it live
        seen.add(rel)
        stat = (info.st_mtime_ns, info.st_size)
        old = self._files.get(rel)
        if old is not None and (old.mtime_ns, old.size) == stat:
            stats.unchanged += 1
            return
        batch.add((rel, real_rel, old.hash if old is not None and old.skipped is None else "", stat))

    def _finish(
        self,
        gone: list[str],
        skips: dict[str, str],
        batch: Batch,
        stats: RefreshStats,
        progress: ProgressFn | None,
    ) -> None:
        """Drop files gone, mark files skipped, store what the batch parses."""
        marks = []
        for rel, reason in skips.items():
            old = self._files.get(rel)
            if old is None or old.skipped != reason or old.mtime_ns != -1:
                marks.append((rel, reason, (-1, -1)))
        if gone or marks:
            self._write(lambda conn: self._drop(conn, gone, marks))
            self._hand_docs([], [*gone, *(rel for rel, _r, _s in marks)])
        stats.removed += len(gone)
        batch.finish(self.conn, lambda parsed: self._store(parsed, stats), progress)
        stats.skipped = sum(1 for s in self._files.values() if s.skipped is not None)

    # ---------------------------------------------------------------- freshness

    def watch(self) -> bool:
        """Have the kernel report changes under the root (`index.watch`), so `ensure_fresh`
        checks only changed paths; whether it watches. Idempotent; the next `ensure_fresh`
        walks once more (changes made before the watch began)."""
        with self.lock:
            if self._watcher is not None and self._watcher.alive:
                return True
            if self._watcher is not None and self._watcher.lasting_failure:
                return False
            try:
                from simple_brief.index.watch import Watcher  # only long-lived processes watch

                self._watcher = Watcher(self.workspace.root, self._changed)
            except (ImportError, OSError, RuntimeError) as exc:
                log.warning("cannot watch %s for changes (%s); each query walks the tree", self.workspace.root, exc)
                self._watcher = None
                return False
            with self._dirty_lock:
                self._lost = True
            return True

    def stop_watching(self) -> None:
        """Stop the watcher (`close` does too)."""
        with self.lock:
            if self._watcher is not None:
                self._watcher.stop()
                self._watcher = None

    def _changed(self, paths: set[str] | None) -> None:
        with self._dirty_lock:
            if paths is None:
                self._lost = True
            else:
                self._dirty |= paths

    def ensure_fresh(self, progress: ProgressFn | None = None) -> RefreshStats:
        """Make the next query see every change: a full `refresh` (a stat walk) unless
        `watch()` is on, then only the paths the kernel reported (a change reaches queries
        a few milliseconds after it is written: the events arrive on their own thread). In
        a long-lived process (`watch.long_lived`) the watcher starts before the first walk,
        so that walk is the last one while it keeps watching."""
        with self.lock:
            self.sync()
            if self._watcher is None or not self._watcher.alive:
                from simple_brief.index.watch import is_long_lived

                if is_long_lived():
                    self.watch()  # before the walk: what changes during it or after it comes as events
            with self._dirty_lock:
                dirty, self._dirty = self._dirty, set()
                lost, self._lost = self._lost, False
            watching = self._watcher is not None and self._watcher.alive
            if not watching or lost or not self._walked:
                stats = self.refresh(progress)
                self._walked = True
                why = "nothing watches it" if not watching else "its watcher started or lost track"
                log.info("walked %d files of %s in %.1f s (%s)", stats.listed, self.workspace.root, stats.seconds, why)
                return stats
            return self._apply(dirty, progress)

    def _apply(self, dirty: set[str], progress: ProgressFn | None) -> RefreshStats:
        """Bring the changed paths up to date (a .gitignore changed: walk everything)."""
        started = time.perf_counter()
        stats = RefreshStats(rebuilt=self._rebuilt)
        seen: set[str] = set()
        skips: dict[str, str] = {}
        gone: list[str] = []
        with Batch(self.workspace.root, self.workspace.max_bytes, self._docs_wanted(), None) as batch:
            if self._walk_changes(dirty, seen, batch, skips, gone, stats):
                return self.refresh(progress)
            self._finish(sorted(set(gone)), skips, batch, stats, progress)
        stats.listed = len(seen) + len(skips)
        stats.seconds = time.perf_counter() - started
        return stats

    def _walk_changes(
        self,
        dirty: set[str],
        seen: set[str],
        batch: Batch,
        skips: dict[str, str],
        gone: list[str],
        stats: RefreshStats,
    ) -> bool:
        """Consider the changed paths; True when a .gitignore changed (walk everything)."""
        ws, root = self.workspace, self.workspace.root
        for raw in sorted(dirty):
            path = Path(raw)
            if root not in path.parents or any(p in ALWAYS_SKIPPED for p in path.relative_to(root).parts):
                continue
            if path.name == ".gitignore":
                return True
            rel = path.relative_to(root).as_posix()
            inside = [r for r in self._files if r.startswith(rel + "/")]
            if path.is_dir() and not path.is_symlink():
                listed: set[str] = set()
                if ws.listed_folder(path.resolve()):
                    for file in ws.files(
                        path, skipped=lambda p, r: skips.__setitem__(p.relative_to(root).as_posix(), r)
                    ):
                        self._consider(file, listed, batch, skips, stats)
                seen |= listed
                gone += [r for r in inside if r not in listed and r not in skips]
                continue
            gone += inside
            why = ws.listed_file(path) if path.parent.is_dir() else "unlisted"
            if why is None:
                self._consider(path, seen, batch, skips, stats)
            elif why != "unlisted":
                skips[rel] = why
            elif rel in self._files:
                gone.append(rel)
        return False

    def _write(self, body: object) -> None:
        self._skipped = None
        db.write(self._conn, body)  # type: ignore[arg-type]

    def _drop(
        self, conn: sqlite3.Connection, gone: Iterable[str], marks: list[tuple[str, str, tuple[int, int]]]
    ) -> None:
        for rel in gone:
            state = self._files.pop(rel)
            self._clear(conn, state.id)
            conn.execute("DELETE FROM files WHERE id = ?", (state.id,))
        for rel, reason, (mtime, size) in marks:
            fid = self._file_id(conn, rel)
            self._clear(conn, fid)
            conn.execute(
                "UPDATE files SET mtime_ns = ?, size = ?, hash = '', language = '', skipped = ? WHERE id = ?",
                (mtime, size, reason, fid),
            )
            self._files[rel] = FileState(fid, mtime, size, "", reason)

    def _clear(self, conn: sqlite3.Connection, fid: int) -> None:
        """Drop a file's symbol rows (and their names from the name table)."""
        if self._names is not None:
            self._names.remove([n for (n,) in conn.execute("SELECT name FROM symbols WHERE file = ?", (fid,))], fid)
        conn.execute("DELETE FROM symbols WHERE file = ?", (fid,))

    def _file_id(self, conn: sqlite3.Connection, rel: str) -> int:
        return self._file_row(conn, rel)[0]

    def _file_row(self, conn: sqlite3.Connection, rel: str) -> tuple[int, bool]:
        """The id of the file's row, and whether it may hold symbol rows already."""
        state = self._files.get(rel)
        if state is not None:
            return state.id, True
        cur = conn.execute(
            "INSERT INTO files(path, mtime_ns, size, hash, language) VALUES(?, 0, 0, '', '')"
            " ON CONFLICT(path) DO NOTHING",
            (escape_path(rel),),
        )
        if cur.rowcount == 1 and cur.lastrowid is not None:
            return cur.lastrowid, False
        # Another process added it meanwhile.
        return int(conn.execute("SELECT id FROM files WHERE path = ?", (escape_path(rel),)).fetchone()[0]), True

    def _store(self, parsed: list[Parsed], stats: RefreshStats) -> None:
        def body(conn: sqlite3.Connection) -> None:
            rows: list[tuple[object, ...]] = []  # the batch's rows, inserted by one statement

            def insert() -> None:
                conn.executemany(f"INSERT INTO symbols({store.SYMBOL_COLUMNS}) VALUES({','.join('?' * 17)})", rows)
                rows.clear()

            for p in parsed:
                fid, known = self._file_row(conn, p.rel)
                if p.same:
                    conn.execute("UPDATE files SET mtime_ns = ?, size = ? WHERE id = ?", (p.mtime_ns, p.size, fid))
                    old = self._files.get(p.rel)
                    self._files[p.rel] = FileState(fid, p.mtime_ns, p.size, p.hash, old.skipped if old else None)
                    stats.unchanged += 1
                    continue
                if known:
                    insert()  # a file met twice in one batch (a changed folder and a file in it)
                    self._clear(conn, fid)
                rows += [(fid, *row) for row in p.rows]
                conn.execute(
                    "UPDATE files SET mtime_ns = ?, size = ?, hash = ?, language = ?, skipped = ?, diagnostics = ?"
                    " WHERE id = ?",
                    (p.mtime_ns, p.size, p.hash, p.language, p.skipped, p.diagnostics, fid),
                )
                self._files[p.rel] = FileState(fid, p.mtime_ns, p.size, p.hash, p.skipped)
                if self._names is not None:
                    self._names.add([row[2] for row in p.rows], fid)
                stats.parsed += 1
                stats.changed.append(p.rel)
            insert()

        self._write(body)
        fresh = [p for p in parsed if not p.same]
        self._hand_docs([p for p in fresh if p.docs is not None], [p.rel for p in fresh if p.docs is None])

    def _docs_wanted(self) -> DocsWanted:
        """What the parse gives besides rows (`parse.DocsWanted`): the docs index's items."""
        return self.docs.include_private if self.docs is not None else None

    def _hand_docs(self, parsed: list[Parsed], gone: list[str]) -> None:
        """Give the docs index the items of the files just parsed, and the documented files
        it must drop (gone, or now skipped as too big or unreadable)."""
        if self.docs is None:
            return
        items = [
            ParsedDocs(
                escape_path(p.rel),
                p.hash,
                p.mtime_ns,
                p.size,
                p.docs,
                languages.for_path(p.rel).name,
                readable=p.docs_read,
            )
            for p in parsed
        ]
        dropped = [escape_path(rel) for rel in gone if languages.documented(rel)]
        self.docs.take(items, dropped)


def _relative(path: Path, root: Path) -> str:
    """`path.relative_to(root).as_posix()` of a path the walk made below `root`, without
    parsing it again (once per listed file)."""
    text, prefix = str(path), str(root).rstrip("/") + "/"
    return text[len(prefix) :] if text.startswith(prefix) and os.sep == "/" else path.relative_to(root).as_posix()
