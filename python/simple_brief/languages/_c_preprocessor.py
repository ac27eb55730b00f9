"""C and C++ preprocessor lines, as the macro masking (languages/_c_macros.py) needs them."""

import bisect
import re
from collections.abc import Callable, Iterator

_CPLUSPLUS_ONLY = re.compile(
    r"^(?:ifdef\s+__cplusplus|if\s+(?:defined\s*\(?\s*__cplusplus\s*\)?|__cplusplus)(?:\s*&&[^|?]*)?"
    r"|if\s+(?:[^|?!]|!=)*&&\s*defined\s*\(?\s*__cplusplus\s*\)?\s*"
    # A library's own switch for its C++ API (ICU's `#if U_SHOW_CPLUSPLUS_API`), off in C.
    r"|(?:ifdef\s+|if\s+(?:defined\s*\(?\s*)?)[A-Z0-9_]*CPLUSPLUS[A-Z0-9_]*\s*\)?)$"
)
_C_ALWAYS = re.compile(r"^(?:ifndef\s+__cplusplus|if\s+!\s*defined\s*\(?\s*__cplusplus\s*\)?(?:\s*\|\|.*)?)$")
_CPLUSPLUS = re.compile(
    r"^[ \t]*#[ \t]*if(?:def[ \t]+__cplusplus|[ \t]+defined[ \t]*\(?[ \t]*__cplusplus[ \t]*\)?)[ \t]*(?://.*|/\*.*)?$"
    r"(?P<body>(?:\n(?![ \t]*#[ \t]*(?:endif|else|elif)).*)*)",
    re.M,
)


def _cplusplus_blocks(text: str) -> Iterator[re.Match[str]]:
    """`_CPLUSPLUS.finditer(text)`, tried only on the lines that name `__cplusplus`."""
    end = 0
    at = text.find("__cplusplus")
    while at >= 0:
        line_start = text.rfind("\n", 0, at) + 1
        m = _CPLUSPLUS.match(text, line_start) if line_start >= end else None
        if m is not None:
            end = m.end()
            yield m
        line_end = text.find("\n", at)
        at = text.find("__cplusplus", line_end) if line_end >= 0 else -1


_LINKAGE_LINE = re.compile(r'^[ \t]*(?:extern[ \t]+"C\+?\+?"[ \t]*\{|\})[ \t]*(?://.*|/\*.*\*/)?[ \t]*$', re.M)


def _code_above(code: list[str], row: int, directive_rows: set[int]) -> int | None:
    """The nearest row above `row` with code, None when a directive (or the start) comes first."""
    for above in range(row - 1, max(-1, row - 400), -1):
        if above in directive_rows:
            return None
        if code[above].strip():
            return above
    return None


#: A comment: `/* … */` to its first `*/`, or `//` to the line's end (possessive: no backtracking).
_COMMENT = re.compile(r"/\*(?:[^*]++|\*(?!/))*+\*/|//[^\n]*")


def _code_lines(text: str) -> list[str]:
    """The text's lines with comments blanked (rows kept, columns not)."""
    return _COMMENT.sub(lambda m: " " + "\n" * m.group().count("\n"), text).split("\n")


def _with_code_above(code: list[str], rows: set[int], directive_rows: set[int]) -> set[int]:
    """`rows` and, above each run of them, the nearest line of code and the directives between.

    The parser reports an error where the text stops making sense, often below the macro
    that caused it: `__BEGIN_DECLS`, then a comment, then `extern int f (void);` errs at `int`.
    """
    found = set(rows)
    for row in sorted(rows):
        if row - 1 in rows:
            continue
        above = row - 1
        while above >= 0 and row - above <= 400 and (above in directive_rows or not code[above].strip()):
            if above in directive_rows:  # comments and blank lines between are not searched
                found.add(above)
            above -= 1
        if above >= 0:
            found.add(above)
    return found


_CONDITIONAL = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")


def _all_directive_runs(text: str, lines: list[str], line_starts: list[int]) -> list[tuple[int, int]]:
    """The (first, last) rows of every directive, its `\\` continuations included, in order."""
    runs: list[tuple[int, int]] = []
    row = 0
    at = text.find("#")
    while at >= 0:  # a line's first `#`, after spaces and tabs only (`^[ \t]*#`)
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at)
        if not text[line_start:at].strip(" \t"):
            row = bisect.bisect_right(line_starts, line_start, lo=row) - 1
            if not (runs and row <= runs[-1][1]):  # else a `#` inside a continued directive
                last = row
                while last + 1 < len(lines) and lines[last].endswith(("\\", "\\\r")):
                    last += 1
                runs.append((row, last))
        at = text.find("#", line_end) if line_end >= 0 else -1
    return runs


def _conditional_groups(lines: list[str], runs: list[tuple[int, int]]) -> list[list[tuple[int, int, str]]]:
    """Each `#if … #endif` group as its directives: (first row, last row, word)."""
    groups: list[list[tuple[int, int, str]]] = []
    stack: list[list[tuple[int, int, str]]] = []
    for row, last in runs:
        m = _CONDITIONAL.match(lines[row])
        if m is None:
            continue
        word = m.group(1)
        if word.startswith("if"):
            stack.append([(row, last, word)])
        elif stack:
            stack[-1].append((row, last, word))
            if word == "endif":
                groups.append(stack.pop())
    return groups


#: An `#if`/`#elif` condition the grammar cannot read: `a ? b : c`, `__has_include ("x.h")`.
_HARD_CONDITION = re.compile(r"[ \t]*#[ \t]*(?:el)?if\b(?P<cond>(?=[^\n]*(?:\\\n[^\n]*)*[?\"<])[\s\S]*)")


_DIRECTIVE_WORD = re.compile(r"#\s*(\w+)\s*(.*)")


def _cplusplus_only_rows(lines: list[str], runs: list[tuple[int, int]]) -> set[int]:
    """Rows a C compiler never sees: `#ifdef __cplusplus` / `#if defined __cplusplus [&& …]`
    branches, and the `#else` of `#ifndef __cplusplus` / `#if !defined __cplusplus [|| …]`."""
    found: set[int] = set()
    stack: list[bool] = []  # per open conditional: is this branch C++ only?
    c_always: list[bool] = []  # per open conditional: is its first branch always taken in C?
    for index, (row, last) in enumerate(runs):
        directive = _DIRECTIVE_WORD.match(_COMMENT.sub("", lines[row]).strip())
        word, cond = (directive.group(1), directive.group(2).strip()) if directive else ("", "")
        if word in ("if", "ifdef", "ifndef"):
            judged = last == row  # a condition over several lines: not judged
            stack.append(judged and word != "ifndef" and _CPLUSPLUS_ONLY.match(f"{word} {cond}") is not None)
            c_always.append(judged and _C_ALWAYS.match(f"{word} {cond}") is not None)
        elif word in ("else", "elif") and stack:
            stack[-1] = c_always[-1]  # after `#ifndef __cplusplus`: C++ only
        elif word == "endif" and stack:
            stack.pop()
            c_always.pop()
        elif any(stack):
            found.update(range(row, last + 1))
        if any(stack):
            end = runs[index + 1][0] if index + 1 < len(runs) else len(lines)
            found.update(range(last + 1, end))
    return found


def _branches(group: list[tuple[int, int, str]]) -> list[tuple[str, int, int]]:
    """Each branch of a conditional group: (its directive's word, first body row, last body row)."""
    return [(group[i][2], group[i][1] + 1, group[i + 1][0] - 1) for i in range(len(group) - 1)]


def _touched(rows: list[int], first: int, last: int) -> bool:
    """True when a row of the sorted `rows` lies in first..last."""
    at = bisect.bisect_left(rows, first)
    return at < len(rows) and rows[at] <= last


_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")
_IF_0 = re.compile(r"[ \t]*#[ \t]*if[ \t]+0\b")
_IF_1 = re.compile(r"[ \t]*#[ \t]*if[ \t]+1\b")
_IF_DEFINED = re.compile(
    r"[ \t]*#[ \t]*(?:ifdef[ \t]+|if[ \t]+defined[ \t]*\(?[ \t]*)(?P<name>[A-Za-z_]\w*)[ \t]*\)?[ \t]*$"
)


def _brace_split_spans(
    lines: list[str],
    code: list[str],
    runs: list[tuple[int, int]],
    groups: list[list[tuple[int, int, str]]],
    rows: set[int],
) -> list[tuple[int, int]]:
    """Row spans to blank: the directives of a conditional whose first branch opens a brace it
    does not close, or closes one it did not open, and the other branches.

    An X-macro list (`#ifdef MAKE_LIST` / `typedef enum {` / `#endif` … `#ifdef MAKE_LIST` /
    `} codes;` / `#endif`) cuts the braces across groups, which the grammar cannot nest.
    """
    directive_rows = {row for first, last in runs for row in range(first, last + 1)}
    net: list[tuple[int, int]] = []  # (row, opened minus closed) for the code rows with braces
    for row, line in enumerate(code):
        if ("{" in line or "}" in line) and row not in directive_rows:
            line = _STRING.sub("", line) if '"' in line or "'" in line else line
            net.append((row, line.count("{") - line.count("}")))
    brace_rows = [row for row, _ in net]
    sums = [0]
    for _, n in net:
        sums.append(sums[-1] + n)
    touched = sorted(rows)
    spans: list[tuple[int, int]] = []
    for group in groups:
        head = lines[group[0][0]]
        if _IF_0.match(head) or "__cplusplus" in head or not _touched(touched, group[0][0], group[-1][1]):
            continue  # `#ifdef __cplusplus` / `extern "C" {` / `#endif`: the linkage lines are masked
        _word, first, last = _branches(group)[0]
        if sums[bisect.bisect_right(brace_rows, last)] - sums[bisect.bisect_left(brace_rows, first)] == 0:
            continue
        for index, (start, end, word) in enumerate(group):
            spans.append((start, end))
            if word in ("elif", "else") and index + 1 < len(group):  # its `#define`s stay in the outline
                spans.extend((row, row) for row in range(end + 1, group[index + 1][0]) if row not in directive_rows)
    return spans


def _dead_branches(
    text: str,
    lines: list[str],
    line_starts: list[int],
    groups: list[list[tuple[int, int, str]]],
    rows: set[int],
    erroneous: Callable[[int, int], bool | None],
    settled: Callable[[int, int], bool],
) -> Iterator[tuple[int, int]]:
    """The (first, last) body rows of the branches the compiler skips, innermost first
    (the caller blanks each before the next is judged).

    Provably dead: `#if 0`, the `#else` of `#if 1`, `#ifdef X` after `#undef X`. Otherwise an
    `#else` or `#elif` branch is taken for dead when it is short, reads as an error on its
    own, and a sibling with code does not: a typo in `# else` / `extern int f (int a,d ...);` the compiler never
    sees. `erroneous(first, last)` is None for rows without code, else whether they parse
    wrong; a branch is judged only when `settled` (no macro left to mask in it).
    """
    touched = sorted(rows)
    for group in groups:
        if not _touched(touched, group[0][0], group[-1][1]):
            continue
        branches = _branches(group)
        head = lines[group[0][0]]
        for index, (_word, first, last) in enumerate(branches):
            if last < first or not _touched(touched, first, last):
                continue
            dead = bool((index == 0 and _IF_0.match(head)) or (index > 0 and _IF_1.match(head)))
            defined = _IF_DEFINED.match(head) if index == 0 and not dead else None
            short = index > 0 and last - first <= 50  # an `#else`/`#elif`: the first branch is the outline's
            if not (dead or defined or short) or not settled(first, last) or not erroneous(first, last):
                continue
            if defined:
                dead = _undefined_above(text, line_starts[group[0][0]], defined.group("name"))
            if dead or (
                short and any(erroneous(f, t) is False for i, (_, f, t) in enumerate(branches) if i != index and t >= f)
            ):
                yield first, last


def _undefined_above(text: str, end: int, name: str) -> bool:
    """True when `#undef name` comes before `end` with no `#define name` after it."""
    if text.find(name, 0, end) < 0:
        return False
    undefs = list(re.finditer(rf"^[ \t]*#[ \t]*undef[ \t]+{re.escape(name)}\b", text[:end], re.M))
    last = undefs[-1] if undefs else None
    return last is not None and not re.search(
        rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(name)}\b", text[last.end() : end], re.M
    )


#: A function-like macro's head: `#define JMESSAGE(code, string)`.
_FUNCTION_MACRO = re.compile(r"[ \t]*#[ \t]*define[ \t]+(?P<name>[A-Za-z_]\w*)\((?P<params>[\w \t,]*)\)")
#: A body that is an enumerator: a parameter, maybe `= another` or `= value`, maybe then a comma
#: (`code,`, `NAME=CODE,`, FreeType's `value = ( … a << 24 | … )`).
_ENUMERATOR_BODY = re.compile(
    r"\s*(?P<p>[A-Za-z_]\w*)\s*(?:=\s*(?:(?P<q>[A-Za-z_]\w*)\s*(?=,?\s*$))?(?P<value>.*?))?\s*(?P<comma>,)?\s*$", re.S
)


#: A body whose enumerator's name is pasted from a parameter: `V4L2_MBUS_FMT_ ## name = MEDIA_BUS_FMT_ ## name`.
_PASTED_NAME = re.compile(r"\s*(?:[A-Za-z_]\w*\s*##\s*(?P<p>[A-Za-z_]\w*)|(?P<p2>[A-Za-z_]\w*)\s*##\s*\w+)\s*(?:=|,|$)")


def _arguments(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The (start, end) offsets of the top-level, comma-separated arguments in text[start:end], trimmed."""
    found: list[tuple[int, int]] = []
    depth, begin = 0, start
    for i in range(start, end + 1):
        char = text[i] if i < end else ","
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            chunk = text[begin:i]
            left = begin + len(chunk) - len(chunk.lstrip())
            found.append((left, left + len(chunk.strip())))
            begin = i + 1
    return found


def _call_arguments(text: str, start: int) -> tuple[list[tuple[int, int]], int] | None:
    """The argument spans of the call whose `(` is at `start` (strings skipped), and its `)`."""
    depth, begin, found, i = 0, start + 1, [], start
    while i < len(text) and i - start < 2000:
        char = text[i]
        if char in "\"'":
            string = _STRING.match(text, i)
            if string is None:
                return None
            i = string.end()
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                found.append((begin, i))
                return found, i
        elif char == "," and depth == 1:
            found.append((begin, i))
            begin = i + 1
        i += 1
    return None


def _enumerator_macros(
    text: str, line_starts: list[int], runs: list[tuple[int, int]]
) -> Iterator[tuple[str, int, int | None, bool]]:
    """The file's X-macro enumerators: (name, index of the name's parameter, of its value's or None, comma after)."""
    for first, last in runs:
        head = _FUNCTION_MACRO.match(text, line_starts[first])
        if head is None:
            continue
        end = line_starts[last + 1] - 1 if last + 1 < len(line_starts) else len(text)
        body = _COMMENT.sub(" ", text[head.end() : end].replace("\\\n", " "))
        m = _ENUMERATOR_BODY.fullmatch(body)
        params = [p.strip() for p in head.group("params").split(",")]
        pasted = _PASTED_NAME.match(body)
        if pasted and (pasted.group("p") or pasted.group("p2")) in params:  # `V4L2_MBUS_FMT_ ## name = …`: no name
            yield head.group("name"), -1, None, False
            continue
        if m is None or m.group("p") not in params or (m.group("q") and m.group("q") not in params):
            continue
        p, q = params.index(m.group("p")), params.index(m.group("q")) if m.group("q") else None
        if q is None or q > p:
            yield head.group("name"), p, q, m.group("comma") is not None


def _expand_enumerator(text: str, buf: bytearray, start: int, p: int, q: int | None, comma: bool) -> bool:
    """`NAME(code, "text")` at `start` (its name) -> `code,` in place (offsets kept): an X-macro's enumerator."""
    open_paren = text.find("(", start)
    call = _call_arguments(text, open_paren)
    if call is None:
        return False
    args, close = call
    if p < 0:  # a pasted name: the enumerator is left out, with its comma
        after = re.match(r"\s*,", text[close + 1 : close + 200])
        for i in range(start, close + 1 + (after.end() if after else 0)):
            if buf[i] not in (10, 13):
                buf[i] = 32
        return True
    if len(args) <= max(p, q or 0) or not re.fullmatch(r"\s*[A-Za-z_]\w*\s*", text[args[p][0] : args[p][1]]):
        return False
    keep = [args[p]] + ([args[q]] if q is not None else [])
    for i in range(start, close + 1):
        if any(a <= i < b for a, b in keep):
            buf[i] = ord(text[i])  # the names stay, whatever masked them
        elif buf[i] not in (10, 13):
            buf[i] = 32
    if q is not None:
        buf[args[p][1]] = ord("=")  # the comma after the name's argument
    if comma:
        buf[keep[-1][1]] = ord(",")  # the comma or `)` after the last kept argument
    return True
