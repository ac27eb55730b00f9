"""Keeping the docs database current: which files changed (content hash, stat, overlays),
parsing them into items and writing them in short batches, for the workspace and for a
library. Functions of an open connection; `DocsIndex` runs them under its lock and
handles a damaged or busy database.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from simple_brief import languages
from simple_brief.docs import db
from simple_brief.docs import libraries as libs
from simple_brief.docs.items import FileDocs, extract
from simple_brief.errors import UserError
from simple_brief.scan import scan
from simple_brief.source import Source
from simple_brief.tools import ProgressFn
from simple_brief.workspace import Workspace

log = logging.getLogger(__name__)

#: Files parsed before their items are written in one short transaction.
BATCH_FILES = 64
#: Progress is reported every this many files.
PROGRESS_EVERY = 50

#: A file to look at: its path relative to the library root, its disk path (None for an
#: overlay) and its overlay text (None for a file on disk).
Todo = tuple[str, Path | None, str | None]
#: What the database holds of a file, by relative path: content hash, mtime (ns, -1 when
#: indexed from an overlay) and size.
Known = dict[str, tuple[str, int, int]]


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
class _Parsed:
    """One file ready to be written."""

    rel: str
    hash: str
    mtime_ns: int
    size: int
    docs: FileDocs | None  # None: only the stat changed (same content)
    language: str = ""
    readable: bool = True  # False: binary, too large or unreadable (kept with no items, not retried)


def known_files(conn: sqlite3.Connection, library: str, only: list[str] | None = None) -> Known:
    """The stored files of `library`; with `only`, just those paths and the files last
    indexed from an overlay (mtime -1)."""
    sql = "SELECT path, hash, mtime_ns, size FROM files WHERE library = ?"
    args: tuple[str, ...] = (library,)
    if only is not None:
        sql += " AND (mtime_ns = -1 OR path IN (SELECT value FROM json_each(?)))"
        args += (json.dumps(only),)
    return {row[0]: (row[1], row[2], row[3]) for row in conn.execute(sql, args)}


def workspace_changes(
    workspace: Workspace, known: Known, walk: bool, stats: RefreshStats
) -> tuple[list[Todo], list[str], set[str]]:
    """What to look at in the workspace: overlays whose text changed, and on a `walk` every
    file on disk; between walks, the files last indexed from an overlay that is gone.

    Returns:
        The files to check, the paths to remove, and the paths whose hash must be checked
        even when their stat did not change (indexed from an overlay that is gone).
    """
    root = workspace.root
    overlays: dict[str, str] = {}
    for real, text in workspace.overlays.items():
        try:
            rel = Path(real).relative_to(root).as_posix()
        except ValueError:
            continue
        if languages.for_path(real) is not languages.PLAIN:
            overlays[rel] = text
    todo: list[Todo] = []
    for rel, text in overlays.items():
        old = known.get(rel)
        if old is None or old[0] != db.content_hash(text.encode("utf-8", "surrogatepass")):
            todo.append((rel, None, text))
    # Files indexed from an overlay that is gone: look at the disk again now.
    recheck = {rel for rel, (_h, mtime, _s) in known.items() if mtime == -1 and rel not in overlays}
    removed: list[str] = []
    if walk:
        seen = set(overlays)
        for path in workspace.files():
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
    return todo, removed, recheck


def index_library(
    conn: sqlite3.Connection,
    library: libs.Library,
    stats: RefreshStats,
    progress: ProgressFn | None,
    include_private: bool,
) -> None:
    """Bring a library's items up to date (afresh when its name now means another folder)."""
    old_root = conn.execute("SELECT root FROM libraries WHERE name = ?", (library.name,)).fetchone()
    if old_root is not None and old_root[0] != str(library.root):
        # Another folder of the same name: start that library afresh.
        db.write(conn, lambda c: db.drop_library(c, library.name))
    known = known_files(conn, library.name)
    todo: list[Todo] = []
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
    index_files(conn, library.name, library.root, todo, known, removed, stats, progress, include_private)


def index_files(
    conn: sqlite3.Connection,
    library: str,
    root: Path,
    todo: list[Todo],
    known: Known,
    removed: list[str],
    stats: RefreshStats,
    progress: ProgressFn | None,
    include_private: bool,
    force_hash: Iterable[str] = (),
) -> None:
    """Stat, hash and parse what changed in `todo`, write it in batches, drop `removed`."""
    forced = set(force_hash)
    total = len(todo)
    batch: list[_Parsed] = []
    for done, (rel, path, text) in enumerate(todo, 1):
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
            progress(done, total, f"{library}: {rel}")
        parsed = _parse_changed(library, root, rel, path, text, known.get(rel), rel in forced, include_private)
        if parsed is not None:
            batch.append(parsed)
        if len(batch) >= BATCH_FILES:
            db.write(conn, lambda c, b=batch: _store(c, library, b, stats))  # type: ignore[misc]
            batch = []
    if batch or removed:
        db.write(conn, lambda c: _store(c, library, batch, stats, removed))


def _parse_changed(
    library: str,
    root: Path,
    rel: str,
    path: Path | None,
    text: str | None,
    old: tuple[str, int, int] | None,
    force: bool,
    include_private: bool,
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
        docs = extract(outline, rel, root, library, private=include_private)
    except UserError as exc:
        log.info("docs: %s not indexed: %s", rel, exc)
        return _Parsed(rel, digest, mtime, size, FileDocs(module=""), spec.name, readable=False)
    except Exception:  # a scanner bug must not stop the whole index
        log.exception("docs: %s could not be read", rel)
        return _Parsed(rel, digest, mtime, size, FileDocs(module=""), spec.name, readable=False)
    return _Parsed(rel, digest, mtime, size, docs, spec.name)


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
