"""Profiles as per-function times: cProfile/pstats files, collapsed stacks and speedscope
JSON, and their hotspots (`hotspots(profile, n)`: sorted by self time).

- `read_pstats(path)`: the standard library's `pstats` (tottime → self, cumtime → total,
  ncalls → calls). A function is named `module:qualname` (`pkg.mod:Worker.run`): the module
  from its file and the package folders above it (`__init__.py`), the
  qualified name from the file's syntax tree where pstats gives only the function's name
  (in the NAMED_FILES files of the most expensive functions by self or total time). Builtins
  keep pstats' `{built-in method …}` with path "" and line 0. Not sampled: `samples` 0.
- `read_collapsed(text)`: Brendan Gregg's `a;b;c 12` (root first): a frame's self is the
  samples where it is last, its total the samples of the stacks it is in (once per stack,
  so recursion does not count twice). Frames `name (path:line)` (py-spy) give a path and a
  line (the smallest seen: py-spy names the running line); others are names alone. Times
  are samples × `interval_ms`; calls are not known (0).
- `read_speedscope(data)`: the speedscope file format's `sampled` profiles (stacks and
  weights) and `evented` ones (`O`/`C` events: self is the time a frame is on top, total
  the time it is open, calls its openings), frames with `name`/`file`/`line`; all profiles
  (threads) of the file are added up. Values in a time unit are converted to ms; `none`
  or `bytes` are kept as they are.
Paths are as the profile gives them (see `test_results.resolve_path`).
"""

from __future__ import annotations

import ast
import io
import marshal
import os
import pstats
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simple_brief.errors import UserError
from simple_brief.files.beneath import shown_path
from simple_brief.tasks.test_results import read_report, resolve_path

#: Source files parsed for qualified names: those of the most expensive functions first.
NAMED_FILES = 100
#: The largest source file parsed for qualified names, bytes.
SOURCE_MAX_BYTES = 2 * 1024 * 1024
#: Milliseconds per unit of a speedscope profile.
UNIT_MS = {"nanoseconds": 1e-6, "microseconds": 1e-3, "milliseconds": 1.0, "seconds": 1000.0}


@dataclass
class FunctionStat:
    """One function's times: `self_ms` in it, `total_ms` in it and what it called; `calls`
    0 when the profile does not count them (sampled profiles)."""

    name: str
    path: str
    line: int
    self_ms: float
    total_ms: float
    calls: int = 0


@dataclass
class Profile:
    """A whole profile: its duration, its samples (0 when it is not sampled), its functions."""

    duration_ms: float
    samples: int
    functions: list[FunctionStat] = field(default_factory=list)


def hotspots(profile: Profile, n: int) -> list[dict[str, Any]]:
    """The `n` functions with the most self time, each with `name`, `path`, `line`,
    `location` (`path:line`), `self_ms`, `total_ms`, `self_time_pct`, `total_time_pct` (of
    all self time, the time the profile accounts for) and `call_count`."""
    base = sum(f.self_ms for f in profile.functions) or profile.duration_ms
    ranked = sorted(profile.functions, key=lambda f: (-f.self_ms, -f.total_ms, f.name))
    return [
        {
            "name": f.name,
            "path": f.path,
            "line": f.line,
            "location": f"{f.path}:{f.line}" if f.path and f.line else f.path,
            "self_ms": round(f.self_ms, 3),
            "total_ms": round(f.total_ms, 3),
            "self_time_pct": round(100.0 * f.self_ms / base, 2) if base else 0.0,
            "total_time_pct": round(100.0 * f.total_ms / base, 2) if base else 0.0,
            "call_count": f.calls,
        }
        for f in ranked[: max(n, 0)]
    ]


# ---------------------------------------------------------------- pstats


class _Loaded:
    """What `pstats.Stats` accepts besides a file name: something with `create_stats`."""

    def __init__(self, stats: object) -> None:
        self.stats = stats

    def create_stats(self) -> None:
        """The stats are already there."""


def read_pstats(path: Path, root: Path | None = None) -> Profile:
    """A cProfile/profile output file (`python -m cProfile -o out.prof prog.py`); `root` is
    the folder the profiled run's relative paths are relative to (its cwd; by default the
    profile's folder, where `-o out.prof` wrote it).

    Raises:
        UserError: missing, too large, or not a pstats file.
    """
    shown = shown_path(path)
    data = read_report(path)
    try:
        stats = pstats.Stats(_Loaded(marshal.loads(data)), stream=io.StringIO())  # type: ignore[arg-type]
        entries = [(_key(func), value) for func, value in stats.stats.items()]  # type: ignore[attr-defined]
        rows = [(func, int(cc), int(nc), float(tt), float(ct)) for func, (cc, nc, tt, ct, _c) in entries]
    except (ValueError, EOFError, TypeError, AttributeError):
        raise UserError(
            f"{shown} is not a cProfile/pstats file; write one with `python -m cProfile -o {shown} program.py`."
        ) from None
    if root is None:
        root = Path(os.path.abspath(path)).parent
    names = _QualifiedNames(root)
    wanted = _costliest_files(rows)
    functions = []
    modules: dict[str, str] = {}
    for func, _cc, nc, tt, ct in rows:
        filename, line, funcname = func
        if filename == "~" and line == 0:
            functions.append(FunctionStat(_builtin_name(funcname), "", 0, tt * 1000, ct * 1000, nc))
            continue
        qualname = names.qualname(filename, line, funcname) if filename in wanted else funcname
        if filename not in modules:
            modules[filename] = _module(filename, root)
        name = f"{modules[filename]}:{qualname}"
        functions.append(FunctionStat(name, filename, line, tt * 1000, ct * 1000, nc))
    return Profile(duration_ms=stats.total_tt * 1000, samples=0, functions=functions)  # type: ignore[attr-defined]


def _costliest_files(rows: list[tuple[tuple[str, int, str], int, int, float, float]]) -> set[str]:
    """The NAMED_FILES files whose functions rank highest by self or by total time."""
    rank: dict[str, int] = {}
    for order in (sorted(rows, key=lambda r: -r[3]), sorted(rows, key=lambda r: -r[4])):
        for place, row in enumerate(order):
            filename = row[0][0]
            rank[filename] = min(rank.get(filename, place), place)
    return set(sorted(rank, key=rank.__getitem__)[:NAMED_FILES])


def _builtin_name(name: str) -> str:
    """pstats' name of a builtin: `<built-in method x>` → `{built-in method x}`."""
    return "{" + name[1:-1] + "}" if name.startswith("<") and name.endswith(">") else name


def _key(func: object) -> tuple[str, int, str]:
    if not (isinstance(func, tuple) and len(func) == 3):
        raise ValueError("not a pstats key")
    filename, line, name = func
    return str(filename), int(line), str(name)


def _module(filename: str, root: Path | None) -> str:
    """The dotted module of a source file: its name after the folders above it that are
    packages (hold an `__init__.py`): `src/pkg/mod.py` → `pkg.mod`, `pkg/__init__.py` →
    `pkg`. A relative path outside `root` is named by its file alone; `<frozen x>` is `x`,
    other `<…>` names (`<string>`) are kept."""
    if filename.startswith("<"):
        return filename[8:-1] if filename.startswith("<frozen ") and filename.endswith(">") else filename
    full = resolve_path(filename, root) if root is not None else None
    if full is None:
        if not os.path.isabs(filename):
            return Path(filename).stem or filename
        full = Path(os.path.normpath(filename))
    parts = [] if full.stem == "__init__" else [full.stem]
    folder = full.parent
    while folder != folder.parent and (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts) or full.stem


class _QualifiedNames:
    """Qualified names by first line (`def` or first decorator), one parse per file."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._files: dict[str, dict[int, str]] = {}

    def qualname(self, filename: str, line: int, funcname: str) -> str:
        if "." in funcname or funcname.startswith("<"):
            return funcname
        if filename not in self._files:
            self._files[filename] = self._parse(filename)
        found = self._files[filename].get(line)
        return found if found is not None and found.rsplit(".", 1)[-1] == funcname else funcname

    def _parse(self, filename: str) -> dict[int, str]:
        full = resolve_path(filename, self.root) if self.root is not None else None
        if full is None:
            if not os.path.isabs(filename):
                return {}
            full = Path(filename)
        try:
            tree = ast.parse(read_report(full, SOURCE_MAX_BYTES))
        except (UserError, SyntaxError, ValueError):
            return {}
        lines: dict[int, str] = {}
        _walk(tree.body, "", lines)
        return lines


def _walk(body: Iterable[ast.stmt], prefix: str, lines: dict[int, str]) -> None:
    for node in body:
        if isinstance(node, ast.ClassDef):
            _walk(node.body, f"{prefix}{node.name}.", lines)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            qualname = prefix + node.name
            for line in [node.lineno, *(d.lineno for d in node.decorator_list)]:
                lines.setdefault(line, qualname)
            _walk(node.body, f"{qualname}.<locals>.", lines)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    _walk([child], prefix, lines)


# ---------------------------------------------------------------- collapsed stacks

_PYSPY_FRAME = re.compile(r"^(?P<name>.*?) \((?P<path>[^()]*?):(?P<line>\d+)\)$")


class _Table:
    """Functions by identity as a profile is read; self and total in the profile's unit."""

    def __init__(self) -> None:
        self.stats: dict[tuple[str, str], FunctionStat] = {}

    def get(self, name: str, path: str, line: int) -> FunctionStat:
        stat = self.stats.get((name, path))
        if stat is None:
            stat = self.stats[(name, path)] = FunctionStat(name, path, line, 0.0, 0.0, 0)
        elif line and (not stat.line or line < stat.line):
            stat.line = line
        return stat

    def add_stack(self, stack: list[FunctionStat], weight: float) -> None:
        """One sample: its weight is self time of the last frame, total time of each frame once."""
        if not stack:
            return
        stack[-1].self_ms += weight
        for stat in {id(s): s for s in stack}.values():
            stat.total_ms += weight

    def functions(self, scale: float) -> list[FunctionStat]:
        for stat in self.stats.values():
            stat.self_ms *= scale
            stat.total_ms *= scale
        return list(self.stats.values())


def read_collapsed(text: str, interval_ms: float = 1.0) -> Profile:
    """Collapsed stacks, one `frame;frame;… count` per line (root first).

    Raises:
        UserError: a line is not `stack count`, or there is no sample.
    """
    table = _Table()
    samples = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        stack_text, _, count_text = line.rpartition(" ")
        if not stack_text or not count_text.isdigit():
            raise UserError(f"line {number} of the collapsed stacks is not `frame;frame;… count`; check the profiler.")
        count = int(count_text)
        samples += count
        stack = []
        for frame in stack_text.split(";"):
            match = _PYSPY_FRAME.match(frame)
            if match:
                stack.append(table.get(match.group("name"), match.group("path"), int(match.group("line"))))
            else:
                stack.append(table.get(frame, "", 0))
        table.add_stack(stack, count)
    if not samples:
        raise UserError("the collapsed stacks hold no sample; profile for longer or check the profiler's output.")
    return Profile(duration_ms=samples * interval_ms, samples=samples, functions=table.functions(interval_ms))


# ---------------------------------------------------------------- speedscope


def _bad_speedscope(why: str) -> UserError:
    return UserError(f"the speedscope file is malformed ({why}); write it again with the profiler.")


def read_speedscope(data: Any) -> Profile:
    """A speedscope file (already parsed JSON): its `sampled` and `evented` profiles.

    Raises:
        UserError: not a speedscope file, or a profile's frames, samples or events are malformed.
    """
    if not isinstance(data, dict) or not isinstance(data.get("profiles"), list):
        raise UserError("the file is not in the speedscope format (no `profiles` list); export it again as speedscope.")
    frames = data.get("shared", {}).get("frames") if isinstance(data.get("shared"), dict) else None
    if not isinstance(frames, list) or not all(isinstance(f, dict) and "name" in f for f in frames):
        raise _bad_speedscope("`shared.frames` is not a list of frames with names")
    table = _Table()
    stats = [
        table.get(str(f["name"]), str(f.get("file") or ""), f["line"] if isinstance(f.get("line"), int) else 0)
        for f in frames
    ]
    duration = 0.0
    samples = 0
    for profile in data["profiles"]:
        if not isinstance(profile, dict):
            raise _bad_speedscope("a profile is not an object")
        scale = UNIT_MS.get(str(profile.get("unit", "none")), 1.0)
        try:
            duration += (float(profile.get("endValue", 0)) - float(profile.get("startValue", 0))) * scale
        except (TypeError, ValueError):
            raise _bad_speedscope("a profile's startValue or endValue is not a number") from None
        if profile.get("type") == "sampled":
            samples += _read_sampled(profile, stats, table, scale)
        elif profile.get("type") == "evented":
            _read_evented(profile, stats, table, scale)
        else:
            raise _bad_speedscope(f"a profile's type is {profile.get('type')!r}, not 'sampled' or 'evented'")
    return Profile(duration_ms=duration, samples=samples, functions=table.functions(1.0))


def _frame(stats: list[FunctionStat], index: object) -> FunctionStat:
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(stats):
        raise _bad_speedscope(f"frame index {index!r} is not one of the {len(stats)} frames")
    return stats[index]


def _read_sampled(profile: dict[str, Any], stats: list[FunctionStat], table: _Table, scale: float) -> int:
    stacks, weights = profile.get("samples"), profile.get("weights")
    if not isinstance(stacks, list) or not isinstance(weights, list) or len(stacks) != len(weights):
        raise _bad_speedscope("a sampled profile needs `samples` and `weights` of the same length")
    for stack, weight in zip(stacks, weights, strict=True):
        if not isinstance(stack, list) or not isinstance(weight, int | float):
            raise _bad_speedscope("a sample is not a list of frame indexes with a numeric weight")
        table.add_stack([_frame(stats, i) for i in stack], weight * scale)
    return len(stacks)


def _read_evented(profile: dict[str, Any], stats: list[FunctionStat], table: _Table, scale: float) -> None:
    events = profile.get("events")
    if not isinstance(events, list):
        raise _bad_speedscope("an evented profile has no `events` list")
    stack: list[FunctionStat] = []
    opened: dict[int, tuple[int, float]] = {}  # id(stat) -> (open count, time of the outermost opening)
    last = None
    for event in events:
        if not isinstance(event, dict) or not isinstance(event.get("at"), int | float):
            raise _bad_speedscope("an event has no numeric `at`")
        at = float(event["at"]) * scale
        if stack and last is not None:
            stack[-1].self_ms += at - last
        last = at
        stat = _frame(stats, event.get("frame"))
        if event.get("type") == "O":
            stat.calls += 1
            count, since = opened.get(id(stat), (0, at))
            opened[id(stat)] = (count + 1, since)
            stack.append(stat)
        elif event.get("type") == "C":
            if not stack or stack[-1] is not stat:
                raise _bad_speedscope(
                    f"frame {stat.name!r} is closed at {event['at']} but is not the innermost open one"
                )
            stack.pop()
            count, since = opened[id(stat)]
            if count == 1:
                del opened[id(stat)]
                stat.total_ms += at - since
            else:
                opened[id(stat)] = (count - 1, since)
        else:
            raise _bad_speedscope(f"an event's type is {event.get('type')!r}, not 'O' or 'C'")
    if stack:
        raise _bad_speedscope(f"frame {stack[-1].name!r} is never closed")
