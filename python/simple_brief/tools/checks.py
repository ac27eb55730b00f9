"""The checkers a language unit names, asked for one file of a call (`intel.checkers`):
`diagnostics` for one file and `only=parse|types` run them all; `simple_read` only those
that start no program (Python's `compile()`, `tomllib`).

With them, the project's own declared `check` task (`[tasks.check]`, e.g. `mypy {file}`
or `tsc --noEmit`): run as `build_check` runs it (only once the workspace's config is
trusted, in the task sandbox, within its time limit, `{file}` the file), its findings in
this file added to the verdict's, and the first line saying when it was not run, failed
to start or ran out of time (`Verdict.task`)."""

from __future__ import annotations

from pathlib import Path

from simple_brief.errors import UserError
from simple_brief.intel import checkers
from simple_brief.scan import Outline
from simple_brief.tools import Call

#: The declared task whose findings join a file's checkers'.
CHECK_TASK = "check"


def verdict(
    call: Call, real: Path, outline: Outline, in_process_only: bool = False, task: bool = True
) -> checkers.Verdict:
    """What the file's checkers say about it; unsafe ones only in a trusted workspace; and
    (with `task`, unless `in_process_only`) what the declared `check` task reports for it."""
    run = checkers.Run(
        outline.source,
        real,
        call.workspace.root,
        call.config.workspace_trusted,
        outline.language.name,
        outline.tree,
    )
    found = checkers.check(run, outline.language.checks, in_process_only=in_process_only)
    if task and not in_process_only:
        _add_check_task(call, real, found)
    return found


def _add_check_task(call: Call, real: Path, found: checkers.Verdict) -> None:
    """Run the declared `check` task (if any) and add its findings in `real` to `found`."""
    from simple_brief.tools import tasks  # (the tasks toolset imports the tools' registry)

    spec = call.config.tasks.get(CHECK_TASK)
    if spec is None:
        if call.config.untrusted and f"tasks.{CHECK_TASK} =" in call.config.untrusted:
            found.task = (
                f"the `{CHECK_TASK}` task was not run: the workspace's config is not trusted (`simple-brief trust`)"
            )
        return
    if real in call.workspace.overlays:
        found.task = f"the `{CHECK_TASK}` task was not run: it reads the file on disk, not this unsaved text"
        return
    try:
        outcome = tasks.run_named(call, CHECK_TASK, file=call.workspace.display(real) if spec.uses("{file}") else "")
    except UserError as err:
        found.task = f"the `{CHECK_TASK}` task could not run: {err}"
        return
    if not isinstance(outcome, tuple):  # (declared above: not reached)
        return
    run, _ = outcome
    mine = [d for path, diags in tasks.findings_by_file(call, run).items() if path == real for d in diags]
    found.diagnostics.extend(mine)
    shown = " ".join(spec.steps[-1])[:60]
    said = f"{len(mine)} finding{'s' * (len(mine) != 1)} here"
    if run.limit_exceeded == "time":
        found.task = f"the `{CHECK_TASK}` task ({shown}) timed out after {spec.timeout_s:g} s ({said} until then)"
    elif run.limit_exceeded:
        found.task = f"the `{CHECK_TASK}` task ({shown}) passed its {run.limit_exceeded} limit ({said} until then)"
    else:
        found.task = f"the `{CHECK_TASK}` task ({shown}): {said}"


def judged_note(found: checkers.Verdict, servers: list[str]) -> str:
    """`syntax judged by gofmt, also checked by gopls`, or why nothing judged the syntax;
    then what the declared `check` task said."""
    head = f"syntax judged by {found.judged_by}" if found.judged_by else f"syntax not judged: {found.note}"
    head += f", also checked by {', '.join(servers)}" if servers else ""
    return head + (f"; {found.task}" if found.task else "")
