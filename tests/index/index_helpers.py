"""Helpers of the symbol index tests: each test's index in its own cache folder (the
autouse `cache_dir` fixture, imported by every test module with `tree`), trees of real standard-
library files, and answers as text, from the index and from today's full scan.

(Not a conftest.py: tests/conftest.py is imported as `conftest` by other groups.)"""

from __future__ import annotations

import shutil
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from simple_brief.files.workspace import Workspace
from simple_brief.index.answer import find_symbols
from simple_brief.index.query import Found, full_scan
from simple_brief.render.search import render_search

STDLIB = Path(sysconfig.get_paths()["stdlib"])


@pytest.fixture(autouse=True, name="cache_dir")
def cache_dir_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's own cache folder (SIMPLE_BRIEF_CACHE_DIR)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(folder))
    return folder


@pytest.fixture(name="tree")
def tree_fixture(tmp_path: Path) -> Path:
    """A workspace of real files: the json package and a few modules of the standard library."""
    root = tmp_path / "tree"
    shutil.copytree(STDLIB / "json", root / "json", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("textwrap.py", "shlex.py", "fnmatch.py"):
        shutil.copy(STDLIB / name, root / name)
    return root


def answer_text(query: str, found: Found) -> str:
    """The search answer's text, as the tools render it."""
    return "\n\n".join(render_search(query, found.matches, found.total, found.files))


def scan_text(root: Path | Workspace, query: str, path: str | None = None, limit: int = 50) -> str:
    """Today's full scan, on a fresh Workspace (or one given: its parse cache is reused)."""
    ws = root if isinstance(root, Workspace) else Workspace.at(root)
    return answer_text(query, full_scan(ws, query, path, None, limit, ws.display))


def index_text(ws: Workspace, query: str, path: str | None = None, limit: int = 50) -> str:
    """The indexed search's answer (a refresh first, as the tools do)."""
    return answer_text(query, find_symbols(ws, query, path=path, limit=limit))


def eventually(check: Callable[[], bool]) -> bool:
    """Whether `check` holds within a few seconds (the kernel's events arrive on their own thread)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False
