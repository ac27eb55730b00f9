"""The checkers a language unit names, asked for one file of a call (`intel.checkers`):
`diagnostics` for one file and `only=parse|types` run them all; `simple_read` only those
that start no program (Python's `compile()`, `tomllib`)."""

from __future__ import annotations

from pathlib import Path

from simple_brief.intel import checkers
from simple_brief.scan import Outline
from simple_brief.tools import Call


def verdict(call: Call, real: Path, outline: Outline, in_process_only: bool = False) -> checkers.Verdict:
    """What the file's checkers say about it; unsafe ones only in a trusted workspace."""
    run = checkers.Run(
        outline.source,
        real,
        call.workspace.root,
        call.config.workspace_trusted,
        outline.language.name,
        outline.tree,
    )
    return checkers.check(run, outline.language.checks, in_process_only=in_process_only)


def judged_note(found: checkers.Verdict, servers: list[str]) -> str:
    """`syntax judged by gofmt, also checked by gopls`, or why nothing judged the syntax."""
    head = f"syntax judged by {found.judged_by}" if found.judged_by else f"syntax not judged: {found.note}"
    return head + (f", also checked by {', '.join(servers)}" if servers else "")
