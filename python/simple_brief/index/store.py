"""The symbol index's SQLite file: where it lives, its schema, opening it safely.

One file per workspace root, beside the docs index (`docs.db.cache_root`: the user's
cache directory, or $SIMPLE_BRIEF_CACHE_DIR), named like the docs database with
`.symbols.sqlite3` at the end; 0600 in 0700 folders. What stands in its place is
checked with `lstat` before SQLite opens anything, and a file that is not a database,
is damaged, was made by another program or has another schema version is set aside
(`<name>.corrupt`) and created afresh, with one warning (`docs.storage`, `docs.db`).

Tables: `meta` (schema version, root), `files` (one row per listed file: id, path
relative to the root as `path_escapes.escape_path` writes it (SQLite
takes no name that is not UTF-8), stat, content hash, language, why it was skipped if it was, and
the scan's own diagnostics as JSON),
`symbols` (one row per definition, `index.parse.Row`).
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from simple_brief.docs import db, storage
from simple_brief.files.path_escapes import escape_path

log = logging.getLogger(__name__)

#: Bump when the schema or the rows change: older files are rebuilt.
SCHEMA_VERSION = 6  # 6: the grammar's errors are H003 hints, no longer E001/E002
#: What `meta` names this file as (a docs database in its place is foreign).
KIND = "symbols"

SYMBOL_COLUMNS = "file, seq, walk, name, qual, container, kind, sl, sc, el, ec, ssl, ssc, sel, sec, preview, words"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    hash TEXT NOT NULL,
    language TEXT NOT NULL,
    skipped TEXT,
    diagnostics TEXT
);
CREATE TABLE IF NOT EXISTS symbols(
    file INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    walk INTEGER NOT NULL,
    name TEXT NOT NULL,
    qual TEXT NOT NULL,
    container TEXT NOT NULL,
    kind INTEGER NOT NULL,
    sl INTEGER NOT NULL, sc INTEGER NOT NULL, el INTEGER NOT NULL, ec INTEGER NOT NULL,
    ssl INTEGER NOT NULL, ssc INTEGER NOT NULL, sel INTEGER NOT NULL, sec INTEGER NOT NULL,
    preview TEXT NOT NULL,
    words TEXT NOT NULL
);
"""
_INDEXES = {"symbols_by_name": "symbols(name)", "symbols_by_file": "symbols(file)", "symbols_by_kind": "symbols(kind)"}


@dataclass
class FileState:
    """A listed file as the index knows it: its row of the `files` table."""

    id: int
    mtime_ns: int
    size: int
    hash: str
    skipped: str | None


def db_path(root: Path, cache_dir: Path | None = None) -> Path:
    """The symbol index file of the workspace at `root`, beside its docs database."""
    docs = db.db_path(root, cache_dir)
    return docs.with_name(docs.name.removesuffix(".sqlite3") + ".symbols.sqlite3")


def _schema_problem(conn: sqlite3.Connection, root: Path) -> str | None:
    try:
        rows = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            return "it has no schema version (made by another program)" if tables else None
        raise
    if rows.get("kind") != KIND:
        return "it is not a symbol index (made by another program)"
    version = rows.get("schema_version")
    if version != str(SCHEMA_VERSION):
        return f"its schema version {version} is not the current {SCHEMA_VERSION}"
    if rows.get("root") != escape_path(str(root)):
        return f"it indexes another folder ({rows.get('root')})"
    return None


def create_indexes(conn: sqlite3.Connection) -> None:
    """Create the symbols table's indexes (those missing)."""
    for name, on in _INDEXES.items():
        conn.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {on}")


def drop_indexes(conn: sqlite3.Connection) -> None:
    """Drop the symbols table's indexes (before a bulk load into an empty table)."""
    for name in _INDEXES:
        conn.execute(f"DROP INDEX IF EXISTS {name}")


def _create(conn: sqlite3.Connection, root: Path) -> None:
    conn.executescript(_SCHEMA)
    create_indexes(conn)
    values = {"kind": KIND, "schema_version": str(SCHEMA_VERSION), "root": escape_path(str(root))}
    conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", list(values.items()))


def open_db(path: Path, root: Path) -> tuple[sqlite3.Connection, str | None]:
    """The connection to the index at `path` and, when it had to be rebuilt, why.

    Raises:
        OSError, sqlite3.OperationalError: the folder cannot be written, or another
            process holds the lock while the file is created.
    """
    reason = storage.layout_problem(path) or db.problem(path)
    if reason is None:
        conn = None
        try:
            storage.create_file(path)
            conn = db.connect(path)
            reason = _schema_problem(conn, root)
            if reason is None:
                if conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'meta'").fetchone()[0] == 0:
                    _create(conn, root)
                else:
                    # Deeper damage shows on a full read of the small tables.
                    conn.execute("SELECT count(*), max(mtime_ns) FROM files").fetchone()
                storage.narrow_all(path)
                opened, conn = conn, None
                return opened, None
        except sqlite3.DatabaseError as exc:
            if not db.is_damage(exc):
                raise
            reason = f"it is damaged ({exc})"
        finally:
            if conn is not None:
                conn.close()
    return rebuild(path, root, reason), reason


def rebuild(path: Path, root: Path, reason: str) -> sqlite3.Connection:
    """Set the file aside and create it afresh (one warning)."""
    log.warning("symbol index %s rebuilt: %s", path, reason)
    storage.move_aside(path)
    storage.create_file(path)
    conn = db.connect(path)
    try:
        _create(conn, root)
    except BaseException:
        conn.close()
        raise
    storage.narrow_all(path)
    return conn
