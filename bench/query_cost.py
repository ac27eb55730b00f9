"""Cold CLI outline of a C++ and a Python file, measured in the same run.

A cold `simple-brief outline` of a C++ file pays for compiling the C++ outline query
(the grammar is large); a Python file is the reference. Runs alternate between the two
files so both see the same machine load; each figure is the median of the runs, wall
clock and CPU (user + system of the child), and the C++ / Python ratio.

    .venv/bin/python bench/query_cost.py [--runs 7] [CPP_FILE PY_FILE]

Also prints the time to compile each outline query alone (in this process), and its
pattern count.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "outline"


def _cli() -> list[str]:
    exe = Path(sys.executable).with_name("simple-brief")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("simple-brief")
    return [found] if found else [sys.executable, "-m", "simple_brief"]


def cold_run(cli: list[str], path: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one `outline` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # Standalone: a cold run pays the start-up and query compilation a daemon would hide.
    env = {**os.environ, "SIMPLE_BRIEF_DAEMON": "0"}
    subprocess.run([*cli, "outline", str(path)], check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def query_compile(name: str) -> tuple[float, int]:
    """CPU seconds to compile one language's outline query (grammar loaded first), and its patterns."""
    sys.path.insert(0, str(ROOT / "python"))
    from simple_brief import languages

    spec = languages.by_name(name)
    assert spec is not None, name
    languages.grammar(spec)
    start = time.process_time()
    query = languages.outline_query(spec)
    return time.process_time() - start, query.pattern_count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("cpp", nargs="?", type=Path, default=FIXTURES / "cpp.cpp")
    parser.add_argument("py", nargs="?", type=Path, default=FIXTURES / "python.py")
    args = parser.parse_args(argv)
    cli = _cli()
    cold_run(cli, args.py)  # warm the page cache and bytecode, not measured
    times: dict[str, list[tuple[float, float]]] = {"cpp": [], "python": []}
    for _ in range(args.runs):
        times["cpp"].append(cold_run(cli, args.cpp))
        times["python"].append(cold_run(cli, args.py))
    medians = {}
    for name, runs in times.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        medians[name] = (wall, cpu)
        print(f"cold outline {name:6s}: wall {wall:.3f} s, cpu {cpu:.3f} s (median of {len(runs)})")
    (cw, cc), (pw, pc) = medians["cpp"], medians["python"]
    print(f"ratio cpp/python: wall {cw / pw:.2f}, cpu {cc / pc:.2f}")
    for name in ("cpp", "c", "python"):
        seconds, patterns = query_compile(name)
        print(f"query compile {name:6s}: {seconds:.3f} s cpu, {patterns} patterns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
