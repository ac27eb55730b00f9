"""test_run's counts are what the runner printed, with a task declared the obvious way (no
reporter flag): simple-brief adds the runner's structured reporter itself, reads the
runner's own summary line when there is none, and says so when it could read neither.
Every runner here is really run: pytest and unittest from the venv, cargo, go, node --test
and the jest, vitest and mocha of the project's package.json devDependencies."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from projects import call_tool, cargo, declare

PY = sys.executable
REPO = Path(__file__).resolve().parents[2]

ONE_FAILS_ONE_PASSES = """\
def test_passes():
    assert 1 + 1 == 2


def test_fails():
    assert 1 + 1 == 3
"""


def _toml_list(words: list[str]) -> str:
    return "[" + ", ".join(f'"{w}"' for w in words) + "]"


def _pytest_project(root: Path) -> Path:
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_two.py").write_text(ONE_FAILS_ONE_PASSES, encoding="utf-8")
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    return root


def test_the_obvious_pytest_task_counts_one_failed_one_passed(tmp_path: Path) -> None:
    """The issue's case: `python -m pytest -q`, no --junitxml, trusted: `1 failed, 1 passed`."""
    root = _pytest_project(tmp_path / "app")
    declare(root, f"[tasks.test]\nargv = {_toml_list([PY, '-m', 'pytest', '-q'])}\n")
    result = call_tool(root, "test_run")
    data = result.data
    assert (data["passed"], data["failed"], data["skipped"], data["errors"]) == (1, 1, 0, 0)
    assert data["counts_from"] == "JUnit XML"
    head = result.blocks[0]
    assert "1 passed, 1 failed, 0 skipped" in head and "could not be read" not in head
    assert {r["name"]: r["status"] for r in data["results"]} == {"test_passes": "passed", "test_fails": "failed"}
    assert "tests/test_two.py:6 FAILED test_fails: " in result.text
    assert "--junitxml=" in " ".join(data["timings"]["phases"][0]["argv"])


def test_pytest_through_uv_style_wrappers_is_recognised() -> None:
    from simple_brief.tasks.test_runners import recognise

    for argv in (
        ["uv", "run", "pytest", "-q"],
        ["uv", "run", "--frozen", "python", "-m", "pytest"],
        ["poetry", "run", "pytest"],
        [".venv/bin/python3.12", "-X", "dev", "-m", "pytest"],
        ["py.test"],
    ):
        found = recognise(argv)
        assert found is not None and found.runner == "pytest" and found.reporter == ("--junitxml={junit}",), argv
    declared = recognise(["pytest", "--junitxml=out.xml"])
    assert declared is not None and declared.declared_reporter and not declared.reporter
    assert recognise(["python", "script.py", "-m", "pytest"]) is None
    assert recognise(["python", "-c", "import pytest"]) is None


def test_when_the_report_is_gone_the_summary_line_still_counts(tmp_path: Path) -> None:
    """A pytest told not to write JUnit XML (`-p no:junitxml`): its closing line is read."""
    root = _pytest_project(tmp_path / "app")
    declare(root, f"[tasks.test]\nargv = {_toml_list([PY, '-m', 'pytest', '-q', '-p', 'no:junitxml'])}\n")
    result = call_tool(root, "test_run")
    assert (result.data["passed"], result.data["failed"]) == (1, 1)
    assert result.data["counts_from"] == "pytest's summary line"
    assert "1 passed, 1 failed, 0 skipped (from pytest's summary line; no per-test results)" in result.blocks[0]
    assert "1 failed, 1 passed in " in result.text


def test_a_broken_report_leaves_the_summary_lines_counts_and_says_why(tmp_path: Path) -> None:
    """A plugin spoils the JUnit file after pytest wrote it: the summary line still counts."""
    root = _pytest_project(tmp_path / "app")
    (root / "conftest.py").write_text(
        "def pytest_unconfigure(config):\n"
        "    if config.option.xmlpath:\n"
        "        open(config.option.xmlpath, 'w').write('<testsuites><testcase')\n",
        encoding="utf-8",
    )
    declare(root, f"[tasks.test]\nargv = {_toml_list([PY, '-m', 'pytest', '-q'])}\n")
    result = call_tool(root, "test_run")
    assert (result.data["passed"], result.data["failed"]) == (1, 1)
    assert result.data["counts_from"] == "pytest's summary line"
    assert "The run's structured results could not be read: " in result.text and "not well-formed XML" in result.text


UNITTEST_CASES = """\
import unittest


class Sums(unittest.TestCase):
    def test_passes(self):
        self.assertEqual(1 + 1, 2)

    def test_fails(self):
        self.assertEqual(1 + 1, 3)

    def test_errors(self):
        raise RuntimeError("boom")

    @unittest.skip("not today")
    def test_skipped(self):
        pass
"""


def test_unittest_counts_come_from_its_ran_and_failed_lines(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "test_sums.py").write_text(UNITTEST_CASES, encoding="utf-8")
    declare(root, f"[tasks.test]\nargv = {_toml_list([PY, '-m', 'unittest'])}\n")
    result = call_tool(root, "test_run")
    data = result.data
    assert (data["passed"], data["failed"], data["skipped"], data["errors"]) == (1, 1, 1, 1)
    assert data["counts_from"] == "unittest's summary lines"
    assert "FAILED (failures=1, errors=1, skipped=1)" in result.text
    # Its FAIL/ERROR sections name the failing tests, located in the test file.
    assert "test_sums.py:9 FAILED test_sums.Sums.test_fails: AssertionError: 2 != 3" in result.text
    assert "test_sums.py:12 ERROR test_sums.Sums.test_errors: RuntimeError: boom" in result.text
    assert {r["name"]: r["location"] for r in data["results"]} == {
        "test_sums.Sums.test_fails": "test_sums.py:9",
        "test_sums.Sums.test_errors": "test_sums.py:12",
    }


def test_a_make_target_running_pytest_is_counted_from_the_summary_line(tmp_path: Path) -> None:
    """The runner is behind `make test`: not recognised, so every summary reader is tried."""
    root = _pytest_project(tmp_path / "app")
    (root / "Makefile").write_text(f"test:\n\t{PY} -m pytest -q\n", encoding="utf-8")
    declare(root, '[tasks.test]\nargv = ["make", "-s", "test"]\n')
    result = call_tool(root, "test_run")
    assert (result.data["passed"], result.data["failed"]) == (1, 1)
    assert "(from pytest's summary line; no per-test results)" in result.blocks[0]


def test_counts_that_cannot_be_read_are_said_in_the_first_line(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "check.py").write_text("print('all good, I think')\n", encoding="utf-8")
    declare(root, f"[tasks.test]\nargv = {_toml_list([PY, 'check.py'])}\n")
    result = call_tool(root, "test_run")
    assert "the test counts could not be read" in result.blocks[0]
    assert "0 passed" not in result.text
    assert result.data["counts_from"] is None and result.data["passed"] is None
    assert "all good, I think" in result.text


# ------------------------------------------------------------------- cargo and go


CARGO_LIB = """\
/// ```
/// assert_eq!(calc::add(2, 2), 4);
/// ```
pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn passes() { assert_eq!(add(1, 1), 2); }
    #[test]
    fn fails() { assert_eq!(add(1, 1), 3); }
    #[test]
    #[ignore]
    fn later() {}
}
"""


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    if cargo() is None:
        pytest.skip("cargo is not installed (make test does not install a Rust toolchain)")
    root = tmp_path / "calc"
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / "src" / "lib.rs").write_text(CARGO_LIB, encoding="utf-8")
    return root


def test_cargo_test_quiet_has_no_per_test_lines_but_its_result_lines_count(crate: Path) -> None:
    program = cargo()
    assert program is not None
    env = f'env = {{ CARGO_TARGET_DIR = "{crate / "target"}", CARGO_NET_OFFLINE = "true" }}\n'
    declare(crate, f"[tasks.test]\nargv = {_toml_list([program, 'test', '-q'])}\ntimeout_s = 300\n{env}")
    result = call_tool(crate, "test_run")
    data = result.data
    # One lib target with 1 pass, 1 fail, 1 ignored: doc-tests never run (the lib tests failed first).
    assert (data["passed"], data["failed"], data["skipped"]) == (1, 1, 1), result.text
    assert data["counts_from"] == "cargo's summary line"
    # --no-fail-fast: the doc-tests run too; their names have spaces.
    argv = [program, "test", "--no-fail-fast"]
    declare(crate, f"[tasks.test]\nargv = {_toml_list(argv)}\ntimeout_s = 300\n{env}")
    result = call_tool(crate, "test_run")
    assert result.data["counts_from"] == "cargo's test lines"
    assert {r["name"]: r["status"] for r in result.data["results"]} == {
        "tests::passes": "passed",
        "tests::fails": "failed",
        "tests::later": "skipped",
        "src/lib.rs - add (line 1)": "passed",
    }
    assert (result.data["passed"], result.data["failed"], result.data["skipped"]) == (2, 1, 1)


GO_TESTS = """\
package calc

import "testing"

func TestPasses(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("math")
	}
}

func TestFails(t *testing.T) {
	t.Errorf("1 + 1 = %d, want 3", 1+1)
}
"""


def _go_env(tmp_path: Path) -> str:
    cache, gopath = tmp_path / "gocache", tmp_path / "gopath"
    return (
        f'env = {{ GOCACHE = "{cache}", GOPATH = "{gopath}", GOPROXY = "off", GOFLAGS = "-mod=mod", '
        'GOTOOLCHAIN = "local", CGO_ENABLED = "0" }\ntimeout_s = 300\n'
    )


@pytest.fixture
def go_module(tmp_path: Path) -> Path:
    if shutil.which("go") is None:
        pytest.skip("go is not installed (make test does not install a Go toolchain)")
    root = tmp_path / "calc"
    root.mkdir()
    (root / "go.mod").write_text("module example.com/calc\n\ngo 1.19\n", encoding="utf-8")
    (root / "calc_test.go").write_text(GO_TESTS, encoding="utf-8")
    return root


def test_plain_go_test_gets_json_added(go_module: Path, tmp_path: Path) -> None:
    declare(go_module, f'[tasks.test]\nargv = ["go", "test", "./..."]\n{_go_env(tmp_path)}')
    result = call_tool(go_module, "test_run")
    assert (result.data["passed"], result.data["failed"]) == (1, 1), result.text
    assert result.data["counts_from"] == "go test -json"
    go, *rest = result.data["timings"]["phases"][0]["argv"]
    assert (Path(go).name, rest[:2]) == ("go", ["test", "-json"])  # the program as resolved on PATH
    assert "calc_test.go:12 FAILED TestFails: 1 + 1 = 2, want 3" in result.text


def test_go_without_json_says_what_its_lines_do_not_count(go_module: Path, tmp_path: Path) -> None:
    """`go test -json=false` names a reporter choice: nothing is added; the FAIL lines are read
    and the answer says the passes were not printed."""
    declare(go_module, f'[tasks.test]\nargv = ["go", "test", "-json=false", "./..."]\n{_go_env(tmp_path)}')
    result = call_tool(go_module, "test_run")
    assert result.data["failed"] == 1 and result.data["counts_from"] == "go's summary line"
    assert result.data["passed"] is None and "passes not counted, 1 failed" in result.blocks[0]
    go, *rest = result.data["timings"]["phases"][0]["argv"]
    assert (Path(go).name, rest) == ("go", ["test", "-json=false", "./..."])
    assert "Not counted: go printed no line per passing test" in result.text
    assert "FAIL\texample.com/calc" in result.text


# ------------------------------------------------------------------- JavaScript runners


NODE_TESTS = """\
const { test } = require('node:test');
const assert = require('node:assert');
test('passes', () => { assert.strictEqual(1 + 1, 2); });
test('fails', () => { assert.strictEqual(1 + 1, 3); });
test('later', { skip: true }, () => {});
"""

JEST_TESTS = """\
const assert = require('assert');
test('passes', () => { assert.strictEqual(1 + 1, 2); });
test('fails', () => { assert.strictEqual(1 + 1, 3); });
test.skip('later', () => {});
"""

VITEST_TESTS = """\
import { test, expect } from 'vitest';
test('passes', () => { expect(1 + 1).toBe(2); });
test('fails', () => { expect(1 + 1).toBe(3); });
test.skip('later', () => {});
"""

MOCHA_TESTS = """\
const assert = require('assert');
describe('sums', () => {
  it('passes', () => { assert.strictEqual(1 + 1, 2); });
  it('fails', () => { assert.strictEqual(1 + 1, 3); });
  it.skip('later', () => {});
});
"""


def _node_project(root: Path, runner: str, test_file: str, source: str, script: str) -> Path:
    """A package whose test runner is the repository's own devDependency (node_modules linked in)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    (root / "test").mkdir(parents=True)
    (root / "test" / test_file).write_text(source, encoding="utf-8")
    (root / "package.json").write_text(
        '{"name": "sums", "private": true, "scripts": {"test": "' + script + '"}}\n', encoding="utf-8"
    )
    if runner != "node":
        modules = REPO / "node_modules"
        if shutil.which("npm") is None and not (modules / runner).is_dir():
            pytest.skip("npm is not installed, so make test installs no Node tools")
        assert (modules / runner / "package.json").is_file(), f"{runner} is a devDependency: run `make test`"
        os.symlink(modules, root / "node_modules")
    return root


def test_node_test_gets_the_junit_reporter(tmp_path: Path) -> None:
    root = _node_project(tmp_path / "sums", "node", "sums.test.js", NODE_TESTS, "node --test")
    declare(root, '[tasks.test]\nargv = ["node", "--test", "test/"]\n')
    result = call_tool(root, "test_run")
    data = result.data
    assert (data["passed"], data["failed"], data["skipped"]) == (1, 1, 1), result.text
    assert data["counts_from"] == "JUnit XML"
    assert "test/sums.test.js:4 FAILED fails:" in result.text


def test_node_test_through_npm_is_counted_from_its_summary(tmp_path: Path) -> None:
    root = _node_project(tmp_path / "sums", "node", "sums.test.js", NODE_TESTS, "node --test test/")
    declare(root, '[tasks.test]\nargv = ["npm", "test"]\n')
    result = call_tool(root, "test_run")
    assert (result.data["passed"], result.data["failed"], result.data["skipped"]) == (1, 1, 1), result.text
    assert result.data["counts_from"] == "node's summary lines"


@pytest.mark.parametrize(
    ("runner", "test_file", "source", "script", "counts_from"),
    [
        ("jest", "sums.test.js", JEST_TESTS, "jest", "jest --json"),
        ("vitest", "sums.test.mjs", VITEST_TESTS, "vitest run", "JUnit XML"),
        ("mocha", "sums.spec.js", MOCHA_TESTS, "mocha", "JUnit XML"),
    ],
)
def test_js_runners_get_their_reporter_directly_and_through_npm(
    tmp_path: Path, runner: str, test_file: str, source: str, script: str, counts_from: str
) -> None:
    root = _node_project(tmp_path / "sums", runner, test_file, source, script)
    # vitest's bundler reserves WebAssembly memory far past the default address-space limit.
    memory = "memory_mb = 0\n" if runner == "vitest" else ""
    for argv in (["npx", *script.split()], ["npm", "test"]):
        declare(root, f"[tasks.test]\nargv = {_toml_list(argv)}\ntimeout_s = 300\n{memory}")
        result = call_tool(root, "test_run")
        data = result.data
        assert (data["passed"], data["failed"], data["skipped"]) == (1, 1, 1), (argv, result.text)
        assert data["counts_from"] == counts_from, argv
        failed = [r for r in data["results"] if r["status"] == "failed"]
        assert len(failed) == 1 and failed[0]["location"].startswith("test/" + test_file), failed


# ------------------------------------------------------------------- no [tasks]: detected


def _venv_seeing_ours(root: Path) -> None:
    """A real venv in the project whose site-packages lead to this one's (pytest and all)."""
    import site
    import subprocess
    import sysconfig

    subprocess.run([PY, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    packages = root / ".venv" / "lib" / version / "site-packages"
    ours = [p for p in [*site.getsitepackages(), sysconfig.get_path("purelib")] if Path(p).is_dir()]
    (packages / "ours.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")


def test_a_trusted_workspace_with_no_tasks_runs_the_detected_runner(tmp_path: Path) -> None:
    root = _pytest_project(tmp_path / "app")
    (root / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n', encoding="utf-8")
    _venv_seeing_ours(root)
    declare(root, "")  # an empty .simple-brief.toml, trusted: the person trusts the workspace
    result = call_tool(root, "test_run")
    data = result.data
    assert (data["passed"], data["failed"]) == (1, 1), result.text
    assert data["detected"]["argv"] == [".venv/bin/python", "-m", "pytest", "-q"]
    assert result.blocks[1].startswith("No [tasks.test] is declared: ran `.venv/bin/python -m pytest -q`, detected")
    assert "1 passed, 1 failed" in result.blocks[0]
    listed = call_tool(root, "test_list")
    assert listed.data["tests"] == ["tests/test_two.py::test_passes", "tests/test_two.py::test_fails"]
    assert listed.data["detected"]["argv"] == [".venv/bin/python", "-m", "pytest", "--collect-only", "-q"]


def test_an_untrusted_workspace_names_the_detected_command_and_runs_nothing(tmp_path: Path) -> None:
    root = _pytest_project(tmp_path / "app")
    (root / "tests" / "test_two.py").write_text(
        "from pathlib import Path\n\n\ndef test_writes():\n    Path('ran.txt').write_text('x')\n", encoding="utf-8"
    )
    for config_text in (None, "[limits]\nbudget = 5000\n"):
        if config_text is not None:
            (root / ".simple-brief.toml").write_text(config_text, encoding="utf-8")  # written, never trusted
        result = call_tool(root, "test_run")
        assert result.data["declared"] is False
        assert "this workspace is not trusted" in result.blocks[0] and "simple-brief trust" in result.blocks[0]
        assert 'argv = ["python3", "-m", "pytest", "-q"]' in result.text
        assert not (root / "ran.txt").exists()


def test_a_python_project_without_pytest_is_detected_as_unittest(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "setup.py").write_text("from setuptools import setup\nsetup(name='app')\n", encoding="utf-8")
    (root / "test_sums.py").write_text(UNITTEST_CASES, encoding="utf-8")
    declare(root, "")
    result = call_tool(root, "test_run")
    assert result.data["detected"]["argv"] == ["python3", "-m", "unittest"]
    assert (result.data["passed"], result.data["failed"], result.data["errors"]) == (1, 1, 1), result.text


# ------------------------------------------------------------------- the summary readers, on real output


@pytest.mark.parametrize(
    ("runner", "test_file", "source", "command"),
    [
        ("jest", "sums.test.js", JEST_TESTS, ["node_modules/.bin/jest", "--ci"]),
        ("vitest", "sums.test.mjs", VITEST_TESTS, ["node_modules/.bin/vitest", "run"]),
        ("mocha", "sums.spec.js", MOCHA_TESTS, ["node_modules/.bin/mocha"]),
        ("node", "sums.test.js", NODE_TESTS, ["node", "--test", "--test-reporter=tap", "test/"]),
        ("node", "sums.test.js", NODE_TESTS, ["node", "--test", "--test-reporter=spec", "test/"]),
    ],
)
def test_each_js_summary_reader_counts_the_runners_own_closing_lines(
    tmp_path: Path, runner: str, test_file: str, source: str, command: list[str]
) -> None:
    """The runner's default console output, really printed (colours forced on where it has
    them), read by its own reader and by the try-every-reader path of an unknown command."""
    import subprocess

    from simple_brief.tasks.test_summaries import read_summary

    root = _node_project(tmp_path / "sums", runner, test_file, source, "true")
    env = {**os.environ, "FORCE_COLOR": "1"}
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    for asked in (runner, None):
        found = read_summary([output], asked)
        assert found is not None, output
        assert (found.runner, found.passed, found.failed, found.skipped) == (runner, 1, 1, 1), (asked, output)


def test_live_progress_counts_pytest_q_lines(tmp_path: Path) -> None:
    """`pytest -q` prints `.F   [100%]` with no file name: the live counter reads it too."""
    import subprocess

    from simple_brief.tasks.runner import Counter

    root = _pytest_project(tmp_path / "app")
    done = subprocess.run([PY, "-m", "pytest", "-q"], cwd=root, capture_output=True, text=True, timeout=120)
    counter = Counter()
    for at in range(0, len(done.stdout), 7):  # as it arrives, in pieces
        counter.feed(done.stdout[at : at + 7])
    counter.feed("\n")
    assert (counter.passed, counter.failed, counter.skipped) == (1, 1, 0), done.stdout


def test_pytest_or_unittest_is_told_by_the_test_files_when_nothing_else_says(tmp_path: Path) -> None:
    from simple_brief.tasks.declared import detect

    def detected(name: str, text: str) -> list[str]:
        root = tmp_path / name
        (root / "tests").mkdir(parents=True)
        (root / "tests" / "test_it.py").write_text(text, encoding="utf-8")
        return [s.tasks["test"]["argv"] for s in detect(root)]

    assert detected("functions", "def test_it():\n    assert True\n") == [["python3", "-m", "pytest", "-q"]]
    assert detected("cases", UNITTEST_CASES) == [["python3", "-m", "unittest"]]
    assert detected("marked", "import pytest\nimport unittest\nclass T(unittest.TestCase): pass\n") == [
        ["python3", "-m", "pytest", "-q"]
    ]


# ------------------------------------------------------------------- a real suite nobody here wrote

PYTEST_ORACLE = """\
import json, sys, pytest

class Outcomes:
    def __init__(self):
        self.counts = {"passed": 0, "failed": 0, "skipped": 0, "errors": 0}

    def pytest_runtest_logreport(self, report):
        if report.when == "call":
            self.counts[report.outcome] += 1
        elif report.outcome == "skipped":
            self.counts["skipped"] += 1
        elif report.outcome == "failed":
            self.counts["errors"] += 1

outcomes = Outcomes()
pytest.main(sys.argv[2:], plugins=[outcomes])
open(sys.argv[1], "w").write(json.dumps(outcomes.counts))
"""

UNITTEST_ORACLE = """\
import json, sys, unittest

suite = unittest.defaultTestLoader.discover("pyflakes/test", top_level_dir=".")
result = unittest.TestResult()
suite.run(result)
failed = len(result.failures) + len(result.unexpectedSuccesses)
skipped = len(result.skipped) + len(result.expectedFailures)
errors = len(result.errors)
counts = {"passed": result.testsRun - failed - skipped - errors, "failed": failed, "skipped": skipped, "errors": errors}
open(sys.argv[1], "w").write(json.dumps(counts))
"""


def test_pyflakes_own_suite_counts_match_what_the_runners_report_in_process(tmp_path: Path) -> None:
    """pyflakes' test suite (copied from site-packages: 700+ tests, some failing outside its
    checkout) through test_run, against each runner's own in-process count of outcomes."""
    import json
    import subprocess

    import pyflakes

    root = tmp_path / "pf"
    root.mkdir()
    shutil.copytree(Path(pyflakes.__file__).parent, root / "pyflakes")
    oracles = {}
    for name, script, argv in (
        ("pytest", PYTEST_ORACLE, ["-q", "-p", "no:cacheprovider", "pyflakes/test"]),
        ("unittest", UNITTEST_ORACLE, []),
    ):
        (tmp_path / f"{name}_oracle.py").write_text(script, encoding="utf-8")
        out = tmp_path / f"{name}.json"
        subprocess.run([PY, str(tmp_path / f"{name}_oracle.py"), str(out), *argv], cwd=root, capture_output=True)
        oracles[name] = json.loads(out.read_text())
    assert sum(oracles["pytest"].values()) > 700 and oracles["pytest"] == oracles["unittest"]
    pytest_argv = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "pyflakes/test"]
    for argv, counts_from in (
        (pytest_argv, "JUnit XML"),
        ([*pytest_argv, "-p", "no:junitxml"], "pytest's summary line"),
        ([PY, "-m", "unittest", "discover", "-s", "pyflakes/test", "-t", "."], "unittest's summary lines"),
    ):
        declare(root, f"[tasks.test]\nargv = {_toml_list(argv)}\ntimeout_s = 300\n")
        data = call_tool(root, "test_run").data
        got = {key: data[key] for key in ("passed", "failed", "skipped", "errors")}
        assert (got, data["counts_from"]) == (oracles["pytest"], counts_from), argv
