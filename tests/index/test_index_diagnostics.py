"""Workspace-wide diagnostics read the scan's findings the index stored, instead of parsing
every file on every call; the answer is the same as parsing."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from index_helpers import cache_dir_fixture, tree_fixture  # noqa: F401  (fixtures)

from simple_brief import tools as registry
from simple_brief.files.workspace import Workspace
from simple_brief.index import answer

FIXTURES = Path(__file__).parent.parent / "fixtures" / "outline"


def _diagnostics(root: Path, path: str | None = None) -> str:
    return registry.load()["diagnostics"].func(registry.Call(Workspace.at(root)), path=path).text


def test_stored_findings_answer_as_parsing_does(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(FIXTURES, tree / "fixtures")
    (tree / "broken.py").write_text("def broken(:\n    return (\n")
    indexed = _diagnostics(tree), _diagnostics(tree, "fixtures"), _diagnostics(tree)
    assert "broken.py" in indexed[0]
    monkeypatch.setattr(answer, "fresh_index", lambda *args: None)  # (read.py imports it per call)
    assert (_diagnostics(tree), _diagnostics(tree, "fixtures"), _diagnostics(tree)) == indexed


def test_unchanged_files_are_not_parsed_again(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tree / "broken.py").write_text("def broken(:\n    return (\n")
    _diagnostics(tree)
    parsed: list[Any] = []
    outline = Workspace.outline

    def counting(self: Workspace, path: Any, filetype: str | None = None) -> Any:
        parsed.append(path)
        return outline(self, path, filetype)

    monkeypatch.setattr(Workspace, "outline", counting)
    text = _diagnostics(tree)
    assert "broken.py" in text
    assert parsed == []
    ws = Workspace.at(tree)
    ws.set_overlay("shlex.py", "def fine():\n    pass\n")
    registry.load()["diagnostics"].func(registry.Call(ws))
    assert [Path(p).name for p in parsed] == ["shlex.py"]
