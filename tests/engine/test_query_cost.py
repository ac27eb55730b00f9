"""What keeps a cold outline cheap, tested structurally (no timings: `bench/query_cost.py` times it).

- An outline query is compiled on first use, per language: a search over Python files
  never compiles the C++ query (the costly one), in a fresh process.
- The C++ query names most declarators by a wildcard with the tokens and fields only
  that declarator has (`(_ "*" declarator: …)` for a pointer declarator): tree-sitter
  analyses a typed node with typed children against the grammar when the query is
  compiled, and C++'s grammar makes that cost most of a cold outline. These signatures
  must keep meaning the same node types, which is checked here on real C++ text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from simple_brief import languages

if TYPE_CHECKING:
    from tree_sitter import Node

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "outline"

_SEARCH = """
import json, sys
from simple_brief import languages
from simple_brief.tools import Call, invoke
from simple_brief.files.workspace import Workspace

call = Call(Workspace.at(sys.argv[1]))
before = sorted(languages.compiled_queries())
invoke("search", {"query": "helper"}, call)
invoke("workspace_symbols", {"query": "", "kind": "class"}, call)
print(json.dumps({"before": before, "after": sorted(languages.compiled_queries())}))
"""


def _compiled_by_search(root: Path) -> dict[str, list[str]]:
    """The queries compiled by a fresh process that searches `root`."""
    done = subprocess.run(
        [sys.executable, "-c", _SEARCH, str(root)], capture_output=True, text=True, check=True, timeout=120
    )
    result: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_search_over_python_files_compiles_only_the_python_query(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "app.py").write_text("class App:\n    def helper(self):\n        return 1\n")
    (tmp_path / "pkg" / "util.py").write_text("def helper():\n    return 2\n")
    (tmp_path / "notes.txt").write_text("int main() { return 0; }\n")
    assert _compiled_by_search(tmp_path) == {"before": [], "after": ["python"]}


def test_search_compiles_the_query_of_each_language_it_meets(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def helper():\n    return 1\n")
    (tmp_path / "lib.cpp").write_text("namespace n {\nint helper() { return 2; }\n}\n")
    assert _compiled_by_search(tmp_path) == {"before": [], "after": ["cpp", "python"]}


def test_a_query_is_compiled_once() -> None:
    spec = languages.by_name("python")
    assert spec is not None
    assert languages.outline_query(spec) is languages.outline_query(spec)
    assert "python" in languages.compiled_queries()


#: Wildcard spellings in cpp.scm -> the node types they may match (abstract declarators
#: cannot hold a name, so the patterns that use them still mean the named declarator).
SIGNATURES = {
    "(_ declarator: (_) parameters: (_)) @x": {"function_declarator", "abstract_function_declarator"},
    '(_ "*" declarator: (_)) @x': {"pointer_declarator", "abstract_pointer_declarator"},
    '(_ declarator: (_) "[") @x': {"array_declarator", "abstract_array_declarator"},
    "(_ declarator: (_) value: (_)) @x": {"init_declarator"},
    '(_ ["&" "&&"] (_)) @x': {"reference_declarator", "abstract_reference_declarator"},
    '(_ "(" (_)) @x': {"parenthesized_declarator", "abstract_parenthesized_declarator"},
}

#: Where cpp.scm uses each spelling: as the declarator (or inside one) of these nodes.
_DECLARATOR_HOLDERS = (
    "declaration",
    "field_declaration",
    "function_definition",
    "type_definition",
)

_SNIPPET = b"""
int a, *b, **c, d[3], e[2][2], &f = a, (*g)(int), h = 1, *i = 0, j[1] = {0};
int k(), *l(int), **m(), (*n(int))(char), &o();
typedef int T, *PT, AT[2], (*FT)(int), *(*PFT(int))(void);
struct S { int x, *y, z[2], &r, (*cb)(int); int f(); int *g(); int &h(); S(); ~S(); operator bool(); };
auto p = [](int x) { return x; };
int q(int (*cmp)(const void *, const void *));
void *r(int *const s, int (&t)[2]);
template <class U> U *u(U &v) { int w[2] = {}; return &v; }
"""

#: Declarators whose inner declarator is not in a `declarator` field.
_UNNAMED_CHILD = ("reference_declarator", "parenthesized_declarator")


def _in_declarator(node: Node) -> bool:
    """Whether `node` is where the outline query uses the spellings: a declarator of a
    declaration, field, function or typedef, or nested in one through declarators."""
    current = node
    while (parent := current.parent) is not None:
        by_field = current in parent.children_by_field_name("declarator")
        if parent.type in _DECLARATOR_HOLDERS:
            return by_field
        if not (by_field or parent.type.endswith(_UNNAMED_CHILD)):
            return False
        current = parent
    return False


def _cpp_corpus() -> list[bytes]:
    texts = [_SNIPPET, (FIXTURES / "cpp.cpp").read_bytes(), (FIXTURES / "c.c").read_bytes()]
    include = Path("/usr/include/c++")
    if include.is_dir():
        texts += [p.read_bytes() for p in sorted(include.glob("*/bits/stl_*.h"))[:12]]
    return texts


@pytest.mark.parametrize("signature", sorted(SIGNATURES))
def test_declarator_signatures_name_their_node_types(signature: str) -> None:
    from tree_sitter import Parser, Query, QueryCursor

    spec = languages.by_name("cpp")
    assert spec is not None
    grammar = languages.grammar(spec)
    query = Query(grammar, signature)
    parser = Parser(grammar)
    seen: set[str] = set()
    for text in _cpp_corpus():
        for node in QueryCursor(query).captures(parser.parse(text).root_node).get("x", []):
            if _in_declarator(node):
                seen.add(node.type)
    assert seen, f"{signature} matched nothing: the corpus no longer tests it"
    assert seen <= SIGNATURES[signature], f"{signature} also matches {sorted(seen - SIGNATURES[signature])}"
