"""The generic outline: a language with a grammar but no written `<ft>.scm` is outlined by
the definitions of the `queries/tags.scm` its grammar wheel ships (the tree-sitter tags
convention, as GitHub's code navigation and Aider read it).

tags.scm already speaks our capture vocabulary (`@definition.KIND` on the definition node,
`@name` on its name); its `@reference.*` patterns are left out (they find uses, not
definitions), and the few kinds we have no word for get the nearest one (`macro` is a
function). The query is split into its top-level patterns by the tree-sitter query
grammar itself (the bundle's `query`), so comments, strings and nesting need no
hand-written reader.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Parser

#: tags.scm kinds outside our vocabulary, and ours for them.
_KINDS = {"macro": "function", "call": "function", "var": "variable", "const": "constant"}
_DEFINITION = re.compile(r"@definition\.(\w+)")


def shipped_tags(grammar_ref: str) -> Path | None:
    """The `queries/tags.scm` the grammar module of `grammar_ref` (`module:function`) ships, or None."""
    module = grammar_ref.partition(":")[0]
    try:
        found = importlib.util.find_spec(module.split(".")[0])
    except (ImportError, ValueError):
        return None
    for location in (found.submodule_search_locations or []) if found else []:
        tags = Path(location) / "queries" / "tags.scm"
        if tags.is_file():
            return tags
    return None


@cache
def _query_parser() -> Parser:
    from tree_sitter import Language, Parser

    query = importlib.import_module("tree_sitter_language_pack.bindings.query")
    return Parser(Language(query.language()))


def definitions_of(tags: str) -> str:
    """The definition patterns of a tags.scm's text, in our capture vocabulary."""
    parser = _query_parser()
    data = tags.encode("utf-8")
    kept: list[str] = []
    for item in parser.parse(data).root_node.named_children:
        text = data[item.start_byte : item.end_byte].decode("utf-8")
        if item.type != "comment" and _DEFINITION.search(text):
            kept.append(_DEFINITION.sub(lambda m: f"@definition.{_KINDS.get(m.group(1), m.group(1))}", text))
    return "\n\n".join(kept)


def generic_query(grammar_ref: str) -> str | None:
    """The outline query made from the grammar's shipped tags.scm, or None when it ships none."""
    tags = shipped_tags(grammar_ref)
    if tags is None:
        return None
    query = definitions_of(tags.read_text(encoding="utf-8"))
    return query or None
