"""The languages: filetype <-> extensions <-> grammar <-> outline query <-> docs rules.

A language is one unit in this package: `<filetype>.py` declares its `SPEC` (a
`LanguageSpec`: extensions, grammar, comment syntax, docs rules) and `<filetype>.scm` is its
outline query; `UNITS` is every such module found here. Filetype names are Neovim's (`typescriptreact` for .tsx),
so the editor side and the engine agree without a mapping table of their own.

A query may start with `; inherits: a, b` (the nvim-treesitter convention): the named
queries' text comes first, each once (`compose_query`).
"""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Callable
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from simple_brief.languages import _generic_outline, _neovim_parsers
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
    "compiled_queries",
    "compose_query",
    "detect",
    "docs_rules",
    "documented",
    "filetypes",
    "for_path",
    "function",
    "grammar",
    "outline_query",
    "query_source",
]


def _is_glob(name: str) -> bool:
    return any(c in name for c in "*?[")


def _unit_names() -> tuple[str, ...]:
    """The language units: every `<filetype>.py` of this package (not `spec.py`, not `_x.py`)."""
    names = (entry.name for entry in resources.files(__name__).iterdir())
    found = (name.removesuffix(".py") for name in names if name.endswith(".py"))
    return tuple(sorted(name for name in found if name != "spec" and not name.startswith("_")))


#: The language units (modules of this package), sorted by name: adding a language is
#: adding its `<filetype>.py` and `<filetype>.scm`.
UNITS: tuple[str, ...] = _unit_names()

#: The languages with a tree-sitter grammar: each unit's `SPEC`.
LANGUAGES: tuple[LanguageSpec, ...] = tuple(importlib.import_module(f"{__name__}.{unit}").SPEC for unit in UNITS)

#: Languages served by the line-heuristic fallback scanner only (no unit: no grammar, no query).
FALLBACK_LANGUAGES: tuple[LanguageSpec, ...] = (LanguageSpec("simple", (".spl",), comment="#"),)

#: The spec used for files of no known language: the fallback scanner, `#` comments.
PLAIN = LanguageSpec("text", (), comment="#")

_BY_NAME = {key: spec for spec in LANGUAGES + FALLBACK_LANGUAGES for key in (spec.name, *spec.filetypes, *spec.aliases)}
_BY_EXT = {ext: spec for spec in LANGUAGES + FALLBACK_LANGUAGES for ext in spec.extensions}
_BY_FILE_NAME = {name: spec for spec in LANGUAGES for name in spec.file_names if not _is_glob(name)}
_FILE_NAME_GLOBS = [
    (name, spec) for spec in LANGUAGES for name in spec.file_names if _is_glob(name) and "/" not in name
]
#: Patterns of a file's last path parts (`doc/*.txt`, `queries/*/*.scm`), as Neovim's
#: filetype patterns: tried before the ending (a query is `.scm`, as Scheme is).
_PATH_GLOBS = [(name.split("/"), spec) for spec in LANGUAGES for name in spec.file_names if "/" in name]


def _path_glob_spec(path: PurePath) -> LanguageSpec | None:
    parts = path.parts
    for pattern, spec in _PATH_GLOBS:
        tail = parts[-len(pattern) :]
        if len(tail) == len(pattern) and all(fnmatchcase(part, glob) for part, glob in zip(tail, pattern, strict=True)):
            return spec
    return None


def by_name(name: str) -> LanguageSpec | None:
    """The language for a Neovim filetype (or a common alias), or None."""
    return _BY_NAME.get(name.lower())


def for_path(path: str | PurePath) -> LanguageSpec:
    """The language of a file by its name (`Makefile`), a pattern of its last path parts
    (`doc/*.txt`), its ending, or a name pattern (`Dockerfile.*`); PLAIN when none is known."""
    pure = path if isinstance(path, PurePath) else PurePath(path)  # parsed once: the walk asks per file
    name = pure.name
    spec = _BY_FILE_NAME.get(name) or _path_glob_spec(pure) or _BY_EXT.get(_suffix(name).lower())
    if spec is not None:
        return spec
    # A pattern only where the ending says nothing (`Makefile.toml` is TOML, as in Neovim).
    return next((spec for pattern, spec in _FILE_NAME_GLOBS if fnmatchcase(name, pattern)), PLAIN)


def _suffix(name: str) -> str:
    """`PurePath(name).suffix` of a file name, without making a path."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def documented(path: str | PurePath) -> bool:
    """Whether the docs index reads this file: a known language whose docs rules index it."""
    spec = for_path(path)
    return spec is not PLAIN and spec.docs.indexed


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


def filetypes_lua() -> str:
    """`lua/simple_brief/filetypes.lua`: `filetypes()` for the Neovim side (`make languages` writes it)."""
    lines = "".join(f"  '{ft}',\n" for ft in filetypes())
    return (
        "-- Generated by `make languages` from the engine's language units"
        " (python/simple_brief/languages/): do not edit.\n"
        "-- The filetypes with a tree-sitter outline: the default of `filetypes` in setup().\n"
        f"return {{\n{lines}}}\n"
    )


def docs_rules(language: str) -> DocRules:
    """The docs rules of a language by its name (the defaults for an unknown one)."""
    spec = by_name(language)
    return spec.docs if spec is not None else PLAIN.docs


@cache
def function(ref: str) -> Callable[..., Any]:
    """The function a unit names as `module:function` (its grammar, `guard`, `names`)."""
    module_name, name = ref.split(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module_name), name)
    return found


def parseable(spec: LanguageSpec, data: bytes) -> bytes:
    """`data` as `spec`'s grammar may be given it: its `guard` applied (same length, so
    the tree's ranges stay the real text's). Every parse of a language's text goes
    through here."""
    return function(spec.guard)(data) if spec.guard else data


#: A unit's `grammar="neovim:NAME"`: the parser Neovim ships (`_neovim_parsers`), where no
#: wheel has the grammar (vimdoc).
NEOVIM_GRAMMAR = "neovim"


@cache
def grammar(spec: LanguageSpec) -> Language:
    """The tree-sitter Language of `spec` (loaded once per process): `module:function` of a
    grammar wheel, or `neovim:NAME` (Neovim's own parser; `NeovimParserMissing`, an
    OSError, when none is found)."""
    from tree_sitter import Language

    kind, _, name = spec.grammar.partition(":")
    pointer = _neovim_parsers.language(name) if kind == NEOVIM_GRAMMAR else function(spec.grammar)()
    with warnings.catch_warnings():
        # Older wheels (tree-sitter-dockerfile 0.2, the only release) hand over an int,
        # which tree-sitter < 0.27 (pinned) still takes with a DeprecationWarning.
        warnings.simplefilter("ignore", DeprecationWarning)
        return Language(pointer)


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
    """Text of the language's outline query, the queries it inherits first; for a language
    with a grammar and no written `<ft>.scm`, the definitions of the `queries/tags.scm` its
    grammar ships (`_generic_outline`).

    Raises:
        QueryInheritanceError: no written query, and the grammar ships no tags.scm; or a
            written query's inheritance is broken.
    """
    if spec.has_grammar and _read_query(spec.name) is None:
        generic = _generic_outline.generic_query(spec.grammar)
        if generic is not None:
            return generic
    return compose_query(spec.name, _read_query)


#: Compiled outline queries by language: each compiled on first use, once per process.
_QUERIES: dict[LanguageSpec, Query] = {}


def outline_query(spec: LanguageSpec) -> Query:
    """The compiled outline query of `spec`, compiled on first use (once per process).

    Compiling is the costly part of a cold outline (C++: tens of milliseconds against its
    large grammar), so it happens only for a language a file of which is read: a search
    over Python files never compiles the C++ query (`compiled_queries`).
    """
    query = _QUERIES.get(spec)
    if query is None:
        from tree_sitter import Query

        query = _QUERIES[spec] = Query(grammar(spec), query_source(spec))
    return query


def compiled_queries() -> frozenset[str]:
    """The languages whose outline query this process has compiled so far."""
    return frozenset(spec.name for spec in _QUERIES)
