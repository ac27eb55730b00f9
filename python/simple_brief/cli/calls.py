"""A parsed command line as a tool call (`host.request.ToolCall`), and a tool call's answer as
the command prints it.

Standard library only: the `simple-brief` script builds the call it sends the daemon here,
and prints the daemon's answer here; the standalone command builds and prints through the
same functions, so both print the same bytes. What a call and an answer hold is said in
`host.request`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from simple_brief.errors import UserError
from simple_brief.host.request import EXIT_USER_ERROR, ToolCall

#: The commands whose FILE argument is a path typed in the shell.
_FILE_COMMANDS = ("outline", "expand", "symbols")

TYPE_CHECKING = False  # not typing's: importing typing costs the script's fast path milliseconds
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


def unfinished(args: argparse.Namespace) -> int | None:
    """`docs` without its action prints its help and exits 2; None for a complete command line."""
    if args.command == "docs" and args.docs_command is None:
        args.docs_parser.print_help()
        return EXIT_USER_ERROR
    return None


def tool_call(args: argparse.Namespace, cwd: str, stderr_tty: bool) -> ToolCall:
    """The call a parsed command line makes (`tools` and the daemon-served commands).

    Raises:
        UserError: a `--param` that is not NAME=VALUE.
    """
    params: dict[str, Any] = {}
    tool, file = "", None
    if args.command != "tools":
        tool, params, file = _tool_and_params(args)
    if args.command in _FILE_COMMANDS:
        params["path"] = shell_path(args.file)
    return ToolCall(
        command=args.command,
        tool=tool,
        params=params,
        cwd=cwd,
        root=_root(getattr(args, "root", None), file, cwd),
        budget=getattr(args, "budget", None),
        max_bytes=getattr(args, "max_bytes", 0),
        as_json=bool(getattr(args, "json", False)),
        progress=bool(getattr(args, "progress", False)) or stderr_tty,
        verbose=bool(args.verbose),
        nvim=getattr(args, "nvim", None),
    )


def _root(root: str | None, file: str | None, cwd: str) -> str | None:
    """The --root, else (a file named outside the current folder) the file's folder, else None."""
    if root is None and file is not None:
        target = Path(file).expanduser().resolve()
        here = Path(cwd).resolve()
        if here not in target.parents and target != here:
            return str(target.parent)
    return root


def shell_path(file: str) -> str:
    """A FILE named on the command line is relative to the shell's directory, not to --root."""
    return str(Path(file).expanduser().absolute())


def parse_params(pairs: Sequence[str]) -> dict[str, str]:
    """`--param NAME=VALUE` pairs as arguments.

    Raises:
        UserError: a pair without `=` or without a name.
    """
    params: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UserError(f"--param {pair!r} is not NAME=VALUE; write it like --param path=src/app.py.")
        params[name.strip()] = value
    return params


def _tool_and_params(args: argparse.Namespace) -> tuple[str, dict[str, Any], str | None]:
    """(tool name, arguments, the file the call is about) for a subcommand."""
    cmd = args.command
    if cmd == "outline":
        params = {"mode": args.mode, "depth": args.depth, "preview": args.preview, "filetype": args.filetype}
        return "simple_read", {"path": args.file, **params}, args.file
    if cmd == "expand":
        params = {"selector": args.selector, "what": args.what, "filetype": args.filetype, "context": args.context}
        return "expand_at", {"path": args.file, **params}, args.file
    if cmd == "symbols":
        params = {
            "format": args.format,
            "return_children": args.return_children,
            "include_hover": not args.no_hover,
            "filetype": args.filetype,
            "under": args.under,
            "offset": args.offset,
        }
        return "document_symbols", {"path": args.file, **params}, args.file
    if cmd == "search":
        return "search", {"query": args.query, "path": args.path, "limit": args.limit}, None
    if cmd == "diagnostics":
        return "diagnostics", {"path": args.path, "only": args.only, "explain": args.explain}, None
    if cmd == "docs":
        return _docs_call(args)
    params = parse_params(args.param)
    return args.tool, params, params.get("path")


def _docs_call(args: argparse.Namespace) -> tuple[str, dict[str, Any], str | None]:
    action = args.docs_command
    if action == "search":
        params = {"query": args.query, "kind": args.kind, "module": args.module, "library": args.library}
        return "docs", {"action": "search", **params, "limit": args.limit}, None
    if action == "list":
        return "docs", {"action": "list", "module": args.module}, None
    if action == "resolve":
        return "docs", {"action": "resolve", "query": args.symbol, "context": args.context}, None
    if action == "index":
        library = args.library
        if library is not None and ("/" in library or library.startswith("~")):
            # A folder path typed in the shell is relative to the shell's directory; a bare
            # name (python, nvim, a listed folder's last part) is passed as it is.
            library = shell_path(library)
        return "docs", {"action": "index", "library": library}, None
    if action == "get":
        return "docs", {"action": "get", "id": args.id, "part": args.part}, None
    # `docs examples ID` and `docs related ID`: the parts of `docs action=get` (once tools of their own).
    return "docs", {"action": "get", "id": args.id, "part": action}, None


def render(answer: dict[str, Any], as_json: bool) -> tuple[str, str, int]:
    """(stdout, stderr, exit code) of an answer, as the command prints it."""
    if "listing" in answer:
        return str(answer["listing"]), "", 0
    if "error" in answer:
        if as_json:
            return json.dumps({"ok": False, "error": answer["error"]}) + "\n", "", EXIT_USER_ERROR
        return "", f"simple-brief: {answer['error']}\n", EXIT_USER_ERROR
    if "blocks" not in answer:
        return "", "", int(answer.get("code", 1))
    blocks = [str(block) for block in answer["blocks"]]
    if as_json:
        shown = {"ok": True, "tool": answer.get("tool"), "content": blocks, "data": answer.get("data") or {}}
        return json.dumps(shown, ensure_ascii=False) + "\n", "", 0
    return "\n\n".join(blocks) + "\n", "", 0
