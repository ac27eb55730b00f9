"""C and C++ preprocessor lines, as the macro masking (languages/_c_macros.py) needs them."""

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
    """`rows` and, above each run of them, the rows up to the nearest line of code.

    The parser reports an error where the text stops making sense, often below the macro
    that caused it: `__BEGIN_DECLS`, then a comment, then `extern int f (void);` errs at `int`.
    """
    found = set(rows)
    for row in sorted(rows):
        if row - 1 in rows:
            continue
        above = row - 1
        while above >= 0 and row - above <= 60 and (above in directive_rows or not code[above].strip()):
            found.add(above)
            above -= 1
        if above >= 0:
            found.add(above)
    return found


_CONDITIONAL = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")


def _conditional_groups(lines: list[str]) -> list[list[tuple[int, int, str]]]:
    """Each `#if … #endif` group as its directives: (first row, last row, word)."""
    groups: list[list[tuple[int, int, str]]] = []
    stack: list[list[tuple[int, int, str]]] = []
    continued = False
    for row, line in enumerate(lines):
        was_continued, continued = continued, line.rstrip().endswith("\\")
        if was_continued or "#" not in line:
            continue
        m = _CONDITIONAL.match(line)
        if m is None:
            continue
        last = row
        while last + 1 < len(lines) and lines[last].rstrip().endswith("\\"):
            last += 1
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


def _directive_runs(lines: list[str], rows: set[int], directive_rows: set[int]) -> list[tuple[int, int]]:
    """The (first, last) rows of each directive, continuations included, that touches `rows`."""
    runs: list[tuple[int, int]] = []
    for row in sorted(directive_rows):
        if runs and row == runs[-1][1] + 1 and lines[row - 1].rstrip().endswith("\\"):
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return [(a, b) for a, b in runs if any(r in rows for r in range(a, b + 1))]


def _cplusplus_only_rows(lines: list[str]) -> set[int]:
    """Rows a C compiler never sees: `#ifdef __cplusplus` / `#if defined __cplusplus [&& …]`
    branches, and the `#else` of `#ifndef __cplusplus` / `#if !defined __cplusplus [|| …]`."""
    found: set[int] = set()
    stack: list[bool] = []  # per open conditional: is this branch C++ only?
    c_always: list[bool] = []  # per open conditional: is its first branch always taken in C?
    continued = False
    for row, line in enumerate(lines):
        if not continued and not line.lstrip().startswith("#"):  # the common case: code
            continued = line.endswith("\\") or line.rstrip().endswith("\\")
            if stack and any(stack):
                found.add(row)
            continue
        code = _COMMENT.sub("", line).strip()
        directive = None if continued else re.match(r"#\s*(\w+)\s*(.*)", code)
        was_continued, continued = continued, line.rstrip().endswith("\\")
        if was_continued or (directive and continued):
            if directive and directive.group(1) in ("if", "ifdef", "ifndef"):
                stack.append(False)  # a condition over several lines: not judged
                c_always.append(False)
            continue
        if directive:
            word, cond = directive.group(1), directive.group(2).strip()
            if word in ("if", "ifdef", "ifndef"):
                stack.append(word != "ifndef" and _CPLUSPLUS_ONLY.match(f"{word} {cond}") is not None)
                c_always.append(_C_ALWAYS.match(f"{word} {cond}") is not None)
                continue
            if word in ("else", "elif") and stack:
                stack[-1] = c_always[-1]  # after `#ifndef __cplusplus`: C++ only
                continue
            if word == "endif" and stack:
                stack.pop()
                c_always.pop()
                continue
        if any(stack):
            found.add(row)
    return found
