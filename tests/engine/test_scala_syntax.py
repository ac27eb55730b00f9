"""Scala 2 the Scala 3 grammar misreads, read through the same-length repair
(`languages/_scala_syntax.py`): symbol literals and soft modifiers used as names. The
snippets are Pygments' Scala lexer examples (tests/examplefiles/scala/symbols.scala and
soft-keywords.scala in its sdist), the conformance corpus (bench/README.md); scalac 2.11
parses both."""

from __future__ import annotations

from simple_brief import languages
from simple_brief.model import walk_all
from simple_brief.scan import Outline, scan
from simple_brief.source import Source

#: symbols.scala (lines 1-9, 13-14), inside an object so there is something to outline.
SYMBOLS = """object Symbols {
  // Symbols:
  '* //test
  'symbol_*
  'symbol1 //'
  'ξφδ
  '***
  val tagged = Map('a -> 1, 'b -> 2)
  val c = 'x'
  val nl = '\\n'
  def name(s: Symbol): String = s.name
}
"""

#: soft-keywords.scala, inside an object.
SOFT_KEYWORDS = """object Soft {
  val open = true
  val inline = true
  inline xval
  val x = inline + 2
  inline def twice(n: Int): Int = n * 2
  (using)
}
"""


def _scan(text: str) -> Outline:
    spec = languages.by_name("scala")
    assert spec is not None
    return scan(Source.from_bytes(text.encode()), spec)


def _errors(outline: Outline) -> list[str]:
    return [f"{d.range.start.line}: {d.message}" for d in outline.diagnostics if d.code == "H003"]


def test_scala2_symbol_literals_are_no_syntax_error() -> None:
    outline = _scan(SYMBOLS)
    assert _errors(outline) == []
    names = [s.name for s in walk_all(outline.symbols)]
    assert names == ["Symbols", "tagged", "c", "nl", "name"]


def test_a_soft_modifier_used_as_a_name_is_no_syntax_error() -> None:
    outline = _scan(SOFT_KEYWORDS)
    assert _errors(outline) == []
    names = [s.name for s in walk_all(outline.symbols)]
    assert names == ["Soft", "open", "inline", "x", "twice"]


def test_repair_keeps_length_and_character_literals_and_modifiers() -> None:
    from simple_brief.languages._scala_syntax import repair

    for text in (SYMBOLS, SOFT_KEYWORDS):
        data = text.encode()
        assert len(repair(data)) == len(data)
    fixed = repair(SYMBOLS.encode()).decode()
    assert "_symbol_*" in fixed and "Map(_a -> 1, _b -> 2)" in fixed
    assert "'x'" in fixed and "'\\n'" in fixed and '"don\'t"' in repair(b'val s = "don\'t"').decode()
    fixed = repair(SOFT_KEYWORDS.encode()).decode()
    assert "Inline xval" in fixed and "inline def twice" in fixed and "val inline = true" in fixed
