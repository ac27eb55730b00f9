"""The `simple-brief` command, run in this process: the tool registry from a shell.

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
    simple-brief daemon start|stop|status

A user error prints one sentence on stderr and exits 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from simple_brief import config, trust
from simple_brief import lsp as _disk_servers  # noqa: F401  (registers the disk-mode language servers)
from simple_brief import tools as registry
from simple_brief.beneath import shown_path
from simple_brief.cli.parser import EXIT_USER_ERROR, build_parser
from simple_brief.cli.streams import escape_unencodable
from simple_brief.errors import UserError
from simple_brief.tools import hints
from simple_brief.workspace import Workspace

#: How a command opens its workspace: `Workspace.at`, or the daemon's warm workspaces.
open_workspace: Callable[[str | None], Workspace] = Workspace.at
#: In the daemon: what a call's session started (language servers, the docs index) stays
#: with its warm workspace for the next call instead of stopping with the call.
keep_session_servers = False


def _workspace(root: str | None, file: str | None, max_bytes: int) -> Workspace:
    """The --root, else the current directory, else (a file named outside it) the file's folder."""
    if root is None and file is not None:
        target = Path(file).expanduser().resolve()
        cwd = Path.cwd().resolve()
        if cwd not in target.parents and target != cwd:
            root = str(target.parent)
    ws = open_workspace(root)
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
        parsed = config.parse(data.decode("utf-8", "replace"), real)
        named = parsed.programs(real.parent)
        listed = "; ".join(named) if named else "no programs"
        notes = "".join(f"\nnote: {note}" for note in parsed.notes)
        if args.status:
            meaning = {
                trust.Trust.TRUSTED: "trusted as it is now",
                trust.Trust.DENIED: "denied",
                trust.Trust.UNKNOWN: "not trusted (never trusted, or changed since); `simple-brief trust` trusts it",
            }
            return f"{real}: {meaning[verdict]}; it names {listed}.{notes}"
        trust.allow(real, data)
    except OSError as exc:
        raise UserError(f"the trust database {trust.database()} cannot be written ({exc.strerror}).") from None
    return f"{real}: trusted as it is now (a later change needs a new trust); it names {listed}.{notes}"


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
            {
                "path": args.file,
                "selector": args.selector,
                "what": args.what,
                "filetype": args.filetype,
                "context": args.context,
            },
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
                "under": args.under,
                "offset": args.offset,
            },
            args.file,
        )
    if cmd == "search":
        return "search", {"query": args.query, "path": args.path, "limit": args.limit}, None
    if cmd == "diagnostics":
        return "diagnostics", {"path": args.path, "only": args.only}, None
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
    if action == "get":
        return "docs_get", {"id": args.id, "part": args.part}, None
    # `docs examples ID` and `docs related ID`: the parts of docs_get (once tools of their own).
    return "docs_get", {"id": args.id, "part": action}, None


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


def _run_with_editor(
    ws: Workspace,
    name: str,
    params: dict[str, Any],
    args: argparse.Namespace,
    as_json: bool,
    cancelled: threading.Event,
) -> int:
    from simple_brief.servers import envelope

    tool = registry.get(name)
    state = envelope.ServerState(workspace=ws, budget=args.budget, session=_session(ws))
    state.editor = envelope.attach_editor(ws.root, args.nvim)
    bar = _progress_bar(args)
    try:
        result = envelope.answer(state, tool, params, bar, cancelled)
    finally:
        if bar is not None:
            bar.close()
        _end_session(ws, state.session)
    if result.is_error:
        raise UserError(result.blocks[0])
    if as_json:
        print(json.dumps({"ok": True, "tool": name, "content": result.blocks, "data": result.data}, ensure_ascii=False))
    else:
        print("\n\n".join(result.blocks))
    return 0


def _serve_mcp(args: argparse.Namespace) -> int:
    from simple_brief.index import watch
    from simple_brief.private_files import state_dir
    from simple_brief.servers import envelope
    from simple_brief.servers import mcp as mcp_server

    watch.long_lived()  # indexes watch their trees from before their first walk: one walk each
    workspace = Workspace.at(args.root)
    settings = config.load(workspace.root)
    state = envelope.ServerState(
        workspace=workspace,
        budget=_budget(args.budget, settings),
        toolsets=mcp_server.parse_toolsets(args.toolsets) if args.toolsets else tuple(settings.toolsets),
        long_lived=True,
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


def _as_daemon(warm: Callable[[str | None], Workspace]) -> Callable[[list[str], threading.Event], int]:
    """This process becomes the daemon: commands open `warm` workspaces and keep their
    language servers and docs index running between calls; returns the runner."""
    global open_workspace, keep_session_servers
    open_workspace = warm
    keep_session_servers = True
    return main


def _session(ws: Workspace) -> registry.Session:
    """A call's session: new, with the language servers, docs index and debug sessions the
    workspace's earlier calls left running when this process is the daemon (everything
    else, such as `workspace_open` ids, starts empty as in a standalone run)."""
    kept = ws.attached.get("session_servers") if keep_session_servers else None
    if isinstance(kept, registry.Session):
        return registry.Session(docs=kept.docs, language_servers=kept.language_servers, debug=kept.debug)
    return registry.Session()


def _end_session(ws: Workspace, session: registry.Session) -> None:
    """After a call: stop what its session started, or keep it with the workspace (daemon)."""
    if not keep_session_servers:
        session.close()
        return
    kept = registry.Session(docs=session.docs, language_servers=session.language_servers, debug=session.debug)
    with ws.attached_lock:
        ws.attached["session_servers"] = kept


def main(argv: Sequence[str] | None = None, cancelled: threading.Event | None = None) -> int:
    """Run the command line; return the exit code. Once `cancelled` is set (the daemon's
    client went away), a running tool stops at its next check."""
    escape_unencodable()
    try:
        return _main(argv, cancelled or threading.Event())
    except BrokenPipeError:
        # The reader went away (`simple-brief docs search … | head`): no traceback, and none
        # from the interpreter flushing stdout at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _main(argv: Sequence[str] | None, cancelled: threading.Event) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="simple-brief: %(levelname)s %(message)s",
        force=True,  # in the daemon: this call's stderr and level, not the previous call's
    )
    if args.command is None:
        parser.print_help()
        return EXIT_USER_ERROR
    if args.command == "docs" and args.docs_command is None:
        args.docs_parser.print_help()
        return EXIT_USER_ERROR
    as_json = bool(getattr(args, "json", False))
    if args.command == "daemon":
        from simple_brief.cli import daemon_commands

        return daemon_commands.run(args, _as_daemon)
    if args.command == "lsp":
        return _serve_lsp(args.tcp)
    if args.command == "mcp":
        try:
            return _serve_mcp(args)
        except UserError as err:
            print(f"simple-brief: {err}", file=sys.stderr)
            return EXIT_USER_ERROR
    surface = hints.SURFACE.set("cli")  # this call's next steps named as commands (not for `mcp`)
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
            return _run_with_editor(ws, name, params, args, as_json, cancelled)
        bar = _progress_bar(args)
        call = registry.Call(workspace=ws, budget=args.budget, progress=bar, session=_session(ws), cancelled=cancelled)
        try:
            result = registry.invoke(name, params, call)
        finally:
            if bar is not None:
                bar.close()
            _end_session(ws, call.session)  # the docs index, language servers
    except UserError as err:
        if as_json:
            print(json.dumps({"ok": False, "error": str(err)}))
        else:
            print(f"simple-brief: {err}", file=sys.stderr)
        return EXIT_USER_ERROR
    except (KeyboardInterrupt, registry.Cancelled):
        return 130  # (Cancelled: in the daemon, whose client went away; nobody reads this)
    finally:
        hints.SURFACE.reset(surface)
    if as_json:
        print(json.dumps({"ok": True, "tool": name, "content": result.blocks, "data": result.data}, ensure_ascii=False))
    else:
        print(result.text)
    return 0
