"""A declared `check` task's findings join one file's `diagnostics` (issue 28): mypy from
the engine's own environment ([dev] extras), really run, in a trusted temporary workspace;
never run when the workspace's config is not trusted; a run past its time limit is said
on the first line; an edit written to disk (a real rename by jedi-language-server) answers
with them too."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from simple_brief.files import config
from simple_brief.files.workspace import Workspace
from simple_brief.tools import Call, ToolResult, invoke

from conftest import write_trusted_config

TYPE_ERROR = "def double(n: int) -> int:\n    return n * 2\n\n\nhalf: str = double(2)\n"


def _run(root: Path, tool: str, **args: Any) -> ToolResult:
    return invoke(tool, args, Call(workspace=Workspace.at(root)))


def _check_task(root: Path, argv: list[str], **limits: float) -> str:
    lines = ["[tasks.check]", f"argv = {json.dumps(argv)}", *(f"{k} = {v}" for k, v in limits.items())]
    return "\n".join(lines) + "\n"


def _mypy(root: Path) -> list[str]:
    return [sys.executable, "-m", "mypy", "--config-file=", "--cache-dir", str(root / ".mypy_cache"), "{file}"]


def test_the_check_tasks_findings_in_the_file_are_in_its_diagnostics(tmp_path: Path) -> None:
    write_trusted_config(tmp_path, _check_task(tmp_path, _mypy(tmp_path)))
    (tmp_path / "calc.py").write_text(TYPE_ERROR)
    result = _run(tmp_path, "diagnostics", path="calc.py")
    found = [(d["source"], d["range"]["start"]["line"] + 1, d["severity"]) for d in result.data["files"]["calc.py"]]
    assert ("mypy", 5, 1) in found, result.text  # compile() accepts it: only the task sees it
    first = result.text.splitlines()[0]
    assert "syntax judged by python-compile" in first and "the `check` task (" in first and "1 finding here" in first
    typed = _run(tmp_path, "diagnostics", path="calc.py", only="types")
    assert typed.data["success"] is False and "the `check` task (" in typed.text.splitlines()[0]


def test_an_untrusted_check_task_is_not_run_and_the_first_line_says_so(tmp_path: Path) -> None:
    mark = tmp_path / "ran"
    argv = [sys.executable, "-c", f"open({str(mark)!r}, 'w').write('ran')"]
    (tmp_path / config.FILENAME).write_text(_check_task(tmp_path, argv))  # not trusted
    (tmp_path / "calc.py").write_text(TYPE_ERROR)
    first = _run(tmp_path, "diagnostics", path="calc.py").text.splitlines()[0]
    assert not mark.exists()
    assert "the `check` task was not run: the workspace's config is not trusted" in first


def test_a_check_task_past_its_time_limit_is_said_on_the_first_line(tmp_path: Path) -> None:
    write_trusted_config(
        tmp_path, _check_task(tmp_path, [sys.executable, "-c", "import time; time.sleep(60)"], timeout_s=1)
    )
    (tmp_path / "calc.py").write_text("x = 1\n")
    first = _run(tmp_path, "diagnostics", path="calc.py").text.splitlines()[0]
    assert "the `check` task (" in first and "timed out after 1 s (0 findings here until then)" in first


def test_without_a_check_task_nothing_more_is_said(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text("x = 1\n")
    first = _run(tmp_path, "diagnostics", path="calc.py").text.splitlines()[0]
    assert "check` task" not in first and first.endswith("syntax judged by python-compile")


def test_an_edit_written_to_disk_answers_with_the_check_tasks_findings(tmp_path: Path) -> None:
    # A rename by a real language server (jedi-language-server, [dev] extras), written.
    from simple_brief.lsp.pool import ServerPool
    from simple_brief.tools import Session

    jedi = Path(sys.executable).parent / "jedi-language-server"
    servers = f'[servers.jedi]\ncommand = ["{jedi}"]\nfiletypes = ["python"]\n'
    write_trusted_config(tmp_path, servers + _check_task(tmp_path, _mypy(tmp_path)))
    (tmp_path / "calc.py").write_text(TYPE_ERROR)
    call = Call(workspace=Workspace.at(tmp_path), session=Session(server_pool=ServerPool))
    try:
        args = {"action": "rename", "path": "calc.py", "line": 1, "col": 5, "new_name": "twice", "apply": True}
        result = invoke("refactor", {**args, "write": True}, call)
    finally:
        call.session.close()
    assert "twice(2)" in (tmp_path / "calc.py").read_text()
    after = result.data["diagnostics_after"]["calc.py"]
    assert any(d["source"] == "mypy" and d["range"]["start"]["line"] == 4 for d in after), after
