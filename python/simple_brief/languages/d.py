"""D: the module, functions, classes, structs, unions, interfaces, enums, templates and
their members; `///` and `/** */` comments above a definition are its doc (Ddoc).

The grammar's external scanner reads past its tables on characters from U+30000 up
(valgrind: an invalid read in `tree_sitter_d_external_scanner_scan`; a run of such
parses ends in SIGSEGV, found by `tests/engine/test_robustness.py`): the `guard` writes
each 4-byte UTF-8 character as four ASCII letters before every parse, as for bash."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "d",
    (".d",),
    "tree_sitter_language_pack.bindings.d:language",
    comment="//",
    block_comment=("/*", "*/"),
    docs=DocRules(imports=r"(?m)^\s*(?:public\s+|static\s+)*import\s+([\w.]+)"),
    guard="simple_brief.languages.sh:astral_as_letters",
)
