"""A damaged or foreign index file is set aside and rebuilt with one warning; nothing
SQLite would follow or block on is opened."""

from __future__ import annotations

import logging
import sqlite3
import stat
from pathlib import Path

import pytest
from index_helpers import cache_dir_fixture, index_text, scan_text, tree_fixture  # noqa: F401  (fixtures)

from simple_brief.files.workspace import Workspace
from simple_brief.index import store, symbol_index


def _db(tree: Path, cache_dir: Path) -> Path:
    return store.db_path(tree.resolve(), cache_dir)


def _rebuilt(tree: Path, caplog: pytest.LogCaptureFixture) -> str:
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="simple_brief.index.store"):
        ws = Workspace.at(tree)
        assert index_text(ws, "decode") == scan_text(tree, "decode")
    warnings = [r.getMessage() for r in caplog.records if "rebuilt" in r.getMessage()]
    assert len(warnings) == 1, warnings
    return warnings[0]


def test_the_file_is_0600_in_a_0700_folder(tree: Path, cache_dir: Path) -> None:
    symbol_index(Workspace.at(tree)).refresh()
    path = _db(tree, cache_dir)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_garbage_file_is_set_aside_and_rebuilt(tree: Path, cache_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = _db(tree, cache_dir)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database at all" * 100)
    assert "not a SQLite database" in _rebuilt(tree, caplog)
    assert path.with_name(path.name + ".corrupt").read_bytes().startswith(b"not a database")


def test_a_symlink_in_its_place_is_removed_and_its_target_untouched(
    tree: Path, cache_dir: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _db(tree, cache_dir)
    path.parent.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    path.symlink_to(victim)
    assert "symlink" in _rebuilt(tree, caplog)
    assert victim.read_text() == "keep me"
    assert not path.is_symlink()


def test_another_schema_version_is_rebuilt(tree: Path, cache_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    symbol_index(Workspace.at(tree)).refresh()
    path = _db(tree, cache_dir)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    assert "schema version 0" in _rebuilt(tree, caplog)


def test_a_database_of_another_program_is_rebuilt(
    tree: Path, cache_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _db(tree, cache_dir)
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE songs(title TEXT)")
    conn.commit()
    conn.close()
    assert "another program" in _rebuilt(tree, caplog)


def test_damage_found_by_a_query_rebuilds_and_indexes_again(
    tree: Path, cache_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ws = Workspace.at(tree)
    index = symbol_index(ws)
    index.refresh()
    index.conn.execute("DROP TABLE symbols")
    with caplog.at_level(logging.WARNING, logger="simple_brief.index.store"):
        assert index_text(ws, "decode") == scan_text(tree, "decode")
    assert any("damaged" in r.getMessage() for r in caplog.records)
    assert _db(tree, cache_dir).with_name(_db(tree, cache_dir).name + ".corrupt").exists()
    assert index.refresh().parsed == 0
