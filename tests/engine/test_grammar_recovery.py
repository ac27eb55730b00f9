"""Valid code a grammar misreads keeps its outline without any rewrite of the text (issue
28): the query reads what the grammar's recovery produces, and a region the grammar could
not read costs only the definitions inside it. Every snippet is cut from the conformance
corpus (bench/README.md), each accepted by its language's own tool: CSS from
nodejs/api/assets/style.css (PostCSS), HTML from pages under /usr/share/doc (parse5),
Scala 2 from Pygments' lexer examples (scalac 2.11), Zig 0.15 from the ziglang wheel's std
(`zig ast-check`), bash from bash-completion's git file (`bash -n`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.model import walk_all
from simple_brief.scan import scan
from simple_brief.source import Source

#: Real files (each with a header naming where it comes from) whose recovery a snippet cut
#: from them does not reproduce.
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "recovery"


def _names(text: str, language: str) -> list[str]:
    spec = languages.by_name(language)
    assert spec is not None
    return [s.name for s in walk_all(scan(Source.from_bytes(text.encode()), spec).symbols)]


STYLE = (
    ".dark-mode .light-icon {\n"
    "  fill: var(--white);\n"
    "  display: block;\n"
    "}\n"
    "\n"
    ".js-flavor-toggle {\n"
    "  -webkit-appearance: none;\n"
    "  float: right;\n"
    "  background-image: url(./js-flavor-cjs.svg);\n"
    "  background-size: contain;\n"
    "}\n"
    ".js-flavor-toggle:checked {\n"
    "  background-image: url(./js-flavor-esm.svg);\n"
    "}\n"
    ".js-flavor-toggle:not(:checked) ~ .mjs,\n"
    ".js-flavor-toggle:checked ~ .cjs {\n"
    "  display: none;\n"
    "}\n"
)


#: nodejs/api/addons.html and repl.html: a `>` in text (an arrow, a prompt).
ARROWS = (
    "<!DOCTYPE html>\n"
    '<html lang="en">\n'
    "<body>\n"
    '<h2 id="hello-world">Hello world</h2>\n'
    '<pre><code class="language-js"><span class="hljs-variable language_">module</span>.'
    '<span class="hljs-property">exports</span> = <span class="hljs-function">() =></span> '
    '<span class="hljs-string">\'world\'</span>;</code> <button class="copy-button">copy</button></pre>\n'
    "<ul>\n"
    "<li><code>.save</code>: Save the current REPL session to a file:\n"
    "<code>> .save ./file/to/save.js</code></li>\n"
    "</ul>\n"
    '<h3 id="commands-and-special-keys">Commands and special keys</h3>\n'
    "</body>\n"
    "</html>\n"
)


#: hugs/server.html: no doctype, no `<html>`, a `<body>` never closed; the last `<p>` is
#: open at the end of the file.
UNCLOSED_BODY = (
    "\n"
    "<title> The Hugs  </title>\n"
    '<body bgcolor="#ffffff">\n'
    '<h2>Using Hugs as a "Haskell Server"</h2>\n'
    "<font size=4> <blockquote>\n"
    "Alastair Reid<br>\n"
    "</blockquote></font>\n"
    '<a name="introduction"></a><p>\n'
    "<h2>Introduction</h2>\n"
    "instance&nbsp;(Typeable&nbsp;a)&nbsp;where<br>\n"
    "<p>\n"
    "</tt>\n"
)


#: libxslt1-dev/html/API.html: XHTML's XML prolog.
PROLOG = (
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n'
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
    '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n'
    '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>The programming API</title></head>'
    '<body bgcolor="#8b7765"><h1 align="center">The programming API</h1></body></html>\n'
)


#: symbols.scala (lines 1-9, 13-14), inside an object so there is something to outline.
SYMBOLS = """object Symbols {
  // Symbols:
  '* //test
  'symbol_*
  'symbol1 //'
  'ξφδ
  '***
  val tagged = Map('a -> 1, 'b -> 2)
  val c = 'x'
  val nl = '\\n'
  def name(s: Symbol): String = s.name
}
"""


#: soft-keywords.scala, inside an object.
SOFT_KEYWORDS = """object Soft {
  val open = true
  val inline = true
  inline xval
  val x = inline + 2
  inline def twice(n: Int): Int = n * 2
  (using)
}
"""


SYSCALL = """pub fn syscall0(number: usize) usize {
    return asm volatile ("int $0x80"
        : [ret] "={eax}" (-> usize),
        : [number] "{eax}" (number),
        : .{ .memory = true });
}
"""

ASYNC_NAMES = """pub const VTable = struct {
    async: *const fn () void,
    await: *const fn () void,
};

pub fn async(x: u8) u8 {
    return x;
}

pub fn io() VTable {
    return .{ .async = async, .await = await };
}
"""

ERROR_SET_FIELD = """const Worker = struct {
    spawn_error: error{ConcurrencyUnavailable},
    count: usize = 0,
};

test "tuple" {
    _ = struct { error{foo} };
}
"""


SCRIPT = """__git_main () {
\techo main
}

if [[ -n ${ZSH_VERSION-} ]]; then
\tunset ${(M)${(k)parameters[@]}:#__gitcomp_builtin_*} 2>/dev/null
else
\tunset $(compgen -v __gitcomp_builtin_)
fi

__git_after () {
\techo after
}
"""


def test_css_rules_around_an_unquoted_url() -> None:
    names = _names(STYLE, "css")
    assert {".dark-mode .light-icon", ".js-flavor-toggle", ".js-flavor-toggle:checked"} <= set(names), names


def test_html_headings_after_a_greater_than_sign_in_text() -> None:
    assert {"Hello world", "Commands and special keys"} <= set(_names(ARROWS, "html"))


@pytest.mark.parametrize(("text", "heading"), [(UNCLOSED_BODY, "Introduction"), (PROLOG, "The programming API")])
def test_html_headings_in_an_unclosed_body_and_after_an_xml_prolog(text: str, heading: str) -> None:
    assert heading in _names(text, "html")


def test_scala2_symbol_literals() -> None:
    assert _names(SYMBOLS, "scala") == ["Symbols", "tagged", "c", "nl", "name"]


def test_scala_soft_modifier_used_as_a_name() -> None:
    assert _names(SOFT_KEYWORDS, "scala") == ["Soft", "open", "inline", "x", "twice"]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (SYSCALL, ["syscall0"]),
        (ASYNC_NAMES, ["VTable", "async", "await", "async", "io"]),
        # the inline error sets' members are listed too: they are members of an error set
        (ERROR_SET_FIELD, ["Worker", "spawn_error", "ConcurrencyUnavailable", "count", 'test "tuple"', "_", "foo"]),
    ],
    ids=["asm-clobbers", "async", "error-set"],
)
def test_zig_newer_than_the_grammar(text: str, names: list[str]) -> None:
    assert _names(text, "zig") == names


def test_bash_functions_around_a_zsh_branch() -> None:
    assert _names(SCRIPT, "sh") == ["__git_main", "__git_after"]


#: Data/Typeable.hs of Hugs' libraries (/usr/lib/hugs, its export list: tabs inside lines,
#: which tree-sitter-haskell 0.24 does not take as whitespace), then declarations as the
#: same file writes them: the grammar reads all after the export list as loose tokens.
TYPEABLE_HEAD = (
    "\nmodule Data.Typeable\n  (\n\n\t-- * The Typeable class\n\tTypeable( typeOf ),\t-- :: a -> TypeRep\n\n"
    "\t-- * Type-safe cast\n\tcast,\t\t\t-- :: (Typeable a, Typeable b) => a -> Maybe b\n"
    "\tgcast,\t\t\t-- a generalisation of cast\n\n\t-- * Type representations\n  ) where\n\n"
    "import Data.Maybe\n\nappKeys :: Key -> [Key] -> Key\nappKeys k ks = foldl appKey k ks\n\ndata T = A | B\n"
)


def test_haskell_signatures_and_types_in_a_region_the_grammar_could_not_read() -> None:
    assert _names(TYPEABLE_HEAD, "haskell") == ["Data.Typeable", "appKeys", "T"]


def test_cs_members_after_an_if_inside_a_parameter_list() -> None:
    # pythonnet's src/runtime/Finalizer.cs (corpus 2), whole: `#if` inside a parameter
    # list turns the namespace, the class and the methods after it into one ERROR.
    real = FIXTURES / "Finalizer.cs"
    names = _names(real.read_text(), "cs")
    for name in ("Python.Runtime", "Finalizer", "AddFinalizedObject", "DisposeAll", "ValidateRefCount"):
        assert name in names
    later = {"AddDerivedFinalizedObject", "AddFinalizedBuffer", "Initialize", "HandleFinalizationException"}
    assert later <= set(names)


#: PostgreSQL 15's pageinspect--1.7--1.8.sql (apt postgresql-15; corpus 2).
BT_METAP_SQL = """DROP FUNCTION bt_metap(text);
CREATE FUNCTION bt_metap(IN relname text,
    OUT magic int4,
    OUT version int4,
    OUT root int8,
    OUT level int8,
    OUT fastroot int8,
    OUT fastlevel int8,
    OUT oldest_xact xid,
    OUT last_cleanup_num_tuples float8,
    OUT allequalimage boolean)
AS 'MODULE_PATHNAME', 'bt_metap'
LANGUAGE C STRICT PARALLEL SAFE;
"""


def test_sql_a_function_the_grammar_could_not_read_is_listed_by_its_name() -> None:
    assert _names(BT_METAP_SQL, "sql") == ["bt_metap"]


def test_verilog_modules_of_a_file_the_grammar_reads_as_one_error() -> None:
    # yosys' nexus/cells_sim.v (apt yosys), its first 115 lines: the grammar reads the
    # file as one ERROR from an escaped identifier (`module \$__ABC9_LUT5`) on.
    real = FIXTURES / "nexus_cells_sim.v"
    names = _names(real.read_text(), "verilog")
    assert {"LUT4", "WIDEFN9", "FD1P3BX"} <= set(names)


#: npm react-native's React/Views/RCTScrollViewManager.m: a macro at an
#: `@implementation`'s top.
RCT_CONVERT_M = """@implementation RCTConvert (UIScrollView)

RCT_ENUM_CONVERTER(
    UIScrollViewKeyboardDismissMode,
    (@{
      @"none" : @(UIScrollViewKeyboardDismissModeNone),
      @"on-drag" : @(UIScrollViewKeyboardDismissModeOnDrag),
    }),
    UIScrollViewKeyboardDismissModeNone,
    integerValue)

@end
"""


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (RCT_CONVERT_M, "RCTConvert (UIScrollView)"),
        # the whole file: from its first macro on, the grammar reads it as one ERROR
        ((FIXTURES / "RCTDebuggingOverlayManager.m").read_text(), "RCTDebuggingOverlayManager"),
    ],
)
def test_objc_an_implementation_the_grammar_could_not_read(text: str, name: str) -> None:
    names = _names(text, "objc")
    assert names[0] == name and names.count(name) == 1 and "RCTConvert" not in names


#: fortls' test sources (its PyPI sdist): a keyword split by `&` continuations
#: (hover/multiline_lexical_tokens.f90): valid free-form Fortran, a test of its hover.
SPLIT_KEYWORD_F90 = """program multiline_lexical_token
implicit none
inte&
    &ger &
    :: i
RE&
&AL(int(sin(0.5))&
 &+8+len("ab)&
    &)c")-3) :: Z
end program
"""


def test_fortran_a_program_the_grammar_could_not_read_is_listed_by_its_header() -> None:
    assert _names(SPLIT_KEYWORD_F90, "fortran")[:1] == ["multiline_lexical_token"]


#: go-ini's testdata/full.ini (apt golang-gopkg-ini.v1-dev): a comment after a section.
COMMENTED_SECTION_INI = """[note]
empty_lines = next line is empty

; Comment before the section
[comments] ; This is a comment for the section too
; Comment before key
key  = "value"

[string escapes] ; (not go-ini's: a name with a space, and a comment)
key1 = value1, value2, value3
"""


def test_ini_a_section_with_a_comment_after_it() -> None:
    names = _names(COMMENTED_SECTION_INI, "dosini")
    assert names == ["note", "empty_lines", "comments", "key", "string escapes", "key1"]


#: Language/Haskell/Pretty.hs of Hugs' libraries (/usr/lib/hugs): a record and functions
#: indented with tabs inside lines, which tree-sitter-haskell does not take as whitespace.
PRETTY_RECORD = (
    "module Pretty where\n"
    "\n"
    "type Indent = Int\n"
    "\n"
    "-- | Pretty-printing parameters.\n"
    "--\n"
    "-- /Note:/ the 'onsideIndent' must be positive and less than all other indents.\n"
    "data PPHsMode = PPHsMode {\n"
    "\t\t\t\t-- | indentation of a class or instance\n"
    "\t\tclassIndent :: Indent,\n"
    "\t\t\t\t-- | indentation of a @do@-expression\n"
    "\t\tdoIndent :: Indent,\n"
    "\t\t\t\t-- | indentation of the body of a\n"
    "\t\t\t\t-- @case@ expression\n"
    "\t\tcaseIndent :: Indent,\n"
    "\t\t\t\t-- | indentation of the declarations in a\n"
    "\t\t\t\t-- @let@ expression\n"
    "\t\tletIndent :: Indent,\n"
    "\t\t\t\t-- | indentation of the declarations in a\n"
    "\t\t\t\t-- @where@ clause\n"
    "\t\twhereIndent :: Indent,\n"
    "\t\t\t\t-- | indentation added for continuation\n"
    "\t\t\t\t-- lines that would otherwise be offside\n"
    "\t\tonsideIndent :: Indent,\n"
    "\t\t\t\t-- | blank lines between statements?\n"
    "\t\tspacing :: Bool,\n"
    "\t\t\t\t-- | Pretty-printing style to use\n"
    "\t\tlayout :: PPLayout,\n"
    "\t\t\t\t-- | add GHC-style @LINE@ pragmas to output?\n"
    "\t\tlinePragmas :: Bool,\n"
    "\t\t\t\t-- | not implemented yet\n"
    "\t\tcomments :: Bool\n"
    "\t\t}\n"
    "\n"
    "ppHsName :: HsName -> Doc\n"
    "ppHsName (HsIdent s)  = text s\n"
    "ppHsName (HsSymbol s) = text s\n"
    "\n"
    "instance Pretty HsCName where\n"
    "\tpretty (HsVarName n) = pretty n\n"
    "\tpretty (HsConName n) = pretty n\n"
    "\n"
    "isSymbolName :: HsName -> Bool\n"
    "isSymbolName (HsSymbol _) = True\n"
    "isSymbolName _ = False\n"
    "\n"
    "getName :: HsQName -> HsName\n"
    "getName (UnQual s) = s\n"
    "getName (Qual _ s) = s\n"
    'getName (Special HsCons) = HsSymbol ":"\n'
    'getName (Special HsFunCon) = HsSymbol "->"\n'
    "getName (Special s) = HsIdent (specialName s)\n"
)


def test_haskell_a_record_and_signatures_indented_with_tabs() -> None:
    names = _names(PRETTY_RECORD, "haskell")
    fields = ["classIndent", "doIndent", "caseIndent", "letIndent", "whereIndent", "onsideIndent", "spacing"]
    assert names[names.index("PPHsMode") + 1 :][:7] == fields
    assert {"ppHsName", "isSymbolName", "getName"} <= set(names)


#: Data/Complex.hs of Hugs' libraries: a signature and an equation with tabs inside their
#: lines; the grammar reads the equation as a top-level splice expression.
COMPLEX_POLAR = (
    "module M where\n\nconjugate\t :: Int -> Int\nconjugate x =  x\n\n"
    "{-# SPECIALISE mkPolar :: Double -> Double #-}\nmkPolar\t\t :: Double -> Double\n"
    "mkPolar r theta\t =  r * theta\n\ncis :: Int\ncis = 1\n"
)

#: Language/Haskell/Pretty.hs of Hugs' haskell-src: a `where` indented with tabs, after which
#: the grammar reads `layoutChoice :: ...` as an expression's type signature in an ERROR,
#: and `markLine :: ...`, after a comment, as the last operand of the expression before.
PRETTY_LAYOUT = (
    "module M where\n\nmyFsep :: [Doc] -> Doc\nmyFsep = layoutChoice fsep' hsep\n"
    "\twhere\tfsep' [] = empty\n\t\tfsep' (d:ds) = do\n\t\t\te <- getPPEnv\n"
    "\t\t\tlet n = onsideIndent e\n\t\t\tnest n (fsep (nest (-n) d:ds))\n\n"
    "layoutChoice :: (a -> Doc) -> (a -> Doc) -> a -> Doc\n"
    "layoutChoice a b dl = do e <- getPPEnv\n                         if layout e == PPOffsideRule ||\n"
    "                            layout e == PPSemiColon\n                          then a dl else b dl\n"
    "\n"
    "-- Prefix something with a LINE pragma, if requested.\n"
    "-- GHC's LINE pragma actually sets the current line number to n-1, so\n"
    "-- that the following line is line n.  But if there's no newline before\n"
    "-- the line we're talking about, we need to compensate by adding 1.\n"
    "\n"
    "markLine :: SrcLoc -> Doc -> Doc\n"
    "markLine loc doc = do\n"
    "\te <- getPPEnv\n"
    "\tlet y = srcLine loc\n"
    "\tlet line l =\n"
    '\t      text ("{-# LINE " ++ show l ++ " \\"" ++ srcFilename loc ++ "\\" #-}")\n'
)


#: Foreign/C/Error.hs of Hugs' libraries (lines 1070-1104): after a `do` indented with tabs,
#: a signature over several lines indented with tabs is one ERROR that opens with the
#: function's name; its equation follows.
ERROR_SIGNED = "module M where\n\n" + (
    "throwErrnoIfRetry            :: (a -> Bool) -> String -> IO a -> IO a\n"
    "throwErrnoIfRetry pred loc f  = \n"
    "  do\n"
    "    res <- f\n"
    "    if pred res\n"
    "      then do\n"
    "\terr <- getErrno\n"
    "\tif err == eINTR\n"
    "\t  then throwErrnoIfRetry pred loc f\n"
    "\t  else throwErrno loc\n"
    "      else return res\n"
    "\n"
    "-- | as 'throwErrnoIfRetry', but checks for operations that would block and\n"
    "-- executes an alternative action before retrying in that case.\n"
    "--\n"
    "throwErrnoIfRetryMayBlock\n"
    "\t\t:: (a -> Bool)\t-- ^ predicate to apply to the result value\n"
    "\t\t\t\t-- of the 'IO' operation\n"
    "\t\t-> String\t-- ^ textual description of the location\n"
    "\t\t-> IO a\t\t-- ^ the 'IO' operation to be executed\n"
    "\t\t-> IO b\t\t-- ^ action to execute before retrying if\n"
    "\t\t\t\t-- an immediate retry would block\n"
    "\t\t-> IO a\n"
    "throwErrnoIfRetryMayBlock pred loc f on_block  = \n"
    "  do\n"
    "    res <- f\n"
    "    if pred res\n"
    "      then do\n"
    "\terr <- getErrno\n"
    "\tif err == eINTR\n"
    "\t  then throwErrnoIfRetryMayBlock pred loc f on_block\n"
    "          else if err == eWOULDBLOCK || err == eAGAIN\n"
    "\t         then do on_block; throwErrnoIfRetryMayBlock pred loc f on_block\n"
    "                 else throwErrno loc\n"
    "      else return res\n"
)


def test_haskell_a_function_whose_equation_or_signature_the_grammar_misread() -> None:
    assert _names(COMPLEX_POLAR, "haskell") == ["M", "conjugate", "mkPolar", "cis"]
    assert _names(PRETTY_LAYOUT, "haskell") == ["M", "myFsep", "layoutChoice", "markLine"]
    assert _names(ERROR_SIGNED, "haskell") == ["M", "throwErrnoIfRetry", "throwErrnoIfRetryMayBlock"]


#: bash-completion's pygmentize completion: a backquoted `sed s/:$//` the grammar cannot
#: read makes the whole file one ERROR, where the function's head is left as loose tokens.
BACKQUOTED_SED = (
    "#\n# completion\n#\n\n_styles()\n{\n    local cur\n"
    "    STYLES=`pygmentize -L styles | grep '* ' | cut -c3- | sed s/:$//`\n"
    "    COMPREPLY=( $( compgen -W '$STYLES' -- \"$cur\" ) )\n}\ncomplete -F _styles pygmentize\n"
)


def test_sh_a_function_head_left_in_a_region_the_grammar_could_not_read() -> None:
    assert _names(BACKQUOTED_SED, "sh") == ["_styles"]
