"""The first index of the symbol index alone against `ctags -R`, on the tree of
`symbol_index.py` (stdlib + the venv's site-packages), in the same run: what a workspace
used only through `search` builds since the docs index opens on the first docs call
(issue 27's baseline figure was this index alone). `symbol_index.py` measures both indexes.

    .venv/bin/python bench/first_index_symbols.py [--runs N]
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
from simple_brief.files.workspace import Workspace
from simple_brief.index import close_symbol_index, symbol_index
from simple_brief.index.parse import worker_count


def one_run(tree: Path, ctags: str) -> str:
    with tempfile.TemporaryDirectory(prefix="first-index-") as folder:
        cache = Path(folder)
        os.environ["SIMPLE_BRIEF_CACHE_DIR"] = str(cache)
        started = time.perf_counter()
        subprocess.run([ctags, "-R", "-f", str(cache / "tags"), str(tree)], capture_output=True, check=False)
        ctags_s = time.perf_counter() - started
        ws = Workspace.at(tree)
        index = symbol_index(ws)
        started = time.perf_counter()
        stats = index.refresh()
        first_s = time.perf_counter() - started
        count = index.conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
        assert index.docs is None, "the docs index was opened: this is not the symbol index alone"
        close_symbol_index(ws)
    return (
        f"symbol index alone: {first_s:.1f} s for {stats.listed:,} files, {count:,} definitions;"
        f" ctags -R {ctags_s:.1f} s: {first_s / ctags_s:.1f}x (target <= 2.5x; {worker_count()} workers)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    ctags = shutil.which("ctags")
    if ctags is None:
        print("universal-ctags is not installed (apt-get install universal-ctags)", file=sys.stderr)
        return 2
    tree = bench_tree.build_tree(False)
    for _ in range(args.runs):
        print(one_run(tree, ctags), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
