"""What documents a definition in each language's own comment syntax, and where a
definition ends (scan/doc_comments.py, scan/treesitter.py)."""

from __future__ import annotations

import pytest

from simple_brief import languages
from simple_brief.model import Severity, walk_all
from simple_brief.scan import Outline, scan
from simple_brief.servers.folding import folds


def outline(filetype: str, text: str) -> Outline:
    spec = languages.by_name(filetype)
    assert spec is not None, filetype
    return scan(text, spec)


def symbol(out: Outline, name: str):  # type: ignore[no-untyped-def]
    found = [s for s in walk_all(out.symbols) if s.name == name]
    assert found, f"no {name} in {[s.name for s in walk_all(out.symbols)]}"
    return found[0]


@pytest.mark.parametrize(
    ("filetype", "text", "name", "doc"),
    [
        ("ocaml", "(** The area of a circle. *)\nlet area r =\n  3.14 *. r *. r\n", "area", "The area of a circle."),
        (
            "haskell",
            "module M where\n\nx = 1\n\n-- | A shape.\ndata Shape\n  = Circle\n  | Square\n",
            "Shape",
            "A shape.",
        ),
        (
            "html",
            '<body>\n<!-- Site navigation. -->\n<nav id="top">\n<a href="/">x</a>\n</nav>\n</body>\n',
            "top",
            "Site navigation.",
        ),
        (
            "julia",
            '"""\n    area(r)\n\nThe area.\n"""\nfunction area(r)\n    r * r\nend\n',
            "area",
            "area(r)\n\nThe area.",
        ),
        ("make", "# Build the program.\nbuild: main.o\n\tcc -o prog main.o\n", "build", "Build the program."),
        ("sql", "-- One row per user.\nCREATE TABLE users (\n  id integer\n);\n", "users", "One row per user."),
    ],
)
def test_the_comment_above_in_the_languages_own_syntax_is_the_doc(
    filetype: str, text: str, name: str, doc: str
) -> None:
    assert symbol(outline(filetype, text), name).doc == doc


def test_a_string_a_ruby_method_returns_is_not_its_doc() -> None:
    out = outline("ruby", 'class A\n  def name\n    "plain"\n  end\nend\n')
    assert symbol(out, "name").doc == ""


def test_a_definition_ends_at_its_last_line_not_at_the_blank_lines_after_it() -> None:
    out = outline("make", "build: main.o\n\tcc -o prog main.o\n\n\nclean:\n\trm -f prog\n")
    build = symbol(out, "build")
    assert (build.range.start.line, build.range.end.line) == (0, 1)


def test_a_dart_method_body_beside_its_signature_belongs_to_it_and_folds() -> None:
    text = "class A {\n  int twice(int x) {\n    final y = x * 2;\n    return y;\n  }\n}\n"
    out = outline("dart", text)
    twice = symbol(out, "twice")
    assert (twice.range.start.line, twice.range.end.line) == (1, 4)
    assert any(f.start_line == 1 and f.end_line == 4 for f in folds(out))


def test_csharp_attributes_and_pragmas_stay_out_of_the_signature() -> None:
    text = (
        "class A {\n"
        "    [Obsolete]\n"
        "#pragma warning disable IDE1006\n"
        "    public static int f(int v) {\n"
        "        return v;\n"
        "    }\n"
        "#pragma warning restore IDE1006\n"
        "}\n"
    )
    assert symbol(outline("cs", text), "f").signature == "public static int f(int v)"


def test_a_c_macro_keeps_its_parameters_in_the_signature() -> None:
    out = outline("c", "#define NEXT(i) ((i) + 1)\n")
    assert symbol(out, "NEXT").signature.startswith("#define NEXT(i)")


def test_sql_the_one_grammar_cannot_read_is_a_hint_not_an_error() -> None:
    # PostgreSQL accepts this; the one grammar for every dialect does not.
    out = outline(
        "sql", "CREATE OPERATOR === (LEFTARG = int, RIGHTARG = int, FUNCTION = f);\nCREATE TABLE t (id int);\n"
    )
    assert [(d.code, d.severity) for d in out.diagnostics] == [("H003", Severity.Hint)]
    assert symbol(out, "t")


ELIXIR = '''defmodule Shop do
  @moduledoc """
  The shop.

  Totals in cents.
  """

  @doc """
  Adds an item.
  """
  @spec add(list, term) :: list
  def add(stock, item) do
    [item | stock]
  end

  @doc false
  def hidden(x), do: x
end
'''


def test_elixir_doc_attribute_documents_the_function_below_with_its_spec() -> None:
    out = outline("elixir", ELIXIR)
    add = symbol(out, "add")
    assert add.doc == "Adds an item."
    assert (add.range.start.line, add.range.end.line) == (7, 13)  # from `@doc` to `end`
    assert symbol(out, "hidden").doc == ""


def test_elixir_doc_heredocs_fold() -> None:
    found = {(f.start_line, f.end_line) for f in folds(outline("elixir", ELIXIR))}
    assert (1, 5) in found  # @moduledoc
    assert (7, 13) in found  # @doc … end: the function with its doc
