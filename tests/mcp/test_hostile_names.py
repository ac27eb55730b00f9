"""File names are data (issue 26 §6): a workspace of hostile names — bytes that are not
UTF-8, a newline, a tab, ESC and other control characters, `|` and backticks, a name
that looks like an option, a 4,000-character path, a symlink leading out — walked
through every tool of the registry over stdio MCP with the SDK's real `Client`, and
through the CLI. Before the fix one such name made `search` fail ("surrogates not
allowed") and killed the whole MCP server with the first answer that held it.

A name is shown escaped as `ls -b` would (`bad\\xff.py`, `new\\nline.py`), and the agent
may pass it back in that form.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from simple_brief import tools as registry
from simple_brief.defaults import KNOWN_TOOLSETS
from simple_brief.files.workspace import Workspace
from simple_brief.host.context import Answer
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server

BODY = "def {name}():\n    return 1\n\n\nclass {name}_kind:\n    def method(self):\n        return {name}()\n"
#: Names on disk (bytes), the function each file defines, and the form every answer shows.
HOSTILE: list[tuple[bytes, str, str]] = [
    (b"bad\xff.py", "bad_func", "bad\\xff.py"),
    (b"new\nline.py", "newline_func", "new\\nline.py"),
    (b"tab\tname.py", "tab_func", "tab\\tname.py"),
    (b"esc\x1b[31mred.py", "esc_func", "esc\\x1b[31mred.py"),
    (b"ctl\x01\x7f\xc2\x85.py", "ctl_func", "ctl\\x01\\x7f\\xc2\\x85.py"),
    (b"pipe|`tick`.py", "pipe_func", "pipe|`tick`.py"),
    (b"-rf.py", "option_func", "-rf.py"),
    ("café_中.py".encode(), "cafe_func", "café_中.py"),
    (b"dir\xfe/inner.py", "inner_func", "dir\\xfe/inner.py"),
]
#: 16 folders of 245 characters: a path of 3,900-odd characters below the root, which
#: with a temporary root of up to ~150 characters (pytest-xdist's workers add theirs) stays
#: within the system's 4,096-byte limit, so the file can be opened.
DEEP_PARTS = [f"{i:02d}" + "d" * 243 for i in range(16)]
DEEP_FILE = "/".join([*DEEP_PARTS, "deep.py"])


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def hostile_tree(base: Path) -> Path:
    """The workspace (and, beside it, the folder its symlink leads to)."""
    root = base / "ws"
    root.mkdir()
    (root / "ok.py").write_text(BODY.format(name="ok_func"))
    for raw, func, _shown in HOSTILE:
        path = os.path.join(os.fsencode(root), raw)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(BODY.format(name=func))
    # Deeper than PATH_MAX from /: made one folder at a time, relative to the last.
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in DEEP_PARTS:
            os.mkdir(part, dir_fd=fd)
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        with open(os.open("deep.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as handle:
            handle.write(BODY.format(name="deep_func"))
    finally:
        os.close(fd)
    outside = base / "outside"
    outside.mkdir()
    (outside / "leak.py").write_text(BODY.format(name="leak_func"))
    (root / "link\x1b.py").symlink_to(outside / "leak.py")
    return root


def raw_characters(text: str, newlines: bool) -> list[str]:
    """Control characters (other than the lines' own newlines) and lone surrogates in `text`."""
    return sorted(
        {
            repr(char)
            for char in text
            if (unicodedata.category(char) in ("Cc", "Cs") and not (newlines and char == "\n"))
        }
    )


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (*strings_in(key), *strings_in(item))]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    return []


def server_env() -> dict[str, str]:
    """The isolated user folders of the test session (conftest), not the SDK's bare default."""
    names = ("SIMPLE_BRIEF_CACHE_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME")
    return {"NVIM": "", **{name: os.environ[name] for name in names if name in os.environ}}


def calls_for(tool: str, shown: str, func: str) -> list[dict[str, Any]]:
    """Sensible arguments for `tool` about the file shown as `shown` that defines `func`."""
    at = {"path": shown, "line": 1, "col": 5}
    table: dict[str, list[dict[str, Any]]] = {
        "simple_read": [{"path": shown}, {"path": shown, "mode": "outline"}, {"path": shown, "mode": "names"}],
        "expand_at": [{"path": shown, "selector": func}, {"path": shown, "selector": "line:1"}],
        "document_symbols": [{"path": shown}, {"path": shown, "format": "standard"}],
        "diagnostics": [{"path": shown}],
        "analyze": [{**at, "what": what} for what in ("hover", "definition", "references", "callers", "completion")],
        "refactor": [
            {**at, "action": "rename", "new_name": "renamed"},
            {"action": "format", "path": shown},
            {"action": "extract_function", "path": shown, "line": 2, "col": 12, "end_line": 2, "end_col": 13},
        ],
        "files_apply_overlay": [{"path": shown, "content": BODY.format(name=func + "_overlay")}],
        "files_remove_overlay": [{"path": shown}],
        "test_coverage": [{"path": shown}],
        "profile_run": [{"file": shown}],
        "debug_launch": [{"program": shown, "wait_s": 10, "timeout_s": 30}],
        # Without Neovim: one sentence each; changes_since names the file read before.
        "edit_propose": [{"path": shown, "new_text": "x = 1\n"}],
        "changes_since": [{"path": shown}],
        "editor_show": [{"path": shown, "selector": func}],
    }
    return table.get(tool, [])


#: Tools taking no file: their calls once per session.
ONCE: dict[str, list[dict[str, Any]]] = {
    "search": [{"query": "func"}, {"query": "func", "path": "dir\\xfe"}, {"query": "deep_func"}],
    "diagnostics": [{}, {"explain": "E999"}],
    "edit_status": [{"id": "r1"}],
    "changes_since": [{}],
    "docs": [
        {"action": "search", "query": "func"},
        {"action": "get", "id": "bad\\xff.bad_func"},
        {"action": "list", "module": "bad\\xff"},
        {"action": "resolve", "query": "bad_func"},
        {"action": "index"},
    ],
    "workspace_open": [{"path": "dir\\xfe"}],
    "workspace_close": [{"id": "nope"}],
    "workspace_files": [{}, {"all_files": True}, {"under": "dir\\xfe"}, {"pattern": "*.py"}],
    "workspace_symbols": [{"query": "func"}],
    "build_compile": [{}],
    "build_check": [{}],
    "build_clean": [{}],
    "test_list": [{}],
    "test_run": [{}],
    "profile_report": [{"report_id": "nope"}],
    "profile_hotspots": [{"report_id": "nope"}],
    # d1: the program named `bad\xff.py`, stopped on entry (launched before the other files).
    "debug_launch": [{"program": "bad\\xff.py", "stop_on_entry": True, "wait_s": 20, "timeout_s": 60}],
    "debug_breakpoints": [
        {"session_id": "d1", "action": "set", "location": "bad\\xff.py:2"},
        {"session_id": "d1", "action": "list"},
    ],
    "debug_step": [{"session_id": "d1", "wait_s": 10}],
    "debug_stack": [{"session_id": "d1"}],
    "debug_variables": [{"session_id": "d1"}],
    "debug_evaluate": [{"session_id": "d1", "expression": "__file__"}],
    "debug_pause": [{"session_id": "d1", "wait_s": 2}],
    "debug_continue": [{"session_id": "d1", "wait_s": 10}],
    "debug_terminate": [{"session_id": "d1"}],
    "debug_sessions": [{}],
    "server_status": [{}, {"logs": "debug"}],
    "editor_get_context": [{}],
}


def every_call() -> list[tuple[str, dict[str, Any]]]:
    """(tool, arguments) for every tool of the registry: the file tools on every hostile
    file (named as shown), the rest once."""
    files = [("ok.py", "ok_func"), *((shown, func) for _raw, func, shown in HOSTILE), (DEEP_FILE, "deep_func")]
    files.append(("link\\x1b.py", "leak_func"))
    out: list[tuple[str, dict[str, Any]]] = []
    # The session stopped on entry is looked at before it is let go.
    last = ("debug_continue", "debug_terminate")
    for tool in sorted(registry.listed(KNOWN_TOOLSETS), key=lambda tool: tool.name in last):
        per_file = [args for shown, func in files for args in calls_for(tool.name, shown, func)]
        once = ONCE.get(tool.name, [])
        assert per_file or once, f"no arguments for {tool.name}: add them to the table"
        out += [(tool.name, args) for args in [*once, *per_file]]
    return out


@pytest.mark.anyio
async def test_every_tool_survives_a_tree_of_hostile_names_over_stdio(tmp_path: Path) -> None:
    root = hostile_tree(tmp_path)
    toolsets = ",".join(KNOWN_TOOLSETS)
    args = ["-m", "simple_brief", "mcp", "--root", str(root), "--toolsets", toolsets]
    params = StdioServerParameters(command=sys.executable, args=args, env=server_env())
    bad: list[str] = []
    texts: dict[str, str] = {}
    async with Client(params) as client:
        for tool, arguments in every_call():
            with anyio.fail_after(120):
                # A protocol-level error (the server gone: "Connection closed") raises here.
                result = await client.call_tool(tool, arguments)
            text = "\n\n".join(block.text for block in result.content if hasattr(block, "text"))
            assert text.strip(), f"{tool}({arguments}) answered nothing"
            if "Error executing tool" in text or "could not be encoded" in text:
                bad.append(f"{tool}({arguments}) failed: {text[:300]!r}")
            texts[f"{tool} {json.dumps(arguments)}"] = text
            found = raw_characters(text, newlines=True)
            data = json.dumps(result.structured_content, ensure_ascii=False) if result.structured_content else ""
            found += [f"data:{c}" for s in strings_in(result.structured_content) for c in raw_characters(s, False)]
            if found:
                bad.append(f"{tool}({arguments}): {found} in {(text + data)[:300]!r}")
        with anyio.fail_after(30):
            final = await client.call_tool("search", {"query": "ok_func"})
    assert not bad, "\n".join(bad)
    assert "ok.py (2 results)" in "\n".join(block.text for block in final.content)  # type: ignore[union-attr]
    # The names were shown escaped, and passed back in that form they named the files.
    listing = texts['workspace_files {"all_files": true}']
    for _raw, _func, shown in HOSTILE:
        folder, _, name = shown.rpartition("/")
        assert (f"{folder}/: {name}" if folder else f" {name}") in listing, (shown, listing[-1000:])
    found = texts['search {"query": "func"}']
    for _raw, func, shown in HOSTILE:
        assert shown in found and func in found, (shown, found[:3000])
    assert "dir\\xfe/inner.py (2 results)" in texts['search {"query": "func", "path": "dir\\\\xfe"}']
    for _raw, func, shown in HOSTILE:
        opened = texts[f"expand_at {json.dumps({'path': shown, 'selector': func})}"]
        assert f"def {func}():" in opened, opened
    assert "def deep_func():" in texts[f"expand_at {json.dumps({'path': DEEP_FILE, 'selector': 'deep_func'})}"]
    link = json.dumps({"path": "link\\x1b.py"})
    assert "leak_func" not in texts[f"simple_read {link}"]


def run_cli(root: Path, *argv: str | bytes) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "SIMPLE_BRIEF_DAEMON": "0", "PYTHONIOENCODING": "utf-8"}
    command = [sys.executable, "-m", "simple_brief", *argv]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=120, check=False)


@pytest.mark.parametrize(
    "argv",
    [
        ("search", "func"),
        ("search", b"zz\xff"),
        ("search", "func", "--json"),
        ("diagnostics",),
        ("diagnostics", "--json"),
        ("outline", b"bad\xff.py"),
        ("outline", "bad\\xff.py"),
        ("outline", "new\\nline.py"),
        ("outline", "--", "-rf.py"),
        ("diagnostics", "esc\\x1b[31mred.py"),
        ("expand", "dir\\xfe/inner.py", "inner_func"),
    ],
    ids=lambda argv: " ".join(os.fsdecode(a) for a in argv).encode("ascii", "backslashreplace").decode(),
)
def test_the_cli_shows_hostile_names_escaped_and_never_crashes(tmp_path: Path, argv: tuple[str | bytes, ...]) -> None:
    root = hostile_tree(tmp_path)
    done = run_cli(root, *argv)
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert done.returncode in (0, 2), (done.returncode, err[-2000:])
    assert "Traceback" not in err, err[-2000:]
    assert not raw_characters(out, newlines=True), out[:2000]
    assert not raw_characters(err, newlines=True), err[:2000]
    if done.returncode == 2:
        assert len(err.strip().splitlines()) == 1, err
    if argv[:2] == ("search", "func"):
        for _raw, _func, shown in HOSTILE:
            assert shown in out.replace("\\\\", "\\"), (shown, out[:3000])
    if argv[0] in ("outline", "expand"):
        assert done.returncode == 0, err


@pytest.mark.anyio
async def test_an_answer_that_would_not_encode_goes_out_escaped_and_the_session_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adapter's own guard, behind the tools': a tool that let a raw name through (a
    lone surrogate, which the stdio writer cannot encode: it ended the server) is answered
    with the name escaped."""
    (tmp_path / "ok.py").write_text(BODY.format(name="ok_func"))
    leaked = Answer(blocks=["bad\udcff.py (python, 7 lines)"], data={"path": "bad\udcff.py", "bad\udcfe": 1})
    monkeypatch.setattr(Served, "call", lambda *args: leaked)
    async with Client(build_server(Served.over(Workspace.at(tmp_path)))) as client:
        with anyio.fail_after(30):
            result = await client.call_tool("simple_read", {"path": "ok.py"})
    assert [block.text for block in result.content] == ["bad\\xff.py (python, 7 lines)"]  # type: ignore[union-attr]
    assert result.structured_content == {"path": "bad\\xff.py", "bad\\xfe": 1}
    result.model_dump_json()  # what the stdio writer does


#: A program using the function of the file named `bad\xff.py` (a module name nothing can import:
#: the language server still resolves the definition in the file itself).
LSP_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("analyze", {"what": "hover", "path": "bad\\xff.py", "line": 7, "col": 16}),
    ("analyze", {"what": "definition", "path": "bad\\xff.py", "line": 7, "col": 16}),
    ("analyze", {"what": "references", "path": "bad\\xff.py", "line": 1, "col": 5}),
    ("refactor", {"action": "rename", "path": "new\\nline.py", "line": 1, "col": 5, "new_name": "renamed"}),
    ("diagnostics", {"path": "esc\\x1b[31mred.py"}),
]


@pytest.mark.anyio
async def test_a_real_language_server_answers_about_hostile_names(tmp_path: Path) -> None:
    """basedpyright (installed with the dev extras) gets the files by URI (`bad%FF.py`) and
    its answers name them back: shown escaped, never as another file."""
    root = hostile_tree(tmp_path)
    env = {**server_env(), "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    args = ["-m", "simple_brief", "mcp", "--root", str(root), "--toolsets", "read,lsp"]
    answers: dict[str, str] = {}
    async with Client(StdioServerParameters(command=sys.executable, args=args, env=env)) as client:
        for tool, arguments in LSP_CALLS:
            with anyio.fail_after(120):
                result = await client.call_tool(tool, arguments)
            text = "\n".join(block.text for block in result.content if hasattr(block, "text"))
            assert not result.is_error, (tool, text)
            assert not raw_characters(text, newlines=True), (tool, text)
            answers[arguments.get("what") or arguments.get("action") or tool] = text
    assert "bad\\xff.py:1" in answers["definition"], answers["definition"]
    assert "bad\\xff.py" in answers["references"], answers["references"]
    assert "new\\nline.py" in answers["rename"] and "renamed" in answers["rename"]
