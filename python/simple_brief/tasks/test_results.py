"""Test results as structured data: JUnit XML (read with `junitparser`, parsed through
`defusedxml`), and the test lists `pytest --collect-only -q`, `cargo test -- --list` and
`go test -list .` print. `go test -json` is read by `tasks.go_tests`, cargo's harness lines
by `tasks.cargo_tests`, into the same `TestReport`.

- A case's `status` is one of `passed`, `failed`, `error`, `skipped` (pytest's xfail is
  `skipped`); `output` is what it printed (stdout then stderr, cut to OUTPUT_CHARS);
  `failure_message` the failure's (or skip's) message and `details` its traceback.
- Its location (`path`, `line`) is where it failed when the failure text names a frame in
  the project (the innermost one outside vendored folders: pytest's `path:N: Error`,
  Python's `File "…", line N`, Rust's `panicked at path:N:C`, JavaScript's `at … (path:N:C)`,
  Go's `file.go:N:`, relative to its package: found for a package at the root), else
  where the test is defined: the `file`/`line` attributes when the
  report has them (pytest's xunit1 `line` is 0-based), else the file derived from the
  pytest `classname` (`tests.test_app.TestX` → `tests/test_app.py`) and the line of
  `def name` (`async def`, Go's `func`, Rust's `fn`; `test_x[1-2]` → `test_x`) in it.
- Paths are as the report gives them (relative ones to the run's folder, `root`);
  `resolve_path` turns one into an absolute path under `root` (None outside it).
  Every file is read through `read_beneath` (no symlink followed).
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeET  # type: ignore[import-untyped]
import junitparser as junit
from defusedxml import DefusedXmlException
from junitparser.junitparser import JUnitXmlError

from simple_brief.errors import UserError
from simple_brief.files.beneath import read_beneath, shown_path

Status = Literal["passed", "failed", "error", "skipped"]

#: Characters of a case's output and traceback kept (the head and the tail of longer ones).
OUTPUT_CHARS = 8000
#: The largest report file read, bytes.
REPORT_MAX_BYTES = 64 * 1024 * 1024
#: The largest source file read to find a test's definition, bytes.
SOURCE_MAX_BYTES = 4 * 1024 * 1024
#: Folders whose frames are not the project's own (a failure inside a library).
VENDOR_PARTS = frozenset({"site-packages", "dist-packages", "node_modules", ".venv", "venv", ".cargo", "vendor"})


@dataclass
class TestCase:
    """One test's result; `path`/`line` (1-based) where it failed or is defined."""

    __test__ = False  # not a pytest test class

    name: str
    classname: str
    status: Status
    duration_ms: float
    output: str = ""
    failure_message: str = ""
    path: str | None = None
    line: int | None = None
    details: str = ""


@dataclass
class TestReport:
    """The cases of one or more reports and their counts; `duration_ms` as the reports say."""

    __test__ = False

    cases: list[TestCase] = field(default_factory=list)
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    duration_ms: float = 0.0

    def add(self, case: TestCase) -> None:
        """Append a case and count it."""
        self.cases.append(case)
        if case.status == "passed":
            self.passed += 1
        elif case.status == "failed":
            self.failed += 1
        elif case.status == "error":
            self.errors += 1
        else:
            self.skipped += 1


def resolve_path(path: str, root: Path) -> Path | None:
    """`path` as a report gives it (absolute, or relative to `root`) as an absolute,
    normalised path under `root`; None when it is empty or outside `root`."""
    if not path:
        return None
    base = os.path.abspath(root)
    full = os.path.normpath(os.path.join(base, path))
    if full != base and not full.startswith(base.rstrip(os.sep) + os.sep):
        return None
    return Path(full)


def read_report(path: Path, max_bytes: int = REPORT_MAX_BYTES) -> bytes:
    """The bytes of a report file, opened from `/` without following a symlink.

    Raises:
        UserError: missing, not a regular file, or over `max_bytes`.
    """
    absolute = Path(os.path.abspath(path))
    return read_beneath(Path(absolute.anchor), absolute.relative_to(absolute.anchor), max_bytes, shown_path(path))


def cut_text(text: str, limit: int = OUTPUT_CHARS) -> str:
    """`text` as it is up to `limit` characters; longer, its head and tail around a note."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n… {len(text) - 2 * half:,} characters cut …\n{text[-half:]}"


#: A definition line: Python's `def`/`async def`/`class`, Go's `func` (methods too), Rust's `fn`.
_DEFINITION = re.compile(
    r"^[ \t]*(?:(?:async|pub(?:\([^)]*\))?)\s+)*"
    r"(?P<kind>def|fn|class|func)\b\s*(?:\([^)]*\)\s*)?(?P<name>[A-Za-z_]\w*)",
    re.M,
)


class _SourceLines:
    """The project's files, read once each and their definitions indexed by name, for
    definition lines and for telling the project's frames from vendored ones."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._base = os.path.abspath(root)
        self._full: dict[str, Path | None] = {}
        self._texts: dict[Path, str | None] = {}
        self._index: dict[Path, tuple[dict[str, list[tuple[int, bool]]], dict[str, list[int]]]] = {}

    def full(self, path: str) -> Path | None:
        """`resolve_path(path, root)`, remembered."""
        if path not in self._full:
            self._full[path] = resolve_path(path, self.root)
        return self._full[path]

    def inside(self, path: str) -> bool:
        """Whether `path` is a file of the project: under root, outside vendored folders,
        and there (not `<frozen …>` nor `<string>`)."""
        full = self.full(path) if not path.startswith("<") else None
        if full is None or VENDOR_PARTS.intersection(full.relative_to(self._base).parts[:-1]):
            return False
        return full.is_file()

    def exists(self, rel: str) -> bool:
        full = self.full(rel)
        return full is not None and full.is_file()

    def text(self, path: str) -> str | None:
        full = self.full(path)
        if full is None:
            return None
        if full not in self._texts:
            try:
                data = read_beneath(self.root, full.relative_to(self._base), SOURCE_MAX_BYTES)
                self._texts[full] = data.decode("utf-8", errors="replace")
            except (UserError, ValueError):
                self._texts[full] = None
        return self._texts[full]

    def definition(self, path: str, name: str, classes: tuple[str, ...] = ()) -> int | None:
        """The 1-based line of `def name` / `func name` / `fn name` in `path` (after the
        lines of `class C` for each of `classes`, when they are found), or None."""
        ident = _test_identifier(name)
        full = self.full(path)
        if not ident or full is None:
            return None
        if full not in self._index:
            self._index[full] = _definitions(self.text(path) or "")
        functions, types = self._index[full]
        after = 0
        for cls in classes:
            lines = types.get(cls, [])
            at = bisect.bisect_right(lines, after)
            if at < len(lines):
                after = lines[at]
        found = functions.get(ident, [])
        if not classes:  # a module-level test: an unindented definition first
            top = [line for line, indented in found if not indented]
            return top[0] if top else (found[0][0] if found else None)
        lines = [line for line, _indented in found]
        at = bisect.bisect_right(lines, after)
        return lines[at] if at < len(lines) else None


def _definitions(text: str) -> tuple[dict[str, list[tuple[int, bool]]], dict[str, list[int]]]:
    """The lines (ascending) of each function name, with whether it is indented, and of
    each class name in `text`."""
    functions: dict[str, list[tuple[int, bool]]] = {}
    types: dict[str, list[int]] = {}
    line, counted = 1, 0
    for match in _DEFINITION.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        if match.group("kind") == "class":
            types.setdefault(match.group("name"), []).append(line)
        else:
            indented = text[match.start()] in " \t"
            functions.setdefault(match.group("name"), []).append((line, indented))
    return functions, types


def _test_identifier(name: str) -> str:
    """The function name of a test id: `test_x[1-2]` → `test_x`, `mod::tests::it` → `it`,
    `TestSub/one` → `TestSub`, `Class.test_m` → `test_m`."""
    name = name.split("[", 1)[0].split("/", 1)[0]
    name = re.split(r"::|\.", name)[-1]
    return name if re.fullmatch(r"[A-Za-z_]\w*", name) else ""


# Frames in failure texts, as (pattern, innermost frame listed last).
_FRAME_FORMS: tuple[tuple[re.Pattern[str], bool], ...] = (
    (re.compile(r"^(?P<path>[^\s:>][^:\n]*?):(?P<line>\d+): ", re.M), True),  # pytest long/short/line
    (re.compile(r'^(?:E)?\s*File "(?P<path>[^"\n]+)", line (?P<line>\d+)', re.M), True),  # Python traceback
    (re.compile(r"panicked at (?:'.*?', )?(?P<path>[^\s:']+\.rs):(?P<line>\d+):\d+"), False),  # Rust
    (re.compile(r"^\s*at (?:.*? \()?(?P<path>[^\s()]+?):(?P<line>\d+):\d+\)?\s*$", re.M), False),  # JavaScript
    (re.compile(r"^\s+(?P<path>[\w./\-]+\.go):(?P<line>\d+): ", re.M), True),  # go-junit-report: t.Error lines
    (
        re.compile(
            r"^\s*\N{HEAVY RIGHT-POINTING ANGLE QUOTATION MARK ORNAMENT} (?P<path>[^\s:]+):(?P<line>\d+):\d+\s*$", re.M
        ),
        False,
    ),  # vitest
)


def failure_location(text: str, sources: _SourceLines) -> tuple[str, int] | None:
    """The innermost frame of the project a failure text names, as (path, line)."""
    for pattern, innermost_last in _FRAME_FORMS:
        frames = [(m.group("path"), int(m.group("line"))) for m in pattern.finditer(text)]
        if innermost_last:
            frames.reverse()
        for path, line in frames:
            if sources.inside(path):
                return path, line
    return None


def _classname_file(classname: str, sources: _SourceLines) -> tuple[str, tuple[str, ...]] | None:
    """The file a pytest classname names (the longest dotted prefix that is a `.py` file)
    and the classes after it."""
    parts = classname.split(".")
    for end in range(len(parts), 0, -1):
        rel = "/".join(parts[:end]) + ".py"
        if sources.exists(rel):
            return rel, tuple(parts[end:])
    return None


class _Case(junit.TestCase):
    """junitparser's test case with the `file` and `line` attributes some reports carry."""

    __test__ = False
    file = junit.Attr()
    line = junit.Attr()


class _Suite(junit.TestSuite):
    __test__ = False
    testcase = _Case


class _Xml(junit.JUnitXml):
    testsuite = _Suite


def parse_xml(data: bytes, shown: str, kind: str) -> Element:
    """The root element of a report's XML, parsed by `defusedxml` (entities and external
    references refused, so an entity bomb is an error, not a hang).

    Raises:
        UserError: entities, or not well-formed XML (`kind` names what it should have been).
    """
    try:
        root: Element = SafeET.fromstring(data)
    except DefusedXmlException:
        raise UserError(
            f"{shown} defines XML entities or external references, which {kind} never needs; "
            "regenerate it with the tool that writes it."
        ) from None
    except ParseError as exc:
        raise UserError(f"{shown} is not well-formed XML ({exc}); rerun the tool to write {kind} again.") from None
    return root


def _parse_junit(path: Path) -> _Xml:
    shown = shown_path(path)
    element = parse_xml(read_report(path), shown, "a JUnit report")
    try:
        xml = _Xml.fromroot(element)  # type: ignore[arg-type]  # junitparser annotates its own Element
    except JUnitXmlError:
        raise UserError(
            f"{shown} is XML but not a JUnit report (its root is not <testsuites> or <testsuite>); "
            "point the task at the runner's JUnit file."
        ) from None
    assert isinstance(xml, _Xml)
    return xml


def read_junit(paths: Iterable[Path], root: Path) -> TestReport:
    """The test cases of JUnit XML reports (pytest, jest-junit, cargo2junit, go-junit-report).

    Raises:
        UserError: a report is missing, too large, not XML, declares entities, or is not JUnit.
    """
    report = TestReport()
    sources = _SourceLines(root)
    for path in paths:
        xml = _parse_junit(path)
        for suite in xml:
            _read_suite(suite, sources, report)
        # node --test's junit reporter puts top-level tests straight under <testsuites>.
        loose = list(xml.iterchildren(_Case))
        report.duration_ms += sum(_seconds(case) for case in loose) * 1000
        _read_cases(loose, sources, report, from_pytest=False)
    return report


def _read_suite(suite: junit.TestSuite, sources: _SourceLines, report: TestReport) -> None:
    from_pytest = (suite.name or "").startswith("pytest")
    cases = list(suite)
    try:
        suite_time = suite.time
    except ValueError:
        suite_time = None
    report.duration_ms += suite_time * 1000 if suite_time is not None else sum(_seconds(case) for case in cases) * 1000
    _read_cases(cases, sources, report, from_pytest)


def _read_cases(cases: list[junit.TestCase], sources: _SourceLines, report: TestReport, from_pytest: bool) -> None:
    for case in cases:
        assert isinstance(case, _Case)
        if not case.name:
            continue  # pytest stopped by SIGINT writes the interrupted test as a bare <testcase/>
        report.add(_read_case(case, sources, from_pytest))


def _seconds(case: junit.TestCase) -> float:
    try:
        return case.time or 0.0
    except ValueError:
        return 0.0


def _read_case(case: _Case, sources: _SourceLines, from_pytest: bool) -> TestCase:
    name = case.name or ""
    classname = case.classname or ""
    results = case.result
    status: Status = "passed"
    message = details = ""
    for wanted, kind in ((junit.Failure, "failed"), (junit.Error, "error"), (junit.Skipped, "skipped")):
        found = [r for r in results if isinstance(r, wanted)]
        if found:
            status = kind  # type: ignore[assignment]
            message = found[0].message or ""
            details = "\n\n".join(r.text or "" for r in found).strip("\n").rstrip()
            break
    if details and (not message or message == "collection failure"):
        # pytest's collection errors say only that: the exception's line says what failed.
        first = _error_line(details)
        message = f"{message}: {first}" if message else first
    outputs = [e.text or "" for e in case if isinstance(e, junit.SystemOut)]
    outputs += [e.text or "" for e in case if isinstance(e, junit.SystemErr)]
    output = "\n".join(text for text in (_drop_empty_sections(o) for o in outputs) if text)

    path, line = _definition(case, name, classname, sources, from_pytest)
    if status in ("failed", "error"):
        located = failure_location(details, sources)
        if located is not None:
            path, line = located
    return TestCase(
        name=name,
        classname=classname,
        status=status,
        duration_ms=_seconds(case) * 1000,
        output=cut_text(output),
        failure_message=message.strip(),
        path=path,
        line=line,
        details=cut_text(details),
    )


def _definition(
    case: _Case, name: str, classname: str, sources: _SourceLines, from_pytest: bool
) -> tuple[str | None, int | None]:
    path: str | None = case.file or None
    classes: tuple[str, ...] = ()
    # A module pytest could not collect is a case with no classname, named after the module.
    derived = _classname_file(classname or name, sources)
    root = sources.root
    if derived is not None and (path is None or resolve_path(path, root) == resolve_path(derived[0], root)):
        path, classes = derived
    if path is None and classname and sources.exists(classname):
        path = classname  # vitest's junit reporter: the classname is the test file
    if path is None:
        return None, None
    line = sources.definition(path, name, classes)
    if line is None and case.line and case.line.strip().isdigit():
        line = int(case.line) + (1 if from_pytest else 0)
    return path, line


_EXCEPTION_LINE = re.compile(r"^[\w.]*(?:Error|Exception|Warning|Exit|Interrupt|Failed)\b")


def _error_line(details: str) -> str:
    """What a traceback says failed: its last `E   SomeError: …` line, else its first `E`
    line (an assertion's explanation), else its first line."""
    errors = [ln[1:].strip() for ln in details.splitlines() if ln.startswith("E ")]
    named = [ln for ln in errors if _EXCEPTION_LINE.match(ln)]
    if named:
        return named[-1]
    if errors:
        return errors[0]
    lines = [ln.strip() for ln in details.splitlines() if ln.strip()]
    return lines[0] if lines else ""


_EMPTY_SECTION = re.compile(r"^-+ Captured \w+(?: \w+)* -+\n(?:[ \t]*\n)*(?=-+ Captured |\Z)", re.M)


def _drop_empty_sections(text: str) -> str:
    """pytest's captured output without its empty `--- Captured … ---` sections."""
    return _EMPTY_SECTION.sub("", text).strip()


# ---------------------------------------------------------------- test lists

_CARGO_TEST = re.compile(r"^(?P<name>\S.*?): test$")
_GO_NAME = re.compile(r"^(?:Test|Benchmark|Example|Fuzz)\w*$")


def parse_test_list(output: str, runner: str) -> list[str]:
    """The test names a runner's list command printed: `pytest --collect-only -q` (node
    ids), `cargo test -- --list` (`name: test` lines), `go test -list .` (names).

    Raises:
        UserError: `runner` is not `pytest`, `cargo` or `go`.
    """
    lines = [line.rstrip() for line in output.splitlines()]
    if runner == "pytest":
        # The ids come first; the sections after them (warnings, errors) may name ids too.
        ids = []
        for line in lines:
            if line.startswith("="):
                break
            if "::" in line and not line.startswith((" ", "<")):
                ids.append(line)
        return ids
    if runner == "cargo":
        return [m.group("name") for m in (_CARGO_TEST.match(line) for line in lines) if m]
    if runner == "go":
        return [line for line in lines if _GO_NAME.match(line)]
    raise UserError(f"no test list reader for {runner!r}; use 'pytest', 'cargo' or 'go'.")
