"""Debug adapters come from the configs like tasks: argv lists (never a shell), the workspace's
only once trusted, the user's own always; debugpy is built in for Python."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from debuggee import make_call, project, run

from simple_brief.errors import UserError
from simple_brief.files import config

from conftest import write_trusted_config

ADAPTER = f'[debug.python]\nadapter = ["{sys.executable}", "-m", "debugpy.adapter"]\ntimeout_s = 2\n'


def test_a_trusted_workspace_adapter_is_used_with_its_limit(tmp_path: Path) -> None:
    root = project(tmp_path / "app")
    write_trusted_config(root, ADAPTER)
    call = make_call(root)
    try:
        ended = run(call, "debug_launch", program="endless.py")
    finally:
        call.session.close()
    assert ended.data["limit_exceeded"] == "time" and "time limit of 2 s" in ended.text


def test_an_untrusted_workspace_adapter_is_ignored_and_the_answer_says_so(tmp_path: Path) -> None:
    root = project(tmp_path / "app")
    (root / config.FILENAME).write_text(ADAPTER, encoding="utf-8")
    call = make_call(root)
    try:
        running = run(call, "debug_launch", program="endless.py", wait_s=3)
    finally:
        call.session.close()
    assert running.data["state"] == "running"
    assert "debug.python" in running.text and "not trusted" in running.text


def test_the_users_own_config_names_other_adapters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own = tmp_path / "user.toml"
    own.write_text(
        '[debug.lldb]\nadapter = ["lldb-dap"]\nlaunch = { stopOnEntry = false }\nmemory_mb = 0\n', encoding="utf-8"
    )
    monkeypatch.setenv(config.USER_CONFIG_ENV, str(own))
    root = project(tmp_path / "app")
    spec = config.load(root).debug["lldb"]
    assert (spec.argv, spec.launch, spec.memory_mb) == (("lldb-dap",), {"stopOnEntry": False}, 0)
    assert config.parse(ADAPTER, root / config.FILENAME).debug["python"].launch["type"] == "python"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[debug.python]\nadapter = "python -m debugpy.adapter"\n', "is one string"),
        ("[debug.python]\nadapter = []\n", "must be a non-empty list of strings"),
        ('[debug.python]\nadapter = ["x"]\nport = 5678\n', "`debug.python.port`"),
        ('[debug.python]\nadapter = ["x"]\ntimeout_s = -1\n', "must be a number above 0"),
        ('[debug]\npython = ["x"]\n', "must be a table"),
    ],
)
def test_a_broken_debug_table_is_refused_in_one_sentence(tmp_path: Path, text: str, said: str) -> None:
    with pytest.raises(UserError) as refused:
        config.parse(text, tmp_path / config.FILENAME)
    assert said in str(refused.value) and "\n" not in str(refused.value)


def test_a_shell_as_adapter_is_refused(tmp_path: Path) -> None:
    root = project(tmp_path / "app")
    write_trusted_config(root, '[debug.sh]\nadapter = ["bash", "-c", "exit 0"]\n')
    call = make_call(root)
    with pytest.raises(UserError, match="never runs commands through a shell"):
        run(call, "debug_launch", program="app.py", adapter="sh")
    assert call.session.debug is None or call.session.debug.all() == []


@pytest.mark.parametrize(
    ("script", "said"),
    [
        ("import sys; sys.stderr.write('no such module: debugpy\\n')", "its output ended (its last output: no such"),
        (
            "import sys, time; sys.stdout.write('Content-Length: abc\\r\\n\\r\\n'); sys.stdout.flush(); time.sleep(30)",
            "it broke the protocol's framing (Content-Length `abc` is not a byte count)",
        ),
    ],
)
def test_an_adapter_that_dies_or_breaks_the_framing_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, said: str
) -> None:
    own = tmp_path / "user.toml"
    own.write_text(f'[debug.broken]\nadapter = [{json.dumps(sys.executable)}, "-c", {json.dumps(script)}]\n')
    monkeypatch.setenv(config.USER_CONFIG_ENV, str(own))
    call = make_call(project(tmp_path / "app"))
    try:
        with pytest.raises(UserError) as refused:
            run(call, "debug_launch", program="app.py", adapter="broken")
        session = call.session.debug.all()[0]
        assert session.state == "ended"
        session.client.proc.wait(timeout=10)
        assert session.client.members() == []
    finally:
        call.session.close()
    message = str(refused.value)
    assert message.startswith("the broken debug adapter could not launch app.py: ")
    assert said in message and "\n" not in message
