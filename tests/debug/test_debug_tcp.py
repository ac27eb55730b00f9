"""Adapters that listen on a port (codelldb, vscode-js-debug's server) are named with a
`{port}` argument: simple-brief picks a free loopback port, starts the adapter and connects.
Checked with the real debugpy adapter in its TCP mode (`debugpy.adapter --port`), which
speaks the same protocol over the socket; an adapter that never listens is one sentence."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from debuggee import LINE_CALL, alive, make_call, project, run

from simple_brief.errors import UserError
from simple_brief.files import config


def _declare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    own = tmp_path / "user.toml"
    own.write_text(f"[debug.tcp]\nadapter = {json.dumps(argv)}\n", encoding="utf-8")
    monkeypatch.setenv(config.USER_CONFIG_ENV, str(own))


def test_an_adapter_on_a_port_debugs_like_one_on_stdio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _declare(
        tmp_path, monkeypatch, [sys.executable, "-m", "debugpy.adapter", "--host", "127.0.0.1", "--port", "{port}"]
    )
    call = make_call(project(tmp_path / "app"))
    try:
        launched = run(call, "debug_launch", program="app.py", adapter="tcp", breakpoints=f"app.py:{LINE_CALL}")
        assert launched.text.splitlines()[0].startswith(f"stopped at app.py:{LINE_CALL} in Function:main (breakpoint")
        sid = launched.data["session_id"]
        value = run(call, "debug_evaluate", session_id=sid, expression="count * 2")
        assert value.data["result"]["value"] == "6"
        members = call.session.debug.get(sid).client.members()
        ended = run(call, "debug_terminate", session_id=sid)
        assert ended.data["processes_left"] == []
        assert not [pid for pid in members if alive(pid)]
    finally:
        call.session.close()


def test_an_adapter_that_never_listens_is_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _declare(
        tmp_path, monkeypatch, [sys.executable, "-c", "import sys; print('no port for me', file=sys.stderr)", "{port}"]
    )
    call = make_call(project(tmp_path / "app"))
    try:
        with pytest.raises(UserError) as refused:
            run(call, "debug_launch", program="app.py", adapter="tcp")
    finally:
        call.session.close()
    message = str(refused.value)
    assert "did not listen on port" in message and "(it said: no port for me)" in message
    assert "\n" not in message
