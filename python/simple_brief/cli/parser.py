"""The `simple-brief` argument parser: every subcommand, its options and help text."""

from __future__ import annotations

import argparse
import json
import sys

from simple_brief import __version__
from simple_brief import defaults as config
from simple_brief.defaults import DEFAULT_BUDGET_TOKENS, DEFAULT_MAX_BYTES
from simple_brief.host.request import EXIT_USER_ERROR

TYPE_CHECKING = False  # not typing's: importing typing costs the script's fast path milliseconds
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


_EPILOG = """\
Positions in text output are 1-based line:col; --format standard JSON is 0-based (LSP).
Block marks: F> function, C> class, S> struct, E> enum (`_` instead of `>` = open),
V* a diagnostic line. Each mark ends with its line span, e.g. L3-5: `expand FILE line:3`;
a span (the folding range, RANGE in `symbols`) includes the doc comment and decorators
above the name. Every other position of a definition (search's @line:col, SELECTION,
`name (line:N)` lists) is the name's own.
"""


class Parser(argparse.ArgumentParser):
    """argparse that reports usage mistakes as one sentence and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sentence = f"{message}; see `{self.prog} --help`."
        if "--json" in sys.argv[1:]:
            print(json.dumps({"ok": False, "error": sentence}))
            self.exit(EXIT_USER_ERROR)
        self.exit(EXIT_USER_ERROR, f"simple-brief: {sentence}\n")


def _positive(unit: str, meaning: str, least: int = 1) -> Callable[[str], int]:
    """An option's type: a whole number of `unit`, at least `least` (`meaning`: what less would do)."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number of {unit}") from None
        if value < least:
            wanted = f"a number of {unit} above 0" if least == 1 else f"at least {least:,} {unit}"
            raise argparse.ArgumentTypeError(f"{value} {meaning}: give {wanted}")
        return value

    return whole


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
        type=_positive("bytes", "would refuse every file"),
        default=DEFAULT_MAX_BYTES,
        help="largest file read, in bytes (default: %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print {ok, tool, content, data} JSON instead of text")
    no_daemon_option(parser)


#: The commands `simple_brief.main` starts their own adapters for (the MCP and LSP servers, the daemon).
SERVED_ELSEWHERE = ("mcp", "lsp", "daemon")


def no_daemon_option(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """`--no-daemon`: the `simple-brief` script reads it before parsing (cli/client.py); here it
    is only accepted and listed (SUPPRESS: a subcommand's default never hides the top level's)."""
    parser.add_argument(
        "--no-daemon",
        action="store_true",
        default=argparse.SUPPRESS,
        help="work in this process, not through the per-user daemon"
        + (" (also `[daemon] enabled = false` in ~/.config/simple-brief/config.toml)" if top else ""),
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = Parser(
        prog="simple-brief",
        description="A brief, live view of code for people and LLM coding agents.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"simple-brief {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens on stderr")
    no_daemon_option(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

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
        choices=("outline", "compact", "full", "symbols", "names"),
        help="outline (default), compact, full source, the symbols view, or names and lines only",
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
    p.add_argument(
        "--context",
        action="store_true",
        help="also its class headers, fields, nearby signatures and the imports it uses (not the file's outline)",
    )
    p.add_argument("--filetype", help="read the file as this language (Neovim filetype)")
    _common(p)

    p = sub.add_parser(
        "symbols",
        help="the symbol table of a file (document_symbols)",
        description="Print NAME | KIND | RANGE | SELECTION | PARENT | HOVER_INFO | <<< rows. RANGE is the "
        "whole definition, its doc comment and decorators included; SELECTION is the name.",
    )
    p.add_argument("file")
    p.add_argument("--format", default="table", choices=("table", "standard"))
    p.add_argument("--return-children", default="auto", choices=("yes", "no", "auto"))
    p.add_argument("--no-hover", action="store_true", help="leave HOVER_INFO empty")
    p.add_argument("--under", help="only this symbol's members (Name or Class.method)")
    p.add_argument("--offset", type=int, help="page through the rows from this one (0: the first)")
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
        help="problems in a file or the workspace (the editor's; for one file its syntax checker's and the "
        "language servers'; H003 where the grammar could not read)",
        description="List diagnostics grouped by file, position first.",
    )
    p.add_argument("path", nargs="?")
    p.add_argument(
        "--only",
        choices=("parse", "types", "lint"),
        help="one file: parse (its syntax checker's verdict, functions, types, imports), types (type and "
        "compile errors from its checker and language servers), lint (linters' findings); default: every finding",
    )
    p.add_argument("--explain", metavar="CODE", help="the cause, example and fix of one of simple-brief's codes (H003)")
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
        f"else {','.join(config.DEFAULT_TOOLSETS)}, with edit when a Neovim is attached); the system tools always",
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

    _hook_parser(sub)
    p = sub.add_parser("tools", help="list the tools and their parameters")
    p.add_argument("--json", action="store_true", help="print the tool schemas as JSON")
    no_daemon_option(p)
    _daemon_parser(sub)
    return parser


_HOOK_DESCRIPTION = """\
Claude Code's PreToolUse/PostToolUse hook: reads the tool call's JSON on stdin.
A Read of a whole source file (no offset/limit) longer than --read-lines lines,
inside the session's folder, is denied the first time in a session, and Claude
gets the file's outline with line spans instead (every definition's name and
line when only its top level would fit; a second Read of it goes through).
After an Edit, Write or MultiEdit of a source file, its errors and warnings
are added as context (nothing when it is clean). Anything else -
another tool, a short, data or outside file, bad input, any error - passes
through: exit 0, nothing printed. Settings: `[hook] read_lines = N`,
`budget = N` in ~/.config/simple-brief/config.toml. Register it in
~/.claude/settings.json (`:SimpleBrief mcp` prints the block with your path):

HOOK_SETTINGS
Codex has no hook of its own here: it reads files through shell commands,
which its PreToolUse hook cannot answer with an outline.
"""


def _hook_parser(sub: Any) -> None:
    """`hook claude`."""
    settings = config.HOOK_SETTINGS.replace("COMMAND", '"simple-brief hook claude"')
    p = sub.add_parser(
        "hook",
        help="an agent's tool hook: a long source file's outline instead of a whole-file read",
        description=_HOOK_DESCRIPTION.replace("HOOK_SETTINGS", settings),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("agent", choices=config.HOOK_AGENTS, help="whose hook protocol (claude: Claude Code)")
    p.add_argument(
        "--read-lines",
        type=_positive("lines", "would outline every file"),
        help=f"outline files longer than this (default: `hook.read_lines`, else {config.DEFAULT_HOOK_READ_LINES})",
    )
    p.add_argument(
        "--budget",
        type=_positive("tokens", "cannot hold an outline's first lines", config.MIN_BUDGET_TOKENS),
        help=f"token budget of the outline (default: `hook.budget`, else {config.DEFAULT_HOOK_BUDGET})",
    )
    no_daemon_option(p)


_DAEMON_DESCRIPTION = """\
The per-user daemon keeps parsed files, compiled queries and indexes warm between calls.
The `simple-brief` command starts it when none runs and uses it for outline, expand,
symbols, search, diagnostics, docs, run and tools (same answers, faster); it stops by
itself, with the language servers and watchers it started, after an idle period without
a command (`status` does not count), and makes way for a new daemon when simple-brief's
own files changed since it started. `--no-daemon`, `[daemon] enabled = false` in
~/.config/simple-brief/config.toml or SIMPLE_BRIEF_DAEMON=0 work without it.
It listens on a Unix socket only this user can open: <state>/daemon/daemon.sock
($SIMPLE_BRIEF_STATE_DIR overrides <state>); it logs to daemon.log beside it.
"""


def _daemon_parser(sub: Any) -> None:
    """`daemon start|stop|status`."""
    daemon = sub.add_parser(
        "daemon",
        help="start, stop or show the per-user daemon the command uses",
        description=_DAEMON_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    daemon.set_defaults(daemon_parser=daemon)
    actions = daemon.add_subparsers(dest="daemon_command", metavar="ACTION", parser_class=Parser)
    p = actions.add_parser(
        "start",
        help="start the daemon unless one runs",
        description="Start this user's daemon in the background (nothing happens when one runs).",
    )
    p.add_argument(
        "--idle-minutes",
        type=_positive_minutes,
        help="stop after this many minutes without a request "
        f"(default: `daemon.idle_minutes` in the user's config, else {config.DEFAULT_DAEMON_IDLE_MINUTES:g})",
    )
    p.add_argument("--foreground", action="store_true", help="serve in this process until stopped or idle")
    # Set by the command that starts the daemon: the root it searched, walked once its process left.
    p.add_argument("--warm", metavar="ROOT", help=argparse.SUPPRESS)
    p.add_argument("--after-pid", type=int, help=argparse.SUPPRESS)
    actions.add_parser("stop", help="stop the daemon", description="Stop this user's daemon and wait until it is gone.")
    actions.add_parser(
        "status",
        help="pid, uptime, workspaces, memory, requests served",
        description="Show whether the daemon runs: its pid, uptime, workspaces kept warm, memory (RSS) and "
        "requests served. Exit code 3 when none runs.",
    )


def _positive_minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of minutes") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{value:g} minutes: give a duration above 0, e.g. 15")
    return value


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
        help="search and read the workspace's documentation (the docs tool)",
        description="Search and read the doc comments and docstrings of the workspace and of the libraries\n"
        "indexed with `docs index` (python: the standard library; site-packages: installed packages;\n"
        "nvim: Neovim's runtime Lua; or a folder).",
        epilog=_DOCS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    docs.set_defaults(docs_parser=docs)
    leaves = docs.add_subparsers(dest="docs_command", metavar="ACTION", parser_class=Parser)

    def leaf(name: str, tool: str, summary: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = leaves.add_parser(
            name,
            help=f"{summary} ({tool})",
            description=summary[:1].upper() + summary[1:] + ".",
            epilog=_DOCS_EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        return p

    p = leaf("search", "docs action=search", "ranked items whose docs match words")
    p.add_argument("query")
    p.add_argument("--kind", help="only this kind (function, method, class, module, ...)")
    p.add_argument("--module", help="only items of this module id")
    p.add_argument("--library", help="only this library (workspace, python, site-packages, nvim, a folder's name)")
    p.add_argument("--limit", type=int, default=10, help="most results (default: %(default)s)")
    p = leaf("get", "docs action=get", "one item's signature, doc, params, returns, examples and see-also")
    p.add_argument("id", help="item id, e.g. pkg.mod.func")
    p.add_argument(
        "--part",
        choices=("doc", "examples", "related"),
        default="doc",
        help="doc: all of it (default); examples: each marked runnable or not; related: see-also, same "
        "module, similar signature",
    )
    p = leaf("list", "docs action=list", "a module's doc, items and submodules")
    p.add_argument("module", help="module id, e.g. pkg.mod")
    p = leaf("resolve", "docs action=resolve", "the item a name means, with alternatives")
    p.add_argument("symbol")
    p.add_argument("--context", help="module id or file path the name is used in")
    p = leaf("examples", "docs action=get part=examples", "an item's examples, each marked runnable or not")
    p.add_argument("id")
    p = leaf(
        "related", "docs action=get part=related", "items related to one (see-also, same module, similar signature)"
    )
    p.add_argument("id")
    p = leaf("index", "docs action=index", "index or refresh the workspace or a library")
    p.add_argument(
        "library",
        nargs="?",
        help="workspace (default), python, site-packages, nvim, or a folder listed under [docs] folders "
        "in ~/.config/simple-brief/config.toml (by its path or last part)",
    )
    for leaf_parser in leaves.choices.values():
        _common(leaf_parser)
        _progress_option(leaf_parser)
