"""Python: `pkg.mod.Class.method` ids, `_x` private unless `__all__` says, docstrings."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "python",
    (".py", ".pyi", ".pyw"),
    "tree_sitter_python:language",
    comment="#",
    checks=("python-compile",),
    aliases=("py",),
    docs=DocRules(
        items="underscore",
        bases="parentheses",
        module_id="packages",
        private_modules=True,
        module_doc="docstring",
        imports=r"(?m)^\s*(?:from\s+([\w.]+)\s+import\s+([\w, ()]+)|import\s+([\w., ]+))",
        import_target="from_import",
        docstrings=True,
    ),
)
