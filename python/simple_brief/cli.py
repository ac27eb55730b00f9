"""The `simple-brief` command: the tool registry from a shell.

    simple-brief outline FILE [--mode M] [--depth N]
    simple-brief expand FILE SELECTOR [--what body|signature|all]
    simple-brief symbols FILE [--format table|standard]
    simple-brief search QUERY [--root DIR]
    simple-brief diagnostics [PATH]
    simple-brief run TOOL --param k=v [--json]
    simple-brief tools
    simple-brief lsp [--tcp PORT]
    simple-brief mcp [--http [--port N]] [--nvim ADDR] [--toolsets read,lsp,docs]

A user error prints one sentence on stderr and exits 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simple_brief import __version__
from simple_brief import tools as registry
from simple_brief.errors import UserError
from simple_brief.render.budget import DEFAULT_BUDGET_TOKENS
from simple_brief.source import DEFAULT_MAX_BYTES
from simple_brief.workspace import Workspace

EXIT_USER_ERROR = 2

_EPILOG = """\
Positions in text output are 1-based line:col; --format standard JSON is 0-based (LSP).
Block marks: F> function, C> class, S> struct, E> enum (`_` instead of `>` = open),
V* a diagnostic line. Each mark ends with its line span, e.g. L3-5: `expand FILE line:3`.
"""


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage mistakes as one sentence and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sentence = f"{message}; see `{self.prog} --help`."
        if "--json" in sys.argv[1:]:
            print(json.dumps({"ok": False, "error": sentence}))
            self.exit(EXIT_USER_ERROR)
        self.exit(EXIT_USER_ERROR, f"simple-brief: {sentence}\n")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        help="workspace root; paths are confined to it (default: the current directory, "
        "or the file's folder for a file outside it)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET_TOKENS,
        help="token budget of the answer; bigger views degrade to fit (default: %(default)s)",
    )
    parser.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="largest file read, in bytes (default: %(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print {ok, tool, content, data} JSON instead of text")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = _Parser(
        prog="simple-brief",
        description="A brief, live view of code for people and LLM coding agents.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"simple-brief {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens on stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser(
        "outline",
        help="a file as a folded outline (simple_read)",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Print a file folded to its outline: every definition with its line span.",
    )
    p.add_argument("file")
    p.add_argument(
        "--mode",
        default="outline",
        choices=("outline", "compact", "full", "symbols"),
        help="outline (default), compact, full source, or the symbols view",
    )
    p.add_argument("--depth", type=int, default=0, help="levels of nesting shown; 0 = all (default)")
    p.add_argument(
        "--preview",
        default="none",
        choices=("none", "signature", "expanded"),
        help="with --mode symbols: what to show under each symbol",
    )
    p.add_argument("--filetype", help="read the file as this language (Neovim filetype)")
    _common(p)

    p = sub.add_parser(
        "expand",
        help="one symbol's source (expand_at)",
        description="Print one symbol: by name, Class.method, or line:N.",
    )
    p.add_argument("file")
    p.add_argument("selector", help="name, Class.method, or line:N")
    p.add_argument("--what", default="all", choices=("all", "body", "signature"))
    p.add_argument("--filetype", help="read the file as this language (Neovim filetype)")
    _common(p)

    p = sub.add_parser(
        "symbols",
        help="the symbol table of a file (document_symbols)",
        description="Print NAME | KIND | RANGE | SELECTION | PARENT | HOVER_INFO | <<< rows.",
    )
    p.add_argument("file")
    p.add_argument("--format", default="table", choices=("table", "standard"))
    p.add_argument("--return-children", default="auto", choices=("yes", "no", "auto"))
    p.add_argument("--no-hover", action="store_true", help="leave HOVER_INFO empty")
    p.add_argument("--filetype", help="read the file as this language (Neovim filetype)")
    _common(p)

    p = sub.add_parser(
        "search",
        help="find symbols by name across the workspace",
        description="Search symbol names (substring, camelCase/snake_case aware, fuzzy).",
    )
    p.add_argument("query")
    p.add_argument("--path", help="only this folder or file of the workspace")
    p.add_argument("--limit", type=int, default=50)
    _common(p)

    p = sub.add_parser(
        "diagnostics",
        help="syntax problems in a file or the workspace",
        description="List diagnostics grouped by file, position first.",
    )
    p.add_argument("path", nargs="?")
    _common(p)

    p = sub.add_parser(
        "run",
        help="run any tool with --param name=value",
        description="Run a tool of the registry (see `simple-brief tools`).",
    )
    p.add_argument("tool")
    p.add_argument(
        "--param", action="append", default=[], metavar="NAME=VALUE", help="a tool parameter; repeat for several"
    )
    p.add_argument(
        "--nvim",
        metavar="ADDR",
        help="answer with this Neovim's live state (default: $NVIM, else a registered Neovim for the root)",
    )
    _common(p)

    p = sub.add_parser(
        "mcp",
        help="serve the tools to agents over MCP (stdio, or HTTP on 127.0.0.1)",
        description="Serve simple-brief's tools over MCP. Attaches to Neovim from --nvim, $NVIM, or the "
        "newest registered Neovim whose cwd contains the workspace; with none, reads files on disk.",
    )
    p.add_argument("--root", help="workspace root (default: the current directory)")
    p.add_argument("--nvim", metavar="ADDR", help="Neovim server address (socket path or host:port)")
    p.add_argument(
        "--toolsets",
        default="read,lsp,docs",
        help="comma-separated toolsets listed to the agent (default: %(default)s); system tools always",
    )
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET_TOKENS, help="token budget of each answer")
    p.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1 with a bearer token")
    p.add_argument("--port", type=int, default=0, help="with --http: the port (default: a free one)")

    p = sub.add_parser(
        "lsp",
        help="serve the language server (folding ranges, document symbols)",
        description="Serve simple-brief's language server over stdio (or loopback TCP with --tcp).",
    )
    p.add_argument("--tcp", type=int, metavar="PORT", help="listen on 127.0.0.1:PORT instead of stdio")

    p = sub.add_parser("tools", help="list the tools and their parameters")
    p.add_argument("--json", action="store_true", help="print the tool schemas as JSON")
    return parser


def _workspace(root: str | None, file: str | None, max_bytes: int) -> Workspace:
    """The --root, else the current directory, else (a file named outside it) the file's folder."""
    if root is None and file is not None:
        target = Path(file).expanduser().resolve()
        cwd = Path.cwd().resolve()
        if cwd not in target.parents and target != cwd:
            root = str(target.parent)
    ws = Workspace.at(root)
    ws.max_bytes = max_bytes
    return ws


def _shell_path(file: str) -> str:
    """A FILE named on the command line is relative to the shell's directory, not to --root."""
    return str(Path(file).expanduser().absolute())


def _parse_params(pairs: Sequence[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UserError(f"--param {pair!r} is not NAME=VALUE; write it like --param path=src/app.py.")
        params[name.strip()] = value
    return params


def _tool_call(args: argparse.Namespace) -> tuple[str, dict[str, Any], str | None]:
    """(tool name, arguments, the file the call is about) for a subcommand."""
    cmd = args.command
    if cmd == "outline":
        return (
            "simple_read",
            {
                "path": args.file,
                "mode": args.mode,
                "depth": args.depth,
                "preview": args.preview,
                "filetype": args.filetype,
            },
            args.file,
        )
    if cmd == "expand":
        return (
            "expand_at",
            {"path": args.file, "selector": args.selector, "what": args.what, "filetype": args.filetype},
            args.file,
        )
    if cmd == "symbols":
        return (
            "document_symbols",
            {
                "path": args.file,
                "format": args.format,
                "return_children": args.return_children,
                "include_hover": not args.no_hover,
                "filetype": args.filetype,
            },
            args.file,
        )
    if cmd == "search":
        return "search", {"query": args.query, "path": args.path, "limit": args.limit}, None
    if cmd == "diagnostics":
        return "diagnostics", {"path": args.path}, None
    params = _parse_params(args.param)
    return args.tool, params, params.get("path")


def _print_tools(as_json: bool) -> None:
    tools = registry.load()
    if as_json:
        listing = [
            {"name": t.name, "toolset": t.toolset, "description": t.description, "inputSchema": t.input_schema()}
            for t in tools.values()
        ]
        print(json.dumps(listing, indent=2))
        return
    for t in tools.values():
        params = " ".join(f"{p.name}=" + ("…" if p.required else f"[{p.default}]") for p in t.params)
        print(f"{t.name} ({t.toolset}): {params}\n  {t.description}\n")


def _run_with_editor(ws: Workspace, name: str, params: dict[str, Any], args: argparse.Namespace, as_json: bool) -> int:
    from simple_brief import envelope

    tool = registry.get(name)
    state = envelope.ServerState(workspace=ws, budget=args.budget)
    state.editor = envelope.attach_editor(ws.root, args.nvim)
    result = envelope.answer(state, tool, params)
    if result.is_error:
        raise UserError(result.blocks[0])
    if as_json:
        print(json.dumps({"ok": True, "tool": name, "content": result.blocks, "data": result.data}, ensure_ascii=False))
    else:
        print("\n\n".join(result.blocks))
    return 0


def _serve_mcp(args: argparse.Namespace) -> int:
    from simple_brief import envelope, mcp_server, registry

    state = envelope.ServerState(
        workspace=Workspace.at(args.root),
        budget=args.budget,
        toolsets=mcp_server.parse_toolsets(args.toolsets),
    )
    state.editor = envelope.attach_editor(state.workspace.root, args.nvim)
    if args.http:
        mcp_server.serve_http(state, args.port, registry.state_dir())
    else:
        mcp_server.serve_stdio(state)
    return 0


def _serve_lsp(port: int | None) -> int:
    from simple_brief import lsp_server

    if port is None:
        lsp_server.serve_stdio()
    else:
        lsp_server.create_server().start_tcp("127.0.0.1", port)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="simple-brief: %(levelname)s %(message)s"
    )
    if args.command is None:
        parser.print_help()
        return EXIT_USER_ERROR
    as_json = bool(getattr(args, "json", False))
    if args.command == "lsp":
        return _serve_lsp(args.tcp)
    if args.command == "mcp":
        try:
            return _serve_mcp(args)
        except UserError as err:
            print(f"simple-brief: {err}", file=sys.stderr)
            return EXIT_USER_ERROR
    try:
        if args.command == "tools":
            _print_tools(as_json)
            return 0
        name, params, file = _tool_call(args)
        if args.command in ("outline", "expand", "symbols"):
            params["path"] = _shell_path(args.file)
        if args.budget < 100:
            raise UserError("--budget must be at least 100 tokens.")
        ws = _workspace(args.root, file, args.max_bytes)
        if args.command == "run":
            # As an agent would see it: with the editor's live state and context (AC2).
            return _run_with_editor(ws, name, params, args, as_json)
        call = registry.Call(workspace=ws, budget=args.budget)
        result = registry.invoke(name, params, call)
    except UserError as err:
        if as_json:
            print(json.dumps({"ok": False, "error": str(err)}))
        else:
            print(f"simple-brief: {err}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        return 130
    if as_json:
        print(json.dumps({"ok": True, "tool": name, "content": result.blocks, "data": result.data}, ensure_ascii=False))
    else:
        print(result.text)
    return 0
