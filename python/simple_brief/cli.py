"""The `simple-brief` command: the tool registry from a shell.

    simple-brief outline FILE [--mode M] [--depth N]
    simple-brief expand FILE SELECTOR [--what body|signature|all]
    simple-brief symbols FILE [--format table|standard]
    simple-brief search QUERY [--root DIR]
    simple-brief diagnostics [PATH]
    simple-brief docs search QUERY | get ID | list MODULE | resolve SYMBOL | examples ID | related ID | index [LIB]
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
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simple_brief import __version__, config, trust
from simple_brief import lsp as _disk_servers  # noqa: F401  (registers the disk-mode language servers)
from simple_brief import tools as registry
from simple_brief.beneath import shown_path
from simple_brief.config import DEFAULT_BUDGET_TOKENS
from simple_brief.errors import UserError
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


def _positive_bytes(text: str) -> int:
    """`--max-bytes`: a whole number of bytes above zero (0 would refuse every file)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number of bytes") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value} would refuse every file: give a size above 0, e.g. 2000000")
    return value


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        help="workspace root; paths are confined to it (default: the current directory, "
        "or the file's folder for a file outside it)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        help="token budget of the answer; bigger views degrade to fit "
        f"(default: `limits.budget` in .simple-brief.toml, else {DEFAULT_BUDGET_TOKENS})",
    )
    parser.add_argument(
        "--max-bytes",
        type=_positive_bytes,
        default=DEFAULT_MAX_BYTES,
        help="largest file read, in bytes (default: %(default)s)",
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

    _docs_parser(sub)

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
    _progress_option(p)

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
        help="comma-separated toolsets listed to the agent, from "
        f"{', '.join(config.KNOWN_TOOLSETS)} (default: `mcp.toolsets` in .simple-brief.toml, "
        f"else {','.join(config.DEFAULT_TOOLSETS)}); the system tools always",
    )
    p.add_argument(
        "--budget",
        type=int,
        help="token budget of each answer "
        f"(default: `limits.budget` in .simple-brief.toml, else {DEFAULT_BUDGET_TOKENS})",
    )
    p.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1 with a bearer token")
    p.add_argument("--port", type=int, default=0, help="with --http: the port (default: a free one)")

    p = sub.add_parser(
        "lsp",
        help="serve the language server (folding ranges, document symbols)",
        description="Serve simple-brief's language server over stdio (or loopback TCP with --tcp).",
    )
    p.add_argument("--tcp", type=int, metavar="PORT", help="listen on 127.0.0.1:PORT instead of stdio")

    p = sub.add_parser(
        "trust",
        help="let the workspace's .simple-brief.toml start the programs it names",
        description="Trust a workspace config: its language servers, tasks and docs folders are used only "
        "after you trusted its exact content (any change needs a new trust), as Neovim's :trust does. "
        "Read the file first: it names programs simple-brief will run.",
    )
    p.add_argument("path", nargs="?", help="the config file or its folder (default: .simple-brief.toml in --root)")
    p.add_argument("--root", help="the workspace root (default: the current directory)")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--status", action="store_true", help="only say whether it is trusted")
    action.add_argument("--deny", action="store_true", help="refuse it, whatever its content")
    action.add_argument("--remove", action="store_true", help="forget it (it is untrusted again)")

    p = sub.add_parser("tools", help="list the tools and their parameters")
    p.add_argument("--json", action="store_true", help="print the tool schemas as JSON")
    return parser


_DOCS_EPILOG = """\
The index lives in the user's cache directory ($SIMPLE_BRIEF_CACHE_DIR overrides it), keyed
by the workspace root; each command first re-reads only the files that changed.
Lines shown are 1-based (path:line).
"""


def _progress_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress", action="store_true", help="show a progress bar on stderr while indexing (default: on a terminal)"
    )


def _docs_parser(sub: Any) -> None:
    """`docs search|get|list|resolve|examples|related|index`: the docs toolset."""
    docs = sub.add_parser(
        "docs",
        help="search and read the workspace's documentation (docs_* tools)",
        description="Search and read the doc comments and docstrings of the workspace and of the libraries\n"
        "indexed with `docs index` (python: the standard library; site-packages: installed packages;\n"
        "nvim: Neovim's runtime Lua; or a folder).",
        epilog=_DOCS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    docs.set_defaults(docs_parser=docs)
    leaves = docs.add_subparsers(dest="docs_command", metavar="ACTION", parser_class=_Parser)

    def leaf(name: str, tool: str, summary: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = leaves.add_parser(
            name,
            help=f"{summary} ({tool})",
            description=summary[:1].upper() + summary[1:] + ".",
            epilog=_DOCS_EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        return p

    p = leaf("search", "docs_search", "ranked items whose docs match words")
    p.add_argument("query")
    p.add_argument("--kind", help="only this kind (function, method, class, module, ...)")
    p.add_argument("--module", help="only items of this module id")
    p.add_argument("--library", help="only this library (workspace, python, site-packages, nvim, a folder's name)")
    p.add_argument("--limit", type=int, default=10, help="most results (default: %(default)s)")
    p = leaf("get", "docs_get", "one item's signature, doc, params, returns, examples and see-also")
    p.add_argument("id", help="item id, e.g. pkg.mod.func")
    p = leaf("list", "docs_list", "a module's doc, items and submodules")
    p.add_argument("module", help="module id, e.g. pkg.mod")
    p = leaf("resolve", "docs_resolve", "the item a name means, with alternatives")
    p.add_argument("symbol")
    p.add_argument("--context", help="module id or file path the name is used in")
    p = leaf("examples", "docs_examples", "an item's examples, each marked runnable or not")
    p.add_argument("id")
    p = leaf("related", "docs_related", "items related to one (see-also, same module, similar signature)")
    p.add_argument("id")
    p = leaf("index", "docs_index", "index or refresh the workspace or a library")
    p.add_argument(
        "library",
        nargs="?",
        help="workspace (default), python, site-packages, nvim, or a folder listed under [docs] folders "
        "in ~/.config/simple-brief/config.toml (by its path or last part)",
    )
    for leaf_parser in leaves.choices.values():
        _common(leaf_parser)
        _progress_option(leaf_parser)


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


def _trust(args: argparse.Namespace) -> str:
    """`simple-brief trust`: record (or show, deny, forget) the person's trust in a workspace config."""
    base = Path(args.path or args.root or ".").expanduser()
    path = base / config.FILENAME if base.is_dir() else base
    if path.name != config.FILENAME:
        raise UserError(f"{shown_path(path)} is not a {config.FILENAME}; name that file or the folder holding it.")
    if path.is_symlink() or not path.is_file():
        what = "is a symlink" if path.is_symlink() else "does not exist"
        raise UserError(f"{shown_path(path)} {what}; trust a plain {config.FILENAME} at a workspace root.")
    real = path.resolve()
    data = real.read_bytes()
    try:
        if args.remove:
            gone = trust.remove(real)
            return f"{real}: {'forgotten, it is untrusted again' if gone else 'was not in the trust database'}."
        if args.deny:
            trust.deny(real)
            return f"{real}: denied; the programs it names will not run."
        verdict = trust.status(real, data)
        if args.status:
            meaning = {
                trust.Trust.TRUSTED: "trusted as it is now",
                trust.Trust.DENIED: "denied",
                trust.Trust.UNKNOWN: "not trusted (never trusted, or changed since); `simple-brief trust` trusts it",
            }
            return f"{real}: {meaning[verdict]}."
        named = config.parse(data.decode("utf-8", "replace"), real).programs()
        trust.allow(real, data)
    except OSError as exc:
        raise UserError(f"the trust database {trust.database()} cannot be written ({exc.strerror}).") from None
    listed = "; ".join(named) if named else "no programs"
    return f"{real}: trusted as it is now (a later change needs a new trust); it names {listed}."


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
    if cmd == "docs":
        return _docs_call(args)
    params = _parse_params(args.param)
    return args.tool, params, params.get("path")


def _docs_call(args: argparse.Namespace) -> tuple[str, dict[str, Any], str | None]:
    action = args.docs_command
    if action == "search":
        params = {"query": args.query, "kind": args.kind, "module": args.module, "library": args.library}
        return "docs_search", {**params, "limit": args.limit}, None
    if action == "list":
        return "docs_list", {"module": args.module}, None
    if action == "resolve":
        return "docs_resolve", {"symbol": args.symbol, "context": args.context}, None
    if action == "index":
        library = args.library
        if library is not None and ("/" in library or library.startswith("~")):
            # A folder path typed in the shell is relative to the shell's directory; a bare
            # name (python, nvim, a listed folder's last part) is passed as it is.
            library = _shell_path(library)
        return "docs_index", {"library": library}, None
    return f"docs_{action}", {"id": args.id}, None


class ProgressBar:
    """A `ProgressFn` drawing a tqdm bar on stderr (never on stdout, which --json keeps clean)."""

    def __init__(self) -> None:
        self.bar: Any = None

    def __call__(self, done: float, total: float | None, message: str) -> None:
        from tqdm import tqdm

        label = message if len(message) <= 40 else "…" + message[-39:]
        if self.bar is None:
            self.bar = tqdm(total=total, desc=label, file=sys.stderr, unit="file", dynamic_ncols=True, leave=False)
        elif total != self.bar.total:
            self.bar.reset(total=total)
        self.bar.set_description_str(label, refresh=False)
        self.bar.update(done - self.bar.n)
        if total is not None and done >= total:
            self.bar.refresh()  # the last step is drawn even inside tqdm's redraw interval

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _progress_bar(args: argparse.Namespace) -> ProgressBar | None:
    """A bar when asked (--progress) or when stderr is a terminal."""
    wanted = bool(getattr(args, "progress", False)) or sys.stderr.isatty()
    return ProgressBar() if wanted else None


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
    from simple_brief.servers import envelope

    tool = registry.get(name)
    state = envelope.ServerState(workspace=ws, budget=args.budget)
    state.editor = envelope.attach_editor(ws.root, args.nvim)
    bar = _progress_bar(args)
    try:
        result = envelope.answer(state, tool, params, bar)
    finally:
        if bar is not None:
            bar.close()
        state.session.close()
    if result.is_error:
        raise UserError(result.blocks[0])
    if as_json:
        print(json.dumps({"ok": True, "tool": name, "content": result.blocks, "data": result.data}, ensure_ascii=False))
    else:
        print("\n\n".join(result.blocks))
    return 0


def _serve_mcp(args: argparse.Namespace) -> int:
    from simple_brief.private_files import state_dir
    from simple_brief.servers import envelope
    from simple_brief.servers import mcp as mcp_server

    workspace = Workspace.at(args.root)
    settings = config.load(workspace.root)
    state = envelope.ServerState(
        workspace=workspace,
        budget=_budget(args.budget, settings),
        toolsets=mcp_server.parse_toolsets(args.toolsets) if args.toolsets else tuple(settings.toolsets),
    )
    state.editor = envelope.attach_editor(state.workspace.root, args.nvim)
    if args.http:
        mcp_server.serve_http(
            state, args.port, state_dir(), announce=lambda line: print(f"simple-brief: {line}", file=sys.stderr)
        )
    else:
        mcp_server.serve_stdio(state)
    return 0


def _budget(given: int | None, settings: config.Config) -> int:
    """--budget when given, else the workspace config's (its default when it names none)."""
    if given is None:
        return settings.budget
    if given < 100:
        raise UserError("--budget must be at least 100 tokens.")
    return given


def _serve_lsp(port: int | None) -> int:
    from simple_brief.servers import lsp as lsp_server

    if port is None:
        lsp_server.serve_stdio()
    else:
        lsp_server.create_server().start_tcp("127.0.0.1", port)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`simple-brief docs search … | head`): no traceback, and none
        # from the interpreter flushing stdout at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="simple-brief: %(levelname)s %(message)s"
    )
    if args.command is None:
        parser.print_help()
        return EXIT_USER_ERROR
    if args.command == "docs" and args.docs_command is None:
        args.docs_parser.print_help()
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
        if args.command == "trust":
            print(_trust(args))
            return 0
        name, params, file = _tool_call(args)
        if args.command in ("outline", "expand", "symbols"):
            params["path"] = _shell_path(args.file)
        ws = _workspace(args.root, file, args.max_bytes)
        args.budget = _budget(args.budget, config.load(ws.root))
        if args.command == "run":
            # As an agent would see it: with the editor's live state and context (AC2).
            return _run_with_editor(ws, name, params, args, as_json)
        bar = _progress_bar(args)
        call = registry.Call(workspace=ws, budget=args.budget, progress=bar)
        try:
            result = registry.invoke(name, params, call)
        finally:
            if bar is not None:
                bar.close()
            call.session.close()  # the docs index, language servers
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
