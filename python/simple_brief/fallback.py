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


def _brace_end(lines: list[str], start: int) -> int:
    """Last line of a brace block opened on `start` (unbalanced: the last line)."""
    depth = 0
    opened = False
    for i in range(start, len(lines)):
        code = _strip_strings(lines[i])
        for ch in code:
            if ch == "{":
                depth += 1
                opened = True
            elif ch == "}":
                depth -= 1
        if opened and depth <= 0:
            return i
    return len(lines) - 1


def _strip_strings(line: str) -> str:
    """The line without string literals and trailing comments (`//`, `--`, ` #`)."""
    code = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', "", line)
    code = re.sub(r"(//|--|(?:^|\s)#).*$", "", code)
    return code


def _indent_end(lines: list[str], start: int) -> int:
    """Last line of an indentation block headed by `start` (trailing blank lines excluded)."""
    base = _indent(lines[start])
    last = start
    for i in range(start + 1, len(lines)):
        if not lines[i].strip():
            continue
        if _indent(lines[i]) <= base:
            break
        last = i
    return last


def scan_lines(lines: list[str], max_nesting: int = 64) -> tuple[list[Symbol], int]:
    """Symbols of `lines` by the header heuristic, nested by their blocks.

    Returns the top-level symbols and how many definitions nested deeper than
    `max_nesting` levels were left out.
    """
    roots: list[Symbol] = []
    stack: list[tuple[Symbol, int]] = []
    body_indents: dict[int, int | None] = {}
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
        end = _brace_end(lines, i) if "{" in code else _indent_end(lines, i)
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


def _body_indent(parent: Symbol, lines: list[str], i: int) -> int | None:
    """Indentation of the first real line of a container's body (at or before line `i`)."""
    for j in range(parent.range.start.line + 1, i + 1):
        if lines[j].strip() and lines[j].strip() not in ("{", "}"):
            return _indent(lines[j])
    return None


def _add_member(parent: Symbol, lines: list[str], i: int, body_indents: dict[int, int | None]) -> None:
    """A direct body line of a container that looks like a field or enum variant."""
    line = lines[i]
    key = id(parent)
    if body_indents.get(key) is None:
        body_indents[key] = _body_indent(parent, lines, i)
    body_indent = body_indents[key]
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
