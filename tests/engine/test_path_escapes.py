"""Names are data (issue 26 §6): a file name is shown escaped as `ls -b` would, the escaped
form names the file again, and nothing that stores or shows a name meets a lone surrogate."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simple_brief.editor import Snapshot
from simple_brief.editor.context import build_context, context_line
from simple_brief.errors import UserError
from simple_brief.files.path_escapes import escape_path, escape_surrogates, escape_surrogates_in, unescape_path
from simple_brief.files.workspace import Workspace
from simple_brief.index import symbol_index
from simple_brief.index.answer import find_symbols
from simple_brief.intel.protocol import path_to_uri, uri_to_path

#: (name as Python reads it from disk, as shown)
SHOWN = [
    ("bad\udcff.py", "bad\\xff.py"),
    ("new\nline.py", "new\\nline.py"),
    ("tab\tname.py", "tab\\tname.py"),
    ("cr\rname.py", "cr\\rname.py"),
    ("esc\x1b[31m.py", "esc\\x1b[31m.py"),
    ("del\x7f.py", "del\\x7f.py"),
    ("nel\x85.py", "nel\\xc2\\x85.py"),
    ("bidi\u202egnp.py", "bidi\\xe2\\x80\\xaegnp.py"),
    ("back\\slash.py", "back\\\\slash.py"),
    ("café_中文.py", "café_中文.py"),
    ("pipe|`tick` -rf.py", "pipe|`tick` -rf.py"),
]


@pytest.mark.parametrize(("name", "shown"), SHOWN)
def test_a_name_is_shown_as_ls_b_would_and_reads_back(name: str, shown: str) -> None:
    assert escape_path(name) == shown
    assert unescape_path(shown) == name
    assert shown.isprintable()
    shown.encode("utf-8")


def test_unescaping_leaves_what_is_not_an_escape() -> None:
    assert unescape_path("a\\q\\") == "a\\q\\"
    assert unescape_path("plain.py") == "plain.py"


def test_surrogates_alone_are_escaped_in_text_and_data() -> None:
    assert escape_surrogates("line\n\tbad\udcff") == "line\n\tbad\\xff"
    assert escape_surrogates_in({"p\udcfe": ["x\udcff", 1, None]}) == {"p\\xfe": ["x\\xff", 1, None]}


def hostile(root: Path) -> None:
    (root / "ok.py").write_text("def ok_func():\n    pass\n")
    for raw in (b"bad\xff.py", b"new\nline.py"):
        with open(os.path.join(os.fsencode(root), raw), "w") as handle:
            handle.write("def bad_func():\n    pass\n")


def test_the_workspace_shows_names_escaped_and_resolves_the_escaped_form(tmp_path: Path) -> None:
    hostile(tmp_path)
    ws = Workspace.at(tmp_path)
    shown = sorted(ws.display(path) for path in ws.files())
    assert shown == ["bad\\xff.py", "new\\nline.py", "ok.py"]
    assert ws.resolve("bad\\xff.py") == tmp_path / "bad\udcff.py"
    assert ws.resolve("new\\nline.py") == tmp_path / "new\nline.py"
    assert ws.read("bad\\xff.py")[1].text.startswith("def bad_func")
    with pytest.raises(UserError, match=r"'nope\\\\x01\.py' does not exist"):
        ws.read("nope\\x01.py")


def test_a_file_named_like_its_escaped_neighbour_is_still_itself(tmp_path: Path) -> None:
    hostile(tmp_path)
    (tmp_path / "bad\\xff.py").write_text("literal = 1\n")
    ws = Workspace.at(tmp_path)
    assert ws.resolve("bad\\xff.py") == tmp_path / "bad\\xff.py"
    assert ws.display(tmp_path / "bad\\xff.py") == "bad\\\\xff.py"
    assert ws.resolve("bad\\\\xff.py") == tmp_path / "bad\\xff.py"


def test_the_symbol_index_stores_and_finds_names_that_are_not_utf8(tmp_path: Path) -> None:
    hostile(tmp_path)
    ws = Workspace.at(tmp_path)
    found = find_symbols(ws, "bad_func", display=ws.display)
    assert sorted(match.path for match in found.matches) == ["bad\\xff.py", "new\\nline.py"]
    # A second process (a fresh Workspace) reads the stored names back.
    again = Workspace.at(tmp_path)
    assert sorted(m.path for m in find_symbols(again, "bad_func", display=again.display).matches) == [
        "bad\\xff.py",
        "new\\nline.py",
    ]
    state = symbol_index(again).file_state("bad\udcff.py")
    assert state is not None and state.skipped is None


def test_a_tree_the_watcher_cannot_decode_is_walked_not_watched_again_per_call(tmp_path: Path) -> None:
    os.mkdir(os.path.join(os.fsencode(tmp_path), b"dir\xfe"))
    (tmp_path / "ok.py").write_text("def ok_func():\n    pass\n")
    index = symbol_index(Workspace.at(tmp_path))
    try:
        assert index.watch()
        watcher = index._watcher
        assert watcher is not None
        watcher._thread.join(timeout=30)  # it stops at once on the name it cannot decode
        assert watcher.lasting_failure
        assert not index.watch()  # no new watcher walking the tree on every call
        assert index._watcher is watcher
    finally:
        index.close()


def test_the_editor_context_shows_the_file_escaped(tmp_path: Path) -> None:
    snap = Snapshot(path=tmp_path / "bad\udcff\n.py", filetype="python", line_count=1, modified=False, cursor=(1, 1))
    ctx = build_context(snap, [])
    assert ctx["file"]["path"] == escape_path(str(tmp_path)) + "/bad\\xff\\n.py"
    assert context_line(ctx, tmp_path).startswith("editor: bad\\xff\\n.py:1:1")


def test_a_language_server_uri_names_the_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad\udcff é.py"
    uri = path_to_uri(path)
    assert uri.endswith("/bad%FF%20%C3%A9.py")
    assert uri_to_path(uri) == path


def test_a_name_a_language_server_sent_back_double_encoded_is_the_file(tmp_path: Path) -> None:
    """vscode-uri (basedpyright, pyright) cannot decode `%FF` and escapes its `%`."""
    path = tmp_path / "bad\udcff.py"
    path.write_text("x = 1\n")
    (tmp_path / "100%25.py").write_text("y = 1\n")
    assert uri_to_path(path_to_uri(path).replace("%FF", "%25FF")) == path
    assert uri_to_path(path_to_uri(tmp_path / "100%25.py")) == tmp_path / "100%25.py"
    assert uri_to_path(path_to_uri(tmp_path / "gone%41.py")) == tmp_path / "gone%41.py"
