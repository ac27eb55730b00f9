"""The wheel as a user installs it: built offline from this working tree, installed into a
fresh virtual environment, and run from there (the CLI, the package data, the LSP server).

The tree is copied first (without caches, build/ or *.egg-info), so a build never writes
into the working tree nor picks up a stale build/lib. The fresh venv gets the dependencies
without network through a `.pth` line naming the dev venv's site-packages; the dev venv's
*editable* simple_brief is not reached that way (a `.pth` line adds a folder, it does not
process that folder's own `.pth` files), and every test checks the wheel's copy is the one
imported.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import sysconfig
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "simple_brief"
#: Never in the copy the wheel is built from (nor in the wheel).
_IGNORED = (".git", ".venv", "node_modules", "build", "dist", "*.egg-info", "__pycache__", "*.pyc")
_IGNORED += (".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis")
TIMEOUT = 120  # seconds for any one step: a bound on a hang, not a speed figure


@dataclass(frozen=True)
class Installed:
    source: Path  # the copy of the working tree the wheel was built from
    wheel: Path
    venv: Path
    python: Path
    script: Path  # the venv's `simple-brief` console script
    package: Path  # simple_brief's folder inside the venv's site-packages


def _run(argv: list[str | Path], **kw: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=TIMEOUT, **kw)
    assert done.returncode == 0, f"{argv} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def _clean_env() -> dict[str, str]:
    """The environment of a program of the fresh venv: nothing pointing at the dev venv or the tree."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    source = base / "src"
    # symlinks=True: the tree's links (editor/nvim/context.lua) stay links, as in a clone.
    shutil.copytree(REPO, source, symlinks=True, ignore=shutil.ignore_patterns(*_IGNORED))
    out = base / "dist"
    offline = ("--no-deps", "--no-build-isolation", "--no-index", "-q", "--disable-pip-version-check")
    _run([sys.executable, "-m", "pip", "wheel", *offline, "-w", out, source])
    (wheel,) = out.glob(f"{PACKAGE}-*.whl")

    venv = base / "venv"
    _run([sys.executable, "-m", "venv", venv])
    python = venv / "bin" / "python"
    _run([python, "-m", "pip", "install", "--no-index", "--no-deps", "-q", wheel], env=_clean_env())
    purelib = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    # The dependencies (pygls, tree-sitter grammars, …) from the dev venv, after the venv's own.
    (purelib / "dev-venv-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return Installed(source, wheel, venv, python, venv / "bin" / "simple-brief", purelib / PACKAGE)


def test_the_fresh_venv_imports_the_wheel_not_the_tree(installed: Installed, tmp_path: Path) -> None:
    probe = "import simple_brief, pygls; print(simple_brief.__file__); print(pygls.__file__)"
    ours, dependency = _run([installed.python, "-c", probe], cwd=tmp_path, env=_clean_env()).stdout.split()
    assert Path(ours).is_relative_to(installed.package), ours
    assert Path(dependency).is_relative_to(Path(sysconfig.get_paths()["purelib"])), dependency


def test_the_wheel_holds_the_package_and_its_data_and_nothing_else(installed: Installed) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    for name in names:
        top = name.split("/")[0]
        assert top == PACKAGE or (top.startswith("simple_brief-") and top.endswith(".dist-info")), name
        assert "__pycache__" not in name and not name.endswith((".pyc", ".pyo")), name
        assert "/tests/" not in name and "/fixtures/" not in name, name
    # Every file of the package in the tree (modules, queries, Lua, README, py.typed) is in the wheel.
    tree = installed.source / "python" / PACKAGE
    expected = {f"{PACKAGE}/{p.relative_to(tree).as_posix()}" for p in tree.rglob("*") if not p.is_dir()}
    assert expected - set(names) == set(), "package files the wheel leaves out: declare them as package-data"
    assert any(n.startswith(f"{PACKAGE}/languages/") and n.endswith(".scm") for n in names)


def test_package_data_is_installed_as_real_files(installed: Installed) -> None:
    tree = installed.source / "python" / PACKAGE
    queries = sorted(p.name for p in (tree / "languages").glob("*.scm"))
    assert queries, "the tree has outline queries"
    for name in queries:
        shipped = installed.package / "languages" / name
        assert shipped.read_bytes() == (tree / "languages" / name).read_bytes(), name
    rpc = installed.package / "editor" / "nvim" / "rpc.lua"
    assert rpc.read_bytes() == (tree / "editor" / "nvim" / "rpc.lua").read_bytes()
    context = installed.package / "editor" / "nvim" / "context.lua"
    assert not context.is_symlink(), "the wheel must hold context.lua's content, not the repository's link"
    assert context.read_bytes() == (installed.source / "lua" / "simple_brief" / "context.lua").read_bytes()


_OUTLINE_ALL = """
import contextlib, io, json, sys
from simple_brief import cli
answers = {}
for name in sys.argv[1:]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["outline", name, "--root", "."])
    answers[name] = [code, out.getvalue()]
print(json.dumps(answers))
"""


def test_every_language_outlines_from_the_wheel_as_from_the_tree(installed: Installed) -> None:
    """Each fixture language (so each query, `; inherits:` included) read through importlib.resources."""
    fixtures = installed.source / "tests" / "fixtures" / "outline"
    names = sorted(p.name for p in fixtures.iterdir() if p.is_file())
    from_wheel = _run([installed.python, "-c", _OUTLINE_ALL, *names], cwd=fixtures, env=_clean_env()).stdout
    # The same program over the copied tree with the dev venv (PYTHONPATH wins over its editable install).
    tree_env = _clean_env() | {"PYTHONPATH": str(installed.source / "python")}
    from_tree = _run([sys.executable, "-c", _OUTLINE_ALL, *names], cwd=fixtures, env=tree_env).stdout
    wheel_answers, tree_answers = json.loads(from_wheel), json.loads(from_tree)
    for name in names:
        assert wheel_answers[name][0] == 0, (name, wheel_answers[name])
        assert wheel_answers[name] == tree_answers[name], name


def test_the_console_script_runs(installed: Installed, tmp_path: Path) -> None:
    assert installed.script.exists()
    (tmp_path / "app.py").write_text("class User:\n    def greet(self):\n        return 1\n", encoding="utf-8")
    outline = _run([installed.script, "outline", "app.py"], cwd=tmp_path, env=_clean_env()).stdout
    assert "class User" in outline and "def greet(self)" in outline, outline
    tools = _run([installed.script, "tools"], cwd=tmp_path, env=_clean_env()).stdout
    assert "simple_read" in tools and "expand_at" in tools, tools
    # The Neovim backend reads its Lua at import, through importlib.resources.
    probe = (
        "import simple_brief.editor.nvim.backend; from importlib import resources; "
        "lua = resources.files('simple_brief.editor.nvim');"
        "print(*(str(lua.joinpath(n)) for n in ('rpc.lua', 'context.lua')))"
    )
    for path in _run([installed.python, "-c", probe], cwd=tmp_path, env=_clean_env()).stdout.split():
        assert Path(path).is_relative_to(installed.package) and Path(path).stat().st_size > 0, path


# --- a minimal LSP client: Content-Length framing over the server's stdio ---------------


def _send(stdin: BinaryIO, message: dict[str, Any]) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stdin.flush()


def _read_messages(stdout: BinaryIO, into: queue.Queue[dict[str, Any] | None]) -> None:
    try:
        while True:
            headers: dict[str, str] = {}
            while (line := stdout.readline()) not in (b"\r\n", b""):
                key, _, value = line.decode("ascii").partition(":")
                headers[key.strip().lower()] = value.strip()
            if not line:
                return
            into.put(json.loads(stdout.read(int(headers["content-length"]))))
    finally:
        into.put(None)


def _answer(messages: queue.Queue[dict[str, Any] | None], request_id: int, wait: float = 30) -> dict[str, Any]:
    """The response to `request_id`, skipping the server's notifications and log lines."""
    while True:
        message = messages.get(timeout=wait)
        assert message is not None, "the server closed its output before answering"
        if message.get("id") == request_id and "method" not in message:
            assert "error" not in message, message
            return message


def test_the_language_server_answers_over_stdio(installed: Installed, tmp_path: Path) -> None:
    text = "class User:\n    def greet(self):\n        x = 1\n        return x\n\n\ndef main():\n    pass\n"
    uri = (tmp_path / "app.py").as_uri()
    server = subprocess.Popen(
        [installed.script, "lsp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=_clean_env(),
    )
    assert server.stdin is not None and server.stdout is not None
    messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
    threading.Thread(target=_read_messages, args=(server.stdout, messages), daemon=True).start()
    try:
        capabilities = {"general": {"positionEncodings": ["utf-8"]}}
        _send(server.stdin, {"id": 1, "method": "initialize", "params": {"processId": os.getpid(),
              "rootUri": tmp_path.as_uri(), "capabilities": capabilities}})  # fmt: skip
        init = _answer(messages, 1)["result"]
        assert init["capabilities"].get("foldingRangeProvider"), init
        _send(server.stdin, {"method": "initialized", "params": {}})
        document = {"uri": uri, "languageId": "python", "version": 1, "text": text}
        _send(server.stdin, {"method": "textDocument/didOpen", "params": {"textDocument": document}})
        _send(server.stdin, {"id": 2, "method": "textDocument/foldingRange", "params": {"textDocument": {"uri": uri}}})
        folds = _answer(messages, 2)["result"]
        assert {"startLine": 0, "endLine": 3} in [{k: f[k] for k in ("startLine", "endLine")} for f in folds], folds
        _send(server.stdin, {"id": 3, "method": "shutdown"})
        _answer(messages, 3)
        _send(server.stdin, {"method": "exit"})
        server.stdin.close()
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        for stream in (server.stdin, server.stdout, server.stderr):
            if stream is not None and not stream.closed:
                stream.close()
