"""C++: C's rules with `ns::Class::method` ids; C's lone macro lines (`_LIBCPP_BEGIN_NAMESPACE_STD`)
are left out of the parse the same way."""

from simple_brief.languages.c import LONE_MACRO
from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "cpp",
    (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".h++", ".c++"),
    "tree_sitter_cpp:language",
    title="C++",
    comment="//",
    checks=("clang-syntax", "gcc-syntax"),
    aliases=("c++",),
    docs=DocRules(separator="::", items="static", doxygen=True, typed_throws=True),
    unparsed_lines=LONE_MACRO,
)
