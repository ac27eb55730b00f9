"""The fold answer's engine part as CPU time, against another revision: less sensitive to a
shared machine's load than `folds.py`'s wall-clock medians.

    .venv/bin/python bench/folds_cpu.py [--against DIR] [--rounds 2] [--runs 5]

Per file of `folds.py` (the same samples): the CPU time (`time.thread_time`, best of
`--runs`) of a bare `Parser.parse` and of a new document's `Document.folds()`, their ratio,
the number of folds and a hash of them (the same hash = the same folds). With `--against
DIR` (the `python/` of another revision, e.g. `git archive BASE python | tar -x -C /tmp/base`),
that revision and this one run alternately, `--rounds` times each, each in its own process.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(runs: int) -> None:
    """Print one line per file for the `simple_brief` on `sys.path` (see `main`)."""
    from tree_sitter import Parser

    from folds import Sample, samples
    from simple_brief import languages
    from simple_brief.servers.documents import Documents

    for sample in samples():
        if not isinstance(sample, Sample) or not sample.path.exists():
            continue
        text = sample.path.read_bytes().decode("utf-8", "surrogateescape")
        data = text.encode("utf-8", "surrogateescape")
        spec = languages.detect(str(sample.path), sample.language_id)
        if not spec.has_grammar:
            continue
        parser = Parser(languages.grammar(spec))
        Documents().did_open(str(sample.path), text, sample.language_id).folds()  # compiles the query
        bare, engine, found = [], [], []
        for _ in range(runs):
            t = time.thread_time()
            parser.parse(data)
            bare.append(time.thread_time() - t)
            doc = Documents().did_open(str(sample.path), text, sample.language_id)
            t = time.thread_time()
            found = doc.folds()
            engine.append(time.thread_time() - t)
        digest = hashlib.sha1(json.dumps([list(f) for f in found]).encode()).hexdigest()[:8]
        b, e = min(bare) * 1000, min(engine) * 1000
        print(f"| {sample.label} | {b:.1f} | {e:.1f} | {e / b:.2f}x | {len(found)} {digest} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--against", type=Path, help="the python/ folder of another revision")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", type=Path, help=argparse.SUPPRESS)  # one measuring process
    args = parser.parse_args(argv)
    if args.python:
        sys.path[:0] = [str(args.python), str(ROOT / "bench")]
        measure(args.runs)
        return 0
    if args.against and not (args.against / "simple_brief").is_dir():
        print(f"{args.against} holds no simple_brief package: give the python/ folder of a revision.")
        return 2
    trees = [("this tree", ROOT / "python")]
    if args.against:
        trees.insert(0, (str(args.against), args.against))
    for round_ in range(1, args.rounds + 1):
        for name, python in trees:
            print(f"\n{name}, round {round_}:\n\n| file | bare parse CPU ms | engine CPU ms | x parse | folds, hash |")
            print("| --- | --- | --- | --- | --- |", flush=True)
            command = [sys.executable, __file__, "--python", str(python), "--runs", str(args.runs)]
            subprocess.run(command, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
