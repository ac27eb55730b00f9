"""`simple-brief mcp --http`: loopback only, a bearer token, Host/Origin checks, a 0600 state file,
and idle or stalled connections closed after a timeout."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import HttpServer, serve_http_thread


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[dict[str, object], Path, subprocess.Popen[bytes]]]:
    (tmp_path / "app.py").write_text("def hello():\n    return 1\n")
    state = tmp_path / "state"
    env = {**os.environ, "SIMPLE_BRIEF_STATE_DIR": str(state), "NVIM": ""}
    proc = subprocess.Popen(
        [sys.executable, "-m", "simple_brief", "mcp", "--http", "--root", str(tmp_path)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    info_file = state / "servers" / f"{proc.pid}.json"
    deadline = time.monotonic() + 30
    info: dict[str, object] = {}
    while time.monotonic() < deadline and proc.poll() is None:
        if info_file.exists():
            info = json.loads(info_file.read_text())
            try:
                httpx2.get(str(info["url"]), timeout=1)
                break
            except httpx2.TransportError:
                pass
        time.sleep(0.05)  # polling a child process that starts a web server: bounded by the deadline
    failed = proc.stderr.read().decode() if proc.stderr is not None and proc.poll() is not None else ""
    assert info, f"the server did not start: {failed}"
    try:
        yield info, info_file, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_state_file_is_private_and_names_a_loopback_url(
    server: tuple[dict[str, object], Path, subprocess.Popen[bytes]],
) -> None:
    info, info_file, _ = server
    assert stat.S_IMODE(info_file.stat().st_mode) == 0o600
    assert str(info["url"]).startswith("http://127.0.0.1:")
    assert len(str(info["token"])) >= 32


def test_it_says_where_it_serves_in_one_plain_line_and_cleans_up(
    server: tuple[dict[str, object], Path, subprocess.Popen[bytes]],
) -> None:
    info, info_file, proc = server
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=15)
    assert proc.stderr is not None
    said = proc.stderr.read().decode()
    assert f"simple-brief: serving MCP on {info['url']} (token in {info_file})" in said
    assert "WARNING" not in said
    assert not info_file.exists()


def test_a_request_without_the_token_is_refused(
    server: tuple[dict[str, object], Path, subprocess.Popen[bytes]],
) -> None:
    info, _, _ = server
    answer = httpx2.post(str(info["url"]), json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, timeout=5)
    assert answer.status_code == 401
    wrong = httpx2.post(
        str(info["url"]),
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"Authorization": "Bearer not-the-token"},
        timeout=5,
    )
    assert wrong.status_code == 401


def test_a_foreign_host_or_origin_is_refused(server: tuple[dict[str, object], Path, subprocess.Popen[bytes]]) -> None:
    info, _, _ = server
    auth = {
        "Authorization": f"Bearer {info['token']}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    host = httpx2.post(str(info["url"]), json=body, headers={**auth, "Host": "evil.example"}, timeout=5)
    origin = httpx2.post(str(info["url"]), json=body, headers={**auth, "Origin": "http://evil.example"}, timeout=5)
    assert host.status_code in (400, 403, 421)
    assert origin.status_code in (400, 403)


@pytest.mark.anyio
async def test_with_the_token_an_mcp_client_lists_and_calls(
    server: tuple[dict[str, object], Path, subprocess.Popen[bytes]],
) -> None:
    info, info_file, proc = server
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {info['token']}"})
    async with Client(streamable_http_client(str(info["url"]), http_client=http), raise_exceptions=True) as client:
        with anyio.fail_after(20):
            names = {t.name for t in (await client.list_tools()).tools}
            result = await client.call_tool("simple_read", {"path": "app.py", "mode": "outline"})
    assert {"simple_read", "search"} <= names
    assert "F> def hello() { ... } L1-2" in result.content[0].text  # type: ignore[union-attr]
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=15)
    assert not info_file.exists(), "the state file is removed when the server stops"


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[HttpServer]:
    """A real server in a thread that closes idle or stalled connections after 1 s."""
    (tmp_path / "app.py").write_text("def hello():\n    return 1\n")
    running = serve_http_thread(Served.over(Workspace.at(tmp_path)), tmp_path / "state", idle_timeout=QUICK)
    try:
        yield running
    finally:
        running.stop()


QUICK = 1.0
#: Well past QUICK but under uvicorn's own 5 s keep-alive: what closes the socket is our timeout.
BOUND = 4.0


def _address(server: HttpServer) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").split("/")[0].split(":")
    return host, int(port)


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closes the socket within BOUND seconds (reading whatever it sent first)."""
    sock.settimeout(BOUND)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def test_a_connection_that_sends_nothing_is_closed(quick_server: HttpServer) -> None:
    with socket.create_connection(_address(quick_server), timeout=5) as sock:
        assert _closed_by_server(sock)


@pytest.mark.parametrize(
    "partial",
    [
        b"POST /mcp HTT",  # half a request line
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthor",  # half the headers (slowloris)
    ],
)
def test_a_stalled_request_is_closed(quick_server: HttpServer, partial: bytes) -> None:
    with socket.create_connection(_address(quick_server), timeout=5) as sock:
        sock.sendall(partial)
        assert _closed_by_server(sock)


def test_a_slowloris_trickle_does_not_keep_the_connection_open(quick_server: HttpServer) -> None:
    """Bytes that keep coming without ending the headers do not reset the deadline."""
    with socket.create_connection(_address(quick_server), timeout=5) as sock:
        sock.sendall(b"GET /mcp HTTP/1.1\r\n")
        sock.settimeout(0.3)
        closed = False
        for i in range(int(BOUND / 0.3) + 1):
            try:
                sock.sendall(f"X-Trickle-{i}: y\r\n".encode())
                if sock.recv(65536) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue  # nothing yet: the server still waits; trickle one more header
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
        assert closed, "a trickle of headers kept the connection open"


def test_an_idle_keep_alive_connection_is_closed(quick_server: HttpServer) -> None:
    host, port = _address(quick_server)
    with socket.create_connection((host, port), timeout=5) as sock:
        sock.sendall(f"GET /mcp HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        sock.settimeout(5)
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 401"), first[:80]
        assert _closed_by_server(sock)


def test_a_stalled_body_is_closed(quick_server: HttpServer) -> None:
    host, port = _address(quick_server)
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {quick_server.token}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        "Content-Length: 1000\r\n\r\n{"
    )
    with socket.create_connection((host, port), timeout=5) as sock:
        sock.sendall(head.encode())
        assert _closed_by_server(sock)
