"""The README's and `:help`'s language lists are the registry's (issue 28): `make languages`
writes them (`simple_brief/languages/_lists.py`), and this fails while they differ."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.languages import _lists

ROOT = Path(__file__).resolve().parents[2]


def test_readme_and_help_list_every_language_of_the_registry() -> None:
    assert _lists.stale(ROOT) == [], "run `make languages`"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    help_text = (ROOT / "doc" / "simple-brief.txt").read_text(encoding="utf-8")
    for spec in languages.LANGUAGES:
        assert spec.display_name in readme and spec.display_name in help_text, spec.name
    assert f"({len(languages.LANGUAGES)} languages)" in readme
    assert f"outline ({len(languages.LANGUAGES)})" in help_text


def test_a_new_unit_joins_both_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    vimdoc = dataclasses.replace(languages.LANGUAGES[0], name="vimdoc", title="")
    monkeypatch.setattr(_lists, "LANGUAGES", (*languages.LANGUAGES, vimdoc))
    readme = _lists.with_readme_list((ROOT / "README.md").read_text(encoding="utf-8"))
    help_text = _lists.with_help_list((ROOT / "doc" / "simple-brief.txt").read_text(encoding="utf-8"))
    count = len(languages.LANGUAGES) + 1
    assert f"({count} languages)" in readme and "Vimdoc" in readme
    assert f"outline ({count})" in help_text and "Vimdoc" in help_text


def test_the_help_names_the_filetype_where_the_name_differs() -> None:
    text = _lists.help_list()
    assert "C# (cs)" in text and "TSX (typescriptreact)" in text and "Bash (sh)" in text
    assert "Python (" not in text
    assert all(len(line) <= 78 for line in text.splitlines())


def test_lost_markers_are_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "doc").mkdir()
    (tmp_path / "README.md").write_text("# A readme without the markers\n", encoding="utf-8")
    (tmp_path / "doc" / "simple-brief.txt").write_text("help\n", encoding="utf-8")
    assert _lists.main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "README.md has no" in err and "put them back" in err


def test_check_says_which_files_differ(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "doc").mkdir()
    readme = (ROOT / "README.md").read_text(encoding="utf-8").replace(", Zig", "")
    (tmp_path / "README.md").write_text(readme.replace(" and Zig", ""), encoding="utf-8")
    help_path = tmp_path / "doc" / "simple-brief.txt"
    help_path.write_text((ROOT / "doc" / "simple-brief.txt").read_text(encoding="utf-8"), encoding="utf-8")
    assert _lists.main(["--check", str(tmp_path)]) == 1
    assert "README.md" in capsys.readouterr().out
    assert _lists.main([str(tmp_path)]) == 0
    assert _lists.stale(tmp_path) == []
