"""`test_run` against running the same pytest command directly: the wall-time overhead of the
tasks toolset (sandbox launcher, process-group watch, JUnit XML read, answer) on one real
project, runs alternating, medians compared in one run. Target: <= 1.2x.

The project is the tests' calculator project (tests/tasks/projects.py) with 200 more
passing tests, so the run is a real pytest session rather than start-up alone.

    .venv/bin/python bench/tasks.py [--runs 7]

Prints a markdown table and writes it between markers into bench/results/latest.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "tasks"))
sys.path.insert(0, str(ROOT / "bench"))

from projects import PY, python_project, python_tasks  # noqa: E402

from report import write_block  # noqa: E402
from simple_brief import tools as registry  # noqa: E402
from simple_brief.files.workspace import Workspace  # noqa: E402
from simple_brief.tools import Call  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "latest.md"
MORE_TESTS = 200


def project(tmp: Path) -> Path:
    root = python_project(tmp / "calc")
    body = "".join(f"def test_calc_more_{i}():\n    assert {i} + 1 == {i + 1}\n\n\n" for i in range(MORE_TESTS))
    (root / "tests" / "test_calc_more.py").write_text(body, encoding="utf-8")
    (root / ".simple-brief.toml").write_text(python_tasks(), encoding="utf-8")
    return root


def direct_ms(root: Path, junit: Path) -> float:
    argv = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}", "-k", "test_calc"]
    start = time.perf_counter()
    subprocess.run(argv, cwd=root, capture_output=True, check=False, env={**os.environ, "PID_FILE": "pid.txt"})
    return (time.perf_counter() - start) * 1000


def tool_ms(root: Path) -> tuple[float, dict[str, object]]:
    call = Call(workspace=Workspace.at(root))
    start = time.perf_counter()
    result = registry.invoke("test_run", {"filter": "test_calc"}, call)
    return (time.perf_counter() - start) * 1000, result.data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = project(Path(tmp))
        os.environ["SIMPLE_BRIEF_CONFIG"] = str(Path(tmp) / "user.toml")
        (Path(tmp) / "user.toml").write_text(python_tasks(), encoding="utf-8")  # the user's own: no trust needed
        (root / ".simple-brief.toml").unlink()
        registry.load()
        tool_ms(root)  # warm: imports, the first pytest start-up
        ours, theirs = [], []
        data: dict[str, object] = {}
        for _ in range(args.runs):
            theirs.append(direct_ms(root, Path(tmp) / "direct.xml"))
            ms, data = tool_ms(root)
            ours.append(ms)
    o, t = statistics.median(ours), statistics.median(theirs)
    ratio = o / t
    counts = f"{data.get('passed')} passed, {data.get('failed')} failed, {data.get('skipped')} skipped"
    table = "\n".join(
        [
            f"## Tasks (`bench/tasks.py`, median of {args.runs} alternating runs)",
            "",
            "| Measure | Value | Baseline | Target | Result |",
            "| --- | --- | --- | --- | --- |",
            f"| `test_run filter=test_calc` on a pytest project ({counts}) | {o:.0f} ms ({ratio:.2f}x) | "
            f"the same pytest command run directly: {t:.0f} ms | <= 1.2x | {'pass' if ratio <= 1.2 else '**FAIL**'} |",
        ]
    )
    print(table)
    write_block(RESULTS, "tasks", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
