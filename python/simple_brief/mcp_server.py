"""`simple-brief mcp`: the tool registry as an MCP server (MCP SDK 2, `MCPServer`).

Every registry tool becomes an MCP tool with the same name, description and typed,
described parameters. A call captures the editor snapshot once at its start (seed 001
AC12), reads through the editor's unsaved buffers, runs the tool, and answers with text
content blocks; the editor context travels as one short text line first and as
`structuredContent.editorContext` (omitted with no editor, AC4, and for system tools, AC15).
"""

from __future__ import annotations

import hmac
import inspect
import json
import logging
import os
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, ContentBlock, TextContent, ToolAnnotations
from pydantic import Field

from simple_brief import __version__
from simple_brief import tools as registry
from simple_brief.config import KNOWN_TOOLSETS
from simple_brief.envelope import ServerState, answer
from simple_brief.errors import UserError

log = logging.getLogger(__name__)


INSTRUCTIONS = (
    "simple-brief shows code briefly: simple_read mode=outline folds a file to its definitions "
    "(F> function, C> class, S> struct, E> enum, `{ ... }` = folded body, L3-5 = 1-based lines); "
    "expand_at opens one symbol; search finds names across the workspace; document_symbols gives exact "
    "ranges. When an editor is attached, every answer starts with an `editor:` line (file, cursor, "
    "enclosing symbols) and unsaved buffer text wins over the disk."
)

ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[..., Awaitable[Any]], Callable[..., Awaitable[Any]]], Awaitable[None]
]


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


#: The parameter through which MCPServer hands a call its Context (never listed in the schema).
_CONTEXT = "mcp_context"


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
    params.append(inspect.Parameter(_CONTEXT, inspect.Parameter.KEYWORD_ONLY, annotation=Context))
    return inspect.Signature(params, return_annotation=CallToolResult)


def run_tool(
    state: ServerState, tool: registry.Tool, args: dict[str, Any], progress: registry.ProgressFn | None = None
) -> CallToolResult:
    """One MCP call: the envelope's answer as a CallToolResult."""
    result = answer(state, tool, args, progress)
    content: list[ContentBlock] = [TextContent(type="text", text=b) for b in result.blocks]
    if result.is_error:
        return CallToolResult(content=content, is_error=True)
    return CallToolResult(content=content, structured_content=result.data)


def _adapter(state: ServerState, tool: registry.Tool) -> Callable[..., Awaitable[CallToolResult]]:
    async def call_tool(**kwargs: Any) -> CallToolResult:
        ctx: Context | None = kwargs.pop(_CONTEXT, None)

        def progress(done: float, total: float | None, message: str) -> None:
            # Called from the worker thread: hop to the event loop for the notification.
            if ctx is not None:
                anyio.from_thread.run(partial(ctx.report_progress, done, total, message))

        # The engine is synchronous (tree-sitter, file reads): keep the event loop free.
        return await anyio.to_thread.run_sync(partial(run_tool, state, tool, kwargs, progress))

    call_tool.__signature__ = _signature(tool)  # type: ignore[attr-defined]
    call_tool.__annotations__ = {_CONTEXT: Context}
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
            annotations=ToolAnnotations(
                read_only_hint=tool.read_only,
                destructive_hint=None if tool.read_only else tool.destructive,
                open_world_hint=False,
            ),
            structured_output=False,
        )
    return server


def serve_stdio(state: ServerState) -> None:
    """Serve MCP over stdin/stdout until the client closes; then stop what the session started."""
    try:
        build_server(state).run("stdio")
    finally:
        state.session.close()


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
        state.session.close()
