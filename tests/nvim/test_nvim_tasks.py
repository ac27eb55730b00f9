"""What the agent's task runs find shows in the person's Neovim: build errors and failing
tests become `vim.diagnostic` entries in their own namespaces (`simple-brief.build`,
`simple-brief.test`), also in files not open yet, and the next run replaces them. A real
headless Neovim, a real make + gcc build, a real pytest run."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pynvim
import pytest

from simple_brief import tools as registry
from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served

from nvim_session import nvim

sys.path.insert(0, str(Path(__file__).parents[1] / "tasks"))
from projects import C_TASKS, c_project, declare, python_project, python_tasks


def _found(nv: pynvim.Nvim, kind: str, path: Path) -> list[dict[str, Any]]:
    result: Any = nv.exec_lua(
        """
        local kind, path = ...
        local ns = vim.api.nvim_create_namespace('simple-brief.' .. kind)
        local buf = vim.fn.bufnr(path)
        if buf == -1 then return {} end
        local out = {}
        for _, d in ipairs(vim.diagnostic.get(buf, { namespace = ns })) do
          out[#out + 1] = { lnum = d.lnum, col = d.col, severity = d.severity, message = d.message, source = d.source }
        end
        return out
        """,
        kind,
        str(path),
    )
    return list(result)


@pytest.fixture
def editor(tmp_path: Path, sockets: Path) -> Iterator[tuple[pynvim.Nvim, NvimBackend, Path]]:
    root = c_project(tmp_path / "app")
    declare(root, C_TASKS)
    address = str(sockets / "nvim.sock")
    with nvim(tmp_path / "nvim", "--listen", address, str(root / "main.c")) as nv:
        backend = NvimBackend.connect(address, lsp_timeout_ms=10000, retry_interval=0)
        try:
            yield nv, backend, root
        finally:
            backend.close()


def _run(backend: NvimBackend, root: Path, tool: str, **args: Any) -> Any:
    state = Served.over(workspace=Workspace.at(root), editor=backend, toolsets=("tasks",))
    try:
        return state.call(registry.get(tool), args)
    finally:
        state.close()


def test_build_errors_show_in_the_buffer_and_the_next_build_clears_them(
    editor: tuple[pynvim.Nvim, NvimBackend, Path],
) -> None:
    nv, backend, root = editor
    failed = _run(backend, root, "build_compile")
    assert failed.data["success"] is False
    shown = _found(nv, "build", (root / "main.c").resolve())
    errors = [d for d in shown if d["severity"] == 1]
    assert errors and errors[0]["lnum"] == 6 and errors[0]["source"] == "gcc"
    assert "did you mean" in errors[0]["message"]

    (root / "main.c").write_text((root / "main.c").read_text().replace("lenght", "length"), encoding="utf-8")
    built = _run(backend, root, "build_compile")
    assert built.data["success"] is True
    assert _found(nv, "build", (root / "main.c").resolve()) == []


def test_failing_tests_show_in_files_not_open_yet(
    editor: tuple[pynvim.Nvim, NvimBackend, Path], tmp_path: Path
) -> None:
    nv, backend, _ = editor
    project = python_project(tmp_path / "py")
    declare(project, python_tasks())
    result = _run(backend, project, "test_run", filter="test_calc")
    assert result.data["failed"] == 2
    test_file = (project / "tests" / "test_calc.py").resolve()
    shown = _found(nv, "test", test_file)
    assert sorted(d["lnum"] for d in shown) == sorted(
        int(r["location"].rsplit(":", 1)[1]) - 1 for r in result.data["results"] if r["status"] == "failed"
    )
    assert all("test_" in d["message"] for d in shown)
    assert nv.exec_lua("return vim.api.nvim_buf_is_loaded(vim.fn.bufnr(...))", str(test_file)) is False
