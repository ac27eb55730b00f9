"""Coverage reports from a real `coverage run -m pytest` on a tiny project, written as
coverage.py JSON, Cobertura XML and lcov: the three readers agree on totals and missing
lines. Hostile and broken files are one UserError sentence, never a traceback or a hang."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.tasks.coverage_reports import CoverageReport, least_covered, read_coverage
from simple_brief.tasks.test_results import resolve_path

CALC = """\
def add(a, b):
    return a + b


def sign(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


def unused():
    total = 0
    for i in range(3):
        total += i
    return total
"""

TEST_CALC = """\
from pkg.calc import add, sign


def test_add():
    assert add(1, 2) == 3


def test_sign():
    assert sign(5) == 1
"""

FORMATS = {"json": "cov.json", "xml": "cov.xml", "lcov": "cov.lcov"}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("covproj")
    (root / "pkg").mkdir()
    (root / "tests").mkdir()
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "calc.py").write_text(CALC, encoding="utf-8")
    (root / "tests" / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")

    def coverage(*args: str) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "coverage", *args], cwd=root, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout + done.stderr

    coverage("run", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    for kind, name in FORMATS.items():
        coverage(kind, "-o", name, "-q")
    return root


def _by_file(report: CoverageReport, root: Path) -> dict[Path | None, tuple[int, int, list[int]]]:
    return {resolve_path(f.path, root): (f.statements, f.covered, f.missing_lines) for f in report.files}


def test_the_three_formats_agree(project: Path) -> None:
    reports = {kind: read_coverage(project / name) for kind, name in FORMATS.items()}
    totals = {kind: (r.statements, r.covered, round(r.percent, 6)) for kind, r in reports.items()}
    # pkg/calc.py: 13 statements, 6 run; tests/test_calc.py: 5 statements, all run.
    assert totals == dict.fromkeys(FORMATS, (18, 11, round(100 * 11 / 18, 6)))
    files = {kind: _by_file(r, project) for kind, r in reports.items()}
    assert files["json"] == files["xml"] == files["lcov"]
    calc = files["json"][project / "pkg" / "calc.py"]
    # The branches sign() never took (8-10) and the body of unused() (14-17).
    assert calc == (13, 6, [8, 9, 10, 14, 15, 16, 17])


def test_paths_are_as_the_report_gives_them(project: Path) -> None:
    assert {f.path for f in read_coverage(project / "cov.json").files} == {
        "pkg/__init__.py",
        "pkg/calc.py",
        "tests/test_calc.py",
    }
    # Cobertura names files relative to its <source>: joined to it.
    assert str(project / "pkg" / "calc.py") in {f.path for f in read_coverage(project / "cov.xml").files}


def test_least_covered_skips_empty_files_and_orders_by_percent(project: Path) -> None:
    report = read_coverage(project / "cov.lcov")
    assert [(f.path, round(f.percent, 2)) for f in least_covered(report, 5)] == [
        ("pkg/calc.py", 46.15),
        ("tests/test_calc.py", 100.0),
    ]
    assert [f.path for f in least_covered(report, 1)] == ["pkg/calc.py"]


def test_lcov_records_of_one_file_merge(tmp_path: Path) -> None:
    tracefile = tmp_path / "lcov.info"
    tracefile.write_text(
        "TN:\nSF:src/a.c\nDA:1,0\nDA:2,0\nend_of_record\nTN:\nSF:src/a.c\nDA:1,3\nDA:3,0\nend_of_record\n",
        encoding="utf-8",
    )
    report = read_coverage(tracefile)
    assert [(f.path, f.statements, f.covered, f.missing_lines) for f in report.files] == [("src/a.c", 3, 1, [2, 3])]


GCOVR = """<?xml version="1.0" ?>
<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">
<coverage line-rate="0.5" lines-covered="2" lines-valid="4" version="gcovr 7.2">
  <sources><source>.</source><source>lib</source></sources>
  <packages><package name="p"><classes>
    <class name="util_c" filename="util.c"><lines>
      <line number="3" hits="4"/><line number="4" hits="0"/>
    </lines></class>
    <class name="main_c" filename="main.c"><lines>
      <line number="1" hits="1"/><line number="2" hits="0" branch="true" condition-coverage="50% (1/2)"/>
    </lines></class>
  </classes></package></packages>
</coverage>
"""


def test_cobertura_with_relative_sources_and_a_doctype(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # gcovr's shape: a DOCTYPE naming the DTD (allowed: no entity), relative <source>s, the
    # file found under the second one; looked for from the report's folder, not the cwd.
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "util.c").write_text("int util;\n", encoding="utf-8")
    (tmp_path / "main.c").write_text("int main;\n", encoding="utf-8")
    report_file = tmp_path / "coverage.xml"
    report_file.write_bytes(b"\xef\xbb\xbf" + GCOVR.encode())  # with a UTF-8 BOM
    monkeypatch.chdir(tmp_path.parent)
    report = read_coverage(report_file)
    assert [(f.path, f.statements, f.covered, f.missing_lines) for f in report.files] == [
        ("lib/util.c", 2, 1, [4]),
        ("main.c", 2, 1, [2]),
    ]
    assert (report.statements, report.covered, report.percent) == (4, 2, 50.0)


BOMB = """<?xml version="1.0"?>
<!DOCTYPE coverage [
 <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
 <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
 <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
 <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
 <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
]>
<coverage><sources><source>&g;</source></sources></coverage>
"""


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bomb.xml", BOMB, "defines XML entities"),
        ("cut.json", '{"meta": {"format": 3}, "files": {"a.py": {"executed_lines": [1, 2', "is not valid JSON"),
        ("other.json", '{"coverage": 12}', "not a coverage.py report"),
        ("cut.xml", '<coverage><packages><package name="p"><classes>', "is not well-formed XML"),
        ("other.xml", "<report/>", "not a Cobertura report"),
        ("bad.lcov", "SF:a.c\nDA:x,1\nend_of_record\n", "is not `DA:line,hits`"),
        ("notes.txt", "hello\n", "is not a coverage report this reads"),
        (".coverage", "SQLite format 3\x00...", "coverage.py's data file"),
    ],
)
def test_a_hostile_or_broken_report_is_one_user_error(tmp_path: Path, name: str, content: str, expected: str) -> None:
    bad = tmp_path / name
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(UserError) as caught:
        read_coverage(bad)
    message = str(caught.value)
    assert expected in message and "\n" not in message
