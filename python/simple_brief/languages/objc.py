"""Objective-C: interfaces (also categories), implementations, protocols, their methods
(named by selector, `initWithName:price:`) and properties; C's functions, structs,
enums and macros; Doxygen/HeaderDoc comments above a definition are its doc.

`.m` is Objective-C's here (Neovim tells MATLAB's `.m` files by their text; simple-brief
has no MATLAB grammar). Headers (`.h`) stay C's: an Objective-C header opened in the
editor is read as `objc` when Neovim says so."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "objc",
    (".m",),
    "tree_sitter_language_pack.bindings.objc:language",
    title="Objective-C",
    comment="//",
    block_comment=("/*", "*/"),
    aliases=("objective-c", "objectivec"),
    docs=DocRules(doxygen=True, imports=r"""(?m)^\s*[#@]\s*(?:import|include)\s*[<"]([^>"]+)"""),
    names="simple_brief.languages.objc:selector",
)


def selector(name: str) -> str:
    """A method's selector from its keywords and parameters (`initWithName:(NSString *)n
    price:(int)p` is `initWithName:price:`); a category's name with its closing
    parenthesis (`Shop (Extras)`); other names as they are."""
    if ":" not in name:
        return name + ")" if name.count("(") > name.count(")") else name
    parts = name.split(":")
    return "".join(part.split()[-1].split(")")[-1] + ":" for part in parts[:-1] if part.split())
