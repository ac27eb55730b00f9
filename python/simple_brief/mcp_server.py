"""`simple-brief mcp`: the tool registry as an MCP server (MCP SDK 2, `MCPServer`).

Every registry tool becomes an MCP tool with the same name, description and typed,
described parameters. A call captures the editor snapshot once at its start (seed 001
AC12), reads through the editor's unsaved buffers, runs the tool, and answers with text
content blocks; the editor context travels as one short text line first and as
`structuredContent.editorContext` (omitted with no editor, AC4, and for system tools, AC15).
"""

from __future__ import annotations

import dataclasses
import hmac
import inspect
import json
import logging
import os
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from mcp.server import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from simple_brief import __version__
from simple_brief import tools as registry
from simple_brief.editor import DiskBackend, EditorBackend, Snapshot
from simple_brief.errors import UserError
from simple_brief.render.budget import DEFAULT_BUDGET_TOKENS
from simple_brief.workspace import Workspace

log = logging.getLogger(__name__)

#: Toolsets a user may name; the ones without tools yet list nothing.
KNOWN_TOOLSETS = ("read", "lsp", "docs", "workspace", "tasks")
DEFAULT_TOOLSETS = ("read", "lsp", "docs")

INSTRUCTIONS = (
    "simple-brief shows code briefly: simple_read mode=outline folds a file to its definitions "
    "(F> function, C> class, S> struct, E> enum, `{ ... }` = folded body, L3-5 = 1-based lines); "
    "expand_at opens one symbol; search finds names across the workspace; document_symbols gives exact "
    "ranges. When an editor is attached, every answer starts with an `editor:` line (file, cursor, "
    "enclosing symbols) and unsaved buffer text wins over the disk."
)

Scalar = type[str] | type[int] | type[bool] | type[float]

ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[..., Awaitable[Any]], Callable[..., Awaitable[Any]]], Awaitable[None]
]


@dataclass
class ServerState:
    """What every call of one server shares."""

    workspace: Workspace
    editor: EditorBackend = field(default_factory=DiskBackend)
    budget: int = DEFAULT_BUDGET_TOKENS
    toolsets: tuple[str, ...] = DEFAULT_TOOLSETS


def parse_toolsets(text: str) -> tuple[str, ...]:
    """`read,lsp` -> ('read', 'lsp'), refusing unknown names with one sentence."""
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    unknown = [n for n in names if n not in KNOWN_TOOLSETS]
    if unknown or not names:
        raise UserError(
            f"unknown toolset {', '.join(unknown) or '(none given)'}; choose from {', '.join(KNOWN_TOOLSETS)}."
        )
    return names


def listed_tools(toolsets: tuple[str, ...]) -> list[registry.Tool]:
    """The registry tools a server with these toolsets lists: theirs, and the system tools."""
    return [t for t in registry.load().values() if t.system or t.toolset in toolsets]


def _annotation(param: registry.Param) -> Any:
    base: Any = Literal[param.choices] if param.choices else param.type
    if not param.required and param.default is None:
        base = base | None
    return Annotated[base, Field(description=param.description)]


def _signature(tool: registry.Tool) -> inspect.Signature:
    params = [
        inspect.Parameter(
            p.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if p.required else p.default,
            annotation=_annotation(p),
        )
        for p in tool.params
    ]
    return inspect.Signature(params, return_annotation=CallToolResult)


def _safe(what: str, fn: Callable[[], Any], default: Any) -> Any:
    """An editor answer, or `default`: a failing editor never breaks the tool's answer (AC11)."""
    try:
        return fn()
    except Exception:  # any backend failure is logged and the call goes on (AC11)
        log.exception("editor backend failed while getting %s; answering without it", what)
        return default


def editor_context(state: ServerState, snap: Snapshot) -> dict[str, Any] | None:
    """The seed 001 context object for a snapshot, or None when it cannot be built (AC11)."""
    from simple_brief import context as ctx_module
    from simple_brief import languages
    from simple_brief.scan import scan

    def build() -> dict[str, Any]:
        symbols = None
        warning = None
        if snap.path is not None:
            symbols = state.editor.symbols(snap.path)
        if symbols is None:
            spec = languages.detect(snap.path or "buffer", snap.filetype)
            if spec is languages.PLAIN:
                warning = "No symbol provider registered for this language"
            elif snap.path is not None and _inside(state.workspace.root, snap.path):
                # The workspace's parse cache: unchanged buffers are not scanned again.
                if snap.text is not None:
                    state.workspace.overlays.setdefault(snap.path, snap.text)
                symbols = state.workspace.outline(snap.path, snap.filetype)[1].symbols
            else:
                text = snap.text
                if text is None and snap.path is not None and snap.path.is_file():
                    text = snap.path.read_text(encoding="utf-8", errors="replace")
                symbols = scan(text or "", spec).symbols
        # A selection counts while it is live; the last one only stands in for a terminal.
        shown = snap
        if snap.selection is not None and not snap.terminal_fallback and not snap.extra.get("selection_live", True):
            shown = dataclasses.replace(snap, selection=None)
        return ctx_module.build_context(shown, symbols, warning)

    result: dict[str, Any] | None = _safe("the editor context", build, None)
    return result


def _inside(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root)
    except ValueError:
        return False
    return True


def run_tool(state: ServerState, tool: registry.Tool, args: dict[str, Any]) -> CallToolResult:
    """One call: snapshot first, overlays, the tool, then the context attached to the answer."""
    snap = None if tool.system else _safe("the snapshot", state.editor.snapshot, None)
    state.workspace.overlays = _safe("the unsaved buffers", state.editor.overlays, {})
    call = registry.Call(workspace=state.workspace, budget=state.budget, editor=state.editor)
    try:
        result = registry.invoke(tool.name, args, call)
    except UserError as err:
        return CallToolResult(content=[TextContent(type="text", text=str(err))], is_error=True)
    blocks = list(result.blocks)
    structured: dict[str, Any] = dict(result.data)
    if snap is not None:
        ctx = editor_context(state, snap)
        if ctx is not None:
            from simple_brief.context import context_line

            structured["editorContext"] = ctx
            blocks.insert(0, context_line(ctx, state.workspace.root, terminal_fallback=snap.terminal_fallback))
    if not blocks:
        blocks = ["(nothing to show)"]
    return CallToolResult(content=[TextContent(type="text", text=b) for b in blocks], structured_content=structured)


def _adapter(state: ServerState, tool: registry.Tool) -> Callable[..., Awaitable[CallToolResult]]:
    async def call_tool(**kwargs: Any) -> CallToolResult:
        # The engine is synchronous (tree-sitter, file reads): keep the event loop free.
        return await anyio.to_thread.run_sync(partial(run_tool, state, tool, kwargs))

    call_tool.__signature__ = _signature(tool)  # type: ignore[attr-defined]
    call_tool.__name__ = tool.name
    call_tool.__doc__ = tool.description
    return call_tool


def build_server(state: ServerState) -> MCPServer:
    """An MCPServer listing the tools of `state.toolsets` (and the system tools)."""
    server: MCPServer = MCPServer(name="simple-brief", version=__version__, instructions=INSTRUCTIONS)
    for tool in listed_tools(state.toolsets):
        server.add_tool(
            _adapter(state, tool),
            name=tool.name,
            description=tool.description,
            annotations=ToolAnnotations(read_only_hint=tool.read_only, open_world_hint=False),
            structured_output=False,
        )
    return server


def attach_editor(root: Path, explicit: str | None) -> EditorBackend:
    """The editor to read: --nvim, $NVIM, the registered Neovim for `root`, else the disk."""
    try:
        from simple_brief import nvim_backend
    except ImportError as err:
        log.warning("Neovim support unavailable (%s); reading files on disk", err)
        return DiskBackend()
    backend: EditorBackend = nvim_backend.attach(root, explicit)
    return backend


def serve_stdio(state: ServerState) -> None:
    """Serve MCP over stdin/stdout until the client closes."""
    build_server(state).run("stdio")


class BearerTokenGate:
    """ASGI middleware: every request needs `Authorization: Bearer <token>` (constant-time check)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(
        self,
        scope: MutableMapping[str, Any],
        receive: Callable[..., Awaitable[Any]],
        send: Callable[..., Awaitable[Any]],
    ) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            given = headers.get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = b'{"error": "missing or wrong bearer token; see the state file simple-brief wrote"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(state: ServerState, token: str, port: int) -> ASGIApp:
    """The streamable-HTTP app behind the token gate, accepting only loopback Host/Origin."""
    hosts = [f"127.0.0.1:{port}", f"localhost:{port}", "127.0.0.1", "localhost"]
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"http://{h}" for h in hosts],
    )
    app = build_server(state).streamable_http_app(transport_security=security, host="127.0.0.1")
    return BearerTokenGate(app, token)


def write_server_file(directory: Path, port: int, token: str, workspace: Path) -> Path:
    """Advertise a running HTTP server (URL and token) in a 0600 file; returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{os.getpid()}.json"
    info = {"url": f"http://127.0.0.1:{port}/mcp", "token": token, "pid": os.getpid(), "workspace": str(workspace)}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(info, handle)
    os.chmod(path, 0o600)
    return path


@dataclass
class HttpServer:
    """A running HTTP server: where it is, its token, its state file, how to stop it."""

    url: str
    token: str
    info_file: Path
    stop: Callable[[], None]
    thread: Any


def serve_http_thread(state: ServerState, state_dir: Path, port: int = 0, timeout: float = 15.0) -> HttpServer:
    """Serve MCP over HTTP from a daemon thread (the remote-plugin host's `:SimpleBriefServe`).

    Returns once the server listens.

    Raises:
        RuntimeError: it did not start within `timeout` seconds.
    """
    import threading
    import time

    import uvicorn

    token = secrets.token_urlsafe(32)
    port = port or _free_port()
    config = uvicorn.Config(http_app(state, token, port), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="simple-brief-mcp-http", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"simple-brief: the MCP HTTP server did not start within {timeout:.0f} s")
        time.sleep(0.01)
    info_file = write_server_file(state_dir / "servers", port, token, state.workspace.root)

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=5)
        info_file.unlink(missing_ok=True)

    return HttpServer(f"http://127.0.0.1:{port}/mcp", token, info_file, stop, thread)


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_http(state: ServerState, port: int, state_dir: Path) -> None:
    """Serve MCP over streamable HTTP on 127.0.0.1 with a random token until SIGINT/SIGTERM.

    The state file (URL and token, mode 0600) appears only once the server listens, and
    is removed when it stops.
    """
    import signal
    import sys

    server = serve_http_thread(state, state_dir, port=port)
    log.warning("serving MCP on %s (token in %s)", server.url, server.info_file)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while server.thread.is_alive():
            server.thread.join(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
