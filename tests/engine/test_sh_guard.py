"""The bash grammar's crash guard (languages/sh.py `astral_as_letters`, the unit's
`guard`): 4-byte UTF-8 characters, on which tree-sitter-bash crashes the process, never
reach the grammar, and what is shown is the real text."""

from __future__ import annotations

import subprocess
import sys

import pytest

from simple_brief import languages
from simple_brief.languages.sh import astral_as_letters
from simple_brief.model import walk_all
from simple_brief.scan import scan

SH = languages.by_name("sh")

#: Texts on which tree-sitter-bash 0.25.1 crashed with SIGSEGV (found by this suite's
#: random text, tests/engine/test_robustness.py, and a fuzzer); each crashed a bare parse
#: in about half of fresh processes (the crash depends on the memory layout).
CRASHERS = [
    "\U000100d4*/\n    \u2028<\U000100d2{\U0010d3a1\U00010004# Title\n## Title\n\U0001001fA",
    "\U0003dbc7\U0003dbc7&{\U000f0446&{&{",
    "\x9e\t\xd62\x8e\U0003c9c6\x8a\x0c&{\U000db2ad",
    "\x10\U0001b0a6{\U00044430\U000fa3af\x8b",
]
#: Every parse of a language's text: the outline, and docs action=get's check of a fenced example.
PARSE_EACH = {
    "outline": "from simple_brief.scan import scan\nfor text in sys.argv[1:]: scan(text, languages.by_name('sh'))",
    "example check": "from simple_brief.docs.model import Example\nfrom simple_brief.tools.docs import check_example\n"
    "for text in sys.argv[1:]: check_example(Example(text), 'sh')",  # a shell script's own untagged example
}


@pytest.mark.parametrize("parse", PARSE_EACH.values(), ids=PARSE_EACH.keys())
def test_texts_that_crashed_the_bash_grammar_are_read_in_every_process(parse: str) -> None:
    for _ in range(8):  # a fresh memory layout each time
        code = "import sys\nfrom simple_brief import languages\n" + parse
        done = subprocess.run([sys.executable, "-c", code, *CRASHERS], capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]


def test_astral_characters_reach_the_grammar_as_letters_of_the_same_length() -> None:
    data = "echo {🚀} 🚁 𱡀 é ✅\n".encode()
    spelled = astral_as_letters(data)
    assert len(spelled) == len(data)
    assert spelled.startswith(b"echo {") and spelled.endswith("é ✅\n".encode())  # stay as they are
    words = spelled.split()
    assert words[1][1:5].isalpha() and words[2].isalpha() and words[3].isalpha()
    assert len({words[1][1:5], words[2], words[3]}) == 3  # different characters, different spellings


def test_a_script_with_emoji_is_outlined_with_its_real_text() -> None:
    assert SH is not None
    script = 'deploy_🚀 () {\n\techo "🚀 {launch}"\n}\n\nafter () {\n\techo 🎉\n}\n'
    outline = scan(script, SH)
    assert [s.name for s in walk_all(outline.symbols)] == ["deploy_🚀", "after"]
    assert [d for d in outline.diagnostics if d.code == "H003"] == []
