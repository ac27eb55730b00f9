"""SPEC "Security": every path a tool gets is confined to the workspace root or refused with
one clear sentence, nothing special is ever opened (so nothing can hang), overlays obey the
same size limit, and no tool runs a shell.

Each refusal goes through the registry (`simple_brief.tools.invoke`, what the CLI and MCP
server run); a few also go through the MCP in-memory Client to show the agent gets the
sentence with isError. Waits on something that could block (a FIFO) are bounded.
"""

from __future__ import annotations

import ast
import os
import socket
import stat
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from simple_brief.errors import UserError
from simple_brief.files.workspace import MAX_NAME_BYTES, MAX_PATH_BYTES, Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server
from simple_brief.tools import Call, ToolResult, invoke

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "simple_brief"
#: Modules that may start programs: language servers from `.simple-brief.toml`, argv lists only.
#: A module that runs the user's declared tasks joins this list, under the same argv-only rule.
#: Modules that start programs: language servers, and the declared tasks (the sandbox).
MAY_START_PROGRAMS = frozenset(
    {"lsp/pool.py", "lsp/process.py", "tasks/sandbox.py", "debug/client.py", "proc/process_limits.py"}
    | {"intel/checkers.py"}
)
#: The keeper execs the program it keeps (a resolved path and an argv list, after its fork); the
#: script's detached child becomes `simple-brief daemon start` (this interpreter, an argv list).
MAY_EXEC_ARGV = frozenset({"proc/process_keeper.py", "cli/client.py"})


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    (folder / "pkg").mkdir(parents=True)
    (folder / "app.py").write_text("def main():\n    pass\n")
    (folder / "pkg" / "mod.py").write_text("class Mod:\n    pass\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.py").write_text("TOKEN = 'do not read'\n")
    return folder


@pytest.fixture
def ws(root: Path) -> Workspace:
    return Workspace.at(root)


def refused(action: Callable[[], object]) -> str:
    """The UserError sentence `action` raises: one line, one sentence, short."""
    with pytest.raises(UserError) as info:
        action()
    message = str(info.value)
    assert "\n" not in message and message.endswith("."), message
    assert len(message) < 400, message
    return message


def read(ws: Workspace, path: str, tool: str = "simple_read") -> ToolResult:
    return invoke(tool, {"path": path}, Call(ws))


def bounded(action: Callable[[], object], seconds: float = 10) -> object:
    """Run `action` in a thread, failing the test (not hanging it) if it blocks."""
    outcome: list[object] = []

    def attempt() -> None:
        try:
            outcome.append(action())
        except BaseException as err:  # handed to the test thread
            outcome.append(err)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=seconds)
    assert not worker.is_alive(), "the call blocked"
    return outcome[0]


# --- escapes ------------------------------------------------------------------------------------


def test_dotdot_escape(ws: Workspace) -> None:
    message = refused(lambda: read(ws, "../outside/secret.py"))
    assert message == (
        f"../outside/secret.py is outside the workspace {ws.root}; use a path inside it or start from another --root."
    )


def test_dotdot_escape_through_a_folder_for_every_path_tool(ws: Workspace) -> None:
    for tool in ("simple_read", "document_symbols", "diagnostics", "files_remove_overlay"):
        assert "is outside the workspace" in refused(partial(read, ws, "pkg/../../outside/secret.py", tool))
    assert "is outside the workspace" in refused(
        lambda: invoke("expand_at", {"path": "../outside/secret.py", "selector": "TOKEN"}, Call(ws))
    )
    assert "is outside the workspace" in refused(lambda: invoke("search", {"query": "x", "path": ".."}, Call(ws)))
    assert "is outside the workspace" in refused(lambda: invoke("workspace_files", {"under": ".."}, Call(ws)))


def test_absolute_path_elsewhere(ws: Workspace, tmp_path: Path) -> None:
    assert "is outside the workspace" in refused(lambda: read(ws, str(tmp_path / "outside" / "secret.py")))
    assert "is outside the workspace" in refused(lambda: read(ws, "/etc/passwd"))


def test_home_directory_paths(ws: Workspace) -> None:
    assert "is outside the workspace" in refused(lambda: read(ws, "~/.bashrc"))
    assert refused(lambda: read(ws, "~no_such_user_xyz/x.py")) == (
        f"~no_such_user_xyz/x.py names an unknown home directory; give a path inside {ws.root}."
    )


def test_file_symlink_leading_out(ws: Workspace, root: Path, tmp_path: Path) -> None:
    (root / "link.py").symlink_to(tmp_path / "outside" / "secret.py")
    assert refused(lambda: read(ws, "link.py")).startswith("link.py is outside the workspace")


def test_directory_symlink_leading_out(ws: Workspace, root: Path, tmp_path: Path) -> None:
    (root / "vendor").symlink_to(tmp_path / "outside", target_is_directory=True)
    assert refused(lambda: read(ws, "vendor/secret.py")).startswith("vendor/secret.py is outside the workspace")


def test_symlinked_parent_folder_leading_out(ws: Workspace, root: Path, tmp_path: Path) -> None:
    """`deep` points inside (allowed), but its child `up` points out: the chain is followed."""
    (root / "deep").symlink_to(root / "pkg", target_is_directory=True)
    assert read(ws, "deep/mod.py").data["path"] == "pkg/mod.py"
    (root / "pkg" / "up").symlink_to(tmp_path / "outside", target_is_directory=True)
    assert "is outside the workspace" in refused(lambda: read(ws, "deep/up/secret.py"))


def test_root_reached_through_a_symlink_is_still_the_root(root: Path, tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(root, target_is_directory=True)
    ws = Workspace.at(tmp_path / "alias")
    assert ws.root == root
    assert read(ws, str(tmp_path / "alias" / "app.py")).data["path"] == "app.py"


def test_symlink_loop(ws: Workspace, root: Path) -> None:
    (root / "loop.py").symlink_to(root / "loop.py")
    assert refused(lambda: read(ws, "loop.py")) == "loop.py is a symlink loop; name the file it should point to."


def test_proc_is_refused_even_when_the_root_is_slash() -> None:
    everything = Workspace.at("/")
    for path in ("/proc/self/environ", "/proc/self/status", "/proc/1/cmdline", "/proc"):
        message = refused(partial(read, everything, path))
        assert message.startswith(f"{path} is not a regular file but a kernel pseudo-file under /proc")
    assert "kernel pseudo-file under /sys" in refused(lambda: read(everything, "/sys/kernel/hostname"))


# --- special files: refused by stat, never opened ----------------------------------------------


def test_dev_null_and_dev_zero_are_refused_by_stat() -> None:
    everything = Workspace.at("/")
    for path in ("/dev/null", "/dev/zero", "/dev/urandom"):
        outcome = bounded(partial(read, everything, path))
        assert isinstance(outcome, UserError), outcome
        assert str(outcome) == f"{path} is not a regular file but a device; name a source file."


def test_device_node_inside_the_workspace(ws: Workspace, root: Path) -> None:
    try:
        os.mknod(root / "zero.py", stat.S_IFCHR | 0o600, os.makedev(1, 5))  # the /dev/zero device
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD, which this machine does not grant")
    outcome = bounded(lambda: read(ws, "zero.py"))
    assert str(outcome) == "zero.py is not a regular file but a device; name a source file."
    assert "zero.py" not in invoke("workspace_files", {"all_files": True}, Call(ws)).data["files"]


def test_fifo_is_refused_without_blocking(ws: Workspace, root: Path) -> None:
    os.mkfifo(root / "pipe.py")
    for tool in ("simple_read", "document_symbols"):
        outcome = bounded(partial(read, ws, "pipe.py", tool))
        assert str(outcome) == "pipe.py is not a regular file but a named pipe (FIFO); name a source file."
    listed = bounded(lambda: invoke("workspace_files", {"all_files": True}, Call(ws)))
    assert isinstance(listed, ToolResult) and "pipe.py" not in listed.data["files"]
    overlay = bounded(lambda: invoke("files_apply_overlay", {"path": "pipe.py", "content": "x = 1\n"}, Call(ws)))
    assert str(overlay) == "pipe.py is not a regular file but a named pipe (FIFO); overlay a source file."
    searched = bounded(lambda: invoke("search", {"query": "main"}, Call(ws)))
    assert isinstance(searched, ToolResult) and searched.data["total"] == 1


def test_socket_is_refused(ws: Workspace, root: Path) -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(root / "sock.py"))
        outcome = bounded(lambda: read(ws, "sock.py"))
        assert str(outcome) == "sock.py is not a regular file but a socket; name a source file."
    finally:
        server.close()


def test_directory_is_refused(ws: Workspace) -> None:
    assert refused(lambda: read(ws, "pkg")) == "pkg is a directory; name a file inside it."


# --- sizes and content --------------------------------------------------------------------------


def test_file_over_the_size_limit(ws: Workspace, root: Path) -> None:
    (root / "big.py").write_text("x = 1\n" * 200)
    ws.max_bytes = 1000
    assert refused(lambda: read(ws, "big.py")) == (
        "big.py is 1.2 KB, over the 1.0 KB limit; open a smaller file or raise the limit with --max-bytes."
    )


def test_overlay_over_the_size_limit_counts_bytes_not_characters(ws: Workspace, root: Path) -> None:
    ws.max_bytes = 1000
    wide = "s = '" + "é" * 600 + "'\n"  # 608 characters, 1,208 UTF-8 bytes
    message = refused(lambda: invoke("files_apply_overlay", {"path": "app.py", "content": wide}, Call(ws)))
    assert message == (
        "the overlay for app.py is over the 1.0 KB limit; overlay a smaller file or raise the limit with --max-bytes."
    )
    assert "x" * 2000 not in ws.overlays.get(ws.resolve("app.py"), "")
    invoke("files_apply_overlay", {"path": "app.py", "content": "s = '" + "é" * 400 + "'\n"}, Call(ws))
    assert (root / "app.py").read_text() == "def main():\n    pass\n"


def test_binary_file_and_binary_overlay(ws: Workspace, root: Path) -> None:
    (root / "blob.py").write_bytes(b"\x7fELF\x00\x00\x01def f(): pass\n")
    assert refused(lambda: read(ws, "blob.py")) == (
        "blob.py looks like a binary file (it contains NUL bytes); simple-brief reads text only."
    )
    message = refused(lambda: invoke("files_apply_overlay", {"path": "x.py", "content": "a\0b"}, Call(ws)))
    assert message == "the overlay for x.py contains NUL bytes; overlays hold source text only."


# --- malformed paths ----------------------------------------------------------------------------


def test_nul_byte_in_a_path(ws: Workspace) -> None:
    message = refused(lambda: read(ws, "app.py\0../../etc/passwd"))
    assert message == "the path 'app.py\\x00../../etc/passwd' contains a NUL byte; give a plain file path."


def test_overly_long_path(ws: Workspace) -> None:
    long_path = "a/" * (MAX_PATH_BYTES // 2 + 10)
    assert refused(lambda: read(ws, long_path)) == (
        f"the path is {len(long_path):,} bytes long, over the 4,096-byte limit; give a shorter one."
    )
    long_name = "n" * (MAX_NAME_BYTES + 1) + ".py"
    message = refused(lambda: read(ws, long_name))
    assert message.startswith("a name in ") and message.endswith("is longer than 255 bytes; no file can have it.")
    assert len(message) < 300


def test_control_characters_in_a_path_stay_on_one_line(ws: Workspace) -> None:
    message = refused(lambda: read(ws, "evil\nname.py"))
    # Quoted, so a reader sees where the name starts and ends (issue 11, item 6).
    assert message == f"'evil\\nname.py' does not exist; check the path (it is relative to {ws.root})."


# --- no shell -----------------------------------------------------------------------------------

METACHARACTERS = (
    "$(touch pwned)",
    "`touch pwned`",
    "x; touch pwned",
    "x && touch pwned",
    "x | touch pwned",
    "$(touch pwned).py",
    "'; touch pwned; '",
)


def test_shell_metacharacters_are_plain_text(ws: Workspace, root: Path, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    call = Call(ws)
    for text in METACHARACTERS:
        assert refused(partial(invoke, "simple_read", {"path": text}, call)).startswith(f"{text} does not exist")
        assert refused(partial(invoke, "workspace_open", {"path": text}, call)).startswith(f"{text} does not exist")
        assert invoke("search", {"query": text}, call).data["total"] == 0
        assert invoke("workspace_files", {"pattern": text}, call).data["total"] == 0
        assert invoke("workspace_symbols", {"query": text}, call).data["total"] == 0
    # An overlay with such a name is a plain (in-memory) file, seen by tools, never created.
    invoke("files_apply_overlay", {"path": "$(touch pwned).py", "content": "def odd():\n    pass\n"}, call)
    assert invoke("simple_read", {"path": "$(touch pwned).py", "mode": "outline"}, call).data["symbols"] == 1
    after = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert after == before
    assert not list(tmp_path.rglob("pwned"))


def test_a_file_named_like_a_command_is_just_read(ws: Workspace, root: Path, tmp_path: Path) -> None:
    (root / "$(touch pwned).py").write_text("def odd():\n    pass\n")
    assert "def odd()" in read(ws, "$(touch pwned).py").text
    assert not list(tmp_path.rglob("pwned"))


def _call_name(node: ast.Call) -> str:
    """`os.system`, `subprocess.Popen`, `Popen`: the dotted name a call is made through."""
    parts: list[str] = []
    func: ast.expr = node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return ".".join(reversed(parts))


FORBIDDEN_CALLS = ("os.system", "os.popen", "pty.spawn", "asyncio.create_subprocess_shell", "commands.getoutput")
FORBIDDEN_PREFIXES = ("os.exec", "os.spawn", "os.posix_spawn")


def test_no_module_runs_a_shell() -> None:
    """Read every module of the package: no shell=True, os.system/popen/exec*/spawn*, and
    subprocess only in the modules that start language servers or declared tasks, always with
    an argv list."""
    problems: list[str] = []
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 20
    for module in modules:
        rel = module.relative_to(PACKAGE).as_posix()
        tree = ast.parse(module.read_text(encoding="utf-8"), filename=rel)
        may_start = rel in MAY_START_PROGRAMS
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
                if any(n and n.split(".")[0] in ("subprocess", "pty", "commands") for n in names) and not may_start:
                    problems.append(f"{rel}:{node.lineno} imports {names}")
            if not isinstance(node, ast.Call):
                continue
            name = _call_name(node)
            execs_argv = name == "os.execv" and rel in MAY_EXEC_ARGV
            if execs_argv and any(isinstance(a, ast.Constant | ast.JoinedStr | ast.BinOp) for a in node.args):
                problems.append(f"{rel}:{node.lineno} gives os.execv a written path or command, not the program's")
            if (name in FORBIDDEN_CALLS or name.startswith(FORBIDDEN_PREFIXES)) and not execs_argv:
                problems.append(f"{rel}:{node.lineno} calls {name}")
            for kw in node.keywords:
                if kw.arg == "shell" and not (isinstance(kw.value, ast.Constant) and kw.value.value is False):
                    problems.append(f"{rel}:{node.lineno} passes shell=")
            if name.startswith("subprocess.") or name.endswith("create_subprocess_exec"):
                if not may_start:
                    problems.append(f"{rel}:{node.lineno} starts a program ({name})")
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant | ast.JoinedStr | ast.BinOp):
                    problems.append(f"{rel}:{node.lineno} gives {name} a command string, not an argv list")
    assert problems == []


# --- what the agent sees over MCP ----------------------------------------------------------------


@pytest.mark.anyio
async def test_refusals_reach_the_agent_over_mcp_as_one_sentence_with_is_error(ws: Workspace, root: Path) -> None:
    os.mkfifo(root / "pipe.py")
    (root / "link.py").symlink_to(root.parent / "outside" / "secret.py")
    ws.max_bytes = 1000
    (root / "big.py").write_text("x = 1\n" * 200)
    state = Served.over(ws, toolsets=("read", "workspace"))
    calls: list[tuple[str, dict[str, Any], str]] = [
        ("simple_read", {"path": "../outside/secret.py"}, "../outside/secret.py is outside the workspace"),
        ("simple_read", {"path": "link.py"}, "link.py is outside the workspace"),
        ("simple_read", {"path": "pipe.py"}, "pipe.py is not a regular file but a named pipe (FIFO)"),
        ("simple_read", {"path": "big.py"}, "big.py is 1.2 KB, over the 1.0 KB limit"),
        ("simple_read", {"path": "a\0b"}, "the path 'a\\x00b' contains a NUL byte"),
        ("expand_at", {"path": "/etc/passwd", "selector": "root"}, "/etc/passwd is outside the workspace"),
        ("workspace_open", {"path": "/"}, "workspace_open only opens folders inside the server's root"),
        ("files_apply_overlay", {"path": "x.py", "content": "y" * 2000}, "the overlay for x.py is over the 1.0 KB"),
    ]
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(20):
            results = [await client.call_tool(name, args) for name, args, _ in calls]
    for (name, _, expected), result in zip(calls, results, strict=True):
        assert result.is_error, name
        assert len(result.content) == 1
        text = result.content[0].text  # type: ignore[union-attr]
        assert text.startswith(expected), text
        assert "\n" not in text and text.endswith(".") and "Traceback" not in text


@pytest.mark.anyio
async def test_dev_zero_over_mcp_with_the_root_at_slash() -> None:
    state = Served.over(Workspace.at("/"))
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(20):
            zero = await client.call_tool("simple_read", {"path": "/dev/zero"})
            environ = await client.call_tool("simple_read", {"path": "/proc/self/environ"})
    assert zero.is_error
    assert zero.content[0].text == "/dev/zero is not a regular file but a device; name a source file."  # type: ignore[union-attr]
    assert environ.is_error
    assert environ.content[0].text.startswith("/proc/self/environ is not a regular file but a kernel pseudo-file")  # type: ignore[union-attr]
