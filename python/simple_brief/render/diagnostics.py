"""Diagnostics grouped by file, position first, one line per finding (seed 002's to-do format).

    3 diagnostics in 2 files (1E 1W 1H)

    src/x.py (3)
      5:7 E python '(' was never closed
      5:12 H H003 the grammar could not read line 5 (it expected `)`)
      12:5 W ruff F401 `os` imported but unused  fix: Remove unused import: `os` (0.8)

A line is `LINE:COL SEVERITY [SOURCE] [CODE] message`, 1-based, column counting
characters. simple-brief's own findings show only their code (`H003`: explained by
`diagnostics explain=CODE`); other sources keep their name next to their code (`ruff F401`).
The best fix-it follows two spaces after the message with its confidence (meanings in
`simple_brief.render.explain`); `+N more` counts the others, all of them are in the data.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from simple_brief.intel.protocol import text_edit_to_lsp
from simple_brief.model import Diagnostic, FixIt
from simple_brief.render.blockmarks import severity_counts

#: The source name of simple-brief's own findings (not repeated on every line).
OWN_SOURCE = "simple-brief"


def best_fixit(diag: Diagnostic) -> FixIt | None:
    """The fix-it with the highest confidence (the first of equals), or None."""
    best: FixIt | None = None
    for fix in diag.fixits:
        if best is None or fix.confidence > best.confidence:
            best = fix
    return best


def diagnostic_line(diag: Diagnostic) -> str:
    """`12:5 W ruff F401 message  fix: title (0.95)`: 1-based position first."""
    parts = [diag.range.start.one_based(), diag.severity.letter]
    if diag.source and diag.source != OWN_SOURCE:
        parts.append(diag.source)
    if diag.code:
        parts.append(diag.code)
    parts.append(" ".join(diag.message.split()))
    line = " ".join(parts)
    fix = best_fixit(diag)
    if fix is not None:
        line += f"  fix: {' '.join(fix.title.split())} ({fix.confidence:g})"
        if len(diag.fixits) > 1:
            line += f" +{len(diag.fixits) - 1} more"
    return line


def sort_key(diag: Diagnostic) -> tuple[Any, ...]:
    """Position first, then the most severe."""
    return (diag.range.start, int(diag.severity), diag.source, diag.code)


def summary(files: dict[str, list[Diagnostic]], checked: int) -> str:
    """`3 diagnostics in 2 files (2E 1W)`, or `No diagnostics in N files`."""
    every = [d for diags in files.values() for d in diags]
    if not every:
        return f"No diagnostics in {checked} file{'s' if checked != 1 else ''}"
    n_files = sum(1 for diags in files.values() if diags)
    return (
        f"{len(every)} diagnostic{'s' if len(every) != 1 else ''} in {n_files} "
        f"file{'s' if n_files != 1 else ''} ({severity_counts(every)})"
    )


def file_block(path: str, diags: Iterable[Diagnostic]) -> str:
    """`path (N)` then one indented line per finding, in position order."""
    ordered = sorted(diags, key=sort_key)
    return "\n".join([f"{path} ({len(ordered)})", *("  " + diagnostic_line(d) for d in ordered)])


def render_diagnostics(by_file: dict[str, list[Diagnostic]]) -> list[str]:
    """Summary block, then one block per file with findings, files in name order."""
    files = {path: diags for path, diags in by_file.items() if diags}
    blocks = [summary(files, len(by_file))]
    blocks.extend(file_block(path, files[path]) for path in sorted(files))
    return blocks


def fixit_json(fix: FixIt, shown: dict[Any, str] | None = None) -> dict[str, Any]:
    """A fix-it as JSON: title, kind, confidence, edits; `files` when it edits other documents."""
    out: dict[str, Any] = {
        "title": fix.title,
        "kind": fix.kind,
        "confidence": fix.confidence,
        "edits": [text_edit_to_lsp(e) for e in fix.edits],
    }
    if fix.other_files:
        out["files"] = {
            (shown or {}).get(path, str(path)): [text_edit_to_lsp(e) for e in edits] for path, edits in fix.other_files
        }
    return out


def diagnostic_json(diag: Diagnostic) -> dict[str, Any]:
    """A diagnostic as JSON data (LSP 0-based range, severity number)."""
    out: dict[str, Any] = {
        "code": diag.code,
        "severity": int(diag.severity),
        "message": diag.message,
        "range": diag.range.to_lsp(),
        "source": diag.source,
    }
    if diag.fixits:
        out["fixits"] = [fixit_json(f) for f in diag.fixits]
    return out
