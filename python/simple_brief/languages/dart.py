"""Dart: classes, mixins, enums, extensions and their members; `///` Markdown doc comments."""

from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "dart",
    (".dart",),
    "tree_sitter_dart:language",
    comment="//",
)
