"""Scanner rules the fixtures do not exercise on their own."""

from __future__ import annotations

from simple_brief.model import SymbolKind, walk_all

from conftest import outline_of


def test_typescript_declare_keeps_its_doc_and_decorators_stay_out_of_signatures() -> None:
    outline = outline_of(
        "/** Docs for f. */\nexport declare function f(x: number): void;\n\n"
        "@Component({ selector: 'x' })\nexport class Comp {\n  @Input() value: string;\n}\n",
        "typescript",
    )
    symbols = {s.name: s for s in walk_all(outline.symbols)}
    assert symbols["f"].signature == "export declare function f(x: number): void"
    assert symbols["f"].doc == "Docs for f."
    assert symbols["f"].range.start.line == 0  # the doc comment belongs to the range
    assert symbols["Comp"].signature == "export class Comp"
    assert symbols["Comp"].range.start.line == 3  # the decorator stays in the range
    assert symbols["value"].signature == "value: string"


def test_a_function_in_an_enum_class_is_a_method() -> None:
    outline = outline_of("class Role(Enum):\n    A = 1\n\n    def can_write(self):\n        return True\n", "python")
    assert [(s.name, s.kind) for s in walk_all(outline.symbols)][-1] == ("can_write", SymbolKind.Method)


def test_leading_comments_of_many_siblings_attach_to_the_right_definition() -> None:
    # 300 documented functions: each doc is its own, none is taken from a neighbour's
    # trailing comment (`x = 1  -- note` belongs to its line).
    text = "".join(f"-- Doc {i}.\nlocal function f{i}()\nend\nlocal x{i} = 1 -- note {i}\n" for i in range(300))
    outline = outline_of(text, "lua")
    docs = {s.name: s.doc for s in walk_all(outline.symbols) if s.kind == SymbolKind.Function}
    assert docs["f0"] == "Doc 0." and docs["f299"] == "Doc 299."
    assert all("note" not in d for d in docs.values())


def test_comments_between_a_signatures_parts_stay_out_of_it() -> None:
    # importlib/resources/_common.py: a comment between two parameters.
    python = outline_of(
        "def _tempfile(\n    reader,\n    suffix='',\n"
        "    # gh-93353: Keep a reference to call os.remove() in late Python\n"
        "    # finalization.\n    *,\n    _os_remove=os.remove,\n):\n    pass\n",
        "python",
    )
    assert python.symbols[0].signature == "def _tempfile( reader, suffix='', *, _os_remove=os.remove, )"
    c = outline_of(
        "void write_png(char *file_name /* , ... other image information ... */)\n{\n}\n"
        "static inline bool //_Py_NO_SANITIZE_THREAD\nis_incomplete(int frame)\n{\n  return 0;\n}\n"
        "#define CHECK_ON 0x1 /* Control and mode bit */\n",
        "c",
    )
    signatures = {s.name: s.signature for s in walk_all(c.symbols)}
    assert signatures["write_png"] == "void write_png(char *file_name)"
    assert signatures["is_incomplete"] == "static inline bool is_incomplete(int frame)"
    # A comment that ends a member's line says what it is for: it stays.
    assert signatures["CHECK_ON"] == "#define CHECK_ON 0x1 /* Control and mode bit */"
