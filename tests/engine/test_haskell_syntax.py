"""Haskell the grammar misreads, read through the same-length repair
(`languages/haskell.py` `untab`, `languages/_haskell_syntax.py`): Hugs' `primitive`
declarations and tab-indented layouts. Every snippet is copied from Hugs' libraries
(apt hugs, /usr/lib/hugs), the conformance corpus (bench/README.md)."""

from __future__ import annotations

from simple_brief import languages
from simple_brief.model import Symbol, walk_all
from simple_brief.scan import Outline, scan
from simple_brief.source import Source


def _scan(text: str) -> Outline:
    spec = languages.by_name("haskell")
    assert spec is not None
    return scan(Source.from_bytes(text.encode()), spec)


def _errors(outline: Outline) -> list[str]:
    return [f"{d.range.start.line}: {d.message}" for d in outline.diagnostics if d.code in ("E001", "E002")]


def _symbol(outline: Outline, name: str) -> Symbol:
    return next(s for s in walk_all(outline.symbols) if s.name == name)


#: hugsbase/Hugs/Bits.hs, oldlib/Addr.hs, hugsbase/Hugs/Prelude.hs, hugsbase/Hugs/ST.hs.
PRIMITIVES = (
    "module Hugs.Bits where\n"
    "\n"
    "primitive primAndInt        :: Int -> Int -> Int\n"
    'primitive nullAddr      "nullPtr"         :: Addr\n'
    "primitive primPlusInt,\n"
    "\t  primMinusInt,\n"
    "\t  primMulInt\t   :: Int -> Int -> Int\n"
    'primitive primNewArr   "IONewArr"\n'
    "          :: (a,a) -> Int -> b -> ST s (STArray s a b)\n"
    "\n"
    "instance Eq  Int     where (==)    = primEqInt\n"
)


def test_hugs_primitives_are_declarations_named_by_the_file() -> None:
    outline = _scan(PRIMITIVES)
    assert _errors(outline) == []
    names = [s.name for s in walk_all(outline.symbols)]
    for name in ("primAndInt", "nullAddr", "primPlusInt", "primMinusInt", "primMulInt", "primNewArr"):
        assert name in names, names
    # Where the name is in the file: the repair moves nothing.
    null = _symbol(outline, "nullAddr")
    assert (null.selection_range.start.line, null.selection_range.start.character) == (3, 10)
    minus = _symbol(outline, "primMinusInt")
    assert (minus.selection_range.start.line, minus.selection_range.start.character) == (5, 3)


def test_primitives_rewrite_keeps_every_byte_place() -> None:
    from simple_brief.languages._haskell_syntax import primitives

    data = PRIMITIVES.encode()
    fixed = primitives(data)
    assert len(fixed) == len(data) and fixed.count(b"\n") == data.count(b"\n")
    assert fixed.splitlines()[3] == b";         nullAddr      " + b" " * 9 + b"         :: Addr"
    # Only `primitive` at the start of a line is Hugs' declaration.
    assert primitives(b"f = do\n  primitives <- g\n") == b"f = do\n  primitives <- g\n"


#: base/Control/Applicative.hs: a tab before a name starting like a keyword (`empty`:
#: `else`) was an ERROR.
APPLICATIVE = (
    "-- | A monoid on applicative functors.\n"
    "class Applicative f => Alternative f where\n"
    "\t-- | The identity of '<|>'\n"
    "\tempty :: f a\n"
    "\t-- | An associative binary operation\n"
    "\t(<|>) :: f a -> f a -> f a\n"
    "\n"
    "instance Alternative Maybe where\n"
    "\tempty = Nothing\n"
    "\tNothing <|> p = p\n"
    "\tJust x <|> _ = Just x\n"
)


def test_a_tab_before_a_name_starting_like_a_keyword() -> None:
    outline = _scan(APPLICATIVE)
    assert _errors(outline) == []
    assert [s.name for s in _symbol(outline, "Alternative").children] == ["empty", "(<|>)"]


#: base/Data/Complex.hs: `where k = ...` starts a layout inside a line after tabs, and
#: `mk` lines up with `k` as Haskell counts a tab (to the next multiple of 8).
COMPLEX = (
    "magnitude :: (RealFloat a) => Complex a -> a\n"
    "magnitude (x:+y) =  scaleFloat k\n"
    "\t\t     (sqrt ((scaleFloat mk x)^(2::Int) + (scaleFloat mk y)^(2::Int)))\n"
    "\t\t    where k  = max (exponent x) (exponent y)\n"
    "\t\t          mk = - k\n"
    "\n"
    "phase :: (RealFloat a) => Complex a -> a\n"
    "phase (0 :+ 0)   = 0\n"
)

#: time/Data/Time/Calendar/JulianYearDay.hs: a `where` block indented with tabs whose
#: lines start with `d` (`deriving`) and `y`.
JULIAN = (
    "toJulianYearAndDay :: Day -> (Integer,Int)\n"
    "toJulianYearAndDay (ModifiedJulianDay mjd) = (year,yd) where\n"
    "\ta = mjd + 678577\n"
    "\tquad = div a 1461\n"
    "\td = mod a 1461\n"
    "\ty = min (div d 365) 3\n"
    "\tyd = fromInteger (d - (y * 365) + 1)\n"
    "\tyear = quad * 4 + y + 1\n"
)

#: haskell-src/Language/Haskell/Pretty.hs: a `case` layout started inside a line after a
#: tab, its alternatives and a `where` at its column.
PRETTY = (
    "ppBody :: (PPHsMode -> Int) -> [Doc] -> Doc\n"
    "ppBody f dl = do\n"
    "\t e <- fmap layout getPPEnv\n"
    "\t case e of PPOffsideRule -> indent\n"
    "\t\t   PPSemiColon   -> indentExplicit\n"
    "\t\t   _ -> flatBlock dl\n"
    "\t\t   where\n"
    "\t\t   indent  = do{i <-fmap f getPPEnv;nest i . vcat $ dl}\n"
    "\t\t   indentExplicit = do {i <- fmap f getPPEnv;\n"
    "\t\t\t   nest i . prettyBlock $ dl}\n"
    "\n"
    "mySep :: [Doc] -> Doc\n"
    "mySep = layoutChoice mySep' hsep\n"
)


def test_tab_indented_layouts_read_as_haskell_counts_tabs() -> None:
    cases = ((COMPLEX, {"magnitude", "phase"}), (JULIAN, {"toJulianYearAndDay"}), (PRETTY, {"ppBody", "mySep"}))
    for text, names in cases:
        outline = _scan(text)
        assert _errors(outline) == [], text
        assert names <= {s.name for s in walk_all(outline.symbols)}


def test_relayout_keeps_length_and_lines_and_leaves_what_it_cannot_keep() -> None:
    from simple_brief.languages._haskell_syntax import relayout

    for text in (COMPLEX, JULIAN, PRETTY, APPLICATIVE):
        data = text.encode()
        fixed = relayout(data)
        assert len(fixed) == len(data) and fixed.count(b"\n") == data.count(b"\n")
        # Only whitespace changes, and a first letter the grammar looks ahead from.
        assert all(a == b or {a, b} <= {0x09, 0x20} or b == ord("x") for a, b in zip(data, fixed, strict=True))
    # A layout that spaces cannot keep (`user` at 8 spaces, `inplace` at a tab: one
    # column for Haskell) is left as it is: from Cabal/Distribution/Simple/Register.hs.
    mixed = b"register = do\n    let ghc = 1\n        user = 2\n\tinplace = 3\n\tif user\n\t\tthen a\n\t\telse b\n"
    assert relayout(mixed) == mixed
    assert relayout(b"f = 1\n") == b"f = 1\n"
