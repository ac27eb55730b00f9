"""Incremental documents: any sequence of edits gives the outline a fresh parse gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from simple_brief import languages
from simple_brief.scan import scan
from simple_brief.servers.documents import Document
from simple_brief.servers.folding import folds

BASE = "class A:\n    def f(self):\n        return 'é'\n\n\ndef g(x):\n    return x  # 😀 wide\n"
PIECES = ["", "\n", "def h():\n    pass\n", "class B:\n", "    x = 1\n", "é", "😀", ")", "  ", "# c\n"]


def _units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode())
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def _position(text: str, offset: int, encoding: str) -> tuple[int, int]:
    before = text[:offset]
    line = before.count("\n")
    return line, _units(before[before.rfind("\n") + 1 :], encoding)


def _snapshot(outline: object) -> list[tuple[object, ...]]:
    return [(f.start_line, f.end_line, f.kind, f.collapsed_text) for f in folds(outline)]  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(
    edits=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 12), st.sampled_from(PIECES)), max_size=6),
    encoding=st.sampled_from(["utf-8", "utf-16", "utf-32"]),
)
def test_incremental_edits_match_a_fresh_parse(edits: list[tuple[int, int, str]], encoding: str) -> None:
    spec = languages.by_name("python")
    assert spec is not None
    doc = Document(BASE, spec)
    doc.outline()
    text = BASE
    for at, length, piece in edits:
        start = at % (len(text) + 1)
        end = min(len(text), start + length)
        doc.apply_change(_position(text, start, encoding), _position(text, end, encoding), piece, encoding)
        text = text[:start] + piece + text[end:]
        assert doc.text == text
        assert _snapshot(doc.outline()) == _snapshot(scan(text, spec))
