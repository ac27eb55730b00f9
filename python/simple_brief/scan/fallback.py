"""Line-heuristic scanner for languages without a tree-sitter grammar (seed 000).

Recognises `fn`/`def`/`function`/`func`, `class`, `struct`, `enum`, `trait`,
`interface`, `impl`, `module` headers; a block is brace-delimited when its header
opens a `{`, otherwise indentation-delimited (the body is every following line
indented deeper than the header). Members of classes, structs and enums are the
body's direct lines that look like `name: type`, `name = value` or `Name,`.
"""

from __future__ import annotations

import re

from simple_brief.model import Position, Range, Symbol, SymbolKind

_HEADER = re.compile(
    r"^(?P<indent>\s*)(?:(?:pub(?:\([^)]*\))?|export|public|private|protected|static|async|abstract|final|"
    r"open|internal|data|sealed|override|inline|extern|unsafe|local)\s+)*"
    r"(?P<kw>fn|def|fun|func|function|class|struct|enum|trait|interface|impl|module|object)\b\s*"
    r"(?P<name>[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)?"
)
_MEMBER = re.compile(r"^\s*(?:(?:pub|val|var|let|const|case)\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*(?::|=|,|\(|;|$)")
_KW_KIND = {
    "fn": SymbolKind.Function,
    "def": SymbolKind.Function,
    "fun": SymbolKind.Function,
    "func": SymbolKind.Function,
    "function": SymbolKind.Function,
    "class": SymbolKind.Class,
    "object": SymbolKind.Object,
    "struct": SymbolKind.Struct,
    "enum": SymbolKind.Enum,
    "trait": SymbolKind.Interface,
    "interface": SymbolKind.Interface,
    "impl": SymbolKind.Object,
    "module": SymbolKind.Module,
}
_CONTAINERS = frozenset(
    {SymbolKind.Class, SymbolKind.Struct, SymbolKind.Enum, SymbolKind.Interface, SymbolKind.Object, SymbolKind.Module}
)
_KEYWORDS = frozenset(
    {
        "if",
        "else",
        "for",
        "while",
        "return",
        "match",
        "case",
        "pass",
        "end",
        "break",
        "continue",
        "let",
        "var",
        "val",
        "const",
        "fn",
        "def",
        "self",
        "this",
    }
)


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _strip_strings(line: str) -> str:
    """The line without string literals and trailing comments (`//`, `--`, ` #`)."""
    code = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', "", line)
    code = re.sub(r"(//|--|(?:^|\s)#).*$", "", code)
    return code


class _BlockEnds:
    """Where blocks end, found in one forward pass over the lines shared by every header.

    A brace block opened on line `s` ends on the first line `i >= s` after which the
    braces opened since `s` are all closed (unbalanced: the last line). An indentation
    block headed by `s` ends on the last non-blank line before the next non-blank line
    indented no deeper than `s` (none: the last non-blank line). Scanning forward from
    every header would be quadratic in nested or unclosed blocks; here each line is read
    once (monotonic stacks), only as far as a header needs.
    """

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        # Brace blocks: level[k] = braces open before line k; `open_` holds the k whose block
        # end is not found yet, with strictly rising levels.
        self._level = [0]
        self._open_braces: list[int] = [0]
        self._brace_end: dict[int, int] = {}
        # Indentation blocks: the next line to read, the last non-blank line read, the
        # non-blank lines whose block has not ended (indents strictly rising).
        self._next_row = 0
        self._last_text = -1
        self._open_indents: list[tuple[int, int]] = []
        self._indent_end: dict[int, int] = {}

    def brace_end(self, start: int) -> int:
        """Last line of the brace block opened on `start` (its code holds a `{`)."""
        lines, level, pending = self.lines, self._level, self._open_braces
        while start not in self._brace_end and len(level) <= len(lines):
            code = _strip_strings(lines[len(level) - 1])
            k = len(level)
            level.append(level[-1] + code.count("{") - code.count("}"))
            while pending and level[k] <= level[pending[-1]]:
                self._brace_end[pending.pop()] = k - 1
            pending.append(k)
        return self._brace_end.get(start, len(lines) - 1)

    def indent_end(self, start: int) -> int:
        """Last line of the indentation block headed by `start` (a non-blank line;
        trailing blank lines excluded)."""
        lines, pending = self.lines, self._open_indents
        while start not in self._indent_end and self._next_row < len(lines):
            row = self._next_row
            self._next_row += 1
            if not lines[row].strip():
                continue
            indent = _indent(lines[row])
            while pending and pending[-1][1] >= indent:
                self._indent_end[pending.pop()[0]] = self._last_text
            pending.append((row, indent))
            self._last_text = row
        return self._indent_end.get(start, self._last_text)


def scan_lines(lines: list[str], max_nesting: int = 64) -> tuple[list[Symbol], int]:
    """Symbols of `lines` by the header heuristic, nested by their blocks.

    Returns the top-level symbols and how many definitions nested deeper than
    `max_nesting` levels were left out.
    """
    roots: list[Symbol] = []
    stack: list[tuple[Symbol, int]] = []
    body_indents: dict[int, tuple[int | None, int]] = {}
    blocks = _BlockEnds(lines)
    too_deep = 0
    for i, line in enumerate(lines):
        while stack and i > stack[-1][1]:
            stack.pop()
        m = _HEADER.match(line)
        parent = stack[-1][0] if stack else None
        if m is None or not m.group("name"):
            if parent is not None and parent.kind in _CONTAINERS and line.strip():
                _add_member(parent, lines, i, body_indents)
            continue
        if len(stack) >= max_nesting:
            too_deep += 1
            continue
        kind = _KW_KIND[m.group("kw")]
        code = _strip_strings(line)
        end = blocks.brace_end(i) if "{" in code else blocks.indent_end(i)
        name = m.group("name")
        if kind == SymbolKind.Function and parent is not None and parent.kind in _CONTAINERS:
            kind = SymbolKind.Method
        name_col = m.start("name")
        header = re.sub(r"\s+", " ", code.strip()).rstrip("{:").rstrip()
        sym = Symbol(
            name=name,
            kind=kind,
            range=Range(Position(i, m.end("indent")), Position(end, len(lines[end]))),
            selection_range=Range(Position(i, name_col), Position(i, name_col + len(name))),
            signature=header,
        )
        if end > i:
            sym.body = Range(Position(i, len(line.rstrip())), Position(end, len(lines[end])))
        (parent.children if parent is not None else roots).append(sym)
        stack.append((sym, end))
    return roots, too_deep


def _body_indent(
    parent: Symbol, lines: list[str], i: int, known: tuple[int | None, int] | None
) -> tuple[int | None, int]:
    """Indentation of the first real line of a container's body (at or before line `i`), and
    the line to go on from: `known` is a previous answer, so no line is read twice."""
    if known is not None and known[0] is not None:
        return known
    start = known[1] if known is not None else parent.range.start.line + 1
    for j in range(start, i + 1):
        if lines[j].strip() and lines[j].strip() not in ("{", "}"):
            return _indent(lines[j]), j
    return None, max(start, i + 1)


def _add_member(parent: Symbol, lines: list[str], i: int, body_indents: dict[int, tuple[int | None, int]]) -> None:
    """A direct body line of a container that looks like a field or enum variant."""
    line = lines[i]
    key = id(parent)
    body_indents[key] = _body_indent(parent, lines, i, body_indents.get(key))
    body_indent = body_indents[key][0]
    if body_indent is None or _indent(line) != body_indent:
        return
    stripped = line.strip().lstrip("{").strip()
    if not stripped or stripped.startswith(("}", "#", "//", "--", "@")):
        return
    m = _MEMBER.match(stripped)
    if m is None or m.group("name") in _KEYWORDS:
        return
    if stripped[len(m.group(0)) - 1 : len(m.group(0))] == "(":
        return
    name = m.group("name")
    kind = SymbolKind.EnumMember if parent.kind == SymbolKind.Enum else SymbolKind.Field
    col = line.index(stripped) + m.start("name")
    rng = Range(Position(i, col), Position(i, len(line.rstrip())))
    parent.children.append(
        Symbol(name, kind, rng, Range(Position(i, col), Position(i, col + len(name))), stripped.rstrip(","))
    )
