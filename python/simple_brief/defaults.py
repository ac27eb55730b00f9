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
#: `simple-brief hook`: a whole-file read of a source file longer than this many lines is
#: answered with its outline, once per session (`hook.read_lines`).
DEFAULT_HOOK_READ_LINES = 400
#: The token budget of that outline (`hook.budget`): it stands in for the file's text.
DEFAULT_HOOK_BUDGET = 2_000
#: The agents whose hook protocol `simple-brief hook` speaks (Codex reads files through shell
#: commands, which its hook cannot answer with an outline).
HOOK_AGENTS = ("claude",)
#: The `~/.claude/settings.json` block `simple-brief hook --help`, `:SimpleBrief mcp`
#: (lua/simple_brief/mcp.lua) and the README print; COMMAND: the hook's command line as a
#: JSON string (tests/install/test_install_errors.py checks the Lua side prints the same).
HOOK_SETTINGS = """\
{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Read", "hooks": [{ "type": "command", "command": COMMAND }] }
    ],
    "PostToolUse": [
      { "matcher": "Edit|Write|MultiEdit", "hooks": [{ "type": "command", "command": COMMAND }] }
    ]
  }
}
"""
