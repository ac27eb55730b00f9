"""Compiler and checker output as diagnostics with fix-its: `parse_output` reads the text a
build or check printed (several tools' output may be mixed, e.g. make running gcc then a
Python script), `to_diagnostics` places the findings in their files.

Formats read (ANSI colours stripped first):
- gcc/clang `file:line:col: error|warning|note: message [-Wflag]`, with the fix-its of
  `-fdiagnostics-parseable-fixits` (`fix-it:"file":{l1:c1-l2:c2}:"text"`, byte columns)
  attached to the finding before them. A note is folded into the message of the finding
  it follows (`note: ...`, with its place when that differs); one with no finding before
  it stands alone. gcc counts columns in display units, clang in bytes: the findings
  before clang's closing `N errors generated.` (which gcc never prints) are clang's.
  The linker's `file:line: undefined reference to ...` (`file:(.text+0x5): ...`
  without `-g`: no line) is a finding too; make's own lines are not, but its
  `Entering directory 'X'` makes the relative paths printed under it start from X.
  gcc's `-fdiagnostics-format=json` lines are read too (`compiler_json`).
- rustc/cargo JSON (`compiler_json`), one object a line; rustc's human form
  `error[E0308]: message` / ` --> file:line:col` as a fallback (code-point columns).
  cargo names files from the workspace root, which may be above the run's cwd.
- tsc `file(line,col): error TS2322: message` and its `--pretty` form
  `file:line:col - error TS2322: message`, indented lines continuing the message (UTF-16).
- mypy `file.py:line[:col[:end_line:end_col]]: error|note: message  [code]` (byte
  columns; a note on the line of the finding before it is folded into its message).
  mypy 2's native parser (its default) prints columns off on lines with non-ASCII
  characters; `--no-native-parser` prints the byte columns read here. Its `--output
  json` lines (`compiler_json`) too.
- pyright `  /abs/file.py:line:col - error: message (reportXxx)` and `--outputjson`.
- Python tracebacks and syntax errors (`compiler_python`), and its warnings
  (`x.py:3: UserWarning: message`, no column).
- Also: javac `File.java:3: error|warning: [lint] message`, its column from the caret
  under the quoted line (code points), indented detail lines folded in; the go tool's
  `./main.go:4:19: message` (byte columns; every one an error).

Unknown text yields no finding; no input raises. The line formats are read by
`compiler_lines`.

Fix-it confidence (`simple_brief.render.explain`): gcc/clang fix-its are quickfixes (0.8);
rustc's `MachineApplicable` suggestions are its own pick (0.95), `HasPlaceholders` 0.5.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from simple_brief.model import Diagnostic, FixIt, Position, Range, TextEdit
from simple_brief.positions import split_lines
from simple_brief.tasks.compiler_findings import Finding, Fix, char_column
from simple_brief.tasks.compiler_json import pyright_findings
from simple_brief.tasks.compiler_lines import ANSI, LineReader

__all__ = ["Finding", "Fix", "parse_output", "to_diagnostics"]


def parse_output(text: str, cwd: Path | None = None) -> list[Finding]:
    """Every finding in a tool's combined output, whichever of the formats above it is in.

    `cwd`, the run's directory, picks a traceback's frame (the innermost one inside it);
    without it, the innermost frame outside the standard library and site-packages.
    """
    text = ANSI.sub("", text)
    whole = text.strip()
    if whole.startswith("{") and "generalDiagnostics" in whole:
        try:
            return pyright_findings(json.loads(whole))
        except (ValueError, RecursionError):
            pass
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    reader = LineReader(cwd)
    i = 0
    while i < len(lines):
        i = reader.line(lines, i)
    return reader.findings()


#: How many directories above the run's cwd a cargo path may start from (its workspace root).
_WORKSPACE_DEPTH = 8


class _Files:
    """The texts of the findings' files, each read once through `read_text`."""

    def __init__(self, cwd: Path, read_text: Callable[[Path], str | None]) -> None:
        self.cwd = cwd
        self.read_text = read_text
        self.texts: dict[Path, list[str] | None] = {}
        self.resolved: dict[tuple[Path, str], Path] = {}

    def resolve(self, base: Path, path: str) -> Path:
        """`base / path` resolved (once per pair: outputs name the same files many times)."""
        found = self.resolved.get((base, path))
        if found is None:
            found = self.resolved[(base, path)] = (base / path).resolve()
        return found

    def lines(self, path: Path) -> list[str] | None:
        if path not in self.texts:
            text = self.read_text(path)
            self.texts[path] = split_lines(text) if text is not None else None
        return self.texts[path]

    def base(self, finding: Finding) -> Path:
        """The directory a finding's relative paths start from: the cwd, except for cargo's
        human output, which names files from the workspace root above it."""
        if finding.source != "rustc" or Path(finding.path).is_absolute():
            return self.cwd
        if self.lines(self.resolve(self.cwd, finding.path)) is None:
            for parent in list(self.cwd.parents)[:_WORKSPACE_DEPTH]:
                if self.lines(self.resolve(parent, finding.path)) is not None:
                    return parent
        return self.cwd

    def position(self, path: Path, line: int, column: int, unit: str) -> Position:
        row = max(line - 1, 0)
        lines = self.lines(path)
        if lines is None or row >= len(lines):
            return Position(row, max(column - 1, 0))
        return Position(row, char_column(lines[row], column, unit))

    def fixits(self, finding: Finding, path: Path, base: Path) -> tuple[FixIt, ...]:
        """The finding's fixes, one FixIt per group, edits to other files apart."""
        groups: dict[int, list[Fix]] = {}
        for fix in finding.fixes:
            groups.setdefault(fix.group, []).append(fix)
        fixits = []
        for fixes in groups.values():
            edits: dict[Path, list[TextEdit]] = {}
            for fix in fixes:
                fix_path = self.resolve(base, fix.path)
                unit = fix.unit or finding.unit
                fix_start = self.position(fix_path, fix.line, fix.column, unit)
                fix_end = self.position(fix_path, fix.end_line, fix.end_column, unit)
                edits.setdefault(fix_path, []).append(TextEdit(Range(fix_start, fix_end), fix.text))
            own = tuple(edits.pop(path, ()))
            others = tuple((p, tuple(e)) for p, e in edits.items())
            fixit = FixIt(fixes[0].title, own, confidence=fixes[0].confidence, kind="quickfix", other_files=others)
            fixits.append(fixit)
        return tuple(fixits)


def to_diagnostics(
    findings: list[Finding], cwd: Path, read_text: Callable[[Path], str | None]
) -> dict[Path, list[Diagnostic]]:
    """The findings as Diagnostics grouped by file (`cwd / path`, resolved), columns in code
    points read from each file's text (`read_text` returns None for a file it may not read:
    its columns are kept as given, less one), fixes as FixIts (edits to another file in
    `other_files`)."""
    files = _Files(cwd, read_text)
    out: dict[Path, list[Diagnostic]] = {}
    for finding in findings:
        base = files.base(finding)
        path = files.resolve(base, finding.path)
        start = files.position(path, finding.line, finding.column, finding.unit)
        end = start
        if finding.end_line:
            end = max(start, files.position(path, finding.end_line, finding.end_column, finding.unit))
        diagnostic = Diagnostic(
            range=Range(start, end),
            message=finding.message,
            severity=finding.severity,
            code=finding.code,
            source=finding.source,
            fixits=files.fixits(finding, path, base),
        )
        out.setdefault(path, []).append(diagnostic)
    return out
