"""What a test run's results are, from the best source it left: the structured results
(JUnit XML, jest's JSON, `go test -json` events, cargo's per-test lines), else the
runner's own closing lines (`tasks.test_summaries`), else nothing — which the answer
says instead of printing zeros.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from simple_brief.errors import UserError
from simple_brief.tasks import cargo_tests, go_tests, jest_results, test_results, test_summaries
from simple_brief.tasks.runner import TaskRun
from simple_brief.tasks.test_results import TestCase, TestReport, _SourceLines, cut_text, failure_location
from simple_brief.tasks.test_runners import Recognised
from simple_brief.tasks.test_summaries import Summary


@dataclass
class Results:
    """A run's test results.

    Attributes:
        report: the per-test results, when the run left structured ones.
        summary: the counts of the runner's closing lines (read even with a report).
        source: where the counts come from (`JUnit XML`, `pytest's summary line`, …),
            "" when they could not be read.
    """

    report: TestReport | None
    summary: Summary | None
    source: str
    #: Without a report: the failing tests the output named (unittest's FAIL/ERROR sections).
    failures: list[TestCase] = field(default_factory=list)
    #: Why the structured report the run left could not be read, if it could not.
    unreadable: str = ""

    @property
    def known(self) -> bool:
        """Whether the counts were read."""
        return bool(self.source)

    def counts(self) -> dict[str, int | None]:
        """passed, failed, skipped, errors; None for a count that could not be read."""
        found: Any = self.report if self.report is not None else self.summary
        if found is None:
            return {"passed": None, "failed": None, "skipped": None, "errors": None}
        passed = None if getattr(found, "passed_unknown", False) else found.passed
        return {"passed": passed, "failed": found.failed, "skipped": found.skipped, "errors": found.errors}

    def text(self) -> str:
        """`1 passed, 1 failed, 0 skipped` (`, 2 errors`), with where they come from when
        it is not per-test results; or that they could not be read."""
        if not self.known:
            return "the test counts could not be read"
        counts = self.counts()
        passed = "passes not counted" if counts["passed"] is None else f"{counts['passed']} passed"
        out = f"{passed}, {counts['failed']} failed, {counts['skipped']} skipped"
        if counts["errors"]:
            out += f", {counts['errors']} error{'s' * (counts['errors'] != 1)}"
        if self.report is None:
            out += f" (from {self.source}; no per-test results)"
        return out

    def without_report(self) -> list[str]:
        """What an answer with no per-test results says: the summary lines read and what
        they do not count, or why nothing could be read."""
        if self.summary is None:
            return [
                "The run left no structured results (JUnit XML, jest JSON, `go test -json`) and printed no "
                "summary line of a runner simple-brief reads (pytest, unittest, cargo, go, jest, vitest, node "
                "--test, mocha); run one of them in tasks.test, or write JUnit XML to {junit}."
            ]
        blocks = [f"The run's structured results could not be read: {self.unreadable}"] if self.unreadable else []
        blocks += [f"Not counted: {self.summary.partial}."] if self.summary.partial else []
        return [*blocks, "summary:\n" + "\n".join(self.summary.lines)]


def _structured(run: TaskRun, found: Recognised | None) -> tuple[TestReport | None, str]:
    if run.junit is not None and run.junit.is_file():
        return test_results.read_junit([run.junit], run.cwd), "JUnit XML"
    if found is not None and found.report_format == "jest-json" and run.report is not None and run.report.is_file():
        return jest_results.read_jest_json(run.report, run.cwd), "jest --json"
    if '"Action":' in run.stdout:
        return go_tests.read_go_test_json(run.stdout, run.cwd, "".join(s.stderr for s in run.steps)), "go test -json"
    if cargo_tests.looks_like_cargo_test(run.stdout):
        return cargo_tests.read_cargo_test(run.stdout, run.cwd), "cargo's test lines"
    return None, ""


def read_results(run: TaskRun, found: Recognised | None) -> Results:
    """The results of a test run (`found`: the runner recognised in its command, if any);
    a broken structured report leaves the summary line's counts, with why (`unreadable`).

    Raises:
        UserError: a structured report is there but broken, and no summary line was printed.
    """
    try:
        report, source = _structured(run, found)
        unreadable = ""
    except UserError as error:
        report, source, unreadable = None, "", str(error)
    runner = found.runner if found is not None else None
    summary = test_summaries.read_summary((step.output for step in run.steps), runner)
    if unreadable and summary is None:
        raise UserError(unreadable)
    if report is not None and not report.cases and summary is not None and summary_total(summary):
        report = None  # e.g. `cargo test -q`: no per-test lines, but its `test result:` lines count
    if report is not None:
        return Results(report, summary, source)
    if summary is not None:
        source = f"{summary.runner}'s summary line{'s' * (len(summary.lines) > 1)}"
        return Results(None, summary, source, _failures(summary, run), unreadable)
    return Results(None, None, "")


def _failures(summary: Summary, run: TaskRun) -> list[TestCase]:
    """The failing tests the output names (unittest's sections), at the innermost frame
    of the project their traceback names."""
    sources = _SourceLines(run.cwd)
    cases = []
    for status, name, text in summary.failures:
        located = failure_location(text, sources)
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        case = TestCase(name, "", status, 0.0, failure_message=lines[-1] if lines else "", details=cut_text(text))
        if located is not None:
            case.path, case.line = located
            case.path = os.path.relpath(case.path, run.cwd) if os.path.isabs(case.path) else case.path
        cases.append(case)
    return cases


def summary_total(summary: Summary) -> int:
    return summary.passed + summary.failed + summary.skipped + summary.errors
