"""Python's tracebacks and syntax errors as findings.

A traceback (`Traceback (most recent call last):`, its `File "x.py", line N, in f`
frames, each with its source line and, since 3.11, carets under the failing expression,
then the exception line) is one finding: at the innermost frame of the project's own
code (inside the run's cwd, or without a cwd, not in the standard library or
site-packages), else at the innermost frame; its message is the exception line. A
syntax error (`File "x.py", line N` with no `in`, the source line, the caret line, then
`SyntaxError: ...`) is one finding at its caret, with or without a traceback above it.

Python prints the source line without its indentation, so caret columns are in the
`char-after-indent` unit (`compiler_findings`). Interpreters before 3.13 print a syntax
error's caret at its byte offset (CPython gh-102310), so on a line with non-ASCII
characters before it the column is read as 3.13+ prints it and lands further right;
traceback frames' carets are code points in every version that prints them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePath

from simple_brief.model import Severity
from simple_brief.tasks.compiler_findings import Finding

TRACEBACK = "Traceback (most recent call last):"
FRAME = re.compile(r'^(?P<indent>\s*)File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>.+))?$')
_CARETS = re.compile(r"^\s*[\^~]+\s*$")
_EXCEPTION = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)(?::(?: (?P<message>.*))?)?$")
_LIBRARY = re.compile(r"(^<.*>$)|([\\/](site|dist)-packages[\\/])|([\\/]lib[\\/]python\d[\d.]*[\\/])")
_SYNTAX = ("SyntaxError", "IndentationError", "TabError")


@dataclass
class _Frame:
    path: str
    line: int
    in_function: bool
    source: str = ""
    start: int = 0  # 1-based, in code points after the source line's indentation; 0: none
    end: int = 0


def _inside(path: str, cwd: Path | None) -> bool:
    """Whether a frame's file is the project's own code rather than a library's."""
    if _LIBRARY.search(path):
        return False
    if cwd is None or not PurePath(path).is_absolute():
        return True
    try:
        Path(path).relative_to(cwd)
    except ValueError:
        return False
    return True


def _take_source(frame: _Frame, text: str) -> None:
    """Record a source or caret line printed under `frame`."""
    if not frame.source:
        frame.source = text
        return
    if frame.start or not _CARETS.match(text):
        return
    indent = len(frame.source) - len(frame.source.lstrip())
    marks = [i for i, ch in enumerate(text) if ch in "^~"]
    frame.start, frame.end = marks[0] - indent + 1, marks[-1] - indent + 2


def parse_python_block(lines: list[str], i: int, cwd: Path | None) -> tuple[Finding | None, int]:
    """The finding of the traceback or syntax error starting at `lines[i]` (a `Traceback`
    header or a `File "x.py", line N` line) and the index of the line after it; None when
    the block does not end with an exception line."""
    frames: list[_Frame] = []
    traceback = lines[i].strip() == TRACEBACK
    j = i + 1 if traceback else i
    while j < len(lines):
        text = lines[j]
        match = FRAME.match(text)
        if match:
            frames.append(_Frame(match["path"], int(match["line"]), match["func"] is not None))
        elif text[:1].isspace() and text.strip():
            if frames and not text.lstrip().startswith("[Previous line repeated"):
                _take_source(frames[-1], text)
        else:
            break
        j += 1
    exception = _EXCEPTION.match(lines[j]) if j < len(lines) else None
    if not frames or exception is None:
        return None, max(j, i + 1)
    name = exception["name"]
    if not traceback and not name.endswith(("Error", "Exception", "Warning")):
        return None, j
    frame = _pick(frames, name, cwd)
    if frame.source and not frame.start:  # no carets: the whole statement line
        frame.start, frame.end = 1, len(frame.source.strip()) + 1
    return (
        Finding(
            path=frame.path,
            line=frame.line,
            column=frame.start,
            end_line=frame.line if frame.end else 0,
            end_column=frame.end,
            severity=Severity.Error,
            message=lines[j].strip(),
            code=name.rsplit(".", 1)[-1],
            source="python",
            unit="char-after-indent",
        ),
        j + 1,
    )


def _pick(frames: list[_Frame], exception: str, cwd: Path | None) -> _Frame:
    if exception.rsplit(".", 1)[-1] in _SYNTAX and not frames[-1].in_function:
        return frames[-1]  # the file with the bad syntax
    for frame in reversed(frames):
        if _inside(frame.path, cwd):
            return frame
    return frames[-1]
