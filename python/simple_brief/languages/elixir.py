"""Elixir: modules, functions by clause, `@type`/`@callback`, ExUnit tests.

`@doc`/`@moduledoc` heredocs are module attributes, not comments: the scanner does not
take them as docs and folding does not fold them (yet).
"""

from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "elixir",
    (".ex", ".exs"),
    "tree_sitter_elixir:language",
    comment="#",
    aliases=("ex",),
)
