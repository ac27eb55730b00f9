"""`go test -json` events as test results (`TestReport`): each test's status, duration,
output and failure location, a package that did not build as one error case located at
the compiler's first error (Go 1.24's build-output events, or the stderr of older Go).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from simple_brief.errors import UserError
from simple_brief.tasks.test_results import Status, TestCase, TestReport, _SourceLines, cut_text, resolve_path

_GO_LOG = re.compile(r"^\s+(?P<path>[\w.\-/]+\.go):(?P<line>\d+): (?P<message>.*)$")
_GO_FRAME = re.compile(r"^\s+(?P<path>/[^\s:]+\.go):(?P<line>\d+)(?: \+0x[0-9a-f]+)?$")
_GO_BUILD_FAILED = re.compile(r"^FAIL\t(\S+) \[(?:build|setup) failed\]")
_GO_COMPILER = re.compile(r"^(?P<path>[\w./\-]+\.go):(?P<line>\d+):\d+: ", re.M)
_GO_STATUS: dict[str, Status] = {"pass": "passed", "fail": "failed", "skip": "skipped"}


@dataclass
class _GoTest:
    package: str
    name: str
    output: list[str] = field(default_factory=list)
    status: Status | None = None
    elapsed: float = 0.0


def read_go_test_json(text: str, root: Path, stderr: str = "") -> TestReport:
    """The tests of `go test -json` output (events run/output/pass/fail/skip). A package
    that failed with no test failing (a build error: `FAIL pkg [build failed]`, the
    compiler's messages in `stderr`, or Go 1.24's `build-output` events) is one `error`
    case named after it, at the first `file.go:N:C:` the compiler printed.

    Raises:
        UserError: no line of `text` is a `go test -json` event.
    """
    tests: dict[tuple[str, str], _GoTest] = {}
    packages: dict[str, _GoTest] = {}
    build_output: list[str] = []
    events = 0
    for raw in text.splitlines():
        build = _GO_BUILD_FAILED.match(raw)
        if build:
            events += 1
            failed = packages.setdefault(build.group(1), _GoTest(build.group(1), build.group(1)))
            failed.status = "failed"
            failed.output.append(raw + "\n")
            continue
        if not raw.startswith("{"):
            continue
        try:
            event = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(event, dict) or "Action" not in event:
            continue
        events += 1
        action = event["Action"]
        if action in ("build-output", "build-fail"):  # Go 1.24+: the compiler's messages as events
            build_output.append(str(event.get("Output") or ""))
            continue
        package_name = str(event.get("Package") or "")
        name = event.get("Test")
        entry = (
            tests.setdefault((package_name, name), _GoTest(package_name, str(name)))
            if name
            else packages.setdefault(package_name, _GoTest(package_name, package_name))
        )
        if action == "output":
            entry.output.append(str(event.get("Output") or ""))
        elif action in _GO_STATUS:
            entry.status = _GO_STATUS[action]
            entry.elapsed = float(event.get("Elapsed") or 0.0)
    if text.strip() and not events:
        raise UserError("the output has no `go test -json` event; run the tests with `go test -json`.")
    report = TestReport()
    dirs = _GoPackages(root)
    for test in tests.values():
        report.add(_go_case(test, dirs, root))
    # A package whose test failed or never finished is told by that test's case.
    failed_packages = {test.package for test in tests.values() if test.status in ("failed", None)}
    compiler_output = stderr + "".join(build_output)
    for package in packages.values():
        report.duration_ms += package.elapsed * 1000
        if package.status == "failed" and package.name not in failed_packages:
            report.add(_go_package_case(package, compiler_output, root))
    return report


def _go_package_case(package: _GoTest, compiler_output: str, root: Path) -> TestCase:
    """A package that failed by itself (a build error), at the compiler's first message."""
    output = "".join(package.output)
    path, line = None, None
    if "[build failed]" in output or "[setup failed]" in output:
        output += compiler_output
        compiler = _GO_COMPILER.search(compiler_output)
        if compiler and resolve_path(compiler.group("path"), root) is not None:
            path, line = compiler.group("path"), int(compiler.group("line"))
    return TestCase(
        name=package.name,
        classname=package.name,
        status="error",
        duration_ms=package.elapsed * 1000,
        output=cut_text(output),
        failure_message=_go_package_message(output),
        path=path,
        line=line,
        details=cut_text(output),
    )


def _go_package_message(output: str) -> str:
    lines = [ln.strip() for ln in output.splitlines() if ln.strip() and ln.strip() != "FAIL"]
    return lines[0] if lines else "the package failed"


class _GoPackages:
    """Package import paths as folders relative to the root, from its `go.mod`."""

    def __init__(self, root: Path) -> None:
        self.sources = _SourceLines(root)
        gomod = self.sources.text("go.mod") or ""
        match = re.search(r"^module\s+(\S+)", gomod, re.M)
        self.module = match.group(1).strip('"') if match else None

    def folder(self, package: str) -> str | None:
        if self.module is None:
            return None
        if package == self.module:
            return ""
        if package.startswith(self.module + "/"):
            return package[len(self.module) + 1 :]
        return None

    def definition(self, package: str, name: str) -> tuple[str | None, int | None]:
        folder = self.folder(package)
        full = resolve_path(folder, self.sources.root) if folder else Path(os.path.abspath(self.sources.root))
        if folder is None or full is None or not full.is_dir():
            return None, None
        for test_file in sorted(full.glob("*_test.go")):
            rel = _join(folder, test_file.name)
            line = self.sources.definition(rel, name)
            if line is not None:
                return rel, line
        return None, None


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _go_case(test: _GoTest, dirs: _GoPackages, root: Path) -> TestCase:
    output = "".join(test.output)
    path, line = dirs.definition(test.package, test.name)
    message = ""
    status: Status = test.status or "error"
    if test.status is None:
        message = "the test did not finish (the run stopped or the package timed out)"
    if status in ("failed", "skipped", "error"):
        logs = [m for m in (_GO_LOG.match(ln) for ln in output.splitlines()) if m]
        folder = dirs.folder(test.package)
        if logs:
            last = logs[-1]
            message = message or last.group("message").strip()
            if status != "skipped" and folder is not None:
                path, line = _join(folder, last.group("path")), int(last.group("line"))
        elif status != "skipped":
            panic = [ln.strip() for ln in output.splitlines() if ln.startswith("panic: ")]
            message = message or (panic[0] if panic else "")
            for ln in output.splitlines():
                frame = _GO_FRAME.match(ln)
                if frame and dirs.sources.inside(frame.group("path")):
                    path, line = frame.group("path"), int(frame.group("line"))
                    break
    return TestCase(
        name=test.name,
        classname=test.package,
        status=status,
        duration_ms=test.elapsed * 1000,
        output=cut_text(output),
        failure_message=message,
        path=path,
        line=line,
        details=cut_text(output) if status in ("failed", "error") else "",
    )
