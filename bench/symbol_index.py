"""The file store and its two indexes on a real tree: the first index (symbol rows and
doc items from one parse per file) vs `ctags -R`, warm search p50/p95 vs today's full
scan and `grep -rn`, one changed file -> visible to the next search, memory.

The tree is the Python standard library plus the venv's site-packages, hard-linked (or
copied) into `.cache/bench-index-tree` (`--quick`: the standard library's json, email,
asyncio and logging packages only). Files are only ever added to it, never edited in
place (hard links share their content with the installed files).

    .venv/bin/python bench/symbol_index.py [--quick] [--baseline N] [--rows OUT.json] [--rows-before IN.json]

Prints a markdown table and writes it between markers into bench/results/latest.md.
`--rows` writes the row counts and digests of both databases after the first index
(`tests/index/index_rows.py` computes them), `--rows-before` compares them with such a
file made by an earlier revision: the row "rows of both indexes" says whether they are
the same.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

sys.path.insert(0, str(ROOT / "tests" / "index"))

from index_rows import digests  # noqa: E402

from simple_brief.docs import db  # noqa: E402
from simple_brief.files.workspace import Workspace  # noqa: E402
from simple_brief.index import SymbolIndex, docs_index, store, symbol_index  # noqa: E402
from simple_brief.index.parse import worker_count  # noqa: E402
from simple_brief.index.query import full_scan, search_index  # noqa: E402
from simple_brief.index.symbol_search import words  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "latest.md"
START, END = "<!-- symbol-index:start -->", "<!-- symbol-index:end -->"
QUICK_PACKAGES = ("json", "email", "asyncio", "logging")
NOTES = (
    "\n"
    "Notes (2 cores; run niced):\n"
    "- first index (one file store, issue 27): one walk and one parse per file in the workers give both the"
    " symbol rows and the doc items (and the items' rows, `docs.db.file_rows`); a file the docs index reads"
    " (37,216 of 42,743) gets the full scan, any other the lean scan (`scan(lean=True)`), and a copy (same name,"
    " size and content hash) gets an earlier file's rows unparsed only when the docs index does not read it (a"
    " documented copy's items name its own path and module: the ~10k typeshed copies are parsed now). Both"
    " databases are row-for-row the revision before's (the row above: digests of the sorted rows). Where a"
    " worker's time goes (cProfile, 1,500 files drawn from this tree, 10.4 s; lean scan alone 7.2 s): the"
    " scan 69% (tree-sitter's parse ~11%, C macro re-parses ~14%, per-symbol signatures, doc comments and"
    " columns ~35%), doc items 20% (docstring parsing 9%), rows 5%. The main process writes both databases:"
    " 2.5 s per 1,500 files once the item rows are made in the workers (10.4 s before). The target is missed"
    " by far: 26x ctags' CPU, 16x its wall time (the symbol index alone was 3.9x in the issue's run); the docs"
    " index's full scan costs ~1.45x the lean scan and documented copies are parsed. Against the revision"
    " before, both indexes of the stdlib part of this tree (24,599 files, same conditions): 210 s CPU, 647 s"
    " wall (two walks; the docs index parsed in one process, five calls of 120 s) -> 149 s CPU, 164 s wall."
    " Wall figures here ran under a load of 2-7 on 2 cores (other sessions' runs). The memory after the"
    " warm queries includes what the rows' digests (`--rows-before`) held a moment: run without it for that"
    " figure.\n"
    "- warm search: every rule of `symbol_search.score` has an index in the name table: substrings and"
    " prefixes from an in-memory SQLite FTS5 trigram index of the lower-case names (a query by its two rarest"
    " trigrams, then checked), word prefixes from the rarest query word's postings, and the fuzzy rule"
    " (rapidfuzz ratio >= 80 of the words) only over word strings sharing enough characters with the query"
    " (per-length character-count bitsets: ~0.5 ms instead of 20-35 ms over ~290k strings); names holding the"
    " query past their start are counted but ranked only when they could be shown. Answers are the full"
    " scan's (tests/index/test_search_fast.py). The slowest are short partial words held by thousands of"
    " names (6-12 ms, mostly counting their files); one-letter queries still read every name (~250 ms; none"
    " in this set). In exchange the name table loads ~1.6 s slower and holds ~22 MB more. This tree (34k"
    " files, 317k distinct names) is 2.6x the issue's 13k-file tree.\n"
    "- freshness: the watcher hands a change to the index in ~17 ms; the rest of the row is one search.\n"
).rstrip()


def progress(msg: str) -> None:
    print(f"[symbol-index] {msg}", file=sys.stderr, flush=True)


def build_tree(quick: bool) -> Path:
    """The bench tree (made once; hard links where the filesystem allows)."""
    tree = ROOT / ".cache" / ("bench-index-tree-quick" if quick else "bench-index-tree")
    if tree.is_dir():
        return tree
    paths = sysconfig.get_paths()
    sources = (
        {name: Path(paths["stdlib"]) / name for name in QUICK_PACKAGES}
        if quick
        else {"stdlib": Path(paths["stdlib"]), "site-packages": Path(paths["purelib"])}
    )
    partial = tree.with_name(tree.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    for name, source in sources.items():
        progress(f"linking {source} into the bench tree")
        if subprocess.run(["cp", "-al", str(source), str(partial / name)], capture_output=True).returncode:
            shutil.rmtree(partial / name, ignore_errors=True)
            shutil.copytree(source, partial / name, symlinks=True)
    partial.rename(tree)
    return tree


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def camel(name: str) -> str:
    parts = words(name)
    return parts[0] + "".join(p.capitalize() for p in parts[1:]) if parts else name


def queries(ws: Workspace, count: int) -> list[tuple[str, str]]:
    """Deterministic queries from the index's own names: whole names, partial words, and
    the other case style of multi-word names (snake_case <-> camelCase)."""
    index = symbol_index(ws)
    names = [n for (n,) in index.conn.execute("SELECT DISTINCT name FROM symbols ORDER BY name")]
    multi = [n for n in names if len(words(n)) >= 2 and n.isidentifier()]
    single = [n for n in names if len(n) >= 4 and n.isidentifier()]
    third = count // 3
    out: list[tuple[str, str]] = []
    for i in range(third):
        out.append(("name", single[(i * 7919) % len(single)]))
    for i in range(third):
        parts = words(single[(i * 104729 + 13) % len(single)])
        word = max(parts, key=len) if parts else "get"
        out.append(("partial", word[: max(3, len(word) * 2 // 3)]))
    for i in range(count - 2 * third):
        name = multi[(i * 15485863 + 7) % len(multi)]
        other = camel(name) if "_" in name else "_".join(words(name))
        out.append(("case", other))
    return out


def timed(fn: object) -> float:
    started = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - started


def rss_mb() -> float:
    """This process's resident memory now (Linux), else its peak."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small tree (four stdlib packages)")
    parser.add_argument("--baseline", type=int, default=None, help="full-scan queries to time (default 2; quick 3)")
    parser.add_argument("--queries", type=int, default=120)
    parser.add_argument("--rows", type=Path, default=None, help="write both databases' row digests here")
    parser.add_argument("--rows-before", type=Path, default=None, help="compare with these row digests")
    args = parser.parse_args(argv)
    tree = build_tree(args.quick)
    cache = Path(tempfile.mkdtemp(prefix="sb-index-bench-"))
    os.environ["SIMPLE_BRIEF_CACHE_DIR"] = str(cache)
    rows: list[tuple[str, str, str, str, str]] = []
    try:
        ws = Workspace.at(tree)
        ctags = shutil.which("ctags")
        ctags_s = None
        ctags_cpu = 0.0
        if ctags:
            progress("ctags -R")
            out = cache / "tags"
            ctags_cpu = cpu_seconds()["children"]
            ctags_s = timed(lambda: subprocess.run([ctags, "-R", "-f", str(out), str(tree)], capture_output=True))
            ctags_cpu = cpu_seconds()["children"] - ctags_cpu
        progress(f"first index of both indexes ({worker_count()} workers)")
        index = symbol_index(ws)
        docs_index(ws)  # asked for before the first index: the store parses once for both
        before = cpu_seconds()
        first_s = timed(lambda: index.refresh())
        after = cpu_seconds()
        cpu = {k: after[k] - before[k] for k in after}
        rows.append(first_index_row(index, first_s, ctags_s))
        rows.append(
            (
                "first index, CPU seconds (the machine's other load left out)",
                f"{cpu['self'] + cpu['workers']:.0f} s: this process {cpu['self']:.0f} s (walk, hashes, SQLite writes),"
                f" workers {cpu['workers']:.0f} s (parse, rows, doc items)"
                + (f" = {(cpu['self'] + cpu['workers']) / ctags_cpu:.1f}x ctags" if ctags_cpu else ""),
                f"ctags -R {ctags_cpu:.1f} s CPU" if ctags_cpu else "—",
                "—",
                "—",
            )
        )
        built_mb = rss_mb()  # before the rows' digests, which hold every row as text a moment
        rows.extend(rows_check(index, args.rows, args.rows_before))
        walk_s = min(timed(lambda: index.refresh()) for _ in range(2))
        rows.append(
            ("stat walk, nothing changed (standalone CLI, each call)", f"{walk_s * 1000:.0f} ms", "—", "—", "—")
        )
        load_s = timed(index.names)
        rows.append(("name table load (first query of a process)", f"{load_s * 1000:.0f} ms", "—", "—", "—"))
        asked = queries(ws, args.queries)
        progress(f"{len(asked)} warm queries")
        for _, q in asked[:5]:
            search_index(index, q, None, None, 50, ws.display)
        times: dict[str, list[float]] = {}
        for kind, q in asked:
            times.setdefault(kind, []).append(timed(lambda q=q: search_index(index, q, None, None, 50, ws.display)))
        memory = rss_mb()
        every = [t for ts in times.values() for t in ts]
        p95 = pct(every, 0.95) * 1000
        detail = "; ".join(
            f"{k} p50 {pct(v, 0.5) * 1000:.1f} / p95 {pct(v, 0.95) * 1000:.1f}" for k, v in times.items()
        )
        rows.append(
            (
                f"warm search, {len(every)} queries",
                f"p50 {pct(every, 0.5) * 1000:.1f} ms, p95 {p95:.1f} ms, max {max(every) * 1000:.0f} ms ({detail})",
                "see the next two rows",
                "p95 <= 10 ms",
                "pass" if p95 <= 10 else "**FAIL**",
            )
        )
        grep_times = []
        for _, q in asked[:10]:
            grep_times.append(
                timed(lambda q=q: subprocess.run(["grep", "-rn", "--", q, str(tree)], capture_output=True))
            )
        rows.append(
            (
                "grep -rn of the same word (first 10 queries)",
                f"p50 {pct(grep_times, 0.5) * 1000:.0f} ms, p95 {pct(grep_times, 0.95) * 1000:.0f} ms",
                "baseline",
                "—",
                "—",
            )
        )
        count = args.baseline if args.baseline is not None else (3 if args.quick else 2)
        scans = []
        for _, q in asked[:count]:
            progress(f"full scan baseline: {q}")
            fresh = Workspace.at(tree)
            scans.append(timed(lambda q=q, fresh=fresh: full_scan(fresh, q, None, None, 50, fresh.display)))
        if scans:
            rows.append(
                (
                    f"today's full scan ({len(scans)} queries)",
                    f"median {statistics.median(scans):.1f} s per search",
                    "baseline",
                    "—",
                    "—",
                )
            )
        progress("one changed file -> visible")
        rows.extend(freshness(ws, tree))
        rows.append(
            (
                "memory (RSS of this process)",
                f"{built_mb:.0f} MB after the first index; {memory:.0f} MB with the name table after the warm queries",
                "—",
                "—",
                "—",
            )
        )
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    table = render(rows, tree, args.quick)
    print(table)
    write(table)
    return 0


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far: this process, its waited-for children (ctags), and the
    index's worker processes (children of multiprocessing's fork server, which reaps them)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers = 0.0
    from multiprocessing import forkserver

    pid = getattr(forkserver._forkserver, "_forkserver_pid", None)
    if pid:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            workers = sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")  # utime stime cutime cstime
        except (OSError, ValueError, IndexError):
            workers = 0.0
    return {"self": own.ru_utime + own.ru_stime, "children": kids.ru_utime + kids.ru_stime, "workers": workers}


def first_index_row(index: SymbolIndex, first_s: float, ctags_s: float | None) -> tuple[str, str, str, str, str]:
    """The first index of both indexes (one parse per file) against `ctags -R`."""
    files = len(index._files)
    symbols = index.conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
    assert index.docs is not None
    items = sum(info.items for info in index.docs.libraries())
    skipped = index.skipped_counts()
    db_mb = (index.path.stat().st_size + index.docs.path.stat().st_size) / 1e6
    ratio = f"{first_s / ctags_s:.1f}x ctags" if ctags_s else "ctags not installed"
    verdict = ("pass" if first_s <= 2.5 * ctags_s else "**FAIL**") if ctags_s else "—"
    return (
        "first index, both indexes (symbol rows and doc items, one parse per file)",
        f"{first_s:.1f} s for {files:,} files: {symbols:,} definitions, {items:,} doc items ({ratio}; DBs"
        f" {db_mb:.0f} MB; skipped {sum(skipped.values())}: {skipped})",
        f"ctags -R {ctags_s:.1f} s" if ctags_s else "—",
        "<= 2.5x",
        verdict,
    )


def rows_check(index: SymbolIndex, out: Path | None, before: Path | None) -> list[tuple[str, str, str, str, str]]:
    """The row counts and digests of both databases, written to `out` and compared with `before`."""
    if out is None and before is None:
        return []
    assert index.docs is not None
    now = digests(store.db_path(index.workspace.root), db.db_path(index.workspace.root))
    counts = {table: value["count"] for table, value in now.items()}
    if out is not None:
        out.write_text(json.dumps({"rows": {t: {k: v[k] for k in ("count", "digest")} for t, v in now.items()}}))
    if before is None:
        return [("rows of both indexes", f"{counts}", "—", "—", "—")]
    then = json.loads(before.read_text())["rows"]
    same = all(then.get(t, {}).get("digest") == v["digest"] for t, v in now.items()) and set(then) == set(now)
    return [
        (
            "rows of both indexes vs the revision before (row counts; digests of the sorted rows)",
            f"{counts}",
            f"{ {t: v['count'] for t, v in then.items()} } ({before.name})",
            "identical",
            "pass" if same else "**FAIL**",
        )
    ]


def freshness(ws: Workspace, tree: Path) -> list[tuple[str, str, str, str, str]]:
    """Write a new file with a new name and time until the index holds it (the watcher's
    events arrive on their own thread), then one search that shows it: a long-lived
    process. And the standalone way: a stat walk and the query."""
    index = symbol_index(ws)
    index.watch()
    index.ensure_fresh()
    held: list[float] = []
    shown: list[float] = []
    for i in range(10):
        name = f"bench_fresh_{os.getpid()}_{i}"
        path = tree / f"{name}.py"
        started = time.perf_counter()
        path.write_text(f"def {name}():\n    return {i}\n")
        while index.file_state(path.name) is None and time.perf_counter() - started < 10:
            time.sleep(0.001)
            index.ensure_fresh()
        held.append(time.perf_counter() - started)
        ok = found(index, ws, name)
        shown.append(time.perf_counter() - started if ok else float("inf"))
        time.sleep(0.05)
    index.stop_watching()
    walked = []
    for i in range(3):
        name = f"bench_walk_{os.getpid()}_{i}"
        path = tree / f"{name}.py"
        path.write_text(f"def {name}():\n    return {i}\n")
        started = time.perf_counter()
        index.refresh()
        walked.append(time.perf_counter() - started if found(index, ws, name) else float("inf"))
    for path in tree.glob("bench_*.py"):
        path.unlink()
    index.refresh()
    worst = max(shown) * 1000
    return [
        (
            "one new file -> in the index (watcher, 10 files)",
            f"p50 {pct(held, 0.5) * 1000:.0f} ms, max {max(held) * 1000:.0f} ms",
            "—",
            "—",
            "—",
        ),
        (
            "one new file -> shown by a search (watcher: the row above + one search)",
            f"p50 {pct(shown, 0.5) * 1000:.0f} ms, max {worst:.0f} ms",
            "—",
            "<= 100 ms",
            "pass" if worst <= 100 else "**FAIL**",
        ),
        (
            "one new file -> shown (standalone: stat walk + query)",
            f"median {statistics.median(walked) * 1000:.0f} ms",
            "—",
            "—",
            "—",
        ),
    ]


def found(index: SymbolIndex, ws: Workspace, name: str) -> bool:
    """Whether a search for `name` shows the definition of that exact name."""
    return any(m.symbol.name == name for m in search_index(index, name, None, None, 5, ws.display).matches)


def render(rows: list[tuple[str, str, str, str, str]], tree: Path, quick: bool) -> str:
    head = [
        f"## File store: symbol index and docs index ({'quick: ' if quick else ''}{tree.name},"
        " `bench/symbol_index.py`)",
        "",
        "| Measure | Value | Baseline | Target | Result |",
        "| --- | --- | --- | --- | --- |",
    ]
    return "\n".join([*head, *(f"| {' | '.join(r)} |" for r in rows), NOTES])


def write(table: str) -> None:
    """The table between its markers, where they are (else at the end)."""
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    if START in text and END in text:
        before, _, rest = text.partition(START)
        _, _, after = rest.partition(END)
        RESULTS.write_text(f"{before}{START}\n{table}\n{END}{after}", encoding="utf-8")
        return
    RESULTS.write_text(f"{text.rstrip()}\n\n{START}\n{table}\n{END}\n", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
