"""R: functions assigned with `<-`, `=`, `<<-` or `->`; S4 classes, generics and methods."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "r",
    (".r",),
    "tree_sitter_language_pack.bindings.r:language",
    comment="#",
    file_names=(".Rprofile", "Rprofile"),
    docs=DocRules(imports=r"""(?m)^\s*(?:library|require|requireNamespace)\s*\(\s*['"]?([\w.]+)"""),
)
