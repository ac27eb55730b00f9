"""`search` lists its best matches in score order: grouping by file comes after ranking, so
an exact name is not shown after a weaker match only because it sits lower in its file."""

from __future__ import annotations

from pathlib import Path

from simple_brief.files.workspace import Workspace
from simple_brief.tools import Call, invoke

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


def test_a_limit_that_cuts_the_list_says_so_in_the_first_line(tmp_path: Path) -> None:
    """`Found 3 matches` followed by 2 rows must not read as the whole answer: the first
    line says only the best were shown and how to get the rest."""
    (tmp_path / "config.py").write_text(SOURCE + "\n\ndef parse_more():\n    return 1\n")
    result = invoke("search", {"query": "parse", "limit": 2}, Call(workspace=Workspace.at(tmp_path)))
    first = result.blocks[0].splitlines()[0]
    assert first == (
        'Found 3 matches for query "parse" across 1 file; showing the best 2: '
        "raise `limit` or narrow the query for the rest"
    )
    rows = [line for block in result.blocks[1:] for line in block.splitlines() if line.startswith("  @")]
    assert len(rows) == 2
