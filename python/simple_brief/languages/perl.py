"""Perl: packages and subroutines (`package Foo::Bar;` runs to the next package or the
file's end: it is listed where it is written); its POD and comments above a sub are the
sub's doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "perl",
    (".pl", ".pm", ".t", ".psgi", ".plx", ".al"),
    "tree_sitter_language_pack.bindings.perl:language",
    comment="#",
    aliases=("pl",),
    docs=DocRules(separator="::", imports=r"^\s*(?:use|require)\s+([\w:]+)"),
)
