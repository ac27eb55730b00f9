"""The `simple-brief` command line (an adapter over the tool registry).

`client.main` is what the installed script (`simple_brief.main`) runs for every command but
`mcp`, `lsp` and `daemon`: it hands the command to the per-user daemon over its wire
(`simple_brief.host.protocol`) and imports the engine only to work without it. `main` below
runs a command in this process, never through a daemon (tests). This module imports nothing,
so the script's fast path stays fast.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs the script's fast path milliseconds
if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line in this process; return the exit code."""
    from simple_brief.cli.standalone import main as standalone  # (the engine, on demand)

    return standalone(argv)
