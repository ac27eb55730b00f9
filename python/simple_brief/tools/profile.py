"""Profiling tools of the `tasks` toolset: `profile_run` runs the declared `profile` task
(e.g. `python -m cProfile -o {report} {file}`) inside its limits and keeps the profile
under a `report_id`; `profile_report` and `profile_hotspots` read it back, also from a
later CLI call (reports are kept as 0600 JSON files in the state directory, the newest
`KEEP_REPORTS`).

The report format follows the file: cProfile/pstats output, collapsed stacks
(`a;b;c 12`) or speedscope JSON (`simple_brief.tasks.profiles`).
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
import time
from pathlib import Path
from typing import Annotated, Any

from simple_brief.errors import UserError
from simple_brief.files.private_files import state_dir, write_private
from simple_brief.tasks import profiles
from simple_brief.tasks.runner import TaskRun
from simple_brief.tools import Call, Doc, ToolResult, tool
from simple_brief.tools.tasks import missing, opening, run_data, run_named

#: Profiles kept on disk; older ones are removed.
KEEP_REPORTS = 20
#: Functions a hotspot answer lists by default.
DEFAULT_HOTSPOTS = 15
_ID = re.compile(r"^prof-[0-9a-f]{12}$")


def reports_dir() -> Path:
    return state_dir() / "profiles"


def read_profile(path: Path, root: Path | None = None) -> profiles.Profile:
    """A profile file in whichever supported format it is in (`root`: the run's folder,
    where a pstats profile's relative paths start).

    Raises:
        UserError: it is none of them.
    """
    data = path.read_bytes()
    if data[:1] in (b"{", b"["):
        return profiles.read_speedscope(json.loads(data))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return profiles.read_pstats(path, root)
    if re.match(r"^\S.* \d+$", text.splitlines()[0] if text else ""):
        return profiles.read_collapsed(text)
    return profiles.read_pstats(path, root)


def _profile_of(run: TaskRun) -> profiles.Profile | None:
    if run.report is not None and run.report.is_file():
        return read_profile(run.report, run.cwd)
    return None


def _save(profile: profiles.Profile, meta: dict[str, Any]) -> str:
    report_id = f"prof-{secrets.token_hex(6)}"
    body = {"meta": meta, "profile": dataclasses.asdict(profile)}
    folder = reports_dir()
    write_private(folder / f"{report_id}.json", json.dumps(body).encode("utf-8"))
    kept = sorted(folder.glob("prof-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in kept[KEEP_REPORTS:]:
        old.unlink(missing_ok=True)
    return report_id


def _load(report_id: str) -> tuple[profiles.Profile, dict[str, Any]]:
    if not _ID.match(report_id):
        raise UserError(
            f"report_id {report_id!r} is not a profile id; profile_run answers with one like prof-1a2b3c4d5e6f."
        )
    path = reports_dir() / f"{report_id}.json"
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UserError(
            f"no profile {report_id} is kept (the newest {KEEP_REPORTS} are); run profile_run again."
        ) from None
    raw = body["profile"]
    functions = [profiles.FunctionStat(**f) for f in raw.pop("functions")]
    return profiles.Profile(functions=functions, **raw), body.get("meta", {})


def _where(call: Call, path: str, line: int) -> str:
    """`path:line` of a profiled function, workspace-relative inside it; "" for builtins."""
    if not path:
        return ""
    shown = path
    if Path(path).is_absolute():
        try:
            shown = Path(path).relative_to(call.workspace.root).as_posix()
        except ValueError:
            shown = path
    return f"{shown}:{line}" if line else shown


def _hotspot_lines(call: Call, profile: profiles.Profile, limit: int) -> tuple[list[str], list[dict[str, Any]]]:
    spots = profiles.hotspots(profile, limit)
    for spot in spots:
        spot["location"] = _where(call, spot["path"], spot["line"])
    lines = [
        f"{s['self_time_pct']:5.1f}% self {s['total_time_pct']:5.1f}% total {s['call_count']:>8,} calls  "
        f"{s['name']}  {s['location']}".rstrip()
        for s in spots
    ]
    return lines, spots


def _extent(profile: profiles.Profile) -> str:
    """`1,234 samples`, or for a deterministic profile (cProfile) its call count."""
    if profile.samples:
        return f"{profile.samples:,} samples"
    return f"{sum(f.calls for f in profile.functions):,} calls (deterministic)"


@tool(
    "profile_run",
    "tasks",
    "Profile a program with the declared `profile` task (e.g. python -m cProfile -o {report} {file}), inside "
    "limits; answers duration, samples, the top hotspots and a report_id. USE FOR: where time goes. "
    "DON'T USE FOR: tests (test_run).",
    read_only=False,
)
def profile_run(
    call: Call,
    file: Annotated[str, Doc("The program to profile (fills the task's {file}), inside the workspace.")] = "",
) -> ToolResult:
    """Run the `profile` task and keep its profile."""
    target = ""
    if file:
        real = call.workspace.resolve(file)
        if not real.is_file():
            raise UserError(f"{file} is not a file of the workspace; name the program to profile.")
        target = str(real)
    outcome = run_named(call, "profile", _profile_of, file=target)
    if isinstance(outcome, ToolResult):
        return outcome
    run, profile = outcome
    if profile is None:
        return missing(
            run,
            "profile",
            "no profile",
            "The run wrote no profile; write it to {report} (e.g. `-m cProfile -o {report}`).",
        )
    data = run_data(run)
    spec = run.spec
    report_id = _save(profile, {"task": spec.name, "file": file, "at": time.time()})
    lines, spots = _hotspot_lines(call, profile, 5)
    detail = f"{profile.duration_ms:,.0f} ms profiled, {_extent(profile)} · report_id {report_id}"
    blocks = opening(run, "profile", detail)
    blocks.append("top by self time:\n" + "\n".join(lines))
    data.update(duration_ms=profile.duration_ms, samples=profile.samples, report_id=report_id, hotspots=spots)
    return ToolResult(blocks, data)


@tool(
    "profile_report",
    "tasks",
    "A kept profile's summary: duration, samples, functions, and the top functions by total time. "
    "USE FOR: the overall picture of a profile_run. DON'T USE FOR: self-time hotspots (profile_hotspots).",
)
def profile_report(call: Call, report_id: Annotated[str, Doc("The report_id profile_run answered.")]) -> ToolResult:
    """Summarise a kept profile by total time."""
    profile, meta = _load(report_id)
    by_total = sorted(profile.functions, key=lambda f: f.total_ms, reverse=True)[:DEFAULT_HOTSPOTS]
    whole = profile.duration_ms or 1.0
    lines = [
        f"{f.total_ms / whole * 100:5.1f}% total {f.calls:>8,} calls  {f.name}  {_where(call, f.path, f.line)}".rstrip()
        for f in by_total
    ]
    head = (
        f"profile {report_id}"
        + (f" of {meta['file']}" if meta.get("file") else "")
        + f": {profile.duration_ms:,.0f} ms, {_extent(profile)}, {len(profile.functions):,} functions"
    )
    data = {
        "report_id": report_id,
        "duration_ms": profile.duration_ms,
        "samples": profile.samples,
        "functions": len(profile.functions),
        "top_by_total": [
            {"name": f.name, "location": _where(call, f.path, f.line), "total_ms": f.total_ms, "call_count": f.calls}
            for f in by_total
        ],
    }
    return ToolResult([head, "top by total time:\n" + "\n".join(lines)], data)


@tool(
    "profile_hotspots",
    "tasks",
    "A kept profile's functions sorted by self time, with self/total percentages, call counts and path:line. "
    "USE FOR: what to optimise first. DON'T USE FOR: running a profile (profile_run).",
)
def profile_hotspots(
    call: Call,
    report_id: Annotated[str, Doc("The report_id profile_run answered.")],
    limit: Annotated[int, Doc("How many functions to list.")] = DEFAULT_HOTSPOTS,
) -> ToolResult:
    """The hotspots of a kept profile."""
    if limit < 1:
        raise UserError("limit must be at least 1.")
    profile, _ = _load(report_id)
    lines, spots = _hotspot_lines(call, profile, limit)
    head = f"profile {report_id}: {len(profile.functions):,} functions, top {len(spots)} by self time"
    return ToolResult([head, "\n".join(lines)], {"report_id": report_id, "functions": spots})
