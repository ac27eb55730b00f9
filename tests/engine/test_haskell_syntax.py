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
    return [f"{d.range.start.line}: {d.message}" for d in outline.diagnostics if d.code == "H003"]


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
    assert relayout(b"f = 1\n") == b"f = 1\n"


#: Cabal's Distribution/Simple/Register.hs: `\t\telse return []` closes the `else do`
#: block (column 26) inside `config_flags <-` (column 8), and the grammar closes no
#: layout at a line starting with a tab: no same-length re-indent reads it.
REGISTER = (
    b"register :: PackageDescription -> LocalBuildInfo -> RegisterFlags -> IO ()\n"
    b"register pkg_descr lbi regFlags = do\n"
    b"    case compilerFlavor (compiler lbi) of\n"
    b"      GHC -> do \n"
    b"\tconfig_flags <-\n"
    b"\t   if user\n"
    b"\t\tthen if ghc_63_plus\n"
    b'\t\t\tthen return ["--user"]\n'
    b"\t\t\telse do \n"
    b"\t\t\t  GHC.maybeCreateLocalPackageConfig\n"
    b"\t\t          localConf <- GHC.localPackageConfig\n"
    b'\t\t\t  return ["--config-file=" ++ localConf]\n'
    b"\t\telse return []\n"
    b"\treturn config_flags\n"
)

#: base/Foreign/C/Error.hs: an `if` in a `do` block indented with a tab, its `then` and
#: `else` below it after a tab: the grammar stops at a tab before a keyword.
ERRNO = (
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
    "throwErrnoIfRetry_ :: (a -> Bool) -> String -> IO a -> IO ()\n"
    "throwErrnoIfRetry_ pred loc f  = void $ throwErrnoIfRetry pred loc f\n"
)

#: haskell-src/Language/Haskell/Pretty.hs: `where` then a tab then the layout's first
#: item (column 16 for Haskell, 7 or 14 for the grammar, which counts that tab as one),
#: the next item after two tabs (16).
FSEP = (
    "myFsep :: [Doc] -> Doc\n"
    "myFsep = layoutChoice fsep' hsep\n"
    "\twhere\tfsep' [] = empty\n"
    "\t\tfsep' (d:ds) = do\n"
    "\t\t\te <- getPPEnv\n"
    "\t\t\tlet n = onsideIndent e\n"
    "\t\t\tnest n (fsep (nest (-n) d:ds))\n"
    "\n"
    "layoutChoice :: (a -> Doc) -> (a -> Doc) -> a -> Doc\n"
    "layoutChoice a b dl = do e <- getPPEnv\n"
    "                         if layout e == PPOffsideRule then a dl else b dl\n"
)


def test_a_tab_indented_if_reads_with_its_keywords_as_names() -> None:
    outline = _scan(ERRNO)
    assert _errors(outline) == []
    retry = _symbol(outline, "throwErrnoIfRetry")
    assert (retry.range.start.line, retry.range.end.line) == (1, 10)
    assert "throwErrnoIfRetry_" in {s.name for s in walk_all(outline.symbols)}
    # Only that `if`'s keywords: the one at spaces stays a keyword.
    from simple_brief.languages._haskell_syntax import relayout

    fixed = relayout(ERRNO.encode()).decode().splitlines()
    assert [fixed[i].strip().split()[0] for i in (4, 5, 7, 8, 9, 10)] == ["if", "then", "xf", "xhen", "xlse", "else"]


def test_a_layout_opened_after_a_mid_line_tab() -> None:
    outline = _scan(FSEP)
    assert _errors(outline) == []
    fsep = _symbol(outline, "myFsep")
    assert (fsep.range.start.line, fsep.range.end.line) == (1, 6)
    assert "layoutChoice" in {s.name for s in walk_all(outline.symbols)}


def test_a_real_error_beside_a_repaired_declaration_is_still_reported() -> None:
    # The same declarations, then one with a real error (a `then` without its `if`).
    broken = "\nbroken x = x then 1\n"
    for text in (ERRNO, FSEP):
        errors = _errors(_scan(text + broken))
        assert errors and all(e.startswith(f"{text.count(chr(10)) + 1}:") for e in errors), errors


def test_a_declaration_no_re_indent_reads_is_not_judged() -> None:
    from simple_brief.languages._haskell_syntax import relayout

    text = REGISTER.decode() + "\nunregister :: PackageDescription -> IO ()\nunregister _ = return ()\n"
    outline = _scan(text)
    assert _errors(outline) == []
    register = _symbol(outline, "register")
    assert (register.range.start.line, register.range.end.line) == (1, 13)
    assert "unregister" in {s.name for s in walk_all(outline.symbols)}
    # The right-hand side of `register` reads as one string, its lines joined by gaps.
    fixed = relayout(REGISTER).split(b"\n")
    assert fixed[1] == b'register pkg_descr lbi regFlags = "\\'
    assert fixed[13].endswith(b'config_flag"')
    assert len(relayout(REGISTER)) == len(REGISTER)
    # A real error in the next declaration is still reported.
    broken = REGISTER.decode() + "\nbroken x = x then 1\n"
    assert [e.split(":")[0] for e in _errors(_scan(broken))] == ["15"]
