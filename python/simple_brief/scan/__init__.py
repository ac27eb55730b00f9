"""Source text -> Symbol tree: the grammar's tree (`parsing`), the tree-sitter scan
(`treesitter`), nesting by containment
(`nesting`), linear-time node and column helpers (`tree_index`), the line heuristic
for languages without a grammar (`fallback`), and JSON keys read without the query for
the symbol index (`json_keys`)."""

from simple_brief.scan.doc_comments import clean_docstring
from simple_brief.scan.nesting import MAX_NESTING
from simple_brief.scan.treesitter import Outline, scan

__all__ = ["MAX_NESTING", "Outline", "clean_docstring", "scan"]
