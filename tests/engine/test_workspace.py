"""Workspace: every path stays inside the root (or is refused with one sentence), overlays
win over the disk, listing honours .gitignore and skips what no tool should read, and the
parse cache keeps an Outline exactly as long as its file is unchanged.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.files.workspace import LISTING_MAX_BYTES, Workspace
from simple_brief.tools import Call, invoke


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "app.py").write_text("def main():\n    pass\n")
    (folder / "pkg").mkdir()
    (folder / "pkg" / "mod.py").write_text("class Mod:\n    pass\n")
    (tmp_path / "secret.py").write_text("def secret():\n    pass\n")
    (tmp_path / "root2").mkdir()
    (tmp_path / "root2" / "neighbour.py").write_text("x = 1\n")
    return folder


@pytest.fixture
def ws(root: Path) -> Workspace:
    return Workspace.at(root)


def refusal(action: Callable[[], object]) -> str:
    """The UserError message of `action`, checked to be one sentence."""
    with pytest.raises(UserError) as info:
        action()
    message = str(info.value)
    assert "\n" not in message
    assert message.endswith("."), message
    assert len(message) < 300
    return message


def listed(ws: Workspace, under: str | None = None, known_only: bool = True) -> list[str]:
    return [ws.display(p) for p in ws.files(under, known_only=known_only)]


# --- path safety: one refusal per test --------------------------------------------------


def test_root_must_be_a_directory(tmp_path: Path) -> None:
    message = refusal(lambda: Workspace.at(tmp_path / "missing"))
    assert "is not a directory" in message and "--root" in message


def test_relative_path_inside_resolves(ws: Workspace, root: Path) -> None:
    assert ws.resolve("pkg/../app.py") == root / "app.py"
    assert ws.resolve(str(root / "pkg" / "mod.py")) == root / "pkg" / "mod.py"
    assert ws.resolve(".") == root


def test_dotdot_escape_is_refused(ws: Workspace) -> None:
    message = refusal(lambda: ws.read("../secret.py"))
    assert message.startswith("../secret.py is outside the workspace")
    assert str(ws.root) in message


def test_dotdot_escape_through_a_subfolder_is_refused(ws: Workspace) -> None:
    message = refusal(lambda: ws.outline("pkg/../../secret.py"))
    assert "outside the workspace" in message


def test_absolute_path_elsewhere_is_refused(ws: Workspace, tmp_path: Path) -> None:
    message = refusal(lambda: ws.read(str(tmp_path / "secret.py")))
    assert "outside the workspace" in message


def test_sibling_folder_sharing_the_root_prefix_is_refused(ws: Workspace, tmp_path: Path) -> None:
    """`/x/root2/f` starts with the text `/x/root` but is not inside it."""
    message = refusal(lambda: ws.read(str(tmp_path / "root2" / "neighbour.py")))
    assert "outside the workspace" in message


def test_etc_passwd_is_refused(ws: Workspace) -> None:
    assert "outside the workspace" in refusal(lambda: ws.read("/etc/passwd"))


def test_symlink_inside_pointing_outside_is_refused(ws: Workspace, root: Path, tmp_path: Path) -> None:
    (root / "link.py").symlink_to(tmp_path / "secret.py")
    message = refusal(lambda: ws.read("link.py"))
    assert message.startswith("link.py is outside the workspace")


def test_symlinked_folder_pointing_outside_is_refused(ws: Workspace, root: Path, tmp_path: Path) -> None:
    (root / "vendor").symlink_to(tmp_path, target_is_directory=True)
    assert "outside the workspace" in refusal(lambda: ws.read("vendor/secret.py"))


def test_symlink_inside_pointing_inside_is_read(ws: Workspace, root: Path) -> None:
    (root / "alias.py").symlink_to(root / "app.py")
    real, source = ws.read("alias.py")
    assert real == root / "app.py"
    assert source.text.startswith("def main()")


def test_proc_self_status_is_refused(tmp_path: Path) -> None:
    everything = Workspace.at("/")
    message = refusal(lambda: everything.read("/proc/self/status"))
    assert "/proc/self/status is not a regular file" in message


def test_proc_is_outside_a_normal_workspace(ws: Workspace) -> None:
    assert "outside the workspace" in refusal(lambda: ws.read("/proc/self/status"))


def test_dev_null_is_refused() -> None:
    everything = Workspace.at("/")
    message = refusal(lambda: everything.read("/dev/null"))
    assert "/dev/null is not a regular file" in message


def test_fifo_is_refused_without_blocking(ws: Workspace, root: Path) -> None:
    os.mkfifo(root / "pipe.py")
    outcome: list[BaseException | object] = []

    def attempt() -> None:
        try:
            outcome.append(ws.outline("pipe.py"))
        except BaseException as err:  # handed to the test thread below
            outcome.append(err)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "reading a FIFO blocked"
    assert isinstance(outcome[0], UserError), outcome
    assert "pipe.py is not a regular file" in str(outcome[0])


def test_missing_file_is_refused(ws: Workspace) -> None:
    message = refusal(lambda: ws.read("nope.py"))
    assert message.startswith("nope.py does not exist")


def test_directory_is_refused(ws: Workspace) -> None:
    assert refusal(lambda: ws.read("pkg")).startswith("pkg is a directory")


def test_binary_file_is_refused(ws: Workspace, root: Path) -> None:
    (root / "blob.py").write_bytes(b"\x00\x01\x02def f(): pass\n")
    assert "looks like a binary file" in refusal(lambda: ws.read("blob.py"))


def test_file_over_max_bytes_is_refused(ws: Workspace, root: Path) -> None:
    (root / "big.py").write_text("x = 1\n" * 1000)
    ws.max_bytes = 1000
    message = refusal(lambda: ws.read("big.py"))
    assert message.startswith("big.py is ") and "--max-bytes" in message


def test_listing_outside_the_root_is_refused(ws: Workspace) -> None:
    assert "outside the workspace" in refusal(lambda: list(ws.files("..")))


def test_listing_a_missing_folder_is_refused(ws: Workspace) -> None:
    """A mistyped folder must not look like an empty one (search would report 0 matches)."""
    assert "nowhere does not exist" in refusal(lambda: list(ws.files("nowhere")))


# --- overlays ----------------------------------------------------------------------------


def test_overlay_wins_over_disk(ws: Workspace, root: Path) -> None:
    ws.overlays[ws.resolve("app.py")] = "def unsaved():\n    pass\n"
    _, source = ws.read("app.py")
    assert source.text == "def unsaved():\n    pass\n"
    _, outline = ws.outline("app.py")
    assert [s.name for s in outline.symbols] == ["unsaved"]
    assert (root / "app.py").read_text().startswith("def main()")


def test_overlay_of_a_file_not_on_disk(ws: Workspace) -> None:
    ws.overlays[ws.resolve("new.py")] = "class Fresh:\n    pass\n"
    _, outline = ws.outline("new.py")
    assert [s.name for s in outline.symbols] == ["Fresh"]


def test_overlay_wins_over_an_unreadable_disk_file(ws: Workspace, root: Path) -> None:
    (root / "blob.py").write_bytes(b"\x00binary")
    ws.overlays[ws.resolve("blob.py")] = "def text():\n    pass\n"
    _, outline = ws.outline("blob.py")
    assert [s.name for s in outline.symbols] == ["text"]


def test_overlay_is_seen_by_search(ws: Workspace) -> None:
    ws.overlays[ws.resolve("app.py")] = "def only_in_the_editor():\n    pass\n"
    result = invoke("search", {"query": "only_in_the_editor"}, Call(ws))
    assert [m["name"] for m in result.data["matches"]] == ["only_in_the_editor"]
    assert invoke("search", {"query": "main"}, Call(ws)).data["total"] == 0


def test_changed_overlay_gives_a_new_outline(ws: Workspace) -> None:
    key = ws.resolve("app.py")
    ws.overlays[key] = "def one():\n    pass\n"
    _, first = ws.outline("app.py")
    assert ws.outline("app.py")[1] is first
    ws.overlays[key] = "def two():\n    pass\n"
    _, second = ws.outline("app.py")
    assert second is not first
    assert [s.name for s in second.symbols] == ["two"]
    del ws.overlays[key]
    assert [s.name for s in ws.outline("app.py")[1].symbols] == ["main"]


def test_agent_overlay_wins_over_the_editor_buffer_and_outlives_its_replacement(ws: Workspace, root: Path) -> None:
    app = ws.resolve("app.py")
    ws.overlays.replace_editor({app: "def from_editor():\n    pass\n"})
    assert ws.read("app.py")[1].text.startswith("def from_editor")
    assert ws.set_overlay("app.py", "def from_agent():\n    pass\n") == app
    assert ws.read("app.py")[1].text.startswith("def from_agent")
    ws.overlays.replace_editor({})  # the next call: the person saved, no unsaved buffers
    assert ws.read("app.py")[1].text.startswith("def from_agent")
    assert list(ws.overlays) == [app] and len(ws.overlays) == 1
    ws.overlays.replace_editor({app: "def edited_again():\n    pass\n"})
    assert ws.remove_overlay("app.py") is True
    assert ws.read("app.py")[1].text.startswith("def edited_again")
    assert (root / "app.py").read_text() == "def main():\n    pass\n"


def test_a_calls_view_has_its_own_editor_buffers_and_shares_the_agents(ws: Workspace) -> None:
    """`for_call`: one call's editor buffers are its view's alone; the agent's overlays, the
    parse cache and the symbol index's owner (`base`) are the workspace's."""
    ws.set_overlay("pkg/mod.py", "class Kept:\n    pass\n")
    one = ws.for_call({ws.resolve("app.py"): "def one():\n    pass\n"})
    two = ws.for_call({ws.resolve("app.py"): "def two():\n    pass\n"})
    assert [s.name for s in one.outline("app.py")[1].symbols] == ["one"]
    assert [s.name for s in two.outline("app.py")[1].symbols] == ["two"]
    assert [s.name for s in ws.outline("app.py")[1].symbols] == ["main"]  # nothing written back
    assert ws.overlays.editor == {}
    one.set_overlay("pkg/new.py", "def from_one():\n    pass\n")
    assert two.read("pkg/new.py")[1].text.startswith("def from_one")  # the agent's layer is shared
    assert [s.name for s in two.outline("pkg/mod.py")[1].symbols] == ["Kept"]
    assert one.base is ws and two.base is ws and one.for_call({}).base is ws
    assert one._cache is ws._cache


def test_editor_buffers_are_keyed_by_their_real_path(ws: Workspace, root: Path, tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(root, target_is_directory=True)
    ws.overlays.replace_editor({tmp_path / "alias" / "app.py": "def via_link():\n    pass\n"})
    assert [s.name for s in ws.outline("app.py")[1].symbols] == ["via_link"]


def test_sub_workspace_shares_overlays_and_the_parents_gitignore(ws: Workspace, root: Path) -> None:
    (root / ".gitignore").write_text("*_gen.py\n")
    (root / "pkg" / "api_gen.py").write_text("x = 1\n")
    sub = ws.sub("pkg")
    assert sub.root == root / "pkg"
    assert [p.name for p in sub.files()] == ["mod.py"]
    ws.set_overlay("pkg/mod.py", "class Shared:\n    pass\n")
    assert [s.name for s in sub.outline("mod.py")[1].symbols] == ["Shared"]
    assert "outside the workspace" in refusal(lambda: sub.read("../app.py"))
    assert refusal(lambda: ws.sub("app.py")).startswith("app.py is not a folder")


def test_overlay_refusals(ws: Workspace) -> None:
    ws.max_bytes = 100
    assert "over the 100 bytes limit" in refusal(lambda: ws.set_overlay("app.py", "x" * 101))
    assert "contains NUL bytes" in refusal(lambda: ws.set_overlay("app.py", "x\0"))
    assert refusal(lambda: ws.set_overlay("pkg", "x")).startswith("pkg is a directory")
    assert "outside the workspace" in refusal(lambda: ws.set_overlay("../secret.py", "x"))
    assert ws.overlays.agent == {}


# --- listing -----------------------------------------------------------------------------


def test_listing_is_sorted_and_workspace_relative(ws: Workspace, root: Path) -> None:
    (root / "pkg" / "a.py").write_text("a = 1\n")
    (root / "notes.txt").write_text("not source\n")
    assert listed(ws) == ["app.py", "pkg/a.py", "pkg/mod.py"]
    assert "notes.txt" in listed(ws, known_only=False)


def test_listing_skips_vcs_dependency_and_cache_folders(ws: Workspace, root: Path) -> None:
    for folder in ("node_modules/pkg", ".git/hooks", "__pycache__", ".venv/lib", "pkg/node_modules/x"):
        (root / folder).mkdir(parents=True)
        (root / folder / "index.js").write_text("function hidden() {}\n")
    assert listed(ws) == ["app.py", "pkg/mod.py"]


def test_skipped_folders_stay_skipped_when_gitignore_negates_them(ws: Workspace, root: Path) -> None:
    (root / ".gitignore").write_text("!node_modules/\n")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "dep.js").write_text("function dep() {}\n")
    assert "node_modules/dep.js" not in listed(ws)


def test_root_gitignore_file_and_glob_patterns(ws: Workspace, root: Path) -> None:
    (root / ".gitignore").write_text("# generated\n*_pb2.py\nsettings_local.py\n")
    (root / "api_pb2.py").write_text("x = 1\n")
    (root / "pkg" / "deep_pb2.py").write_text("x = 1\n")
    (root / "settings_local.py").write_text("x = 1\n")
    (root / "pkg" / "settings_local.py").write_text("x = 1\n")
    assert listed(ws) == ["app.py", "pkg/mod.py"]


def test_gitignore_directory_pattern(ws: Workspace, root: Path) -> None:
    (root / ".gitignore").write_text("build/\n/dist\n")
    for folder in ("build", "pkg/build", "dist"):
        (root / folder).mkdir()
        (root / folder / "out.py").write_text("x = 1\n")
    (root / "pkg" / "dist").mkdir()
    (root / "pkg" / "dist" / "kept.py").write_text("x = 1\n")
    # `build/` matches directories only: a file called `build` is still listed.
    (root / "pkg" / "sub").mkdir()
    (root / "pkg" / "sub" / "build").write_text("not a directory\n")
    assert listed(ws) == ["app.py", "pkg/dist/kept.py", "pkg/mod.py"]
    assert "pkg/sub/build" in listed(ws, known_only=False)


def test_gitignore_negation_in_the_same_file(ws: Workspace, root: Path) -> None:
    (root / ".gitignore").write_text("gen_*.py\n!gen_keep.py\n")
    for name in ("gen_a.py", "gen_b.py", "gen_keep.py"):
        (root / name).write_text("x = 1\n")
    assert listed(ws) == ["app.py", "gen_keep.py", "pkg/mod.py"]


def test_nested_gitignore_applies_below_its_folder_only(ws: Workspace, root: Path) -> None:
    (root / "pkg" / ".gitignore").write_text("/local.py\nscratch_*.py\n")
    for rel in ("local.py", "pkg/local.py", "pkg/inner/local.py", "scratch_1.py", "pkg/inner/scratch_2.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n")
    assert listed(ws) == ["app.py", "local.py", "pkg/inner/local.py", "pkg/mod.py", "scratch_1.py"]


def test_nested_gitignore_can_re_include_what_the_root_ignores(ws: Workspace, root: Path) -> None:
    """Git: patterns of a deeper .gitignore override those of a higher one."""
    (root / ".gitignore").write_text("*_gen.py\n")
    (root / "pkg" / ".gitignore").write_text("!keep_gen.py\n")
    for rel in ("top_gen.py", "pkg/drop_gen.py", "pkg/keep_gen.py"):
        (root / rel).write_text("x = 1\n")
    assert listed(ws) == ["app.py", "pkg/keep_gen.py", "pkg/mod.py"]


def test_listing_a_subfolder_honours_the_root_gitignore(ws: Workspace, root: Path) -> None:
    (root / ".gitignore").write_text("secret_*.py\n")
    (root / "pkg" / "secret_key.py").write_text("x = 1\n")
    assert listed(ws, "pkg") == ["pkg/mod.py"]
    assert listed(ws, "pkg/mod.py") == ["pkg/mod.py"]


def test_listing_skips_files_over_one_megabyte(ws: Workspace, root: Path) -> None:
    line = "x = 1\n"
    (root / "huge.py").write_text(line * (LISTING_MAX_BYTES // len(line) + 1))
    (root / "exact.py").write_bytes(b"#" * (LISTING_MAX_BYTES - 1) + b"\n")
    assert (root / "huge.py").stat().st_size > LISTING_MAX_BYTES
    assert (root / "exact.py").stat().st_size == LISTING_MAX_BYTES
    assert listed(ws) == ["app.py", "exact.py", "pkg/mod.py"]


def test_listing_skips_binary_files_of_unknown_type(ws: Workspace, root: Path) -> None:
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert "logo.png" not in listed(ws)


def test_listing_skips_binary_files_with_a_source_extension(ws: Workspace, root: Path) -> None:
    (root / "compiled.py").write_bytes(b"\x00\x00\x00\x01binary payload")
    assert listed(ws) == ["app.py", "pkg/mod.py"]


def test_search_ignores_binary_and_gitignored_files(ws: Workspace, root: Path) -> None:
    (root / "compiled.py").write_bytes(b"\x00def main_binary(): pass\n")
    (root / ".gitignore").write_text("ignored.py\n")
    (root / "ignored.py").write_text("def main_ignored():\n    pass\n")
    result = invoke("search", {"query": "main"}, Call(ws))
    assert [(m["path"], m["name"]) for m in result.data["matches"]] == [("app.py", "main")]


def test_listing_skips_fifos_and_links_leading_outside(ws: Workspace, root: Path, tmp_path: Path) -> None:
    os.mkfifo(root / "pipe.py")
    (root / "link.py").symlink_to(tmp_path / "secret.py")
    (root / "linked_dir").symlink_to(tmp_path, target_is_directory=True)
    assert listed(ws) == ["app.py", "pkg/mod.py"]


# --- parse cache -------------------------------------------------------------------------


def test_cache_returns_the_same_outline_while_the_file_is_unchanged(ws: Workspace) -> None:
    real, first = ws.outline("app.py")
    again_real, again = ws.outline("app.py")
    assert again is first and again_real == real
    assert ws.outline(str(real))[1] is first
    assert ws.outline("pkg/../app.py")[1] is first


def test_cache_rereads_when_mtime_changes(ws: Workspace, root: Path) -> None:
    path = root / "app.py"
    before = path.stat()
    _, first = ws.outline("app.py")
    path.write_text("def maim():\n    pass\n")  # same size as before
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 5_000_000_000))
    assert path.stat().st_size == before.st_size
    _, second = ws.outline("app.py")
    assert second is not first
    assert [s.name for s in second.symbols] == ["maim"]
    assert ws.outline("app.py")[1] is second


def test_cache_rereads_when_size_changes_with_the_same_mtime(ws: Workspace, root: Path) -> None:
    path = root / "app.py"
    before = path.stat()
    _, first = ws.outline("app.py")
    path.write_text("def main():\n    pass\n\n\ndef added():\n    pass\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_mtime_ns == before.st_mtime_ns
    _, second = ws.outline("app.py")
    assert second is not first
    assert [s.name for s in second.symbols] == ["main", "added"]


def test_cache_is_per_filetype(ws: Workspace) -> None:
    _, python = ws.outline("app.py")
    _, as_text = ws.outline("app.py", filetype="lua")
    assert as_text is not python
    assert as_text.language.name == "lua" and python.language.name == "python"
    assert ws.outline("app.py")[1] is not as_text


def test_cache_forgets_a_deleted_file(ws: Workspace, root: Path) -> None:
    ws.outline("app.py")
    (root / "app.py").unlink()
    assert refusal(lambda: ws.outline("app.py")).startswith("app.py does not exist")
