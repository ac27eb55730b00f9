"""Valid CSS the grammar misreads, read through the same-length repair
(`languages/_css_syntax.py`). The snippet is cut from nodejs/api/assets/style.css under
/usr/share/doc, the conformance corpus (bench/README.md), which PostCSS parses."""

from __future__ import annotations

from simple_brief import languages
from simple_brief.languages._css_syntax import repair
from simple_brief.model import walk_all
from simple_brief.scan import scan
from simple_brief.source import Source

STYLE = (
    ".dark-mode .light-icon {\n"
    "  fill: var(--white);\n"
    "  display: block;\n"
    "}\n"
    "\n"
    ".js-flavor-toggle {\n"
    "  -webkit-appearance: none;\n"
    "  float: right;\n"
    "  background-image: url(./js-flavor-cjs.svg);\n"
    "  background-size: contain;\n"
    "}\n"
    ".js-flavor-toggle:checked {\n"
    "  background-image: url(./js-flavor-esm.svg);\n"
    "}\n"
    ".js-flavor-toggle:not(:checked) ~ .mjs,\n"
    ".js-flavor-toggle:checked ~ .cjs {\n"
    "  display: none;\n"
    "}\n"
)


def _read(text: str) -> tuple[list[int], list[str]]:
    """The lines of the E-diagnostics and the names of the outline."""
    outline = scan(Source.from_bytes(text.encode()), languages.by_name("css") or languages.LANGUAGES[0])
    lines = [d.range.start.line for d in outline.diagnostics if d.code == "H003"]
    return lines, [s.name for s in walk_all(outline.symbols)]


def test_an_unquoted_url_starting_with_a_dot() -> None:
    errors, names = _read(STYLE)
    assert errors == []
    assert ".js-flavor-toggle" in names and ".js-flavor-toggle:checked" in names, names


def test_repair_keeps_every_byte_place_strings_and_comments() -> None:
    fixed = repair(STYLE.encode())
    assert len(fixed) == len(STYLE.encode())
    assert b'url("/js-flavor-cjs.sv")' in fixed
    kept = b'a { content: "url(./x.svg)"; } /* url(./y.svg) */ b { c: url("./z.svg"); }'
    assert repair(kept) == kept
    assert repair(b"a { filter: url(#blur); }") == b'a { filter: url("blu"); }'


def test_a_real_error_is_still_reported() -> None:
    # PostCSS: Unclosed block.
    errors, _ = _read(STYLE + ".broken {\n  color: red;\n")
    assert errors and min(errors) >= STYLE.count("\n"), errors
