"""The `simple-brief` command through a real subprocess, as a shell or an agent runs it.

Every call runs `python -m simple_brief` with its working directory in a temporary
workspace. A user error must be one `simple-brief: ...` line on stderr with exit code 2
(or `{"ok": false, "error": ...}` with --json), never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from simple_brief.render.table import RANGE_NOTE

APP = '''\
"""App module."""

import os


class User:
    """A user."""

    kind = "user"

    def __init__(self, name):
        self.name = name

    def greet(self):
        return f"hi {self.name}"


class Admin(User):
    def greet(self):
        return "hello"


def find_user(name):
    """Find one."""
    return User(name)
'''

#: Names that all look like `find_user`; the exact one lives in the file sorted last.
SEARCH_FILES = {
    "a_helpers.py": "def find_user_by_id(uid):\n    return uid\n\n\ndef find_users(names):\n    return names\n",
    "b_service.py": "class FindUserService:\n    def run(self):\n        return 1\n\n\ndef user_finder():\n    pass\n",
    "c_camel.py": "def findUser(name):\n    return name\n",
    "z_last.py": "def helper():\n    pass\n\n\ndef find_user(name):\n    return name\n",
}


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "simple_brief", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env=env,
    )


def run_all(cwd: Path, calls: dict[str, list[str]]) -> dict[str, subprocess.CompletedProcess[str]]:
    """Run many independent commands at once (each one is mostly interpreter start-up)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {key: pool.submit(run, cwd, *args) for key, args in calls.items()}
        return {key: future.result() for key, future in futures.items()}


def make_workspace(root: Path) -> Path:
    root.mkdir()
    (root / "app.py").write_text(APP)
    for name, text in SEARCH_FILES.items():
        (root / name).write_text(text)
    (root / "broken.py").write_text("def ok():\n    pass\n\ndef broken(:\n    pass\n")
    (root / "sub").mkdir()
    (root / "sub" / "mod.py").write_text("def in_sub():\n    pass\n")
    (root / "blob.py").write_bytes(b"\x7fELF\x00\x01\x02def f(): pass\n")
    (root.parent / "outside.py").write_text("def secret():\n    pass\n")
    return root


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One workspace for the whole module: no test here writes to it."""
    return make_workspace(tmp_path_factory.mktemp("cli") / "ws")


# --- help ------------------------------------------------------------------------------

HELP = {
    "outline": ["--mode", "--depth", "--preview", "--filetype", "--root", "--budget", "--max-bytes", "--json"],
    "expand": ["selector", "--what", "--filetype", "--root", "--budget", "--json"],
    "symbols": ["--format", "--return-children", "--no-hover", "--filetype", "--root", "--json"],
    "search": ["query", "--path", "--limit", "--root", "--json"],
    "diagnostics": ["path", "--only", "--root", "--json"],
    "run": ["tool", "--param", "NAME=VALUE", "--root", "--json"],
    "tools": ["--json"],
}


@pytest.fixture(scope="module")
def helps(ws: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    return run_all(ws, {"": ["--help"], **{command: [command, "--help"] for command in HELP}})


def test_top_level_help_lists_every_command(helps: dict[str, subprocess.CompletedProcess[str]]) -> None:
    result = helps[""]
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: simple-brief")
    for command in HELP:
        assert command in result.stdout
    assert "1-based" in result.stdout and "F> function" in result.stdout


@pytest.mark.parametrize("command", sorted(HELP))
def test_subcommand_help_mentions_its_options(helps: dict[str, subprocess.CompletedProcess[str]], command: str) -> None:
    result = helps[command]
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: simple-brief {command}")
    for option in HELP[command]:
        assert option in result.stdout, f"{command} --help does not mention {option}"
    assert result.stderr == ""


def test_version(tmp_path: Path) -> None:
    result = run(tmp_path, "--version")
    assert result.returncode == 0
    assert result.stdout.startswith("simple-brief ")


# --- reading ---------------------------------------------------------------------------


def test_outline_prints_marks_with_spans(ws: Path) -> None:
    result = run(ws, "outline", "app.py")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.rstrip("\n").split("\n")
    assert lines[0] == "app.py (python, 25 lines) outline"
    assert '.. """App module."""; import os L1-3' in lines
    assert "C_ class User L6-15" in lines
    assert " F> def greet(self) { ... } L14-15" in lines
    assert "C_ class Admin(User) L18-20" in lines
    assert "F> def find_user(name) { ... } L23-25" in lines
    assert result.stderr == ""


def test_outline_depth_1_folds_classes(ws: Path) -> None:
    result = run(ws, "outline", "app.py", "--depth", "1", "--mode", "compact")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.rstrip("\n").split("\n")
    assert lines[1] == "V* [0E 0W in file]"
    assert "C> class User { kind, name, 2 methods } L6-15" in lines
    assert not any(line.startswith(" ") for line in lines)


def test_expand_by_name(ws: Path) -> None:
    result = run(ws, "expand", "app.py", "find_user")
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip("\n") == 'F_ def find_user(name): L23-25\n    """Find one."""\n    return User(name)'


def test_expand_by_class_dot_method(ws: Path) -> None:
    result = run(ws, "expand", "app.py", "Admin.greet")
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip("\n") == 'F_ def greet(self): L19-20\n    return "hello"'


def test_expand_by_line(ws: Path) -> None:
    result = run(ws, "expand", "app.py", "line:15")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("F_ def greet(self): L14-15\n")
    assert 'return f"hi {self.name}"' in result.stdout


def test_expand_body_and_signature(ws: Path) -> None:
    body = run(ws, "expand", "app.py", "User.greet", "--what", "body")
    assert body.stdout.rstrip("\n") == 'return f"hi {self.name}"'
    signature = run(ws, "expand", "app.py", "find_user", "--what", "signature")
    assert signature.stdout.rstrip("\n") == "F> def find_user(name) { ... } L23-25\n  # Find one."


def test_ambiguous_name_lists_candidates_and_exits_2(ws: Path) -> None:
    result = run(ws, "expand", "app.py", "greet")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("simple-brief: `greet` names 2 symbols")
    assert "User.greet (line:14)" in lines[0] and "Admin.greet (line:19)" in lines[0]


def test_unknown_name_suggests_nearby_names_and_exits_2(ws: Path) -> None:
    result = run(ws, "expand", "app.py", "find_usr")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("simple-brief: no symbol `find_usr` in app.py")
    assert "nearby names: find_user" in lines[0]


def test_symbols_table_is_1_based(ws: Path) -> None:
    result = run(ws, "symbols", "app.py")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.rstrip("\n").split("\n")
    assert lines[0] == f"app.py symbols (positions 1-based line:col; {RANGE_NOTE})"
    assert lines[1] == "NAME | KIND | RANGE | SELECTION | PARENT | HOVER_INFO | EOL"
    rows = {line.split(" | ")[0] + "@" + line.split(" | ")[4]: line for line in lines[2:]}
    assert rows["User@"] == "User | 5 | 6:1-15:32 | 6:7-10 |  | class User - A user. | <<<"
    assert rows["greet@Admin"] == "greet | 6 | 19:5-20:22 | 19:9-13 | Admin | def greet(self) | <<<"
    assert rows["find_user@"].startswith("find_user | 12 | 23:1-25:21 | 23:5-13 |  | def find_user(name) - Find one.")
    assert all(line.endswith(" | <<<") for line in lines[2:])


def test_symbols_standard_is_lsp_json_0_based(ws: Path) -> None:
    result = run(ws, "symbols", "app.py", "--format", "standard")
    assert result.returncode == 0, result.stderr
    symbols = json.loads(result.stdout)
    by_name = {s["name"]: s for s in symbols}
    assert list(by_name) == ["User", "Admin", "find_user"]
    user = by_name["User"]
    assert user["kind"] == 5
    assert user["range"] == {"start": {"line": 5, "character": 0}, "end": {"line": 14, "character": 32}}
    assert user["selectionRange"] == {"start": {"line": 5, "character": 6}, "end": {"line": 5, "character": 10}}
    greet = next(c for c in user["children"] if c["name"] == "greet")
    assert greet["range"]["start"] == {"line": 13, "character": 4}
    assert greet["detail"] == "def greet(self)"


def test_search_lists_the_exact_name_first(ws: Path) -> None:
    result = run(ws, "search", "find_user", "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    matches = payload["data"]["matches"]
    assert matches[0]["name"] == "find_user"
    exact = [m for m in matches if m["name"] == "find_user"]
    assert len(exact) == 2
    assert matches[: len(exact)] == exact, "an exact name is outranked by a partial one"
    assert matches[len(exact)]["name"] == "findUser"  # same words, other case style
    names = [m["name"] for m in matches]
    assert "find_user_by_id" in names and "FindUserService" in names
    assert "helper" not in names
    scores = [m["score"] for m in matches]
    assert scores == sorted(scores, reverse=True)
    text = run(ws, "search", "find_user").stdout
    assert text.startswith(f'Found {payload["data"]["total"]} matches for query "find_user" across ')


def test_search_a_qualified_name(ws: Path) -> None:
    result = run(ws, "search", "User.greet", "--json")
    matches = json.loads(result.stdout)["data"]["matches"]
    assert (matches[0]["name"], matches[0]["line"]) == ("greet", 14)


def test_run_with_params_gives_ok_tool_content_data(ws: Path) -> None:
    result = run(ws, "run", "simple_read", "--param", "path=app.py", "--param", "mode=outline", "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert set(payload) == {"ok", "tool", "content", "data"}
    assert payload["ok"] is True
    assert payload["tool"] == "simple_read"
    assert isinstance(payload["content"], list) and all(isinstance(b, str) for b in payload["content"])
    assert payload["content"][0].startswith("app.py (python, 25 lines) outline\n")
    assert payload["data"] == {"path": "app.py", "language": "python", "lines": 25, "symbols": 8, "mode": "outline"}


def test_run_coerces_typed_params(ws: Path) -> None:
    result = run(
        ws, "run", "document_symbols", "--param", "path=app.py", "--param", "include_hover=no",
        "--param", "return_children=no", "--json",
    )  # fmt: skip
    payload = json.loads(result.stdout)
    assert payload["ok"] is True
    rows = payload["content"][0].split("\n")[2:]
    assert [r.split(" | ")[0] for r in rows] == ["User", "Admin", "find_user"]
    assert all(r.split(" | ")[5] == "" for r in rows)


def test_tools_lists_every_tool(ws: Path) -> None:
    text = run(ws, "tools")
    assert text.returncode == 0
    listing = json.loads(run(ws, "tools", "--json").stdout)
    names = {t["name"] for t in listing}
    assert {"simple_read", "expand_at", "document_symbols", "search", "diagnostics"} <= names
    for tool in listing:
        assert tool["name"] in text.stdout
        assert tool["inputSchema"]["type"] == "object"
    # Each tool's parameters as its signature declares them: required ones `…`, the rest [default].
    lines = text.stdout.splitlines()
    assert "simple_read (read): path=… mode=[full] depth=[0] preview=[none] filetype=[None]" in lines
    assert "analyze (lsp): what=… path=… line=… col=… include_declaration=[True] offset=[0] limit=[None]" in lines
    assert "server_status (system): logs=[None] limit=[50]" in lines
    status = next(t for t in listing if t["name"] == "server_status")
    assert status["inputSchema"] == {
        "type": "object",
        "properties": {
            "logs": {
                "type": "string",
                "description": "Instead: its log lines from this level.",
                "enum": ["debug", "info", "warning", "error"],
            },
            "limit": {"type": "integer", "description": "logs: most lines.", "default": 50},
        },
        "required": [],
        "additionalProperties": False,
    }


def test_diagnostics_of_a_broken_file(ws: Path) -> None:
    result = run(ws, "diagnostics", "broken.py", "--json")
    payload = json.loads(result.stdout)
    assert payload["ok"] is True
    found = payload["data"]["files"]["broken.py"]
    # Python's compile() judges it (E, source `python`); the grammar's region is a hint.
    assert [(d["source"], d["severity"]) for d in found] == [("python", 1), ("simple-brief", 4)]
    assert found[0]["range"]["start"]["line"] == 3 and found[1]["code"] == "H003"


def test_diagnostics_explain_is_the_command_an_old_diagnostic_explain_names(ws: Path) -> None:
    result = run(ws, "diagnostics", "--explain", "h003")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("H003 H the grammar could not read a region (simple-brief)\ncause: ")


# --- user errors -----------------------------------------------------------------------

USER_ERRORS = {
    "missing file": (["outline", "nope.py"], "nope.py does not exist"),
    "directory": (["outline", "sub"], "sub is a directory"),
    "binary file": (["outline", "blob.py"], "blob.py looks like a binary file"),
    "relative path outside --root": (["outline", "../outside.py", "--root", "."], "is outside the workspace"),
    "absolute path outside --root": (["expand", "/etc/hostname", "x", "--root", "."], "is outside the workspace"),
    "unknown tool": (["run", "no_such_tool"], "there is no tool `no_such_tool`"),
    # Tools folded into another's parameter (issue 18) name the command that replaces them.
    "folded tool": (["run", "analyze_lint"], "`analyze_lint` is now simple-brief diagnostics FILE --only lint"),
    "folded docs tool": (["run", "docs_related"], "`docs_related` is now simple-brief docs get ID --part related"),
    # The tools merged by issue 30 name the command that replaces them, which exists.
    "merged explain": (
        ["run", "diagnostic_explain"],
        "`diagnostic_explain` is now simple-brief diagnostics --explain CODE",
    ),
    "merged docs": (["run", "docs_search"], "`docs_search` is now simple-brief docs search WORDS (same answer)."),
    "merged logs": (["run", "logs"], "`logs` is now simple-brief run server_status --param logs=info (same answer)."),
    "only= needs one file": (["diagnostics", "--only", "types"], "simple-brief diagnostics FILE --only types checks"),
    "unknown param": (["run", "simple_read", "--param", "path=app.py", "--param", "colour=red"], "has no parameter"),
    "bad int param": (["run", "simple_read", "--param", "path=app.py", "--param", "depth=deep"], "whole number"),
    "bad choice param": (["run", "simple_read", "--param", "path=app.py", "--param", "mode=all"], "must be one of"),
    "bad bool param": (
        ["run", "document_symbols", "--param", "path=app.py", "--param", "include_hover=maybe"],
        "parameter `include_hover` must be true or false, not 'maybe'.",
    ),
    "missing param": (["run", "expand_at", "--param", "path=app.py"], "needs the parameter `selector`"),
    "--param without =": (["run", "simple_read", "--param", "path"], "is not NAME=VALUE"),
    "bad line selector": (["expand", "app.py", "line:x"], "not a line selector"),
    "line outside every symbol": (["expand", "app.py", "line:2"], "no definition contains line 2"),
    "empty search": (["search", " "], "query is empty"),
    "tiny budget": (["outline", "app.py", "--budget", "5"], "--budget"),
    "missing --path of search": (["search", "user", "--path", "nowhere"], "nowhere does not exist"),
    "missing path of diagnostics": (["diagnostics", "nowhere"], "nowhere does not exist"),
    "argparse: bad int": (["outline", "app.py", "--depth", "x"], "invalid int value"),
}


#: User errors also checked with --json (the reading ones are the same code path).
JSON_ERRORS = [
    "missing file",
    "binary file",
    "relative path outside --root",
    "unknown tool",
    "folded tool",
    "unknown param",
    "bad int param",
    "--param without =",
    "missing --path of search",
    "argparse: bad int",
]


@pytest.fixture(scope="module")
def errors(ws: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    calls = {case: args for case, (args, _) in USER_ERRORS.items()}
    calls.update({f"{case} --json": [*USER_ERRORS[case][0], "--json"] for case in JSON_ERRORS})
    return run_all(ws, calls)


@pytest.mark.parametrize("case", sorted(USER_ERRORS))
def test_user_error_is_one_line_on_stderr_and_exit_2(
    errors: dict[str, subprocess.CompletedProcess[str]], case: str
) -> None:
    expected = USER_ERRORS[case][1]
    result = errors[case]
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("simple-brief: ")
    assert expected in lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize("case", JSON_ERRORS)
def test_user_error_with_json_is_ok_false(errors: dict[str, subprocess.CompletedProcess[str]], case: str) -> None:
    expected = USER_ERRORS[case][1]
    result = errors[f"{case} --json"]
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout.strip(), f"nothing on stdout; stderr: {result.stderr!r}"
    payload = json.loads(result.stdout)
    assert payload["ok"] is False
    assert set(payload) == {"ok", "error"}
    assert expected in payload["error"]
    assert "\n" not in payload["error"]


def test_outside_file_without_root_is_read_from_its_own_folder(ws: Path) -> None:
    """Without --root, a file outside the current directory makes its folder the workspace."""
    result = run(ws, "outline", "../outside.py")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("outside.py (python, 2 lines) outline\n")


def test_no_command_prints_help_and_exits_2(tmp_path: Path) -> None:
    result = run(tmp_path)
    assert result.returncode == 2
    assert "usage: simple-brief" in result.stdout
