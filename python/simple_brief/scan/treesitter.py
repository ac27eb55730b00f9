"""Source text -> Symbol tree (tree-sitter outline queries; line-heuristic fallback).

Queries are data (`languages/<filetype>.scm`, composed with the ones they inherit) written
in one capture vocabulary, documented in `languages/README.md`:

- `@definition.<kind>` the whole definition node (`function`, `method`, `class`, ...)
- `@name` the node(s) naming it; several are joined by the text between them
- `@body` the part that folds away in an outline
- `@scope` the type a definition written outside it belongs to (a Go method's receiver
  type): `Symbol.scope`, which qualifies its name without nesting it
- `@import` an import statement (summarised in outlines, folded as a block)

Nesting is not written in queries: symbols nest by range containment (`nesting.nest`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from simple_brief import languages
from simple_brief.model import (
    Diagnostic,
    Position,
    Range,
    Severity,
    Symbol,
    SymbolKind,
)
from simple_brief.scan.doc_comments import doc_text, is_comment, last_line, leading
from simple_brief.scan.fallback import scan_lines
from simple_brief.scan.json_keys import applies as json_walk_applies
from simple_brief.scan.json_keys import json_symbols
from simple_brief.scan.nesting import MAX_NESTING, nest, too_deep_hint, too_many_hint
from simple_brief.scan.parsing import parse
from simple_brief.scan.tree_index import Columns, Family, clamp, trim_end
from simple_brief.source import Source

if TYPE_CHECKING:
    from tree_sitter import Node, Query, Tree

    from simple_brief.languages import LanguageSpec

log = logging.getLogger(__name__)

#: Capture suffix -> LSP kind.
CAPTURE_KINDS: dict[str, SymbolKind] = {
    "function": SymbolKind.Function,
    "method": SymbolKind.Method,
    "constructor": SymbolKind.Constructor,
    "class": SymbolKind.Class,
    "interface": SymbolKind.Interface,
    "trait": SymbolKind.Interface,
    "impl": SymbolKind.Object,
    "object": SymbolKind.Object,
    "struct": SymbolKind.Struct,
    "enum": SymbolKind.Enum,
    "enum_member": SymbolKind.EnumMember,
    "field": SymbolKind.Field,
    "property": SymbolKind.Property,
    "constant": SymbolKind.Constant,
    "variable": SymbolKind.Variable,
    "module": SymbolKind.Module,
    "namespace": SymbolKind.Namespace,
    "type": SymbolKind.TypeParameter,
    "heading": SymbolKind.String,
}

#: A definition this close to a pass's depth limit starts a pass of its own.
_RESCAN_MARGIN = 6
#: Signatures of members without a body (fields, constants) are cut to this many characters.
MEMBER_SIGNATURE_CHARS = 100
#: Signatures of blocks are cut to this many characters: a header the grammar misreads (C++
#: in a `.h` read as C) can otherwise swallow a whole struct, comments and all.
BLOCK_SIGNATURE_CHARS = 400
#: Wrapper nodes whose start is the definition's start (decorators, `export`, templates).
_WRAPPERS = frozenset(
    {"decorated_definition", "export_statement", "template_declaration", "ambient_declaration", "statement"}
)
#: Wrappers whose text belongs in the signature (`export function f()`).
_SIGNATURE_WRAPPERS = frozenset({"export_statement", "ambient_declaration"})
_WS = re.compile(r"\s+")


@dataclass
class Outline:
    """Everything the renderers need about one document.

    Attributes:
        source: the text and its position maps.
        language: the language used to read it.
        symbols: the top-level symbols, children nested.
        imports: 0-based line ranges (first, last) of import blocks (adjacent statements merged).
        import_lines: 0-based lines that belong to an import statement.
        diagnostics: reading notes: the regions the grammar could not read (H003), invalid
            UTF-8 (W001), definitions left out (H001, H002); never the file's own errors.
        tree: the tree-sitter tree, when a grammar was used (kept for incremental reparse).
    """

    source: Source
    language: LanguageSpec
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[tuple[int, int]] = field(default_factory=list)
    import_lines: set[int] = field(default_factory=set)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    tree: Tree | None = None


def scan(
    text: str | Source,
    language: LanguageSpec,
    old_tree: Tree | None = None,
    *,
    lean: bool = False,
    for_folds: bool = False,
    parsed: Tree | None = None,
) -> Outline:
    """Read `text` into an Outline with the language's grammar, or the fallback scanner.

    Args:
        text: the document text (or an already decoded Source).
        language: from `languages.detect`.
        old_tree: a previous tree already `edit()`ed to match `text`, for incremental parsing.
        lean: only what the symbol index stores (`index.parse.rows_of`): every symbol's
            name, kind, range, selection range and nesting, and the diagnostics, exactly as
            a full scan gives them; signatures, doc comments, bodies and import spans are
            left empty (a grammar's symbols keep `body` None). The tools' outlines never
            ask for it.
        for_folds: only what `servers.folding.folds` reads: every symbol's `doc` is left
            empty, its `selection_range` is its `range`, and the signature of a symbol on
            one line (it never folds) is empty; everything else is as in a full scan.
        parsed: the tree an earlier scan of this same text made (`Outline.tree`), used as
            it is: no parse.
    """
    source = text if isinstance(text, Source) else Source(text)
    if not language.has_grammar:
        symbols, too_deep = scan_lines(source.lines, MAX_NESTING)
        outline = Outline(source, language, symbols=symbols)
        if too_deep:
            outline.diagnostics.append(too_deep_hint(too_deep))
    else:
        outline = _scan_tree(source, language, old_tree, lean, for_folds, parsed)
    if source.lossy:
        outline.diagnostics.insert(
            0,
            Diagnostic(
                Range(Position(0, 0), Position(0, 0)),
                "the file is not valid UTF-8; invalid bytes are shown as U+FFFD",
                Severity.Warning,
                "W001",
            ),
        )
    return outline


def _scan_tree(
    source: Source,
    language: LanguageSpec,
    old_tree: Tree | None,
    lean: bool = False,
    for_folds: bool = False,
    parsed: Tree | None = None,
) -> Outline:
    from tree_sitter import QueryCursor

    query = _outline_query_or_none(language)
    if query is None:
        symbols, too_deep = scan_lines(source.lines, MAX_NESTING)
        diagnostics = [no_grammar_warning(language), *([too_deep_hint(too_deep)] if too_deep else [])]
        return Outline(source, language, symbols=symbols, diagnostics=diagnostics)
    tree = parsed if parsed is not None else parse(source, language, old_tree)
    if lean and json_walk_applies(language):
        keys = json_symbols(source, language, tree, Columns(source))
        if keys is not None:
            outline = Outline(source, language, tree=tree)
            outline.symbols = nest(keys, outline.diagnostics)
            return outline
    found: dict[tuple[int, int, str], Symbol] = {}
    imports: list[tuple[int, int]] = []
    limit = language.max_start_depth
    # Matches start at most `limit` levels below where a pass starts, so deep expression
    # trees are skipped; a definition found near that depth gets a pass of its own, so
    # nested definitions are still all found. Each pass starts at a newly found
    # definition and looks at most `limit` levels down, so the loop ends and stays cheap.
    family = Family()
    columns = Columns(source)
    starts: list[tuple[Node, int]] = [(tree.root_node, 0)]
    cap = language.max_definitions
    while starts and not (cap and len(found) >= cap):
        start, start_depth = starts.pop()
        cursor = QueryCursor(query)
        cursor.set_max_start_depth(limit)
        for _pattern, caps in cursor.matches(start):
            if "import" in caps:
                if not lean:
                    statement = caps["import"][0]
                    imports.append((statement.start_point[0], last_line(statement)))
                continue
            def_name = _definition_capture(caps)
            if def_name is None:
                continue
            node = caps[def_name][0]
            below = family.descend(start, node)
            found_one = _symbol_from_match(source, caps, def_name, family, columns, language, lean, for_folds)
            if found_one is None:
                continue
            sym, has_body = found_one
            key = (sym.range.start.line, sym.range.start.character, sym.name)
            if key in found:
                continue
            found[key] = sym
            if cap and len(found) >= cap:
                break
            if has_body and sym.is_block and below >= limit - _RESCAN_MARGIN:
                starts.append((node, start_depth + below))
    outline = Outline(source, language, tree=tree)
    if cap and len(found) >= cap:
        outline.diagnostics.append(too_many_hint(cap))
    if language.flat_headings:
        _headings_to_sections(source, found.values())
    outline.symbols = nest(list(found.values()), outline.diagnostics)
    outline.imports = _merge_import_lines(imports)
    outline.import_lines = {row for first, last in imports for row in range(first, last + 1)}
    # An empty (or blank) file holds nothing the grammar could not read, though grammars
    # that want a root element or a definition (XML, GraphQL, PowerShell) say so.
    if tree.root_node.has_error and source.data.strip():
        outline.diagnostics.extend(unread_regions(source, tree.root_node))
    return outline


@cache
def _outline_query_or_none(language: LanguageSpec) -> Query | None:
    """The language's query, or None (warned once) when its grammar or query cannot load."""
    from tree_sitter import QueryError

    try:
        return languages.outline_query(language)
    except (ImportError, OSError, QueryError, languages.QueryInheritanceError) as err:
        # A missing grammar (wheel, Neovim parser) or a broken query must not cost the user
        # their outline; the outline says why it is the heuristic's (`no_grammar_warning`).
        log.warning("no tree-sitter outline for %s (%s); using the line heuristic", language.name, err)
        _NO_OUTLINE_REASONS[language] = str(err)
        return None


#: Why a language's grammar or query did not load, by language (`_outline_query_or_none`).
_NO_OUTLINE_REASONS: dict[LanguageSpec, str] = {}


def no_grammar_warning(language: LanguageSpec) -> Diagnostic:
    """W003: this outline is the line heuristic's, because the language's grammar or query did not load."""
    reason = _NO_OUTLINE_REASONS.get(language, "its grammar did not load")
    return Diagnostic(
        Range(Position(0, 0), Position(0, 0)),
        f"no tree-sitter outline for {language.name}: {reason}; this outline comes from the line heuristic",
        Severity.Warning,
        "W003",
    )


def _range(source: Source, start: tuple[int, int], end: tuple[int, int]) -> Range:
    """A Range from tree-sitter points, columns in characters and never past the line's end
    (a token may hold the `\r` of a CRLF line ending)."""
    return Range(
        Position(start[0], min(source.char_col(start[0], start[1]), _line_len(source, start[0]))),
        Position(end[0], min(source.char_col(end[0], end[1]), _line_len(source, end[0]))),
    )


def _line_len(source: Source, row: int) -> int:
    return len(source.lines[row]) if row < len(source.lines) else 0


def _node_range(source: Source, node: Node) -> Range:
    return _range(source, node.start_point, node.end_point)


def _definition_capture(caps: dict[str, list[Node]]) -> str | None:
    """The match's `definition.<kind>` capture name (the first), or None."""
    for name in caps:
        if name.startswith("definition."):
            return name
    return None


def _symbol_from_match(
    source: Source,
    caps: dict[str, list[Node]],
    def_name: str,
    family: Family,
    columns: Columns,
    language: LanguageSpec,
    lean: bool = False,
    for_folds: bool = False,
) -> tuple[Symbol, bool] | None:
    """The symbol of one match (`def_name` its definition capture), and whether it has a
    body (`lean`: without signature, doc and body; `for_folds`: without doc, selection
    range and, on one line, signature; see `scan`)."""
    kind = CAPTURE_KINDS.get(def_name[11:])  # after `definition.`
    if kind is None:
        return None
    node = caps[def_name][0]
    outer = node
    while (up := family.parent(outer)) is not None and up.type in _WRAPPERS:
        outer = up
    names = caps.get("name", [])
    if len(names) > 1:
        names = sorted(names, key=_start_byte)
    body_nodes = caps.get("body", [])
    body = body_nodes[0] if body_nodes else None
    if names:
        name = source.slice_bytes(names[0].start_byte, names[-1].end_byte)
        if language.names:
            name = languages.function(language.names)(name)
        if not name.isidentifier():  # an identifier holds no white space to fold
            name = _WS.sub(" ", name).strip()
    else:
        name = _WS.sub(" ", source.lines[node.start_point[0]]).strip()
    if kind == SymbolKind.String and not names:
        name = _heading_text(source, node)
    if not name:
        return None
    end_point = trim_end(source, node)
    if body is not None and body.end_byte > node.end_byte:
        # The body is the definition's next sibling (Dart: `method_signature`, then
        # `function_body`): the definition runs to the body's end.
        end_point = trim_end(source, body)
    docstrings = language.docs.docstrings
    lead_start, lead_comments = leading(outer, family, docstrings, language.docs.doc_attribute)
    whole = columns.range(lead_start or outer.start_point, end_point)
    scope = caps.get("scope")
    scope_name = source.slice_bytes(scope[0].start_byte, scope[0].end_byte) if scope else ""
    if for_folds:
        selection = whole  # folds never read it
    elif names:
        selection = columns.range(names[0].start_point, trim_end(source, names[-1]))
    else:
        selection = columns.range(node.start_point, trim_end(source, node))
    if for_folds and whole.start.line == whole.end.line:
        # On one line: no signature and no body (a heading's is its range), as below.
        sym = Symbol(name=name, kind=kind, range=whole, selection_range=whole, scope=scope_name)
        if kind == SymbolKind.String:
            sym.body = whole
        return sym, sym.body is not None
    if lean:
        sym = Symbol(name=name, kind=kind, range=whole, selection_range=clamp(selection, whole), scope=scope_name)
        # Whether the full symbol has a body: it spans lines, or is a heading (below).
        return sym, kind == SymbolKind.String or end_point[0] > node.start_point[0]
    sig_node = node
    while (up := family.parent(sig_node)) is not None and up.type in _SIGNATURE_WRAPPERS:
        sig_node = up
    header_end, header_point = _header_end(node, body)
    sig_end = _signature_end(source, header_end, body, names, node)
    markers = language.comment_marks
    signature = _signature(source, _after_decorators(sig_node), sig_end, body is not None, sig_node, markers) + (
        " …" if source.data[sig_end:header_end].strip() else ""
    )
    sym = Symbol(
        name=name,
        kind=kind,
        range=whole,
        selection_range=clamp(selection, whole),
        signature=signature,
        doc="" if for_folds else doc_text(source, lead_comments, body, docstrings),
        scope=scope_name,
    )
    if body is not None and end_point[0] > node.start_point[0]:
        sym.body = columns.range(header_point, end_point)
    elif body is None and end_point[0] > node.start_point[0] and kind != SymbolKind.String:
        sym.body = columns.range(node.start_point, end_point)
    if kind == SymbolKind.String:
        sym.body = sym.range
    return sym, sym.body is not None


def _start_byte(node: Node) -> int:
    return node.start_byte


#: A line that only rules off the next heading (vimdoc's `====`/`----`): not the section's end.
_RULE_LINE = re.compile(r"^\s*(=+|-+)\s*$")


def _headings_to_sections(source: Source, symbols: Iterable[Symbol]) -> None:
    """`LanguageSpec.flat_headings`: each heading runs to the last line of text before the
    next heading (or the file's end), rule lines and blank lines left out; the lines after
    the heading are its body."""
    headings = sorted((s for s in symbols if s.kind == SymbolKind.String), key=lambda s: s.range.start)
    for heading, following in zip(headings, [*headings[1:], None], strict=False):
        last = following.range.start.line - 1 if following is not None else len(source.lines) - 1
        while last > heading.range.end.line and (
            not source.lines[last].strip() or _RULE_LINE.match(source.lines[last])
        ):
            last -= 1
        if last > heading.range.end.line:
            end = Position(last, len(source.lines[last]))
            heading.range = Range(heading.range.start, end)
            heading.body = Range(Position(heading.selection_range.end.line + 1, 0), end)


def _heading_text(source: Source, node: Node) -> str:
    """A heading with no `@name` (the title of an reST or LaTeX section): the full line
    (`## Title`) of a section, or of a heading node."""
    line = source.lines[node.start_point[0]]
    return line.strip()


def _header_end(node: Node, body: Node | None) -> tuple[int, tuple[int, int]]:
    """Byte and point where the declaration ends: the last non-comment token before the body.

    The body may sit deeper than a direct child (`M.f = function(a) ... end`,
    `const f = (a) => { ... }`): the walk descends into the child that holds it.
    """
    if body is None:
        return node.end_byte, node.end_point
    end = (node.start_byte, node.start_point)
    current: Node | None = node
    while current is not None:
        holder = None
        for child in current.children:
            if child.start_byte >= body.start_byte:
                break
            if child.end_byte > body.start_byte:
                holder = child
                break
            if not is_comment(child) and not _is_directive(child):
                end = (child.end_byte, child.end_point)
        current = holder
    return end


def _after_decorators(node: Node) -> int:
    """Where a declaration's own text starts: after leading decorators (`@Component(...)`),
    which stay in the range but not in the signature (as Python's do)."""
    start = node.start_byte
    for child in node.children:
        if child.type not in _BEFORE_SIGNATURE and not _is_directive(child):
            return child.start_byte if start != node.start_byte else start
        start = child.end_byte
    return start


def _is_directive(node: Node) -> bool:
    """A preprocessor line inside a declaration (C#'s `#pragma warning disable` between an
    attribute and the method), not a part of a macro definition (`#define F(x)`)."""
    return node.type.startswith("preproc_") and node.type not in ("preproc_params", "preproc_arg")


#: Children at a declaration's start that stay out of its signature: decorators, C#'s
#: `[Attribute]` lists (and `#pragma` lines between them).
_BEFORE_SIGNATURE = frozenset({"decorator", "attribute_list"})


def _signature_end(source: Source, header_end: int, body: Node | None, names: list[Node], node: Node) -> int:
    """Where a signature ends: at the body, or (no body) at the end of the name's line."""
    if body is not None:
        return header_end
    row = names[-1].end_point[0] if names else node.start_point[0]
    if row + 1 < len(source.lines):
        return min(header_end, source.line_start(row + 1) - 1)
    return header_end


def _signature(
    source: Source,
    start: int,
    end: int,
    has_body: bool,
    node: Node | None = None,
    comment_markers: tuple[bytes, ...] | None = None,
) -> str:
    """The declaration up to its body, whitespace-normalised, without a trailing `{` or `:`
    and without the comments between its parts (`suffix='', # gh-93353: …` in parameters).

    Without a body (fields, constants, `local M = {}`) it runs to the end of the name's
    line (see `_signature_end`). With `comment_markers` (the language's `comment_marks`),
    the tree is searched for comments only when the text holds one of them.
    """
    text = source.slice_bytes(start, end)
    if node is not None and (
        comment_markers is None or any(source.data.find(mark, start, end) >= 0 for mark in comment_markers)
    ):
        pieces = []
        at = start
        for first, last in _comments_within(node, start, end):
            pieces.append(source.slice_bytes(at, first))
            at = last
        # A comment ending the text (`#define A 1 /* why */`) stays: it says what the
        # member is for; those between the parts of a declaration go.
        if pieces and source.slice_bytes(at, end).strip():
            text = _join_around_comments([*pieces, source.slice_bytes(at, end)])
    sig = _WS.sub(" ", text).strip()
    limit = BLOCK_SIGNATURE_CHARS if has_body else MEMBER_SIGNATURE_CHARS
    if len(sig) > limit:
        sig = sig[: limit - 1].rstrip() + "…"
    while sig and sig[-1] in "{:=(;" and not sig.endswith(("::", "+=")):
        sig = sig[:-1].rstrip()
    return sig


def _join_around_comments(pieces: list[str]) -> str:
    """The text around the comments cut out of it: one space where a comment was, none
    inside brackets' edges or before a comma (`f(char *name /* … */)` → `f(char *name)`)."""
    text = pieces[0].rstrip()
    for piece in pieces[1:]:
        piece = piece.lstrip()
        glue = "" if not text or not piece or text[-1] in "([{" or piece[0] in ")]},;" else " "
        text += glue + piece.rstrip()
    return text


def _comments_within(node: Node, start: int, end: int) -> list[tuple[int, int]]:
    """Byte spans of the comment nodes lying wholly inside `start`..`end`, in order; only the
    nodes that reach into that span are visited (a member's header is its first line)."""
    found: list[tuple[int, int]] = []
    cursor = node.walk()
    while True:
        current = cursor.node
        assert current is not None
        if is_comment(current):
            if start <= current.start_byte and current.end_byte <= end:
                found.append((current.start_byte, current.end_byte))
        elif cursor.goto_first_child_for_byte(start) is not None:
            if cursor.node.start_byte < end:  # type: ignore[union-attr]
                continue
            cursor.goto_parent()
        # the next node reaching into the span: a sibling starting before `end`, or an ancestor's
        while True:
            if cursor.depth == 0:
                return found
            if cursor.goto_next_sibling() and cursor.node.start_byte < end:  # type: ignore[union-attr]
                break
            cursor.goto_parent()


def _merge_import_lines(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Adjacent import statements (blank lines between allowed) as one span each."""
    merged: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        if merged and first <= merged[-1][1] + 2:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


#: At most this many unread regions are reported for one file (each is one hint).
MAX_UNREAD_REGIONS = 50


def unread_regions(source: Source, root: Node, limit: int = MAX_UNREAD_REGIONS) -> list[Diagnostic]:
    """H003, one per region the grammar could not read: its ERROR nodes (text it skipped)
    and MISSING nodes (a token it assumed), those on the same or adjacent lines merged.

    These are the grammar's limits, not the file's errors: a grammar older than the
    language, a macro it cannot see through or a dialect it does not know reads a valid
    file as errors. Whether the file is valid is for a checker or a language server to
    say (`simple_brief.intel.checkers`).
    """
    nodes: list[Node] = []
    stack = [root]
    while stack and len(nodes) < limit * 4:
        node = stack.pop()
        if node.is_missing or node.type == "ERROR":
            nodes.append(node)
        elif node.has_error:
            stack.extend(reversed(node.children))
    regions: list[list[Node]] = []
    for node in sorted(nodes, key=lambda n: (n.start_byte, n.end_byte)):
        if regions and node.start_point[0] <= max(n.end_point[0] for n in regions[-1]) + 1:
            regions[-1].append(node)
        elif len(regions) < limit:
            regions.append([node])
    return [_unread_hint(source, region) for region in regions]


def _unread_hint(source: Source, region: list[Node]) -> Diagnostic:
    start = min(_node_range(source, n).start for n in region)
    end = max(_node_range(source, n).end for n in region)
    first = start.line + 1
    last = end.line if end.character == 0 and end.line > start.line else end.line + 1  # (ends at a line's start)
    where = f"line {first}" if first == last else f"lines {first}–{last}"
    missing = list(dict.fromkeys(n.type for n in region if n.is_missing))
    expected = f" (it expected {', '.join(f'`{t}`' for t in missing[:3])})" if missing else ""
    return Diagnostic(Range(start, end), f"the grammar could not read {where}{expected}", Severity.Hint, "H003")
