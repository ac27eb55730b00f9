"""PHP: namespaces, classes, interfaces, traits, enums, functions, members; PHPDoc above a definition."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "php",
    (".php", ".phtml", ".php3", ".php4", ".php5", ".php7", ".php8", ".ctp"),
    "tree_sitter_php:language_php",
    title="PHP",
    comment="//",
    block_comment=("/*", "*/"),
    checks=("php-l",),
    docs=DocRules(
        imports=r"(?m)^\s*use\s+(?:function\s+|const\s+)?\\?([\w\\]+)",
        typed_throws=True,
    ),
)
