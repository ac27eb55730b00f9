"""Structured compiler output: rustc's JSON diagnostics (`rustc --error-format=json`, one
object a line, or cargo's `--message-format=json` records around them) with their
suggestions as fixes, gcc's `-fdiagnostics-format=json` (one array a line, byte columns
taken), mypy's `--output json` lines and pyright's `--outputjson` report.

Everything is read defensively: a field of the wrong type makes that record (or that
span) count as absent, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePath
from typing import Any

from simple_brief.model import CONFIDENCE_OTHER, CONFIDENCE_PREFERRED, CONFIDENCE_QUICKFIX, Severity
from simple_brief.tasks.compiler_findings import Finding, Fix, fix_title

#: rustc's `suggestion_applicability` as fix-it confidence: `MachineApplicable` is what
#: `cargo fix` applies by itself; `HasPlaceholders` leaves text for a person to fill in.
_APPLICABILITY = {
    "MachineApplicable": CONFIDENCE_PREFERRED,
    "MaybeIncorrect": CONFIDENCE_QUICKFIX,
    "Unspecified": CONFIDENCE_QUICKFIX,
    "HasPlaceholders": CONFIDENCE_OTHER,
}

_SEVERITY = {
    "error": Severity.Error,
    "fatal error": Severity.Error,
    "warning": Severity.Warning,
    "note": Severity.Information,
    "information": Severity.Information,
    "info": Severity.Information,
    "remark": Severity.Information,
    "help": Severity.Hint,
}


def severity_of(word: str) -> Severity:
    """The Severity of a tool's level word (`error`, `warning`, `note`, `help` ...)."""
    word = word.lower()
    if word.startswith("error"):  # rustc's "error: internal compiler error"
        return Severity.Error
    return _SEVERITY.get(word, Severity.Information)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _workspace_root(manifest_path: str, file_name: str) -> PurePath | None:
    """The directory cargo's relative `file_name`s start from: the workspace root, the
    ancestor of the package's directory whose path down to it begins `file_name`."""
    manifest = PurePath(manifest_path)
    if not manifest.is_absolute() or PurePath(file_name).is_absolute():
        return None
    parts = PurePath(file_name).parts
    for root in manifest.parent.parents:
        below = manifest.parent.relative_to(root).parts
        if parts[: len(below)] == below:
            return root
    return manifest.parent


def rustc_finding(record: Any) -> Finding | None:
    """The Finding of one rustc diagnostic, or of a cargo `compiler-message` record; None
    for other records and for diagnostics with no span (`aborting due to ...`).

    cargo names files relative to the workspace root, whatever directory it ran in; a
    cargo record's relative paths are made absolute from its `manifest_path`.
    """
    if not isinstance(record, dict):
        return None
    manifest_path = ""
    if "reason" in record:
        if record.get("reason") != "compiler-message":
            return None
        manifest_path = _str(record.get("manifest_path"))
        record = record.get("message")
        if not isinstance(record, dict):
            return None
    spans = [s for s in _dicts(record.get("spans")) if _str(s.get("file_name")) and _int(s.get("line_start"))]
    level, message = _str(record.get("level")), _str(record.get("message"))
    if not spans or not level or not message:
        return None
    primary = next((s for s in spans if s.get("is_primary") is True), spans[0])
    root = _workspace_root(manifest_path, _str(primary.get("file_name"))) if manifest_path else None

    def place(file_name: str) -> str:
        return str(root / file_name) if root is not None and not PurePath(file_name).is_absolute() else file_name

    label = _str(primary.get("label"))
    if label:
        message = f"{message}: {label}"
    code = record.get("code")
    fixes: list[Fix] = []
    for child in _dicts(record.get("children")):
        child_message = _str(child.get("message"))
        suggested = [s for s in _dicts(child.get("spans")) if isinstance(s.get("suggested_replacement"), str)]
        suggested = [s for s in suggested if _str(s.get("file_name")) and _int(s.get("line_start"))]
        if suggested:
            group = len({f.group for f in fixes})
            fixes.extend(_rust_fix(child_message, span, group, place) for span in suggested)
        elif child_message:
            message += f"\n{_str(child.get('level')) or 'note'}: {child_message}"
    return Finding(
        path=place(_str(primary.get("file_name"))),
        line=_int(primary.get("line_start")),
        column=_int(primary.get("column_start")),
        end_line=_int(primary.get("line_end")),
        end_column=_int(primary.get("column_end")),
        severity=severity_of(level),
        message=message,
        code=_str(code.get("code")) if isinstance(code, dict) else "",
        source="rustc",
        unit="char",
        fixes=tuple(fixes),
    )


def _rust_fix(title: str, span: dict[str, Any], group: int, place: Callable[[str], str]) -> Fix:
    return Fix(
        title=title or "apply the suggestion",
        path=place(_str(span.get("file_name"))),
        line=_int(span.get("line_start")),
        column=_int(span.get("column_start")),
        end_line=_int(span.get("line_end")),
        end_column=_int(span.get("column_end")),
        text=_str(span.get("suggested_replacement")),
        group=group,
        confidence=_APPLICABILITY.get(_str(span.get("suggestion_applicability")), CONFIDENCE_QUICKFIX),
    )


def pyright_findings(report: Any) -> list[Finding]:
    """The findings of a pyright `--outputjson` report (0-based UTF-16 positions in it)."""
    if not isinstance(report, dict):
        return []
    found = []
    for diag in _dicts(report.get("generalDiagnostics")):
        path, rng = _str(diag.get("file")), diag.get("range")
        start = rng.get("start") if isinstance(rng, dict) else None
        end = rng.get("end") if isinstance(rng, dict) else None
        if not path or not isinstance(start, dict):
            continue
        end = end if isinstance(end, dict) else start
        found.append(
            Finding(
                path=path,
                line=_int(start.get("line")) + 1,
                column=_int(start.get("character")) + 1,
                end_line=_int(end.get("line")) + 1,
                end_column=_int(end.get("character")) + 1,
                severity=severity_of(_str(diag.get("severity"))),
                message="\n".join(line.strip() for line in _str(diag.get("message")).splitlines()),
                code=_str(diag.get("rule")),
                source="pyright",
                unit="utf-16",
            )
        )
    return found


def mypy_finding(record: Any) -> Finding | None:
    """The Finding of one line of mypy's `--output json` (0-based byte columns in it, the
    end exclusive); None for anything else."""
    if not isinstance(record, dict) or not {"file", "line", "column", "severity", "message"} <= record.keys():
        return None
    path, line, message = _str(record.get("file")), _int(record.get("line")), _str(record.get("message"))
    if not path or not line or not message:
        return None
    hint = _str(record.get("hint"))
    end_line = _int(record.get("end_line"))
    return Finding(
        path=path,
        line=line,
        column=_int(record.get("column")) + 1,
        end_line=end_line,
        end_column=_int(record.get("end_column")) + 1 if end_line else 0,
        severity=severity_of(_str(record.get("severity"))),
        message=f"{message}\nnote: {hint}" if hint else message,
        code=_str(record.get("code")),
        source="mypy",
        unit="utf-8",
    )


def _gcc_place(location: Any) -> tuple[str, int, int]:
    """A gcc JSON location's file, line and 1-based byte column ("", 0, 0 when absent)."""
    if not isinstance(location, dict):
        return "", 0, 0
    column = _int(location.get("byte-column")) or _int(location.get("column"))
    return _str(location.get("file")), _int(location.get("line")), column


def gcc_findings(records: Any) -> list[Finding]:
    """The findings of one line of gcc's `-fdiagnostics-format=json` (notes folded into
    their finding's message, fix-its kept)."""
    found = []
    for record in _dicts(records):
        locations = _dicts(record.get("locations"))
        path, line, column = _gcc_place(locations[0].get("caret")) if locations else ("", 0, 0)
        message = _str(record.get("message"))
        if not path or not message:
            continue
        end_path, end_line, end_column = _gcc_place(locations[0].get("finish"))
        for child in _dicts(record.get("children")):
            if _str(child.get("message")):
                message += f"\n{_str(child.get('kind')) or 'note'}: {_str(child.get('message'))}"
        fixes = []
        for fixit in _dicts(record.get("fixits")):
            (fix_path, line1, col1), (_, line2, col2) = _gcc_place(fixit.get("start")), _gcc_place(fixit.get("next"))
            text = _str(fixit.get("string"))
            if fix_path and line1 and line2:
                title = fix_title(text, (line1, col1) == (line2, col2))
                fixes.append(Fix(title, fix_path, line1, col1, line2, col2, text))
        found.append(
            Finding(
                path=path,
                line=line,
                column=column,
                end_line=end_line if end_path == path else 0,
                end_column=end_column + 1 if end_path == path and end_column else 0,  # finish is inclusive
                severity=severity_of(_str(record.get("kind"))),
                message=message,
                code=_str(record.get("option")),
                source="gcc",
                unit="utf-8",
                fixes=tuple(fixes),
            )
        )
    return found
