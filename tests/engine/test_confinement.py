"""Issue 11, items 1 and 3: nothing outside the root, ever, and secrets never leave.

The door (`workspace.read_beneath`) opens every component from the root's descriptor
without following a symlink, so a folder swapped for a symlink between the check and the
open cannot lead out; the listing walks the same way. Secrets files (deny globs) are
refused by every tool with the rule named, and never listed, searched or overlaid.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.beneath import read_beneath
from simple_brief.files.workspace import Workspace
from simple_brief.tools import Call, invoke

OUTSIDE_TEXT = "TOKEN = 'outside the root'\n"


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "mod.py").write_text("def inside():\n    pass\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "mod.py").write_text(OUTSIDE_TEXT)
    return root, outside


def swap_for_symlink(folder: Path, target: Path) -> None:
    os.rename(folder, folder.with_name(folder.name + ".real"))
    folder.symlink_to(target, target_is_directory=True)


def test_a_folder_swapped_for_a_symlink_after_the_check_is_not_followed(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    ws = Workspace.at(root)
    real = ws.resolve("sub/mod.py")  # checked while `sub` is a real folder
    swap_for_symlink(root / "sub", outside)
    with pytest.raises(UserError, match="outside the workspace"):
        ws.read_bytes("sub/mod.py")  # resolves again: now outside, refused by name
    with pytest.raises(UserError, match="changed while being read"):
        ws._read_bytes(real, "sub/mod.py")  # the open itself refuses the swapped folder


def test_read_beneath_never_follows_a_link_at_any_component(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    (root / "deep" / "er").mkdir(parents=True)
    (root / "deep" / "er" / "x.py").write_text("x = 1\n")
    assert read_beneath(root, "deep/er/x.py", 1000) == b"x = 1\n"
    swap_for_symlink(root / "deep", outside)
    with pytest.raises(UserError, match="changed while being read"):
        read_beneath(root, "deep/er/x.py", 1000)
    (root / "link.py").symlink_to(outside / "mod.py")
    with pytest.raises(UserError, match="changed while being read"):
        read_beneath(root, "link.py", 1000)


def test_racing_swaps_never_leak_an_outside_file(layout: tuple[Path, Path]) -> None:
    """A thread swaps `sub` between a real folder and a symlink out while reads run: every
    read gives the inside text or a refusal, never the outside text (the attack leaked
    hundreds of times in a few thousand tries before the door)."""
    root, outside = layout
    ws = Workspace.at(root)
    sub, parked = root / "sub", root / "sub.parked"
    stop = threading.Event()

    def swapper() -> None:
        while not stop.is_set():
            os.rename(sub, parked)  # the real folder steps aside ...
            sub.symlink_to(outside, target_is_directory=True)  # ... a link out takes its place
            sub.unlink()
            os.rename(parked, sub)
            time.sleep(0)  # let a read through with the real folder in place now and then

    thread = threading.Thread(target=swapper, daemon=True)
    thread.start()
    leaked = refused = good = 0
    try:
        # 3,000 reads at least; more while none has found the real folder in place (a loaded
        # machine can schedule the swapper so that every early read is refused).
        for tries in range(30_000):
            if tries >= 3000 and good:
                break
            try:
                data = ws.read_bytes("sub/mod.py")[1]
            except UserError:
                refused += 1
                continue
            if b"outside the root" in data:
                leaked += 1
            else:
                good += 1
    finally:
        stop.set()
        thread.join(timeout=10)
    assert leaked == 0, f"{leaked} reads leaked the outside file ({good} good, {refused} refused)"
    assert good > 0


def test_listing_does_not_walk_into_a_folder_swapped_for_a_symlink(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    (root / "a.py").write_text("a = 1\n")
    ws = Workspace.at(root)
    walk = ws.files()
    assert next(walk) == root / "a.py"
    swap_for_symlink(root / "sub", outside)  # after the root was listed, before `sub` is walked
    rest = list(walk)
    assert all(outside not in p.resolve().parents for p in rest), rest
    assert root / "sub" / "mod.py" not in rest


def test_editor_style_absolute_paths_outside_the_root_are_refused(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    with pytest.raises(UserError, match="outside the workspace"):
        Workspace.at(root).read_bytes(outside / "mod.py")


# ---------------------------------------------------------------- secrets (item 3)


@pytest.fixture
def secret_root(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "deploy").mkdir(parents=True)
    (root / "app.py").write_text("def main():\n    return 1\n")
    (root / ".env").write_text("API_KEY=sk-live-123\n")
    (root / ".env.local").write_text("DB_PASSWORD=hunter2\n")
    (root / "deploy" / "server.key").write_text("-----BEGIN PRIVATE KEY-----\n")
    (root / "deploy" / "secrets.py").write_text("PASSWORD = 'hunter2'\ndef secret_helper():\n    pass\n")
    (root / "notes.py").symlink_to(root / ".env")
    return root


@pytest.mark.parametrize("path", [".env", ".env.local", "deploy/server.key", "deploy/secrets.py", "notes.py"])
def test_every_read_tool_refuses_a_secrets_file_naming_the_rule(secret_root: Path, path: str) -> None:
    call = Call(Workspace.at(secret_root))
    for tool in ("simple_read", "document_symbols", "diagnostics"):
        with pytest.raises(UserError) as info:
            invoke(tool, {"path": path}, call)
        message = str(info.value)
        assert "matches the secrets rule `" in message and "allow = [" in message, message
        assert "hunter2" not in message and "\n" not in message
    with pytest.raises(UserError, match="secrets rule"):
        invoke("expand_at", {"path": path, "selector": "line:1"}, call)


def test_search_and_listing_skip_secrets_files(secret_root: Path) -> None:
    ws = Workspace.at(secret_root)
    listed = {p.relative_to(secret_root).as_posix() for p in ws.files(known_only=False)}
    assert listed == {"app.py"}
    result = invoke("search", {"query": "secret_helper"}, Call(ws))
    assert result.text.startswith("Found 0 matches") and "deploy/secrets.py" not in result.text


def test_an_overlay_cannot_stand_for_a_secrets_file(secret_root: Path) -> None:
    call = Call(Workspace.at(secret_root))
    with pytest.raises(UserError, match=r"secrets rule `\.env`"):
        invoke("files_apply_overlay", {"path": ".env", "content": "X=1\n"}, call)


def test_only_the_users_own_config_allows_a_secrets_file(
    secret_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "user.toml"
    user.write_text('[secrets]\nallow = ["deploy/secrets.py"]\ndeny = ["*.cfg"]\n')
    monkeypatch.setenv(config.USER_CONFIG_ENV, str(user))
    (secret_root / "local.cfg").write_text("x = 1\n")
    call = Call(Workspace.at(secret_root))
    assert "secret_helper" in invoke("simple_read", {"path": "deploy/secrets.py"}, call).text
    with pytest.raises(UserError, match=r"secrets rule `\*.cfg`"):
        invoke("simple_read", {"path": "local.cfg"}, call)
    with pytest.raises(UserError, match=r"secrets rule `\.env`"):
        invoke("simple_read", {"path": ".env"}, call)


# ---------------------------------------------------------------- the editor context (items 1, 3)


def _context(root: Path, path: Path, text: str | None = None) -> dict[str, object] | None:
    from simple_brief.editor import DiskBackend, Snapshot
    from simple_brief.host.context import editor_context

    snap = Snapshot(path=path, filetype="python", line_count=3, modified=False, cursor=(1, 1), text=text)
    return editor_context(Workspace.at(root), DiskBackend(), snap)


def test_context_of_a_file_outside_the_root_is_read_without_following_links(layout: tuple[Path, Path]) -> None:
    """The person has a file open outside the root whose folder is a symlink: the context
    reads it through the no-follow door, so its symbols are not taken from where the link leads."""
    root, outside = layout
    (outside / "code.py").write_text("def far_away():\n    pass\n")
    elsewhere = root.parent / "elsewhere"
    elsewhere.symlink_to(outside, target_is_directory=True)
    direct = _context(root, outside / "code.py")
    assert direct is not None and "far_away" in str(direct["symbols"])
    linked = _context(root, elsewhere / "code.py")
    assert linked is not None and "far_away" not in str(linked["symbols"])


def test_context_in_a_secrets_file_names_the_rule_and_withholds_its_content(secret_root: Path) -> None:
    context = _context(secret_root, secret_root / "deploy" / "secrets.py", "PASSWORD = 'hunter2'\n")
    assert context is not None
    assert "hunter2" not in str(context) and "PASSWORD" not in str(context)
    assert "secrets.*" in str(context["symbols"]) and "withheld" in str(context["symbols"])


def test_a_language_servers_outside_file_is_read_through_the_door(layout: tuple[Path, Path]) -> None:
    """A definition in a library source outside the root: its text (for positions and the
    lines shown) is read from `/` without following links, and never from a secrets file."""
    from simple_brief.files.config import Config
    from simple_brief.intel.protocol import path_to_uri
    from simple_brief.lsp.pool import ServerPool

    root, outside = layout
    (outside / ".env").write_text("API_KEY=1\n")
    linked = root.parent / "via-link"
    linked.symlink_to(outside, target_is_directory=True)
    pool = ServerPool(Workspace.at(root), Config())
    try:
        assert pool.text_of(path_to_uri(outside / "mod.py")) == OUTSIDE_TEXT
        assert pool.text_of(path_to_uri(linked / "mod.py")) is None
        assert pool.text_of(path_to_uri(outside / ".env")) is None
    finally:
        pool.close()
