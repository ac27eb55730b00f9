"""The task tools never start a shell, refuse a shell declared as a task's program, run
nothing the person did not declare (and nothing from an untrusted workspace config)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from projects import C_TASKS, c_project, call_tool, declare, python_project, python_tasks

from simple_brief.files.task_specs import SHELLS


def test_no_tool_ever_starts_a_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[list[str], bool]] = []
    real_init = subprocess.Popen.__init__

    def recording(self: subprocess.Popen[Any], args: Any, *rest: Any, **kwargs: Any) -> None:
        started.append(([str(a) for a in args], bool(kwargs.get("shell"))))
        real_init(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", recording)
    for forbidden in ("system", "popen"):
        monkeypatch.setattr(os, forbidden, lambda *a, name=forbidden, **k: pytest.fail(f"os.{name} was called"))
    project = python_project(tmp_path / "py")
    declare(project, python_tasks())
    call_tool(project, "test_run", filter="test_add")
    call_tool(project, "test_list")
    c = c_project(tmp_path / "c")
    declare(c, C_TASKS)
    call_tool(c, "build_compile")
    assert started, "the tools started nothing?"
    for argv, shell in started:
        assert not shell, argv
        program = [a for a in argv if not a.startswith("-")]
        assert Path(argv[0]).name not in SHELLS, argv
        # the memory launcher execs the program itself: its target is not a shell either
        if "-c" in argv and "resource" in " ".join(argv):
            assert Path(argv[argv.index("-c") + 3]).name not in SHELLS, argv
        assert program


@pytest.mark.parametrize("program", ["bash", "sh", "/bin/sh"])
def test_a_shell_declared_as_a_task_is_refused(tmp_path: Path, program: str) -> None:
    root = c_project(tmp_path / "c")
    declare(root, f'[tasks.build]\nargv = ["{program}", "-c", "make && touch pwned"]\n')
    with pytest.raises(Exception, match="never runs commands through a shell"):
        call_tool(root, "build_compile")
    assert not (root / "pwned").exists()


def test_a_command_string_is_refused_when_the_config_is_read(tmp_path: Path) -> None:
    root = c_project(tmp_path / "c")
    declare(root, '[tasks.build]\nargv = "make && touch pwned"\n')
    with pytest.raises(Exception, match="one string"):
        call_tool(root, "build_compile")


def test_an_untrusted_workspace_task_is_not_run(tmp_path: Path) -> None:
    root = c_project(tmp_path / "c")
    (root / ".simple-brief.toml").write_text('[tasks.build]\nargv = ["make"]\n', encoding="utf-8")
    result = call_tool(root, "build_compile")
    assert result.data["declared"] is False
    assert "not trusted" in result.text and "[tasks.build]" in result.text
    assert not (root / "app").exists()
