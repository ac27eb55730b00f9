"""`simple-brief mcp`: the tool registry as an MCP server (MCP SDK 2, `MCPServer`).

Every registry tool becomes an MCP tool with the same name, description and typed,
described parameters. A call captures the editor snapshot once at its start (seed 001
AC12), reads through the editor's unsaved buffers, runs the tool, and answers with text
content blocks; the editor context travels as one short text line first and as
`structuredContent.editorContext` (omitted with no editor, AC4, and for system tools, AC15).

Arguments are checked by the registry before the SDK sees them, so a bad one is answered
in one sentence naming the parameter (never the SDK's validation dump). A call the client
cancels, or abandons by going away, sets the call's cancellation flag: the tool's worker
thread stops at its next check. Over HTTP, a connection that sends nothing, stalls inside
a request, or idles between requests is closed after IDLE_TIMEOUT seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import hmac
import inspect
import json
import logging
import os
import secrets
import sys
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Annotated, Any, get_args

import anyio
import h11
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, ContentBlock, InputRequiredResult, TextContent, ToolAnnotations
from mcp.types import Tool as MCPTool
from pydantic import Field, ValidationError
from pydantic_core import PydanticSerializationError
from uvicorn.protocols.http.h11_impl import H11Protocol

from simple_brief import __version__
from simple_brief import tools as registry
from simple_brief.defaults import KNOWN_TOOLSETS, MIN_BUDGET_TOKENS
from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.path_escapes import escape_surrogates, escape_surrogates_in
from simple_brief.files.private_files import state_dir, write_private
from simple_brief.files.workspace import real_root
from simple_brief.host.context import attach_editor, error_text
from simple_brief.host.served import Served, with_editor_toolsets
from simple_brief.host.wiring import build_host
from simple_brief.index import watch

log = logging.getLogger(__name__)


INSTRUCTIONS = (
    "simple-brief shows code briefly: simple_read mode=outline folds a file to its definitions (F> function, "
    "C> class, S> struct, E> enum; `_` for `>`: opened; `{ ... }`: folded body; L3-5: 1-based lines, doc "
    "comment included); expand_at opens one; search finds names. Paths are workspace-relative; lines and "
    "columns 1-based; a definition's position is its name's. With an editor, answers start with an `editor:` "
    "line and its unsaved buffers win over the disk."
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
    return registry.listed(toolsets)


#: The parameter through which MCPServer hands a call its Context (never listed in the schema).
_CONTEXT = "mcp_context"
#: After a cancelled call, how long its handler waits for the worker thread to stop, seconds.
STOP_WAIT = 2.0
#: Seconds an HTTP connection may stay idle, or take to send a whole request, before it is closed.
IDLE_TIMEOUT = 30.0


def _for_sdk(annotation: Any) -> Any:
    """A declared `Annotated[type, Doc(...)]` with the Doc as pydantic's Field, which the SDK reads."""
    base, *extras = get_args(annotation)
    marks = [Field(description=e.text) if isinstance(e, registry.Doc) else e for e in extras]
    return Annotated[(base, *marks)]


def _signature(tool: registry.Tool) -> inspect.Signature:
    """The tool function's own signature as the SDK builds its input schema from it: the
    declared parameters (`call` left out) and, last, the Context the SDK hands a call."""
    params = [
        p.replace(kind=inspect.Parameter.KEYWORD_ONLY, annotation=_for_sdk(p.annotation))
        for p in tool.signature.parameters.values()
    ]
    params.append(inspect.Parameter(_CONTEXT, inspect.Parameter.KEYWORD_ONLY, annotation=Context))
    return inspect.Signature(params, return_annotation=CallToolResult)


def run_tool(
    state: Served,
    tool: registry.Tool,
    args: dict[str, Any],
    progress: registry.ProgressFn | None = None,
    cancelled: threading.Event | None = None,
    client: str | None = None,
) -> CallToolResult:
    """One MCP call: the host's answer as a CallToolResult; `client`: the MCP session (its read marks)."""
    result = state.call(tool, args, progress, cancelled, client)
    content: list[ContentBlock] = [TextContent(type="text", text=b) for b in result.blocks]
    if result.is_error:
        return CallToolResult(content=content, is_error=True)
    return CallToolResult(content=content, structured_content=result.data)


def _adapter(state: Served, tool: registry.Tool) -> Callable[..., Awaitable[CallToolResult]]:
    async def call_tool(**kwargs: Any) -> CallToolResult:
        ctx: Context | None = kwargs.pop(_CONTEXT, None)
        cancelled = threading.Event()
        stopped = threading.Event()

        def progress(done: float, total: float | None, message: str) -> None:
            # Called from the worker thread: hop to the event loop for the notification.
            if ctx is not None:
                anyio.from_thread.run(partial(ctx.report_progress, done, total, escape_surrogates(message)))

        client = _session_key(ctx)

        def work() -> CallToolResult:
            try:
                return run_tool(state, tool, kwargs, progress, cancelled, client)
            finally:
                stopped.set()

        # The engine is synchronous (tree-sitter, file reads): keep the event loop free. A
        # cancelled request (or a client gone away) cancels this task: the worker cannot be
        # interrupted, so it is told to stop at its next check, and given a moment to.
        try:
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            cancelled.set()
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(stopped.wait, STOP_WAIT)
            raise

    call_tool.__signature__ = _signature(tool)  # type: ignore[attr-defined]
    call_tool.__annotations__ = {_CONTEXT: Context}
    call_tool.__name__ = tool.name
    call_tool.__doc__ = tool.description
    return call_tool


def _session_key(ctx: Context | None) -> str:
    """The MCP session a call comes from (its read marks are its own): over HTTP the
    client's `mcp-session-id`; over stdio (one client per process) `mcp`."""
    try:
        request = ctx.request_context.request if ctx is not None else None
        headers = getattr(request, "headers", None)
        session_id = headers.get("mcp-session-id") if headers is not None else None
    except Exception:  # no request context: the process's one session
        session_id = None
    return f"mcp:{session_id}" if session_id else "mcp"


class BriefServer(MCPServer):
    """MCPServer whose calls are checked by the registry first: an unknown tool or a bad
    argument is one sentence naming it (the registry's own wording, huge values cut to an
    excerpt), never the SDK's multi-line validation text."""

    def __init__(self, state: Served) -> None:
        super().__init__(name="simple-brief", version=__version__, instructions=INSTRUCTIONS)
        self.state = state

    async def list_tools(self) -> list[MCPTool]:
        """The SDK's listing with lean input schemas (`lean_schema`): every tool listed costs
        the agent tokens on every turn."""
        return [
            tool.model_copy(update={"input_schema": lean_schema(tool.input_schema)})
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Check the tool name and arguments, then let the SDK run the tool with them.

        The answer is checked to encode (`sendable`), and so is an error's message: one
        answer the transport cannot write must not end the session.

        Raises:
            ToolError: an unknown tool or a bad argument (one sentence), or what the SDK raises.
        """
        try:
            result = await self._checked_call(name, arguments, context)
        except ToolError as err:
            err.args = tuple(escape_surrogates(a) if isinstance(a, str) else a for a in err.args)
            raise
        return sendable(result, name) if isinstance(result, CallToolResult) else result

    async def _checked_call(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None
    ) -> CallToolResult | InputRequiredResult:
        try:
            tool = registry.get(name, self.state.toolsets)
            checked = registry.check_arguments(tool, arguments)
        except UserError as err:
            raise ToolError(error_text(str(err), {name: None, **arguments})) from None
        try:
            return await super().call_tool(name, checked, context)
        except ToolError as err:
            cause = err.__cause__
            if not isinstance(cause, ValidationError):
                raise
            # The registry passed what the SDK's schema refused: still one sentence.
            first = cause.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "arguments"
            message = f"parameter `{where}` is not valid ({first['msg'].lower()}); see the tool's input schema."
            raise ToolError(error_text(message, arguments)) from None


def sendable(result: CallToolResult, tool: str = "") -> CallToolResult:
    """`result` as the transport can write it: itself when it encodes as JSON; else with
    the lone surrogates of its text and data escaped (`escape_surrogates`: a file name
    that is not UTF-8 which a tool left unescaped); else one error sentence."""
    problem = _json_problem(result)
    if problem is None:
        return result
    log.warning("an answer of %s did not encode (%s); sending it with its surrogates escaped", tool, problem)
    content = [
        block.model_copy(update={"text": escape_surrogates(block.text)}) if isinstance(block, TextContent) else block
        for block in result.content
    ]
    escaped = result.model_copy(
        update={"content": content, "structured_content": escape_surrogates_in(result.structured_content)}
    )
    problem = _json_problem(escaped)
    if problem is None:
        return escaped
    log.error("an answer of %s did not encode even escaped: %s", tool, problem)
    text = f"the answer could not be encoded as JSON ({escape_surrogates(problem)}); see `logs`, and try another call."
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _json_problem(result: CallToolResult) -> str | None:
    """Why `result` cannot be written as the transport writes it, or None."""
    try:
        result.model_dump_json(by_alias=True, exclude_unset=True)
    except (PydanticSerializationError, ValueError, TypeError) as exc:
        return str(exc)
    return None


def lean_schema(node: Any) -> Any:
    """A JSON schema without what only costs tokens: pydantic's `title`s (the names say it),
    an optional parameter's `anyOf [T, null]` with its `default: null`, and a flag's
    `default: false` or a text's `default: ""` (leaving each out means the same; the
    registry's check decides either way)."""
    if isinstance(node, list):
        return [lean_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {
        # A parameter may be named `title`: only pydantic's own `title` keys go.
        key: {name: lean_schema(v) for name, v in value.items()}
        if key == "properties" and isinstance(value, dict)
        else lean_schema(value)
        for key, value in node.items()
        if key != "title"
    }
    choices = out.get("anyOf")
    if isinstance(choices, list) and len(choices) == 2 and {"type": "null"} in choices:
        out.pop("anyOf")
        out.update(next(choice for choice in choices if choice != {"type": "null"}))
        if "default" in out and out["default"] is None:
            out.pop("default")
    if out.get("default") in (False, "") and out.get("type") in ("boolean", "string"):
        out.pop("default")  # an optional flag is off, an optional text empty, when left out
    return out


def build_server(state: Served) -> MCPServer:
    """An MCPServer listing the tools of `state.toolsets` (and the system tools)."""
    server = BriefServer(state)
    for tool in listed_tools(state.toolsets):
        server.add_tool(
            _adapter(state, tool),
            name=tool.name,
            description=tool.description,
            annotations=ToolAnnotations(
                read_only_hint=tool.read_only,
                destructive_hint=None if tool.read_only else tool.destructive,
                # Closed world, said where a client weighs a change (MCP's default is open);
                # a read-only tool leaves it out: it changes no decision, and costs tokens.
                open_world_hint=None if tool.read_only else False,
            ),
            structured_output=False,
        )
    return server


def serve_stdio(state: Served) -> None:
    """Serve MCP over stdin/stdout until the client closes; then stop what the session started."""
    try:
        build_server(state).run("stdio")
    finally:
        state.close()


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


def http_app(state: Served, token: str, port: int) -> ASGIApp:
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
    path = directory / f"{os.getpid()}.json"
    info = {"url": f"http://127.0.0.1:{port}/mcp", "token": token, "pid": os.getpid(), "workspace": str(workspace)}
    write_private(path, json.dumps(info).encode("utf-8"))
    return path


@dataclass
class HttpServer:
    """A running HTTP server: where it is, its token, its state file, how to stop it."""

    url: str
    token: str
    info_file: Path
    stop: Callable[[], None]
    thread: Any


class _GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request: a connection must
    send a whole request (line, headers and body) within `idle_timeout` seconds of opening
    or of starting the request, however slowly bytes trickle in (slowloris); between
    requests uvicorn's keep-alive timer, set to the same timeout, closes it."""

    idle_timeout: float = IDLE_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timeout_keep_alive = self.idle_timeout  # type: ignore[assignment]
        self._request_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            self._arm()  # armed once per request: more bytes do not push the deadline back
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._request_deadline is None and not self.transport.is_closing():
            self._request_deadline = self.loop.call_later(self.idle_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._request_deadline is not None:
            self._request_deadline.cancel()
            self._request_deadline = None

    def _too_slow(self) -> None:
        self._request_deadline = None
        if not self.transport.is_closing():
            log.info("closing an HTTP connection that sent no whole request within %.0f s", self.idle_timeout)
            self.transport.close()


def _guarded_protocol(idle_timeout: float) -> type[H11Protocol]:
    """The guarded protocol class with this timeout (uvicorn builds one per connection)."""
    return type("GuardedH11Protocol", (_GuardedH11Protocol,), {"idle_timeout": idle_timeout})


def serve_http_thread(
    state: Served, state_dir: Path, port: int = 0, timeout: float = 15.0, idle_timeout: float = IDLE_TIMEOUT
) -> HttpServer:
    """Serve MCP over HTTP from a daemon thread (the remote-plugin host's `:SimpleBriefServe`).

    Returns once the server listens. A connection that stays idle, or takes longer than
    `idle_timeout` seconds to send a request, is closed.

    Raises:
        RuntimeError: it did not start within `timeout` seconds.
    """
    import threading
    import time

    import uvicorn

    token = secrets.token_urlsafe(32)
    port = port or _free_port()
    config = uvicorn.Config(
        http_app(state, token, port),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        http=_guarded_protocol(idle_timeout),
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="simple-brief-mcp-http", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"simple-brief: the MCP HTTP server did not start within {timeout:.0f} s")
        time.sleep(0.01)
    info_file = write_server_file(state_dir / "servers", port, token, state.root)

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


def serve_http(state: Served, port: int, state_dir: Path, announce: Callable[[str], None] = log.info) -> None:
    """Serve MCP over streamable HTTP on 127.0.0.1 with a random token until SIGINT/SIGTERM.

    The state file (URL and token, mode 0600) appears only once the server listens, and
    is removed when it stops. `announce` gets the one line saying where (the CLI prints it).
    """
    import signal
    import sys

    server = serve_http_thread(state, state_dir, port=port)
    announce(f"serving MCP on {server.url} (token in {server.info_file})")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while server.thread.is_alive():
            server.thread.join(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        state.close()


def run(args: argparse.Namespace) -> int:
    """`simple-brief mcp [--http [--port N]] [--nvim ADDR] [--toolsets …] [--budget N]`: serve
    until the client closes (stdio) or SIGINT/SIGTERM (HTTP); one long-lived host."""
    watch.long_lived()  # indexes watch their trees from before their first walk: one walk each
    host = build_host(long_lived=True)
    try:
        root = real_root(args.root)
        settings = config.load(root)
        if args.budget is not None and args.budget < MIN_BUDGET_TOKENS:
            raise UserError(f"--budget must be at least {MIN_BUDGET_TOKENS} tokens.")
        host.state(root, settings)
        editor = attach_editor(root, args.nvim, settings.secrets)
        state = Served(
            host,
            root,
            editor,
            args.budget,
            parse_toolsets(args.toolsets) if args.toolsets else with_editor_toolsets(tuple(settings.toolsets), editor),
        )
    except UserError:
        host.close()
        raise
    if args.http:
        serve_http(state, args.port, state_dir(), announce=lambda line: print(f"simple-brief: {line}", file=sys.stderr))
    else:
        serve_stdio(state)
    return 0
