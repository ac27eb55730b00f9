"""Outline cases taken from the conformance corpus (`make conformance`, bench/README.md):
each is a small copy of what a real file does, where the outline missed a definition
universal-ctags lists, and a real file from the corpus when it is installed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from simple_brief import languages
from simple_brief.model import Symbol, walk_all
from simple_brief.scan import Outline, scan
from simple_brief.source import Source


def _scan(language: str, text: str) -> Outline:
    spec = languages.by_name(language)
    assert spec is not None
    return scan(Source.from_bytes(text.encode()), spec)


def _symbols(language: str, text: str) -> list[Symbol]:
    return list(walk_all(_scan(language, text).symbols))


def _names(language: str, text: str) -> list[str]:
    return [s.name for s in _symbols(language, text)]


def _real(path: Path, language: str) -> list[str]:
    if not path.is_file():
        pytest.skip(f"{path} is absent (installed by `make conformance`)")
    spec = languages.by_name(language)
    assert spec is not None
    return [s.name for s in walk_all(scan(Source.from_bytes(path.read_bytes()), spec).symbols)]


# ---------------------------------------------------------------------- lua

LUA_CONSTRUCTOR = """\
local function Channel(namespace)
  local function key(id)
    return namespace .. id
  end
  local sub = {
    options = {},
    update = function(self, options) self.options = options end,
  }
  return {
    stopped = false,
    addSubscriber = function(self, fn) return key(fn) end,
    ["has channel"] = function(self) return true end,
  }
end

local function run(opts)
  vim.api.nvim_create_autocmd("BufEnter", { callback = function() end })
  local count = 0
  return count
end
"""


def test_lua_methods_of_a_table_a_function_builds_are_listed() -> None:
    """mediator.lua's `Channel` returns `{ addSubscriber = function ... }`: its methods are
    definitions (ctags lists them); its data fields, locals and callbacks are not."""
    symbols = {s.name: s for s in _symbols("lua", LUA_CONSTRUCTOR)}
    assert {"Channel", "key", "update", "addSubscriber", "has channel", "run"} <= set(symbols)
    assert not {"options", "stopped", "sub", "count", "callback"} & set(symbols)
    channel = symbols["Channel"]
    assert {c.name for c in channel.children} == {"key", "update", "addSubscriber", "has channel"}


def test_lua_mediator_lists_its_channel_methods() -> None:
    names = _real(Path("/usr/share/lua/5.1/mediator.lua"), "lua")
    assert names.count("getChannel") == 2 and names.count("publish") == 2
    assert "setPriority" in names and "update" in names


# ------------------------------------------------------------------- kotlin

KOTLIN_ANONYMOUS = """\
class Host {
    private var listener = object : Listener {
        override fun onApply(a: Int) {}
    }
    fun attach(props: Map<String, Int>) {
        for ((name, value) in props) { use(name, value) }
        add(object : Callback() {
            override fun onSlide(offset: Float) {}
        })
    }
    companion object {
        fun create() = Host()
    }
}
"""


def _bench() -> tuple[Any, Any]:
    bench = str(Path(__file__).resolve().parents[2] / "bench")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    import conformance
    import ctags

    return conformance, ctags


def test_kotlin_outline_names_the_companion_and_leaves_anonymous_objects_out() -> None:
    names = _names("kotlin", KOTLIN_ANONYMOUS)
    assert names == ["Host", "listener", "attach", "companion object", "create"]


def test_kotlin_harness_reads_companion_and_skips_anonymous_members_and_loop_names() -> None:
    """ctags' `Companion` is our `companion object` (a naming convention, not a miss); the
    methods of an anonymous `object :` and a destructuring loop's names are not definitions."""
    conformance, ctags = _bench()
    assert "Companion" in conformance._aliases("companion object", "kotlin")
    outline = _scan("kotlin", KOTLIN_ANONYMOUS)

    def tag(name: str, line: int) -> Any:
        return ctags.Tag(name, "method", line, pattern=f"/^{KOTLIN_ANONYMOUS.splitlines()[line - 1]}$/")

    assert conformance._anonymous_object_member("kotlin", outline, tag("onApply", 3))
    assert conformance._anonymous_object_member("kotlin", outline, tag("onSlide", 8))
    assert not conformance._anonymous_object_member("kotlin", outline, tag("attach", 5))
    assert not conformance._anonymous_object_member("kotlin", outline, tag("create", 12))
    assert ctags.not_a_definition("kotlin", tag("value", 6))
    assert ctags.not_a_definition("kotlin", tag("name", 6))
    assert not ctags.not_a_definition("kotlin", tag("attach", 5))


# --------------------------------------------------------------------- html


def test_html_serves_neovims_xhtml_filetype_and_extensions() -> None:
    """Neovim reads a page with an XHTML doctype as `xhtml` (conformance: "Neovim detects
    xhtml"): the HTML unit serves it, and `.xhtml`/`.xht` files."""
    assert languages.detect("page.html", "xhtml").name == "html"
    assert "xhtml" in languages.filetypes()
    assert languages.for_path("a/page.xhtml").name == "html"
    assert languages.for_path("a/page.xht").name == "html"


HTML_HEADINGS = """\
<h3><a name="UNDEFINED_DEFAULT_NS">Macro </a>UNDEFINED_DEFAULT_NS</h3>
<h3>Class: <code>AsyncLocalStorage</code><span><a class="mark" href="#c">#</a></span></h3>
<h3>Enum <a name="xsltSecurityOption" id="xsltSecurityOption">xsltSecurityOption</a></h3>
<h1>GCC 12 Release Series<br/>Changes, New Features, and Fixes</h1>
<h2><a class="anchor" href="#x">§</a>Stock &amp; levels</h2>
<h2><a name="empty"></a></h2>
"""


def test_html_heading_is_named_by_its_whole_text() -> None:
    """gtk-doc's `<h3><a name=X>Macro </a>X</h3>` is `Macro X` (as ctags reads it), not
    `Macro`; tags are left out, a `<br>` is a space, a link that is only a mark is left out."""
    headings = [s.name for s in _symbols("html", HTML_HEADINGS) if " " in s.name]
    assert headings == [
        "Macro UNDEFINED_DEFAULT_NS",
        "Class: AsyncLocalStorage",
        "Enum xsltSecurityOption",
        "GCC 12 Release Series Changes, New Features, and Fixes",
        "Stock &amp; levels",
    ]


# ------------------------------------------------------------------ haskell

#: Hugs' Data/Complex.hs and haskell-src's Pretty.hs, indented with tabs as GHC reads them
#: (a tab to the next multiple of 8): the grammar stops at these tabs.
HASKELL_TABS = (
    "module Data.Complex\n"
    "\t(\n"
    "\t-- * Rectangular form\n"
    "\t  Complex((:+))\n"
    "\t, realPart\t-- :: Complex a -> a\n"
    "\t-- * Polar form\n"
    "\t, mkPolar\n"
    "\t) where\n"
    "\n"
    "-- | Varieties of layout.\n"
    "data PPLayout = PPOffsideRule\t-- ^ classical layout\n"
    "\t      | PPNoLayout\t-- ^ everything on a single line\n"
    "\t      deriving Eq\n"
    "\n"
    "realPart :: Complex a -> a\n"
    "realPart (x :+ _) =  x\n"
    "\n"
    "mkPolar :: a -> a -> Complex a\n"
    "mkPolar r theta =\n"
    "\tscale r $\n"
    "\t\tcis theta\n"
)


def test_haskell_definitions_around_the_tabs_the_grammar_stops_at() -> None:
    outline = _scan("haskell", HASKELL_TABS)
    names = [s.name for s in walk_all(outline.symbols)]
    assert {"PPLayout", "realPart", "mkPolar"} <= set(names), names
    # Without a rewrite the tab-indented `deriving Eq` is read apart: the type ends above it.
    layout = next(s for s in walk_all(outline.symbols) if s.name == "PPLayout")
    assert (layout.range.start.line, layout.range.end.line) == (10, 11)


def test_hugs_data_complex_keeps_its_type_and_functions() -> None:
    path = Path("/usr/lib/hugs/packages/base/Data/Complex.hs")
    if not path.is_file():
        pytest.skip(f"{path} is absent (apt hugs, installed by `make conformance`)")
    spec = languages.by_name("haskell")
    assert spec is not None
    outline = scan(Source.from_bytes(path.read_bytes()), spec)
    names = {s.name for s in walk_all(outline.symbols)}
    # (`mkPolar`, below a line the grammar stops at a tab in, is lost without a rewrite)
    assert {"magnitude", "phase", "Complex"} <= names


HASKELL_OPERATORS = """\
empty = ""
($$) a b = a ++ "\\n" ++ b
vcat a = foldr ($$) [] a
g1 `overGraphic` g2 = g2 >> g1
overGraphics = foldr overGraphic empty
aM <> bM = do{a<-aM;b<-bM;return (a P.<> b)}
unlines' xs = vcat xs
"a" `closes` "b" = True
"a" `closes` "c" = True
_ `closes` _ = False
"""


def test_haskell_lists_operators_defined_prefix_and_functions_defined_infix() -> None:
    """HaXml's `($$) a b = ...` then `vcat a = ...`, HGL's ``g1 `overGraphic` g2 = ...``:
    each is a definition, and so is the function after it; HaXml's ``"a" `closes` "b"``
    equations are one function, listed once."""
    names = _names("haskell", HASKELL_OPERATORS)
    assert names == ["empty", "($$)", "vcat", "overGraphic", "overGraphics", "<>", "unlines'", "closes"]


def test_haskell_harness_skips_the_left_operand_ctags_names_an_infix_definition() -> None:
    _, ctags = _bench()
    lines = HASKELL_OPERATORS.splitlines()

    def tag(name: str, line: int) -> Any:
        return ctags.Tag(name, "function", line, pattern=f"/^{lines[line - 1]}$/")

    assert ctags.not_a_definition("haskell", tag("g1", 4))
    assert ctags.not_a_definition("haskell", tag("aM", 6))
    assert not ctags.not_a_definition("haskell", tag("vcat", 3))
    assert not ctags.not_a_definition("haskell", tag("empty", 1))
    assert not ctags.not_a_definition("haskell", ctags.Tag("f", "function", 1, pattern="/^f :: Int$/"))


def test_haskell_hsc2hs_line_pragmas_and_spaced_as_patterns_keep_the_functions() -> None:
    """Hugs' System/Posix/Unistd.hs (hsc2hs output) and HaXml's Escape.hs, which Hugs loads."""
    spec = languages.by_name("haskell")
    assert spec is not None
    text = (
        "module M where\n\n"
        "getInfo :: IO Int\n"
        "getInfo = do\n"
        "  x <- pure 1\n"
        '{-# LINE 82 "Unistd.hsc" #-}\n'
        "  y <- pure 2\n"
        "  return (x + y)\n\n"
        "compress :: [Either String Int] -> [Int]\n"
        "compress ( (ls @ (Left s1)) : es) = compress es\n"
        "compress _ = []\n"
    )
    assert [s.name for s in walk_all(scan(text, spec).symbols)] == ["M", "getInfo", "compress"]


# -------------------------------------------------------------------- ocaml


def test_ocaml_harness_skips_the_keyword_ctags_names_a_private_method() -> None:
    """The OCaml compiler's `method private kill_loads n = ...` (asmcomp/CSEgen.ml): ctags
    tags a method `private`; the method is `kill_loads`, which the outline lists."""
    _, ctags = _bench()
    text = "class c = object\n  method private kill_loads n = n\n  method virtual v : int\nend\n"

    def tag(name: str, line: int) -> Any:
        return ctags.Tag(name, "method", line, pattern=f"/^{text.splitlines()[line - 1]}$/")

    assert ctags.not_a_definition("ocaml", tag("private", 2))
    assert ctags.not_a_definition("ocaml", tag("virtual", 3))
    assert not ctags.not_a_definition("ocaml", tag("kill_loads", 2))
    assert {"kill_loads", "v"} <= set(_names("ocaml", text))
