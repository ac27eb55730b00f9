"""Keeping the docs database current: for a library, which files changed (stat, content
hash), parsing them into items and writing them in short batches; for the workspace,
the overlays and what the file store (`WorkspaceFiles`, `simple_brief.index`) holds that
the database lacks. The workspace's files on disk are walked, hashed and parsed by the
file store alone (one parse per changed file for the symbol rows and the doc items); the
docs index writes the items it is handed (`DocsIndex.take`).

Writes go through a `Store` (`DocsIndex`): each batch is one short transaction under the
index's write lock, and nothing is held between batches, so queries (on their own
connection) answer from what is indexed so far while a long index runs. An exception
from `progress` (a cancelled call) stops the run between batches: every transaction
either committed or rolled back.

Limits of one call (`Budget`, a library or the files parsed here for the workspace):
`MAX_SECONDS` and `MAX_FILES` files (re)indexed; files
unchanged since the last run cost a `stat` and do not count. On a limit the run keeps
what it wrote and says so (`RefreshStats.stopped`); running it again continues, because
what is stored is skipped.

Files are read only through the door (`simple_brief.files.workspace`): workspace files through
`Workspace.read_bytes` (confined, secrets refused; overlays first), library files through
`libraries.read` (beneath the library root, no symlink followed). A file is known by its
path relative to its root as `path_escapes.escape_path` shows it (SQLite takes no name
that is not UTF-8), and read by the name that stands for.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from simple_brief import languages
from simple_brief.docs import db
from simple_brief.docs import libraries as libs
from simple_brief.docs.items import extract
from simple_brief.errors import UserError
from simple_brief.files.path_escapes import escape_path, unescape_path
from simple_brief.files.secret_files import SecretRules
from simple_brief.files.workspace import Workspace
from simple_brief.model import ProgressFn
from simple_brief.scan import scan
from simple_brief.source import Source

log = logging.getLogger(__name__)

#: Files parsed before their items are written in one short transaction.
BATCH_FILES = 64
#: Progress is reported every this many files.
PROGRESS_EVERY = 50
#: Seconds one index call (docs_index, or the refresh before a docs call) works at most.
MAX_SECONDS = 120.0
#: Files one call (re)indexes at most; unchanged files do not count.
MAX_FILES = 50_000

T = TypeVar("T")

#: A file to look at: its path relative to the library root, its overlay text (None for
#: a file on disk) and its lstat from the walk (None: stat it when needed).
Todo = tuple[str, str | None, os.stat_result | None]
#: What the database holds of a file, by relative path: content hash, mtime (ns, -1 when
#: indexed from an overlay) and size.
Known = dict[str, tuple[str, int, int]]


class Store(Protocol):
    """Where an index run reads what is stored and writes its batches."""

    def read(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run `body` on the writing connection (what is committed), under the write lock."""
        ...

    def write(self, body: Callable[[sqlite3.Connection], Any]) -> None:
        """Run `body` in one transaction under the write lock (rolled back if it raises)."""
        ...


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
    library: str = libs.WORKSPACE  # the library indexed
    stopped: str | None = None  # the limit the run stopped at (`the 120-second limit of one call`), if any
    files_left: int = 0  # files not looked at because of `stopped`
    listing_cut: bool = False  # the limit hit while still listing files: a next run lists the same part
    #: After a rebuild: the libraries to index again, as (name, what docs_index takes to index it).
    reindex: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Budget:
    """The limits of one call: a deadline and a number of files to (re)index."""

    deadline: float
    files: int

    @classmethod
    def start(cls) -> Budget:
        """The budget of a call starting now (`MAX_SECONDS`, `MAX_FILES`)."""
        return cls(time.monotonic() + MAX_SECONDS, MAX_FILES)

    def over(self, indexed: int) -> str | None:
        """The limit reached after `indexed` files of this call, if any (at least one file
        is always indexed, so running again always gets further)."""
        if indexed >= self.files:
            return f"the {self.files:,}-file limit of one call"
        if indexed and time.monotonic() >= self.deadline:
            return f"the {MAX_SECONDS:g}-second limit of one call"
        return None

    def late(self) -> bool:
        """Whether the deadline has passed."""
        return time.monotonic() >= self.deadline


@dataclass(frozen=True)
class Origin:
    """Where the files of one run come from: the library name, its root, how to stat a
    file (None: gone or not a regular file) and how to read one (UserError: refused or gone)."""

    library: str
    root: Path
    stat: Callable[[str], os.stat_result | None]
    read: Callable[[str], bytes]

    @classmethod
    def of_workspace(cls, workspace: Workspace) -> Origin:
        """The workspace's files: read through `Workspace.read_bytes` (confined, secrets refused)."""
        root = workspace.root

        def stat_of(rel: str) -> os.stat_result | None:
            try:
                info = (root / unescape_path(rel)).stat()
            except OSError:
                return None
            return info if stat.S_ISREG(info.st_mode) else None

        return cls(libs.WORKSPACE, root, stat_of, lambda rel: workspace.read_bytes(root / unescape_path(rel))[1])

    @classmethod
    def of_library(cls, library: libs.Library) -> Origin:
        """A library's files: read beneath its root, no symlink followed."""

        def stat_of(rel: str) -> os.stat_result | None:
            try:
                info = os.lstat(library.root / unescape_path(rel))
            except OSError:
                return None
            return info if stat.S_ISREG(info.st_mode) else None

        return cls(library.name, library.root, stat_of, lambda rel: libs.read(library, unescape_path(rel)))


@dataclass
class ParsedDocs:
    """One file's items ready to be written (from the file store's parse, or parsed here)."""

    rel: str
    hash: str
    mtime_ns: int
    size: int
    docs: db.FileRows | None  # None: only the stat changed (same content)
    language: str = ""
    readable: bool = True  # False: binary or unparsable (kept with no items, not retried)


#: `_parse_changed`'s answer for a file that is gone or refused (its row is dropped).
_GONE = "gone"


def known_files(conn: sqlite3.Connection, library: str) -> Known:
    """The stored files of `library`."""
    return {
        row[0]: (row[1], row[2], row[3])
        for row in conn.execute("SELECT path, hash, mtime_ns, size FROM files WHERE library = ?", (library,))
    }


class WorkspaceFiles(Protocol):
    """The workspace's file store (`simple_brief.index`): it walks (or watches) the tree,
    keeps the one table of files (stat, then content hash), parses each changed file once
    and hands the doc items of that parse to the docs index (`DocsIndex.take`)."""

    def ensure_fresh(self, progress: ProgressFn | None = None) -> object:
        """Bring the store (and through `take`, the docs index) up to date with the disk."""
        ...

    def refresh(self, progress: ProgressFn | None = None) -> object:
        """`ensure_fresh` with a full walk of the tree, even while a watcher runs."""
        ...

    def documented(self) -> Known:
        """Every stored file the docs index reads, by path relative to the root (escaped as
        `path_escapes.escape_path` writes it): its content hash, mtime and size."""
        ...


def overlay_changes(workspace: Workspace, known: Known) -> tuple[list[Todo], set[str]]:
    """The overlays whose text is not what the database holds, and every overlay's path
    (escaped); overlays of secrets files are left out."""
    root = workspace.root
    overlays: dict[str, str] = {}
    for real, text in workspace.overlays.items():
        try:
            rel = Path(real).relative_to(root).as_posix()
        except ValueError:
            continue
        if languages.documented(real) and workspace.secrets.rule_for(rel) is None:
            overlays[escape_path(rel)] = text
    todo: list[Todo] = []
    for rel, text in overlays.items():
        old = known.get(rel)
        if old is None or old[0] != db.content_hash(text.encode("utf-8", "surrogatepass")):
            todo.append((rel, text, None))
    return todo, set(overlays)


def behind_store(known: Known, held: Known, overlays: set[str]) -> tuple[list[Todo], list[str]]:
    """What the database lacks of the file store's files (`held`): the files it holds
    another content of, or last read from an overlay that is gone (read and parsed again
    here: a rebuilt database, or one written by another process), and the files the store
    no longer holds (removed)."""
    todo: list[Todo] = [
        (rel, None, None)
        for rel, (digest, _m, _s) in sorted(held.items())
        if rel not in overlays and (rel not in known or known[rel][0] != digest or known[rel][1] == -1)
    ]
    removed = [rel for rel in known if rel not in held and rel not in overlays]
    return todo, removed


def _listing_cut(stats: RefreshStats, listed: int) -> None:
    stats.stopped = f"the {MAX_SECONDS:g}-second limit of one call while still listing files ({listed:,} listed)"
    stats.listing_cut = True


def index_library(
    store: Store,
    library: libs.Library,
    stats: RefreshStats,
    progress: ProgressFn | None,
    include_private: bool,
    secrets: SecretRules,
    budget: Budget,
) -> None:
    """Bring a library's items up to date (afresh when its name now means another folder);
    its secrets files are never listed, and stored ones are dropped."""
    stats.library = library.name
    old_root = store.read(lambda c: c.execute("SELECT root FROM libraries WHERE name = ?", (library.name,)).fetchone())
    if old_root is not None and old_root[0] != str(library.root):
        # Another folder of the same name: start that library afresh.
        store.write(lambda c: db.drop_library(c, library.name))
    known = store.read(lambda c: known_files(c, library.name))
    todo: list[Todo] = []
    complete = True
    for count, (rel, info) in enumerate(libs.files(library, secrets)):
        if count % 256 == 255 and budget.late():
            complete = False
            break
        todo.append((escape_path(rel), None, info))
    stats.files_seen = len(todo)
    seen = {rel for rel, _t, _i in todo}
    removed = [rel for rel in known if rel not in seen and (complete or secrets.rule_for(rel) is not None)]

    def row(conn: sqlite3.Connection) -> None:
        # In every batch: a rebuild meanwhile (another thread) must not orphan the files.
        conn.execute("INSERT OR REPLACE INTO libraries(name, root) VALUES(?, ?)", (library.name, str(library.root)))

    store.write(row)
    index_files(
        store, Origin.of_library(library), todo, known, removed, stats, progress, include_private, budget, prelude=row
    )
    if not complete:
        _listing_cut(stats, len(todo))


def index_files(
    store: Store,
    origin: Origin,
    todo: list[Todo],
    known: Known,
    removed: list[str],
    stats: RefreshStats,
    progress: ProgressFn | None,
    include_private: bool,
    budget: Budget | None = None,
    force_hash: Iterable[str] = (),
    prelude: Callable[[sqlite3.Connection], None] | None = None,
) -> None:
    """Stat, hash and parse what changed in `todo`, write it in batches, drop `removed` and
    what is gone; stop at the `budget`'s limits (`stats.stopped`)."""
    forced = set(force_hash)
    total = len(todo)
    batch: list[ParsedDocs] = []
    gone: list[str] = list(removed)
    indexed = 0

    def flush() -> None:
        nonlocal batch, gone
        parsed, dropped = batch, gone
        batch, gone = [], []

        counts: list[tuple[int, int, int]] = []

        def body(conn: sqlite3.Connection) -> None:
            if prelude is not None:
                prelude(conn)
            counts.append(store_batch(conn, origin.library, parsed, dropped))

        store.write(body)
        # Counted once the transaction committed (a rolled-back batch wrote nothing).
        stats.files_removed += counts[-1][0]
        stats.files_indexed += counts[-1][1]
        stats.items += counts[-1][2]

    for done, (rel, text, info) in enumerate(todo, 1):
        limit = budget.over(indexed) if budget is not None else None
        if limit is not None:
            stats.stopped, stats.files_left = limit, total - done + 1
            break
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
            progress(done, total, f"{origin.library}: {rel}")
        parsed = _parse_changed(origin, rel, text, info, known.get(rel), rel in forced, include_private)
        if parsed == _GONE:
            if rel in known:
                gone.append(rel)
        elif isinstance(parsed, ParsedDocs):
            batch.append(parsed)
            indexed += parsed.docs is not None
        if len(batch) + len(gone) >= BATCH_FILES:
            flush()
    if batch or gone:
        flush()


def _parse_changed(
    origin: Origin,
    rel: str,
    text: str | None,
    info: os.stat_result | None,
    old: tuple[str, int, int] | None,
    force: bool,
    include_private: bool,
) -> ParsedDocs | str | None:
    """The file parsed when its content changed, a stat-only update when only its stat
    did, `_GONE` when it is gone or refused, else None."""
    if text is not None:
        data = text.encode("utf-8", "surrogatepass")
        mtime, size = -1, len(data)
    else:
        info = info if info is not None else origin.stat(rel)
        if info is None:
            return _GONE
        mtime, size = info.st_mtime_ns, info.st_size
        if old is not None and not force and old[1] == mtime and old[2] == size:
            return None
        try:
            data = origin.read(rel)
        except UserError as exc:
            log.info("docs: %s not read: %s", rel, exc)
            return _GONE
        except OSError:
            return None
    digest = db.content_hash(data)
    if old is not None and old[0] == digest:
        return ParsedDocs(rel, digest, mtime, size, None) if (old[1], old[2]) != (mtime, size) else None
    spec = languages.for_path(rel)
    try:
        source = Source(text) if text is not None else Source.from_bytes(data, name=rel)
        outline = scan(source, spec)
        docs = extract(outline, rel, origin.root, origin.library, private=include_private)
    except UserError as exc:
        log.info("docs: %s not indexed: %s", rel, exc)
        return ParsedDocs(rel, digest, mtime, size, db.FileRows(), spec.name, readable=False)
    except Exception:  # a scanner bug must not stop the whole index
        log.exception("docs: %s could not be read", rel)
        return ParsedDocs(rel, digest, mtime, size, db.FileRows(), spec.name, readable=False)
    return ParsedDocs(rel, digest, mtime, size, db.file_rows(origin.library, rel, docs), spec.name)


def store_batch(
    conn: sqlite3.Connection, library: str, batch: list[ParsedDocs], removed: Iterable[str] = ()
) -> tuple[int, int, int]:
    """Write one batch; the files removed, (re)indexed and the items written."""
    dropped = indexed = items = 0
    for rel in removed:
        db.delete_file(conn, library, rel)
        dropped += 1
    for parsed in batch:
        if parsed.docs is None:
            db.update_stat(conn, library, parsed.rel, parsed.mtime_ns, parsed.size)
            continue
        db.write_file_rows(
            conn, library, parsed.rel, parsed.docs, parsed.hash, parsed.mtime_ns, parsed.size, parsed.language
        )
        indexed += int(parsed.readable)
        items += len(parsed.docs.items)
    return dropped, indexed, items
