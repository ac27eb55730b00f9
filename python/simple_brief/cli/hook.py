"""`simple-brief hook claude`: Claude Code's PreToolUse and PostToolUse hook.

Claude Code runs the command before (and after) a tool, with the call as JSON on stdin
(`session_id`, `cwd`, `hook_event_name`, `tool_name`, `tool_input`). Two calls get an answer:

- **PreToolUse, `Read`** of a source file (a language simple-brief outlines, not data or
  markup: `hook_sources.py`) inside the workspace (`cwd`), longer than `hook.read_lines`
  lines (400), with no `offset`/`limit`, the first time in that session: the read is
  denied (`permissionDecision: "deny"`) and the reason Claude reads is the file's outline
  within `hook.budget` tokens, with line spans, and how to read the lines it needs.
  The session's files are recorded (`sessions.py`), so a second read of the file goes through.
- **PostToolUse, `Edit`/`Write`/`MultiEdit`** of a source file: the file's errors and
  warnings (the `diagnostics` tool) as `additionalContext`; nothing when it is clean.

Everything else — another tool or event, a second read, a short, data or outside file, bad
JSON, any error — passes through untouched: exit 0, nothing on stdout. That path imports
only the standard library (and `hook_sources`, a table): it costs an interpreter start. The
outline and the diagnostics come from the per-user daemon when it runs (as the command
line's calls do), else from an engine host in this process.
"""

from __future__ import annotations

import json
import os
import sys

from simple_brief.cli import hook_sources
from simple_brief.defaults import DEFAULT_HOOK_BUDGET, DEFAULT_HOOK_READ_LINES, HOOK_AGENTS, MIN_BUDGET_TOKENS

TYPE_CHECKING = False  # not typing's: importing typing costs the pass-through path milliseconds
if TYPE_CHECKING:
    from typing import Any

#: The tools whose PostToolUse gets the edited file's diagnostics.
EDIT_TOOLS = ("Edit", "Write", "MultiEdit")
#: A hook input larger than this is not read (Claude's are a few hundred bytes; Write's hold the file).
MAX_INPUT_BYTES = 32 * 1024 * 1024
#: How many diagnostics PostToolUse lists at most (the rest are counted).
MAX_DIAGNOSTICS = 10


def run(args: list[str]) -> int:
    """`simple-brief hook AGENT …`: read the command line, then answer one call (`main`)."""
    options = _options(args)
    if options is None:  # --help, or a mistake: argparse says it (its import costs milliseconds)
        from simple_brief.cli.parser import build_parser

        try:
            build_parser().parse_args(args)
        except SystemExit as exc:
            # A usage mistake is the person's to see (exit 1: Claude Code shows it to them);
            # never 2, which would block every call the hook is registered for.
            return 0 if exc.code in (0, None) else 1
        print(f"simple-brief: the hook cannot read its command line {' '.join(args)!r}", file=sys.stderr)
        return 1
    if options.pop("no_daemon"):
        os.environ["SIMPLE_BRIEF_DAEMON"] = "0"  # (host.protocol.SWITCH_ENV)
    return main(**options)


def _options(args: list[str]) -> dict[str, Any] | None:
    """The options of `hook AGENT [-v] [--no-daemon] [--read-lines N] [--budget N]`, read
    without argparse; None for anything else (`--help`, a mistake)."""
    options: dict[str, Any] = {"read_lines": None, "budget": None, "verbose": False, "no_daemon": False}
    words = [part for word in args for part in (word.split("=", 1) if word.startswith("--") else [word])]
    agent, named, i = None, False, 0
    while i < len(words):
        word = words[i]
        if word in ("-v", "--verbose", "--no-daemon"):
            options["no_daemon" if word == "--no-daemon" else "verbose"] = True
        elif word in ("--read-lines", "--budget") and words[i + 1 : i + 2] and words[i + 1].isdigit():
            options[word[2:].replace("-", "_")] = int(words[i + 1])
            i += 1
        elif word == "hook" and not named:
            named = True
        elif named and agent is None and word in HOOK_AGENTS:
            agent = word
        else:
            return None
        i += 1
    budget = options["budget"]
    wrong = options["read_lines"] == 0 or (budget is not None and budget < MIN_BUDGET_TOKENS)
    return options if agent is not None and not wrong else None


def main(read_lines: int | None = None, budget: int | None = None, verbose: bool = False) -> int:
    """Answer one hook call from stdin; always exit 0 (an answer, or nothing: pass through)."""
    try:
        event = json.loads(sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)[:MAX_INPUT_BYTES] or b"null")
        answer = respond(event, read_lines, budget)
    except Exception as exc:  # a hook that fails must never block the agent's call
        if verbose:
            print(f"simple-brief hook: passed through ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 0
    if answer is not None:
        sys.stdout.write(json.dumps(answer) + "\n")  # (ASCII: whatever the locale's encoding)
    return 0


def respond(event: object, read_lines: int | None = None, budget: int | None = None) -> dict[str, Any] | None:
    """The hook's answer to one event, or None to pass it through."""
    if not isinstance(event, dict) or not isinstance(event.get("tool_input"), dict):
        return None
    name, tool = event.get("hook_event_name"), event.get("tool_name")
    if name == "PreToolUse" and tool == "Read":
        return _outline_instead(event, read_lines, budget)
    if name == "PostToolUse" and tool in EDIT_TOOLS:
        return _diagnostics_after(event)
    return None


def _outline_instead(event: dict[str, Any], read_lines: int | None, budget: int | None) -> dict[str, Any] | None:
    tool_input = event["tool_input"]
    if tool_input.get("offset") is not None or tool_input.get("limit") is not None:
        return None
    target = _source_in_workspace(event)
    session = event.get("session_id")
    if target is None or not isinstance(session, str) or not session:
        return None
    root, path = target
    settings = user_settings()
    threshold = read_lines or settings.get("read_lines", DEFAULT_HOOK_READ_LINES)
    lines = count_lines(path, threshold)
    if lines <= threshold:
        return None
    from simple_brief.cli import sessions

    if sessions.seen(session, path):
        return None
    answer = _map_of(root, path, budget or settings.get("budget"))
    if answer is None or answer.get("data", {}).get("language") not in _outlined_languages():
        return None
    shown = os.path.relpath(path, root)
    names = answer["data"].get("mode") == "names"
    reason = (
        f"simple-brief: {shown} is longer than {threshold} lines, so this whole-file Read was answered with "
        f"{'its definitions and their first lines' if names else 'its outline'} (once per file and session; "
        "reading it again goes through):\n"
        + "\n\n".join(str(block) for block in answer["blocks"]).rstrip("\n")
        + f"\nRead the lines you need with offset/limit (the {'line numbers' if names else 'L spans'} above), or "
        f"open one symbol with expand_at (`simple-brief expand {shown} NAME`)."
    )
    sessions.record(session, path)
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


def _map_of(root: str, path: str, budget: int | None) -> dict[str, Any] | None:
    """The file's outline within the budget; when the outline had to fold further than that
    (its top level only, or counts), its definitions' names and lines, if they fit whole or
    the outline kept no line at all."""
    outline = ask(root, "simple_read", {"path": path, "mode": "outline"}, budget)
    if outline is None or "degraded_from" not in outline.get("data", {}):
        return outline
    names = ask(root, "simple_read", {"path": path, "mode": "names"}, budget)
    if names is not None and (not names["data"].get("truncated") or outline["data"].get("mode") == "counts"):
        return names
    return outline


def _diagnostics_after(event: dict[str, Any]) -> dict[str, Any] | None:
    target = _source_in_workspace(event)
    if target is None:
        return None
    root, path = target
    answer = ask(root, "diagnostics", {"path": path, "fixits": False}, None, command="diagnostics")
    if answer is None:
        return None
    found = [
        diag
        for diags in answer.get("data", {}).get("files", {}).values()
        for diag in diags
        if isinstance(diag, dict) and diag.get("severity") in (1, 2)
    ]
    if not found:
        return None
    shown = os.path.relpath(path, root)
    errors = sum(1 for diag in found if diag["severity"] == 1)
    lines = [f"simple-brief: {shown} after this edit: {errors} errors, {len(found) - errors} warnings"]
    lines += [_diagnostic_line(diag) for diag in found[:MAX_DIAGNOSTICS]]
    if len(found) > MAX_DIAGNOSTICS:
        lines.append(f"… {len(found) - MAX_DIAGNOSTICS} more: `simple-brief diagnostics {shown}`")
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "\n".join(lines)}}


def _diagnostic_line(diag: dict[str, Any]) -> str:
    start = diag.get("range", {}).get("start", {})
    where = f"{int(start.get('line', 0)) + 1}:{int(start.get('character', 0)) + 1}"
    source = " ".join(str(part) for part in (diag.get("source"), diag.get("code")) if part)
    mark = "E" if diag["severity"] == 1 else "W"
    return f"  {where} {mark} {source + ' ' if source else ''}{diag.get('message', '')}"


def _source_in_workspace(event: dict[str, Any]) -> tuple[str, str] | None:
    """(root, absolute path) of the event's `file_path` when it names a source file inside
    its `cwd` (both normalised, no link followed here: the engine reads it beneath the root)."""
    cwd, file_path = event.get("cwd"), event["tool_input"].get("file_path")
    if not isinstance(cwd, str) or not isinstance(file_path, str) or not os.path.isabs(cwd) or "\0" in file_path:
        return None
    root = os.path.normpath(cwd)
    path = os.path.normpath(os.path.join(root, file_path))
    if os.path.commonpath([root, path]) != root or path == root:
        return None
    name = os.path.basename(path)
    ending = os.path.splitext(name)[1].lower()
    if name not in hook_sources.FILE_NAMES and ending not in hook_sources.ENDINGS:
        return None
    return root, path


def count_lines(path: str, enough: int) -> int:
    """The lines of the regular file at `path` (its last component not followed), counting
    no further than `enough` + 1; 0 when it cannot be opened."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return 0
    with os.fdopen(fd, "rb") as handle:
        import stat

        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return 0
        count, last = 0, b"\n"
        while count <= enough:
            chunk = handle.read(1 << 16)
            if not chunk:
                break
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


def user_settings() -> dict[str, Any]:
    """`[hook]` of the user's own config; {} when it is missing, and when it is wrong (the
    other commands say what is wrong)."""
    from simple_brief.cli.user_config import user_table

    table = user_table("hook")
    if not isinstance(table, dict):
        return {}
    good = {
        key: value
        for key, value in table.items()
        if key in ("read_lines", "budget") and isinstance(value, int) and not isinstance(value, bool) and value > 0
    }
    return good if len(good) == len(table) else {}


def _outlined_languages() -> set[str]:
    """The languages the hook answers for: the source ones (the engine says which file is which)."""
    from simple_brief.languages import LANGUAGES
    from simple_brief.languages._lists import NOT_SOURCE

    return {spec.name for spec in LANGUAGES if spec.name not in NOT_SOURCE}


def ask(
    root: str, tool: str, params: dict[str, Any], budget: int | None, command: str = "outline"
) -> dict[str, Any] | None:
    """The tool's answer (with its data) in `root`: the daemon's when it runs, else this
    process's; None when it ended in an error."""
    from simple_brief.cli import client
    from simple_brief.host.request import ToolCall

    call = ToolCall(command, tool, params, cwd=root, root=root, budget=budget or DEFAULT_HOOK_BUDGET, as_json=True)
    call.env = dict(os.environ)  # the programs the call starts (checkers, language servers) get it, as standalone
    answer = client.daemon_answer(call)
    if answer is None:
        answer = _in_process(call)
    return answer if "blocks" in answer else None


_HOST: list[Any] = []  # this process's engine host, made on the first call that needs one


def _in_process(call: Any) -> dict[str, Any]:
    import atexit
    import io
    import threading

    from simple_brief.host import command
    from simple_brief.host.wiring import build_host

    if not _HOST:
        _HOST.append(build_host())
        atexit.register(_HOST[0].close)  # its language servers stop with this process
    return command.answer(call, threading.Event(), io.StringIO(), _HOST[0])
