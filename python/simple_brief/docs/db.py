"""The docs database on disk: where it lives, its schema, opening it safely, writing a
file's items and reading items back (search ranking is `docs.ranking`).

One SQLite file per workspace root under the user's cache directory
(`platformdirs.user_cache_dir("simple-brief")/docs/<hash of the root>.sqlite3`;
`SIMPLE_BRIEF_CACHE_DIR` or the `cache_dir` argument override the folder). WAL mode,
so readers keep answering while one writer updates; every wait is bounded by
`BUSY_TIMEOUT_MS`. A file that is not a database, is truncated, is malformed or has
another schema version is moved aside (`<name>.corrupt`) and created afresh; what stands
in the file's place is checked with `lstat` first, before SQLite opens anything, and the
file is created 0600 (`docs.storage`).

Tables: `meta` (schema version, root, options), `libraries` (name, root), `files` (one
row per indexed file: library, path, module, language, content hash, mtime, size, item
count, imports), `items` (one row per item; the parsed doc as JSON) and `items_fts`
(FTS5 over name, signature, summary, body and the qualified id; porter + unicode61).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sqlite3
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from simple_brief.docs import storage
from simple_brief.docs.items import FileDocs
from simple_brief.docs.model import DocComment, Item
from simple_brief.proc import environment

log = logging.getLogger(__name__)

#: Bump when the schema or the way items are derived changes: old files are rebuilt.
SCHEMA_VERSION = 3
#: How long a writer waits for another writer's transaction before it gives up.
BUSY_TIMEOUT_MS = 1500
#: bm25 weights of the FTS columns: name > signature > summary > body; the id's words weigh little.
BM25_WEIGHTS = (10.0, 4.0, 2.5, 1.0, 1.5)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS libraries(name TEXT PRIMARY KEY, root TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
    library TEXT NOT NULL,
    path TEXT NOT NULL,
    module TEXT NOT NULL,
    language TEXT NOT NULL,
    hash TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    items INTEGER NOT NULL,
    imports TEXT NOT NULL,
    PRIMARY KEY(library, path)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS items(
    rowid INTEGER PRIMARY KEY,
    library TEXT NOT NULL,
    path TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    name_lc TEXT NOT NULL,
    kind TEXT NOT NULL,
    module TEXT NOT NULL,
    language TEXT NOT NULL,
    line INTEGER NOT NULL,
    signature TEXT NOT NULL,
    public INTEGER NOT NULL,
    documented INTEGER NOT NULL,
    doc TEXT NOT NULL,
    bases TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS items_by_id ON items(id);
CREATE INDEX IF NOT EXISTS items_by_name ON items(name_lc);
CREATE INDEX IF NOT EXISTS items_by_module ON items(module);
CREATE INDEX IF NOT EXISTS items_by_file ON items(library, path);
CREATE VIRTUAL TABLE IF NOT EXISTS items_fts USING fts5(
    name, signature, summary, body, qual,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
"""


def cache_root(cache_dir: Path | None = None) -> Path:
    """The folder holding docs databases: `cache_dir`, else $SIMPLE_BRIEF_CACHE_DIR, else the user cache."""
    if cache_dir is not None:
        return Path(cache_dir)
    env = environment.get("SIMPLE_BRIEF_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir("simple-brief")) / "docs"


def db_path(root: Path, cache_dir: Path | None = None) -> Path:
    """The database file of the workspace at `root`."""
    key = hashlib.sha256(str(root).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return cache_root(cache_dir) / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', root.name)[:40]}-{key}.sqlite3"


def connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    """An autocommit connection in WAL mode with a bounded busy timeout (transactions are
    explicit); `read_only` for the connection that answers queries while another writes."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        if read_only:
            conn.execute("PRAGMA query_only = 1")
    except BaseException:
        conn.close()
        raise
    return conn


def problem(path: Path) -> str | None:
    """Why the file at `path` cannot be used as is (None when it looks fine or does not exist).

    Cheap checks only (header, size); call `storage.layout_problem` first (a FIFO, folder
    or symlink in its place). The file is opened without following a symlink and never
    blocks. Deeper damage shows as a `sqlite3.DatabaseError` later, which the index also
    treats as corruption.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be read ({exc.strerror})"
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "it is not a regular file"
        size = info.st_size
        if size == 0:
            return None
        try:
            header = handle.read(100)
        except OSError as exc:
            return f"it cannot be read ({exc.strerror})"
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        return "it is not a SQLite database (corrupt)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    try:
        wal_size = os.lstat(path.with_name(path.name + "-wal")).st_size
    except OSError:
        wal_size = 0
    if pages and page_size and size < pages * page_size and wal_size == 0:
        return f"it is truncated ({size} of {pages * page_size} bytes)"
    return None


def schema_problem(conn: sqlite3.Connection, options: dict[str, str]) -> str | None:
    """Why an opened database must be rebuilt: another schema version or other options."""
    try:
        rows = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            return "it has no schema version (made by another program)" if tables else None
        raise
    version = rows.get("schema_version")
    if version != str(SCHEMA_VERSION):
        return f"its schema version {version} is not the current {SCHEMA_VERSION}"
    for key, value in options.items():
        if rows.get(key) != value:
            return f"it was built with {key}={rows.get(key)} (now {value})"
    return None


def has_schema(conn: sqlite3.Connection) -> bool:
    """Whether the database already holds the schema (its `meta` table)."""
    return conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'meta'").fetchone()[0] > 0


def create(conn: sqlite3.Connection, root: Path, options: dict[str, str]) -> None:
    """Create the schema (idempotent) and record the version, root and options."""
    conn.executescript(_SCHEMA)
    conn.execute(
        "INSERT INTO items_fts(items_fts, rank) VALUES('rank', ?)",
        (f"bm25({', '.join(str(w) for w in BM25_WEIGHTS)})",),
    )
    values = {"schema_version": str(SCHEMA_VERSION), "root": str(root), **options}
    conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", list(values.items()))


def move_aside(path: Path) -> None:
    """Set a damaged database aside (`<name>.corrupt`) and drop its WAL files (`storage.move_aside`)."""
    storage.move_aside(path)


def is_locked(exc: BaseException) -> bool:
    """Whether a sqlite3 error means another connection holds the lock (not damage)."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def is_damage(exc: BaseException) -> bool:
    """Whether a sqlite3 error means the file is damaged (rebuild), not a busy lock or a bad query."""
    if type(exc) is sqlite3.DatabaseError:
        return True
    text = str(exc).lower()
    return isinstance(exc, sqlite3.DatabaseError) and any(
        word in text for word in ("malformed", "not a database", "corrupt", "no such table", "no such column")
    )


def content_hash(data: bytes) -> str:
    """The content hash that decides whether a file is re-indexed."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


# ---------------------------------------------------------------- writing items

#: Receiver parameters, in nearly every method signature: not indexed as words.
_SELF = re.compile(r"\b(?:self|cls|this)\b,?\s*|&(?:mut\s+)?self\b,?\s*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def camel_parts(text: str) -> list[str]:
    """The camelCase words of `text` (`getHTTPResponse2` -> `get HTTP Response 2`); names are
    split this way when stored and when searched for."""
    return _CAMEL.findall(text)


def searchable_body(item: Item) -> str:
    """The FTS body: the doc's body and what its params, returns and raises say (the parser
    takes those out of the body, but `tax rate` should still find `tax: the tax rate`)."""
    doc = item.doc
    fields = [f"{p.name} {p.type} {p.doc}" for p in (*doc.params, *doc.raises)]
    if doc.returns is not None:
        fields.append(f"{doc.returns.type} {doc.returns.doc}")
    return "\n".join([doc.body, *fields]).strip()


def write(conn: sqlite3.Connection, body: Callable[[sqlite3.Connection], Any]) -> None:
    """One write transaction, waiting at most the busy timeout for the lock."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        body(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def delete_file(conn: sqlite3.Connection, library: str, rel: str, keep_row: bool = False) -> None:
    """Remove a file's items (and, unless `keep_row`, its files row)."""
    rows = [r[0] for r in conn.execute("SELECT rowid FROM items WHERE library = ? AND path = ?", (library, rel))]
    if rows:
        conn.executemany("DELETE FROM items_fts WHERE rowid = ?", [(r,) for r in rows])
        conn.execute("DELETE FROM items WHERE library = ? AND path = ?", (library, rel))
    if not keep_row:
        conn.execute("DELETE FROM files WHERE library = ? AND path = ?", (library, rel))


def drop_library(conn: sqlite3.Connection, name: str) -> None:
    """Remove every item and file of a library."""
    conn.execute("DELETE FROM items_fts WHERE rowid IN (SELECT rowid FROM items WHERE library = ?)", (name,))
    conn.execute("DELETE FROM items WHERE library = ?", (name,))
    conn.execute("DELETE FROM files WHERE library = ?", (name,))


def update_stat(conn: sqlite3.Connection, library: str, rel: str, mtime_ns: int, size: int) -> None:
    """Record a file's new stat when its content (hash) did not change."""
    conn.execute(
        "UPDATE files SET mtime_ns = ?, size = ? WHERE library = ? AND path = ?", (mtime_ns, size, library, rel)
    )


@dataclass
class FileRows:
    """A file's rows as `write_file_rows` writes them, made apart from the writing (the file
    store's worker processes make them): its items (without rowid), their FTS rows in the
    same order, its module and imports (JSON)."""

    items: list[tuple[Any, ...]] = field(default_factory=list)
    fts: list[tuple[str, str, str, str, str]] = field(default_factory=list)
    module: str = ""
    imports: str = "[]"


def file_rows(library: str, rel: str, docs: FileDocs) -> FileRows:
    """The rows of a file's items (`docs`)."""
    rows = FileRows(module=docs.module, imports=json.dumps(docs.imports))
    for item, bases in zip(docs.items, docs.bases, strict=True):
        rows.items.append(
            (
                library,
                rel,
                item.id,
                item.name,
                item.name.lower(),
                item.kind,
                item.module,
                item.language,
                item.line,
                item.signature,
                int(item.public),
                int(bool(item.doc.summary or item.doc.body)),
                json.dumps(item.doc.to_dict(), separators=(",", ":")),
                json.dumps(bases),
            )
        )
        rows.fts.append(
            (name_words(item.name), _SELF.sub("", item.signature), item.doc.summary, searchable_body(item), item.id)
        )
    return rows


def write_file_rows(
    conn: sqlite3.Connection,
    library: str,
    rel: str,
    rows: FileRows,
    file_hash: str,
    mtime_ns: int,
    size: int,
    language: str,
) -> None:
    """Replace a file's items with `rows` (`file_rows`). New items take the rowids SQLite
    would give them one by one (one more than the largest), so other files' rows keep theirs."""
    delete_file(conn, library, rel, keep_row=True)
    if rows.items:
        first = conn.execute("SELECT coalesce(max(rowid), 0) + 1 FROM items").fetchone()[0]
        conn.executemany(
            "INSERT INTO items(rowid, library, path, id, name, name_lc, kind, module, language, line, signature,"
            " public, documented, doc, bases) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(first + n, *row) for n, row in enumerate(rows.items)],
        )
        conn.executemany(
            "INSERT INTO items_fts(rowid, name, signature, summary, body, qual) VALUES(?,?,?,?,?,?)",
            [(first + n, *row) for n, row in enumerate(rows.fts)],
        )
    conn.execute(
        "INSERT OR REPLACE INTO files(library, path, module, language, hash, mtime_ns, size, items, imports)"
        " VALUES(?,?,?,?,?,?,?,?,?)",
        (library, rel, rows.module, language, file_hash, mtime_ns, size, len(rows.items), rows.imports),
    )


def name_words(name: str) -> str:
    """The name column's text: the name and its camelCase / snake_case parts (`getUnchecked get Unchecked`)."""
    parts = [p for chunk in re.split(r"[_\W]+", name) for p in camel_parts(chunk)]
    extra = " ".join(p for p in parts if p.lower() != name.lower())
    return f"{name} {extra}" if extra else name


# ---------------------------------------------------------------- reading items

ITEM_COLUMNS = "rowid, id, name, kind, module, language, path, line, signature, doc, public, library"


def item_from_row(row: tuple[Any, ...]) -> Item:
    """An Item from a `SELECT {ITEM_COLUMNS}` row."""
    return Item(
        id=row[1],
        name=row[2],
        kind=row[3],
        module=row[4],
        language=row[5],
        path=row[6],
        line=row[7],
        signature=row[8],
        doc=DocComment.from_dict(json.loads(row[9])),
        public=bool(row[10]),
        library=row[11],
    )


def items_by_rowid(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, Item]:
    """The items of these rowids, by rowid (missing rows left out)."""
    if not rowids:
        return {}
    marks = ",".join("?" * len(rowids))
    rows = conn.execute(f"SELECT {ITEM_COLUMNS} FROM items WHERE rowid IN ({marks})", rowids)
    return {row[0]: item_from_row(row) for row in rows}


def select_items(conn: sqlite3.Connection, where: str, args: Iterable[Any], extra: str = "") -> list[Item]:
    """Items matching `where` (a condition on the items table) with `args`; `extra` is added
    after it (`ORDER BY …`, `LIMIT …`)."""
    rows = conn.execute(f"SELECT {ITEM_COLUMNS} FROM items WHERE {where} {extra}", list(args))
    return [item_from_row(row) for row in rows]
