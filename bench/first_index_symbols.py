"""The first index of the symbol index alone against `ctags -R`, on the tree of
`symbol_index.py` (stdlib + the venv's site-packages), in the same run: what a workspace
used only through `search` builds since the docs index opens on the first docs call
(issue 27's baseline figure was this index alone). `--both`: the first index of both
indexes (a docs call opened the docs index first: one parse per file gives the symbol
rows and the doc items), as `symbol_index.py` measures it among its other rows.

    .venv/bin/python bench/first_index_symbols.py [--runs N] [--both]

Prints one line per run and writes them between the `first-index-symbols` (or, with
`--both`, `first-index-both`) markers of bench/results/latest.md.

Each line says the machine's load (`os.getloadavg`) when the run ended: the ratio is of
two runs in the same minute, but 2 shared cores make it swing with the others' work.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import symbol_index as bench_tree
from report import write_block
from simple_brief.files.workspace import Workspace
from simple_brief.index import close_symbol_index, docs_index, symbol_index
from simple_brief.index.parse import worker_count


def one_run(tree: Path, ctags: str, both: bool) -> str:
    with tempfile.TemporaryDirectory(prefix="first-index-") as folder:
        cache = Path(folder)
        os.environ["SIMPLE_BRIEF_CACHE_DIR"] = str(cache)
        ctags_cpu = bench_tree.cpu_seconds()["children"]
        started = time.perf_counter()
        subprocess.run([ctags, "-R", "-f", str(cache / "tags"), str(tree)], capture_output=True, check=False)
        ctags_s = time.perf_counter() - started
        ctags_cpu = bench_tree.cpu_seconds()["children"] - ctags_cpu
        ws = Workspace.at(tree)
        index = symbol_index(ws)
        if both:
            docs_index(ws)  # as a docs call does before the first index
        before = bench_tree.cpu_seconds()
        started = time.perf_counter()
        stats = index.refresh()
        first_s = time.perf_counter() - started
        after = bench_tree.cpu_seconds()
        own, workers = after["self"] - before["self"], after["workers"] - before["workers"]
        count = index.conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
        if both:
            assert index.docs is not None
            items = sum(info.items for info in index.docs.libraries())
            what = f"both indexes: {first_s:.1f} s for {stats.listed:,} files, {count:,} definitions, {items:,} items"
        else:
            assert index.docs is None, "the docs index was opened: this is not the symbol index alone"
            what = f"symbol index alone: {first_s:.1f} s for {stats.listed:,} files, {count:,} definitions"
        close_symbol_index(ws)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    if ctags_s > 2 * ctags_cpu:  # ctags waited for a core more than it ran: its wall time says little
        load += f"; ctags ran {ctags_cpu:.1f} s of its {ctags_s:.1f} s: compare the CPU seconds"
    return (
        f"{what}; ctags -R {ctags_s:.1f} s: {first_s / ctags_s:.1f}x (target <= 2.5x; {worker_count()} workers;"
        f" load {load}); CPU {own:.0f} s here + {workers:.0f} s workers vs ctags {ctags_cpu:.1f} s:"
        f" {(own + workers) / ctags_cpu:.1f}x"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--both", action="store_true", help="both indexes (the docs index opened first)")
    args = parser.parse_args()
    ctags = shutil.which("ctags")
    if ctags is None:
        print("universal-ctags is not installed (apt-get install universal-ctags)", file=sys.stderr)
        return 2
    tree = bench_tree.build_tree(False)
    lines = []
    for _ in range(args.runs):
        lines.append(one_run(tree, ctags, args.both))
        print(lines[-1], flush=True)
    name = "first-index-both" if args.both else "first-index-symbols"
    command = f"`.venv/bin/python bench/first_index_symbols.py --runs {args.runs}{' --both' if args.both else ''}`"
    body = [f"## First index vs ctags -R ({command})", "", *(f"- {line}" for line in lines)]
    write_block(bench_tree.RESULTS, name, "\n".join(body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
