"""A zsh branch inside a bash script (bash-completion's git file): no invented syntax
error, and the functions around it still listed (languages/_sh_syntax.py)."""

from __future__ import annotations

from simple_brief import languages
from simple_brief.model import walk_all
from simple_brief.scan import scan

SH = languages.by_name("sh")

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


def test_zsh_flagged_expansions_are_no_syntax_error() -> None:
    assert SH is not None
    outline = scan(SCRIPT, SH)
    assert [d.message for d in outline.diagnostics if d.code in ("E001", "E002")] == []
    assert [s.name for s in walk_all(outline.symbols)] == ["__git_main", "__git_after"]


def test_a_real_bash_syntax_error_is_still_reported() -> None:
    assert SH is not None
    outline = scan("f () {\n\tif true; then\n\t\techo x\n}\n", SH)
    assert [d for d in outline.diagnostics if d.code in ("E001", "E002")]
