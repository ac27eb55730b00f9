"""Small real projects the task tools run on (written into a test's tmp folder): a Python
project tested with the venv's real pytest, a C project built by gcc through make, a Rust
crate built by cargo; and the calls to run tools as an agent would."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from simple_brief import tools as registry
from simple_brief.files.workspace import Workspace
from simple_brief.tools import Call, ToolResult

from conftest import write_trusted_config

PY = sys.executable

CALC = '''"""A tiny calculator."""


def add(a, b):
    return a + b


def ratio(a, b):
    return a / b


def never_called(x):
    if x:
        return x * 2
    return 0
'''

TEST_CALC = """import pytest

from calc import add, ratio


def check_sum(a, b, expected):
    assert add(a, b) == expected, f"{a} + {b} should be {expected}"


def test_add():
    assert add(1, 2) == 3


def test_ratio():
    assert ratio(6, 3) == 2


def test_add_wrong():
    assert add(2, 2) == 5


def test_sum_in_a_helper():
    check_sum(1, 1, 3)


@pytest.mark.skip(reason="not today")
def test_skipped():
    pass
"""

TEST_LIMITS = """import os
import sys
import time


def test_quick_one():
    assert True


def test_sleeps_past_its_limit():
    with open(os.environ["PID_FILE"], "w") as handle:
        handle.write(str(os.getpid()))
    time.sleep(120)


def test_allocates_past_its_limit():
    block = bytearray(2 * 1024 * 1024 * 1024)
    assert block


def test_prints_megabytes():
    for _ in range(20000):
        print("x" * 1000)
    sys.stdout.flush()
    assert False, "printed everything"

"""

PROFILED = """def slow_sum(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def quick():
    return 1


def main():
    for _ in range(3):
        slow_sum(300_000)
    quick()


main()
"""


def python_project(root: Path) -> Path:
    """A pytest project: passing, failing, skipped tests; limit tests behind a filter."""
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "calc"\nversion = "0"\n', encoding="utf-8")
    (root / "calc.py").write_text(CALC, encoding="utf-8")
    (root / "tests" / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    (root / "tests" / "test_limits.py").write_text(TEST_LIMITS, encoding="utf-8")
    (root / "conftest.py").write_text("", encoding="utf-8")  # rootdir on sys.path: `import calc`
    (root / "profiled.py").write_text(PROFILED, encoding="utf-8")
    return root


def python_tasks(timeout_s: float = 300, memory_mb: int = 4096, output_mb: float = 8) -> str:
    """The tasks of the Python project, as a person would declare them."""
    limits = f"timeout_s = {timeout_s}\nmemory_mb = {memory_mb}\noutput_mb = {output_mb}\n"
    return (
        "[tasks.test]\n"
        f'argv = ["{PY}", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml={{junit}}"]\n'
        'filter = ["-k", "{filter}"]\n'
        'env = { PID_FILE = "pid.txt" }\n'
        f"{limits}"
        "[tasks.test_list]\n"
        f'argv = ["{PY}", "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]\n'
        "[tasks.coverage]\n"
        f'argv = [["{PY}", "-m", "coverage", "run", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "test_calc"],'
        f' ["{PY}", "-m", "coverage", "json", "-o", "{{report}}"]]\n'
        "[tasks.profile]\n"
        f'argv = ["{PY}", "-m", "cProfile", "-o", "{{report}}", "{{file}}"]\n'
    )


MAKEFILE = """app: main.c
\tgcc -Wall -fdiagnostics-parseable-fixits -o app main.c

clean:
\trm -f app
"""

MAIN_BROKEN = """#include <stdio.h>

struct point { int length; };

int main(void) {
    struct point p = { 3 };
    printf("%d\\n", p.lenght);
    return 0;
}
"""


def c_project(root: Path, source: str = MAIN_BROKEN) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "Makefile").write_text(MAKEFILE, encoding="utf-8")
    (root / "main.c").write_text(source, encoding="utf-8")
    return root


C_TASKS = '[tasks.build]\nargv = ["make"]\nartifacts = ["app"]\n[tasks.clean]\nargv = ["make", "clean"]\n'


def cargo() -> str | None:
    return shutil.which("cargo") or (
        str(Path.home() / ".cargo/bin/cargo") if (Path.home() / ".cargo/bin/cargo").exists() else None
    )


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def declare(root: Path, text: str) -> None:
    """Write the workspace config and trust it, as the person would."""
    write_trusted_config(root, text)


def call_tool(root: Path, name: str, **params: Any) -> ToolResult:
    """Run a tool as the CLI's `run` would, on the workspace at `root`."""
    call = Call(workspace=Workspace.at(root))
    try:
        return registry.invoke(name, params, call)
    finally:
        call.session.close()
