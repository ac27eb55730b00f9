""":ExpandAt on a definition whose last line the next definition starts on opens that
one alone, `foldclosed()` as the oracle.

Folds are whole lines, so such a definition folds up to the line before its last
(servers/folding.py), and that line belongs to the next one's fold. Found by `make
conformance` on libxslt1-dev's minified EXSLT/APIchunk0.html: `:ExpandAt style` also
opened the heading `C-u`, which starts on the line `</style>` ends.
"""

from __future__ import annotations

from pathlib import Path

import pynvim

from nvim_session import nvim

#: The head of /usr/share/doc/libxslt1-dev/html/EXSLT/APIchunk0.html, shortened.
MINIFIED = (
    '<html xmlns="http://www.w3.org/1999/xhtml"><head><style type="text/css">\n'
    "TD {font-family: Verdana,Arial,Helvetica}\n"
    "BODY {font-family: Verdana,Arial,Helvetica; margin-top: 2em}\n"
    "H1 {font-family: Verdana,Arial,Helvetica}\n"
    '    </style><title>API Alphabetic Index C-u for libexslt</title></head><body><h2 align="center">'
    '<a href="APIchunk0.html">C-u</a>\n'
    '</h2><h2>Letter C:</h2><dl><dt>Common</dt><dd><a href="x.html">exsltCommonRegister</a><br />\n'
    "</dd></dl></body></html>\n"
)
#: 1-based first lines: the style element, the heading starting on its last line.
STYLE, HEADING = 1, 5

SCRIPT = "function a() {\n  return 1;\n} function b() {\n  return 2;\n}\n"


def _closed(nv: pynvim.Nvim, lines: list[int]) -> list[int]:
    got = nv.exec_lua("local o = {} for _, l in ipairs(...) do o[#o + 1] = vim.fn.foldclosed(l) end return o", lines)
    return [int(c) for c in got]


def _expand(nv: pynvim.Nvim, path: Path, text: str, args: str) -> int:
    path.write_text(text)
    nv.command(f"edit! {path}")
    nv.command("normal! zR")
    nv.command("SimpleBrief")
    nv.command(f"ExpandAt {args}")
    return int(nv.exec_lua("return vim.api.nvim_win_get_cursor(0)[1]"))


def test_expanding_the_style_leaves_the_heading_on_its_last_line_closed(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        assert _expand(nv, tmp_path / "APIchunk0.html", MINIFIED, "style") == STYLE
        assert _closed(nv, [STYLE, HEADING]) == [-1, HEADING]
        assert _expand(nv, tmp_path / "APIchunk0.html", MINIFIED, "C-u") == HEADING
        assert _closed(nv, [STYLE, HEADING]) == [STYLE, -1]


def test_expanding_a_function_leaves_the_one_starting_on_its_closing_line_closed(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        assert _expand(nv, tmp_path / "two.js", SCRIPT, "a") == 1
        assert _closed(nv, [1, 3]) == [-1, 3]
        assert _expand(nv, tmp_path / "two.js", SCRIPT, "b") == 3
        assert _closed(nv, [1, 3]) == [1, -1]
