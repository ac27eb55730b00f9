"""`simple-brief hook claude` fed Claude Code's documented hook JSON (PreToolUse and
PostToolUse: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `tool_name`,
`tool_input`) through the real command in a subprocess, as Claude Code runs it.

The file outlined is the standard library's argparse.py (nobody here wrote it); the line
spans of the outline are checked against Python's own `ast`.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from simple_brief.errors import UserError
from simple_brief.files import config

ARGPARSE = Path(ast.__file__).with_name("argparse.py")
TEXTWRAP = Path(ast.__file__).with_name("textwrap.py")


def hook(
    event: object, cwd: Path, *options: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the hook command with `event` (JSON, or raw text) on stdin."""
    stdin = event if isinstance(event, str) else json.dumps(event)
    return subprocess.run(
        [sys.executable, "-m", "simple_brief", "hook", "claude", *options],
        input=stdin,
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
    )


def read_event(cwd: Path, path: Path | str, session: str, **tool_input: Any) -> dict[str, Any]:
    """A PreToolUse event of Claude Code's Read, as its hooks reference documents it."""
    return {
        "session_id": session,
        "transcript_path": str(cwd / "transcript.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(path), **tool_input},
    }


def edit_event(cwd: Path, path: Path, session: str, tool: str = "Write") -> dict[str, Any]:
    """A PostToolUse event after an edit."""
    tool_input = {"file_path": str(path), "content": path.read_text(encoding="utf-8")}
    return {
        "session_id": session,
        "transcript_path": str(cwd / "transcript.jsonl"),
        "cwd": str(cwd),
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_response": {"filePath": str(path), "success": True},
    }


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    shutil.copyfile(ARGPARSE, root / "argparse.py")
    return root


def passed_through(done: subprocess.CompletedProcess[str]) -> bool:
    return done.returncode == 0 and done.stdout == ""


def test_a_long_source_file_read_whole_is_denied_with_its_outline_once_per_session(workspace: Path) -> None:
    shutil.copyfile(TEXTWRAP, workspace / "textwrap.py")
    session = str(uuid.uuid4())
    done = hook(read_event(workspace, workspace / "textwrap.py", session), workspace)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["hookEventName"] == "PreToolUse" and answer["permissionDecision"] == "deny"
    reason = answer["permissionDecisionReason"]
    first, header, *_, last = reason.splitlines()
    assert first.startswith("simple-brief: textwrap.py is longer than 400 lines") and "its outline" in first
    assert header == "textwrap.py (python, 491 lines) outline"
    assert "offset/limit (the L spans above)" in last and "expand_at" in last
    # Every function and class is named with its span (ast, Python's own parser, as the oracle;
    # a span may go on over the comment lines that close a body, which ast leaves out).
    source = TEXTWRAP.read_text(encoding="utf-8").splitlines()
    spans = [
        (line, int(start), int(end))
        for line, start, end in re.findall(r"(?m)^(.*) L(\d+)-(\d+)$", reason)
        if re.search(r"\b(def|class) ", line)
    ]
    for node in ast.walk(ast.parse("\n".join(source))):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            keyword = "class" if isinstance(node, ast.ClassDef) else "def"
            assert node.end_lineno is not None
            assert any(
                f"{keyword} {node.name}" in line
                and start == node.lineno
                and end >= node.end_lineno
                and all(not text.strip() or text.strip().startswith("#") for text in source[node.end_lineno : end])
                for line, start, end in spans
            ), node.name
    assert len(reason) < TEXTWRAP.stat().st_size / 3

    # Its text is the outline's whatever the locale's encoding (JSON's escapes: ASCII).
    plain = hook(read_event(workspace, "textwrap.py", str(uuid.uuid4())), workspace, env={"PYTHONIOENCODING": "ascii"})
    assert done.stdout.isascii() and json.loads(plain.stdout) == json.loads(done.stdout)
    assert "__all__ = …" in reason

    # The second Read of the file in the session goes through; another session is answered again.
    assert passed_through(hook(read_event(workspace, workspace / "textwrap.py", session), workspace))
    again = hook(read_event(workspace, "textwrap.py", str(uuid.uuid4())), workspace)
    assert json.loads(again.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_file_whose_outline_does_not_fit_gets_its_definitions_and_lines(workspace: Path) -> None:
    """argparse.py's outline is ~4,800 tokens: folded to its top level it would hide every
    method, so the answer is each definition's name and first line, all of them."""
    done = hook(read_event(workspace, workspace / "argparse.py", str(uuid.uuid4())), workspace)
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "its definitions and their first lines" in reason.splitlines()[0]
    lines = len(ARGPARSE.read_text(encoding="utf-8").splitlines())
    assert reason.splitlines()[1] == f"argparse.py (python, {lines} lines) names"
    assert "(the line numbers above)" in reason.splitlines()[-1]
    # The top level and the classes' own members (deeper ones: the `names` view's, issue 30's `tokens` part).
    tree = ast.parse(ARGPARSE.read_text(encoding="utf-8"))
    top = [node for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)]
    members = [member for node in top if isinstance(node, ast.ClassDef) for member in node.body]
    found = {(node.name, node.lineno) for node in [*top, *members] if isinstance(node, ast.FunctionDef | ast.ClassDef)}
    assert len(found) > 150
    named = set(re.findall(r"(\w+):(\d+)", reason))
    assert {(name, str(line)) for name, line in found} <= named
    assert len(reason) < ARGPARSE.stat().st_size / 10


def test_a_c_header_nobody_here_wrote(workspace: Path) -> None:
    """/usr/include/stdio.h (glibc; `make test` installs the compilers that bring it): even
    its counts-only outline is replaced by names and lines, each a line naming it (a
    declaration, or the `#define fopen fopen64` of large-file builds)."""
    header = workspace / "stdio.h"
    shutil.copyfile("/usr/include/stdio.h", header)
    done = hook(read_event(workspace, header, str(uuid.uuid4())), workspace)
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    lines = header.read_text(encoding="utf-8").splitlines()
    assert reason.splitlines()[1] == f"stdio.h (c, {len(lines)} lines) names"
    for name in ("fopen", "printf", "fclose", "getline"):
        at = [int(line) for line in re.findall(rf"(?m)^{name}:(\d+)$", reason)]
        declared = [n for n, text in enumerate(lines, 1) if re.search(rf"\b{name}\b", text)]
        assert at and set(at) <= set(declared), (name, at, declared)


def test_the_sessions_record_is_private_and_bounded(workspace: Path) -> None:
    from simple_brief.cli import sessions

    session = str(uuid.uuid4())
    assert json.loads(hook(read_event(workspace, workspace / "argparse.py", session), workspace).stdout)
    record = Path(sessions.record_path())
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    assert stat.S_IMODE(record.parent.stat().st_mode) == 0o700
    assert str(workspace / "argparse.py") in json.loads(record.read_text())[session]["files"]
    for number in range(sessions.MAX_SESSIONS + 5):
        sessions.record(f"other-{number}", "/somewhere/x.py")
    kept = json.loads(record.read_text())
    assert len(kept) == sessions.MAX_SESSIONS and session not in kept and "other-0" not in kept
    assert sessions.seen(f"other-{sessions.MAX_SESSIONS + 4}", "/somewhere/x.py")


def test_everything_else_passes_through_untouched(workspace: Path, tmp_path: Path) -> None:
    session = str(uuid.uuid4())
    long_json = workspace / "data.json"
    long_json.write_text("[\n" + ",\n".join(f'  {{"n": {i}}}' for i in range(900)) + "\n]\n", encoding="utf-8")
    long_text = workspace / "notes.md"
    long_text.write_text("".join(f"# heading {i}\n\ntext\n" for i in range(300)), encoding="utf-8")
    short = workspace / "short.py"
    short.write_text("def f():\n    return 1\n" * 150, encoding="utf-8")  # 300 lines
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.copyfile(ARGPARSE, outside / "argparse.py")
    (workspace / "link.py").symlink_to(outside / "argparse.py")
    shutil.copyfile(ARGPARSE, workspace / "secrets.py")  # a secrets file by the default deny globs
    (workspace / "gone.py").symlink_to(workspace / "nothing-here.py")
    target = workspace / "argparse.py"
    events: dict[str, object] = {
        "another tool": {**read_event(workspace, target, session), "tool_name": "Grep"},
        "a Bash call": {
            **read_event(workspace, target, session),
            "tool_name": "Bash",
            "tool_input": {"command": f"cat {target}"},
        },
        "offset": read_event(workspace, target, session, offset=100),
        "limit": read_event(workspace, target, session, limit=50),
        "a short file": read_event(workspace, short, session),
        "a long JSON file": read_event(workspace, long_json, session),
        "a long Markdown file": read_event(workspace, long_text, session),
        "a file outside the workspace": read_event(workspace, outside / "argparse.py", session),
        "a path climbing out": read_event(workspace, workspace / ".." / "elsewhere" / "argparse.py", session),
        "a symlink leading out": read_event(workspace, workspace / "link.py", session),
        "a dangling symlink": read_event(workspace, workspace / "gone.py", session),
        "a missing file": read_event(workspace, workspace / "missing.py", session),
        "a secrets file": read_event(workspace, workspace / "secrets.py", session),
        "no session": {**read_event(workspace, target, session), "session_id": None},
        "a relative cwd": {**read_event(workspace, target, session), "cwd": "project"},
        "PostToolUse of a Read": {**read_event(workspace, target, session), "hook_event_name": "PostToolUse"},
        "bad JSON": '{"hook_event_name": "PreToolUse", ',
        "not an object": "[1, 2]",
        "nothing": "",
        "no tool_input": {"hook_event_name": "PreToolUse", "tool_name": "Read", "cwd": str(workspace)},
    }
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = dict(zip(events, pool.map(lambda event: hook(event, workspace), events.values()), strict=True))
    assert {
        case: (run.returncode, run.stdout, run.stderr) for case, run in done.items() if not passed_through(run)
    } == {}
    # None of those made the file count as seen: its first whole Read is still answered.
    assert json.loads(hook(read_event(workspace, target, session), workspace).stdout)


def test_the_threshold_comes_from_the_flag_then_the_users_config(workspace: Path, tmp_path: Path) -> None:
    module = workspace / "module.py"
    module.write_text("".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(60)), encoding="utf-8")  # 240 lines
    assert passed_through(hook(read_event(workspace, module, str(uuid.uuid4())), workspace))
    flagged = hook(read_event(workspace, module, str(uuid.uuid4())), workspace, "--read-lines", "200")
    assert (
        "module.py is longer than 200 lines"
        in json.loads(flagged.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    )
    user_config = tmp_path / "config.toml"
    user_config.write_text("[hook]\nread_lines = 100\n", encoding="utf-8")
    env = {config.USER_CONFIG_ENV: str(user_config)}
    configured = hook(read_event(workspace, module, str(uuid.uuid4())), workspace, env=env)
    assert "longer than 100 lines" in configured.stdout
    assert passed_through(
        hook(read_event(workspace, module, str(uuid.uuid4())), workspace, "--read-lines", "500", env=env)
    )


def test_the_hook_settings_are_checked_and_only_the_users(tmp_path: Path) -> None:
    user = tmp_path / "config.toml"
    user.write_text("[hook]\nread_lines = 250\nbudget = 1500\n", encoding="utf-8")
    parsed = config.parse(user.read_text(), user, user=True)
    assert (parsed.hook_read_lines, parsed.hook_budget) == (250, 1500)
    with pytest.raises(UserError, match="not honoured in a workspace config"):
        config.parse("[hook]\nread_lines = 10\n", tmp_path / ".simple-brief.toml")
    with pytest.raises(UserError, match=r"`hook\.read_lines` .* whole number of at least 1, not '400'"):
        config.parse('[hook]\nread_lines = "400"\n', user, user=True)
    with pytest.raises(UserError, match=r"unknown key `hook\.lines`"):
        config.parse("[hook]\nlines = 10\n", user, user=True)


def test_after_an_edit_the_files_errors_come_as_context_and_nothing_when_clean(workspace: Path) -> None:
    broken = workspace / "broken.py"
    broken.write_text("import os\n\n\ndef total(prices:\n    return sum(prices)\n", encoding="utf-8")
    clean = workspace / "clean.py"
    clean.write_text("def total(prices):\n    return sum(prices)\n", encoding="utf-8")
    session = str(uuid.uuid4())
    done = hook(edit_event(workspace, broken, session, "Edit"), workspace)
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["hookEventName"] == "PostToolUse"
    context = answer["additionalContext"].splitlines()
    assert context[0].startswith("simple-brief: broken.py after this edit: 1 error")
    try:
        compile(broken.read_text(), "broken.py", "exec")
    except SyntaxError as err:  # Python itself is the oracle of where the error is
        assert context[1].startswith(f"  {err.lineno}:") and " E " in context[1]
    assert passed_through(hook(edit_event(workspace, clean, session), workspace))
    assert passed_through(hook(edit_event(workspace, workspace / "argparse.py", session, "MultiEdit"), workspace))


def test_a_usage_mistake_never_blocks_the_agents_call(workspace: Path) -> None:
    # Claude Code blocks the tool call on exit code 2: a wrongly registered hook says so with 1.
    for options in (["codex"], ["claude", "--read-lines", "none"], ["claude", "--budget", "50"]):
        done = subprocess.run(
            [sys.executable, "-m", "simple_brief", "hook", *options],
            input="{}",
            cwd=workspace,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1 and done.stdout == "" and "simple-brief:" in done.stderr


def test_passing_through_imports_only_the_standard_library(workspace: Path) -> None:
    """The pass-through path costs an interpreter start: no engine room, no third-party module."""
    short = workspace / "short.py"
    short.write_text("x = 1\n", encoding="utf-8")
    session = str(uuid.uuid4())
    assert json.loads(hook(read_event(workspace, workspace / "argparse.py", session), workspace).stdout)
    events = [
        {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": str(workspace)},
        read_event(workspace, short, session),
        read_event(workspace, workspace / "argparse.py", session, offset=1, limit=10),
        read_event(workspace, workspace / "argparse.py", session),  # the second Read: the session's record is read
    ]
    script = (
        "import io, json, sys\n"
        "before = set(sys.modules)\n"
        "from simple_brief import main\n"
        "for event in json.loads(sys.argv[1]):\n"
        "    sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(event).encode()))\n"
        "    assert main.main(['hook', 'claude']) == 0\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(events)], capture_output=True, text=True, timeout=60, cwd=workspace
    )
    assert done.returncode == 0, done.stderr
    imported = set(json.loads(done.stdout.splitlines()[-1]))
    assert "argparse" not in imported  # (its import alone costs more than the rest)
    loaded = {name for name in imported if name.split(".")[0] not in sys.stdlib_module_names}
    allowed = {
        "simple_brief",
        "simple_brief.cli",
        "simple_brief.cli.hook",
        "simple_brief.cli.hook_sources",
        "simple_brief.cli.sessions",
        "simple_brief.cli.user_config",
        "simple_brief.defaults",
        "simple_brief.main",
    }
    assert "pathlib" not in imported and "socket" not in imported  # (each costs as much as the rest)
    assert loaded - allowed == set()


def test_the_command_line_is_read_without_argparse_and_mistakes_go_to_it() -> None:
    from simple_brief.cli.hook import _options

    assert _options(["-v", "hook", "claude", "--read-lines=300", "--no-daemon", "--budget", "900"]) == {
        "read_lines": 300,
        "budget": 900,
        "verbose": True,
        "no_daemon": True,
    }
    for mistake in (
        ["hook"],
        ["hook", "codex"],
        ["hook", "claude", "--read-lines", "x"],
        ["hook", "claude", "--budget", "50"],
        ["hook", "claude", "-h"],
    ):
        assert _options(mistake) is None, mistake


@pytest.mark.parametrize(
    "env",
    [{}, {"XDG_STATE_HOME": "/tmp/elsewhere"}, {"XDG_STATE_HOME": ""}, {"SIMPLE_BRIEF_STATE_DIR": "/tmp/sb-state"}],
)
def test_the_record_is_in_the_state_directory_the_daemon_and_the_trust_database_use(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from simple_brief.cli import sessions
    from simple_brief.files import private_files
    from simple_brief.host import protocol

    monkeypatch.delenv("SIMPLE_BRIEF_STATE_DIR", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    expected = private_files.state_dir() / "hook" / "sessions.json"
    assert Path(sessions.record_path()) == expected == protocol.state_dir() / "hook" / "sessions.json"
