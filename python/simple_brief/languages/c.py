"""C: `dir/file.name` ids, file-level `static` is private, Doxygen.

Macros tree-sitter cannot expand are read in the query (`c.scm`, `c_family.scm`): the
grammar's recovery around `PyAPI_FUNC(int) f(void);`, `extern int f (void) __THROW;` or
`OF((args))` still holds the declarators the outline names. A lone macro on a line of its
own at the margin (`__BEGIN_DECLS`, `G_END_DECLS`), which the grammar would read as the
type of the declaration below it, is left out of the parse (`unparsed_lines`); the last
enumerator of a list (a `}` below it) and a macro body's continued line are not."""

from simple_brief.languages.spec import DocRules, LanguageSpec

#: A line holding only an upper-case name with an underscore, at the margin: an
#: unexpanded macro standing for a statement (C and C++ share it).
#: `^` comes first: off a line's start it fails before the lookbehind is tried (twice as fast).
LONE_MACRO = r"^(?<!\\\n)[A-Z_][A-Z0-9_]*_[A-Z0-9_]*[ \t]*\r?$(?!\n(?:[ \t]*\r?\n)*[ \t]*\})"

SPEC = LanguageSpec(
    "c",
    (".c", ".h"),
    "tree_sitter_c:language",
    comment="//",
    checks=("clang-syntax", "gcc-syntax"),
    docs=DocRules(items="static", doxygen=True, typed_throws=True),
    unparsed_lines=LONE_MACRO,
)
