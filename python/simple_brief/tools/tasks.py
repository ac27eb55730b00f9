"""The `tasks` toolset: build, check, clean, list and run tests (coverage: `tools.coverage`) — the project's own
commands as the person declared them (`simple_brief.tasks.declared`), run inside limits
(`simple_brief.tasks.sandbox`), their results read from structured reports (for tests,
the reporter `tasks.test_runners` adds, else the runner's summary line). Profiling is
in `tools.profile`.

Every answer starts with one line saying what ran and how it ended
(`test (pytest) failed in 3.2 s · 12 passed, 1 failed, 2 skipped`, or that the counts
could not be read), then the findings; `limit_exceeded` (time, memory, output) comes with
whatever the run produced before. A task nobody declared is never run — the answer is the
config lines that would declare it — except `test`/`test_list` in a workspace the person
trusted, which run what the project's files suggest and say so.
In Neovim, build diagnostics and failing tests are shown in the person's buffers too.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.task_specs import KNOWN, TaskSpec
from simple_brief.model import Diagnostic, Position, Range, Severity
from simple_brief.proc.process_limits import stopped_text
from simple_brief.render.diagnostics import diagnostic_json, render_diagnostics
from simple_brief.tasks import compiler_output, test_counts, test_results, test_runners
from simple_brief.tasks.declared import Detected, detect, detect_task
from simple_brief.tasks.runner import TaskRun, remove_scratch, run_task
from simple_brief.tools import Call, Cancelled, Doc, ToolResult, tool

#: Lines of a run's output shown when it failed without findings to show instead.
OUTPUT_TAIL_LINES = 30
#: Failed tests listed with their message; the rest are counted.
MAX_FAILURES_SHOWN = 20
T = TypeVar("T")


class Undeclared(Exception):
    """No such task is declared: the answer is the lines that would declare it."""

    def __init__(self, result: ToolResult) -> None:
        self.result = result


def declared_task(call: Call, name: str) -> TaskSpec:
    """The task `name` of the configs.

    Raises:
        Undeclared: nothing declares it (the answer says what to add).
    """
    settings = call.config
    spec = settings.tasks.get(name)
    if spec is not None:
        return spec
    raise Undeclared(undeclared_answer(call, name, settings.untrusted))


def task_or_detected(call: Call, name: str) -> tuple[TaskSpec, Detected | None]:
    """The declared task `name`; with none, in a workspace whose `.simple-brief.toml` the
    person trusted, the one the project's files suggest (`tasks.declared.detect`).

    Raises:
        Undeclared: nothing declares it and it cannot run a detected one (the answer says why).
    """
    settings = call.config
    spec = settings.tasks.get(name)
    if spec is not None:
        return spec, None
    detected = detect_task(call.workspace.root, name)
    if detected is None or not settings.workspace_trusted:
        raise Undeclared(undeclared_answer(call, name, settings.untrusted, detectable=detected is not None))
    return detected.spec, detected


def undeclared_answer(call: Call, name: str, untrusted: str | None, detectable: bool = False) -> ToolResult:
    """The answer for a task nobody declared: what the project looks like and the lines to add."""
    tool_name = KNOWN.get(name, name)
    head = f"No `{name}` task is declared, so {tool_name} runs nothing (simple-brief never guesses a command)."
    if detectable and not untrusted:  # (with one, the untrusted sentence below says what to trust)
        head = (
            f"No `{name}` task is declared and this workspace is not trusted, so {tool_name} runs nothing; "
            f"trust it (an empty {config.FILENAME} will do, then `simple-brief trust`) and {tool_name} runs the "
            "command detected below, or declare one."
        )
    blocks = [head]
    data: dict[str, Any] = {"declared": False, "task": name, "suggestions": []}
    if untrusted:
        blocks.append(untrusted)
        data["untrusted"] = untrusted
    found = [s for s in detect(call.workspace.root) if name in s.tasks]
    for suggestion in found:
        lines = suggestion.toml([name])
        blocks.append(
            f"This looks like {suggestion.kind} ({suggestion.evidence}). To declare it, add to "
            f".simple-brief.toml (then `simple-brief trust`) or to {config.user_config_path()}:\n\n{lines}"
        )
        data["suggestions"].append({"kind": suggestion.kind, "evidence": suggestion.evidence, "toml": lines})
    if not found:
        blocks.append(
            f"Declare it in .simple-brief.toml (then `simple-brief trust`) as\n\n[tasks.{name}]\n"
            'argv = ["program", "arg"]   # no shell; see `:help simple-brief-tasks`'
        )
    return ToolResult(blocks, data)


def task_cwd(call: Call, spec: TaskSpec) -> Path:
    """The folder the task runs in (inside the workspace).

    Raises:
        UserError: it leaves the workspace or is not a folder.
    """
    folder = call.workspace.resolve(spec.cwd or ".")
    if not folder.is_dir():
        raise UserError(f"tasks.{spec.name} runs in {spec.cwd!r}, which is not a folder of the workspace; fix its cwd.")
    return folder


def run_declared(call: Call, spec: TaskSpec, scratch: Path, **kwargs: Any) -> TaskRun:
    """Run a task for a tool call: its cancellation, its progress; Cancelled when cancelled."""
    run = run_task(
        spec,
        call.workspace.root,
        task_cwd(call, spec),
        cancelled=call.cancelled.is_set,
        progress=call.progress,
        scratch=scratch,
        **kwargs,
    )
    if run.cancelled:
        raise Cancelled
    return run


def run_named(
    call: Call, name: str, read: Callable[[TaskRun], T] | None = None, **kwargs: Any
) -> ToolResult | tuple[TaskRun, T | None]:
    """Run the declared task `name` and `read` its results while its `{junit}`/`{report}`
    files exist; the undeclared answer when nothing declares it."""
    try:
        spec = declared_task(call, name)
    except Undeclared as undeclared:
        return undeclared.result
    return _run_and_read(call, spec, read, **kwargs)


def _run_and_read(
    call: Call, spec: TaskSpec, read: Callable[[TaskRun], T] | None, **kwargs: Any
) -> tuple[TaskRun, T | None]:
    scratch = Path(tempfile.mkdtemp(prefix="simple-brief-task-")).resolve()  # (reports are read link-free)
    try:
        run = run_declared(call, spec, scratch, **kwargs)
        return run, read(run) if read is not None else None
    finally:
        remove_scratch(scratch)


def run_tests(
    call: Call, name: str, read: Callable[[TaskRun], T], **kwargs: Any
) -> ToolResult | tuple[TaskRun, T | None, Detected | None]:
    """Run the test task `name` — declared, or detected in a trusted workspace — with the
    structured reporter of its runner added when it names none (`tasks.test_runners`)."""
    try:
        spec, detected = task_or_detected(call, name)
    except Undeclared as undeclared:
        return undeclared.result
    if name == "test":
        spec, _found = test_runners.with_reporter(spec, package_scripts(call, spec))
    run, result = _run_and_read(call, spec, read, **kwargs)
    return run, result, detected


def package_scripts(call: Call, spec: TaskSpec) -> Callable[[], dict[str, str]]:
    """The `scripts` of package.json in the task's folder, read when asked ({} when there are none)."""

    def scripts() -> dict[str, str]:
        try:
            text = call.workspace.read(task_cwd(call, spec) / "package.json")[1].text
            data = json.loads(text)
        except (UserError, ValueError):
            return {}
        found = data.get("scripts") if isinstance(data, dict) else None
        return {k: v for k, v in found.items() if isinstance(v, str)} if isinstance(found, dict) else {}

    return scripts


def opening(run: TaskRun, what: str, detail: str = "") -> list[str]:
    """The headline, what a limit did if one stopped the run, and the processes it left
    running (stopped)."""
    notes = [note for note in (limit_note(run), left_note(run)) if note]
    return [headline(run, what, detail), *notes]


def missing(run: TaskRun, what: str, detail: str, advice: str) -> ToolResult:
    """The answer when the run left no results to read: what to change, and its output."""
    blocks = opening(run, what, detail)
    blocks.append(f"{advice}\noutput:\n{output_tail(run.output)}")
    return ToolResult(blocks, run_data(run))


def headline(run: TaskRun, what: str, detail: str = "") -> str:
    """`build (make) failed in 1.2 s · exit 2 · detail`."""
    program = Path(run.spec.steps[0][0]).name
    left = left_behind(run)
    if run.ok:
        state = f"succeeded but left {_processes(len(left))} running (stopped)" if left else "succeeded"
    elif run.limit_exceeded:
        state = f"was stopped by its {run.limit_exceeded} limit"
    else:
        state = "failed"
    parts = [f"{what} ({program}) {state} in {run.duration_ms / 1000:.1f} s"]
    if not run.ok and run.exit_code is not None and not run.limit_exceeded:
        parts.append(f"exit {run.exit_code}")
    if detail:
        parts.append(detail)
    return " · ".join(parts)


def limit_note(run: TaskRun) -> str | None:
    """What a limit did, or None."""
    limit = run.limit_exceeded
    if limit is None:
        return None
    spec = run.spec
    amount = {
        "time": f"{spec.timeout_s:g} s",
        "memory": f"{spec.memory_mb} MB",
        "output": f"{spec.output_mb:g} MB of output",
    }[limit]
    return (
        f"limit_exceeded: {limit} — the run passed tasks.{spec.name}'s limit of {amount} and its processes were "
        f"stopped; what it produced until then is below (raise `{_limit_key(limit)}` in [tasks.{spec.name}] if "
        "that is expected)."
    )


def left_behind(run: TaskRun) -> list[tuple[int, str]]:
    """The processes (pid, name) the run's commands left running when they ended."""
    return [process for step in run.steps for process in step.left_behind]


def left_note(run: TaskRun) -> str | None:
    """Which processes the run left behind and were stopped, or None."""
    left = left_behind(run)
    if not left:
        return None
    return (
        f"{_processes(len(left))} the task left behind {'was' if len(left) == 1 else 'were'} stopped: "
        f"{stopped_text(left)}. A task's processes do not outlive it: start a server it needs outside the task."
    )


def _processes(count: int) -> str:
    return f"{count} process" if count == 1 else f"{count} processes"


def _limit_key(limit: str) -> str:
    return {"time": "timeout_s", "memory": "memory_mb", "output": "output_mb"}[limit]


def output_tail(text: str, lines: int = OUTPUT_TAIL_LINES) -> str:
    """The last lines of a run's output, with how many were left out."""
    kept = text.rstrip("\n").splitlines()
    if len(kept) <= lines:
        return "\n".join(kept)
    return f"… {len(kept) - lines} earlier lines\n" + "\n".join(kept[-lines:])


def run_data(run: TaskRun) -> dict[str, Any]:
    """What every task answer carries."""
    return {
        "task": run.spec.name,
        "success": run.ok,
        "exit_code": run.exit_code,
        "limit_exceeded": run.limit_exceeded,
        "processes_stopped": [{"pid": pid, "name": name} for pid, name in left_behind(run)],
        "timings": {
            "total_ms": round(run.duration_ms, 1),
            "phases": [{"argv": s.argv, "ms": round(s.duration_ms, 1), "exit_code": s.exit_code} for s in run.steps],
        },
        "output_bytes": sum(s.output_bytes for s in run.steps),
    }


def findings_by_file(call: Call, run: TaskRun) -> dict[Path, list[Diagnostic]]:
    """The compiler/checker findings in the run's output, by file (code-point columns)."""
    found = compiler_output.parse_output(run.output, run.cwd)

    def read_text(path: Path) -> str | None:
        try:
            return call.workspace.read(path)[1].text
        except UserError:
            return None

    return compiler_output.to_diagnostics(found, run.cwd, read_text)


def shown_findings(call: Call, by_file: dict[Path, list[Diagnostic]]) -> dict[str, list[Diagnostic]]:
    """Findings keyed by how paths are shown (workspace-relative inside it)."""
    shown: dict[str, list[Diagnostic]] = {}
    for path, diags in by_file.items():
        shown.setdefault(call.workspace.display(path), []).extend(diags)
    return shown


def show_in_editor(call: Call, kind: str, by_file: dict[Path, list[Diagnostic]]) -> None:
    """Put the findings in the person's buffers (Neovim), replacing the last run's."""
    show = getattr(call.editor, "show_findings", None)
    if callable(show):
        show(kind, by_file)


# ------------------------------------------------------------------------------ builds


def _build(call: Call, name: str, what: str) -> ToolResult:
    outcome = run_named(call, name)
    if isinstance(outcome, ToolResult):
        return outcome
    run, _ = outcome
    by_file = findings_by_file(call, run)
    show_in_editor(call, "build", by_file)
    every = [d for diags in by_file.values() for d in diags]
    errors = sum(1 for d in every if d.severity == Severity.Error)
    warnings = sum(1 for d in every if d.severity == Severity.Warning)
    blocks = opening(run, what, f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}")
    shown = shown_findings(call, by_file)
    if shown:
        blocks.extend(render_diagnostics(shown)[1:])
    if run.artifacts:
        listed = "\n".join(f"  {a.path} ({a.type}, {a.size:,} bytes)" for a in run.artifacts)
        more = (
            f"\n  … {run.artifact_count - len(run.artifacts)} more" if run.artifact_count > len(run.artifacts) else ""
        )
        label = "artifacts" if run.ok else "partial artifacts (the build did not finish)"
        blocks.append(f"{label}:\n{listed}{more}")
    if not run.ok and not shown and run.output.strip():
        blocks.append("output:\n" + output_tail(run.output))
    data = run_data(run)
    artifacts = [{"path": a.path, "type": a.type, "size": a.size} for a in run.artifacts]
    data["artifacts" if run.ok else "partial_artifacts"] = artifacts
    data["diagnostics"] = {path: [diagnostic_json(d) for d in diags] for path, diags in shown.items()}
    return ToolResult(blocks, data)


@tool(
    "build_compile",
    "tasks",
    "Build the project with its declared `build` task (no shell, inside time/memory/output limits). "
    "USE FOR: compiler errors with file:line and fix-its, what the build produced. "
    "DON'T USE FOR: a quick type check (build_check) or tests (test_run).",
    read_only=False,
)
def build_compile(call: Call) -> ToolResult:
    """Run the `build` task."""
    return _build(call, "build", "build")


@tool(
    "build_check",
    "tasks",
    "Type-check or lint the project with its declared `check` task (e.g. mypy, tsc --noEmit, cargo check). "
    "USE FOR: errors without a full build. DON'T USE FOR: one file's findings (diagnostics).",
    read_only=False,
)
def build_check(call: Call) -> ToolResult:
    """Run the `check` task."""
    return _build(call, "check", "check")


@tool(
    "build_clean",
    "tasks",
    "Remove build outputs with the project's declared `clean` task. USE FOR: a clean rebuild. "
    "DON'T USE FOR: anything else (it deletes what the build produced).",
    read_only=False,
)
def build_clean(call: Call) -> ToolResult:
    """Run the `clean` task."""
    return _build(call, "clean", "clean")


# ------------------------------------------------------------------------------- tests


def _runner_of(spec: TaskSpec) -> str:
    found = test_runners.recognise(spec.steps[-1])
    if found is not None:
        return found.runner
    words = " ".join(" ".join(step) for step in spec.steps)
    for runner in ("pytest", "cargo", "go"):
        if runner in words:
            return runner
    return Path(spec.steps[-1][0]).name


@tool(
    "test_list",
    "tasks",
    "List the project's tests with its declared `test_list` task (e.g. pytest --collect-only -q). "
    "USE FOR: names to pass to test_run(filter). DON'T USE FOR: running them (test_run).",
)
def test_list(call: Call) -> ToolResult:
    """Run the `test_list` task and read the names."""
    outcome = run_tests(call, "test_list", lambda run: None)
    if isinstance(outcome, ToolResult):
        return outcome
    run, _, detected = outcome
    runner = _runner_of(run.spec)
    if runner in ("pytest", "cargo", "go"):
        names = test_results.parse_test_list(run.stdout, runner)
    else:  # another runner: its non-empty lines, as it printed them
        names = [line.strip() for line in run.stdout.splitlines() if line.strip()]
    blocks = opening(run, "test_list", f"{len(names)} test{'s' * (len(names) != 1)}")
    if detected is not None:
        blocks.insert(1, detected.note())
    if names:
        blocks.append("\n".join(names))
    elif not run.ok:
        blocks.append("output:\n" + output_tail(run.output))
    data = run_data(run)
    data["tests"] = names
    if detected is not None:
        data["detected"] = detected.json()
    return ToolResult(blocks, data)


def _failure_diagnostic(case: test_results.TestCase) -> Diagnostic:
    line = max((case.line or 1) - 1, 0)
    message = (case.failure_message or case.status).strip().splitlines()
    return Diagnostic(
        Range(Position(line, 0), Position(line, 0)),
        f"test {case.name} {case.status}: {message[0] if message else ''}".strip(),
        Severity.Error,
        source="test",
    )


@tool(
    "test_run",
    "tasks",
    "Run the project's tests with its `test` task, optionally filtered; per-test results from the runner's "
    "structured reporter (added when the task names none: pytest, go, jest, vitest, node --test, mocha), else "
    "the counts of its summary line. USE FOR: which tests pass or fail, with failure messages at path:line. "
    "DON'T USE FOR: listing tests (test_list) or coverage (test_coverage).",
    read_only=False,
)
def test_run(
    call: Call,
    filter: Annotated[str, Doc("Only tests matching this (passed to the runner as the task's `filter` says).")] = "",
) -> ToolResult:
    """Run the `test` task and read its results."""
    outcome = run_tests(call, "test", _results_of(call), filter=filter)
    if isinstance(outcome, ToolResult):
        return outcome
    run, results, detected = outcome
    assert results is not None
    blocks = opening(run, "test", results.text())
    if detected is not None:
        blocks.insert(1, detected.note())
    data = run_data(run)
    data.update(results.counts(), counts_from=results.source or None)
    if detected is not None:
        data["detected"] = detected.json()
    cases = results.report.cases if results.report is not None else results.failures
    bad = [c for c in cases if c.status in ("failed", "error")]
    lines = []
    for case in bad[:MAX_FAILURES_SHOWN]:
        where = f"{case.path}:{case.line}" if case.path and case.line else (case.path or "?")
        first = (case.failure_message or "").strip().splitlines()
        lines.append(f"{where} {case.status.upper()} {case.name}: {first[0] if first else ''}".rstrip(": "))
    if len(bad) > MAX_FAILURES_SHOWN:
        lines.append(f"… {len(bad) - MAX_FAILURES_SHOWN} more (all in the data)")
    if lines:
        blocks.append("\n".join(lines))
    if results.report is None:
        blocks.extend(results.without_report())
        if results.summary is None or (not run.ok and not bad):
            blocks.append("output:\n" + output_tail(run.output))
    by_file: dict[Path, list[Diagnostic]] = {}
    for case in bad:
        if case.path and case.line:
            by_file.setdefault((run.cwd / case.path).resolve(), []).append(_failure_diagnostic(case))
    show_in_editor(call, "test", by_file)
    data.update(
        results=[_case_json(c) for c in cases],
        diagnostics={
            call.workspace.display(path): [diagnostic_json(d) for d in diags] for path, diags in by_file.items()
        },
    )
    return ToolResult(blocks, data)


def _results_of(call: Call) -> Callable[[TaskRun], test_counts.Results]:
    def read(run: TaskRun) -> test_counts.Results:
        return test_counts.read_results(
            run, test_runners.recognise(run.spec.steps[-1], package_scripts(call, run.spec))
        )

    return read


def _case_json(case: test_results.TestCase) -> dict[str, Any]:
    out: dict[str, Any] = {"name": case.name, "status": case.status, "duration_ms": round(case.duration_ms, 1)}
    if case.path:
        out["location"] = f"{case.path}:{case.line}" if case.line else case.path
    if case.failure_message:
        out["failure_message"] = case.failure_message
    if case.output and case.status in ("failed", "error"):
        out["output"] = case.output
    return out
