"""The docs index's safety (issue 11): nothing outside the root but the named libraries and
the folders listed under [docs] folders, read without following symlinks, secrets never
indexed nor shown; per-call limits; queries never wait for a long index; every damaged
layout of the database rebuilt without losing the list of libraries; private modes.

Real files, real SQLite files in tmp_path, real threads with bounded waits; no mocks.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from simple_brief import tools as tools_module
from simple_brief.docs import index as docs_index_module
from simple_brief.docs import indexing
from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.workspace import Workspace
from simple_brief.index import close_symbol_index, docs_index
from simple_brief.tools import Call, Session, ToolResult, invoke

#: Seconds a test waits for another thread before it calls that a hang.
BOUND = 30.0


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A small workspace: a Python package with one documented function."""
    base = tmp_path / "ws"
    write(base / "shop/__init__.py", '"""The shop."""\n')
    write(base / "shop/cart.py", 'def checkout(cart: list) -> int:\n    """Pay for a cart."""\n    return 1\n')
    return base


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the workspace that nobody listed."""
    base = tmp_path / "outside"
    write(base / "leak.py", 'def leaked_helper() -> None:\n    """Zanzibar private outside code."""\n')
    write(base / "pkg/__init__.py", 'def hidden_thing() -> None:\n    """Zanzibar inside a linked folder."""\n')
    return base


@pytest.fixture
def vendor(tmp_path: Path) -> Path:
    """A library folder (listed by the tests that index it)."""
    base = tmp_path / "libs" / "vendorlib"
    write(base / "strings.py", 'def split_words(text: str) -> list:\n    """Split text into words."""\n')
    return base


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(folder))
    return folder


def user_config(monkeypatch: pytest.MonkeyPatch, where: Path, text: str) -> None:
    path = where / "user-config.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("SIMPLE_BRIEF_CONFIG", str(path))


def list_folders(monkeypatch: pytest.MonkeyPatch, where: Path, *folders: Path) -> None:
    """List `folders` under [docs] folders in a user config of the test's own."""
    user_config(monkeypatch, where, "[docs]\nfolders = [" + ", ".join(f'"{f}"' for f in folders) + "]\n")


def tool(ws: Workspace, session: Session, name: str, **args: Any) -> ToolResult:
    return invoke(name, args, Call(ws, session=session))


def bounded(run: Callable[[], Any], unblock: Callable[[], None] = lambda: None) -> Any:
    """`run()` on a thread, given BOUND seconds; a hang fails the test (after `unblock`)."""
    out: dict[str, Any] = {}

    def target() -> None:
        try:
            out["value"] = run()
        except BaseException as exc:  # handed to the test's thread
            out["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(BOUND)
    if thread.is_alive():
        unblock()
        thread.join(BOUND)
        pytest.fail(f"still running after {BOUND:g} s: it hung")
    if "error" in out:
        raise out["error"]
    return out["value"]


def ids(result: ToolResult) -> set[str]:
    return {r["id"] for r in result.data["results"]}


# ---------------------------------------------------------------- 1. nothing outside the root


@pytest.mark.parametrize("given", ["../outside", "~", "~/outside", "ABSOLUTE", "ABSOLUTE/../outside"])
def test_docs_index_refuses_any_folder_not_listed(
    root: Path, outside: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # `~` is the test's folder: the old code indexed it
    library = given.replace("ABSOLUTE", str(outside))
    ws, session = Workspace.at(root), Session()
    with pytest.raises(UserError) as refused:
        tool(ws, session, "docs", action="index", library=library)
    message = str(refused.value)
    assert message.startswith("library `") and "is not one docs action=index may read" in message
    assert "[docs]" in message and "folders = [" in message and "\n" not in message
    assert message.count(". ") == 0 and message.endswith(".")  # one sentence
    assert not ids(tool(ws, session, "docs", action="search", query="zanzibar"))
    session.close()


def test_a_listed_folder_is_named_by_its_path_or_its_last_part(
    root: Path, vendor: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    list_folders(monkeypatch, tmp_path, vendor)
    ws, session = Workspace.at(root), Session()
    by_name = tool(ws, session, "docs", action="index", library="vendorlib")
    assert by_name.data["library"] == "vendorlib" and by_name.data["files_indexed"] == 1
    by_path = tool(ws, session, "docs", action="index", library=str(vendor))
    assert by_path.data["library"] == "vendorlib" and by_path.data["files_indexed"] == 0
    relative = tool(ws, session, "docs", action="index", library="../libs/vendorlib")  # relative to the workspace root
    assert relative.data["library"] == "vendorlib"
    assert ids(tool(ws, session, "docs", action="search", query="split words", library="vendorlib")) == {
        "strings.split_words"
    }
    session.close()


def test_indexing_a_listed_folder_reads_the_config_once_per_call(
    root: Path, vendor: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The call's config (read once, by the host before the call) names the listed folders: the docs index
    does not read and parse the config files again (issue 27)."""
    list_folders(monkeypatch, tmp_path, vendor)
    ws, session = Workspace.at(root), Session()
    call = Call(ws, session=session, loaded_config=config.load(root))  # as the host makes it
    reads: list[Path] = []
    real_load = config.load

    def counted(where: Path, *args: Any, **kwargs: Any) -> config.Config:
        reads.append(where)
        return real_load(where, *args, **kwargs)

    monkeypatch.setattr(config, "load", counted)
    monkeypatch.setattr(tools_module, "load_config", counted)
    indexed = invoke("docs", {"action": "index", "library": "vendorlib"}, call)
    session.close()
    assert indexed.data["files_indexed"] == 1
    assert reads == []


def test_library_files_are_read_without_following_symlinks(
    root: Path, vendor: Path, outside: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    list_folders(monkeypatch, tmp_path, vendor)
    (vendor / "leak.py").symlink_to(outside / "leak.py")  # a file leading out of the library
    (vendor / "linked").symlink_to(outside / "pkg", target_is_directory=True)  # a folder leading out
    index = docs_index(Workspace.at(root))
    stats = index.index_library(str(vendor))
    assert stats.files_indexed == 1
    assert not index.search("zanzibar")
    assert index.get("leak.leaked_helper") is None
    index.close()


def test_secrets_files_of_a_library_are_never_indexed(
    root: Path, vendor: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    list_folders(monkeypatch, tmp_path, vendor)
    write(vendor / "secrets.py", 'def api_token() -> str:\n    """Zanzibar token."""\n')
    write(vendor / "sub/credentials_store.py", 'def password() -> str:\n    """Zanzibar password."""\n')
    index = docs_index(Workspace.at(root))
    assert index.index_library(str(vendor)).files_indexed == 1
    assert not index.search("zanzibar")
    assert index.get("secrets.api_token") is None
    index.close()


def test_items_of_a_file_that_became_secret_are_never_shown(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(root / "shop/keys.py", 'def master_key() -> str:\n    """Zanzibar master key."""\n')
    first = docs_index(Workspace.at(root))
    first.refresh(force=True)
    assert first.get("shop.keys.master_key") is not None
    first.close()
    user_config(monkeypatch, tmp_path, '[secrets]\ndeny = ["keys.py"]\n')
    index = docs_index(Workspace.at(root))  # answers from the stored rows, before any refresh
    assert not index.search("zanzibar") and index.get("shop.keys.master_key") is None
    assert not index.resolve("master_key") and not index.list_module("shop.keys").items
    index.refresh(force=True)
    with sqlite3.connect(index.path) as conn:
        assert conn.execute("SELECT count(*) FROM files WHERE path = 'shop/keys.py'").fetchone()[0] == 0
    index.close()


def test_workspace_files_are_read_through_the_workspace(root: Path, outside: Path) -> None:
    """A file indexed from an overlay is read from disk again once the overlay is gone; by
    then it is a symlink leading out of the workspace: never followed."""
    index = docs_index(Workspace.at(root))
    index.refresh(force=True)
    draft = (root / "shop/draft.py").resolve()
    index.workspace.overlays[draft] = 'def drafted() -> None:\n    """Only a draft."""\n'
    assert index.refresh().files_indexed == 1
    draft.symlink_to(outside / "leak.py")
    del index.workspace.overlays[draft]
    index.refresh()  # within the walk interval: the file indexed from the overlay is read again
    assert not index.search("zanzibar") and index.get("shop.draft.leaked_helper") is None
    index.close()


# ---------------------------------------------------------------- 2. limits, and queries never wait


def big_library(tmp_path: Path, files: int) -> Path:
    folder = tmp_path / "biglib"
    for n in range(files):
        write(folder / f"mod{n:04}.py", f'def widget_{n}() -> int:\n    """Compute widget number {n}."""\n')
    return folder


def test_a_search_answers_while_a_big_library_is_being_indexed(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = big_library(tmp_path, 300)
    list_folders(monkeypatch, tmp_path, lib)
    monkeypatch.setattr(indexing, "BATCH_FILES", 10)
    ws, session = Workspace.at(root), Session()
    tool(ws, session, "docs", action="search", query="checkout")  # the session's index is open
    paused, release = threading.Event(), threading.Event()

    def pause(done: float, total: float | None, message: str) -> None:
        if done >= 100 and not paused.is_set():
            paused.set()
            release.wait(BOUND)

    indexed: dict[str, Any] = {}
    indexer = threading.Thread(
        target=lambda: indexed.update(
            result=invoke("docs", {"action": "index", "library": str(lib)}, Call(ws, session=session, progress=pause))
        ),
        daemon=True,
    )
    indexer.start()
    try:
        assert paused.wait(BOUND), "the index never reported progress"
        # The index is paused in the middle; a docs_search from another thread answers now.
        found = bounded(lambda: tool(ws, session, "docs", action="search", query="compute widget", library="biglib"))
        assert indexer.is_alive() and "result" not in indexed  # the index has not finished
        assert found.data["results"], found.text  # from what is indexed so far
    finally:
        release.set()
        indexer.join(BOUND)
    assert indexed["result"].data["files_indexed"] == 300
    session.close()


def test_a_search_does_not_wait_for_a_docs_index_of_the_workspace(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(150):
        write(root / f"gadgets/g{n:03}.py", f'def gadget_{n}() -> int:\n    """Build gadget number {n}."""\n')
    monkeypatch.setattr(indexing, "BATCH_FILES", 10)
    monkeypatch.setattr(docs_index_module, "WAIT_SECONDS", 3600.0, raising=False)  # a wait is a hang here
    ws, session = Workspace.at(root), Session()
    paused, release = threading.Event(), threading.Event()

    def pause(done: float, total: float | None, message: str) -> None:
        if done >= 100 and not paused.is_set():
            paused.set()
            release.wait(BOUND)

    indexer = threading.Thread(
        target=lambda: invoke("docs", {"action": "index"}, Call(ws, session=session, progress=pause)), daemon=True
    )
    indexer.start()
    try:
        assert paused.wait(BOUND), "the index never reported progress"
        found = bounded(lambda: tool(ws, session, "docs", action="search", query="build gadget"))
        assert indexer.is_alive()
        assert found.data["results"] and "[Not refreshed: another docs call is still indexing" in found.text
    finally:
        release.set()
        indexer.join(BOUND)
    session.close()


def test_a_call_stops_at_the_file_limit_and_running_it_again_continues(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = big_library(tmp_path, 25)
    list_folders(monkeypatch, tmp_path, lib)
    monkeypatch.setattr(indexing, "MAX_FILES", 10)
    ws, session = Workspace.at(root), Session()
    first = tool(ws, session, "docs", action="index", library=str(lib))
    assert first.data["files_indexed"] == 10 and first.data["files_left"] == 15
    note = first.text.splitlines()[1]
    assert note == (
        "[Indexing biglib stopped at the 10-file limit of one call with 15 files left; "
        "what was indexed is kept, and running docs action=index again continues from there.]"
    )
    assert tool(ws, session, "docs", action="index", library=str(lib)).data["files_indexed"] == 10
    last = tool(ws, session, "docs", action="index", library=str(lib))
    assert last.data["files_indexed"] == 5 and last.data["stopped"] is None and "stopped" not in last.text
    assert len(ids(tool(ws, session, "docs", action="search", query="widget", library="biglib", limit=30))) == 25
    session.close()


def test_a_call_stops_at_the_time_limit_having_indexed_something(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = big_library(tmp_path, 3)
    list_folders(monkeypatch, tmp_path, lib)
    monkeypatch.setattr(indexing, "MAX_SECONDS", 0.0)
    index = docs_index(Workspace.at(root))
    runs = [index.index_library(str(lib)) for _ in range(3)]
    assert [s.files_indexed for s in runs] == [1, 1, 1]
    assert [s.stopped for s in runs[:2]] == ["the 0-second limit of one call"] * 2
    assert runs[2].stopped is None  # nothing left
    index.close()


class Stop(Exception):
    """What a cancelled call raises from its progress report."""


def test_an_exception_from_progress_leaves_the_database_consistent_and_unlocked(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = big_library(tmp_path, 200)
    list_folders(monkeypatch, tmp_path, lib)
    index = docs_index(Workspace.at(root))

    def cancel(done: float, total: float | None, message: str) -> None:
        if done >= 150:
            raise Stop

    with pytest.raises(Stop):
        index.index_library(str(lib), cancel)
    with sqlite3.connect(index.path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = conn.execute("SELECT count(*), sum(items) FROM files WHERE library = 'biglib'").fetchone()
        items = conn.execute("SELECT count(*) FROM items WHERE library = 'biglib'").fetchone()[0]
        assert 0 < stored[0] < 200 and stored[1] == items  # whole batches only
        assert (
            conn.execute("SELECT count(*) FROM items_fts").fetchone()[0]
            == conn.execute("SELECT count(*) FROM items").fetchone()[0]
        )
    # Nothing stays locked: another thread indexes the rest and answers at once.
    again = bounded(lambda: index.index_library(str(lib)))
    assert again.files_indexed == 200 - stored[0]
    assert bounded(lambda: index.search("widget", library="biglib"))
    index.close()


# ---------------------------------------------------------------- 3. nothing lost on a rebuild

LAYOUTS = ["corrupt", "truncated", "deleted_with_wal", "folder", "dangling_symlink", "fifo"]


def damage(path: Path, layout: str, saved_wal: Path, elsewhere: Path) -> None:
    """Leave the closed database at `path` in `layout`."""
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if layout == "corrupt":
        path.write_bytes(b"this is not a database at all \x00\xff" * 300)
    elif layout == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif layout == "deleted_with_wal":
        path.unlink()
        shutil.copy(saved_wal, f"{path}-wal")
    elif layout == "folder":
        path.unlink()
        write(path / "something.txt", "a folder where the database was")
    elif layout == "dangling_symlink":
        path.unlink()
        path.symlink_to(elsewhere)
    else:
        path.unlink()
        os.mkfifo(path)


def unblock_fifo(path: Path) -> None:
    """Give a reader blocked on the FIFO at `path` an end of file."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno not in (errno.ENXIO, errno.ENOENT):
            raise
        return
    os.close(fd)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_damaged_database_is_rebuilt_keeping_the_list_of_libraries(
    root: Path, vendor: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str
) -> None:
    list_folders(monkeypatch, tmp_path, vendor)
    ws = Workspace.at(root)
    first = Session()
    tool(ws, first, "docs", action="index", library=str(vendor))
    tool(ws, first, "docs", action="search", query="checkout")
    path: Path = docs_index(ws).path
    saved_wal = tmp_path / "saved-wal"
    shutil.copy(f"{path}-wal", saved_wal)
    first.close()
    close_symbol_index(ws)  # what the host does as the workspace closes: its docs index with it
    elsewhere = tmp_path / "elsewhere" / "target.sqlite3"
    elsewhere.parent.mkdir()
    damage(path, layout, saved_wal, elsewhere)

    second = Session()
    answer = bounded(lambda: tool(ws, second, "docs", action="search", query="checkout"), lambda: unblock_fifo(path))
    note = answer.text.splitlines()[0]
    # The answer says which library was lost and exactly how to index it again.
    assert f"library={vendor}" in note, answer.text
    assert note.startswith("[The docs database was rebuilt because ") and note.endswith(".]"), answer.text
    assert "the workspace was indexed again (2 files)" in note
    assert (
        f"the libraries indexed before (vendorlib) must be indexed again: run docs action=index with library={vendor}"
        in note
    )
    assert answer.data["results"][0]["id"] == "shop.cart.checkout"
    assert answer.data["scope"] == "workspace"  # vendorlib is not claimed to be indexed
    assert stat.S_ISREG(os.lstat(path).st_mode) and not elsewhere.exists()
    # Done as told: the library is back, and the next calls say nothing of a rebuild.
    again = tool(ws, second, "docs", action="index", library=str(vendor))
    assert again.data["files_indexed"] == 1 and "rebuilt" not in again.text
    found = tool(ws, second, "docs", action="search", query="split words", library="vendorlib")
    assert ids(found) == {"strings.split_words"} and "rebuilt" not in found.text
    second.close()
    third = Session()
    assert "rebuilt" not in bounded(lambda: tool(ws, third, "docs", action="search", query="checkout")).text
    third.close()


def test_a_rebuild_during_docs_index_advises_only_the_other_libraries(
    root: Path, vendor: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "libs" / "otherlib"
    write(other / "nums.py", 'def add(a: int, b: int) -> int:\n    """Add two numbers."""\n')
    list_folders(monkeypatch, tmp_path, vendor, other)
    ws, first = Workspace.at(root), Session()
    tool(ws, first, "docs", action="index", library=str(vendor))
    tool(ws, first, "docs", action="index", library=str(other))
    path: Path = docs_index(ws).path
    first.close()
    close_symbol_index(ws)  # what the host does as the workspace closes: its docs index with it
    damage(path, "corrupt", path, path)
    second = Session()
    answer = tool(ws, second, "docs", action="index", library=str(vendor))
    note = answer.text.splitlines()[1]
    assert note == (
        "[The docs database was rebuilt because it is not a SQLite database (corrupt); vendorlib was indexed "
        "again now and the workspace is indexed again by the next docs call, and the libraries indexed before "
        f"(otherlib) must be indexed again: run docs action=index with library={other} "
        "(`simple-brief docs index NAME` in a shell).]"
    )
    assert answer.data["reindex"] == [{"name": "otherlib", "library": str(other)}]
    second.close()


# ---------------------------------------------------------------- 4. private modes


def test_files_the_docs_index_writes_are_0600_in_0700_folders(
    root: Path, vendor: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    list_folders(monkeypatch, tmp_path, vendor)
    cache = tmp_path / "deep" / "cache"
    old = os.umask(0o022)
    try:
        index = docs_index(Workspace.at(root), cache)
        index.refresh(force=True)
        index.index_library(str(vendor))
        path = index.path
        written = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
        modes = {p.name: oct(stat.S_IMODE(os.lstat(p).st_mode)) for p in written}
        assert modes == dict.fromkeys(modes, "0o600")
        for folder in (cache, tmp_path / "deep"):
            assert oct(stat.S_IMODE(folder.stat().st_mode)) == "0o700", folder
        assert oct(stat.S_IMODE(os.lstat(f"{path}.libraries.json").st_mode)) == "0o600"
        index.close()
        path.write_bytes(b"garbage, not a database" * 10)
        os.chmod(path, 0o644)
        rebuilt = docs_index(Workspace.at(root), cache)
        assert rebuilt.refresh().rebuilt is not None
        for p in (path, Path(f"{path}.corrupt"), Path(f"{path}.libraries.json")):
            assert oct(stat.S_IMODE(os.lstat(p).st_mode)) == "0o600", p
        rebuilt.close()
    finally:
        os.umask(old)
