"""The daemon's life: auto-start, one copy only, idle stop, stop/status, the socket's
permissions and peer check, `--no-daemon`, and the one-line fallback when it does not answer."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import socket
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from daemon_home import CLIENT, FIXTURES, Home, home_fixture  # noqa: F401  (the `home` fixture)

from simple_brief.cli import client
from simple_brief.daemon import server
from simple_brief.host import protocol

FALLBACK = "simple-brief: the daemon did not answer ("


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copy(FIXTURES / "outline" / "python.py", root / "app.py")
    return root


def requests(home: Home) -> int:
    status = home.status()
    assert status is not None
    return int(status["requests"])


def test_the_first_call_starts_the_daemon_and_the_next_one_uses_it(home: Home, ws: Path) -> None:
    assert home.status() is None
    first = home.sb(ws, "outline", "app.py")
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout.startswith("app.py (python, 121 lines) outline")
    home.wait_running()
    before = requests(home)
    second = home.sb(ws, "outline", "app.py")
    assert (second.returncode, second.stdout, second.stderr) == (0, first.stdout, "")
    assert requests(home) == before + 1
    assert home.wait_running()["workspaces"] == [str(ws.resolve())]


def test_no_daemon_flag_config_and_switch_work_without_it(home: Home, ws: Path, tmp_path: Path) -> None:
    home.start()
    home.wait_running()
    user_config = tmp_path / "user.toml"
    user_config.write_text("[daemon]\nenabled = false\n", encoding="utf-8")
    before = requests(home)
    for args, env in (
        (("outline", "app.py", "--no-daemon"), None),
        (("--no-daemon", "outline", "app.py"), None),
        (("outline", "app.py"), {protocol.SWITCH_ENV: "0"}),
        (("outline", "app.py"), {"SIMPLE_BRIEF_CONFIG": str(user_config), protocol.SWITCH_ENV: None}),
    ):
        done = home.sb(ws, *args, env=env)
        assert done.returncode == 0 and done.stderr == "", args
        assert done.stdout.startswith("app.py (python"), args
    assert requests(home) == before
    assert home.sb(ws, "outline", "app.py").returncode == 0
    assert requests(home) == before + 1


def test_no_daemon_never_starts_one(home: Home, ws: Path) -> None:
    assert home.sb(ws, "outline", "app.py", "--no-daemon").returncode == 0
    time.sleep(1)
    assert home.status() is None and not (home.state / "daemon").exists()


def test_which_commands_go_through_the_daemon() -> None:
    os.environ[protocol.SWITCH_ENV] = "1"
    try:
        for args in (["lsp"], ["mcp"], ["daemon", "status"], ["trust"], ["--help"], ["-v", "mcp", "--http"]):
            assert not client.uses_daemon(args), args
        for args in (["outline", "f.py"], ["-v", "docs", "search", "x"], ["tools", "--json"], ["run", "search"]):
            assert client.uses_daemon(args), args
        assert not client.uses_daemon(["outline", "f.py", "--no-daemon"])
    finally:
        del os.environ[protocol.SWITCH_ENV]


def test_stop_and_status(home: Home, ws: Path) -> None:
    none = home.sb(ws, "daemon", "status")
    assert none.returncode == 3 and "no daemon is running" in none.stdout
    started = home.sb(ws, "daemon", "start")
    assert started.returncode == 0 and "the daemon runs (pid" in started.stdout, started.stderr
    again = home.sb(ws, "daemon", "start")
    assert "already runs" in again.stdout
    assert home.sb(ws, "outline", "app.py").returncode == 0
    shown = home.sb(ws, "daemon", "status")
    assert shown.returncode == 0, shown.stderr
    for word in ("pid", "uptime", "requests    1", "memory", "MB (RSS)", "workspaces  1", str(ws.resolve())):
        assert word in shown.stdout, word
    stopped = home.sb(ws, "daemon", "stop")
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    assert not home.socket.exists()
    assert home.sb(ws, "daemon", "status").returncode == 3
    assert "no daemon is running" in home.sb(ws, "daemon", "stop").stdout


def test_daemon_help() -> None:
    helped = subprocess.run([*CLIENT, "daemon", "--help"], capture_output=True, text=True, check=False)
    assert helped.returncode == 0
    for word in ("start", "stop", "status", "idle", "--no-daemon"):
        assert word in helped.stdout, word


def test_never_two_copies(home: Home) -> None:
    first, second = home.start(), home.start()
    status = home.wait_running()
    deadline = time.monotonic() + 30
    while first.poll() is None and second.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    loser = first if first.poll() is not None else second
    winner = second if loser is first else first
    assert loser.wait(timeout=10) == 1
    assert "a daemon already runs" in (loser.stderr.read() if loser.stderr else "")
    assert winner.poll() is None and status["pid"] == winner.pid


def test_idle_stop_from_the_users_config(home: Home, ws: Path, tmp_path: Path) -> None:
    user_config = tmp_path / "user.toml"
    user_config.write_text("[daemon]\nidle_minutes = 0.02\n", encoding="utf-8")  # 1.2 s
    home.env["SIMPLE_BRIEF_CONFIG"] = str(user_config)
    assert home.sb(ws, "outline", "app.py").returncode == 0  # starts it
    status = home.wait_running()
    assert status["idle_seconds"] == pytest.approx(1.2)
    home.wait_stopped(timeout=30)
    assert not home.socket.exists()
    assert "stopping after 1 s without a request" in home.log()


def test_only_commands_keep_the_daemon_up(home: Home, ws: Path, tmp_path: Path) -> None:
    """`make demo`'s calls (outline, symbols, expand, search: a watcher starts), then what
    looks at a daemon without asking it to work: `daemon status` and a client of another
    installation (answered `mismatch`, it works standalone). Those came every 0.3 s, and
    each one reset the idle timer: the daemon never stopped (one left by `make demo` was
    seen running 20 min 49 s after its last request). (What it started stops with it:
    test_daemon_servers.)"""
    user_config = tmp_path / "user.toml"
    user_config.write_text("[daemon]\nidle_minutes = 0.04\n", encoding="utf-8")  # 2.4 s
    home.env["SIMPLE_BRIEF_CONFIG"] = str(user_config)
    home.start()
    home.wait_running()
    demo = (
        ["outline", "app.py"],
        ["symbols", "app.py", "--return-children", "no"],
        ["expand", "app.py", "User.greeting"],
        ["search", "User", "--limit", "8"],
    )
    for argv in demo:
        done = home.sb(ws, *argv)
        assert done.returncode == 0 and done.stderr == "", (argv, done.stderr)
    foreign = {**protocol.identity(), "home": str(tmp_path / "another" / "simple_brief")}
    since: list[float] = []
    deadline = time.monotonic() + 40  # the idle period is 2.4 s; today's code never stops
    with home.environment():
        while protocol.lock_is_held() and time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                reply = protocol.ask({"op": "status"}, timeout=2)
                if reply and "status" in reply:
                    since.append(reply["status"]["since_last_request"])
            with contextlib.suppress(OSError):
                reply = protocol.ask({"op": "call", "call": {}, "identity": foreign}, timeout=2)
                assert reply is None or "mismatch" in reply, reply
            time.sleep(0.3)
    assert not protocol_lock_held(home), f"still running after 40 s of status calls; since: {since[-3:]}"
    assert since and max(since) > 1.0, since  # `status` shows the time since the last command, not since itself
    assert "stopping after 2 s without a request" in home.log()


def protocol_lock_held(home: Home) -> bool:
    with home.environment():
        return protocol.lock_is_held()


def test_socket_and_folder_are_private(home: Home) -> None:
    home.start()
    home.wait_running()
    folder = home.state / "daemon"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_ISSOCK(home.socket.stat().st_mode) and stat.S_IMODE(home.socket.stat().st_mode) == 0o600
    assert stat.S_IMODE((folder / "daemon.lock").stat().st_mode) == 0o600


def test_a_folder_open_to_others_is_not_used(home: Home, ws: Path) -> None:
    home.start()
    home.wait_running()
    before = requests(home)
    os.chmod(home.state / "daemon", 0o755)
    done = home.sb(ws, "outline", "app.py")
    assert done.returncode == 0 and done.stdout.startswith("app.py (python")
    assert done.stderr.startswith(FALLBACK) and "open to other users" in done.stderr
    assert len(done.stderr.splitlines()) == 1
    os.chmod(home.state / "daemon", 0o700)
    assert requests(home) == before


def test_the_daemon_refuses_another_users_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    daemon = server.Daemon(lambda request, stderr, cancelled: {}, list, 60)
    monkeypatch.setattr(protocol, "peer_uid", lambda sock: os.getuid() + 1)
    ours, theirs = socket.socketpair()
    theirs.sendall(protocol.encode({"op": "status"}))
    daemon.handle(ours)  # closes `ours` without an answer
    assert _reply(theirs) == b""
    theirs.close()


def _reply(sock: socket.socket) -> bytes:
    """What the daemon answered: nothing when it closed the connection (reset: it left the request unread)."""
    sock.settimeout(5)
    try:
        return sock.recv(100)
    except ConnectionResetError:
        return b""


def _connect_as_nobody(path: Path, folder: Path) -> int:
    """In a forked child: 0 when the daemon closed our connection unanswered."""
    try:
        os.setgid(65534)
        os.setuid(65534)
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(str(path))
    except OSError as exc:
        (folder / "error").write_text(repr(exc))
        return 2
    try:
        sock.sendall(protocol.encode({"op": "status"}))
        return 0 if _reply(sock) == b"" else 1
    except OSError:
        return 0  # closed on us: refused


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to connect as another user")
def test_peer_credentials_of_another_user_are_refused(tmp_path: Path) -> None:
    """A real connection from uid 65534 (SO_PEERCRED), through a socket it may open."""
    folder = Path(tempfile.mkdtemp(prefix="sbp-"))
    os.chmod(folder, 0o777)
    path = folder / "s"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    os.chmod(path, 0o777)
    listener.listen(1)
    listener.settimeout(10)  # a child that could not connect must not hang the test
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        code = 3
        try:
            code = _connect_as_nobody(path, folder)
        finally:
            os._exit(code)
    conn, _ = listener.accept()
    server.Daemon(lambda request, stderr, cancelled: {}, list, 60).handle(conn)
    _, code = os.waitpid(child, 0)
    listener.close()
    error = (folder / "error").read_text() if (folder / "error").exists() else ""
    shutil.rmtree(folder, ignore_errors=True)
    assert os.waitstatus_to_exitcode(code) == 0, error


# --- fallback -------------------------------------------------------------------------


def _one_fallback_line(done: subprocess.CompletedProcess[str], expected: str) -> None:
    assert done.returncode == 0
    assert done.stdout == expected
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(FALLBACK) and lines[0].endswith("; working without it"), lines


def test_a_file_where_the_socket_should_be(home: Home, ws: Path) -> None:
    expected = home.sb(ws, "outline", "app.py", "--no-daemon").stdout
    home.socket.parent.mkdir(mode=0o700, parents=True)
    home.socket.write_text("not a socket")
    _one_fallback_line(home.sb(ws, "outline", "app.py"), expected)
    home.wait_running()  # a new daemon replaced the file
    assert stat.S_ISSOCK(home.socket.stat().st_mode)


def test_a_dead_socket_is_reported_and_replaced(home: Home, ws: Path) -> None:
    expected = home.sb(ws, "outline", "app.py", "--no-daemon").stdout
    home.socket.parent.mkdir(mode=0o700, parents=True)
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(home.socket))
    dead.close()  # the file stays, nobody listens: a daemon killed with SIGKILL leaves this
    _one_fallback_line(home.sb(ws, "outline", "app.py"), expected)
    home.wait_running()
    again = home.sb(ws, "outline", "app.py")
    assert (again.returncode, again.stdout, again.stderr) == (0, expected, "")


@contextlib.contextmanager
def _fake_daemon(home: Home, behaviour: str) -> Iterator[None]:
    """A listener at the daemon's socket that reads the request, then misbehaves. It holds
    the lock as a daemon would until the block ends, so the client starts no real one."""
    home.socket.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(home.socket))
    listener.listen(1)
    lock = os.open(home.socket.parent / "daemon.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)

    def serve() -> None:
        conn, _ = listener.accept()
        protocol.Lines(conn).read()
        if behaviour == "dies":
            conn.sendall(protocol.encode({"hb": 1}) + protocol.encode({"o": "half an answer\n"}))
        else:  # silent
            time.sleep(3)
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join(10)
        listener.close()
        os.close(lock)


def test_a_daemon_dying_mid_request(home: Home, ws: Path) -> None:
    expected = home.sb(ws, "outline", "app.py", "--no-daemon").stdout
    with _fake_daemon(home, "dies"):
        done = home.sb(ws, "outline", "app.py")
    _one_fallback_line(done, expected)  # no half answer on stdout
    assert "closed the connection" in done.stderr
    home.wait_running()  # the client started a real one, which took the lock once the fake let go


def test_a_silent_daemon_is_given_up(
    home: Home,
    ws: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(protocol, "SILENCE_LIMIT", 0.5)
    monkeypatch.chdir(ws)
    with _fake_daemon(home, "silent"), home.environment():
        assert client.main(["outline", "app.py"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("app.py (python")
    assert err.startswith(FALLBACK + "nothing came for 0.5 s)") and len(err.splitlines()) == 1


def test_a_real_daemon_killed_mid_request(home: Home, ws: Path, tmp_path: Path) -> None:
    """SIGKILL while it works on a slow request (a big docs index): the client falls back."""
    big = tmp_path / "big"
    big.mkdir()
    for n in range(400):
        (big / f"m{n}.py").write_text("".join(f'def f{i}():\n    """Doc {i}."""\n\n' for i in range(40)))
    home.start()
    status = home.wait_running()
    process = subprocess.Popen(
        [*CLIENT, "docs", "index", "--root", str(big)],
        env=home.env,
        cwd=big,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not (home.status() or {}).get("busy") and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(status["pid"], 9)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0
    assert err.startswith(FALLBACK) and len(err.splitlines()) == 1, err
    assert "files seen" in out
    assert home.wait_running()["pid"] != status["pid"]  # the client started a fresh one
