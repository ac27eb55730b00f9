"""Same-length rewrites of Haskell the grammar (tree-sitter-haskell 0.24) misreads.

Two causes, both common in Hugs' libraries:

- Hugs' `primitive` declarations (`primitive nullAddr "nullPtr" :: Addr`,
  `primitive primPlusInt,\\n\\t  primMinusInt :: Int -> Int -> Int`) are not Haskell. Read
  as `;         nullAddr           :: Addr`: an empty declaration (the explicit `;`
  Haskell allows between declarations) then a type signature of the same names at the
  same places, which the outline query lists as it lists foreign imports.
- Leading tabs. The grammar's scanner counts a tab at the start of a line as 8 columns
  but one inside a line as 1 (where a layout starts: `where x = 1`), and a tab before a
  line's first token becomes an ERROR (the parser's own lexer does not skip tabs) when
  that token makes the scanner look ahead (`where`, `then`, `else`, `in`, `deriving`,
  names starting like them such as `empty`, operators: `| guard`, `-> IO a`) or closes
  a layout. Haskell moves a tab to the next multiple of 8. `relayout` re-indents each
  top-level declaration (a line at column 0 and the lines up to the next) that the
  grammar misreads: its tabs become spaces, and where that would change its layout a
  line keeps some leading tabs (its name's first letter then read as `x` if the
  scanner would look ahead from it), so that every line's first token and the layouts
  it is compared with (the first token after `where`, `let`, `do`, `of`) keep their
  order as Haskell counts them. A declaration no such choice keeps is tried again
  twice: with the keywords of each `if` one of whose `if`/`then`/`else` starts a line
  after a tab read as names (`xf c xhen a xlse b`: an expression of the same extent,
  so a tab can stand before them), then also with the first item of a layout opened
  inside a line after a tab (`\twhere\tfsep' [] = empty`, the grammar counting that
  tab as one column where Haskell counts up to 8, so the lines lined up with it by tabs
  cannot be) blanked, the layout then opening at its second item. What none of these
  keeps has no same-length reading: the grammar cannot close a layout at a line
  starting with a tab, so `\t\telse return []` closing an `else do` block at column 26
  inside a statement at column 8 (Cabal's Register.hs) cannot be given its column. The
  grammar cannot judge such text, so it is not judged: the right-hand side holding the
  line (or, first, the item right above it whose layouts it closes) reads as one
  string literal whose lines are joined by string gaps (`_as_strings`). The declaration
  keeps its extent and the names outside that right-hand side (local definitions
  inside it are not listed); a syntax error inside it is not reported, one elsewhere is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: `primitive` at column 1 through the `::` of its type: the names, and maybe each a
#: quoted external name.
_PRIMITIVE = re.compile(rb"(?m)^primitive(?=[ \t])([^:\n]*(?:\n[ \t][^:\n]*)*)(?=::)")
_STRING = re.compile(rb'"(?:[^"\\\n]|\\.)*"')

#: Haskell tokens, as far as layout needs them.
_TOKEN = re.compile(
    rb"""(?P<space>[ \t\r\f\v]+)
    | (?P<open>\{-)
    | (?P<line>--+(?![!#$%&*+./<=>?@\\^|~:]))
    | (?P<string>"(?:[^"\\\n]|\\.)*"?)
    | (?P<char>'(?:[^'\\\n]|\\[^'\n]{1,8})')
    | (?P<word>[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*)
    | (?P<number>[0-9][\w.]*)
    | (?P<symbol>[!#$%&*+./<=>?@\\^|~:-]+)
    | (?P<other>.)""",
    re.VERBOSE,
)
_BLOCK_END = re.compile(rb"\{-|-\}")
_OPENERS = frozenset((b"where", b"let", b"do", b"of", b"mdo", b"rec"))
_CLOSERS = frozenset((b")", b"]", b"}", b","))


def primitives(data: bytes) -> bytes:
    """Hugs' `primitive` declarations read as `;` and a type signature (same length)."""
    if b"primitive" not in data:
        return data

    def blank(m: re.Match[bytes]) -> bytes:
        head = _STRING.sub(lambda s: b" " * len(s.group(0)), m.group(1))
        return b";" + b" " * 8 + head

    return _PRIMITIVE.sub(blank, data)


@dataclass
class _Layout:
    old: int
    new: int
    keyword: bytes
    depth: int


#: Keywords starting with a letter the scanner looks ahead from (`where`, `in`, `then`,
#: `else`, `deriving`): a tab before them cannot stay.
_KEYWORDS = frozenset(
    b"data default deriving do else if import in infix infixl infixr instance then type where".split()
)


def relayout(data: bytes) -> bytes:
    """`data` with each top-level declaration holding a tab re-indented so that the
    grammar counts its columns as Haskell does (same length); see the module doc."""
    if b"\t" not in data:
        return data
    lines = data.split(b"\n")
    tokens = _tokens(lines)
    chunks = _chunks(tokens)
    tabbed = {c for i, c in enumerate(chunks) if c >= 0 and b"\t" in lines[i]}
    # The declarations the grammar misreads as they are, then of those, the ones that
    # can be re-indented without changing their layout.
    misread = set(_plan(lines, tokens, chunks, tabbed, as_is=True)[1])
    plan, failed = _plan(lines, tokens, chunks, misread)
    kept = set(failed)
    source = {c: lines for c in misread - kept}
    # What no re-indent keeps, tried again with the keywords of tab-indented `if`s as
    # names, then also with the item after a mid-line tab blanked (see the module doc).
    for variant in (_if_as_names, _blank_tab_items):
        if not kept:
            break
        other = variant(lines, tokens, chunks, kept)
        if other == lines:
            continue
        other_tokens = _tokens(other)
        other_plan, other_failed = _plan(other, other_tokens, chunks, kept)
        plan.update({i: v for i, v in other_plan.items() if chunks[i] in kept - set(other_failed)})
        source.update({c: other for c in kept - set(other_failed)})
        kept, lines, tokens = set(other_failed), other, other_tokens
    # What is still not kept is not judged: the right-hand sides holding its lines read
    # as strings.
    for chunk in sorted(kept):
        read = _as_strings(lines, chunks, chunk)
        if read is not None:
            source[chunk] = read[0]
            plan = {i: v for i, v in plan.items() if chunks[i] != chunk}
            plan.update(read[1])
    if not source:
        return data
    out = data.split(b"\n")
    for i, c in enumerate(chunks):
        if c not in source:
            continue
        line = source[c][i].replace(b"\t", b" ")
        if i in plan:
            lead, tabs = plan[i]
            line = b"\t" * tabs + line[tabs:]
            if tabs and line[lead : lead + 1] in _RENAMED:
                line = line[:lead] + b"x" + line[lead + 1 :]
        out[i] = line
    return b"\n".join(out)


#: A first token starting with these makes the scanner look ahead (keywords) and then
#: stop at a tab before it.
_RENAMED = {bytes([c]) for c in b"deitw"}


def _if_as_names(
    lines: list[bytes], tokens: list[list[tuple[int, bytes]]], chunks: list[int], active: set[int]
) -> list[bytes]:
    """`lines` with, in the `active` chunks, each `if`/`then`/`else` whose keywords one
    starts a line indented with a tab read as names (`xf`, `xhen`, `xlse`): the grammar
    stops at a tab before a keyword, and `xf c xhen a xlse b` is an expression of the
    same extent with the same layout."""
    out = list(lines)
    groups: list[list[tuple[int, int]]] = []
    open_: list[list[tuple[int, int]]] = []
    for i, row in enumerate(tokens):
        if chunks[i] not in active:
            continue
        for at, text in row:
            if text == b"if":
                open_.append([(i, at)])
            elif text == b"then" and open_ and len(open_[-1]) == 1:
                open_[-1].append((i, at))
            elif text == b"else" and open_ and len(open_[-1]) == 2:
                group = open_.pop()
                group.append((i, at))
                groups.append(group)
    for group in groups:
        if any(tokens[i][0][0] == at and b"\t" in lines[i][:at] for i, at in group):
            for i, at in group:
                out[i] = out[i][:at] + b"x" + out[i][at + 1 :]
    return out


def _blank_tab_items(
    lines: list[bytes], tokens: list[list[tuple[int, bytes]]], chunks: list[int], active: set[int]
) -> list[bytes]:
    """`lines` with, in the `active` chunks, the first item of a layout opened inside a
    line after a tab (`\twhere\tfsep' [] = empty`) blanked: the grammar counts that tab
    as one column, so the next lines, lined up with the item by tabs, cannot be. The
    layout then opens at its second item, a column the re-indent can give."""
    out = list(lines)
    for i, row in enumerate(tokens):
        if chunks[i] not in active:
            continue
        for n, (at, text) in enumerate(row[:-1]):
            after = row[n + 1][0]
            if text not in _OPENERS or b"\t" not in lines[i][at:after]:
                continue
            column = _columns(lines[i], row)[n + 1][0]
            last = i
            for j in range(i + 1, len(tokens)):
                if chunks[j] != chunks[i] or (tokens[j] and _columns(lines[j], tokens[j][:1])[0][0] <= column):
                    break
                last = j
            blanked = [lines[i][after:], *lines[i + 1 : last + 1]]
            if any(b"{-" in part or b"-}" in part for part in blanked):
                continue
            out[i] = lines[i][:after] + b" " * (len(lines[i]) - after)
            for j in range(i + 1, last + 1):
                out[j] = b" " * len(lines[j])
            break
    return out


#: Declarations whose `=` is followed by a type, not an expression.
_TYPE_DECLARATIONS = frozenset((b"data", b"type", b"newtype", b"class"))
#: Right-hand sides read as strings in one declaration, at most.
_STRINGS = 8
#: Bytes of a string's content that could end it, escape, or read as a comment to the
#: steps after `relayout` (`haskell.py` blanks comments above tab-indented lines).
_UNSAFE = re.compile(rb'["\\{}-]')


def _as_strings(
    lines: list[bytes], chunks: list[int], chunk: int
) -> tuple[list[bytes], dict[int, tuple[int, int]]] | None:
    """`lines` with, in a declaration no re-indent keeps, the right-hand side holding
    each line where the layout cannot be kept read as one string literal, its lines
    joined by string gaps (`"...\\` newline `\\..."`; same length), and the plan that
    re-indents the rest: the grammar cannot judge such text (it closes no layout at a
    line starting with a tab), so it is not judged, the declaration's extent and the
    names outside those right-hand sides kept. The right-hand side is, first, that of the
    item right above the line if it closes that item's layouts (its `=` on a line
    indented no less), else that of the last `=` above the line whose lines reach it
    (the lines after it indented more than its own), from its first token through the
    last of those lines. None where there is no such `=` (a `data` or `class`
    declaration, a line before any `=`) or a line in between too short to hold a gap's
    two backslashes."""
    text, view = list(lines), list(lines)
    rows = [i for i, c in enumerate(chunks) if c == chunk]
    previous = -1
    for _ in range(_STRINGS):
        tokens = _tokens(view)
        plan, failed = _plan(view, tokens, chunks, {chunk})
        if chunk not in failed:
            return text, {i: v for i, v in plan.items() if chunks[i] == chunk}
        region = _right_hand_side(view, tokens, rows, failed[chunk], failed[chunk] != previous)
        previous = failed[chunk]
        if region is None:
            return None
        first, start, last, end = region
        for j in range(first, last + 1):
            line = text[j]
            lo = start if j == first else len(line) - len(line.lstrip(b" \t"))
            hi = end if j == last else len(line)  # the grammar wants a gap's `\\` last
            if first < j < last and not line.strip():
                continue  # blank: inside a gap
            if hi - lo < 2 or line.endswith(b"\r"):
                return None
            body = _UNSAFE.sub(b"x", line[lo + 1 : hi - 1])
            opening = b'"' if j == first else b"\\"
            closing = b'"' if j == last else b"\\"
            text[j] = line[:lo] + opening + body + closing + line[hi:]
            kept_head = line[:lo] + b'""' if j == first else b""
            view[j] = kept_head + b" " * (hi - len(kept_head)) + line[hi:]
    return None


def _right_hand_side(
    lines: list[bytes], tokens: list[list[tuple[int, bytes]]], rows: list[int], failing: int, first_try: bool
) -> tuple[int, int, int, int] | None:
    """(first line, its start byte, last line, its end byte) of the right-hand side to
    read as a string for line `failing`, see `_as_strings`: on a first try at that line,
    that of the item right above it if no less indented, else that of the last `=`
    (outside brackets) above it whose lines reach it."""
    if not tokens[rows[0]] or tokens[rows[0]][0][1] in _TYPE_DECLARATIONS:
        return None
    depth, spots = 0, []
    for i in rows:
        if i >= failing:
            break
        for n, (_, text) in enumerate(tokens[i]):
            if text in (b"(", b"[", b"{"):
                depth += 1
            elif text in (b")", b"]", b"}"):
                depth = max(0, depth - 1)
            elif text == b"=" and depth == 0:
                spots.append((i, n))
    column = _columns(lines[failing], tokens[failing][:1])[0][0]
    above = max((j for j in rows if j < failing and tokens[j]), default=-1)
    # The item right above, when it is no less indented: read as a string, the layouts
    # it opens are gone, so the line closes none.
    found = next(
        (
            spot
            for spot in reversed(spots)
            if first_try
            and _item_end(lines, tokens, rows, spot[0]) == above
            and _columns(lines[spot[0]], tokens[spot[0]][:1])[0][0] >= column
        ),
        None,
    ) or next((spot for spot in reversed(spots) if _item_end(lines, tokens, rows, spot[0]) >= failing), None)
    if found is None:
        return None
    line, n = found
    last = _item_end(lines, tokens, rows, line)
    if n + 1 < len(tokens[line]):
        first, start = line, tokens[line][n + 1][0]
    else:
        first = next((j for j in rows if j > line and tokens[j]), -1)
        if first < 0:
            return None
        start = tokens[first][0][0]
    end = tokens[last][-1][0] + len(tokens[last][-1][1])
    return first, start, last, end


def _item_end(lines: list[bytes], tokens: list[list[tuple[int, bytes]]], rows: list[int], line: int) -> int:
    """The last of the lines `rows` after `line` indented more than it, without a line
    indented no more in between (`line` when there are none)."""
    column = _columns(lines[line], tokens[line][:1])[0][0]
    last = line
    for j in rows:
        if j <= line or not tokens[j]:
            continue
        if _columns(lines[j], tokens[j][:1])[0][0] <= column:
            break
        last = j
    return last


def _options(lead: int, text: bytes, line: bytes) -> list[int]:
    """The columns the grammar can be given for a line's first token at byte `lead`, the
    fewest tabs first: `lead + 7 * k` with `k` of its leading bytes tabs (8 columns
    each). A tab cannot stand before an operator, a keyword or a comment; before a plain
    name starting like a keyword (`empty`, `do_it`) it can once the name is read with
    another first letter (its text in the outline stays the file's)."""
    spaces = [lead]
    if lead == 0 or line[lead : lead + 2] in (b"{-", b"--"):
        return spaces
    first = text[:1]
    if not (first.isalpha() or first in b"_(\"'0123456789)]},;`") or text in _KEYWORDS:
        return spaces
    if first in _RENAMED and not re.fullmatch(rb"[a-z_][\w']*", text):
        return spaces
    return [lead + 7 * k for k in range(lead + 1)]


def _tokens(lines: list[bytes]) -> list[list[tuple[int, bytes]]]:
    """Each line's code tokens (start byte, text): no spaces, comments or CPP lines."""
    found: list[list[tuple[int, bytes]]] = []
    nesting = 0
    for line in lines:
        row: list[tuple[int, bytes]] = []
        found.append(row)
        at = 0
        if nesting == 0 and line.startswith(b"#"):
            continue
        while at < len(line):
            if nesting:
                m = _BLOCK_END.search(line, at)
                if m is None:
                    break
                nesting += 1 if m.group(0) == b"{-" else -1
                at = m.end()
                continue
            m = _TOKEN.match(line, at)
            assert m is not None  # `other` matches any one byte
            kind = m.lastgroup
            if kind == "open":
                nesting = 1
            elif kind == "line":
                break
            elif kind != "space":
                row.append((at, m.group(0)))
            at = m.end()
    return found


def _chunks(tokens: list[list[tuple[int, bytes]]]) -> list[int]:
    """The top-level declaration of each line: a new one at each code line starting at
    column 0 (-1 before the first)."""
    chunk, out = -1, []
    for row in tokens:
        if row and row[0][0] == 0:
            chunk += 1
        out.append(chunk)
    return out


def _columns(line: bytes, row: list[tuple[int, bytes]]) -> list[tuple[int, int]]:
    """The column of each token of a line: Haskell's (a tab moves to the next multiple
    of 8), and the grammar's once every tab is a space (characters before it)."""
    out, old, new, at = [], 0, 0, 0
    for start, _ in row:
        for byte in line[at:start]:
            if byte == 0x09:
                old = (old // 8 + 1) * 8
                new += 1
            elif byte & 0xC0 != 0x80:
                old += 1
                new += 1
        at = start
        out.append((old, new))
    return out


def _plan(
    lines: list[bytes], tokens: list[list[tuple[int, bytes]]], chunks: list[int], active: set[int], as_is: bool = False
) -> tuple[dict[int, tuple[int, int]], dict[int, int]]:
    """For the lines of the `active` chunks, (leading bytes, tabs among them) so that
    every layout comparison keeps its outcome, and the chunks where none does (with the
    line where it fails). With
    `as_is`, only the lines as they are: the failing chunks are those the grammar misreads.

    Follows the layout rule far enough to know what each line's first token and each new
    layout's first token are compared with: the layouts opened by `where`, `let`, `do`,
    `of` (an explicit `{` opens none), closed by a line indented less, by `in` (a `let`),
    or by the bracket they opened in closing. Old columns are Haskell's; new ones are the
    grammar's once tabs inside a line are spaces: characters, and 8 for a leading tab."""
    stack = [_Layout(0, 0, b"", 0)]
    pending: bytes | None = None
    depth = 0
    plan: dict[int, tuple[int, int]] = {}
    failed: dict[int, int] = {}
    for i, row in enumerate(tokens):
        line, chunk = lines[i], chunks[i]
        if chunk in failed:
            continue
        if row and row[0][0] == 0:
            # A new top-level declaration: only layouts at column 0 (the module's) stay.
            while len(stack) > 1 and stack[-1].old > 0:
                stack.pop()
        active_line = chunk in active
        for n, ((at, text), (old, new)) in enumerate(zip(row, _columns(line, row), strict=True)):
            if not active_line:
                new = old
            if n == 0:
                # `where` closes a layout it starts a line at the column of, as one it
                # is left of (the `;` there would be followed by a `where`).
                where = text == b"where"
                popped = []
                while len(stack) > 1 and (old < stack[-1].old or (where and old == stack[-1].old)):
                    popped.append(stack.pop())
                if active_line:
                    options = _as_is(at, text, line) if as_is else _options(at, text, line)
                    if popped or (text in _CLOSERS and len(stack) > 1 and stack[-1].depth >= depth):
                        # Closing a layout there, the grammar stops at a tab too.
                        options = [x for x in options if x == at]
                    ok = [x for x in options if _fits(x, old, stack[-1], popped, where)]
                    if not ok:
                        failed[chunk] = i
                        break
                    if pending is not None:
                        ok = _for_siblings(ok, lines, tokens, chunks, i, old)
                    new = ok[0]
                    plan[i] = (at, (new - at) // 7)
            if pending is not None:
                if text != b"{":
                    if n and _sign(old - stack[-1].old) != _sign(new - stack[-1].new):
                        failed[chunk] = i
                        break
                    stack.append(_Layout(old, new, pending, depth))
                pending = None
            if text in _OPENERS:
                pending = text
            elif text == b"in":
                lets = [k for k, layout in enumerate(stack) if layout.keyword == b"let" and k > 0]
                if lets:
                    del stack[lets[-1] :]
            elif text in (b"(", b"[", b"{"):
                depth += 1
            elif text in (b")", b"]", b"}"):
                depth = max(0, depth - 1)
                while len(stack) > 1 and stack[-1].depth > depth:
                    stack.pop()
    return plan, failed


def _as_is(lead: int, text: bytes, line: bytes) -> list[int]:
    """The column the grammar gives a line's first token as the line is (none when it
    stops at a tab before it)."""
    tabs = line[:lead].count(b"\t")
    if not tabs:
        return [lead]
    if _options(lead, text, line) == [lead] or text[:1] in _RENAMED:
        return []
    return [lead + 7 * tabs]


def _fits(new: int, old: int, top: _Layout, popped: list[_Layout], where: bool) -> bool:
    """Whether a line starting at `new` closes the same layouts as at `old`, and then
    continues, or starts an item of, the same one."""
    closed = all(new < layout.new or (where and new == layout.new) for layout in popped)
    return closed and _sign(new - top.new) == _sign(old - top.old)


def _for_siblings(
    ok: list[int], lines: list[bytes], tokens: list[list[tuple[int, bytes]]], chunks: list[int], i: int, old: int
) -> list[int]:
    """Of the columns `ok` for the first line of a layout, those its later lines at the
    same column can also be given (all of `ok` when none are)."""
    keep = list(ok)
    for j in range(i + 1, len(tokens)):
        if chunks[j] != chunks[i]:
            break
        if not tokens[j]:
            continue
        at, text = tokens[j][0]
        col = _columns(lines[j], tokens[j][:1])[0][0]
        if col < old:
            break
        if col == old:
            theirs = _options(at, text, lines[j])
            keep = [x for x in keep if x in theirs]
    return keep or ok


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)
