"""C and C++: unexpanded macro invocations blanked, so the grammar reads what a compiler would."""

import bisect
import itertools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from simple_brief.languages._c_preprocessor import (
    _COMMENT,
    _HARD_CONDITION,
    _LINKAGE_LINE,
    _all_directive_runs,
    _arguments,
    _brace_split_spans,
    _code_above,
    _code_lines,
    _conditional_groups,
    _cplusplus_blocks,
    _cplusplus_only_rows,
    _dead_branches,
    _enumerator_macros,
    _expand_enumerator,
    _with_code_above,
)

if TYPE_CHECKING:
    from tree_sitter import Parser

# --- Unexpanded macros -------------------------------------------------------------------
# tree-sitter-c cannot expand macros, so `__BEGIN_DECLS`, `PyObject_HEAD`, `__THROW`,
# `__nonnull ((1))`, `PyAPI_FUNC(int)` … read as syntax errors although the compiler accepts
# them. `mask_macros` blanks such macro invocations (spaces, so every byte offset and every
# line stays where it was) on the lines where the first parse found an error; the scanner
# parses the masked bytes again and keeps that tree. Nothing else changes: the outline's
# names and signatures are still cut from the real text.

_ID = r"[A-Za-z_]\w*"
#: A macro-shaped name: `__x`, ALL_CAPS, or `Prefix_CAPS` (`PyObject_HEAD`, `PyAPI_FUNC`, `_PyObject_HEAD_EXTRA`).
#: Atomic and ending at a word's end: a name is never split, so no regex backtracks into it.
_MACRO = r"(?<!\w)(?>(?:__\w+|_?[A-Z][A-Z0-9_]+|_?[A-Z][A-Za-z0-9]*_[A-Z0-9_]*[A-Z][A-Z0-9_]*|_[A-Z]\w*)\b)"
#: A parenthesised argument list, up to three levels deep.
_ARGS = r"\((?:[^()]++|\((?:[^()]++|\([^()]*+\))*+\))*+\)"
_KEYWORD_LIST = (
    "auto break case char const continue default do double else enum extern float for goto if inline int "
    "long register restrict return short signed sizeof static struct switch typedef union unsigned void "
    "volatile while _Bool _Complex _Atomic _Noreturn _Alignas _Thread_local __attribute__ __attribute "
    "__declspec __asm__ __asm asm __extension__ __inline __inline__ __restrict __restrict__ __volatile__ "
    "__const __signed__ __typeof__ __thread __cdecl __stdcall __fastcall __based __unaligned "
    "__forceinline _Nullable _Nonnull NULL"
)
_KEYWORDS = frozenset(_KEYWORD_LIST.split())
_LINE_MACRO = re.compile(rf"(?:^|[{{])[ \t]*(?P<m>{_MACRO}(?:[ \t]*{_ARGS})?)[ \t]*(?:/\*.*?\*/[ \t]*|//.*)?$", re.M)
#: Macros after a declarator's `)` and before `;`, `{`, `,`, `=` or the end of the line; after its `),`
#: when a `;` follows (glibc's `extern void __longjmp_chk (…),` / `__THROWNL __attribute__ ((…));`).
_TRAILING = re.compile(
    rf"\)(?P<m>(?P<comma>,(?=\s))?(?:(?:\s|/\*(?:[^*]|\*(?!/))*+\*/)*{_MACRO}(?:\s*{_ARGS})?)+)"
    r"(?=\s*(?:[;{,=]|$|/[/*]))",
    re.M,
)
#: `MACRO(type)` after another macro: `extern GCC_NORETURN NCURSES_EXPORT(void) f`.
_LEADING_AFTER_MACRO = re.compile(
    rf"\b(?:extern|static|inline)[ \t]+{_MACRO}[ \t]+(?P<m>\b[A-Z][A-Z0-9_]*\b)(?P<sp>[ \t]*)(?P<args>\([\w \t*]*\))"
    rf"(?=[ \t]*(?:{_ID}|\*))"
)
#: `MACRO(args)` before a declaration's name: `PyAPI_FUNC(int) f`, `Py_DEPRECATED(3.9) int`.
_LEADING = re.compile(
    r"(?:^[ \t]*|\b(?:extern|static|inline)[ \t]+|\)[ \t]+)"
    rf"(?P<m>{_MACRO})(?P<sp>[ \t]*)(?P<args>{_ARGS})(?=[ \t]*(?:{_ID}|\*))",
    re.M,
)
#: A line that starts with a macro wrapping a type, up to its `)`: `PyAPI_FUNC(int)`.
_TYPE_MACRO_BEFORE = re.compile(rf"[ \t]*(?:(?:extern|static|inline)[ \t]+)*{_MACRO}[ \t]*\([^()\n]*\)$")
#: The rest of a line, then a declarator starting the next one: `\n  FT_Bitmap_Copy( …`.
_DECLARATOR_NEXT = re.compile(rf"[^\n]*\n[ \t*]*{_ID}[ \t]*\(")
_TYPEISH = re.compile(r"^\(\s*[A-Za-z_][\w\s*]*\)$")
#: A bare macro between two names: `void XMLCALL XML_Parse(`, `extern GCC_NORETURN void`.
_BARE = re.compile(
    rf"(?:(?<=[\w*])[ \t]+|(?<=\*)|^[ \t]*)(?P<m>{_MACRO})"
    rf"(?=\s+(?P<ptr>\*[\s*]*)?(?P<next>{_ID}\b)?(?P<decl>[ \t]*[;,)=\[:])?)",
    re.M,
)
#: A macro wrapping a parameter list: zlib's `f OF((int x))`, `(*alloc_func) OF((voidpf p))`.
_WRAPPED_PARAMS = re.compile(
    rf"(?<=[\w)])(?P<sp>[ \t]*)(?P<m>{_MACRO})[ \t]*\([ \t]*(?P<inner>\("
    r"(?:[^()]++|\((?:[^()]++|\([^()]*+\))*+\))*+\))[ \t]*\)"
)
#: A macro wrapping a declarator: glibc's `__NTH (atoi (const char *__nptr))`.
_WRAPPED_DECLARATOR = re.compile(rf"^[ \t]*(?P<m>{_MACRO})[ \t]*\([ \t]*(?P<inner>{_ID}[ \t]*{_ARGS})[ \t]*\)", re.M)
#: A calling convention before a function pointer's name: `void (XMLCALL *handler)(…)`.
_CALLING = re.compile(rf"\([ \t]*(?P<m>{_MACRO})[ \t]+(?=\*?[ \t]*{_ID}[ \t]*\)[ \t]*\()")
#: A declaration's first word before its type and name: `z_const char *msg`, `SQLITE_API sqlite3_int64 f(`,
#: `FcPublic const FcChar8 *` / `FcCacheDir (…)`.
_FIRST_WORD = re.compile(
    rf"(?:^|(?<=[;{{}}(,]))[ \t]*(?:(?:extern|static|inline|const|volatile)[ \t]+)*(?P<m>{_ID})[ \t]+"
    rf"(?:(?:const|volatile)[ \t]+)*(?P<next>{_ID})\b"
    rf"(?P<tail>(?=[ \t]*(?P<star>\*)?[\s*]*(?P<third>{_ID})?(?:\s|/\*(?:[^*]|\*(?!/))*+\*/)*[;,=\[()]))?",
    re.M,
)
#: A statement's start, and a typedef's (whose last name is the type's, never a macro).
_STATEMENT_START = re.compile(r"[;{}]")
_TYPEDEF_START = re.compile(r"(?:^|\n)[ \t]*typedef\b")
_TOKEN = re.compile(rf"{_ID}|\S")
#: A macro after a field's, variable's or parameter's name:
#: `long int __align __LOCK_ALIGNMENT;`, `int flags G_GNUC_UNUSED)`.
_AFTER_NAME = re.compile(rf"(?<=[a-z_][a-z0-9_])(?P<m>[ \t]+{_MACRO})(?=[ \t]*[;,)])")
#: A macro after a pointer's name: `typedef struct gcry_mpi *GCRY_MPI _GCRY_GCC_ATTR_DEPRECATED;`.
_AFTER_POINTER_NAME = re.compile(rf"\*[ \t]*{_ID}(?P<m>[ \t]+{_MACRO})(?=[ \t]*[;,)])")
#: A qualifier macro first in an array's brackets: glibc's `regmatch_t m[_Restrict_arr_ _REGEX_NELTS (n)]`.
_ARRAY_QUALIFIER = re.compile(rf"\[\s*(?P<m>{_MACRO})(?=\s+(?:{_ID}|\())")
#: `const` after a parameter list, which C never has: a C++ method in a header read as C (`int f() const {`).
_CONST_METHOD = re.compile(r"\)[ \t]*(?P<m>const)(?=[ \t]*[{;])")
#: An unnamed bit-field (`int :32;`, `__s32 :32;`), which the grammar wants a name for.
_UNNAMED_BITFIELD = re.compile(rf"(?<=[;{{\n])[ \t]*(?P<m>(?P<words>(?:{_ID}[ \t]+)*{_ID})[ \t]*:[ \t]*\w+[ \t]*;)")
#: Words a macro before a type may be followed by (`__extern_always_inline const void *`).
_QUALIFIERS = frozenset(["const", "volatile", "static", "inline", "extern", "__inline", "__inline__"])
#: Type keywords: a macro right before one cannot itself be the type.
_TYPE_WORD_LIST = "void char short int long float double signed unsigned struct union enum _Bool"
_TYPE_WORDS = frozenset(_TYPE_WORD_LIST.split())
#: Words after which the next name is the type, so a macro-shaped name there is kept.
_BEFORE_TYPE = frozenset(
    ["extern", "static", "inline", "const", "volatile", "register", "typedef", "struct", "union", "enum", "return"]
)
#: glibc's `__REDIRECT (name, (params), alias)` declares `name (params)`.
_REDIRECT = re.compile(rf"\b__REDIRECT\w*\s*\(\s*(?P<name>{_ID})\s*,\s*(?P<params>{_ARGS})\s*,\s*{_ID}\s*\)")
#: Compiler extensions the grammar knows, masked along with the macros around them.
_EXTENSIONS = frozenset({"__attribute__", "__attribute", "__asm__", "__asm", "asm"})
#: A `#define`, `#undef` or `#include` where the grammar expects no directive (inside an enum: glibc's
#: `#define SHUT_RD SHUT_RD`, an X-macro list `#include <bits/stab.def>`).
_DEFINE = re.compile(r"^[ \t]*#[ \t]*(?:define|undef|include)\b(?:\\\n|.)*$", re.M)

#: Braces, an opening one with the two words before it (`enum name {`).
_BRACES = re.compile(rf"(?:\b(?:enum|struct|union)(?:\s+{_ID})?\s*)?\{{|\}}")
_RECORDS = ("struct", "union")
_BRACE_CHAR = re.compile(r"[{}]")
_ENUM_OPEN = re.compile(rf"enum(?:\s+{_ID})?\s*\{{")  # a literal first: searched fast


def _enum_bodies(text: str) -> list[tuple[int, int]]:
    """The (`{`, `}`) offsets of every enum's list, in order (an enumerator holds no brace)."""
    found: list[tuple[int, int]] = []
    for m in _ENUM_OPEN.finditer(text):
        if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_"):
            continue
        close = text.find("}", m.end())
        found.append((m.end() - 1, close if close >= 0 else len(text)))
    return found


_ALL_CAPS = re.compile(r"_*[A-Z][A-Z0-9_]*")
_IF_0 = re.compile(r"[ \t]*#[ \t]*if[ \t]+0\b")
#: An enumerator ending the code before a run of directives: `  __ALTMON_12,` / `#ifdef …` / `# define …`.
_ENUMERATOR_BEFORE = re.compile(
    rf"(?:^|\n)[ \t]*{_ID}[ \t]*(?:=[^;{{}}\n#]*)?,(?:[ \t]*(?:/\*[^\n]*\*/|//[^\n]*))?\s*(?:#[^\n]*\n\s*)+\Z"
)
#: An enumerator after a `#define` (directives between): `(`, an X-macro's (`JMESSAGE(code, "…")`).
_ENUMERATOR_NEXT = re.compile(rf"(?:\s*#[^\n]*\n)*\s*{_ID}\s*[,=}}(]")


def _blank(buf: bytearray, start: int, end: int) -> None:
    """Spaces over buf[start:end], newlines kept."""
    for i in range(start, end):
        if buf[i] not in (10, 13):
            buf[i] = 32


#: How far back `_in_enum` looks for the `{` it is in.
_ENUM_WINDOW = 20000


def _in_enum(text: str, start: int, words: tuple[str, ...] = ("enum",)) -> bool:
    """True when the innermost `{` open at `start` is an enum's (`enum {`, `enum name {`), or
    with `words`, a struct's or union's (the `{` is the one `_BRACES` finds in the 20,000
    characters before `start`)."""
    low = max(0, start - _ENUM_WINDOW)
    depth = 0
    braces = [m.start() for m in _BRACE_CHAR.finditer(text, low, start)]
    for index in range(len(braces) - 1, -1, -1):
        at = braces[index]
        if text[at] == "}":
            depth += 1
        elif depth == 0:
            return _brace_opener(text, braces[index - 1] + 1 if index else low, at).startswith(words)
        else:
            depth -= 1
    return False


_RECORD_WORDS = frozenset({"enum", "struct", "union"})
_ID_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def _brace_opener(text: str, low: int, brace: int) -> str:
    """What `_BRACES` matches for the `{` at `brace` when its search starts at `low` (no brace
    between): the leftmost of `keyword name {` and `keyword {`, else `{`."""
    found = brace
    name_end = _skip_space(text, low, brace)
    name_start = _word_start(text, name_end)
    if low <= name_start < name_end and text[name_start:name_end] in _RECORD_WORDS:
        found = name_start
    if low <= name_start < name_end and text[name_start] in _ID_START:
        word_end = _skip_space(text, low, name_start)
        word_start = _word_start(text, word_end)
        if low <= word_start and word_end < name_start and text[word_start:word_end] in _RECORD_WORDS:
            found = word_start
    return text[found : brace + 1]


def _skip_space(text: str, low: int, at: int) -> int:
    """`at` moved back over whitespace (`\\s`), not below `low`."""
    while at > low and text[at - 1].isspace():
        at -= 1
    return at


def _word_start(text: str, at: int) -> int:
    """`at` moved back over word characters (`\\w`)."""
    while at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_"):
        at -= 1
    return at


def _mid_declaration_rows(
    code: list[str],
    rows: set[int],
    runs: list[tuple[int, int]],
    groups: list[list[tuple[int, int, str]]],
    text: str,
    line_starts: list[int],
) -> list[tuple[int, int]]:
    """Row spans to blank: the conditionals in erroneous rows that cut a declaration or a list.

    `typedef struct x` / `#if …` / `{ … }` / `#endif` / `X;` and an enum's `A` / `#if …` / `, B`
    / `#endif` read as errors. A compiler keeps one branch; here the directives are
    blanked, the first branch kept and the others blanked.
    """
    spans: list[tuple[int, int]] = []
    directive_rows = {row for first, last in runs for row in range(first, last + 1)}
    for group in groups:
        touched = group[0][0] - 1 in rows  # right below an erroneous line: `typedef struct x` / `#if …`
        if not touched and not any(row in rows for first, last, _ in group for row in range(first, last + 1)):
            continue
        cut = False
        for first, _last, _word in group:
            above = first - 1
            while above >= 0 and (above in directive_rows or not code[above].strip()):
                above -= 1
            if above < 0 or code[above].rstrip().endswith((";", "}", "{")):
                continue
            if _LINE_MACRO.match(code[above]) and not _in_enum(text, line_starts[above]):
                continue
            cut = True
            break
        if not cut:
            continue
        for index, (first, last, word) in enumerate(group):
            spans.append((first, last))
            if word in ("elif", "else") and index + 1 < len(group):
                spans.append((last + 1, group[index + 1][0] - 1))
    return spans


#: A macro that declares a function: libpng's `PNG_EXPORT(17, void, png_write_chunk_end, (png_structrp p));`
#: or a function type: `typedef PNG_CALLBACK(void, *png_rw_ptr, (png_structp, png_bytep, size_t));`.
_DECLARING = re.compile(
    rf"^[ \t]*(?:typedef[ \t]+)?(?P<m>{_MACRO})[ \t]*\((?P<args>(?:[^()]++|\((?:[^()]++|\([^()]*+\))*+\))*+)\)[ \t]*;",
    re.M,
)


def _unwrap_declaring(buf: bytearray, text: str, m: re.Match[str]) -> bool:
    """`MACRO(…, type, name, (params), …);` -> `type name (params);` in place (offsets kept)."""
    args = _arguments(text, m.start("args"), m.end("args"))
    if len(args) == 2:  # `NCURSES_WRAPPED_VAR(WINDOW *, curscr);` -> `WINDOW * curscr;`
        (t0, t1), (n0, n1) = args
        kind, name = text[t0:t1], text[n0:n1]
        if "*" in kind and _TYPEISH.match(f"({kind})") and re.fullmatch(_ID, name) and "\n" not in kind:
            _blank(buf, m.start("m"), m.end() - 1)
            buf[m.start("m") : m.start("m") + len(kind)] = kind.encode("latin-1")
            buf[n0:n1] = name.encode("latin-1")
            return True
    for i in range(2, len(args)):
        (t0, t1), (n0, n1), (p0, p1) = args[i - 2], args[i - 1], args[i]
        kind, name, params = text[t0:t1], text[n0:n1], text[p0:p1]
        if not (params.startswith("(") and params.endswith(")") and re.fullmatch(rf"\**[ \t]*{_ID}", name)):
            continue
        if not _TYPEISH.match(f"({kind})") or "\n" in kind or kind in _KEYWORDS - _TYPE_WORDS - {"void"}:
            continue
        if t0 - m.start("m") < 0:
            continue
        _blank(buf, m.start("m"), m.end() - 1)
        buf[m.start("m") : m.start("m") + len(kind)] = kind.encode("latin-1")
        buf[n0:n1] = name.encode("latin-1")
        buf[p0:p1] = params.encode("latin-1")
        return True
    return False


def _unwrap_members(buf: bytearray, text: str, m: re.Match[str]) -> bool:
    """In a struct's body, a macro wrapping members reads as them: the kernel's
    `__DECLARE_FLEX_ARRAY(__u8, name);` -> `__u8 name;`, `__struct_group(tag, name, attrs, int a; int b;);`
    -> `int a; int b;` (offsets kept)."""
    args = _arguments(text, m.start("args"), m.end("args"))
    members = [(a, b) for a, b in args if text[a:b].endswith(";")]
    if not (members or len(args) == 2) or not _in_enum(text, m.start("m"), _RECORDS):
        return False
    if members:
        _blank(buf, m.start("m"), members[0][0])
        _blank(buf, members[-1][1], m.end())
        return True
    if len(args) == 2:
        (t0, t1), (n0, n1) = args
        kind, name = text[t0:t1], text[n0:n1]
        if _TYPEISH.match(f"({kind})") and re.fullmatch(_ID, name) and "\n" not in kind:
            _blank(buf, m.start("m"), m.end() - 1)
            buf[m.start("m") : m.start("m") + len(kind)] = kind.encode("latin-1")
            buf[n0:n1] = name.encode("latin-1")
            return True
    return False


_MACRO_NAME = re.compile(_MACRO)


#: Text every match of a pattern holds, found faster than the pattern is tried at every position.
_NEEDS = {
    _WRAPPED_PARAMS: re.compile(r"\([ \t]*\("),
    _LEADING_AFTER_MACRO: re.compile(r"(?:extern|static|inline)[ \t]"),
    _REDIRECT: re.compile("__REDIRECT"),
    _UNNAMED_BITFIELD: re.compile(r":[ \t]*\w+[ \t]*;"),
}


def _is_macro(name: str) -> bool:
    return name not in _KEYWORDS and _MACRO_NAME.fullmatch(name) is not None


def mask_macros(data: bytes, rows: set[int], c_only: bool = False) -> bytes:
    """`data` with the macro invocations on the 0-based `rows` blanked (same length, same lines).

    Masked: a line that is only a macro (`__BEGIN_DECLS`, `PyObject_HEAD`,
    `PyVarObject_HEAD_INIT(NULL, 0)`); macros after a declarator (`__THROW __wur`,
    `__nonnull ((1))`); a macro wrapping a declaration's type (`PyAPI_FUNC(int)` keeps `int`)
    or before it (`Py_DEPRECATED(3.9)`); a bare macro between two names (`void XMLCALL f(`);
    and the `extern "C" {` / `}` lines of `#ifdef __cplusplus` blocks; with `c_only`, those
    blocks' whole C++-only branches (a C compiler never sees them). An X-macro enum list
    (`MESSAGE(code, "text")` with `#define MESSAGE(code, string) code,`) reads as its
    enumerators; a conditional whose branch opens a brace it does not close loses its
    directives; a branch the compiler skips (`#if 0`, or an `#else` that reads wrong on its
    own while its sibling reads well) is blanked when nothing else is left to mask in it.
    """
    text = data.decode("latin-1")  # one character per byte: offsets are byte offsets
    buf = bytearray(data)
    lines = text.split("\n")
    line_starts = [0, *itertools.accumulate(map((1).__add__, map(len, lines[:-1])))]

    def row_of(offset: int) -> int:
        return bisect.bisect_right(line_starts, offset) - 1

    runs = _all_directive_runs(text, lines, line_starts)
    directive_rows = {row for first, last in runs for row in range(first, last + 1)}

    code = _code_lines(text)
    rows = _with_code_above(code, rows, directive_rows)

    def wanted(start: int) -> bool:
        row = row_of(start)
        return row in rows and row not in directive_rows

    blocks: list[tuple[int, int]] = []  # (first, last) runs of wanted rows
    for row in sorted(r for r in rows if 0 <= r < len(lines)):
        if blocks and row <= blocks[-1][1] + 12:  # near runs are searched as one (`wanted` still decides)
            blocks[-1] = (blocks[-1][0], row)
        else:
            blocks.append((row, row))

    def matches(pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        """The pattern's matches that start on a wanted row (searched only there: linear)."""
        needs = _NEEDS.get(pattern)
        for first, last in blocks:
            start = line_starts[first]
            end = line_starts[last + 1] if last + 1 < len(line_starts) else len(text)
            if needs is not None and needs.search(text, start, min(len(text), end + 400)) is None:
                continue  # the text every match holds is not there: the costly search would find nothing
            for m in pattern.finditer(text, start, min(len(text), end + 400)):
                if m.start() >= end:
                    break
                yield m

    for first, last in [(a, b) for a, b in runs if any(r in rows for r in range(a, b + 1))]:
        # a comment inside a continued directive ends it for the grammar: `#define H(t) \`
        # `struct t { \` / `int *p; /* first */ \` / `}`; an `#if` condition with `?:` or a
        # string (`__has_include ("x.h")`) is not in its expression grammar: read as `1`
        start, end = line_starts[first], line_starts[last] + len(lines[last])
        for comment in _COMMENT.finditer(text, start, end):
            if text[comment.end() : end].split("\n", 1)[0].strip():  # text follows: not a trailing comment
                _blank(buf, comment.start(), comment.end())
        condition = _HARD_CONDITION.match(text, start, end)
        if condition:
            _blank(buf, condition.start("cond"), condition.end("cond"))
            buf[condition.start("cond") + 1] = ord("1")
            for row in range(first, last):  # the continuations stay
                buf[line_starts[row] + len(lines[row].rstrip()) - 1] = ord("\\")
    if c_only:  # C never compiles these branches (`template<>`, overloads in glibc's math.h)
        for row in _cplusplus_only_rows(lines, runs) - directive_rows:  # their `#define`s stay in the outline
            start = line_starts[row]
            _blank(buf, start, start + len(lines[row]))
    groups = _conditional_groups(lines, runs)
    for group in groups:  # `#if 0` / `{` / `#endif`: a brace for editors only
        (first, last, _), (end, _, _) = group[0], group[1]
        if _IF_0.match(lines[first]) and end - last <= 3:
            body = "\n".join(code[last + 1 : end])
            if body.count("{") != body.count("}"):
                for row in range(last + 1, end):
                    _blank(buf, line_starts[row], line_starts[row] + len(lines[row]))
    for first, last in [
        *(_mid_declaration_rows(code, rows, runs, groups, text, line_starts) if c_only else []),
        *_brace_split_spans(lines, code, runs, groups, rows),
    ]:
        for row in range(first, last + 1):
            _blank(buf, line_starts[row], line_starts[row] + len(lines[row]))
    for m in _cplusplus_blocks(text):
        body_start = m.start("body")
        for linkage in _LINKAGE_LINE.finditer(m.group("body")):
            _blank(buf, body_start + linkage.start(), body_start + linkage.end())
    enums: list[tuple[int, int]] = []
    opens: list[int] = []

    def in_enum_body(offset: int) -> bool:
        """True inside an enum's list (found once per call: `_enum_bodies`)."""
        if not opens:
            enums.extend(_enum_bodies(text) or [(-1, -1)])
            opens.extend(start for start, _ in enums)
        at = bisect.bisect_left(opens, offset) - 1
        return at >= 0 and offset < enums[at][1]

    for m in matches(_DEFINE):
        above = _code_above(code, row_of(m.start()), directive_rows)
        if row_of(m.start()) not in rows:
            continue
        if "include" in m.group() and not in_enum_body(m.start()):
            continue  # an `#include` is masked only inside an enum's list
        if above is None:  # after another directive: masked only inside an enum's list
            if _ENUMERATOR_BEFORE.search(text, max(0, m.start() - 2000), m.start()) and _in_enum(text, m.start()):
                _blank(buf, m.start(), m.end())
            continue
        if code[above].rstrip().endswith((";", "}")):
            continue  # a `#define` between declarations, where the grammar takes it
        if code[above].rstrip().endswith("{") and not (
            _ENUMERATOR_NEXT.match(text, m.end()) and _in_enum(text, m.start())
        ):
            continue  # first in a block; in an enum it must be followed by an enumerator
        if _LINE_MACRO.match(code[above]) and not _in_enum(text, line_starts[above]):
            continue  # after `__BEGIN_DECLS`
        _blank(buf, m.start(), m.end())
    for m in matches(_REDIRECT):
        if wanted(m.start()):
            _blank(buf, m.start(), m.start("name"))
            _blank(buf, m.end("name"), m.start("params"))
            _blank(buf, m.end("params"), m.end())
    for m in matches(_DECLARING):
        if not (_is_macro(m.group("m")) and wanted(m.start("m"))):
            continue
        if not _unwrap_declaring(buf, text, m):
            _unwrap_members(buf, text, m)
    for m in matches(_LINE_MACRO):
        name = re.match(_ID, m.group("m"))
        if _WRAPPED_DECLARATOR.match(m.group("m")):
            continue  # `__NTH (atoi (const char *__nptr))`: unwrapped below
        if (
            name
            and _is_macro(name.group())
            and wanted(m.start("m"))
            and ("(" in m.group("m") or not _in_enum(text, m.start()))
        ):
            _blank(buf, m.start("m"), m.end("m"))
            args = m.group("m")[name.end() :].strip()
            end = m.end()
            for _ in range(4):  # attribute macros alone on the lines between: `XML_ATTR_MALLOC`
                following = _LINE_MACRO.match(text, text.find("\n", end) + 1)
                if not following:
                    break
                end = following.end()
            after = _DECLARATOR_NEXT.match(text, end)
            if _TYPEISH.match(args) and after and not _LINE_MACRO.match(text, text.find("\n", end) + 1):
                # `FT_EXPORT( FT_Error )` / `FT_Bitmap_Copy( …`: the type stays, where the macro started
                inner = args[1:-1].strip().encode("latin-1")
                buf[m.start("m") : m.start("m") + len(inner)] = inner
    unwrapped: list[int] = []
    for m in matches(_WRAPPED_PARAMS):
        preceding = text[max(0, m.start() - 120) : m.start()]
        name = re.search(rf"(?:(?<![\w*])(?P<name>{_ID})|\([ \t]*\*[ \t]*{_ID}[ \t]*\))$", preceding)
        if not name or (name.group("name") and (_is_macro(name.group("name")) or name.group("name") in _KEYWORDS)):
            continue  # after a parameter list or a macro: `f (int) __THROW __nonnull ((1))`
        if _is_macro(m.group("m")) and wanted(m.start("m")):
            _blank(buf, m.start("m"), m.start("inner"))
            _blank(buf, m.end("inner"), m.end())
            unwrapped.append(m.start("m"))
    for m in matches(_WRAPPED_DECLARATOR):
        if _is_macro(m.group("m")) and not _is_macro(m.group("inner").split("(")[0].strip()) and wanted(m.start()):
            _blank(buf, m.start("m"), m.start("inner"))
            _blank(buf, m.end("inner"), m.end())
    for m in matches(_CALLING):
        if _is_macro(m.group("m")) and wanted(m.start("m")):
            _blank(buf, m.start("m"), m.end("m"))
    for m in matches(_FIRST_WORD):
        word, second, third = m.group("m"), m.group("next"), m.group("third")
        if word in _KEYWORDS or not wanted(m.start("m")) or (_is_macro(second) and not _is_macro(word)):
            continue
        if second in _TYPE_WORDS or (
            m.group("tail") is not None and third and second not in _KEYWORDS and third not in _KEYWORDS
        ):
            _blank(buf, m.start("m"), m.end("m"))  # two types before a name: the first is a macro
        elif m.group("star") and not third and _is_macro(word) and not _is_macro(second):
            _blank(buf, m.start("m"), m.end("m"))  # an unnamed parameter `_Xconst XChar2b* /* string */,`
    for m in matches(_TRAILING):
        if any(m.start("m") <= at < m.end("m") for at in unwrapped):
            continue
        if m.group("comma") and not (
            text[m.end() : m.end() + 20].lstrip().startswith(";") and re.search(r"__attribute|__asm", m.group("m"))
        ):
            continue  # `f (int), __THROWNL __attribute__ ((…));`, not a declarator list (`__f (), __g ();`)
        names = re.findall(
            rf"(?<![\w(]){_ID}(?=\s*(?:\(|$|\s|[;{{,=]))", re.sub(_ARGS, "", _COMMENT.sub(" ", m.group("m")))
        )
        if _TYPE_MACRO_BEFORE.match(text, text.rfind("\n", 0, m.start()) + 1, m.start() + 1):
            continue  # `PyAPI_FUNC(int) _PyOS_IsMainThread(void);`: the name follows the type's macro
        if names and all(_is_macro(n) or n in _EXTENSIONS for n in names) and wanted(m.start("m")):
            _blank(buf, m.start("m"), m.end("m"))
    for m in [*matches(_LEADING), *matches(_LEADING_AFTER_MACRO)]:
        if not _is_macro(m.group("m")) or not wanted(m.start()):
            continue
        inner = m.group("args")[1:-1].strip()
        if _TYPEISH.match(m.group("args")) and "\n" not in inner:
            # `PyAPI_FUNC(int)` -> `int` moved to where the macro starts, so the
            # declaration still starts there (its range and signature are the real text's)
            _blank(buf, m.start("m"), m.end("args"))
            buf[m.start("m") : m.start("m") + len(inner)] = inner.encode("latin-1")
        else:
            _blank(buf, m.start("m"), m.end("args"))
    for m in matches(_BARE):
        if _is_macro(m.group("m")) and wanted(m.start("m")):
            start = m.start("m")
            line_start = text.rfind("\n", 0, start) + 1
            if text[line_start:start].lstrip().startswith("#"):
                continue
            before = [] if not text[line_start:start].strip() else _TOKEN.findall(text, max(0, start - 40), start)
            after_pointer = bool(before) and before[-1] == "*"
            prev = before[-1] if before else ""
            prev2 = before[-2] if len(before) > 1 else ""
            type_known = not _is_macro(prev) or prev2 in ("typedef", "struct", "union", "enum", "(", ",")
            after_type = (re.fullmatch(_ID, prev) is not None and type_known and prev not in _KEYWORDS) or (
                prev in _TYPE_WORDS and prev not in ("struct", "union", "enum")
            )
            if prev in _TYPE_WORDS and m.group("decl") and m.group("next") and _is_macro(m.group("next")):
                continue  # `long int __align __LOCK_ALIGNMENT;`: the name, then a macro
            if after_type and (m.group("ptr") or m.group("next")):
                _blank(buf, m.start("m"), m.end("m"))  # `Byte FAR Bytef;`, `void FAR *`: a type is already there
                continue
            if after_pointer and m.group("decl") and _ALL_CAPS.fullmatch(m.group("next") or ""):
                continue  # `*GCRY_MPI _GCRY_GCC_ATTR_DEPRECATED;`: the name, then an attribute macro
            if m.group("next") is None:
                if m.group("ptr") and after_pointer:
                    _blank(buf, m.start("m"), m.end("m"))  # `char FAR * FAR *`
                continue
            if (m.group("decl") and not after_pointer) or m.group("ptr"):
                continue  # `const DWORD x;`, `DWORD *x`: the macro-shaped name is the type
            then = _TOKEN.findall(text, m.end("next"), m.end("next") + 40)[:1] if m.group("next") else []
            if m.group("next") in _QUALIFIERS and (not before or (then and then[0] in _TYPE_WORDS)):
                pass  # `__extern_always_inline const void *` at a line's start, `extern API const char *f`
            elif m.group("next") not in _TYPE_WORDS and (not before or before[-1] in _BEFORE_TYPE):
                continue
            elif (
                m.group("next") not in _TYPE_WORDS
                and _is_macro(prev)
                and not _is_macro(m.group("next"))
                and then[:1] == ["("]
            ):
                continue  # `API_MACRO TYPE_MACRO name(`: the first is the macro
            _blank(buf, m.start("m"), m.end("m"))
    for m in matches(_ARRAY_QUALIFIER):
        if _is_macro(m.group("m")) and wanted(m.start("m")):
            _blank(buf, m.start("m"), m.end("m"))  # `[N M]` is no expression: the first is a qualifier
    for m in _CONST_METHOD.finditer(text) if c_only else []:  # all at once: no round after round
        _blank(buf, m.start("m"), m.end("m"))
    for m in matches(_UNNAMED_BITFIELD):
        words = m.group("words").split()
        if wanted(m.start("m")) and (len(words) == 1 or all(word in _TYPE_WORDS for word in words)):
            _blank(buf, m.start("m"), m.end("m"))  # padding: no name to outline
    for m in matches(_AFTER_POINTER_NAME):
        if _is_macro(m.group("m").strip()) and wanted(m.start("m")):
            _blank(buf, m.start("m"), m.end("m"))
    for m in matches(_AFTER_NAME):
        name = re.search(_ID, m.group("m"))
        word = re.findall(_ID, text[max(0, m.start() - 40) : m.start()])
        if (
            name
            and _is_macro(name.group())
            and wanted(m.start("m"))
            and word
            and word[-1] not in _KEYWORDS
            and (len(word) < 2 or word[-2] not in ("struct", "union", "enum", "typedef"))
            and not (
                _is_macro(word[-1])  # `typedef __u16 __bitwise __le16;`: the last name is the type's
                and _TYPEDEF_START.search(_STATEMENT_START.split(text[max(0, m.start() - 300) : m.start()])[-1])
            )
        ):
            _blank(buf, m.start("m"), m.end("m"))
    for macro, p, q, comma in _enumerator_macros(text, line_starts, runs):  # X-macro lists: `JMESSAGE(code, "…")`
        for m in re.finditer(rf"^[ \t]*(?P<m>{re.escape(macro)})[ \t]*\(", text, re.M):
            if in_enum_body(m.start()):
                _expand_enumerator(text, buf, m.start("m"), p, q, comma)

    def span(first: int, last: int) -> tuple[int, int]:
        return line_starts[first], line_starts[last + 1] if last + 1 < len(line_starts) else len(text)

    parsers: list[Parser] = []  # made on first use: one per call, as a parser is not shared across threads

    def erroneous(first: int, last: int) -> bool | None:
        """None for rows without code, else whether they read as an error on their own."""
        if not any(code[row].strip() for row in range(first, last + 1) if row not in directive_rows):
            return None
        start, end = span(first, last)
        if not parsers:
            parsers.append(_parser(c_only))
        return bool(parsers[0].parse(bytes(buf[start:end])).root_node.has_error)

    def settled(first: int, last: int) -> bool:
        """True when nothing was masked in the rows this round: judging their branch is a last resort."""
        start, end = span(first, last)
        return buf[start:end] == data[start:end]

    for first, last in _dead_branches(text, lines, line_starts, groups, rows, erroneous, settled):
        for row in set(range(first, last + 1)) - directive_rows:  # its `#define`s stay in the outline
            _blank(buf, line_starts[row], line_starts[row] + len(lines[row]))
    return bytes(buf)


def _parser(c_only: bool) -> "Parser":
    """A parser for the dead-branch test (C, or C++)."""
    from tree_sitter import Parser

    from simple_brief import languages

    spec = languages.by_name("c" if c_only else "cpp")
    assert spec is not None
    return Parser(languages.grammar(spec))
