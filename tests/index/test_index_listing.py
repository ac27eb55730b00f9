"""`Workspace.listed_file` and `listed_folder` (what the watcher's changed paths are checked
with) agree with the listing `files()` walks, file by file."""

from __future__ import annotations

import os
from pathlib import Path

from index_helpers import cache_dir_fixture, tree_fixture  # noqa: F401  (fixtures)

from simple_brief.files.workspace import LISTING_MAX_BYTES, SKIP_BINARY, SKIP_TOO_BIG, Workspace


def test_listed_file_agrees_with_the_listing(tree: Path) -> None:
    (tree / ".gitignore").write_text("ignored/\n*.gen.py\n!keep.gen.py\n")
    (tree / "ignored").mkdir()
    (tree / "ignored" / "a.py").write_text("x = 1\n")
    (tree / "json" / "b.gen.py").write_text("x = 1\n")
    (tree / "json" / "keep.gen.py").write_text("x = 1\n")
    (tree / "json" / ".gitignore").write_text("tool.py\n")
    (tree / "node_modules").mkdir()
    (tree / "node_modules" / "m.js").write_text("var a;\n")
    (tree / "big.py").write_text("#" * (LISTING_MAX_BYTES + 1))
    (tree / "blob.py").write_bytes(b"\0\0binary")
    (tree / "notes.txt").write_text("plain\n")
    (tree / ".env").write_text("SECRET=1\n")
    os.symlink(tree / "shlex.py", tree / "link.py")
    os.symlink("/etc/hostname", tree / "outside.py")
    ws = Workspace.at(tree)
    skipped: dict[Path, str] = {}
    listed = set(ws.files(skipped=skipped.__setitem__))
    assert skipped == {tree / "big.py": SKIP_TOO_BIG, tree / "blob.py": SKIP_BINARY}
    every = [Path(folder, name) for folder, _, names in os.walk(tree) for name in names]
    assert len(every) > len(listed) + 5
    for path in every:
        want = None if path in listed else skipped.get(path, "unlisted")
        assert ws.listed_file(path) == want, path
    assert ws.listed_folder(tree / "json")
    assert not ws.listed_folder(tree / "ignored")
    assert not ws.listed_folder(tree / "node_modules")
