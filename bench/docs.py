"""Docs index benchmark: build speed on the standard library, search latency over >= 50,000
items, one-file re-index time, against a naive `LIKE '%term%'` scan of the same table.

    .venv/bin/python bench/docs.py [--quick]

Called by run.py (`rows`); run alone it prints its rows as a markdown table.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sqlite3
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
if str(REPO / "python") not in sys.path:
    sys.path.insert(1, str(REPO / "python"))

from report import Table, num, verdict  # noqa: E402
from simple_brief.docs.libraries import nvim_runtime_lua  # noqa: E402
from simple_brief.files.workspace import Workspace  # noqa: E402
from simple_brief.index import docs_index  # noqa: E402

TARGET_SEARCH_P95_MS = 10.0
TARGET_REINDEX_MS = 50.0
TARGET_ITEMS = 50_000
#: A typical large standard-library module for the one-file re-index.
REINDEX_FILE = "argparse.py"


def progress(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _queries(conn: sqlite3.Connection, n: int, seed: int = 5) -> list[tuple[str, str]]:
    """~n varied queries drawn from the index: names, qualified ids, summary words, phrases."""
    rng = random.Random(seed)
    names = [r[0] for r in conn.execute("SELECT name FROM items WHERE length(name) > 3 ORDER BY rowid")]
    ids = [r[0] for r in conn.execute("SELECT id FROM items WHERE kind IN ('function', 'method') ORDER BY rowid")]
    summaries = [r[0] for r in conn.execute("SELECT summary FROM items_fts WHERE summary != '' ORDER BY rowid")]
    words = [w for s in summaries for w in re.findall(r"[A-Za-z]{4,}", s)]
    out: list[tuple[str, str]] = []
    third = n // 3
    out += [("name", rng.choice(names)) for _ in range(third)]
    out += [("id", rng.choice(ids)) for _ in range(n // 10)]
    out += [("word", rng.choice(words).lower()) for _ in range(third - n // 10)]
    while len(out) < n:
        tokens = re.findall(r"[A-Za-z]{3,}", rng.choice(summaries))
        if len(tokens) >= 3:
            start = rng.randrange(len(tokens) - 2)
            out.append(("phrase", " ".join(tokens[start : start + rng.choice((2, 3))]).lower()))
    return out


def _like(conn: sqlite3.Connection, query: str) -> int:
    """The naive baseline: every item whose name, signature or doc contains the query text."""
    pattern = f"%{query}%"
    rows = conn.execute(
        "SELECT rowid FROM items WHERE name LIKE ? OR signature LIKE ? OR doc LIKE ?", (pattern, pattern, pattern)
    ).fetchall()
    return len(rows)


def rows(table: Table, quick: bool) -> None:
    """Add the docs rows to `table`."""
    table.section("Docs index (SQLite FTS5)")
    work = Path(tempfile.mkdtemp(prefix="simple-brief-bench-docs-"))
    try:
        _measure(table, work, quick)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _measure(table: Table, work: Path, quick: bool) -> None:
    ws_root = work / "ws"
    ws_root.mkdir()
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copy(stdlib / REINDEX_FILE, ws_root / REINDEX_FILE)
    top_level = sorted(stdlib.glob("*.py"), key=lambda p: (p.stat().st_size, p.name))
    median_file = top_level[len(top_level) // 2]
    shutil.copy(median_file, ws_root / median_file.name)
    cache = work / "cache"
    index = docs_index(Workspace.at(ws_root), cache)

    progress("docs: indexing the Python standard library")
    build = index.index_library("python")
    size_mb = os.path.getsize(index.path) / 1e6
    table.add(
        "build: Python standard library",
        f"{build.files_indexed:,} files, {build.items:,} public items in {build.seconds:.1f} s: "
        f"{build.files_indexed / build.seconds:,.0f} files/s, {build.items / build.seconds:,.0f} items/s; "
        f"DB {size_mb:.1f} MB",
        "tree-sitter scan + doc parse + SQLite insert, one process",
    )
    libraries = ["python"]
    if nvim_runtime_lua() is not None:
        progress("docs: indexing the Neovim runtime Lua")
        index.index_library("nvim")
        libraries.append("nvim")
    total = sum(info.items for info in index.libraries())
    site = Path(sysconfig.get_paths()["purelib"])
    packages = sorted(p for p in site.iterdir() if p.is_dir() and p.name.isidentifier() and not p.name.startswith("_"))
    # Whole packages of site-packages, largest first, until the index holds TARGET_ITEMS items.
    packages.sort(key=lambda p: -sum(1 for _ in p.rglob("*.py")))
    for package in packages:
        if total >= TARGET_ITEMS:
            break
        progress(f"docs: indexing {package.name} ({total:,} items so far)")
        total += index.index_library(str(package), folders=[package]).items  # a folder the bench lists itself
    index.refresh(force=True)
    libraries += [info.name for info in index.libraries() if info.name not in ("workspace", *libraries)]

    conn = sqlite3.connect(index.path)
    items = conn.execute("SELECT count(*) FROM items").fetchone()[0]
    queries = _queries(conn, 100 if quick else 200)
    runs = 2 if quick else 3
    progress(f"docs: {len(queries)} queries x {runs} over {items:,} items")
    index.close()
    start = time.perf_counter()
    index = docs_index(Workspace.at(ws_root), cache)
    first = index.search("parse arguments")
    startup_ms = 1000 * (time.perf_counter() - start)
    ours: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        for _kind, query in queries:
            t0, c0 = time.perf_counter(), time.thread_time()
            index.search(query, limit=10)
            ours.append(1000 * (time.perf_counter() - t0))
            cpu.append(1000 * (time.thread_time() - c0))
    base: list[float] = []
    for _kind, query in queries[: len(queries) // (2 if quick else 1)]:
        t0 = time.perf_counter()
        _like(conn, query)
        base.append(1000 * (time.perf_counter() - t0))
    named_first = sum(
        1
        for kind, query in queries
        if kind in ("name", "id")
        and (hits := index.search(query, limit=1))
        and (hits[0].item.name == query or hits[0].item.id == query)
    )
    named = sum(1 for kind, _q in queries if kind in ("name", "id"))
    p50, p95 = statistics.median(ours), _pct(ours, 0.95)
    b50, b95 = statistics.median(base), _pct(base, 0.95)
    table.add(
        f"search: {len(queries)} queries (names, ids, words, phrases), {items:,} items",
        f"p50 {num(p50)} ms, p95 {num(p95)} ms, p99 {num(_pct(ours, 0.99))} ms wall (x{runs}; CPU p95 "
        f"{num(_pct(cpu, 0.95))} ms); LIKE scan p50 {num(b50)} ms, p95 {num(b95)} ms: {b50 / p50:,.0f}x faster at p50",
        f"naive `LIKE '%query%'` over name/signature/doc of the same items table; libraries {', '.join(libraries)}",
        f"p95 < {TARGET_SEARCH_P95_MS:.0f} ms",
        verdict(p95 < TARGET_SEARCH_P95_MS and items >= TARGET_ITEMS),
    )
    table.add(
        "search: a name or id query puts that item first",
        f"{named_first} of {named}",
        "exact name/id boost on top of bm25",
    )
    table.add(
        "start-up: open the stored DB + first query",
        f"{num(startup_ms)} ms ({len(first)} hits, no re-index)",
        f"{items:,} items persisted",
    )

    progress("docs: one-file re-index")
    index.refresh(force=True)
    runs = 5 if quick else 11
    for name in (median_file.name, REINDEX_FILE):
        target = ws_root / name
        original = target.read_text(encoding="utf-8")
        disk: list[float] = []
        overlay: list[float] = []
        for i in range(runs):
            target.write_text(original + f"\n\ndef bench_added_{i}(x):\n    'Added {i}.'\n", encoding="utf-8")
            stats = index.refresh(force=True)
            assert stats.files_indexed == 1, stats
            disk.append(1000 * stats.seconds)
            index.workspace.overlays[target.resolve()] = original + f"\n\ndef overlay_{i}(x):\n    pass\n"
            stats = index.refresh()
            overlay.append(1000 * stats.seconds)
            del index.workspace.overlays[target.resolve()]
        index.refresh(force=True)  # back to the disk text after the last overlay
        noop = index.refresh(force=True)
        d50 = statistics.median(disk)
        typical = name == median_file.name
        table.add(
            f"one-file re-index: {name} ({original.count(chr(10)):,} lines, "
            f"{'median-size' if typical else 'a large'} stdlib file) changed on disk, refresh",
            f"median {num(d50)} ms (overlay change: {num(statistics.median(overlay))} ms; "
            f"nothing changed: {num(1000 * noop.seconds)} ms)",
            f"full build of the standard library: {build.seconds:.1f} s; DB of {items:,} items",
            f"< {TARGET_REINDEX_MS:.0f} ms" if typical else "—",
            verdict(d50 < TARGET_REINDEX_MS) if typical else "—",
        )
    conn.close()
    index.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer queries and runs")
    args = parser.parse_args(argv)
    table = Table()
    rows(table, args.quick)
    print(table.markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
