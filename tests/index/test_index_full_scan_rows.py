"""No row lost or changed on the way into the symbol index: for a real tree of a few
hundred files nobody here wrote (standard-library packages, C headers from /usr/include,
JSON data files of site-packages, and a package copied twice so that copies get their
original's rows unparsed), the rows the first index stores through its worker processes
are, file by file and row by row, `rows_of` of the tools' own full scan of that file (an
independent path: no lean scan, no pickling, no SQLite), and so are the diagnostics."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import pytest
from index_helpers import STDLIB, cache_dir_fixture  # noqa: F401  (fixture)

from simple_brief import languages
from simple_brief.files.path_escapes import unescape_path
from simple_brief.files.workspace import Workspace
from simple_brief.index import batch as batch_module
from simple_brief.index import close_symbol_index, symbol_index
from simple_brief.index.parse import diagnostics_json, rows_of
from simple_brief.scan import scan
from simple_brief.source import Source

SITE = Path(sysconfig.get_paths()["purelib"])
PACKAGES = (
    *("email", "json", "logging", "asyncio", "concurrent", "xml", "urllib", "http", "importlib", "wsgiref"),
    *("unittest", "multiprocessing", "ctypes", "tomllib", "re", "curses", "dbm", "html"),
)
HEADERS = ("stdio.h", "stdlib.h", "string.h", "unistd.h", "errno.h", "signal.h", "fcntl.h", "locale.h")


def _tree(root: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(STDLIB / name, root / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copytree(STDLIB / "json", root / "vendored" / "json", ignore=shutil.ignore_patterns("__pycache__"))
    for name in HEADERS:
        if (Path("/usr/include") / name).is_file():
            shutil.copy(Path("/usr/include") / name, root / name)
    for i, path in enumerate(sorted(SITE.rglob("*.json"))[:20]):
        shutil.copy(path, root / f"data{i}.json")
    return root


def _full_scan(path: Path) -> tuple[list[tuple[object, ...]], str | None]:
    source = Source.from_bytes(path.read_bytes(), name=path.name)
    outline = scan(source, languages.detect(path, None))
    return [tuple(row) for row in rows_of(outline)], diagnostics_json(outline)


def test_the_first_index_stores_the_full_scans_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _tree(tmp_path / "tree")
    monkeypatch.setattr(batch_module, "POOL_MIN_FILES", 50)
    monkeypatch.setattr(batch_module, "worker_count", lambda: 2)  # workers even on one core
    ws = Workspace.at(root)
    index = symbol_index(ws)
    try:
        stats = index.refresh()
        conn = index.conn
        files = conn.execute("SELECT id, path, diagnostics FROM files WHERE skipped IS NULL").fetchall()
        stored = {
            unescape_path(path): (
                [tuple(r) for r in conn.execute("SELECT * FROM symbols WHERE file = ? ORDER BY seq", (fid,))],
                diagnostics,
                fid,
            )
            for fid, path, diagnostics in files
        }
    finally:
        close_symbol_index(ws)
    assert stats.parsed >= 300 and len(stored) == stats.parsed  # a real tree, every file stored
    assert any(rel.endswith(".h") for rel in stored) or not (Path("/usr/include") / "stdio.h").is_file()
    total = 0
    for rel, (rows, diagnostics, fid) in sorted(stored.items()):
        expected, expected_diagnostics = _full_scan(root / rel)
        assert [row[1:] for row in rows] == expected, rel
        assert all(row[0] == fid for row in rows), rel
        assert diagnostics == expected_diagnostics, rel
        total += len(rows)
    assert total > 5000
