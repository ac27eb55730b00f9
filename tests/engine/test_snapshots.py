"""One fixture and one golden snapshot per language, covering every renderer.

`make update-snapshots` (UPDATE_SNAPSHOTS=1) rewrites tests/snapshots/*.txt; the diff is
reviewed like code. A language in the registry without a fixture fails here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.model import SymbolKind, walk_all
from simple_brief.render import blockmarks, table
from simple_brief.render.symbols_view import render_symbols_view
from simple_brief.scan import scan
from simple_brief.source import Source

HERE = Path(__file__).resolve().parents[1]  # tests/
FIXTURES = sorted((HERE / "fixtures" / "outline").glob("*.*"))
SNAPSHOTS = HERE / "snapshots"


def render_all(path: Path) -> str:
    """Every view of one fixture, in labelled sections."""
    spec = languages.detect(path, path.stem)
    outline = scan(Source.from_bytes(path.read_bytes()), spec)
    diags = outline.diagnostics
    sections = [
        ("outline", blockmarks.render_outline(outline, diags)),
        ("compact depth=1", blockmarks.render_outline(outline, diags, "compact", depth=1)),
        ("symbols preview=signature", "\n\n".join(render_symbols_view(outline, path.name, "signature"))),
        ("table", table.render_table(outline.symbols, "yes")),
        ("standard (children=no)", table.render_standard(outline.symbols, "no")),
    ]
    blocks = [s for s in walk_all(outline.symbols) if s.is_block]
    if blocks:
        first = blocks[0]
        sections.append((f"expand {first.name} signature", blockmarks.render_expanded(outline, first, "signature")))
        deepest = max(blocks, key=lambda s: (s.range.start.line, -s.range.end.line))
        sections.append((f"expand {deepest.name} all", blockmarks.render_expanded(outline, deepest, "all")))
    return "".join(f"=== {title}\n{body}\n" for title, body in sections)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_snapshot(path: Path) -> None:
    snapshot = SNAPSHOTS / f"{path.stem}.txt"
    actual = render_all(path)
    if os.environ.get("UPDATE_SNAPSHOTS"):
        snapshot.write_text(actual, encoding="utf-8")
    assert snapshot.exists(), f"no snapshot for {path.name}: run `make update-snapshots` and review it"
    assert actual == snapshot.read_text(encoding="utf-8")


def test_every_grammar_language_has_a_fixture() -> None:
    covered = {p.stem for p in FIXTURES}
    missing = [spec.name for spec in languages.LANGUAGES if spec.name not in covered]
    assert not missing, f"languages without an outline fixture in tests/fixtures/outline: {missing}"


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_fixture_parses_cleanly_and_names_definitions(path: Path) -> None:
    spec = languages.detect(path, path.stem)
    outline = scan(Source.from_bytes(path.read_bytes()), spec)
    assert not [d for d in outline.diagnostics if d.code == "H003"], "fixtures must be valid code"
    # Block marks, or (Markdown) headings: each fixture must name several definitions.
    assert sum(1 for s in walk_all(outline.symbols) if s.is_block or s.kind == SymbolKind.String) >= 3
