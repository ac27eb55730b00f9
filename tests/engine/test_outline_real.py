"""Outlines of real files nobody here wrote (issue 13, items 3 and 5-6).

Each file comes from a package installed by name: Lua from Debian's `lua-busted` (and its
`lua-penlight` dependency; `.ci/run` installs them), Go from Debian's `git` (its contrib
folder), JavaScript from `node_modules` (`make test` runs `npm install`; rxjs is in the
lock file). A test skips, saying which, only when its file is absent.
"""

from __future__ import annotations

import re
import sysconfig
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.model import walk_all
from simple_brief.render import blockmarks
from simple_brief.scan import Outline, scan
from simple_brief.source import Source

ROOT = Path(__file__).resolve().parents[2]
LUA = Path("/usr/share/lua/5.1")
BUSTED_RUNNER = LUA / "busted" / "runner.lua"
BUSTED_CLI = LUA / "busted" / "modules" / "cli.lua"
PL_CLASS = LUA / "pl" / "class.lua"
PL_LIST = LUA / "pl" / "List.lua"
GO_CONTRIB = Path("/usr/share/doc/git/contrib/persistent-https")
RXJS_SUBJECT = ROOT / "node_modules" / "rxjs" / "dist" / "esm5" / "internal" / "Subject.js"


def _outline(path: Path) -> tuple[Outline, str]:
    if not path.is_file():
        pytest.skip(f"{path} is absent (installed by lua-busted / git / npm install)")
    spec = languages.detect(path, path.stem)
    outline = scan(Source.from_bytes(path.read_bytes()), spec)
    return outline, blockmarks.render_outline(outline, [])


# ------------------------------------------------------------------ a. +N lines


@pytest.mark.parametrize("path", [GO_CONTRIB / "main.go", GO_CONTRIB / "client.go", PL_CLASS], ids=lambda p: p.name)
def test_gap_line_count_matches_its_span(path: Path) -> None:
    """`.. text (+N lines) La-b`: N is the lines of the span after the one shown, b - a."""
    _, text = _outline(path)
    counted = re.findall(r"\(\+(\d+) lines\) L(\d+)-(\d+)$", text, re.M)
    assert counted, text
    for n, first, last in counted:
        assert int(n) == int(last) - int(first), (n, first, last)
    # A summary of one line says nothing more.
    assert not re.search(r"\(\+\d+ lines\) L\d+$", text, re.M)


# -------------------------------------------------------- b. return function


def test_lua_module_returning_a_function_is_a_definition() -> None:
    """busted's runner is `return function(options) ... end`: one definition, not one summary line."""
    _, text = _outline(BUSTED_RUNNER)
    assert "F> return function(options) { ... } L11-197" in text.splitlines()
    assert ".. return function(options)" not in text


def test_lua_returned_function_holds_its_local_functions() -> None:
    outline, text = _outline(BUSTED_CLI)
    lines = text.splitlines()
    assert "F_ return function(options) L7-262" in lines or any(
        line.startswith("F> return function(options)") for line in lines
    ), text
    module = next(s for s in outline.symbols if s.name == "return function")
    names = [c.name for c in module.children]
    assert "makeList" in " ".join(names) and "parse" in " ".join(names), names
    assert " F> local function makeList(values) { ... } L24-26" in lines


# ----------------------------------------------------------------- c. Go imports


def test_go_import_block_reads_as_one_list() -> None:
    _, text = _outline(GO_CONTRIB / "client.go")
    line = next(line for line in text.splitlines() if "import" in line)
    assert line.startswith('.. package main; import ("bufio", "errors", "fmt", "net", '), line
    assert "(;" not in line and "; )" not in line and '";' not in line


def test_go_import_block_too_long_counts_the_imports_left_out() -> None:
    """No Go file here has an import block longer than the line shown; this one is embedded
    (the usual shape of a Go command's imports: standard packages, then module paths)."""
    source = "package main\n\nimport (\n" + "".join(
        f'\t"{name}"\n'
        for name in (
            "bufio", "errors", "fmt", "net", "net/url", "os", "os/exec", "strings", "syscall", "time",
            "golang.org/x/sys/unix", "golang.org/x/term", "github.com/spf13/cobra",
        )
    ) + ")\n\nfunc main() {\n}\n"  # fmt: skip
    path = Path("main.go")
    outline = scan(Source.from_bytes(source.encode()), languages.detect(path, "main"))
    line = blockmarks.render_outline(outline, []).splitlines()[0]
    assert line.startswith('.. package main; import ("bufio", "errors", '), line
    shown = re.findall(r'"[^"]+"', line)
    left = int(re.search(r" … \(\+(\d+) more\) L1-17$", line)[1])  # type: ignore[index]
    assert len(shown) + left == 13, line


# ---------------------------------------------------------- d. cut at a name


def test_long_multi_name_declaration_is_cut_at_a_name_and_counted() -> None:
    """pl/class.lua: `local error, getmetatable, io, pairs, rawget, rawset, setmetatable, tostring, type =`."""
    _, text = _outline(PL_CLASS)
    line = next(line for line in text.splitlines() if line.startswith("local error,"))
    assert line.startswith("local error, getmetatable, io, pairs, rawget (+4 names)"), line
    # The names left out are counted, not listed again one by one after a cut.
    assert "setme…" not in line and "; setmetatable;" not in line


def test_long_lines_are_never_cut_mid_name() -> None:
    """Every `…` in an outline follows a whole name of the source line it stands for."""
    for path in (PL_CLASS, PL_LIST):
        _, text = _outline(path)
        source = path.read_text(encoding="utf-8")
        words = set(re.findall(r"[\w.$]+", source))
        for line in text.splitlines():
            for head in re.findall(r"([\w.$]+)…", line):
                assert head in words, (head, line)
        assert "setmetatable,ge…" not in text


# ------------------------------------------------- e. nothing is cut silently


def test_definitions_left_out_are_counted_with_how_to_see_them() -> None:
    """rxjs's Subject.js: `var Subject = (function (_super) { ... })` holds 18 methods."""
    outline, text = _outline(RXJS_SUBJECT)
    total = sum(1 for _ in walk_all(outline.symbols))
    last = text.splitlines()[-1]
    match = re.match(r"\.\. \+(\d+) nested definitions not listed .*mode=symbols .*expand_at .*depth=N", last)
    assert match, last
    hidden = int(match[1])
    assert 0 < hidden < total
    # The count is exact: listed lines/members plus the footer's number make every symbol.
    assert hidden == 18, last


def test_no_footer_when_everything_is_listed() -> None:
    _, text = _outline(BUSTED_CLI)
    assert "not listed" not in text


def test_lua_locals_aliasing_setmetatable_are_definitions() -> None:
    """pl/List.lua: `local setmetatable, getmetatable,type,tostring,string = setmetatable,…`
    declares five names (only a `setmetatable(...)` call is an object, `require(...)` an import)."""
    outline, text = _outline(PL_LIST)
    names = {s.name for s in outline.symbols if s.range.start.line == 21}
    assert names == {"setmetatable", "getmetatable", "type", "tostring", "string"}, names
    assert "local setmetatable, getmetatable,type,tostring,string = …" in text
    assert ".. local tablex = require 'pl.tablex' L23" in text.splitlines()


def test_a_block_signature_the_grammar_misreads_is_cut_not_the_whole_block() -> None:
    # LLVM's SuffixTree.h (C++ in a `.h`, read as C) gave one "signature" of 2,398
    # characters: the whole struct, comments and all. A long header is cut with `…`.
    params = ", ".join(f"parameter_number_{i}: int = {i}" for i in range(40))
    outline = scan(f"def many({params}):\n    return 1\n", languages.by_name("python"))
    (sym,) = outline.symbols
    assert sym.signature.startswith("def many(parameter_number_0: int = 0, ")
    assert sym.signature.endswith("…") and len(sym.signature) <= 400
    line = blockmarks.render_outline(outline, [])
    assert line.startswith("F> def many(") and line.endswith("{ ... } L1-2")


# ------------------------------------------------- f. code between imports


def _render(text: str, filetype: str) -> list[str]:
    outline = scan(Source.from_bytes(text.encode()), languages.by_name(filetype))  # type: ignore[arg-type]
    return blockmarks.render_outline(outline, []).splitlines()


def test_a_line_of_code_between_imports_joins_their_line() -> None:
    # dbm/__init__.py and distutils/archive_util.py of the standard library.
    lines = _render(
        "import os\nimport sys\n\ntry:\n    import zipfile\nexcept ImportError:\n    zipfile = None\n\n"
        "def f():\n    pass\n",
        "python",
    )
    assert lines[0] == ".. import os; import sys; try: import zipfile; except ImportError: L1-6"
    c = _render("#include <stdlib.h>\n\n\n#ifndef NO_STDIO\n\n\n#include <stdio.h>\n#endif\n\nint f(void);\n", "c")
    assert c[0] == ".. #include <stdlib.h>; #ifndef NO_STDIO; #include <stdio.h>; #endif L1-8"


def test_nothing_joins_a_line_after_its_comment_nor_a_summary_of_several_lines() -> None:
    lines = _render(
        "// tar -t\nimport fs from 'node:fs'\n\n/* Two\n   lines. */\nimport path from 'path'\n\nfunction f() {}\n",
        "javascript",
    )
    assert lines[:4] == [
        ".. // tar -t L1",
        ".. import fs from 'node:fs' L2",
        ".. /* Two (+1 line) L4-5",
        ".. import path from 'path' L6",
    ]
    python = _render(
        "try:\n    import readline  # noqa\nexcept ImportError:\n    pass\n\ndef f():\n    pass\n", "python"
    )
    assert python[0] == ".. try: import readline # noqa L1-2"
    assert python[1] == ".. except ImportError: (+1 line) L3-4"


def test_an_import_continued_by_a_backslash_reads_as_one_statement() -> None:
    # csv.py of the standard library.
    lines = _render(
        "import re\nfrom _csv import Error, writer, reader, \\\n     unregister_dialect, get_dialect\n\n"
        "def f():\n    pass\n",
        "python",
    )
    assert lines[0] == ".. import re; from _csv import Error, writer, reader, unregister_dialect, get_dialect L1-3"


def test_code_an_import_span_takes_in_is_shown_not_hidden() -> None:
    # The standard library's json/decoder.py: `try:` sits between two imports, inside their span.
    decoder = Path(sysconfig.get_paths()["stdlib"]) / "json" / "decoder.py"
    _, text = _outline(decoder)
    line = next(row for row in text.splitlines() if "from json import scanner" in row)
    assert "from json import scanner; try: from _json import scanstring as c_scanstring; except ImportError:" in line
