"""The line formats of compiler and checker output (see `compiler_output` for the list):
`LineReader` reads one line at a time, with the state that lets notes, fix-its and
continuation lines attach to the finding before them and make's directory changes
apply to the relative paths printed under them.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from simple_brief.model import Severity
from simple_brief.tasks.compiler_findings import Finding, Fix, fix_title
from simple_brief.tasks.compiler_json import gcc_findings, mypy_finding, rustc_finding, severity_of
from simple_brief.tasks.compiler_python import FRAME, TRACEBACK, parse_python_block

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
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
_GO = re.compile(r"^(?:vet: )?(?P<path>[^\s:]+\.go):(?P<line>\d+):(?P<col>\d+): (?P<msg>.+)$")
_PY_WARNING = re.compile(r"^(?P<path>[^\s:][^:]*?\.py):(?P<line>\d+): (?P<category>[A-Z]\w*Warning): (?P<msg>.*)$")
_JAVAC_CODE = re.compile(r"^\[(?P<code>[\w-]+)\] ")
_CARET = re.compile(r"^[ \t]*\^\s*$")
_MAKE_DIR = re.compile(r"^\S*make(?:\[\d+\])?: (?P<verb>Entering|Leaving) directory [`'‘\"](?P<dir>.+)[`'’\"]$")
#: At most this many note or continuation lines are folded into one finding's message, and
#: this many fix-its kept for it (what a runaway output adds past them is dropped).
MAX_FOLDED = 40
MAX_FIXES = 64
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


class LineReader:
    """The line-by-line state: the finding notes, fix-its and continuations attach to."""

    def __init__(self, cwd: Path | None) -> None:
        self.cwd = cwd
        self.found: list[Finding] = []
        self.open: int | None = None  # index in `found` of the finding lines attach to
        self.continues = False  # whether indented lines continue its message
        self.folded = 0  # lines folded into the open finding's message
        self.unit_start = 0  # the first finding a clang summary line would be about
        self.dirs: list[str] = []  # the directories make entered, innermost last

    def place(self, path: str) -> str:
        """A printed path as from the run's cwd: under the directory make entered last."""
        if not self.dirs or not path or Path(path).is_absolute():
            return path
        return str(Path(self.dirs[-1]) / path)

    def add(self, finding: Finding, attach: bool = True, continues: bool = False) -> None:
        if self.dirs:
            fixes = tuple(replace(fix, path=self.place(fix.path)) for fix in finding.fixes)
            finding = replace(finding, path=self.place(finding.path), fixes=fixes)
        self.found.append(finding)
        self.folded = 0
        self.open = len(self.found) - 1 if attach else None
        self.continues = continues

    def amend(self, **changes: object) -> None:
        assert self.open is not None
        self.found[self.open] = replace(self.found[self.open], **changes)  # type: ignore[arg-type]

    def fold(self, line: str) -> None:
        """Add a line to the open finding's message (up to MAX_FOLDED of them)."""
        assert self.open is not None
        if self.folded < MAX_FOLDED:
            self.folded += 1
            self.amend(message=f"{self.found[self.open].message}\n{line}")

    def line(self, lines: list[str], i: int) -> int:
        """Read `lines[i]` (and maybe more); the index of the next unread line."""
        text = lines[i]
        stripped = text.strip()
        if not stripped:
            self.continues = False
            return i + 1
        if stripped[:1] + stripped[-1:] in ("{}", "[]"):
            try:
                record = json.loads(stripped)
            except (ValueError, RecursionError):
                record = None
            found = gcc_findings(record) if stripped[0] == "[" else [rustc_finding(record) or mypy_finding(record)]
            for finding in found:
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
        if not (self._cc(text) or self._tsc(text) or self._pyright(text) or self._unlabelled(text)):
            self._other(text)
        return i + 1

    def _cc(self, text: str) -> bool:
        match = _CC.match(text)
        if match is None:
            return False
        path, sev, msg = match["path"], match["sev"], match["msg"]
        line, col = int(match["line"]), int(match["col"] or 0)
        mypy, javac = path.endswith((".py", ".pyi")), path.endswith(".java")
        flag = (_MYPY_CODE if mypy else _JAVAC_CODE if javac else _CC_FLAG).search(msg)
        code = flag["code"] if flag else ""
        msg = (msg[flag.end() :] if javac else msg[: flag.start()].rstrip()) if flag else msg
        if sev == "note" and self.open is not None:
            parent = self.found[self.open]
            if parent.source in ("gcc", "clang") and not mypy:
                here = "" if (self.place(path), line) == (parent.path, parent.line) else f" ({path}:{line}:{col})"
                self.fold(f"note: {msg}{here}")
                return True
            if parent.source == "mypy" and (self.place(path), line) == (parent.path, parent.line):
                self.fold(f"note: {msg}")
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
                source="mypy" if mypy else "javac" if javac else "gcc",
                unit="utf-8" if mypy else "char" if javac else "display",
            )
        )
        return True

    def _unlabelled(self, text: str) -> bool:
        """The go tool's `./main.go:4:19: message` (byte columns, no severity: errors), or
        Python's `x.py:3: UserWarning: message` (no column)."""
        match = _GO.match(text)
        if match is not None:
            finding = Finding(match["path"], int(match["line"]), int(match["col"]), message=match["msg"], source="go")
            self.add(finding, attach=False)
            return True
        match = _PY_WARNING.match(text)
        if match is None:
            return False
        message = f"{match['category']}: {match['msg']}"
        finding = Finding(match["path"], int(match["line"]), 0, severity=Severity.Warning, message=message)
        self.add(replace(finding, code=match["category"], source="python", unit="char"), attach=False)
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
        rule = _PYRIGHT_RULE.search(finding.message[-200:])
        if finding.source == "pyright" and rule:
            message = finding.message[: len(finding.message) - len(rule.group())].rstrip()
            self.amend(message=message, code=rule["code"])

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
        make = _MAKE_DIR.match(text.strip())
        if make:
            if make["verb"] == "Entering":
                self.dirs.append(make["dir"])
            elif self.dirs:
                self.dirs.pop()
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
            path = self.place(_unescape_c(fixit["path"]))
            fix = Fix(fix_title(body, start == end), path, *start, *end, body, unit="utf-8")
            if len(finding.fixes) < MAX_FIXES:
                self.amend(fixes=(*finding.fixes, fix))
        elif finding.source == "javac" and not finding.column and _CARET.match(text):
            # javac prints the source line as it is, then a caret under the column.
            self.amend(column=text.index("^") + 1)
            self.continues = True
        elif self.continues and text[:1].isspace():
            self.fold(text.strip())
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
