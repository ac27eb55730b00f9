"""The daemon answers tool calls, not command lines: each request brings the environment
variables the engine reads and sees its own, and nothing of the daemon's process (its
environment, working folder, sys.stdout, the root logger's handlers) is changed by one.

The daemon here is the real one (`server.Daemon` with `service.answer` over its one host)
served in this process, so the test can look at the process from inside a
call: the probe wraps the real tool dispatch and records what the call sees, then runs
the real tool (a real outline is answered). The client side is the real script's request
(`client._parsed`, `client._request`)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simple_brief import tools as registry
from simple_brief.cli import client
from simple_brief.daemon import server, service
from simple_brief.host import protocol
from simple_brief.host.request import ToolCall
from simple_brief.host.wiring import build_host
from simple_brief.proc import environment, programs

FIXTURE = Path(__file__).parents[1] / "fixtures" / "outline" / "python.py"


def _program_in(folder: Path) -> Path:
    folder.mkdir()
    program = folder / "sb-probe"
    program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


def _request(file: Path, env: dict[str, str]) -> dict[str, Any]:
    request = _request_of(["outline", str(file)])
    request["call"]["env"].update(env)
    return request


def _request_of(args: list[str]) -> dict[str, Any]:
    """The request the `simple-brief` script sends for `args`."""
    call = client._parsed(args)
    assert isinstance(call, ToolCall)
    return client._request(call)


def _served(daemon: server.Daemon, request: dict[str, Any]) -> tuple[socket.socket, threading.Thread]:
    """A connection sending `request`, handled by its own thread as the daemon's accept loop does."""
    ours, theirs = socket.socketpair()
    theirs.sendall(protocol.encode(request))
    daemon.accepted()
    handler = threading.Thread(target=daemon.handle, args=(ours,), daemon=True)
    handler.start()
    return theirs, handler


@contextlib.contextmanager
def _daemon(requests: list[dict[str, Any]]) -> Iterator[list[socket.socket]]:
    """The daemon over its host, with `requests` sent on open connections before its
    worker takes the first; yields the client ends, and stops it all afterwards."""
    host = build_host(long_lived=True, calls_share_agent_state=False)
    daemon = server.Daemon(lambda req, err, cancelled: service.answer(host, req, err, cancelled), host.roots, 60)
    connections = [_served(daemon, request) for request in requests]
    worker = threading.Thread(target=daemon.work, daemon=True)
    worker.start()
    try:
        yield [sock for sock, _ in connections]
    finally:
        daemon.jobs.put(None)
        worker.join(timeout=30)
        for sock, handler in connections:
            handler.join(timeout=30)
            sock.close()
        host.close()


def _answer(sock: socket.socket, stderr: list[str] | None = None) -> dict[str, Any]:
    sock.settimeout(60)
    lines = protocol.Lines(sock)
    while (frame := lines.read()) is not None:
        if "answer" in frame:
            return dict(frame["answer"])
        if "e" in frame and stderr is not None:
            stderr.append(frame["e"])
    raise AssertionError("no answer")


def test_a_verbose_call_gets_its_own_log_lines_and_no_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """-v: what the call's thread logs goes to its client; a line another thread logs at
    the same time does not, and a call without -v gets warnings only."""
    app = tmp_path / "app.py"
    shutil.copy(FIXTURE, app)
    probe_log = logging.getLogger("simple_brief.probe")
    real_invoke = registry.invoke

    def probe(name: str, params: dict[str, Any], call: Any) -> Any:
        probe_log.info("the call's own line")
        probe_log.warning("the call's warning")
        other = threading.Thread(target=lambda: probe_log.warning("another thread's line"))
        other.start()
        other.join()
        return real_invoke(name, params, call)

    monkeypatch.setattr(registry, "invoke", probe)
    monkeypatch.setattr(logging.root, "level", logging.INFO)  # as the daemon sets it (`server._log_to_file`)
    verbose = _request(app, {})
    verbose["call"]["verbose"] = True
    shown: list[list[str]] = [[], []]
    with _daemon([verbose, _request(app, {})]) as socks:
        for sock, stderr in zip(socks, shown, strict=True):
            _answer(sock, stderr)
    assert "".join(shown[0]) == "simple-brief: INFO the call's own line\nsimple-brief: WARNING the call's warning\n"
    assert "".join(shown[1]) == "simple-brief: WARNING the call's warning\n"


def test_concurrent_calls_see_their_own_environment_and_change_nothing_of_the_daemon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    app = root / "app.py"
    shutil.copy(FIXTURE, app)
    first, second = _program_in(tmp_path / "bin-a"), _program_in(tmp_path / "bin-b")
    envs = [
        {"PATH": str(first.parent), "NVIM": str(tmp_path / "nvim-a.sock"), "SB_CLIENT_ONLY": "a"},
        {"PATH": str(second.parent), "NVIM": str(tmp_path / "nvim-b.sock"), "SB_CLIENT_ONLY": "b"},
    ]
    own_env, own_cwd = dict(os.environ), os.getcwd()
    own_streams, own_handlers = (sys.stdout, sys.stderr), list(logging.root.handlers)
    seen: list[dict[str, Any]] = []
    real_invoke = registry.invoke

    def probe(name: str, params: dict[str, Any], call: Any) -> Any:
        seen.append(
            {
                "PATH": environment.get("PATH"),
                "NVIM": environment.get("NVIM"),
                "child PATH": environment.for_child().get("PATH"),
                # A variable of the client's shell reaches the programs the call starts.
                "child only": environment.for_child().get("SB_CLIENT_ONLY"),
                "program": programs.on_path("sb-probe", call.workspace.root),
                "process env": dict(os.environ),
                "cwd": os.getcwd(),
                "streams": (sys.stdout, sys.stderr),
                "handlers kept": all(h in logging.root.handlers for h in own_handlers),
            }
        )
        return real_invoke(name, params, call)

    monkeypatch.setattr(registry, "invoke", probe)
    # Both connections are open and their requests sent before the worker takes either.
    with _daemon([_request(app, env) for env in envs]) as socks:
        answers = [_answer(sock) for sock in socks]
    assert all(answer["blocks"][0].startswith("app.py (python") for answer in answers), answers
    # The daemon takes the two requests in either order: each call is matched by what it saw.
    programs_for = {str(first.parent): first, str(second.parent): second}
    assert sorted(s["PATH"] for s in seen) == sorted(env["PATH"] for env in envs)
    for during in seen:
        env = next(env for env in envs if env["PATH"] == during["PATH"])
        assert (during["child PATH"], during["NVIM"]) == (env["PATH"], env["NVIM"])
        assert during["child only"] == env["SB_CLIENT_ONLY"]
        assert during["program"] == programs_for[env["PATH"]]
    for during in seen:
        assert during["process env"] == own_env
        assert during["cwd"] == own_cwd
        assert during["streams"] == own_streams
        assert during["handlers kept"]
    assert dict(os.environ) == own_env and os.getcwd() == own_cwd
    assert logging.root.handlers == own_handlers  # the request's own handler is gone again


def test_a_client_whose_user_folders_differ_is_not_served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user config, cache and state folders are read once per process or by libraries:
    a daemon serves only clients whose values are its own (the client works without it)."""
    app = tmp_path / "app.py"
    shutil.copy(FIXTURE, app)
    request = _request(app, {})
    request["process_env"] = {**request["process_env"], "XDG_CACHE_HOME": str(tmp_path / "other")}
    daemon = server.Daemon(lambda req, err, cancelled: {"code": 0}, list, 60)
    sock, handler = _served(daemon, request)
    sock.settimeout(10)
    reply = protocol.Lines(sock).read()
    handler.join(timeout=10)
    sock.close()
    assert reply is not None and "mismatch" in reply and "restart" not in reply
    assert daemon.requests == 0 and daemon.jobs.empty()


PROBE = """
import json, sys
import simple_brief.main  # the installed script's module
from simple_brief.cli import client
call = client._parsed(["outline", sys.argv[1], "--json", "--budget", "500"])
request = client._request(call)
print(json.dumps({"modules": sorted(sys.modules), "request": request}))
"""


def test_the_script_builds_its_tool_call_with_the_standard_library_only() -> None:
    """The script parses the command line and builds the request without the engine: every
    module loaded is the standard library's or one of the script's own few."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(FIXTURE)], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    ours = {m for m in shown["modules"] if m.split(".")[0] == "simple_brief"}
    others = {m.split(".")[0] for m in shown["modules"]} - set(sys.stdlib_module_names) - {"simple_brief"}
    assert others <= {"__main__", "_distutils_hack", "sitecustomize", "usercustomize"}, others
    assert ours == {
        "simple_brief",
        "simple_brief.main",
        "simple_brief.cli",
        "simple_brief.cli.calls",
        "simple_brief.cli.client",
        "simple_brief.cli.parser",
        "simple_brief.cli.streams",
        "simple_brief.cli.user_config",
        "simple_brief.host",
        "simple_brief.host.protocol",
        "simple_brief.host.request",
        "simple_brief.defaults",
        "simple_brief.proc",
        "simple_brief.proc.detach",
        "simple_brief.proc.environment",
        "simple_brief.errors",
    }
    call = shown["request"]["call"]
    assert call["tool"] == "simple_read" and call["params"]["path"] == str(FIXTURE)
    assert call["budget"] == 500 and call["as_json"] is True
    # Whole (the programs the call starts get it as standalone), with the terminal's size added.
    sized = ("COLUMNS", "LINES")
    assert {k: v for k, v in call["env"].items() if k not in sized} == {
        k: v for k, v in os.environ.items() if k not in sized
    }
    assert set(shown["request"]["process_env"]) <= set(environment.PROCESS)


def test_a_call_draws_its_progress_bar_to_its_client_and_uses_its_own_cache(tmp_path: Path) -> None:
    """`docs index --progress` through the daemon: the bar comes as the call's stderr (the
    width its client sent), the index lands in the cache folder the client named."""
    root = tmp_path / "ws"
    root.mkdir()
    for name in ("geometry.py", "notes.lua"):
        shutil.copy(FIXTURE.parents[1] / "docs" / name, root / name)
    cache = tmp_path / "cache"
    request = _request_of(["docs", "index", "--progress", "--root", str(root)])
    request["call"]["env"].update({"SIMPLE_BRIEF_CACHE_DIR": str(cache), "COLUMNS": "70"})
    stderr: list[str] = []
    with _daemon([request]) as socks:
        answer = _answer(socks[0], stderr)
    assert "error" not in answer and answer["blocks"], answer
    bar = "".join(stderr)
    assert "file" in bar and "\r" in bar, bar
    assert all(len(line) <= 70 for line in bar.replace("\r", "\n").splitlines()), bar
    assert list(cache.glob("*.sqlite3")), list(cache.iterdir()) if cache.exists() else "no cache folder"
