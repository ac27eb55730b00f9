"""What Python's `compile()` costs `simple_read` (issue 28: its errors are shown there).

    .venv/bin/python bench/checkers.py [--runs 10]

For three large stdlib modules copied into a workspace, in the same run:
- the first read: the scan alone against `compile()` of the same text (the checker a
  first `simple_read` adds to the scan);
- a warm `simple_read` (parse cache hit) with the verdict cached (the text read before)
  against the same call with `compile()` run again each time (the baseline without the
  cache).
Ratios only: the absolute times depend on the machine's load. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(1, str(BENCH.parent / "python"))

from simple_brief import languages  # noqa: E402
from simple_brief.files.workspace import Workspace  # noqa: E402
from simple_brief.intel import checkers  # noqa: E402
from simple_brief.scan import scan  # noqa: E402
from simple_brief.source import Source  # noqa: E402
from simple_brief.tools import Call, invoke  # noqa: E402

FILES = ("typing.py", "_pydecimal.py", "argparse.py")


def _seconds(runs: int, step: Callable[[], object]) -> float:
    start = time.perf_counter()
    for _ in range(runs):
        step()
    return (time.perf_counter() - start) / runs


def _row(ws: Workspace, root: Path, name: str, runs: int) -> str:
    text = (root / name).read_text()
    spec = languages.for_path(name)
    run = checkers.Run(Source(text), root / name, root, False, "python")
    args = {"path": name, "mode": "outline"}

    def compile_once() -> None:
        checkers._compile_error.cache_clear()
        checkers.check(run, spec.checks, in_process_only=True)

    def read_uncached() -> None:
        checkers._compile_error.cache_clear()
        invoke("simple_read", args, Call(ws))

    scan_s = _seconds(runs, lambda: scan(text, spec))
    compile_s = _seconds(runs, compile_once)
    invoke("simple_read", args, Call(ws))  # the parse cache and the verdict warm
    cached_s = _seconds(runs, lambda: invoke("simple_read", args, Call(ws)))
    uncached_s = _seconds(runs, read_uncached)
    return f"| {name} | {len(text.splitlines()):,} | {compile_s / scan_s:.2f}x | {uncached_s / cached_s:.1f}x |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    stdlib = Path(sys.base_prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    with tempfile.TemporaryDirectory(prefix="bench-checkers-") as tmp:
        root = Path(tmp)
        ws = Workspace.at(root)
        for name in FILES:
            shutil.copy(stdlib / name, root / name)
        rows = [_row(ws, root, name, runs) for name in FILES]
    print("| file | lines | first read: compile() / scan | warm simple_read: compile() again / cached |")
    print("| --- | --- | --- | --- |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
