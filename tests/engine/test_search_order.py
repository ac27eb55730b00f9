"""`search` lists its best matches in score order: grouping by file comes after ranking, so
an exact name is not shown after a weaker match only because it sits lower in its file."""

from __future__ import annotations

from pathlib import Path

from simple_brief.tools import Call, invoke
from simple_brief.workspace import Workspace

SOURCE = """def parse_settings_from_environment():
    return {}


def parse():
    return None
"""


def test_within_a_file_the_best_match_comes_first(tmp_path: Path) -> None:
    (tmp_path / "config.py").write_text(SOURCE)
    result = invoke("search", {"query": "parse"}, Call(workspace=Workspace.at(tmp_path)))
    block = result.blocks[1].splitlines()
    assert block[0] == "config.py (2 results)"
    rows = [line.strip() for line in block if line.startswith("  @")]
    assert rows == ["@5:5 Function - parse", "@1:5 Function - parse_settings_from_environment"]
