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
  without `-g`: no line) is a finding too; make's own lines are not.
- rustc/cargo JSON (`compiler_json`), one object a line; rustc's human form
  `error[E0308]: message` / ` --> file:line:col` as a fallback (code-point columns).
- tsc `file(line,col): error TS2322: message` and its `--pretty` form
  `file:line:col - error TS2322: message`, indented lines continuing the message (UTF-16).
- mypy `file.py:line[:col[:end_line:end_col]]: error|note: message  [code]` (byte
  columns; a note on the line of the finding before it is folded into its message).
  mypy 2's native parser (its default) prints columns off on lines with non-ASCII
  characters; `--no-native-parser` prints the byte columns read here.
- pyright `  /abs/file.py:line:col - error: message (reportXxx)` and `--outputjson`.
- Python tracebacks and syntax errors (`compiler_python`).

Unknown text yields no finding; no input raises.

Fix-it confidence (`simple_brief.explain`): gcc/clang fix-its are quickfixes (0.8);
rustc's `MachineApplicable` suggestions are its own pick (0.95), `HasPlaceholders` 0.5.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from simple_brief.model import Diagnostic, FixIt, Position, Range, Severity, TextEdit
from simple_brief.positions import split_lines
from simple_brief.tasks.compiler_findings import Finding, Fix, char_column
from simple_brief.tasks.compiler_json import pyright_findings, rustc_finding, severity_of
from simple_brief.tasks.compiler_python import FRAME, TRACEBACK, parse_python_block

__all__ = ["Finding", "Fix", "parse_output", "to_diagnostics"]

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_CC = re.compile(
    r"^(?P<path>[^\s:][^:]*?):(?P<line>\d+):(?:(?P<col>\d+):)?(?:(?P<end_line>\d+):(?P<end_col>\d+):)?"
    r" (?P<sev>fatal error|error|warning|note|remark): (?P<msg>.*)$"
)
_CC_FLAG = re.compile(r"\s\[(?P<code>-W[^\]\s]+)\]$")
_MYPY_CODE = re.compile(r"\s\s\[(?P<code>[a-z0-9][a-z0-9-]*)\]$")
_FIXIT = re.compile(
    r'^fix-it:"(?P<path>(?:[^"\\]|\\.)*)":\{(?P<l1>\d+):(?P<c1>\d+)-(?P<l2>\d+):(?P<c2>\d+)\}:"(?P<text>(?:[^"\\]|\\.)*)"$'
)
_LINKER = re.compile(
    r"^(?P<path>[^\s:][^:]*?):(?:(?P<line>\d+)|\([^)]*\)): "
    r"(?P<msg>(?:undefined reference to|multiple definition of) .*)$"
)
_CLANG_SUMMARY = re.compile(r"^\d+ (?:warnings?|errors?)(?: and \d+ (?:warnings?|errors?))? generated\.$")
_TSC = re.compile(
    r"^(?P<path>[^\s(][^(]*?)(?:\((?P<line>\d+),(?P<col>\d+)\): | ?:(?P<pline>\d+):(?P<pcol>\d+) - )"
    r"(?P<sev>error|warning|message|info) (?P<code>TS\d+): (?P<msg>.*)$"
)
_PYRIGHT = re.compile(
    r"^\s+(?P<path>\S.*?):(?P<line>\d+):(?P<col>\d+) - (?P<sev>error|warning|information): (?P<msg>.*)$"
)
_PYRIGHT_RULE = re.compile(r"\s\((?P<code>report[A-Za-z]+)\)$")
_RUST_HEAD = re.compile(r"^(?P<sev>error|warning|note|help)(?:\[(?P<code>[A-Za-z0-9_]+)\])?: (?P<msg>.+)$")
_RUST_ARROW = re.compile(r"^\s*--> (?P<path>.+?):(?P<line>\d+):(?P<col>\d+)$")
_SIMPLE_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "e": 27}


def _unescape_c(text: str) -> str:
    r"""A C-escaped string as gcc/clang print it in fix-its (`\"`, `\\`, `\n`, octal bytes)."""
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\" or i + 1 == len(text):
            out += ch.encode("utf-8", "surrogatepass")
            i += 1
            continue
        nxt = text[i + 1]
        octal = re.match(r"[0-7]{1,3}", text[i + 1 : i + 4])
        hexa = re.match(r"x[0-9A-Fa-f]{1,2}", text[i + 1 : i + 4])
        if octal:
            out.append(int(octal.group(), 8) & 0xFF)
            i += 1 + len(octal.group())
        elif hexa:
            out.append(int(hexa.group()[1:], 16))
            i += 1 + len(hexa.group())
        else:
            out += bytes([_SIMPLE_ESCAPES[nxt]]) if nxt in _SIMPLE_ESCAPES else nxt.encode("utf-8", "surrogatepass")
            i += 2
    return out.decode("utf-8", "replace")


def _fix_title(text: str, empty_range: bool) -> str:
    if empty_range:
        return f"insert {text!r}"
    return f"replace with {text!r}" if text else "delete"


class _Reader:
    """The line-by-line state: the finding notes, fix-its and continuations attach to."""

    def __init__(self, cwd: Path | None) -> None:
        self.cwd = cwd
        self.found: list[Finding] = []
        self.open: int | None = None  # index in `found` of the finding lines attach to
        self.continues = False  # whether indented lines continue its message
        self.unit_start = 0  # the first finding a clang summary line would be about

    def add(self, finding: Finding, attach: bool = True, continues: bool = False) -> None:
        self.found.append(finding)
        self.open = len(self.found) - 1 if attach else None
        self.continues = continues

    def amend(self, **changes: object) -> None:
        assert self.open is not None
        self.found[self.open] = replace(self.found[self.open], **changes)  # type: ignore[arg-type]

    def line(self, lines: list[str], i: int) -> int:
        """Read `lines[i]` (and maybe more); the index of the next unread line."""
        text = lines[i]
        stripped = text.strip()
        if not stripped:
            self.continues = False
            return i + 1
        if stripped.startswith("{") and stripped.endswith("}"):
            try:
                record = json.loads(stripped)
            except (ValueError, RecursionError):
                record = None
            finding = rustc_finding(record)
            if finding is not None:
                self.add(finding, attach=False)
            return i + 1
        frame = FRAME.match(text)
        if stripped == TRACEBACK or (frame and not frame["func"]):
            finding, after = parse_python_block(lines, i, self.cwd)
            if finding is not None:
                self.add(finding, attach=False)
            return after
        if self._rust(lines, i):
            return i + 2
        if not (self._cc(text) or self._tsc(text) or self._pyright(text)):
            self._other(text)
        return i + 1

    def _cc(self, text: str) -> bool:
        match = _CC.match(text)
        if match is None:
            return False
        path, sev, msg = match["path"], match["sev"], match["msg"]
        line, col = int(match["line"]), int(match["col"] or 0)
        mypy = path.endswith((".py", ".pyi"))
        flag = (_MYPY_CODE if mypy else _CC_FLAG).search(msg)
        code = flag["code"] if flag else ""
        msg = msg[: flag.start()].rstrip() if flag else msg
        if sev == "note" and self.open is not None:
            parent = self.found[self.open]
            if parent.source in ("gcc", "clang") and not mypy:
                here = "" if (path, line) == (parent.path, parent.line) else f" ({path}:{line}:{col})"
                self.amend(message=f"{parent.message}\nnote: {msg}{here}")
                return True
            if parent.source == "mypy" and (path, line) == (parent.path, parent.line):
                self.amend(message=f"{parent.message}\nnote: {msg}")
                return True
        end_line, end_col = int(match["end_line"] or 0), int(match["end_col"] or 0)
        self.add(
            Finding(
                path=path,
                line=line,
                column=col,
                end_line=end_line,
                end_column=end_col + 1 if end_col else 0,  # mypy's end is inclusive
                severity=severity_of(sev),
                message=msg,
                code=code,
                source="mypy" if mypy else "gcc",
                unit="utf-8" if mypy else "display",
            )
        )
        return True

    def _tsc(self, text: str) -> bool:
        match = _TSC.match(text)
        if match is None:
            return False
        line, col = match["line"] or match["pline"], match["col"] or match["pcol"]
        sev = match["sev"]
        self.add(
            Finding(
                path=match["path"],
                line=int(line),
                column=int(col),
                severity=Severity.Information if sev == "message" else severity_of(sev),
                message=match["msg"],
                code=match["code"],
                source="tsc",
                unit="utf-16",
            ),
            continues=True,
        )
        return True

    def _pyright(self, text: str) -> bool:
        match = _PYRIGHT.match(text)
        if match is None:
            return False
        finding = Finding(
            path=match["path"],
            line=int(match["line"]),
            column=int(match["col"]),
            severity=severity_of(match["sev"]),
            message=match["msg"],
            source="pyright",
            unit="utf-16",
        )
        self.add(finding, continues=True)
        self._pyright_rule()
        return True

    def _pyright_rule(self) -> None:
        """Move a trailing `(reportXxx)` of the open pyright finding into its code."""
        assert self.open is not None
        finding = self.found[self.open]
        rule = _PYRIGHT_RULE.search(finding.message)
        if finding.source == "pyright" and rule:
            self.amend(message=finding.message[: rule.start()].rstrip(), code=rule["code"])

    def _rust(self, lines: list[str], i: int) -> bool:
        head = _RUST_HEAD.match(lines[i])
        arrow = _RUST_ARROW.match(lines[i + 1]) if head and i + 1 < len(lines) else None
        if head is None or arrow is None:
            return False
        finding = Finding(
            path=arrow["path"],
            line=int(arrow["line"]),
            column=int(arrow["col"]),
            severity=severity_of(head["sev"]),
            message=head["msg"],
            code=head["code"] or "",
            source="rustc",
            unit="char",
        )
        self.add(finding, attach=False)
        return True

    def _other(self, text: str) -> None:
        """A line that starts nothing: a fix-it, a quote, a continuation, or nothing."""
        if _CLANG_SUMMARY.match(text.strip()):
            self._clang()
            return
        linker = _LINKER.match(text)
        if linker:
            line = int(linker["line"] or 0)
            self.add(Finding(linker["path"], line, 0, message=linker["msg"], source="ld"), attach=False)
            return
        if self.open is None:
            return
        finding = self.found[self.open]
        fixit = _FIXIT.match(text) if finding.source in ("gcc", "clang") else None
        if fixit:
            start, end = (int(fixit["l1"]), int(fixit["c1"])), (int(fixit["l2"]), int(fixit["c2"]))
            body = _unescape_c(fixit["text"])
            fix = Fix(_fix_title(body, start == end), _unescape_c(fixit["path"]), *start, *end, body, unit="utf-8")
            self.amend(fixes=(*finding.fixes, fix))
        elif self.continues and text[:1].isspace():
            self.amend(message=f"{finding.message}\n{text.strip()}")
            self._pyright_rule()
        else:
            self.continues = False

    def _clang(self) -> None:
        """clang's `N errors generated.`: the gcc-like findings since the last one are clang's."""
        for index in range(self.unit_start, len(self.found)):
            if self.found[index].source == "gcc":
                self.found[index] = replace(self.found[index], source="clang", unit="utf-8")
        self.unit_start = len(self.found)

    def findings(self) -> list[Finding]:
        """What was read: gcc-family findings told apart, duplicates dropped."""
        found, seen = [], set()
        for finding in self.found:
            key = (finding.path, finding.line, finding.column, finding.message, finding.source)
            if key not in seen:
                seen.add(key)
                found.append(finding)
        return found


def parse_output(text: str, cwd: Path | None = None) -> list[Finding]:
    """Every finding in a tool's combined output, whichever of the formats above it is in.

    `cwd`, the run's directory, picks a traceback's frame (the innermost one inside it);
    without it, the innermost frame outside the standard library and site-packages.
    """
    text = _ANSI.sub("", text)
    whole = text.strip()
    if whole.startswith("{") and "generalDiagnostics" in whole:
        try:
            return pyright_findings(json.loads(whole))
        except (ValueError, RecursionError):
            pass
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    reader = _Reader(cwd)
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
        if self.lines((self.cwd / finding.path).resolve()) is None:
            for parent in list(self.cwd.parents)[:_WORKSPACE_DEPTH]:
                if self.lines((parent / finding.path).resolve()) is not None:
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
                fix_path = (base / fix.path).resolve()
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
        path = (base / finding.path).resolve()
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
