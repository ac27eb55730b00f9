"""Issue 11, item 5: what simple-brief writes for itself is 0600 in 0700 folders — the
trust database, the MCP HTTP server file (its token), and every folder created on the way."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from simple_brief.files.private_files import private_dir, write_private
from simple_brief.servers.mcp import write_server_file


@pytest.fixture(autouse=True)
def open_umask() -> Iterator[None]:
    """The usual umask 022: without care, new files are 0644 and folders 0755."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_every_missing_folder_on_the_way_is_0700(tmp_path: Path) -> None:
    private_dir(tmp_path / "a" / "b" / "c")
    assert [mode(tmp_path / p) for p in ("a", "a/b", "a/b/c")] == [0o700, 0o700, 0o700]


def test_a_written_file_is_0600_and_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "state" / "deep" / "trust"
    write_private(target, b"one\n")
    write_private(target, b"two\n")
    assert target.read_bytes() == b"two\n" and mode(target) == 0o600
    assert mode(target.parent) == 0o700 and mode(target.parent.parent) == 0o700
    assert sorted(p.name for p in target.parent.iterdir()) == ["trust"]  # no temporary file left


def test_the_http_server_file_with_its_token_is_private(tmp_path: Path) -> None:
    path = write_server_file(tmp_path / "state" / "servers", 4242, "secret-token", tmp_path)
    assert mode(path) == 0o600 and mode(path.parent) == 0o700 and mode(path.parent.parent) == 0o700
