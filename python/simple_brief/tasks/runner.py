"""Running a declared task: its commands in order inside its limits, the placeholders
filled in, the files it produced, and live progress.

`run_task(spec, root, ...)` runs `spec.steps` (the first failure stops the run, except
in `coverage`, whose report step follows failing tests), each
through `sandbox.run` with the task's limits (the time limit covers the whole task), and
returns a `TaskRun`: every command's `Completed`, the `{junit}`/`{report}` files, the
artifacts the declared globs matched that are new or changed, and which limit stopped
it, if one did.
"""

from __future__ import annotations

import re
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from simple_brief.errors import UserError
from simple_brief.files.task_specs import TaskSpec
from simple_brief.proc import environment
from simple_brief.tasks import agent_values, sandbox
from simple_brief.tasks.sandbox import Completed, Limits

#: At most this many artifacts are listed (the count says how many there were).
MAX_ARTIFACTS = 200
#: Progress is reported at most this often, seconds.
PROGRESS_EVERY = 0.2
#: The placeholders that hold what an agent passed: data, never options (`agent_values`).
AGENT_PLACEHOLDERS = frozenset({"{filter}", "{file}"})


@dataclass
class Artifact:
    """A file the run created or changed: path relative to the root, what it is, bytes."""

    path: str
    type: str
    size: int


@dataclass
class TaskRun:
    """What running a task did."""

    spec: TaskSpec
    cwd: Path
    steps: list[Completed] = field(default_factory=list)
    junit: Path | None = None
    report: Path | None = None
    artifacts: list[Artifact] = field(default_factory=list)
    artifact_count: int = 0
    duration_ms: float = 0.0
    cancelled: bool = False
    #: Test counts read from the live output (what is known when no report was written).
    counter: Counter | None = None

    @property
    def ok(self) -> bool:
        """Every command ran and exited 0 within the limits."""
        return bool(self.steps) and len(self.steps) == len(self.spec.steps) and all(s.ok for s in self.steps)

    @property
    def limit_exceeded(self) -> str | None:
        return next((s.limit_exceeded for s in self.steps if s.limit_exceeded), None)

    @property
    def output(self) -> str:
        """Everything the commands printed, in order."""
        return "".join(s.output for s in self.steps)

    @property
    def stdout(self) -> str:
        return "".join(s.stdout for s in self.steps)

    @property
    def exit_code(self) -> int | None:
        """The first failing command's exit status, else the last one's."""
        failed = [s.exit_code for s in self.steps if s.exit_code != 0]
        return failed[0] if failed else (self.steps[-1].exit_code if self.steps else None)


class Counter:
    """Test counts as they arrive, read from the runner's live output (progress only:
    results come from the structured report): pytest's progress characters (after the
    file's name, or alone with `-q`), `go test -json` actions, cargo's `test x ... ok` lines."""

    _PYTEST = re.compile(r"^(?:\S+\.py ([.FEsxX]+)|([.FEsxX]+)\s+\[\s*\d+%\]\s*$)", re.M)
    _CARGO = re.compile(r"^test \S+ \.\.\. (ok|FAILED|ignored)", re.M)
    _GO = re.compile(r'"Action":"(pass|fail|skip)","Package":"[^"]*","Test"')

    def __init__(self) -> None:
        self.passed = self.failed = self.skipped = 0
        self._tail = ""

    def feed(self, text: str) -> None:
        text, self._tail = self._tail + text, ""
        cut = text.rfind("\n")
        if cut < 0:
            self._tail = text[-4096:]
            return
        text, self._tail = text[: cut + 1], text[cut + 1 :][-4096:]
        for named, quiet in self._PYTEST.findall(text):
            marks = named or quiet
            self.passed += marks.count(".") + marks.count("X")
            self.failed += marks.count("F") + marks.count("E")
            self.skipped += marks.count("s") + marks.count("x")
        for word in self._CARGO.findall(text):
            self.passed += word == "ok"
            self.failed += word == "FAILED"
            self.skipped += word == "ignored"
        for word in self._GO.findall(text):
            self.passed += word == "pass"
            self.failed += word == "fail"
            self.skipped += word == "skip"

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.skipped

    def text(self) -> str:
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped so far"


def run_task(
    spec: TaskSpec,
    root: Path,
    cwd: Path,
    *,
    filter: str = "",
    file: str = "",
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[float, float | None, str], None] | None = None,
    env: Mapping[str, str] | None = None,
    scratch: Path | None = None,
) -> TaskRun:
    """Run `spec` in `cwd` (see the module doc). `scratch` is where `{junit}`/`{report}`
    files go (a fresh temporary folder when None; the caller removes it).

    Raises:
        UserError: a filter was given but the task declares none, a placeholder has no
            value, an agent's value would be read as an option (`agent_values.fill`), or
            a command's program is not found outside the workspace or cannot start
            (`sandbox.program`, `sandbox.run`).
    """
    name = f"tasks.{spec.name}"
    if filter and not spec.filter:
        raise UserError(
            f"{name} declares no `filter`, so a filter cannot be passed on; add e.g. "
            f'filter = ["-k", "{{filter}}"] to [tasks.{spec.name}].'
        )
    if spec.uses("{file}") and not file:
        raise UserError(f"{name} runs `{{file}}`; name the file to run.")
    folder = scratch if scratch is not None else Path(tempfile.mkdtemp(prefix="simple-brief-task-")).resolve()
    values = {
        "{file}": file,
        "{junit}": str(folder / "junit.xml"),
        "{report}": str(folder / f"report{_report_suffix(spec)}"),
    }
    if filter:
        values["{filter}"] = filter
    declared = [list(step) for step in spec.steps]
    declared[-1] += list(spec.filter) if filter else []
    commands = [agent_values.fill(step, values, AGENT_PLACEHOLDERS, name) for step in declared]
    counter = Counter()
    run = TaskRun(spec, cwd, counter=counter)
    if spec.uses("{junit}"):
        run.junit = Path(values["{junit}"])
    if spec.uses("{report}"):
        run.report = Path(values["{report}"])
    elif spec.report:
        run.report = cwd / spec.report
    merged = environment.for_child() if env is None else dict(env)
    merged.update(spec.env)
    for command in commands:  # the programs as the person trusted them, before anything runs
        command[0] = sandbox.program(command[0], cwd, merged, name, root=root)
    before = _snapshot(cwd, spec.artifacts)
    started = time.monotonic()
    last = [0.0]

    def on_output(text: str) -> None:
        counter.feed(text)
        now = time.monotonic()
        if progress is not None and counter.total and now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            progress(counter.total, None, counter.text())

    for i, command in enumerate(commands):
        spent = time.monotonic() - started
        limits = Limits(
            timeout_s=max(0.1, spec.timeout_s - spent),
            memory_mb=spec.memory_mb,
            output_bytes=int(spec.output_mb * 1024 * 1024),
        )
        if progress is not None:
            progress(i, len(commands), f"{spec.name}: {' '.join(command)[:80]}")
        done = sandbox.run(command, cwd, merged, limits, task=name, cancelled=cancelled, on_output=on_output)
        run.steps.append(done)
        if done.cancelled:
            run.cancelled = True
        if done.cancelled or done.limit_exceeded or (not done.ok and spec.name != "coverage"):
            break  # (coverage: failing tests still leave the data its report step reads)
    run.duration_ms = (time.monotonic() - started) * 1000
    changed = _changed(before, _snapshot(cwd, spec.artifacts))
    run.artifact_count = len(changed)
    run.artifacts = [_artifact(root, path) for path in changed[:MAX_ARTIFACTS]]
    return run


def _report_suffix(spec: TaskSpec) -> str:
    """`{report}`'s file ending, from how the command names its format."""
    words = " ".join(" ".join(step) for step in spec.steps)
    if "cProfile" in words or "profile" in spec.name:
        return ".prof"
    for hint, suffix in (("json", ".json"), ("xml", ".xml"), ("lcov", ".info")):
        if hint in words:
            return suffix
    return ".out"


def _snapshot(cwd: Path, globs: tuple[str, ...]) -> dict[Path, tuple[int, int]]:
    """(mtime_ns, size) of every regular file the globs match (links not followed)."""
    found: dict[Path, tuple[int, int]] = {}
    for pattern in globs:
        for path in cwd.glob(pattern):
            try:
                info = path.lstat()
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                found[path] = (info.st_mtime_ns, info.st_size)
    return found


def _changed(before: dict[Path, tuple[int, int]], after: dict[Path, tuple[int, int]]) -> list[Path]:
    return sorted(path for path, state in after.items() if before.get(path) != state)


def _artifact(root: Path, path: Path) -> Artifact:
    info = path.lstat()
    try:
        shown = path.relative_to(root).as_posix()
    except ValueError:
        shown = str(path)
    return Artifact(shown, _kind(path, info.st_mode), info.st_size)


def _kind(path: Path, mode: int) -> str:
    suffix = path.suffix.lower()
    if suffix in (".o", ".obj"):
        return "object"
    if suffix in (".a", ".so", ".dylib", ".lib", ".dll", ".rlib") or ".so." in path.name:
        return "library"
    if suffix in (".whl", ".tar", ".gz", ".zip", ".jar"):
        return "package"
    if mode & stat.S_IXUSR:
        return "executable"
    return "file"


def remove_scratch(folder: Path) -> None:
    """Remove a run's scratch folder (its `{junit}`/`{report}` files)."""
    shutil.rmtree(folder, ignore_errors=True)
