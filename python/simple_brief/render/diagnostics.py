"""Diagnostics grouped by file, position first, one line per finding.

3 diagnostics in 2 files (2E 1W)

src/x.py (2)
  @5:12 [E] E002 syntax error: missing `)` (simple-brief)
    fix: insert `)` (confidence 0.9)
"""

from __future__ import annotations

from simple_brief.model import Diagnostic
from simple_brief.render.blockmarks import severity_counts


def diagnostic_line(diag: Diagnostic) -> str:
    """`@5:12 [E] E002 message (source)` — 1-based position first."""
    code = f" {diag.code}" if diag.code else ""
    source = f" ({diag.source})" if diag.source else ""
    message = " ".join(diag.message.split())
    return f"@{diag.range.start.one_based()} [{diag.severity.letter}]{code} {message}{source}"


def render_diagnostics(by_file: dict[str, list[Diagnostic]]) -> list[str]:
    """Summary block, then one block per file with findings, files in name order."""
    files = {path: diags for path, diags in by_file.items() if diags}
    every = [d for diags in files.values() for d in diags]
    if not every:
        checked = len(by_file)
        return [f"No diagnostics in {checked} file{'s' if checked != 1 else ''}"]
    n_files = len(files)
    blocks = [
        f"{len(every)} diagnostic{'s' if len(every) != 1 else ''} in {n_files} "
        f"file{'s' if n_files != 1 else ''} ({severity_counts(every)})"
    ]
    for path in sorted(files):
        diags = sorted(files[path], key=lambda d: (d.range.start, d.severity))
        out = [f"{path} ({len(diags)})"]
        for diag in diags:
            out.append("  " + diagnostic_line(diag))
            out.extend(f"    fix: {fix.title} (confidence {fix.confidence:.1f})" for fix in diag.fixits)
        blocks.append("\n".join(out))
    return blocks
