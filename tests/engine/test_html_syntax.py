"""Valid HTML the grammar misreads, read through the same-length repair
(`languages/_html_syntax.py`). Every snippet is cut from pages under /usr/share/doc, the
conformance corpus (bench/README.md), that the WHATWG parser (parse5) reads without a
parse error, the doctype aside."""

from __future__ import annotations

from simple_brief import languages
from simple_brief.languages._html_syntax import repair
from simple_brief.model import walk_all
from simple_brief.scan import Outline, scan
from simple_brief.source import Source


def _scan(text: str) -> Outline:
    spec = languages.by_name("html")
    assert spec is not None
    return scan(Source.from_bytes(text.encode()), spec)


def _errors(outline: Outline) -> list[str]:
    return [f"{d.range.start.line}: {d.message}" for d in outline.diagnostics if d.code == "H003"]


def _names(outline: Outline) -> list[str]:
    return [s.name for s in walk_all(outline.symbols)]


#: nodejs/api/addons.html and repl.html: a `>` in text (an arrow, a prompt).
ARROWS = (
    "<!DOCTYPE html>\n"
    '<html lang="en">\n'
    "<body>\n"
    '<h2 id="hello-world">Hello world</h2>\n'
    '<pre><code class="language-js"><span class="hljs-variable language_">module</span>.'
    '<span class="hljs-property">exports</span> = <span class="hljs-function">() =></span> '
    '<span class="hljs-string">\'world\'</span>;</code> <button class="copy-button">copy</button></pre>\n'
    "<ul>\n"
    "<li><code>.save</code>: Save the current REPL session to a file:\n"
    "<code>> .save ./file/to/save.js</code></li>\n"
    "</ul>\n"
    '<h3 id="commands-and-special-keys">Commands and special keys</h3>\n'
    "</body>\n"
    "</html>\n"
)


def test_a_greater_than_sign_in_text() -> None:
    outline = _scan(ARROWS)
    assert _errors(outline) == []
    assert {"Hello world", "Commands and special keys"} <= set(_names(outline))


#: hugs/server.html: no doctype, no `<html>`, a `<body>` never closed; the last `<p>` is
#: open at the end of the file.
UNCLOSED_BODY = (
    "\n"
    "<title> The Hugs  </title>\n"
    '<body bgcolor="#ffffff">\n'
    '<h2>Using Hugs as a "Haskell Server"</h2>\n'
    "<font size=4> <blockquote>\n"
    "Alastair Reid<br>\n"
    "</blockquote></font>\n"
    '<a name="introduction"></a><p>\n'
    "<h2>Introduction</h2>\n"
    "instance&nbsp;(Typeable&nbsp;a)&nbsp;where<br>\n"
    "<p>\n"
    "</tt>\n"
)

#: libxslt1-dev/html/API.html: XHTML's XML prolog.
PROLOG = (
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n'
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
    '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n'
    '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>The programming API</title></head>'
    '<body bgcolor="#8b7765"><h1 align="center">The programming API</h1></body></html>\n'
)


def test_an_unclosed_body_and_an_xml_prolog() -> None:
    for text, names in ((UNCLOSED_BODY, {"Introduction"}), (PROLOG, {"The programming API"})):
        outline = _scan(text)
        assert _errors(outline) == [], text
        assert names <= set(_names(outline))


def test_repair_keeps_every_byte_place_and_leaves_raw_text_and_attributes() -> None:
    for text in (ARROWS, UNCLOSED_BODY, PROLOG):
        data = text.encode()
        fixed = repair(data)
        assert len(fixed) == len(data) and fixed.count(b"\n") == data.count(b"\n")
        assert all(a == b or b == 0x20 for a, b in zip(data, fixed, strict=True))
    kept = b'<p title="a > b">x</p><script>if (a > b) f()</script><!-- -> --><style>a > b {}</style>'
    assert repair(kept) == kept
    assert repair(b"<p>a > b</p>") == b"<p>a   b</p>"
    # A `<body>` that is closed stays.
    assert repair(b"<body><p>a > b</p></body>") == b"<body><p>a   b</p></body>"


def test_real_errors_are_still_reported() -> None:
    # Each a parse error by the HTML standard, after a `>` the repair rewrites: a `<div>`
    # never closed, a quote never closed, a comment never closed (parse5 reports the last
    # two: it reports the tokenizer's errors, not the tree builder's).
    for tail in ('<div id="x"><p>a > b\n', '<p>a > b</p><a href="x>y</a>\n', "<p>a > b</p><!-- open\n"):
        errors = _errors(_scan(ARROWS + tail))
        assert errors and all(int(e.split(":")[0]) >= ARROWS.count("\n") for e in errors), tail
