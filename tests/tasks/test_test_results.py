"""Test results read from real runs: pytest's JUnit XML (xunit2 and xunit1), `go test -json`,
and the list commands of pytest, go and cargo; names, statuses, counts, failure messages and
path:line locations exact. Hostile or broken reports are one UserError sentence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.tasks.go_tests import read_go_test_json
from simple_brief.tasks.test_results import (
    TestReport,
    parse_test_list,
    read_junit,
    resolve_path,
)

# Line numbers matter: the expected locations below are lines of these files.
TEST_APP = """\
import pytest


def check(x):
    assert x == 2, "x should be two"


def test_pass():
    assert True


def test_fail_helper():
    check(1)


def test_fail_inline():
    print("hello out")
    assert 1 + 1 == 3


@pytest.mark.skip(reason="not today")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False


@pytest.mark.parametrize("n", [1, 2])
def test_param(n):
    assert n == 1


class TestThing:
    def test_method(self):
        assert True

    def test_pass(self):
        assert True


@pytest.fixture
def broken():
    raise RuntimeError("boom")


def test_error(broken):
    pass
"""

TEST_MORE = """\
import json


def test_bad_json():
    json.loads("{")
"""

# (classname, name) -> (status, failure_message, path, line)
EXPECTED = {
    ("tests.test_app", "test_pass"): ("passed", "", "tests/test_app.py", 8),
    ("tests.test_app", "test_fail_helper"): (
        "failed",
        "AssertionError: x should be two\nassert 1 == 2",
        "tests/test_app.py",
        5,  # the failing line is in the helper the test called
    ),
    ("tests.test_app", "test_fail_inline"): ("failed", "assert (1 + 1) == 3", "tests/test_app.py", 18),
    ("tests.test_app", "test_skipped"): ("skipped", "not today", "tests/test_app.py", 22),
    ("tests.test_app", "test_xfail"): ("skipped", "known bug", "tests/test_app.py", 27),
    ("tests.test_app", "test_param[1]"): ("passed", "", "tests/test_app.py", 32),
    ("tests.test_app", "test_param[2]"): ("failed", "assert 2 == 1", "tests/test_app.py", 33),
    ("tests.test_app.TestThing", "test_method"): ("passed", "", "tests/test_app.py", 37),
    # Same name as the module-level test: found after `class TestThing`.
    ("tests.test_app.TestThing", "test_pass"): ("passed", "", "tests/test_app.py", 40),
    ("tests.test_app", "test_error"): ("error", 'failed on setup with "RuntimeError: boom"', "tests/test_app.py", 46),
    # Raised inside the standard library: the innermost frame of the project is the test's line.
    ("tests.unit.test_more", "test_bad_json"): (
        "failed",
        "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "tests/unit/test_more.py",
        5,
    ),
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pyproj")
    (root / "tests" / "unit").mkdir(parents=True)
    (root / "tests" / "test_app.py").write_text(TEST_APP, encoding="utf-8")
    (root / "tests" / "unit" / "test_more.py").write_text(TEST_MORE, encoding="utf-8")
    return root


def _pytest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args, "tests"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module", params=["xunit2", "xunit1"])
def junit_report(request: pytest.FixtureRequest, project: Path) -> TestReport:
    family = request.param
    done = _pytest(project, f"--junitxml={family}.xml", "-o", f"junit_family={family}", "-o", "junit_logging=all")
    assert done.returncode == 1, done.stdout + done.stderr
    return read_junit([project / f"{family}.xml"], project)


def test_pytest_junit_names_statuses_messages_and_locations(junit_report: TestReport) -> None:
    got = {(c.classname, c.name): (c.status, c.failure_message, c.path, c.line) for c in junit_report.cases}
    assert got == EXPECTED
    counts = (junit_report.passed, junit_report.failed, junit_report.errors, junit_report.skipped)
    assert counts == (4, 4, 1, 2)
    assert len(junit_report.cases) == 11


def test_pytest_junit_output_durations_and_tracebacks(junit_report: TestReport, project: Path) -> None:
    by_name = {c.name: c for c in junit_report.cases}
    # Captured output, without pytest's empty "Captured Log/Err" sections.
    assert "hello out" in by_name["test_fail_inline"].output
    assert "Captured Log" not in by_name["test_fail_inline"].output
    assert by_name["test_pass"].output == ""
    assert "tests/test_app.py:5: AssertionError" in by_name["test_fail_helper"].details
    assert all(c.duration_ms >= 0 for c in junit_report.cases)
    assert junit_report.duration_ms > 0
    assert resolve_path("tests/test_app.py", project) == project / "tests" / "test_app.py"


def test_definitions_are_found_by_class_and_name(tmp_path: Path) -> None:
    # Two classes with a method of the same name, a name that starts a longer one, and a
    # line that starts with `def` without defining anything.
    (tmp_path / "test_two.py").write_text(
        "default = 1\n\n"
        "class TestA:\n    def test_x_more(self): pass\n    def test_x(self): pass\n\n"
        "class TestB:\n    def test_x(self): pass\n\n"
        "def test_x(): pass\n",
        encoding="utf-8",
    )
    (tmp_path / "suite_test.go").write_text("package calc\n\nfunc (s *CalcSuite) TestAdd() {\n}\n", encoding="utf-8")
    cases = [("test_two.TestA", "test_x"), ("test_two.TestB", "test_x"), ("test_two", "test_x"), ("test_two", "ault")]
    xml = "".join(f'<testcase classname="{c}" name="{n}"/>' for c, n in cases)
    xml += '<testcase classname="CalcSuite" name="TestAdd" file="suite_test.go"/>'
    (tmp_path / "r.xml").write_text(f"<testsuite>{xml}</testsuite>", encoding="utf-8")
    report = read_junit([tmp_path / "r.xml"], tmp_path)
    # A testify suite method is found by its name after the receiver.
    assert [(c.path, c.line) for c in report.cases] == [
        ("test_two.py", 5),
        ("test_two.py", 8),
        ("test_two.py", 10),
        ("test_two.py", None),
        ("suite_test.go", 3),
    ]


def test_resolve_path_stays_under_the_root(tmp_path: Path) -> None:
    assert resolve_path(str(tmp_path / "a" / "b.py"), tmp_path) == tmp_path / "a" / "b.py"
    assert resolve_path("../outside.py", tmp_path) is None
    assert resolve_path("/etc/passwd", tmp_path) is None
    assert resolve_path("", tmp_path) is None


JEST_JUNIT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="2" failures="1" errors="0" time="0.512">
  <testsuite name="sum" errors="0" failures="1" skipped="0" tests="2" time="0.5">
    <testcase classname="sum adds numbers" name="sum adds numbers" time="0.002" file="src/sum.test.js">
    </testcase>
    <testcase classname="sum fails" name="sum fails" time="0.004" file="src/sum.test.js">
      <failure>Error: expect(received).toBe(expected)

Expected: 4
Received: 3
    at Object.toBe (/ROOT/src/sum.test.js:7:21)
    at Promise.then.completed (/ROOT/node_modules/jest-circus/build/utils.js:298:28)</failure>
    </testcase>
  </testsuite>
</testsuites>
"""


def test_jest_junit_file_attribute_and_stack_location(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "sum.test.js").write_text("// the test file the stack names\n", encoding="utf-8")
    report_file = tmp_path / "junit.xml"
    report_file.write_text(JEST_JUNIT.replace("/ROOT", str(tmp_path)), encoding="utf-8")
    report = read_junit([report_file], tmp_path)
    assert [(c.name, c.status, c.path, c.line) for c in report.cases] == [
        ("sum adds numbers", "passed", "src/sum.test.js", None),
        # The first frame outside node_modules in a JavaScript stack (innermost first).
        ("sum fails", "failed", str(tmp_path / "src" / "sum.test.js"), 7),
    ]
    # No message attribute: the failure text's first line.
    assert report.cases[1].failure_message == "Error: expect(received).toBe(expected)"
    assert (report.passed, report.failed, report.duration_ms) == (1, 1, 500.0)


# go-junit-report and cargo2junit, written by hand in their shapes (neither tool is here);
# the failure texts are what `go test -v` and `cargo test` print.
OTHER_JUNIT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="3" failures="2">
  <testsuite name="example.com/calc" tests="2" failures="1" time="0.003">
    <testcase classname="calc" name="TestAdd" time="0.000"></testcase>
    <testcase classname="calc" name="TestFail" time="0.001">
      <failure message="Failed" type="">    calc_test.go:12: about to fail
    calc_test.go:14: Add(1, 1) = 2, want 3</failure>
    </testcase>
  </testsuite>
  <testsuite name="tiny" tests="1" failures="1" time="0.07">
    <testcase name="tests::it_fails" classname="tiny" time="0.07">
      <failure type="cargo test" message="thread panicked">thread 'tests::it_fails' panicked at src/lib.rs:8:21:
assertion `left == right` failed
  left: 2
 right: 3
stack backtrace:
   4: tiny::tests::it_fails
             at ./src/lib.rs:8:21</failure>
    </testcase>
  </testsuite>
</testsuites>
"""


def test_go_junit_report_and_cargo2junit_shapes(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "calc_test.go").write_text(GO_TEST, encoding="utf-8")
    (tmp_path / "src" / "lib.rs").write_text("// the crate's tests\n", encoding="utf-8")
    (tmp_path / "junit.xml").write_text(OTHER_JUNIT, encoding="utf-8")
    report = read_junit([tmp_path / "junit.xml"], tmp_path)
    assert [(c.name, c.status, c.failure_message, c.path, c.line) for c in report.cases] == [
        ("TestAdd", "passed", "", None, None),
        # The last t.Error line of the test (t.Log before it is output, not the failure).
        ("TestFail", "failed", "Failed", "calc_test.go", 14),
        ("tests::it_fails", "failed", "thread panicked", "src/lib.rs", 8),
    ]


def test_pytest_collection_errors_name_the_module_and_the_line(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_imp.py").write_text("import nonexistent_mod\n", encoding="utf-8")
    (tmp_path / "tests" / "test_syntax.py").write_text("import os\n\nx = 1 +\n", encoding="utf-8")
    _pytest(tmp_path, "--junitxml=report.xml")
    report = read_junit([tmp_path / "report.xml"], tmp_path)
    got = {c.name: (c.classname, c.status, c.failure_message, c.path, c.line) for c in report.cases}
    assert got == {
        "tests.test_imp": (
            "",
            "error",
            "collection failure: ModuleNotFoundError: No module named 'nonexistent_mod'",
            "tests/test_imp.py",
            1,
        ),
        # pytest's own frames (site-packages, <frozen importlib>) are passed over for the
        # `File "…", line N` the SyntaxError names.
        "tests.test_syntax": (
            "",
            "error",
            "collection failure: SyntaxError: invalid syntax",
            str(tmp_path / "tests" / "test_syntax.py"),
            3,
        ),
    }
    assert report.errors == 2


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<testsuites><testsuite name="x"><testcase name="&lol3;"/></testsuite></testsuites>
"""


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (BOMB, "defines XML entities"),
        ('<testsuites><testsuite name="x"><testcase name="a"', "is not well-formed XML"),
        ("<html><body/></html>", "is XML but not a JUnit report"),
    ],
)
def test_a_hostile_or_broken_junit_file_is_one_user_error(tmp_path: Path, content: str, expected: str) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(UserError) as caught:
        read_junit([bad], tmp_path)
    message = str(caught.value)
    assert expected in message and "\n" not in message


def test_a_missing_report_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="does not exist"):
        read_junit([tmp_path / "nope.xml"], tmp_path)


GO_TEST = """\
package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("bad")
	}
}

func TestFail(t *testing.T) {
	t.Log("about to fail")
	if Add(1, 1) != 3 {
		t.Errorf("Add(1, 1) = %d, want 3", Add(1, 1))
	}
}

func TestSkip(t *testing.T) {
	t.Skip("not here")
}

func TestSub(t *testing.T) {
	t.Run("one", func(t *testing.T) {})
	t.Run("two", func(t *testing.T) { t.Error("sub failed") })
}
"""

GO_INNER_TEST = """\
package inner

import "testing"

func TestPanics(t *testing.T) {
	var m map[string]int
	m["x"] = 1
}
"""


def _go_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GOFLAGS="-mod=mod",
        GOCACHE=str(tmp_path / "gocache"),
        GOPATH=str(tmp_path / "gopath"),
        GOPROXY="off",
        GOTOOLCHAIN="local",
        CGO_ENABLED="0",
    )
    return env


@pytest.fixture
def go_module(tmp_path: Path) -> Path:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    root = tmp_path / "calc"
    (root / "inner").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/calc\n\ngo 1.19\n", encoding="utf-8")
    (root / "calc.go").write_text("package calc\n\nfunc Add(a, b int) int { return a + b }\n", encoding="utf-8")
    (root / "calc_test.go").write_text(GO_TEST, encoding="utf-8")
    (root / "inner" / "inner_test.go").write_text(GO_INNER_TEST, encoding="utf-8")
    return root


def test_go_test_json_names_statuses_messages_and_locations(go_module: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        ["go", "test", "-json", "./..."],
        cwd=go_module,
        env=_go_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    report = read_go_test_json(done.stdout, go_module)
    got = {(c.classname, c.name): (c.status, c.failure_message, c.path, c.line) for c in report.cases}
    assert got == {
        ("example.com/calc", "TestAdd"): ("passed", "", "calc_test.go", 5),
        # The last `file:line: message` the test logged (t.Errorf after a t.Log).
        ("example.com/calc", "TestFail"): ("failed", "Add(1, 1) = 2, want 3", "calc_test.go", 14),
        ("example.com/calc", "TestSkip"): ("skipped", "not here", "calc_test.go", 18),
        ("example.com/calc", "TestSub"): ("failed", "", "calc_test.go", 22),
        ("example.com/calc", "TestSub/one"): ("passed", "", "calc_test.go", 22),
        ("example.com/calc", "TestSub/two"): ("failed", "sub failed", "calc_test.go", 24),
        # A panic: its message and the first frame of the goroutine's trace inside the module.
        ("example.com/calc/inner", "TestPanics"): (
            "failed",
            "panic: assignment to entry in nil map [recovered]",
            str(go_module / "inner" / "inner_test.go"),
            7,
        ),
    }
    assert (report.passed, report.failed, report.errors, report.skipped) == (2, 4, 0, 1)
    assert "about to fail" in next(c.output for c in report.cases if c.name == "TestFail")


def test_go_build_failure_is_one_error_case(go_module: Path, tmp_path: Path) -> None:
    (go_module / "calc.go").write_text("package calc\n\nfunc Add(a, b int) int { return a + }\n", encoding="utf-8")
    done = subprocess.run(
        ["go", "test", "-json", "."],
        cwd=go_module,
        env=_go_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = read_go_test_json(done.stdout, go_module, done.stderr)
    assert [(c.name, c.status, c.path, c.line) for c in report.cases] == [("example.com/calc", "error", "./calc.go", 3)]
    assert report.cases[0].failure_message == "FAIL\texample.com/calc [build failed]"
    assert "syntax error" in report.cases[0].output


def test_go_build_output_events_locate_the_build_error(tmp_path: Path) -> None:
    # Go 1.24 reports the compiler's messages as `build-output` events (cmd/test2json's
    # documented actions), not on stderr; written by hand, as the go here is older.
    (tmp_path / "go.mod").write_text("module example.com/calc\n", encoding="utf-8")
    (tmp_path / "calc.go").write_text("package calc\n\nfunc Add(a, b int) int { return a + }\n", encoding="utf-8")
    events = [
        {"ImportPath": "example.com/calc [example.com/calc.test]", "Action": "build-output", "Output": "# x\n"},
        {
            "ImportPath": "example.com/calc [example.com/calc.test]",
            "Action": "build-output",
            "Output": "./calc.go:3:37: syntax error: unexpected }\n",
        },
        {"ImportPath": "example.com/calc [example.com/calc.test]", "Action": "build-fail"},
        {"Action": "start", "Package": "example.com/calc"},
        {"Action": "output", "Package": "example.com/calc", "Output": "FAIL\texample.com/calc [build failed]\n"},
        {"Action": "fail", "Package": "example.com/calc", "Elapsed": 0, "FailedBuild": "example.com/calc"},
    ]
    report = read_go_test_json("\n".join(json.dumps(e) for e in events), tmp_path)
    assert [(c.name, c.status, c.failure_message, c.path, c.line) for c in report.cases] == [
        ("example.com/calc", "error", "FAIL\texample.com/calc [build failed]", "./calc.go", 3)
    ]


def test_a_go_test_that_never_finished_is_one_error(tmp_path: Path) -> None:
    # The run stopped (a time limit) after TestSlow started: no pass/fail event for it.
    events = [
        {"Action": "run", "Package": "example.com/calc", "Test": "TestSlow"},
        {"Action": "output", "Package": "example.com/calc", "Test": "TestSlow", "Output": "=== RUN   TestSlow\n"},
        {"Action": "output", "Package": "example.com/calc", "Output": "FAIL\texample.com/calc\t600.0s\n"},
        {"Action": "fail", "Package": "example.com/calc", "Elapsed": 600},
    ]
    report = read_go_test_json("\n".join(json.dumps(e) for e in events), tmp_path)
    assert [(c.name, c.status) for c in report.cases] == [("TestSlow", "error")]
    assert report.errors == 1 and report.cases[0].failure_message.startswith("the test did not finish")


def test_go_json_with_no_event_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="go test -json"):
        read_go_test_json("ok  \texample.com/calc\t0.001s\n", tmp_path)


def test_pytest_collect_only_lists_node_ids(project: Path) -> None:
    done = _pytest(project, "--collect-only")
    assert parse_test_list(done.stdout, "pytest") == [
        "tests/test_app.py::test_pass",
        "tests/test_app.py::test_fail_helper",
        "tests/test_app.py::test_fail_inline",
        "tests/test_app.py::test_skipped",
        "tests/test_app.py::test_xfail",
        "tests/test_app.py::test_param[1]",
        "tests/test_app.py::test_param[2]",
        "tests/test_app.py::TestThing::test_method",
        "tests/test_app.py::TestThing::test_pass",
        "tests/test_app.py::test_error",
        "tests/unit/test_more.py::test_bad_json",
    ]


def test_pytest_collect_only_stops_before_its_warnings(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_w.py").write_text(
        "import warnings\n\n\ndef pytest_generate_tests(metafunc):\n"
        "    warnings.warn('while parametrizing ' + metafunc.definition.nodeid)\n\n\n"
        "def test_b():\n    pass\n",
        encoding="utf-8",
    )
    done = _pytest(tmp_path, "--collect-only")
    assert "tests/test_w.py::test_b" in done.stdout.split("warnings summary", 1)[1]
    assert parse_test_list(done.stdout, "pytest") == ["tests/test_w.py::test_b"]


def test_go_list_names_the_tests(go_module: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        ["go", "test", "-list", "."], cwd=go_module, env=_go_env(tmp_path), capture_output=True, text=True, timeout=300
    )
    assert parse_test_list(done.stdout, "go") == ["TestAdd", "TestFail", "TestSkip", "TestSub"]


def test_cargo_list_names_the_tests(tmp_path: Path) -> None:
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    crate = tmp_path / "crate"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text(
        '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n', encoding="utf-8"
    )
    (crate / "src" / "lib.rs").write_text(
        "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n"
        "#[cfg(test)]\nmod tests {\n    #[test]\n    fn it_adds() { assert_eq!(super::add(1, 2), 3); }\n"
        "    #[test]\n    fn it_fails() { assert_eq!(super::add(1, 1), 3); }\n}\n",
        encoding="utf-8",
    )
    env = dict(os.environ, CARGO_TARGET_DIR=str(tmp_path / "target"))
    done = subprocess.run(
        ["cargo", "test", "--offline", "--quiet", "--", "--list"],
        cwd=crate,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert parse_test_list(done.stdout, "cargo") == ["tests::it_adds", "tests::it_fails"]


def test_an_unknown_runner_is_a_user_error() -> None:
    with pytest.raises(UserError, match="no test list reader"):
        parse_test_list("", "maven")
