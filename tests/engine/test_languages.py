"""A language is one unit (issue 12): `languages/<ft>.py` beside `<ft>.scm`, its query
compiles against its grammar (with the queries it inherits), the Lua side lists the same
filetypes, and its docs rules name only what `simple_brief/docs/` implements."""

from __future__ import annotations

import importlib
import re
from importlib import import_module, resources
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.docs import items, modules
from simple_brief.languages import DocRules, QueryInheritanceError, compose_query

FOLDER = Path(languages.__file__).parent
FILETYPES_LUA = Path(__file__).resolve().parents[2] / "lua" / "simple_brief" / "filetypes.lua"
CONFIG_LUA = Path(__file__).resolve().parents[2] / "lua" / "simple_brief" / "config.lua"
UNIT_IDS = [spec.name for spec in languages.LANGUAGES]


@pytest.mark.parametrize("spec", languages.LANGUAGES, ids=UNIT_IDS)
def test_every_language_is_a_unit_with_a_query_that_compiles(spec: languages.LanguageSpec) -> None:
    unit = import_module(f"simple_brief.languages.{spec.name}")
    assert unit.SPEC is spec
    assert (FOLDER / f"{spec.name}.scm").is_file()
    query = languages.outline_query(spec)
    assert query.pattern_count > 0
    assert spec.has_grammar and (spec.extensions or spec.file_names)  # Meson: only `meson.build`, …


def test_the_registry_lists_every_unit_in_the_folder() -> None:
    found = {p.stem for p in FOLDER.glob("*.py") if not p.stem.startswith("_")} - {"spec"}
    assert found == set(languages.UNITS)
    assert all(hasattr(importlib.import_module(f"simple_brief.languages.{unit}"), "SPEC") for unit in found)
    names = [spec.name for spec in languages.LANGUAGES + languages.FALLBACK_LANGUAGES]
    assert len(names) == len(set(names))
    extensions = [ext for spec in languages.LANGUAGES + languages.FALLBACK_LANGUAGES for ext in spec.extensions]
    assert len(extensions) == len(set(extensions)), "an extension belongs to two languages"


def test_every_query_file_is_a_language_or_a_base_one_inherits() -> None:
    inherited: set[str] = set()
    for path in FOLDER.glob("*.scm"):
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        found = re.match(r";+\s*inherits\s*:\s*(.*)", first)
        if found:
            inherited.update(p.strip() for p in found.group(1).split(","))
    stems = {p.stem for p in FOLDER.glob("*.scm")}
    assert stems <= set(languages.UNITS) | inherited
    assert inherited <= stems


def test_the_queries_ship_as_package_data() -> None:
    assert resources.files("simple_brief.languages").joinpath("ecma.scm").is_file()


def test_inheritance_puts_the_parents_first_each_once() -> None:
    files = {"a": "; inherits: b, c\nA", "b": "; inherits: d\nB", "c": "; inherits: d\nC", "d": "D"}
    text = compose_query("a", files.get)
    assert [line for line in text.split("\n") if not line.startswith(";")] == ["D", "B", "C", "A"]
    tsx = languages.query_source(languages.by_name("tsx"))  # type: ignore[arg-type]
    assert tsx.index("(function_declaration") < tsx.index("(interface_declaration")


def test_inheritance_that_loops_or_names_no_query_is_one_clear_error() -> None:
    loop = {"a": "; inherits: b\nA", "b": "; inherits: a\nB"}
    with pytest.raises(QueryInheritanceError) as err:
        compose_query("a", loop.get)
    assert str(err.value) == "the outline queries inherit in a loop (a.scm -> b.scm -> a.scm); remove one `; inherits:`"
    with pytest.raises(QueryInheritanceError) as err:
        compose_query("a", {"a": "; inherits: nowhere\nA"}.get)
    assert str(err.value) == "a.scm inherits nowhere, but there is no nowhere.scm beside it; fix its `; inherits:`"
    with pytest.raises(QueryInheritanceError) as err:
        compose_query("zz", lambda name: None)
    assert str(err.value) == "there is no zz.scm for the language zz; add one beside it"


def test_the_lua_default_filetypes_are_generated_from_the_units() -> None:
    assert FILETYPES_LUA.read_text(encoding="utf-8") == languages.filetypes_lua(), "run `make languages`"
    assert "require('simple_brief.filetypes')" in CONFIG_LUA.read_text(encoding="utf-8")


@pytest.mark.parametrize("spec", languages.LANGUAGES + languages.FALLBACK_LANGUAGES, ids=lambda s: s.name)
def test_a_units_docs_rules_name_what_docs_implements(spec: languages.LanguageSpec) -> None:
    rules = spec.docs
    assert rules.items in items.ITEM_RULES
    assert rules.bases in items.BASES
    assert rules.module_item in items.MODULE_ITEMS
    assert rules.module_id in modules.MODULE_IDS
    assert rules.module_doc in modules.MODULE_DOCS
    assert rules.import_target in modules.IMPORT_TARGETS
    assert not rules.import_target or rules.imports, "an import_target without an imports pattern"
    if rules.imports:
        assert re.compile(rules.imports).groups >= 1
    assert {common for common, _ in rules.kind_words} <= set(items.KIND_WORDS.values())
    assert rules.separator
    assert not (rules.package_file and rules.module_item != "documented")


def test_unknown_names_get_the_default_rules() -> None:
    assert languages.docs_rules("") == languages.docs_rules("cobol") == DocRules()
    assert languages.docs_rules("TSX") is languages.by_name("javascript").docs  # type: ignore[union-attr]


@pytest.mark.parametrize("spec", languages.LANGUAGES, ids=UNIT_IDS)
def test_a_units_file_names_find_it(spec: languages.LanguageSpec) -> None:
    for name in spec.file_names:
        example = name.replace("*", "x").replace("?", "x")
        assert languages.for_path(f"some/dir/{example}") is spec, name
    for ext in spec.extensions:
        assert languages.for_path(f"some/dir/file{ext.upper()}") is spec, ext


def test_the_docs_index_reads_code_and_prose_only() -> None:
    assert languages.documented("pkg/mod.py") and languages.documented("README.md")
    assert not languages.documented("notes.txt")
    data = [spec for spec in languages.LANGUAGES if not spec.docs.indexed]
    for spec in data:
        assert not languages.documented(f"x{spec.extensions[0]}" if spec.extensions else spec.file_names[0])


def test_files_named_rather_than_typed() -> None:
    assert languages.for_path("src/Makefile").name == "make"
    assert languages.for_path("Dockerfile.dev").name == "dockerfile"
    assert languages.for_path("Gemfile").name == "ruby"
    # The ending wins over a name pattern, as in Neovim: cargo-make's file is TOML.
    assert languages.for_path("Makefile.toml").name == "toml"
    assert languages.for_path("Dockerfile.yaml").name == "yaml"


def test_no_query_uses_not_any_of() -> None:
    """py-tree-sitter 0.26 lets every capture through `#not-any-of?`: write `#not-match? @x "^(a|b)$"`."""

    def code(path: Path) -> str:
        return "\n".join(ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.lstrip().startswith(";"))

    users = [p.name for p in FOLDER.glob("*.scm") if "#not-any-of?" in code(p)]
    assert not users


def test_lua_fields_of_someone_elses_table_are_not_definitions() -> None:
    from simple_brief.model import walk_all
    from simple_brief.scan import scan

    text = "local M = {}\nvim.g.x = 1\npackage.path = 'x'\n_G.y = 2\nM.version = '1'\nreturn M\n"
    outline = scan(text, languages.by_name("lua"))  # type: ignore[arg-type]
    assert [s.name for s in walk_all(outline.symbols)] == ["M", "M.version"]
