"""Elixir: modules, functions by clause, `@type`/`@callback`, ExUnit tests.

`@doc` above a function is its doc (`DocRules.doc_attribute`), with the `@spec` and
`@impl` between; `@doc`/`@moduledoc`/`@typedoc` heredocs fold like docstrings.
"""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "elixir",
    (".ex", ".exs"),
    "tree_sitter_elixir:language",
    comment="#",
    aliases=("ex",),
    docs=DocRules(doc_attribute="doc"),
)
