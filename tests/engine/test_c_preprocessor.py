"""C preprocessor structure the grammar cannot read (issue 13, item 4): X-macro enum lists,
an `#include` inside an enum, braces cut across `#ifdef` groups, and branches the compiler skips.

tree-sitter has no preprocessor, and the text is not rewritten for one: the query reads the
grammar's recovery (`languages/c.scm`), and the names only a rewrite found are said where
they are left out.
"""

from __future__ import annotations

from simple_brief import languages
from simple_brief.model import Symbol
from simple_brief.scan.treesitter import scan

C = languages.by_name("c")


def _names(symbols: list[Symbol]) -> set[str]:
    found: set[str] = set()
    for sym in symbols:
        found.add(sym.name)
        found |= _names(sym.children)
    return found


def test_an_include_inside_an_enums_list() -> None:
    # an X-macro list: the enumerators come from another file, `NAME=CODE,` each
    text = (
        "#define __define_stab(NAME, CODE, STRING) NAME=CODE,\n\n"
        "enum __stab_debug_code\n{\n#include <bits/stab.def>\nLAST_UNUSED_STAB_CODE\n};\n\n"
        'enum more\n{\n  FIRST,\n#include "more.def"\n  LAST\n};\n'
    )
    assert C is not None
    # (`LAST`, after an `#include` inside the second enum, is lost without a rewrite)
    assert {"__stab_debug_code", "LAST_UNUSED_STAB_CODE", "FIRST"} <= _names(scan(text, C).symbols)


XMACRO_LIST = """\
#ifndef CODES_H
#define MAKE_ENUM_LIST
#endif

#ifdef MAKE_ENUM_LIST

typedef enum {

#define MESSAGE(code, string)  code,

#endif /* MAKE_ENUM_LIST */

MESSAGE(MSG_NOMESSAGE, "Bogus message code %d") /* Must be first entry! */
#if LIB_VERSION < 70
MESSAGE(ERR_NOT_IMPL, "Sorry, arithmetic coding is not implemented")
#endif
MESSAGE(ERR_BAD_SAMPLING,
        "Component index %d: mismatching ratio %d:%d, (%c)")
MESSAGE(ERR_TEXT, "Bogus {brace} text")

#ifdef MAKE_ENUM_LIST

  MSG_LASTMSGCODE
} MESSAGE_CODE;

#undef MAKE_ENUM_LIST
#endif /* MAKE_ENUM_LIST */

#define STAB(NAME, CODE, STRING) NAME=CODE,
enum stab_code {
STAB(N_GSYM, 0x20, "GSYM")
STAB(N_FNAME, 0x22, "FNAME")
LAST_STAB_CODE
};
"""


def test_an_x_macro_enum_list_cut_across_conditionals() -> None:
    # the enum's brace opens under one `#ifdef` and closes under another; its enumerators are
    # `MESSAGE(code, "text")` invocations of a macro the file defines as `code,`
    assert C is not None
    names = _names(scan(XMACRO_LIST, C).symbols)
    # (the `MESSAGE(code, text)` list's codes are the macro's to name: only the one under `#if` reads)
    assert {"MESSAGE_CODE", "ERR_NOT_IMPL"} <= names
    # (the enum after the list, `STAB(N_GSYM, ...)` its items, is lost in the list's recovery)


DEAD_BRANCH = """\
__BEGIN_DECLS
#ifndef __USE_TIME_BITS64
extern int prctl (int __option, ...) __THROW;
#else
# ifdef __REDIRECT
extern int __REDIRECT_NTH (prctl, (int __option, ...), __prctl_time64);
# else
extern int __prctl_time64 (int __option,d ...) __THROW;
#  define ioctl __prctl_time64
# endif
#endif
#undef HAVE_OLD
#ifdef HAVE_OLD
extern int old_api (int a,, int b);
#endif
#if 0
extern int never (int a b);
#endif
extern void __longjmp_chk (int __val),
     __THROWNL __attribute__ ((__noreturn__));
__END_DECLS
"""


def test_a_typo_in_a_branch_the_compiler_skips() -> None:
    # `# else` after `# ifdef __REDIRECT` is never compiled; its typo (`int __option,d ...`) is no
    # error when its sibling reads well; nor is one under `#if 0` or `#ifdef X` right after `#undef X`
    assert C is not None
    assert {"prctl", "ioctl", "__longjmp_chk"} <= _names(scan(DEAD_BRANCH, C).symbols)


def test_an_enumerator_macro_with_a_value_over_continued_lines() -> None:
    # FreeType: `FT_ENC_TAG( FT_ENCODING_UNICODE, 'u', 'n', 'i', 'c' ),` in an enum, its value built in the macro
    text = (
        "#ifndef FT_ENC_TAG\n#define FT_ENC_TAG( value, a, b, c, d )       \\\n"
        "          value = ( ( (FT_UInt32)(a) << 24 ) | /* high */ \\\n"
        "                      (FT_UInt32)(d) )\n#endif\n\n"
        "  typedef enum  FT_Encoding_\n  {\n    FT_ENC_TAG( FT_ENCODING_NONE, 0, 0, 0, 0 ),\n\n"
        "    FT_ENC_TAG( FT_ENCODING_UNICODE,   'u', 'n', 'i', 'c' ),\n"
        "    FT_ENC_TAG( FT_ENCODING_SJIS, 's', 'j', 'i', 's' )\n  } FT_Encoding;\n"
    )
    assert C is not None
    names = _names(scan(text, C).symbols)
    assert {"FT_Encoding_", "FT_ENCODING_NONE", "FT_ENCODING_UNICODE", "FT_ENCODING_SJIS"} <= names


def test_an_enumerator_macro_that_pastes_its_name() -> None:
    # the kernel's `V4L2_MBUS_FROM_MEDIA_BUS_FMT(FIXED),`: the name is not in the text, the enum still reads
    text = (
        "#define V4L2_MBUS_FROM_MEDIA_BUS_FMT(name)\t\\\n\tV4L2_MBUS_FMT_ ## name = MEDIA_BUS_FMT_ ## name\n\n"
        "enum v4l2_mbus_pixelcode {\n\tV4L2_MBUS_FROM_MEDIA_BUS_FMT(FIXED),\n\n"
        "\tV4L2_MBUS_FROM_MEDIA_BUS_FMT(RGB444_2X8_PADHI_BE),\n\tV4L2_MBUS_FROM_MEDIA_BUS_FMT(RGB444_2X8_PADHI_LE),\n};\n"
        "struct after { int a; };\n"
    )
    assert C is not None
    names = _names(scan(text, C).symbols)
    assert {"v4l2_mbus_pixelcode", "after", "a"} <= names
    assert "FIXED" not in names


def test_a_librarys_own_cplusplus_switch_is_off_in_c() -> None:
    """ICU's `unicode/idna.h`: a C++ class under `#if U_SHOW_CPLUSPLUS_API`, which the
    library sets to 0 for C; gcc accepts the header as C."""
    text = (
        "#include <stdint.h>\n"
        "int32_t uidna_open(int32_t options);\n"
        "#if U_SHOW_CPLUSPLUS_API\n"
        "namespace icu {\n"
        "class IDNA : public UObject {\n"
        "public:\n"
        "    UBool hasErrors() const { return errors!=0; }\n"
        "};\n"
        "}\n"
        "#endif  /* U_SHOW_CPLUSPLUS_API */\n"
        "int32_t uidna_close(int32_t options);\n"
    )
    assert C is not None
    assert {"uidna_open", "uidna_close"} <= _names(scan(text, C).symbols)
