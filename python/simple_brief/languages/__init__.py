"""One registry: filetype <-> extensions <-> tree-sitter grammar <-> outline query.

Filetype names are Neovim's (`typescriptreact` for .tsx), so the editor side and the
engine agree without a mapping table of their own.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import PurePath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language, Query


@dataclass(frozen=True)
class LanguageSpec:
    """What the engine knows about one language.

    Attributes:
        name: Neovim filetype.
        extensions: file name endings, with the dot.
        grammar: `module:function` returning the tree-sitter language pointer, or ""
            for languages handled by the line-heuristic fallback only.
        comment: line-comment prefix used for inline markers in `full` mode.
        comment_end: closing part for block-only comment syntaxes (Markdown).
        query: the query file's language when another language's is shared (TSX uses TypeScript's).
        max_start_depth: syntax-tree depth below which no definition is looked for;
            lets the query skip deep expression trees (scanning stays close to a parse).
    """

    name: str
    extensions: tuple[str, ...]
    grammar: str = ""
    comment: str = "#"
    comment_end: str = ""
    max_start_depth: int = 16
    query: str = ""

    @property
    def has_grammar(self) -> bool:
        """Whether a tree-sitter grammar (and an outline query) serves this language."""
        return bool(self.grammar)

    @property
    def query_file(self) -> str:
        """Name of the outline query in `simple_brief/queries/` (another language's when shared)."""
        return f"{self.query or self.name}.scm"


LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec("python", (".py", ".pyi", ".pyw"), "tree_sitter_python:language", "#"),
    LanguageSpec("lua", (".lua",), "tree_sitter_lua:language", "--"),
    LanguageSpec("javascript", (".js", ".mjs", ".cjs", ".jsx"), "tree_sitter_javascript:language", "//"),
    LanguageSpec("typescript", (".ts", ".mts", ".cts"), "tree_sitter_typescript:language_typescript", "//"),
    # TSX's node types for definitions are TypeScript's: one query serves both.
    LanguageSpec("typescriptreact", (".tsx",), "tree_sitter_typescript:language_tsx", "//", query="typescript"),
    LanguageSpec("rust", (".rs",), "tree_sitter_rust:language", "//"),
    LanguageSpec("go", (".go",), "tree_sitter_go:language", "//"),
    LanguageSpec("c", (".c", ".h"), "tree_sitter_c:language", "//"),
    LanguageSpec(
        "cpp", (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".h++", ".c++"), "tree_sitter_cpp:language", "//"
    ),
    LanguageSpec("java", (".java",), "tree_sitter_java:language", "//"),
    LanguageSpec("markdown", (".md", ".markdown"), "tree_sitter_markdown:language", "<!--", " -->"),
)

#: Languages served by the line-heuristic fallback scanner only.
FALLBACK_LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec("simple", (".spl",), comment="#"),
    LanguageSpec("ruby", (".rb",), comment="#"),
    LanguageSpec("sh", (".sh", ".bash"), comment="#"),
    LanguageSpec("kotlin", (".kt", ".kts"), comment="//"),
    LanguageSpec("swift", (".swift",), comment="//"),
    LanguageSpec("cs", (".cs",), comment="//"),
    LanguageSpec("scala", (".scala",), comment="//"),
    LanguageSpec("zig", (".zig",), comment="//"),
)

_BY_NAME = {spec.name: spec for spec in LANGUAGES + FALLBACK_LANGUAGES}
_BY_EXT = {ext: spec for spec in LANGUAGES + FALLBACK_LANGUAGES for ext in spec.extensions}
#: Filetype aliases other tools use for the same grammar.
_ALIASES = {
    "py": "python",
    "js": "javascript",
    "ts": "typescript",
    "tsx": "typescriptreact",
    "javascriptreact": "javascript",
    "jsx": "javascript",
    "c++": "cpp",
    "md": "markdown",
    "rs": "rust",
    "golang": "go",
}

#: The spec used for files of no known language: the fallback scanner, `#` comments.
PLAIN = LanguageSpec("text", (), comment="#")


def by_name(name: str) -> LanguageSpec | None:
    """The language for a Neovim filetype (or a common alias), or None."""
    key = name.lower()
    return _BY_NAME.get(_ALIASES.get(key, key))


def for_path(path: str | PurePath) -> LanguageSpec:
    """The language of a file by its ending; PLAIN when none is known."""
    suffix = PurePath(path).suffix.lower()
    return _BY_EXT.get(suffix, PLAIN)


def detect(path: str | PurePath, filetype: str | None = None) -> LanguageSpec:
    """A filetype given by the editor wins over the file ending."""
    if filetype:
        spec = by_name(filetype)
        if spec is not None:
            return spec
    return for_path(path)


@cache
def grammar(spec: LanguageSpec) -> Language:
    """The tree-sitter Language of `spec` (loaded once per process)."""
    from tree_sitter import Language

    module_name, func = spec.grammar.split(":")
    module = importlib.import_module(module_name)
    return Language(getattr(module, func)())


def query_source(spec: LanguageSpec) -> str:
    """Text of the outline query shipped as package data."""
    return resources.files("simple_brief.languages").joinpath(spec.query_file).read_text(encoding="utf-8")


@cache
def outline_query(spec: LanguageSpec) -> Query:
    """The compiled outline query of `spec` (compiled once per process)."""
    from tree_sitter import Query

    return Query(grammar(spec), query_source(spec))
