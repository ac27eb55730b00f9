"""Perl: packages and subroutines (`package Foo::Bar;` runs to the next package or the
file's end: it is listed where it is written); the comments above a sub are its doc.

Guard: tree-sitter-perl (bundle 0.13) never returns from a parse whose text ends in a
comment with no newline after it, when the statement before ends in a bareword (`x #c`,
`return n # done`, `n\\n# end`): the last byte of such a text is given to the grammar as a
newline (same length, so every position stays the file's; the comment loses its last
character, nothing else changes)."""

from simple_brief.languages.spec import DocRules, LanguageSpec


def comment_at_eof_ends_in_newline(data: bytes) -> bytes:
    """`data`, its last byte a newline when its last line holds a `#` and no newline ends it."""
    if not data or data.endswith(b"\n") or b"#" not in data[data.rfind(b"\n") + 1 :]:
        return data
    return data[:-1] + b"\n"


SPEC = LanguageSpec(
    "perl",
    (".pl", ".pm", ".t", ".psgi", ".plx", ".al"),
    "tree_sitter_language_pack.bindings.perl:language",
    comment="#",
    aliases=("pl",),
    guard="simple_brief.languages.perl:comment_at_eof_ends_in_newline",
    docs=DocRules(separator="::", imports=r"^\s*(?:use|require)\s+([\w:]+)"),
)
