"""C and C++ preprocessor lines, as the macro masking (languages/_c_macros.py) needs them."""

import bisect
import re

_CPLUSPLUS_ONLY = re.compile(
    r"^(?:ifdef\s+__cplusplus|if\s+(?:defined\s*\(?\s*__cplusplus\s*\)?|__cplusplus)(?:\s*&&[^|?]*)?"
    r"|if\s+(?:[^|?!]|!=)*&&\s*defined\s*\(?\s*__cplusplus\s*\)?\s*)$"
)
_C_ALWAYS = re.compile(r"^(?:ifndef\s+__cplusplus|if\s+!\s*defined\s*\(?\s*__cplusplus\s*\)?(?:\s*\|\|.*)?)$")
_CPLUSPLUS = re.compile(
    r"^[ \t]*#[ \t]*if(?:def[ \t]+__cplusplus|[ \t]+defined[ \t]*\(?[ \t]*__cplusplus[ \t]*\)?)[ \t]*(?://.*|/\*.*)?$"
    r"(?P<body>(?:\n(?![ \t]*#[ \t]*(?:endif|else|elif)).*)*)",
    re.M,
)
_LINKAGE_LINE = re.compile(r'^[ \t]*(?:extern[ \t]+"C\+?\+?"[ \t]*\{|\})[ \t]*(?://.*|/\*.*\*/)?[ \t]*$', re.M)


def _code_above(code: list[str], row: int, directive_rows: set[int]) -> int | None:
    """The nearest row above `row` with code, None when a directive (or the start) comes first."""
    for above in range(row - 1, max(-1, row - 400), -1):
        if above in directive_rows:
            return None
        if code[above].strip():
            return above
    return None


_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


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
        while above >= 0 and row - above <= 60 and (above in directive_rows or not code[above].strip()):
            if above in directive_rows:  # comments and blank lines between are not searched
                found.add(above)
            above -= 1
        if above >= 0:
            found.add(above)
    return found


_CONDITIONAL = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")
_DIRECTIVE_START = re.compile(r"^[ \t]*#", re.M)


def _all_directive_runs(text: str, lines: list[str], line_starts: list[int]) -> list[tuple[int, int]]:
    """The (first, last) rows of every directive, its `\\` continuations included, in order."""
    runs: list[tuple[int, int]] = []
    row = 0
    for m in _DIRECTIVE_START.finditer(text):
        row = bisect.bisect_right(line_starts, m.start(), lo=row) - 1
        if runs and row <= runs[-1][1]:
            continue  # a `#` inside a continued directive
        last = row
        while last + 1 < len(lines) and lines[last].endswith(("\\", "\\\r")):
            last += 1
        runs.append((row, last))
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


def _cplusplus_only_rows(lines: list[str], runs: list[tuple[int, int]]) -> set[int]:
    """Rows a C compiler never sees: `#ifdef __cplusplus` / `#if defined __cplusplus [&& …]`
    branches, and the `#else` of `#ifndef __cplusplus` / `#if !defined __cplusplus [|| …]`."""
    found: set[int] = set()
    stack: list[bool] = []  # per open conditional: is this branch C++ only?
    c_always: list[bool] = []  # per open conditional: is its first branch always taken in C?
    for index, (row, last) in enumerate(runs):
        directive = re.match(r"#\s*(\w+)\s*(.*)", _COMMENT.sub("", lines[row]).strip())
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
