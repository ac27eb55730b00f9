"""JSON keys for the symbol index without running the outline query (`scan(lean=True)`).

`languages/json.scm` lists the keys of objects reached from the document through
object-valued keys, at most 10 levels deep, as ten patterns of one alternation each;
matching them costs more than the parse. Here the same keys are read by walking the
tree: a key named by a non-empty string whose value is an object (`Object`), an array
or a scalar (`Property`); the range is the pair's, the selection the text between the
quotes. The walk is used only while the query is the one it was written for (its
SHA-256 below) and only where it is known to find exactly what the query finds: no
syntax error, no comment among an object's keys (a comment above a key widens its
range), fewer keys than the language's cap. Otherwise `json_symbols` says None and the
query runs (`tests/index/test_parse_lean.py` compares the two on real files).
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import TYPE_CHECKING

from simple_brief import languages
from simple_brief.model import Symbol, SymbolKind
from simple_brief.scan.tree_index import Columns, clamp, trim_end
from simple_brief.source import Source

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from simple_brief.languages import LanguageSpec

#: SHA-256 of the composed `json.scm` this walk mirrors (a changed query turns it off).
QUERY_SHA256 = "301863e82968f02522fdb355de717661d5fa060973a54cdacd04b67336d276a3"
#: Levels of keys the query lists.
LEVELS = 10
_MEMBER_VALUES = frozenset({"array", "string", "number", "true", "false", "null"})
_WS = re.compile(r"\s+")


@cache
def applies(language: LanguageSpec) -> bool:
    """Whether `language`'s query is the one this walk mirrors (JSON's: its SHA-256)."""
    if language.names:
        return False
    try:
        text = languages.query_source(language)
    except (ImportError, OSError, languages.QueryInheritanceError):
        return False
    return hashlib.sha256(text.encode("utf-8")).hexdigest() == QUERY_SHA256


def json_symbols(source: Source, language: LanguageSpec, tree: Tree, columns: Columns) -> list[Symbol] | None:
    """The keys the outline query finds, flat (to be nested), or None where the walk
    might differ from the query (see the module doc)."""
    root = tree.root_node
    if root.has_error:
        return None
    found: list[Symbol] = []
    stack: list[tuple[Node, int]] = [(child, 1) for child in root.children if child.type == "object"]
    cap = language.max_definitions
    while stack:
        obj, level = stack.pop()
        for pair in obj.named_children:
            kind = pair.type
            if kind != "pair":
                if "comment" in kind:
                    return None
                continue
            value = pair.child_by_field_name("value")
            if value is None:
                continue
            if value.type == "object":
                sym = _key(source, columns, pair, SymbolKind.Object)
                if level < LEVELS:
                    stack.append((value, level + 1))
            elif value.type in _MEMBER_VALUES:
                sym = _key(source, columns, pair, SymbolKind.Property)
            else:
                continue
            if sym is not None:
                found.append(sym)
        if cap and len(found) >= cap:
            return None
    return found


def _key(source: Source, columns: Columns, pair: Node, kind: SymbolKind) -> Symbol | None:
    """The symbol of one key (as `treesitter._symbol_from_match` makes it from a match)."""
    key = pair.child_by_field_name("key")
    if key is None or key.type != "string":
        return None
    names = key.named_children
    if not names:
        return None
    name = _WS.sub(" ", source.slice_bytes(names[0].start_byte, names[-1].end_byte)).strip()
    if not name:
        return None
    whole = columns.range(pair.start_point, trim_end(source, pair))
    selection = columns.range(names[0].start_point, trim_end(source, names[-1]))
    return Symbol(name=name, kind=kind, range=whole, selection_range=clamp(selection, whole))


__all__ = ["LEVELS", "QUERY_SHA256", "applies", "json_symbols"]
