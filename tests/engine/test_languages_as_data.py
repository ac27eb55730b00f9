"""Languages are data (issue 28): the generic scanner names no language, and no unit
rewrites the text it parses beyond a crash `guard`.

A language's particulars live in its unit (`languages/<name>.py`, a `LanguageSpec`) and
its query (`<name>.scm`); where the grammar misreads valid code, the query reads what the
grammar's recovery does produce. `scan/` asks the spec, never `language.name == "c"`.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.languages import LanguageSpec

SCAN = Path(languages.__file__).resolve().parent.parent / "scan"
#: Every name a language is known by: its filetype, the other filetypes it serves, aliases.
NAMES = frozenset(n for s in languages.LANGUAGES for n in (s.name, *s.filetypes, *s.aliases))


def _string_constants(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    }


@pytest.mark.parametrize("path", sorted(SCAN.glob("*.py")), ids=lambda p: p.name)
def test_the_generic_scanner_names_no_language(path: Path) -> None:
    assert _string_constants(path) & NAMES == set()


def test_the_name_check_sees_a_language_named_in_code(tmp_path: Path) -> None:
    # the check above is not vacuous: a branch on a language's name is found
    module = tmp_path / "branch.py"
    module.write_text('"""Doc naming c."""\nMARKS = {"cpp": b"/"}\n', encoding="utf-8")
    assert _string_constants(module) & NAMES == {"cpp"}


def test_no_unit_declares_a_text_rewrite_but_a_crash_guard() -> None:
    fields = {f.name for f in dataclasses.fields(LanguageSpec)}
    assert "repair" not in fields
    assert "guard" in fields
    guarded = sorted(s.name for s in languages.LANGUAGES if s.guard)
    # each a crash or hang of the grammar's own code, found by test_robustness.py's random text:
    # tree-sitter-bash's SIGSEGV on 4-byte UTF-8 (tree-sitter-bash#337), tree-sitter-perl's
    # endless loop on a last-line comment without a newline, tree-sitter-d's read past its
    # tables from U+30000 up (bash's guard)
    assert guarded == ["d", "perl", "sh"]


#: The registry's own helper modules (none reads or writes a file's text for a grammar).
REGISTRY_HELPERS = {
    "_lists.py": "writes the README's and :help's language lists (`make languages`)",
    "_neovim_parsers.py": "loads Neovim's own parsers as grammars (`neovim:vimdoc`)",
    "_generic_outline.py": "the outline query of a grammar without one of ours: its wheel's tags.scm",
}


def test_no_unit_module_rewrites_text_for_its_grammar() -> None:
    # the per-language rewriting modules are gone: only units (a SPEC each), spec/__init__
    # and the registry's helpers
    folder = Path(languages.__file__).resolve().parent
    helpers = sorted(p.name for p in folder.glob("_*.py") if p.name != "__init__.py")
    assert [h for h in helpers if h not in REGISTRY_HELPERS] == []
