"""The rows of both indexes (symbols and docs) of a real tree, as digests: what
`test_index_rows.py` compares against `index_rows.json`, the rows the revision before the
one file store made.

The tree: five packages of the running Python's standard library (json, email, logging,
sqlite3, tomllib: Python) and two npm packages of the project's node_modules (ajv, acorn,
under `npm/`: JavaScript, TypeScript, JSON, Markdown, YAML), copied into a temporary
folder. Nobody here wrote them.

The golden was made by running this file on the revision before the file store
(2ee280a, main at the time), where the symbol index and the docs index each walked and
parsed the tree on their own:

    .venv/bin/python tests/index/index_rows.py --write

Rewritten since only to add the rows of a language added later, every other row unchanged
(issue 28: `stdlib/email/architecture.rst`, reST), and the JavaScript definitions
the tags.scm check found missing (issue 28: `a = b = function` chains, definitions up to
depth 32: 102 more symbols and 16 more doc items, all in acorn's and ajv's bundles).

Each table is kept as a row count, one digest of all its rows (sorted) and one short
digest per file, so a failure names the files whose rows changed (`differences`).
Columns that depend on when or where the tree was copied (mtimes, row ids, the root) are
left out.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import sys
import sysconfig
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("index_rows.json")
STDLIB = Path(sysconfig.get_paths()["stdlib"])
STDLIB_PACKAGES = ("json", "email", "logging", "sqlite3", "tomllib")
NODE_PACKAGES = ("ajv", "acorn")

#: table -> (the query of its rows, the column holding the file's path).
QUERIES: dict[str, tuple[str, int]] = {
    "symbol files": ("SELECT path, size, hash, language, skipped, diagnostics FROM files", 0),
    "symbols": (
        "SELECT f.path, s.seq, s.walk, s.name, s.qual, s.container, s.kind, s.sl, s.sc, s.el, s.ec,"
        " s.ssl, s.ssc, s.sel, s.sec, s.preview, s.words FROM symbols s JOIN files f ON f.id = s.file",
        0,
    ),
}
DOCS_QUERIES: dict[str, tuple[str, int]] = {
    "docs files": ("SELECT path, library, module, language, hash, size, items, imports FROM files", 0),
    "docs items": (
        "SELECT path, library, id, name, name_lc, kind, module, language, line, signature, public, documented,"
        " doc, bases FROM items",
        0,
    ),
    "docs fts": (
        "SELECT i.path, i.library, i.id, i.line, f.name, f.signature, f.summary, f.body, f.qual"
        " FROM items i JOIN items_fts f ON f.rowid = i.rowid",
        0,
    ),
}


def copy_tree(root: Path) -> Path:
    """The tree described above, under `root` (created)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in STDLIB_PACKAGES:
        shutil.copytree(STDLIB / name, root / "stdlib" / name, ignore=ignore)
    for name in NODE_PACKAGES:
        shutil.copytree(REPO / "node_modules" / name, root / "npm" / name, ignore=ignore, symlinks=True)
    return root


def _digest(rows: Iterable[str]) -> str:
    h = hashlib.sha256()
    for row in rows:
        h.update(row.encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


def table_digests(conn: sqlite3.Connection, sql: str, path_column: int) -> dict[str, Any]:
    """Count, digest of every row and a short digest per file, of the rows `sql` selects."""
    rows = sorted(json.dumps(list(row), ensure_ascii=False) for row in conn.execute(sql))
    per_file: dict[str, list[str]] = {}
    for text in rows:
        per_file.setdefault(str(json.loads(text)[path_column]), []).append(text)
    return {
        "count": len(rows),
        "digest": _digest(rows),
        "files": {path: _digest(texts)[:12] for path, texts in sorted(per_file.items())},
    }


def digests(symbol_db: Path, docs_db: Path) -> dict[str, Any]:
    """The digests of both databases (read-only)."""
    out: dict[str, Any] = {}
    for path, queries in ((symbol_db, QUERIES), (docs_db, DOCS_QUERIES)):
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            for table, (sql, column) in queries.items():
                out[table] = table_digests(conn, sql, column)
        finally:
            conn.close()
    return out


def build(root: Path, cache: Path) -> dict[str, Any]:
    """Index the tree at `root` with both indexes (the first index, from an empty cache) and
    return the digests of their rows."""
    sys.path.insert(0, str(REPO / "python"))
    from simple_brief import index as index_module
    from simple_brief.docs import db
    from simple_brief.docs.index import DocsIndex
    from simple_brief.files.workspace import Workspace
    from simple_brief.index import store, symbol_index

    ws = Workspace.at(root)
    index = symbol_index(ws, cache)
    opener = getattr(index_module, "docs_index", None)  # the file store's (opened on the first docs call)
    docs = opener(ws, cache) if opener is not None else None
    index.ensure_fresh()
    if docs is None:  # before the file store, the docs index walked on its own
        docs = DocsIndex.open(ws, cache)  # type: ignore[call-arg]
    docs.refresh(force=True)
    docs.close()
    index.close()
    return digests(store.db_path(ws.root, cache), db.db_path(ws.root, cache))


def differences(golden: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """What differs, one line per table and file (empty when the rows are the same)."""
    lines = []
    for table in sorted(set(golden) | set(now)):
        old, new = golden.get(table), now.get(table)
        if old is None or new is None:
            lines.append(f"{table}: {'missing now' if new is None else 'not in the golden'}")
            continue
        if old["digest"] == new["digest"]:
            continue
        lines.append(f"{table}: {old['count']} rows then, {new['count']} now")
        for path in sorted(set(old["files"]) | set(new["files"])):
            if old["files"].get(path) != new["files"].get(path):
                lines.append(f"  {path}: {old['files'].get(path, 'absent')} -> {new['files'].get(path, 'absent')}")
    return lines


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="sb-index-rows-") as tmp:
        now = build(copy_tree(Path(tmp) / "tree"), Path(tmp) / "cache")
    if "--write" in argv:
        GOLDEN.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {GOLDEN}: " + ", ".join(f"{t} {v['count']}" for t, v in now.items()))
        return 0
    diff = differences(json.loads(GOLDEN.read_text(encoding="utf-8")), now)
    print("\n".join(diff) or "the same rows")
    return 1 if diff else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
