"""Block-mark views of a document (seed 000): full, outline, compact, and expand_at.

    F> def square(x: int) -> int { ... } L3-5
    V* [E]:5 type mismatch
    C> class User(Base) { name, age, 2 methods } L7-19
    S> struct Point { x, y } L21-24
    E> enum Color { Red, Green, Blue } L26-30

`>` marks a collapsed block, `_` an open one; every mark line ends with its 1-based
line span (after one space: two cost a token more on every line) so an agent can ask
`expand_at line:N`. A level of nesting is one space of indent. Member lines (fields,
constants) show their declaration and line. Lines outside any definition are summarised.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from itertools import pairwise

from simple_brief.model import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Diagnostic,
    Severity,
    Symbol,
    SymbolKind,
    walk_all,
)
from simple_brief.scan import Outline

INDENT = "  "
#: One nesting level of the outline: one space (` F>` after a newline is one token less
#: than `  F>`, on every line inside a class).
OUTLINE_INDENT = " "
#: Between a line's text and its span (`… { ... } L3-5`).
SPAN_SEP = " "
#: Names listed in a collapsed container's braces before `+N more`.
MEMBER_NAMES_SHOWN = 8
#: Characters of one member shown in an outline (longer values are elided).
MEMBER_TEXT_CHARS = 60
#: Width at which a merged line of members wraps.
MEMBER_LINE_CHARS = 160
#: Characters of a summarised top-level line shown.
GAP_TEXT_CHARS = 72

_MARKS = {SymbolKind.Struct: "S", SymbolKind.Enum: "E"}
_MEMBER_NOUNS = {
    "method": ("method", "methods"),
    "class": ("class", "classes"),
    "function": ("function", "functions"),
}


def mark_letter(sym: Symbol) -> str:
    """`F`, `C`, `S` or `E` for block symbols; "" for members and headings."""
    if sym.kind in FUNCTION_KINDS:
        return "F"
    if sym.kind in CLASS_KINDS:
        return "C"
    return _MARKS.get(sym.kind, "")


def _plural(n: int, noun: str) -> str:
    one, many = _MEMBER_NOUNS.get(noun, (noun, noun + "s"))
    return f"{n} {one if n == 1 else many}"


def container_summary(sym: Symbol) -> str:
    """`name, age, 2 methods` — member names listed, nested blocks counted."""
    names: list[str] = []
    counts: dict[str, int] = {}
    for child in sym.children:
        if child.kind in FUNCTION_KINDS:
            counts["method"] = counts.get("method", 0) + 1
        elif child.kind in CLASS_KINDS or child.kind in (SymbolKind.Struct, SymbolKind.Enum):
            noun = "class" if child.kind in CLASS_KINDS else child.kind.name.lower()
            counts[noun] = counts.get(noun, 0) + 1
        elif child.kind != SymbolKind.String:
            names.append(child.name)
    parts = names[:MEMBER_NAMES_SHOWN]
    if len(names) > MEMBER_NAMES_SHOWN:
        parts.append(f"+{len(names) - MEMBER_NAMES_SHOWN} more")
    parts.extend(_plural(n, noun) for noun, n in counts.items())
    return ", ".join(parts)


def mark_text(sym: Symbol, open_: bool = False) -> str:
    """A symbol's mark line without its span: block mark, signature, elided body."""
    letter = mark_letter(sym)
    signature = sym.signature or sym.name
    if not letter:
        return signature
    if open_:
        return f"{letter}_ {signature}"
    if sym.kind in FUNCTION_KINDS:
        body = " { ... }" if sym.body is not None else ""
        return f"{letter}> {signature}{body}"
    summary = container_summary(sym)
    if summary:
        return f"{letter}> {signature} {{ {summary} }}"
    if sym.body is None:
        return f"{letter}> {signature}"
    # Nothing listed inside: `{ }` only where the body is one line (`struct Empty {}`); a
    # longer one holds what the outline does not list (a CSS rule's declarations).
    return (
        f"{letter}> {signature} {{ ... }}"
        if sym.body.end.line > sym.body.start.line
        else f"{letter}> {signature} {{ }}"
    )


def mark_line(sym: Symbol, open_: bool = False) -> str:
    """The one-line view of a symbol: block mark, signature, elided body, line span (`mark_text`
    is the same without the span)."""
    return f"{mark_text(sym, open_)}{SPAN_SEP}{sym.range.line_span()}"


def _opens(sym: Symbol, level: int, depth: int | None) -> bool:
    """Whether a symbol at `level` (1 = top) shows its children as lines of their own."""
    if sym.kind in (SymbolKind.Struct, SymbolKind.Enum):
        return False
    if not sym.children:
        return False
    if sym.kind in FUNCTION_KINDS and not any(c.is_block for c in sym.children):
        return False
    return depth is None or level < depth


def diag_line(diag: Diagnostic) -> str:
    tag = diag.severity.letter
    code = f" {diag.code}" if diag.code else ""
    line = f"V* [{tag}]:{diag.range.start.line + 1}{code} {diag.message}"
    return line


def _fix_lines(diag: Diagnostic) -> list[str]:
    return [f"V* [H] {fix.title}" for fix in diag.fixits]


def severity_counts(diagnostics: Iterable[Diagnostic]) -> str:
    """`2E 1W` — errors and warnings, plus infos and hints when present."""
    counts = {s: 0 for s in Severity}
    for d in diagnostics:
        counts[d.severity] += 1
    text = f"{counts[Severity.Error]}E {counts[Severity.Warning]}W"
    if counts[Severity.Information]:
        text += f" {counts[Severity.Information]}I"
    if counts[Severity.Hint]:
        text += f" {counts[Severity.Hint]}H"
    return text


def _is_member(sym: Symbol) -> bool:
    """Fields, constants, variables: shown as text, merged with their neighbours."""
    return not sym.is_block and sym.kind != SymbolKind.String


#: `local a, b, c` / `var a, b int` / `a, b`: keywords, then two or more names, then a type.
_MULTI_NAME = re.compile(r"^(?P<kw>(?:\w+\s+)*?)(?P<names>[\w.$]+(?:\s*,\s*[\w.$]+)+)(?P<rest>[^,]*)$")


def _multi_name_text(target: str, has_value: bool) -> str | None:
    """A too-long declaration of several names, cut at a name: `local a, b (+7 names) = …`."""
    match = _MULTI_NAME.match(target.strip())
    if not match:
        return None
    names = [n.strip() for n in match["names"].split(",")]
    text = match["kw"] + names[0]
    shown = 1
    while shown < len(names) and len(text) + len(names[shown]) + 2 <= MEMBER_TEXT_CHARS - 16:
        text += ", " + names[shown]
        shown += 1
    if shown < len(names):
        text += f" (+{len(names) - shown} names)"
    else:
        text += match["rest"].rstrip()
    return text + (" = …" if has_value else "")


def member_text(sym: Symbol) -> str:
    """A member as the outline shows it: `name: int`, `LIMIT = 10`, `self.name` (value dropped).

    A declaration of several names too long to show is cut at a name and says how many
    names are left out; every name of it then shares that one text (shown once)."""
    sig = sym.signature or sym.name
    target, eq, _value = sig.partition(" = ")
    if not eq and sig.rstrip().endswith("=") and not sig.rstrip().endswith(("==", "!=", "<=", ">=")):
        target, eq = sig.rstrip()[:-1], "="
    if len(target) + 4 > MEMBER_TEXT_CHARS and not target.startswith(("self.", "this.")):
        multi = _multi_name_text(target, bool(eq))
        if multi is not None:
            return multi
    if eq and (target.startswith(("self.", "this.")) or len(sig) > MEMBER_TEXT_CHARS):
        text = target if target.startswith(("self.", "this.")) else f"{target} = …"
    else:
        text = _cut(sig, MEMBER_TEXT_CHARS)
    # Never cut the name itself: every definition stays named in the outline.
    return text if sym.name in text else sym.name


class _Pending:
    """Diagnostics not shown yet, in document order; those starting on given lines are taken
    out without looking at the others (a scan of every pending diagnostic per symbol would
    be quadratic in a file with many of both)."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self._diags = sorted(diagnostics, key=lambda d: d.range.start)
        self._lines = [d.range.start.line for d in self._diags]
        # _next[i]: the first index >= i not taken yet (len(_diags) when none); paths are
        # shortened as they are followed.
        self._next = list(range(len(self._diags) + 1))

    def _first_left(self, i: int) -> int:
        root = i
        while self._next[root] != root:
            root = self._next[root]
        while self._next[i] != root:
            self._next[i], i = root, self._next[i]
        return root

    def take(self, first: int, last: int) -> Iterator[Diagnostic]:
        """The diagnostics starting on lines `first`..`last`, in order, no longer pending."""
        i = self._first_left(bisect_left(self._lines, first))
        while i < len(self._diags) and self._lines[i] <= last:
            self._next[i] = i + 1
            yield self._diags[i]
            i = self._first_left(i + 1)

    def rest(self) -> Iterator[Diagnostic]:
        """Every diagnostic still pending, in order."""
        i = self._first_left(0)
        while i < len(self._diags):
            yield self._diags[i]
            i = self._first_left(i + 1)


class _OutlineWriter:
    def __init__(self, outline: Outline, depth: int | None, diagnostics: list[Diagnostic], per_symbol: bool):
        self.outline = outline
        self.depth = depth
        self.per_symbol = per_symbol
        self.pending = _Pending(diagnostics)
        self.out: list[str] = []
        #: Symbols the outline shows: as a line, a member, or named or counted in braces.
        self.listed = 0
        # Import spans are sorted and disjoint (`scan._merge_import_lines`): found by bisection.
        self._import_ends = [last for _first, last in outline.imports]
        self._import_rows = _import_rows(outline)

    def write(self) -> list[str]:
        lines = self.outline.source.lines
        cursor = 0
        run: list[Symbol] = []
        for sym in self.outline.symbols:
            if any(lines[i].strip() for i in range(cursor, sym.range.start.line)):
                self._members(run, 1)
                run = []
                self._gap(cursor, sym.range.start.line - 1)
            if _is_member(sym):
                run.append(sym)
            else:
                self._members(run, 1)
                run = []
                self._symbol(sym, 1)
            cursor = max(cursor, sym.range.end.line + 1)
        self._members(run, 1)
        self._gap(cursor, len(lines) - 1)
        hidden = sum(1 for _ in walk_all(self.outline.symbols)) - self.listed
        if hidden > 0:
            # Nothing is cut silently (SPEC): definitions inside collapsed blocks are counted.
            self.out.append(
                f".. +{hidden} nested {'definition' if hidden == 1 else 'definitions'} not listed"
                " (one-line, inside collapsed blocks or past depth): mode=symbols lists them,"
                " expand_at NAME or line:N opens one, a larger depth=N opens containers"
            )
        if self.per_symbol:
            for diag in self.pending.rest():
                self.out.append(diag_line(diag))
                self.out.extend(_fix_lines(diag))
        return self.out

    def _members(self, run: list[Symbol], level: int) -> None:
        """Consecutive fields/constants as few lines: `a: int; b = 2 L3-4`."""
        if not run:
            return
        # One declaration of several names (`int a, b;`) is one member text, shown once.
        seen: set[tuple[int, int, str]] = set()
        unique = []
        for sym in run:
            key = (sym.range.start.line, sym.range.start.character, member_text(sym))
            if key not in seen:
                seen.add(key)
                unique.append(sym)
        diag_run, run = run, unique
        self.listed += len(diag_run)
        prefix = OUTLINE_INDENT * (level - 1)
        line: list[str] = []
        first = last = run[0]
        for sym in run:
            text = member_text(sym)
            if line and sum(len(t) + 2 for t in line) + len(text) > MEMBER_LINE_CHARS:
                self.out.append(
                    f"{prefix}{'; '.join(line)}{SPAN_SEP}{_span(first.range.start.line, last.range.end.line)}"
                )
                line, first = [], sym
            line.append(text)
            last = sym
        self.out.append(f"{prefix}{'; '.join(line)}{SPAN_SEP}{_span(first.range.start.line, last.range.end.line)}")
        for sym in diag_run:
            self._take_diags(sym.range.start.line, sym.range.end.line, prefix)

    def _take_diags(self, first: int, last: int, prefix: str) -> None:
        if not self.per_symbol:
            return
        for diag in self.pending.take(first, last):
            self.out.append(prefix + diag_line(diag))
            self.out.extend(prefix + fl for fl in _fix_lines(diag))

    def _symbol(self, sym: Symbol, level: int) -> None:
        prefix = OUTLINE_INDENT * (level - 1)
        opens = _opens(sym, level, self.depth)
        self.listed += 1
        if not opens or not sym.children:
            if mark_letter(sym) and sym.kind not in FUNCTION_KINDS:
                # A collapsed container names or counts its members in its braces.
                self.listed += sum(1 for c in sym.children if c.kind != SymbolKind.String)
            self.out.append(prefix + mark_line(sym))
            self._take_diags(sym.range.start.line, sym.range.end.line, prefix)
            return
        collapsed_fn = sym.kind in FUNCTION_KINDS
        self.out.append(prefix + mark_line(sym, open_=not collapsed_fn))
        children = [c for c in sym.children if c.is_block] if collapsed_fn else sym.children
        run: list[Symbol] = []
        for child in sorted(children, key=lambda c: c.range.start):
            if _is_member(child):
                run.append(child)
                continue
            self._members(run, level + 1)
            run = []
            self._symbol(child, level + 1)
        self._members(run, level + 1)
        self._take_diags(sym.range.start.line, sym.range.end.line, prefix + OUTLINE_INDENT)

    def _gap(self, first: int, last: int) -> None:
        """Summarise top-level lines outside every definition: imports, then other code.

        A line of code between imports (`try:`, `except ImportError:`, `#ifdef X`, `#endif`)
        joins the import line beside it: one line and one span for the run."""
        if last < first:
            return
        lines = self.outline.source.lines
        spans = self.outline.imports
        k = bisect_left(self._import_ends, first)
        row = first
        #: (text, first row, last row, whether it can share a line: imports and one-line code)
        pieces: list[tuple[str, int, int, bool]] = []
        while row <= last:
            while k < len(spans) and spans[k][1] < row:
                k += 1
            # spans[k]: the first import span not over before `row` — it holds `row`, or it
            # is the next one, where the run of other code ends.
            if k < len(spans) and spans[k][0] <= row:
                a, b = spans[k]
                pieces.append((self._import_text(a, min(b, last)), a, min(b, last), True))
                row = min(b, last) + 1
                continue
            if not lines[row].strip():
                row += 1
                continue
            end = min(last, spans[k][0] - 1) if k < len(spans) else last
            while end > row and not lines[end].strip():
                end -= 1
            head = _cut(" ".join(lines[row].split()), GAP_TEXT_CHARS)
            # `+N lines`: the lines of the span after the one shown, so it agrees with `L{a}-{b}`.
            more = f" (+{end - row} line{'s' if end - row > 1 else ''})" if end > row else ""
            pieces.append((head + more, row, end, end == row))
            row = end + 1
        self._gap_lines(pieces)

    def _gap_lines(self, pieces: list[tuple[str, int, int, bool]]) -> None:
        """Gap pieces as lines: neighbours that can share a line do (at most
        MEMBER_LINE_CHARS wide, never after a comment), joined with `; ` (a space after `:` or `;`)."""
        groups: list[list[tuple[str, int, int, bool]]] = []
        width = 0
        for piece in pieces:
            last = groups[-1][-1] if groups else None
            if (
                last is not None
                and last[3]
                and piece[3]
                and width + len(piece[0]) + 2 <= MEMBER_LINE_CHARS
                and not self._comment_open(last[0])
            ):
                groups[-1].append(piece)
                width += len(piece[0]) + 2
                continue
            # A line does not end in an opener (`try:`) whose block went to the next one.
            opener = last is not None and piece[3] and len(groups[-1]) > 1 and last[0].endswith(":")
            moved = groups[-1].pop() if opener else None
            groups.append([moved] if moved else [])
            groups[-1].append(piece)
            width = sum(len(p[0]) + 2 for p in groups[-1])
        for group in groups:
            text = group[0][0]
            for before, piece in pairwise(group):
                text += (" " if before[0].endswith((":", ";")) else "; ") + piece[0]
            a, b = group[0][1], group[-1][2]
            self.out.append(f".. {text}{SPAN_SEP}{_span(a, b)}")
            self._take_diags(a, b, "")

    def _comment_open(self, text: str) -> bool:
        """Whether a comment runs to the end of `text` (`import x  # noqa`, `/* cut…`):
        nothing may follow it on its line."""
        language = self.outline.language
        if not language.comment_end and re.search(rf"(?:^|\s){re.escape(language.comment)}", text):
            return True
        return text.rfind("/*") > text.rfind("*/")

    def _import_text(self, first: int, last: int) -> str:
        """The import lines of `first`..`last` joined with `; `, cut to the width shown.

        A span of merged imports can hold definitions, and then every gap inside it starts
        at the span's first line: lines are read only until the text is too long to show.
        """
        limit = GAP_TEXT_CHARS * 2
        lines = self.outline.source.lines
        rows = self._import_rows
        parts: list[str] = []
        size = -2
        k = bisect_left(rows, first)
        while k < len(rows) and rows[k] <= last and size <= limit:
            part = " ".join(lines[rows[k]].split()).rstrip(";")
            parts.append(part)
            size += len(part) + 2
            k += 1
        # What is left out only lies past the cut, so the cut text is the same.
        text = _join_import_lines(parts)
        if len(text) <= limit:
            return text
        # Cut after a whole item (`; ` between statements, `, ` between names) and count
        # the items left out: those cut off, and the import lines not read at all.
        head = text[: limit - 12]
        cut = max(head.rfind("; "), head.rfind(", "))
        if cut < limit // 2:
            return _cut(text, limit)
        end = bisect_right(rows, last)
        unread = max(0, end - k)
        if unread and lines[rows[end - 1]].strip().rstrip(";") in (")", "}", "]"):
            unread -= 1  # a group's closing line is no item of its own
        return f"{head[:cut]} … (+{_items_after(text, cut) + unread} more)"


def _items_after(text: str, cut: int) -> int:
    """Items of `text` after the separator at `cut`: statements (`; `), and the names of a
    bracketed group (`, ` inside `(` … `)`) — not the names of one `from x import a, b`."""
    depth = sum(text.count(o, 0, cut) - text.count(c, 0, cut) for o, c in ("()", "{}", "[]"))
    items = 1
    for i in range(cut + 2, len(text) - 1):
        ch = text[i]
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif text[i : i + 2] == "; " or (depth > 0 and text[i : i + 2] == ", "):
            items += 1
    return items


def _import_rows(outline: Outline) -> list[int]:
    """The rows an import span shows: its import lines, and the code between them that the
    span took in (`try:` between `import a` and `import b`) unless a definition holds it."""
    lines = outline.source.lines
    rows = {i for i in outline.import_lines if 0 <= i < len(lines) and lines[i].strip()}
    starts = [sym.range.start.line for sym in outline.symbols]
    for first, last in outline.imports:
        for row in range(first, min(last, len(lines) - 1) + 1):
            if row in rows or not lines[row].strip():
                continue
            k = bisect_right(starts, row) - 1
            if k < 0 or outline.symbols[k].range.end.line < row:
                rows.add(row)
    return sorted(rows)


def _join_import_lines(parts: list[str]) -> str:
    """Import lines as one line: statements joined with `; `, the lines of a bracketed group
    (`import (` … `)`, `import {` … `} from 'x'`) with `, ` inside their brackets, a line
    continued by a backslash (`from x import a, \\`) with a space."""
    text = ""
    depth = 0
    opened = False
    continued = False
    for part in parts:
        if continued:
            text += " " + part
        elif depth and part[:1] in ")}]":
            text += part
            depth -= 1
        elif depth:
            text += ("" if opened else ", ") + part.rstrip(",")
            opened = False
        else:
            text += (" " if text.endswith(":") else "; " if text else "") + part
        continued = text.endswith("\\")
        if continued:
            text = text[:-1].rstrip()
        if part[-1:] in "({[" and not depth:
            depth, opened = 1, True
    return text


_WORD_TAIL = re.compile(r"[\w.$]+$")


def _cut(text: str, limit: int) -> str:
    """`text` within `limit` characters, cut at a name boundary (never mid-name), `…` last."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    if re.match(r"[\w.$]", text[limit - 1]):
        tail = _WORD_TAIL.search(head)
        if tail and tail.start() >= limit // 2:
            head = head[: tail.start()]
    return head.rstrip(" ,") + "…"


def _span(first: int, last: int) -> str:
    return f"L{first + 1}" if first == last else f"L{first + 1}-{last + 1}"


def render_outline(
    outline: Outline, diagnostics: list[Diagnostic], mode: str = "outline", depth: int | None = None
) -> str:
    """Block-mark outline; `compact` puts one `V* [NE NW in file]` line first instead of per-symbol lines."""
    if mode == "compact":
        body = _OutlineWriter(outline, depth, diagnostics, per_symbol=False).write()
        return "\n".join([f"V* [{severity_counts(diagnostics)} in file]", *body])
    return "\n".join(_OutlineWriter(outline, depth, diagnostics, per_symbol=True).write())


def render_full(outline: Outline, diagnostics: list[Diagnostic]) -> str:
    """The source with `# [E] message` markers (in the file's comment syntax) on flagged lines."""
    lang = outline.language
    by_line: dict[int, list[Diagnostic]] = {}
    for diag in diagnostics:
        by_line.setdefault(diag.range.start.line, []).append(diag)
    lines = list(outline.source.lines)
    if lines and lines[-1] == "" and len(lines) > 1:
        lines.pop()
    for row, diags in by_line.items():
        if row >= len(lines):
            row = len(lines) - 1
        marks = " ".join(f"[{d.severity.letter}]{' ' + d.code if d.code else ''} {d.message}" for d in diags)
        lines[row] = f"{lines[row]}  {lang.comment} {marks}{lang.comment_end}"
    return "\n".join(lines)


def _dedent(lines: list[str]) -> list[str]:
    indents = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    cut = min(indents, default=0)
    return [ln[cut:] if ln.strip() else "" for ln in lines]


def render_expanded(outline: Outline, sym: Symbol, what: str = "all") -> str:
    """One symbol: `signature` (mark line and doc), `body` (its body lines) or `all` (`F_` + source)."""
    lines = outline.source.lines
    first, last = sym.range.start.line, sym.range.end.line
    if what == "signature":
        out = [mark_line(sym)]
        if sym.doc:
            comment, end = outline.language.comment, outline.language.comment_end
            out.extend(f"{INDENT}{comment} {ln}".rstrip() + end for ln in sym.doc.splitlines())
        return "\n".join(out)
    header = sym.selection_range.start.line
    if what == "body":
        start = (sym.body.start.line if sym.body else header) + 1
        if start > last:
            start = header
        return "\n".join(_dedent(lines[start : last + 1]))
    letter = mark_letter(sym) or ""
    snippet = _dedent(lines[first : last + 1])
    head_at = header - first
    prefix = f"{letter}_ " if letter else ""
    snippet[head_at] = f"{prefix}{snippet[head_at]}{SPAN_SEP}{sym.range.line_span()}"
    return "\n".join(snippet)
