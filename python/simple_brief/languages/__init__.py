"""The languages: filetype <-> extensions <-> grammar <-> outline query <-> docs rules.

A language is one unit in this package: `<filetype>.py` declares its `SPEC` (a
`LanguageSpec`: extensions, grammar, comment syntax, docs rules) and `<filetype>.scm` is its
outline query. `UNITS` lists them. Filetype names are Neovim's (`typescriptreact` for .tsx),
so the editor side and the engine agree without a mapping table of their own.

A query may start with `; inherits: a, b` (the nvim-treesitter convention): the named
queries' text comes first, each once (`compose_query`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import PurePath
from typing import TYPE_CHECKING

from simple_brief.languages.spec import DocRules, LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Language, Query

__all__ = [
    "FALLBACK_LANGUAGES",
    "LANGUAGES",
    "PLAIN",
    "UNITS",
    "DocRules",
    "LanguageSpec",
    "QueryInheritanceError",
    "by_name",
    "compose_query",
    "detect",
    "docs_rules",
    "filetypes",
    "for_path",
    "grammar",
    "outline_query",
    "query_source",
]

#: The language units (modules of this package), in the order they are listed.
UNITS: tuple[str, ...] = (
    "python",
    "lua",
    "javascript",
    "typescript",
    "typescriptreact",
    "rust",
    "go",
    "c",
    "cpp",
    "java",
    "markdown",
)

#: The languages with a tree-sitter grammar: each unit's `SPEC`.
LANGUAGES: tuple[LanguageSpec, ...] = tuple(importlib.import_module(f"{__name__}.{unit}").SPEC for unit in UNITS)

_JAVADOC = DocRules(html=True, typed_throws=True)

#: Languages served by the line-heuristic fallback scanner only (no unit: no grammar, no query).
FALLBACK_LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec("simple", (".spl",), comment="#"),
    LanguageSpec("ruby", (".rb",), comment="#"),
    LanguageSpec("sh", (".sh", ".bash"), comment="#"),
    LanguageSpec("kotlin", (".kt", ".kts"), comment="//", docs=_JAVADOC),
    LanguageSpec("swift", (".swift",), comment="//"),
    LanguageSpec("cs", (".cs",), comment="//"),
    LanguageSpec("scala", (".scala",), comment="//", docs=_JAVADOC),
    LanguageSpec("zig", (".zig",), comment="//"),
)

#: The spec used for files of no known language: the fallback scanner, `#` comments.
PLAIN = LanguageSpec("text", (), comment="#")

_BY_NAME = {key: spec for spec in LANGUAGES + FALLBACK_LANGUAGES for key in (spec.name, *spec.filetypes, *spec.aliases)}
_BY_EXT = {ext: spec for spec in LANGUAGES + FALLBACK_LANGUAGES for ext in spec.extensions}


def by_name(name: str) -> LanguageSpec | None:
    """The language for a Neovim filetype (or a common alias), or None."""
    return _BY_NAME.get(name.lower())


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


def filetypes() -> list[str]:
    """The Neovim filetypes with a tree-sitter outline (the Lua side's default `filetypes`)."""
    return [ft for spec in LANGUAGES for ft in (spec.name, *spec.filetypes)]


def docs_rules(language: str) -> DocRules:
    """The docs rules of a language by its name (the defaults for an unknown one)."""
    spec = by_name(language)
    return spec.docs if spec is not None else PLAIN.docs


@cache
def grammar(spec: LanguageSpec) -> Language:
    """The tree-sitter Language of `spec` (loaded once per process)."""
    from tree_sitter import Language

    module_name, func = spec.grammar.split(":")
    module = importlib.import_module(module_name)
    return Language(getattr(module, func)())


class QueryInheritanceError(ValueError):
    """A query's `; inherits:` line names an unknown query or makes a loop."""


_INHERITS = re.compile(r";+\s*inherits\s*:\s*(.*)")


def compose_query(name: str, read: Callable[[str], str | None]) -> str:
    """The text of query `name` with the queries it inherits first, each once, depth first.

    Args:
        name: the query's name (`typescript` for `typescript.scm`).
        read: a query's text by name, or None when there is no such query.

    Raises:
        QueryInheritanceError: an inherited query does not exist, or inheritance loops.
    """
    parts: list[str] = []
    done: set[str] = set()

    def visit(current: str, chain: tuple[str, ...]) -> None:
        if current in chain:
            loop = " -> ".join(f"{q}.scm" for q in (*chain[chain.index(current) :], current))
            raise QueryInheritanceError(f"the outline queries inherit in a loop ({loop}); remove one `; inherits:`")
        if current in done:
            return
        text = read(current)
        if text is None and not chain:
            raise QueryInheritanceError(f"there is no {current}.scm for the language {current}; add one beside it")
        if text is None:
            raise QueryInheritanceError(
                f"{chain[-1]}.scm inherits {current}, but there is no {current}.scm beside it; fix its `; inherits:`"
            )
        first = text.split("\n", 1)[0]
        found = _INHERITS.match(first)
        for parent in found.group(1).split(",") if found else ():
            if parent.strip():
                visit(parent.strip(), (*chain, current))
        done.add(current)
        parts.append(text)

    visit(name, ())
    return "\n".join(parts)


def _read_query(name: str) -> str | None:
    """A query file shipped as package data, or None."""
    path = resources.files(__name__).joinpath(f"{name}.scm")
    return path.read_text(encoding="utf-8") if path.is_file() else None


def query_source(spec: LanguageSpec) -> str:
    """Text of the language's outline query, the queries it inherits first."""
    return compose_query(spec.name, _read_query)


@cache
def outline_query(spec: LanguageSpec) -> Query:
    """The compiled outline query of `spec` (compiled once per process)."""
    from tree_sitter import Query

    return Query(grammar(spec), query_source(spec))
