"""Shared test helpers: fixture paths and a scan shortcut."""

from __future__ import annotations

from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.scan import Outline, scan

FIXTURES = Path(__file__).parent / "fixtures"


def outline_of(text: str, filetype: str) -> Outline:
    """Scan `text` as `filetype` (a Neovim filetype or a registered fallback language)."""
    spec = languages.by_name(filetype)
    assert spec is not None, f"unknown filetype {filetype}"
    return scan(text, spec)


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(scope="session", autouse=True)
def parso_cache_directory() -> None:
    """Create parso's cache directory before two jedi-based servers start at once.

    parso checks for the directory and then calls `os.makedirs` without `exist_ok`, so
    jedi-language-server and python-lsp-server started together on a machine with an
    empty cache race, and one of them answers its first request with FileExistsError.
    """
    try:
        from parso import cache  # dev dependency (python-lsp-server, jedi-language-server)
    except ImportError:
        return
    cache._get_cache_directory_path()
