"""jest's `--json --outputFile=FILE` results as test results (`TestReport`): each assertion
result's status, duration and failure message, located at the innermost frame of the
project its failure names (else in its test file); a test file that failed to run (a
syntax error, no tests) is one `error` case named after the file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from simple_brief.errors import UserError
from simple_brief.files.beneath import shown_path
from simple_brief.tasks.test_results import (
    Status,
    TestCase,
    TestReport,
    _SourceLines,
    cut_text,
    failure_location,
    read_report,
)

_STATUS: dict[str, Status] = {
    "passed": "passed",
    "failed": "failed",
    "pending": "skipped",
    "skipped": "skipped",
    "todo": "skipped",
    "disabled": "skipped",
}


def read_jest_json(path: Path, root: Path) -> TestReport:
    """The tests of a jest JSON results file.

    Raises:
        UserError: the file is missing, too large, not JSON, or not jest's results.
    """
    shown = shown_path(path)
    try:
        data = json.loads(read_report(path))
    except ValueError:
        raise UserError(f"{shown} is not JSON; rerun jest with --json --outputFile to write it again.") from None
    if not isinstance(data, dict) or not isinstance(data.get("testResults"), list):
        raise UserError(f"{shown} is JSON but not jest's results (no `testResults` list).")
    report = TestReport()
    sources = _SourceLines(root)
    for suite in data["testResults"]:
        if isinstance(suite, dict):
            _read_suite(suite, root, sources, report)
    return report


def _relative(path: str, root: Path) -> str:
    base = os.path.abspath(root)
    return os.path.relpath(path, base) if path.startswith(base + os.sep) else path


def _read_suite(suite: dict[str, Any], root: Path, sources: _SourceLines, report: TestReport) -> None:
    file = _relative(str(suite.get("name") or ""), root)
    cases = [c for c in suite.get("assertionResults") or [] if isinstance(c, dict)]
    for case in cases:
        report.add(_case(case, file, sources))
        report.duration_ms += float(case.get("duration") or 0)
    if not cases and suite.get("status") == "failed":
        message = str(suite.get("testExecError", {}).get("message") or suite.get("message") or "the file failed to run")
        report.add(
            TestCase(
                name=file,
                classname=file,
                status="error",
                duration_ms=0.0,
                failure_message=message.strip().splitlines()[0] if message.strip() else "the file failed to run",
                path=file or None,
                details=cut_text(message),
                output=cut_text(message),
            )
        )


def _case(case: dict[str, Any], file: str, sources: _SourceLines) -> TestCase:
    status = _STATUS.get(str(case.get("status")), "error")
    messages = [str(m) for m in case.get("failureMessages") or []]
    details = "\n\n".join(messages)
    title = str(case.get("title") or "")
    location = case.get("location") if isinstance(case.get("location"), dict) else None
    path: str | None = file or None
    line = int(location["line"]) if location and isinstance(location.get("line"), int) else None
    if status in ("failed", "error"):
        found = failure_location(details, sources)
        if found is not None:
            path, line = found
            path = _relative(path, sources.root)
    first = next((ln.strip() for ln in details.splitlines() if ln.strip()), "")
    return TestCase(
        name=str(case.get("fullName") or title),
        classname=" › ".join(str(a) for a in case.get("ancestorTitles") or []),
        status=status,
        duration_ms=float(case.get("duration") or 0),
        failure_message=first,
        path=path,
        line=line,
        details=cut_text(details),
        output=cut_text(details) if status in ("failed", "error") else "",
    )
