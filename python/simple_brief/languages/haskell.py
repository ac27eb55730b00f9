"""Haskell: functions by equation run, data/newtype/class/instance, Haddock `-- |`."""

from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "haskell",
    (".hs", ".hs-boot", ".hsig", ".hsc"),
    "tree_sitter_haskell:language",
    comment="--",
    block_comment=("{-", "-}"),
    aliases=("hs",),
)
