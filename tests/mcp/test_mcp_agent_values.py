"""Hostile values over MCP (issue 26, part 7): every tool that builds an argv — the task
tools, profile_run, debug_launch — driven by the SDK's own Client on a repository that
plants its own `python3` and `ruff` (in the root, `bin/`, `node_modules/.bin/`) while the
person's PATH holds `.`, an empty entry, `./node_modules/.bin` and the workspace's `bin`.
Whatever an agent passes, no marker file appears: a refusal is one sentence, and what
runs is the person's own programs (the declared argv names them bare, found on PATH)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server

from conftest import write_trusted_config

VENV_BIN = str(Path(sys.executable).parent)
PLANTED = "#!/bin/sh\necho planted > '{marker}'\n"
TASKS = """\
[tasks.build]
argv = ["python3", "-m", "compileall", "-q", "calc.py"]
[tasks.check]
argv = ["ruff", "check", "calc.py"]
[tasks.clean]
argv = ["python3", "-m", "compileall", "-q", "calc.py"]
[tasks.test]
argv = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml={junit}"]
filter = ["{filter}"]
[tasks.test_list]
argv = ["python3", "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
[tasks.coverage]
argv = [["python3", "-m", "coverage", "run", "-m", "pytest", "-q", "-p", "no:cacheprovider"], \
["python3", "-m", "coverage", "json", "-o", "{report}"]]
[tasks.profile]
argv = ["python3", "-m", "cProfile", "-o", "{report}", "{file}"]
[debug.planted]
adapter = ["python3", "-m", "debugpy.adapter"]
"""
#: (tool, arguments, what the answer must hold: a refusal's words, or "" for a run).
TABLE: list[tuple[str, dict[str, Any], str]] = [
    ("test_run", {"filter": "--junitxml={marker}"}, "could read it as an option"),
    ("test_run", {"filter": "--debug={marker}"}, "could read it as an option"),
    ("test_run", {"filter": "-pcalc"}, "could read it as an option"),
    ("test_run", {"filter": "test_calc.py::test_add"}, ""),
    ("test_list", {}, ""),
    ("build_compile", {}, ""),
    ("build_check", {}, ""),
    ("build_clean", {}, ""),
    ("test_coverage", {}, ""),
    ("profile_run", {"file": "-c"}, "is not a file of the workspace"),
    ("profile_run", {"file": "../outside.py"}, "outside the workspace"),
    ("profile_run", {"file": "calc.py"}, ""),
    ("debug_launch", {"program": "calc.py", "env": "PYTHONPATH={hooks}"}, "env PYTHONPATH is not set"),
    ("debug_launch", {"program": "calc.py", "env": "LD_PRELOAD={hooks}/x.so"}, "env LD_PRELOAD is not set"),
    ("debug_launch", {"program": "calc.py", "env": "NODE_OPTIONS=--require=x"}, "env NODE_OPTIONS is not set"),
    ("debug_launch", {"program": "calc.py", "env": "BASH_ENV={hooks}/x.sh"}, "env BASH_ENV is not set"),
    ("debug_launch", {"program": "calc.py", "cwd": ".."}, "outside the workspace"),
    ("debug_launch", {"program": "calc.py", "cwd": "/tmp"}, "outside the workspace"),
    ("debug_launch", {"program": "calc.py", "cwd": "out"}, "outside the workspace"),  # a symlink out
    ("debug_launch", {"module": "-c"}, "is not a module name"),
    ("debug_launch", {"program": "calc.py", "args": "-c \"open('{marker}', 'w')\" --junitxml={marker}"}, ""),
    ("debug_launch", {"program": "calc.py", "env": "DEBUG=1 PYTHONUNBUFFERED=1"}, ""),
    ("debug_launch", {"program": "calc.py", "adapter": "planted"}, ""),
]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def planted_repository(root: Path, marker: Path) -> Path:
    """A project whose tasks are declared with bare names, and its own look-alike programs."""
    (root / "tests").mkdir(parents=True)
    (root / "calc.py").write_text("import sys\n\n\ndef add(a, b):\n    return a + b\n\n\nprint(sys.argv[1:])\n")
    test = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
    (root / "tests" / "test_calc.py").write_text(test)
    (root / "conftest.py").write_text("")
    for folder in (root, root / "bin", root / "node_modules" / ".bin"):
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("python3", "ruff", "pytest", "coverage"):
            (folder / name).write_text(PLANTED.format(marker=marker))
            (folder / name).chmod(0o755)
    (root / "out").symlink_to(root.parent)
    write_trusted_config(root, TASKS)
    return root


def answer_text(result: Any) -> str:
    return "\n\n".join(str(block.text) for block in result.content)


@pytest.mark.anyio
async def test_hostile_values_run_nothing_the_person_did_not_trust(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "marker"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'w').write('sitecustomize')\n")
    root = planted_repository(tmp_path / "repo", marker)
    monkeypatch.chdir(root)  # the server started in the repository, as an editor starts it
    path = [".", "", "./node_modules/.bin", str(root / "bin"), VENV_BIN, "/usr/bin", "/bin"]
    monkeypatch.setenv("PATH", os.pathsep.join(path))
    state = Served.over(Workspace.at(root), toolsets=("tasks", "debug"))
    wrong: list[str] = []
    async with Client(build_server(state)) as client:
        for tool, raw, expected in TABLE:
            args = {k: v.format(marker=marker, hooks=hooks) for k, v in raw.items()}
            if tool == "debug_launch":
                args.update(wait_s=20, driver="own")
            with anyio.fail_after(240):
                result = await client.call_tool(tool, args)
            text = answer_text(result)
            row = f"{tool}({args})"
            if marker.exists():
                wrong.append(f"{row} ran a program nobody trusted ({marker.read_text().strip()}): {text[:300]}")
                marker.unlink()
            if expected:
                one_line = "\n" not in text and text.endswith(".") and len(result.content) == 1
                if not (result.is_error and expected in text and one_line):
                    wrong.append(f"{row} was not refused in one sentence: {text[:300]}")
            elif result.is_error:
                wrong.append(f"{row} failed: {text[:300]}")
    state.close()
    assert not wrong, "\n".join(wrong)
