"""Haskell: functions by equation run, data/newtype/class/instance, Haddock `-- |`.

`.hsc` (hsc2hs input, Neovim's filetype `haskell` too) is not claimed: its `#{...}`
directives are not Haskell and read as syntax errors.
"""

from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "haskell",
    (".hs", ".hs-boot", ".hsig"),
    "tree_sitter_haskell:language",
    comment="--",
    block_comment=("{-", "-}"),
    aliases=("hs",),
)
