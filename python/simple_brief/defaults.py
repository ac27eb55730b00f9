"""Defaults the command line's help names (standard library only: the `simple-brief` script
parses its command line with them before, and usually instead of, importing the engine)."""

from __future__ import annotations

#: Toolsets a user may name (`--toolsets`, `mcp.toolsets`); the ones without tools yet list nothing.
KNOWN_TOOLSETS = ("read", "lsp", "docs", "workspace", "tasks", "debug", "edit")
DEFAULT_TOOLSETS = ("read", "lsp", "docs")
#: The default budget of one tool result, in tokens (SPEC: about 10,000; `limits.budget`).
DEFAULT_BUDGET_TOKENS = 10_000
#: The smallest budget a caller may give (`--budget`): less cannot hold an answer's first lines.
MIN_BUDGET_TOKENS = 100
#: The daemon stops after this many minutes without a request (`daemon.idle_minutes`).
DEFAULT_DAEMON_IDLE_MINUTES = 15.0
#: Files larger than this are refused with a clear message (configurable per call).
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
