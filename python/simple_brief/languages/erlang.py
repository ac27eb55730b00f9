"""Erlang: the module, functions by clause, records, types, macros and callbacks; `%`
comments above a definition are its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "erlang",
    (".erl", ".hrl"),
    "tree_sitter_language_pack.bindings.erlang:language",
    comment="%",
    docs=DocRules(imports=r"""(?m)^-include(?:_lib)?\(\s*"([^"]+)"""),
)
