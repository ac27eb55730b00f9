"""Any input gives a result or one clear UserError: never another exception, never a hang.

Random text and bytes go through `Source.from_bytes`, `scan.scan` (every grammar language
and the line-heuristic fallback) and every renderer; the results must keep the model's
invariants. Python (whose outline query is settled) also gets exact expectations for the
awkward inputs: invalid UTF-8, NUL bytes, CRLF, tabs, a BOM, non-ASCII text, a 10 MB file,
deep nesting, empty files.
"""

from __future__ import annotations

import json
import re
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.model import Range, Symbol, SymbolKind, walk_all, walk_with_parent
from simple_brief.render import blockmarks, table
from simple_brief.render.explain import explain
from simple_brief.render.symbols_view import render_symbols_view
from simple_brief.scan import MAX_NESTING, Outline, scan
from simple_brief.source import Source

PYTHON = languages.by_name("python")
JAVASCRIPT = languages.by_name("javascript")
#: A braces language the line heuristic reads (no grammar): `//` comments, Kotlin-like members.
BRACES = languages.LanguageSpec("braces", (".braces",), comment="//")
ALL_LANGUAGES = [*languages.LANGUAGES, languages.PLAIN]
LANGUAGE_IDS = [spec.name for spec in ALL_LANGUAGES]
#: Diagnostic codes the scanner itself produces.
SCAN_CODES = {"W001", "W003", "H001", "H002", "H003"}
SPAN = re.compile(r"(?<=\S) (L\d+(?:-\d+)?)$")
MARK = re.compile(r"^[FCSE][>_] ")

#: Pieces of code in many languages; joined at random they reach far more of the
#: scanners (definitions, nesting, members, errors) than uniformly random text does.
# fmt: off
FRAGMENTS = [
    "def ", "class ", "fn ", "function ", "func ", "struct ", "enum ", "impl ", "trait ", "interface ",
    "pub ", "export ", "local ", "async ", "@dec\n", "f", "g", "A", "B", "x", "self.", "__init__",
    "(", ")", "[", "]", "{", "}", "<", ">", ":", ";", ",", "=", " = 1", "->", "=>", ".", "*", "&",
    " ", "\n", "\r\n", "\t", "    ", "\n    ", "\n        ", "#", "//", "/*", "*/", "--", '"', "'",
    '"""', "`", "\\", "# Title\n", "## Sub\n", "```\n", "- item\n", "return ", "pass", "end",
    "é", "名前", "😀", "\u0301", "\ufeff", "\u2028", "\x0c", "x = 1\n", "let v = 2;\n",
]
# fmt: on

code_text = st.lists(st.sampled_from(FRAGMENTS), max_size=80).map("".join)
any_text = st.one_of(st.text(max_size=400), code_text)

FUZZ = settings(
    max_examples=40,
    deadline=timedelta(seconds=5),  # generous: a slow example is fine, a hang is not
    suppress_health_check=[HealthCheck.too_slow],
)


# --- helpers -------------------------------------------------------------------------


def text_at(source: Source, rng: Range) -> str:
    """The document text a range covers (lines joined with `\\n`)."""
    lines = source.lines
    if rng.start.line == rng.end.line:
        return lines[rng.start.line][rng.start.character : rng.end.character]
    middle = lines[rng.start.line + 1 : rng.end.line]
    return "\n".join([lines[rng.start.line][rng.start.character :], *middle, lines[rng.end.line][: rng.end.character]])


def inside(inner: Range, outer: Range) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end


def check_invariants(outline: Outline) -> None:
    """What every Outline must satisfy, whatever the language and the input."""
    lines = outline.source.lines
    for sym, parent in walk_with_parent(outline.symbols):
        for rng in filter(None, (sym.range, sym.selection_range, sym.body)):
            assert rng.start <= rng.end, f"{sym.name!r}: range starts after it ends: {rng}"
            for pos in (rng.start, rng.end):
                assert 0 <= pos.line < len(lines), f"{sym.name!r}: line {pos.line} is not in the document"
                assert 0 <= pos.character <= len(lines[pos.line]), (
                    f"{sym.name!r}: column {pos.character} is past the end of line {pos.line}"
                )
        assert sym.name, "a symbol without a name"
        assert inside(sym.selection_range, sym.range), f"{sym.name!r}: selection_range outside range"
        if sym.body is not None:
            assert inside(sym.body, sym.range), f"{sym.name!r}: body outside range"
        if parent is not None:
            # Fields hoisted from `__init__` are children of the class, which contains them too.
            assert inside(sym.range, parent.range), f"{sym.name!r} lies outside its parent {parent.name!r}"
    for diag in outline.diagnostics:
        assert diag.code in SCAN_CODES, f"unexpected diagnostic {diag}"
        assert diag.range.start <= diag.range.end
        assert "\n" not in diag.message
    assert (outline.source.lossy) == any(d.code == "W001" for d in outline.diagnostics)


def mark_lines(symbols: list[Symbol]) -> dict[str, list[Symbol]]:
    """Every line a symbol can render as in an outline (open or folded), to its symbols."""
    known: dict[str, list[Symbol]] = {}
    for sym in walk_all(symbols):
        for text in {
            blockmarks.mark_line(sym),
            blockmarks.mark_line(sym, open_=True),
        }:
            known.setdefault(text, []).append(sym)
    return known


def check_outline_text(outline: Outline, text: str, depth: int | None) -> None:
    """Each line is a diagnostic, a gap summary, a mark naming a symbol with that symbol's span,
    or a line of members (fields, constants) spanning from the first member it names to the last.
    """
    assert "\r" not in text or "\r" in outline.source.text.replace("\r\n", "")
    marks = mark_lines(outline.symbols)
    members = [s for s in walk_all(outline.symbols) if not s.is_block]
    top_level: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith(("V* ", ".. ")):
            continue
        span = SPAN.search(stripped)
        assert span is not None, f"outline line without a span: {line!r}"
        first, _, last = span.group(1)[1:].partition("-")
        first_line, last_line = int(first) - 1, int(last or first) - 1
        if stripped in marks:
            assert any(s.range.line_span() == span.group(1) for s in marks[stripped]), (
                f"span {span.group(1)} of {line!r} is no symbol's range"
            )
        else:
            assert not MARK.match(stripped), f"block mark names no symbol: {line!r}"
            shown = stripped[: span.start()]
            assert any(s.range.start.line == first_line and s.name[:20] in shown for s in members), (
                f"member line names no member starting on line {first_line + 1}: {line!r}"
            )
            assert any(s.range.end.line == last_line for s in members), f"member line ends on no member: {line!r}"
        if not line.startswith(" "):
            top_level.append(stripped)
        if depth == 1:
            assert not line.startswith(" "), f"depth=1 opened a symbol: {line!r}"
    # Every top-level definition is named, in document order.
    named = iter(top_level)
    for sym in outline.symbols:
        if not sym.is_block and sym.kind != SymbolKind.String:
            continue  # members: merged into member lines, checked above
        options = {
            blockmarks.mark_line(sym),
            blockmarks.mark_line(sym, open_=True),
        }
        assert any(line in options for line in named), f"top-level {sym.name!r} is missing or out of order"


def render_everything(outline: Outline) -> None:
    """Run every renderer on an outline and check what each promises."""
    diags = outline.diagnostics
    for depth in (None, 1, 2):
        check_outline_text(outline, blockmarks.render_outline(outline, diags, "outline", depth), depth)
        compact = blockmarks.render_outline(outline, diags, "compact", depth)
        assert compact.startswith("V* [")
        check_outline_text(outline, compact, depth)

    full = blockmarks.render_full(outline, diags).split("\n")
    lines = list(outline.source.lines)
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    assert len(full) == len(lines)
    for shown, original in zip(full, lines, strict=True):
        assert shown.startswith(original)

    every = list(walk_with_parent(outline.symbols))
    rows = table.render_table(outline.symbols, "yes").split("\n")
    assert rows[0] == table.HEADER
    assert len(rows) == 1 + len(every)
    for row, (sym, _parent) in zip(rows[1:], every, strict=True):
        assert row.startswith(table.cell(sym.name) + " | ")
        assert row.endswith(" | <<<")
    for rc in ("no", "auto"):
        table.render_table(outline.symbols, rc)  # type: ignore[arg-type]

    standard = json.loads(table.render_standard(outline.symbols, "yes"))
    assert len(standard) == len(outline.symbols)

    for preview in ("none", "signature", "expanded"):
        blocks = render_symbols_view(outline, "file", preview)  # type: ignore[arg-type]
        assert blocks[0].startswith("Found ")

    for sym in walk_all(outline.symbols):
        assert blockmarks.render_expanded(outline, sym, "signature").split("\n")[0] == blockmarks.mark_line(sym)
        assert sym.range.line_span() in blockmarks.render_expanded(outline, sym, "all")
        assert isinstance(blockmarks.render_expanded(outline, sym, "body"), str)


@contextmanager
def no_recursion_error() -> Iterator[None]:
    """Fail with where the recursion happened (pytest's own report of one takes seconds)."""
    failure = ""
    try:
        yield
    except RecursionError as err:
        frame = traceback.extract_tb(err.__traceback__)[-1]
        failure = f"RecursionError in {frame.name} at {frame.filename}:{frame.lineno}"
    if failure:
        pytest.fail(failure, pytrace=False)


def decode_or_refuse(raw: bytes) -> Source | None:
    """Source.from_bytes, checking that a refusal is the one for NUL bytes and reads well."""
    try:
        source = Source.from_bytes(raw, name="input.bin")
    except UserError as err:
        message = str(err)
        assert b"\0" in raw, f"refused text without NUL bytes: {message}"
        assert "binary" in message and "input.bin" in message
        assert "\n" not in message and message.endswith(".")
        return None
    assert b"\0" not in raw[:8192]
    return source


def outline_py(text: str) -> Outline:
    return scan(Source.from_bytes(text.encode("utf-8")), PYTHON)


def shape(symbols: list[Symbol]) -> list[tuple]:
    """Comparable view of a symbol tree."""
    return [
        (s.name, s.kind, s.range, s.selection_range, s.signature, s.doc, s.body, shape(s.children)) for s in symbols
    ]


@pytest.fixture(scope="module", autouse=True)
def _warm_grammars() -> None:
    """Load every grammar and query once, so no example pays for it against the deadline."""
    for spec in ALL_LANGUAGES:
        scan(Source("x\n"), spec)


# --- properties ------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ALL_LANGUAGES, ids=LANGUAGE_IDS)
@FUZZ
@given(text=any_text)
def test_random_text_gives_an_outline(spec: languages.LanguageSpec, text: str) -> None:
    source = decode_or_refuse(text.encode("utf-8"))
    if source is None:
        return
    assert not source.lossy
    outline = scan(source, spec)
    check_invariants(outline)
    render_everything(outline)


@pytest.mark.parametrize("spec", ALL_LANGUAGES, ids=LANGUAGE_IDS)
@FUZZ
@given(raw=st.one_of(st.binary(max_size=300), code_text.map(lambda t: t.encode("utf-8"))))
def test_random_bytes_give_an_outline_or_one_user_error(spec: languages.LanguageSpec, raw: bytes) -> None:
    source = decode_or_refuse(raw)
    if source is None:
        return
    try:
        raw.decode("utf-8-sig")
        valid = True
    except UnicodeDecodeError:
        valid = False
    assert source.lossy is not valid
    outline = scan(source, spec)
    check_invariants(outline)
    render_everything(outline)


@pytest.mark.parametrize("spec", [PYTHON, languages.PLAIN], ids=["python", "fallback"])
@FUZZ
@given(text=code_text)
def test_selection_range_covers_the_name(spec: languages.LanguageSpec, text: str) -> None:
    """Python and the fallback name a symbol by one token: the selection is exactly that text."""
    outline = scan(Source(text), spec)
    for sym in walk_all(outline.symbols):
        assert text_at(outline.source, sym.selection_range) == sym.name


# Most random fragment lists do not parse, and this property is only for code that does:
# the `assume` below filters many inputs, which is expected here, not a slow generator.
@settings(FUZZ, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(text=code_text)
def test_crlf_reads_like_lf_in_python(text: str) -> None:
    """The same Python with CRLF line endings has the same symbols, and no `\\r` is shown.

    Only for code that parses: tree-sitter's error recovery may differ with `\\r` around.
    """
    lf = text.replace("\r\n", "\n").replace("\r", "")
    crlf = lf.replace("\n", "\r\n")
    a, b = scan(Source(lf), PYTHON), scan(Source(crlf), PYTHON)
    assume(a.tree is not None and not a.tree.root_node.has_error)
    assert shape(b.symbols) == shape(a.symbols)
    for outline in (a, b):
        assert "\r" not in blockmarks.render_outline(outline, outline.diagnostics)
        assert "\r" not in blockmarks.render_full(outline, outline.diagnostics)
        assert "\r" not in table.render_table(outline.symbols)


# --- Python structure ------------------------------------------------------------------

PY_SAMPLE = '''\
import os


class User:
    """A user."""

    kind = "user"

    def __init__(self, name):
        self.name = name
        if name:
            self.nick = name[:3]

    def greet(self):
        def inner():
            return 1
        return inner()


def helper(x):
    return x
'''


def test_python_children_lie_in_their_parents_and_fields_are_hoisted() -> None:
    outline = outline_py(PY_SAMPLE)
    check_invariants(outline)
    assert [s.name for s in outline.symbols] == ["User", "helper"]
    user = outline.symbols[0]
    names = [c.name for c in user.children]
    # `self.name` set in __init__ is listed under the class, inside the class's range.
    assert "name" in names and "kind" in names and "__init__" in names and "greet" in names
    hoisted = next(c for c in user.children if c.name == "name")
    assert (hoisted.range.start.line, hoisted.range.start.character) == (9, 8)
    assert inside(hoisted.range, user.range)
    init = next(c for c in user.children if c.name == "__init__")
    assert not inside(init.range, hoisted.range) and inside(hoisted.range, init.range)
    greet = next(c for c in user.children if c.name == "greet")
    assert [c.name for c in greet.children] == ["inner"]
    assert inside(greet.children[0].range, greet.range)


def test_python_outline_spans_match_symbol_ranges() -> None:
    outline = outline_py(PY_SAMPLE)
    text = blockmarks.render_outline(outline, outline.diagnostics)
    lines = text.split("\n")
    assert ".. import os L1" in lines
    assert "C_ class User L4-17" in lines
    assert " F> def greet(self) { ... } L14-17" in lines
    assert "F> def helper(x) { ... } L20-21" in lines
    by_span = {s.name: s.range.line_span() for s in walk_all(outline.symbols)}
    assert by_span["User"] == "L4-17" and by_span["helper"] == "L20-21" and by_span["inner"] == "L15-16"
    check_outline_text(outline, text, None)


# --- awkward input, explicitly ---------------------------------------------------------


def test_invalid_utf8_gives_w001_and_an_outline() -> None:
    raw = b"def f():\n    return '\xff\xfe'\n\ndef g():\n    pass\n"
    source = Source.from_bytes(raw)
    assert source.lossy
    assert "\ufffd" in source.text
    outline = scan(source, PYTHON)
    assert outline.diagnostics[0].code == "W001"
    assert "UTF-8" in outline.diagnostics[0].message
    assert [s.name for s in outline.symbols] == ["f", "g"]
    assert outline.symbols[1].range.start.line == 3
    render_everything(outline)


@pytest.mark.parametrize("spec", [PYTHON, languages.PLAIN], ids=["python", "fallback"])
def test_invalid_utf8_warns_in_every_scanner(spec: languages.LanguageSpec) -> None:
    outline = scan(Source.from_bytes(b"class \xc3A:\n    x = 1\n"), spec)
    assert [d.code for d in outline.diagnostics if d.code == "W001"] == ["W001"]


def test_binary_data_is_refused_with_one_sentence() -> None:
    with pytest.raises(UserError) as info:
        Source.from_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00def f(): pass\n", name="a.out")
    message = str(info.value)
    assert message.startswith("a.out ")
    assert "binary" in message and "NUL" in message
    assert "\n" not in message and message.endswith(".")


def test_nul_after_the_sniffed_prefix_still_gives_a_result() -> None:
    raw = b"def f():\n    pass\n" + b"#" * 9000 + b"\0\n"
    outline = scan(Source.from_bytes(raw), PYTHON)
    assert [s.name for s in outline.symbols] == ["f"]
    render_everything(outline)


def test_oversized_input_is_refused_with_one_sentence() -> None:
    with pytest.raises(UserError) as info:
        Source.from_bytes(b"x = 1\n" * 100, name="big.py", max_bytes=100)
    assert "big.py" in str(info.value) and "--max-bytes" in str(info.value)
    assert "\n" not in str(info.value)


def test_crlf_line_endings_keep_names_and_spans() -> None:
    raw = PY_SAMPLE.replace("\n", "\r\n").encode()
    outline = scan(Source.from_bytes(raw), PYTHON)
    lf = outline_py(PY_SAMPLE)
    assert shape(outline.symbols) == shape(lf.symbols)
    user = outline.symbols[0]
    assert user.name == "User" and user.range.line_span() == "L4-17"
    assert user.doc == "A user."
    for sym in walk_all(outline.symbols):
        assert "\r" not in sym.name and "\r" not in sym.signature and "\r" not in sym.doc
    outputs = [
        blockmarks.render_outline(outline, outline.diagnostics),
        blockmarks.render_full(outline, outline.diagnostics),
        table.render_table(outline.symbols),
        table.render_standard(outline.symbols),
        *render_symbols_view(outline, "x.py", "expanded"),
        *(blockmarks.render_expanded(outline, s, "all") for s in walk_all(outline.symbols)),
    ]
    for text in outputs:
        assert "\r" not in text
    assert blockmarks.render_full(outline, outline.diagnostics) == PY_SAMPLE.rstrip("\n")


def test_crlf_before_a_trailing_comment_is_not_part_of_the_range() -> None:
    """A comment token may swallow the `\\r` of CRLF; the range must still end at the line's end."""
    lf = outline_py("def f():\n    pass  # note\n")
    crlf = scan(Source.from_bytes(b"def f():\r\n    pass  # note\r\n"), PYTHON)
    assert (lf.symbols[0].range.end.line, lf.symbols[0].range.end.character) == (1, 16)
    assert crlf.symbols[0].range == lf.symbols[0].range
    assert table.render_table(crlf.symbols).split("\n")[1].startswith("f | 12 | 1:1-2:16 | ")
    check_invariants(crlf)


def test_crlf_in_the_fallback_scanner() -> None:
    outline = scan(Source("class P {\r\n  x: Int\r\n}\r\nfn f() {\r\n}\r\n"), languages.PLAIN)
    assert [(s.name, s.range.line_span()) for s in outline.symbols] == [("P", "L1-3"), ("f", "L4-5")]
    assert [c.name for c in outline.symbols[0].children] == ["x"]
    assert "\r" not in blockmarks.render_outline(outline, outline.diagnostics)


def test_tabs_count_as_one_character() -> None:
    outline = outline_py("class A:\n\tdef m(self):\n\t\treturn 1\n")
    method = outline.symbols[0].children[0]
    assert method.name == "m"
    assert method.range.start.character == 1
    assert method.selection_range.start.character == 5
    row = table.render_table(outline.symbols, "yes").split("\n")[2]
    assert row.startswith("m | ")
    assert " | 2:2-3:10 | 2:6-6 | A | " in row


def test_bom_is_stripped_and_the_first_symbol_starts_at_1_1() -> None:
    outline = scan(Source.from_bytes(b"\xef\xbb\xbfdef f():\n    return 1\n"), PYTHON)
    assert not outline.source.text.startswith("\ufeff")
    assert not outline.source.lossy and outline.diagnostics == []
    f = outline.symbols[0]
    assert f.name == "f"
    assert (f.range.start.line, f.range.start.character) == (0, 0)
    assert (f.selection_range.start.line, f.selection_range.start.character) == (0, 4)
    assert table.render_table(outline.symbols).split("\n")[1].startswith("f | 12 | 1:1-2:12 | 1:5-5 | ")
    assert blockmarks.render_full(outline, outline.diagnostics) == "def f():\n    return 1"


def test_non_ascii_text_before_a_definition_uses_character_columns() -> None:
    line1 = 'greeting = "héllo wörld 日本 😀"; ñame = 1'
    text = f"{line1}\nclass Äpfel: pass\n"
    outline = outline_py(text)
    rows = {r.split(" | ")[0]: r.split(" | ") for r in table.render_table(outline.symbols).split("\n")[1:]}
    col = line1.index("ñame")  # characters, not bytes (the bytes are many more)
    assert len(line1[:col].encode()) > col
    assert rows["ñame"][2] == f"1:{col + 1}-{len(line1)}"
    assert rows["ñame"][3] == f"1:{col + 1}-{col + 4}"
    assert rows["Äpfel"][3] == "2:7-11"
    standard = {s["name"]: s for s in json.loads(table.render_standard(outline.symbols))}
    assert standard["ñame"]["selectionRange"]["start"] == {"line": 0, "character": col}
    assert standard["ñame"]["selectionRange"]["end"] == {"line": 0, "character": col + 4}


def test_non_ascii_byte_and_utf16_columns() -> None:
    source = Source('s = "😀é"; t = 2\n')
    col = source.lines[0].index("t =")
    assert col == 10
    assert source.byte_col(0, col) == len(source.lines[0][:col].encode())
    assert source.utf16_col(0, col) == 11
    outline = scan(source, PYTHON)
    t = next(s for s in outline.symbols if s.name == "t")
    assert t.selection_range.start.character == col


# The one slow test: it builds, decodes, parses and renders a real 10 MB file (a few
# seconds, most of it tree-sitter's parse and the query over ~125,000 lines).
def test_a_10_mb_python_file_gives_a_result() -> None:
    body = "".join(
        f"    total = total + compute_value(alpha, beta, gamma, {j}) * 31 - offset  # step {j}\n" for j in range(200)
    )
    chunk = "def f{i}(alpha, beta, gamma):\n    total = 0\n" + body + "    return total\n\n\n"
    parts: list[str] = []
    size = 0
    while size < 10 * 1024 * 1024:
        parts.append(chunk.replace("{i}", str(len(parts))))
        size += len(parts[-1])
    raw = "".join(parts).encode()
    assert len(raw) >= 10 * 1024 * 1024
    outline = scan(Source.from_bytes(raw), PYTHON)
    assert len(outline.symbols) == len(parts)
    assert outline.diagnostics == []
    per = chunk.count("\n")
    last = outline.symbols[-1]
    assert last.name == f"f{len(parts) - 1}"
    assert last.range.line_span() == f"L{(len(parts) - 1) * per + 1}-{len(parts) * per - 2}"
    text = blockmarks.render_outline(outline, outline.diagnostics)
    assert text.split("\n")[-1] == f"F> def {last.name}(alpha, beta, gamma) {{ ... }} {last.range.line_span()}"
    assert len(table.render_table(outline.symbols).split("\n")) == len(parts) + 1


def nested_python(depth: int) -> str:
    return "".join("    " * i + f"def f{i}():\n" for i in range(depth)) + "    " * depth + "pass\n"


def left_out(outline: Outline) -> int:
    """How many definitions H001 says were not listed (0 without an H001)."""
    counts = [int(d.message.split()[0]) for d in outline.diagnostics if d.code == "H001"]
    assert len(counts) <= 1
    return sum(counts)


def test_500_nested_python_functions() -> None:
    depth = 500
    outline = outline_py(nested_python(depth))
    names = [s.name for s in walk_all(outline.symbols)]
    assert names == [f"f{i}" for i in range(len(names))]
    assert 0 < len(names) <= MAX_NESTING
    # Nothing is dropped silently: every definition is listed or counted by H001.
    assert len(names) + left_out(outline) == depth
    check_invariants(outline)
    render_everything(outline)


def test_64_nested_functions_are_all_listed_and_65_warn() -> None:
    deepest = outline_py(nested_python(MAX_NESTING))
    assert len(list(walk_all(deepest.symbols))) == MAX_NESTING
    assert left_out(deepest) == 0
    too_deep = outline_py(nested_python(MAX_NESTING + 1))
    assert [d.code for d in too_deep.diagnostics] == ["H001"]
    assert f"1 definitions nested deeper than {MAX_NESTING}" in too_deep.diagnostics[0].message


def test_2000_nested_brackets_in_python_and_javascript() -> None:
    py = outline_py("x = " + "[" * 2000 + "]" * 2000 + "\n\ndef after():\n    pass\n")
    assert [s.name for s in py.symbols] == ["x", "after"]
    render_everything(py)
    js = scan(Source("const a = " + "[{b: " * 2000 + "1" + "}]" * 2000 + ";\nfunction after() {}\n"), JAVASCRIPT)
    check_invariants(js)
    render_everything(js)
    unbalanced = scan(Source("{" * 2000 + "(" * 2000), JAVASCRIPT)
    check_invariants(unbalanced)
    render_everything(unbalanced)


def test_deeply_nested_javascript_functions_do_not_recurse_too_deep() -> None:
    depth = 1100  # past Python's recursion limit of 1000
    text = "".join(f"function f{i}() {{\n" for i in range(depth)) + "}\n" * depth
    with no_recursion_error():
        outline = scan(Source(text), JAVASCRIPT)
        listed = len(list(walk_all(outline.symbols)))
        assert listed <= MAX_NESTING
        render_everything(outline)
    assert listed + left_out(outline) == depth, "definitions were dropped without an H001 saying so"


@pytest.mark.parametrize(
    ("spec", "style"), [(languages.PLAIN, "indent"), (BRACES, "braces")], ids=["text-indent", "braces"]
)
def test_deep_nesting_in_the_fallback_scanner_is_capped(spec: languages.LanguageSpec, style: str) -> None:
    """The line heuristic nests blocks too; it must stop at MAX_NESTING like the tree scanner.

    Uncapped, ~1,000 levels make every recursive walker (Symbol.walk, the renderers) raise
    RecursionError; 300 levels show the missing cap without the scanner's quadratic cost.
    """
    depth = 300
    if style == "indent":
        text = "".join("  " * i + f"def f{i}():\n" for i in range(depth)) + "  " * depth + "pass\n"
    else:
        text = "".join(f"fun f{i}() {{\n" for i in range(depth)) + "}\n" * depth
    with no_recursion_error():
        outline = scan(Source(text), spec)
        listed = len(list(walk_all(outline.symbols)))
        assert listed == MAX_NESTING
        render_everything(outline)
    assert [d.code for d in outline.diagnostics] == ["H001"]
    assert left_out(outline) == depth - MAX_NESTING


def test_fallback_member_columns_point_at_the_name() -> None:
    """`val v: Int` names `v` at column 8, not the `v` of `val` at column 4."""
    outline = scan(Source("class P {\n    val v: Int\n    var a = 1\n}\n"), BRACES)
    members = {c.name: c for c in outline.symbols[0].children}
    assert members["v"].selection_range.start.character == 8
    assert members["a"].selection_range.start.character == 8


@pytest.mark.parametrize("spec", ALL_LANGUAGES, ids=LANGUAGE_IDS)
def test_empty_file(spec: languages.LanguageSpec) -> None:
    outline = scan(Source.from_bytes(b""), spec)
    assert outline.symbols == [] and outline.diagnostics == []
    assert outline.source.line_count == 1
    assert blockmarks.render_outline(outline, []) == ""
    assert blockmarks.render_outline(outline, [], "compact") == "V* [0E 0W in file]"
    assert blockmarks.render_full(outline, []) == ""
    assert table.render_table(outline.symbols) == table.HEADER
    assert table.render_standard(outline.symbols) == "[]"
    assert render_symbols_view(outline, "empty") == ["Found 0 symbols in file: empty (max depth 99)"]


@pytest.mark.parametrize("spec", ALL_LANGUAGES, ids=LANGUAGE_IDS)
def test_a_file_that_is_only_a_newline(spec: languages.LanguageSpec) -> None:
    outline = scan(Source.from_bytes(b"\n"), spec)
    assert outline.symbols == []
    assert outline.source.line_count == 1
    assert blockmarks.render_outline(outline, outline.diagnostics) == ""
    assert blockmarks.render_full(outline, outline.diagnostics) == ""
    check_invariants(outline)


def test_a_file_without_trailing_newline() -> None:
    text = "def f():\n    return 1\n\nclass C:\n    y = 2"
    outline = outline_py(text)
    assert outline.source.line_count == 5
    assert [(s.name, s.range.line_span()) for s in outline.symbols] == [("f", "L1-2"), ("C", "L4-5")]
    field = outline.symbols[1].children[0]
    assert field.name == "y" and (field.range.end.line, field.range.end.character) == (4, 9)
    assert blockmarks.render_full(outline, outline.diagnostics) == text
    assert blockmarks.render_expanded(outline, outline.symbols[1], "all") == "C_ class C: L4-5\n    y = 2"
    render_everything(outline)


def test_a_huge_data_file_is_outlined_up_to_its_limit_with_a_hint() -> None:
    """A 7 MB object of objects listed 400,000 keys in 34 s and 1.45 GB; now the outline
    stops at the language's limit and says so (H002)."""
    spec = languages.by_name("json")
    assert spec is not None and spec.max_definitions
    n = spec.max_definitions  # objects of two keys each: three definitions per entry
    text = "{\n" + ",\n".join(f'  "k{i}": {{"a": {i}, "b": {i}}}' for i in range(n)) + "\n}\n"
    outline = scan(Source(text), spec)
    assert sum(1 for _ in walk_all(outline.symbols)) == spec.max_definitions
    hints = [d for d in outline.diagnostics if d.code == "H002"]
    assert len(hints) == 1 and f"{spec.max_definitions:,}" in hints[0].message
    assert explain("H002").title
