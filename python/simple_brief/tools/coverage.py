"""The `tasks` toolset's coverage tool: run the declared `coverage` task and read its
report (coverage.py JSON, Cobertura XML or lcov) — totals, the least-covered files and the
uncovered lines of one file. The run itself goes through `tools.tasks` as every task does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from simple_brief.errors import UserError
from simple_brief.tasks import coverage_reports
from simple_brief.tasks.runner import TaskRun
from simple_brief.tools import Call, Doc, ToolResult, tool
from simple_brief.tools.tasks import missing, opening, run_data, run_named

#: Least-covered files listed by test_coverage.
LEAST_COVERED = 10


@tool(
    "test_coverage",
    "tasks",
    "Run the declared `coverage` task and read its report (coverage.py JSON, Cobertura XML or lcov): totals, "
    "the least-covered files, and the uncovered lines of the file you are in. "
    "USE FOR: which code the tests miss. DON'T USE FOR: pass/fail (test_run).",
    read_only=False,
)
def test_coverage(
    call: Call,
    path: Annotated[str | None, Doc("File whose uncovered lines to list (default: the editor's file).")] = None,
) -> ToolResult:
    """Run the `coverage` task and summarise its report."""
    outcome = run_named(call, "coverage", _coverage_of)
    if isinstance(outcome, ToolResult):
        return outcome
    run, report = outcome
    if report is None:
        return missing(
            run,
            "coverage",
            "no report",
            "The run wrote no coverage report; write it to {report} (e.g. `coverage json -o {report}`) or name "
            f"the file it writes in tasks.{run.spec.name}'s `report`.",
        )
    data = run_data(run)
    blocks = opening(run, "coverage", f"{report.percent:.1f}% of {report.statements:,} statements covered")
    least = coverage_reports.least_covered(report, LEAST_COVERED)
    if least:
        blocks.append(
            "least covered:\n" + "\n".join(f"  {f.path} {f.percent:.1f}% ({f.covered}/{f.statements})" for f in least)
        )
    focus = _focus_file(call, path, report, run.cwd)
    if focus is not None:
        blocks.append(f"{focus.path}: {focus.percent:.1f}% covered; uncovered lines {_spans(focus.missing_lines)}")
    data.update(
        percent=report.percent,
        statements=report.statements,
        covered=report.covered,
        least_covered=[_file_json(f) for f in least],
        file=_file_json(focus) if focus is not None else None,
    )
    return ToolResult(blocks, data)


def _coverage_of(run: TaskRun) -> coverage_reports.CoverageReport | None:
    if run.report is not None and run.report.is_file():
        return coverage_reports.read_coverage(run.report)
    return None


def _focus_file(
    call: Call, path: str | None, report: coverage_reports.CoverageReport, cwd: Path
) -> coverage_reports.FileCoverage | None:
    """The report's entry for `path`, else for the editor's current file."""
    wanted: Path | None = None
    if path:
        wanted = call.workspace.resolve(path)
    else:
        snap = call.editor.snapshot()
        if snap is not None and snap.path is not None:
            wanted = Path(snap.path)
    if wanted is None:
        return None
    for entry in report.files:
        candidate = Path(entry.path)
        full = candidate if candidate.is_absolute() else (cwd / candidate)
        if full.resolve() == wanted.resolve():
            return entry
    if path:
        raise UserError(f"{path} is not in the coverage report; the tests never imported it, or the report omits it.")
    return None


def _file_json(entry: coverage_reports.FileCoverage) -> dict[str, Any]:
    return {
        "path": entry.path,
        "percent": entry.percent,
        "statements": entry.statements,
        "covered": entry.covered,
        "missing_lines": entry.missing_lines,
    }


def _spans(lines: list[int]) -> str:
    """`3-5, 9, 12-14`."""
    if not lines:
        return "none"
    out: list[str] = []
    start = prev = lines[0]
    for n in [*lines[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(f"{start}-{prev}" if prev != start else str(start))
        if n is not None:
            start = prev = n
    return ", ".join(out)
