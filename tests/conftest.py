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
