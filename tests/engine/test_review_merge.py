"""Issue 29, the engine side: the three-way merge on a real stdlib file, hunk symbols, the
session's read marks through the host, `changes_since` on a rename, and the never-clobber
rule of `files_apply_overlay` and applied refactors."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.editor.review import ClientMarks
from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.host.core import Host
from simple_brief.intel import merge
from simple_brief.model import Position, Range, TextEdit
from simple_brief.scan import scan
from simple_brief.tools import Call
from simple_brief.tools.clobber import refuse_edits_over_changes
from simple_brief.tools.edit import scope_chain

STDLIB = Path(textwrap.__file__).read_text(encoding="utf-8")


def _replace_line(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


# Lines of textwrap.py in different functions: `_munge_whitespace` and `dedent`.
MUNGE = "        if self.expand_tabs:\n"
DEDENT = "    margin = None\n"
SHORTEN = "    w = TextWrapper(width=width, max_lines=1, **kwargs)\n"


def test_edits_in_different_functions_combine() -> None:
    ours = _replace_line(STDLIB, MUNGE, "        if self.expand_tabs:  # the person's comment\n")
    theirs = _replace_line(STDLIB, DEDENT, "    margin: str | None = None\n")
    merged = merge.merge3(STDLIB, ours, theirs)
    assert not merged.conflicts
    assert len(merged.hunks) == 1
    hunk = merged.hunks[0]
    assert hunk.old == ("    margin = None",) and hunk.new == ("    margin: str | None = None",)
    # The hunk's line is a line of the person's text, which holds the agent's old line there.
    assert merge.split_lines(ours)[hunk.start - 1] == "    margin = None"
    both = _replace_line(ours, DEDENT, "    margin: str | None = None\n")
    assert merged.text == both


def test_edits_that_shift_lines_keep_their_place() -> None:
    # The person adds three lines near the top; the agent's hunk further down moves with them.
    ours = _replace_line(STDLIB, "import re\n", "import re\nimport os\nimport sys\nimport io\n")
    theirs = _replace_line(STDLIB, SHORTEN, "    w = TextWrapper(width=width, max_lines=2, **kwargs)\n")
    merged = merge.merge3(STDLIB, ours, theirs)
    (hunk,) = merged.hunks
    assert hunk.start == STDLIB.split("\n").index(SHORTEN.rstrip("\n")) + 1 + 3
    assert merged.text == _replace_line(ours, SHORTEN, "    w = TextWrapper(width=width, max_lines=2, **kwargs)\n")


def test_the_same_lines_changed_on_both_sides_are_a_conflict() -> None:
    ours = _replace_line(STDLIB, SHORTEN, "    w = TextWrapper(width=width - 1, max_lines=1, **kwargs)\n")
    theirs = _replace_line(STDLIB, SHORTEN, "    w = TextWrapper(width=width, max_lines=3, **kwargs)\n")
    merged = merge.merge3(STDLIB, ours, theirs)
    (hunk,) = merged.hunks
    assert hunk.conflict
    assert hunk.old == ("    w = TextWrapper(width=width - 1, max_lines=1, **kwargs)",)
    assert hunk.new == ("    w = TextWrapper(width=width, max_lines=3, **kwargs)",)
    # Never applied blindly: the merged text is the person's.
    assert merged.text == ours


def test_the_same_change_on_both_sides_is_no_hunk() -> None:
    both = _replace_line(STDLIB, DEDENT, "    margin = ''\n")
    assert merge.merge3(STDLIB, both, both).hunks == ()


def test_an_insertion_next_to_the_persons_change_is_a_conflict() -> None:
    ours = _replace_line(STDLIB, DEDENT, "    margin = 0\n")
    theirs = _replace_line(STDLIB, DEDENT, DEDENT + "    seen = 0\n")
    (hunk,) = merge.merge3(STDLIB, ours, theirs).hunks
    assert hunk.conflict and hunk.old == ("    margin = 0",) and hunk.new == ("    margin = None", "    seen = 0")


def test_hunks_of_a_plain_diff_apply_back() -> None:
    theirs = _replace_line(STDLIB, DEDENT, "") + "\n# appended\n"
    text = STDLIB
    for hunk in reversed(merge.hunks(STDLIB, theirs)):
        text = merge.apply_hunk(text, hunk)
    assert text == theirs


def test_hunk_symbols_name_the_enclosing_chain() -> None:
    theirs = _replace_line(STDLIB, "        lines = []\n", "        lines: list[str] = []\n")
    (hunk,) = merge.hunks(STDLIB, theirs)
    symbols = scan(STDLIB, languages.detect(Path("textwrap.py"))).symbols
    lines = merge.split_lines(STDLIB)
    assert scope_chain(symbols, lines, hunk.start) == "Class:TextWrapper > Method:_wrap_chunks"
    assert scope_chain(symbols, lines, 1) == ""


COUNTER = """class Counter:
    def reset(self):
        self.value = 0

    def add(self, n):
        value = self.value + n
        return value
"""


@pytest.fixture
def host(tmp_path: Path) -> Host:
    (tmp_path / "counter.py").write_text(COUNTER)
    made = Host()
    yield made
    made.close()


def _text(answer: object) -> str:
    return "\n".join(answer.blocks)  # type: ignore[attr-defined]


def test_changes_since_shows_a_rename_and_the_mark_moves_only_on_reading(tmp_path: Path, host: Host) -> None:
    read = host.call("simple_read", {"path": "counter.py"}, root=tmp_path, client="s1")
    assert not read.is_error
    (tmp_path / "counter.py").write_text(
        COUNTER.replace("def reset(self)", "def clear(self)").replace("+ n", "+ n * 2")
    )
    first = host.call("changes_since", {"path": "counter.py"}, root=tmp_path, client="s1")
    text = _text(first)
    assert "renamed Class:Counter > Method:reset -> Class:Counter > Method:clear" in text, text
    assert "~ body changed  F> def add(self, n) { ... } L5-7" in text, text
    assert [c["change"] for c in first.data["counter.py"]] == ["renamed", "body"]
    # Asking again does not move the mark; reading does.
    again = host.call("changes_since", {"path": "counter.py"}, root=tmp_path, client="s1")
    assert _text(again) == text
    host.call("expand_at", {"path": "counter.py", "selector": "Counter.add"}, root=tmp_path, client="s1")
    after = host.call("changes_since", {}, root=tmp_path, client="s1")
    assert _text(after) == "none of the 1 files you read changed since you read them."


def test_read_marks_are_per_session_and_the_command_line_keeps_none(tmp_path: Path, host: Host) -> None:
    host.call("simple_read", {"path": "counter.py"}, root=tmp_path, client="s1")
    other = host.call("changes_since", {"path": "counter.py"}, root=tmp_path, client="s2")
    assert other.is_error and "was not read in this session" in _text(other)
    cli = host.call("changes_since", {}, root=tmp_path)
    assert cli.is_error and "the command line keeps no reads" in _text(cli)


def test_an_overlay_is_merged_with_the_persons_edits_and_refused_over_them(tmp_path: Path, host: Host) -> None:
    host.call("simple_read", {"path": "counter.py"}, root=tmp_path, client="s1")
    person = COUNTER.replace("self.value = 0", "self.value = 1")
    (tmp_path / "counter.py").write_text(person)
    # The agent's text, written against what it read, changes another method: both kept.
    agent = COUNTER.replace("value = self.value + n", "value = self.value + n + 1")
    done = host.call("files_apply_overlay", {"path": "counter.py", "content": agent}, root=tmp_path, client="s1")
    assert not done.is_error, _text(done)
    assert "merged with the person's edits since you read it (lines 3)" in _text(done)
    state = host.state(tmp_path)
    assert state.workspace.overlays.agent[tmp_path / "counter.py"] == person.replace(
        "value = self.value + n", "value = self.value + n + 1"
    )
    # The agent's text changes the line the person changed: refused, nothing applied.
    host.call("files_remove_overlay", {"path": "counter.py"}, root=tmp_path, client="s1")
    clash = COUNTER.replace("self.value = 0", "self.value = -1")
    refused = host.call("files_apply_overlay", {"path": "counter.py", "content": clash}, root=tmp_path, client="s1")
    assert refused.is_error
    assert "lines 3 of counter.py changed since you read it" in _text(refused)
    assert tmp_path / "counter.py" not in state.workspace.overlays.agent


def test_an_applied_edit_over_the_persons_lines_is_refused(tmp_path: Path) -> None:
    (tmp_path / "counter.py").write_text(COUNTER)
    marks = ClientMarks()
    real = (tmp_path / "counter.py").resolve()
    marks.mark(real, COUNTER)
    call = Call(workspace=Workspace.at(tmp_path), marks=marks)
    now = COUNTER.replace("value = self.value + n", "value = self.value - n")  # the person's line 6

    def edit(line: int) -> list[TextEdit]:
        return [TextEdit(Range(Position(line - 1, 4), Position(line - 1, 9)), "value")]

    refuse_edits_over_changes(call, real, now, edit(7))  # line 7: the person left it alone
    with pytest.raises(UserError, match=r"lines 6 of counter.py changed since you read it .* re-read it"):
        refuse_edits_over_changes(call, real, now, edit(6))


def test_symbol_changes_on_a_real_file() -> None:
    from simple_brief.render.changes import symbol_changes

    after = _replace_line(STDLIB, "    def _split(self, text):\n", "    def _split_words(self, text):\n")
    after = _replace_line(after, DEDENT, "    margin = ''\n")
    after = _replace_line(
        after, "def indent(text, prefix, predicate=None):\n", "def indent(text, prefix, predicate=None, *, n=1):\n"
    )
    language = languages.detect(Path("textwrap.py"))
    found = symbol_changes(STDLIB, scan(STDLIB, language).symbols, after, scan(after, language).symbols)
    assert [(c.what, c.chain, c.was) for c in found] == [
        ("renamed", "Class:TextWrapper > Method:_split_words", "Class:TextWrapper > Method:_split"),
        ("body", "Function:dedent", ""),
        ("signature", "Function:indent", ""),
    ]


def _join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(0, 400, 7))
def test_random_edits_on_a_real_file_combine_or_conflict(seed: int) -> None:
    """Seeded edits of textwrap.py: replacements at least one line apart combine into what
    applying both gives (the oracle, built without the merge); overlapping ones conflict and
    leave the person's text."""
    rng = random.Random(seed)
    base = STDLIB.split("\n")[:-1]
    lo = rng.randrange(0, len(base) - 80)
    hi = lo + rng.randint(0, 3)
    lo2 = rng.randrange(hi + 1, hi + 60)
    hi2 = lo2 + rng.randint(0, 3)
    mine = [f"@@person {rng.random()}" for _ in range(rng.randint(0, 3))]
    agent = [f"@@agent {rng.random()}" for _ in range(rng.randint(1, 3))]
    if seed % 2:
        ours, theirs = base[:lo] + mine + base[hi:], base[:lo2] + agent + base[hi2:]
        both = base[:lo] + mine + base[hi:lo2] + agent + base[hi2:]
    else:
        ours, theirs = base[:lo2] + mine + base[hi2:], base[:lo] + agent + base[hi:]
        both = base[:lo] + agent + base[hi:lo2] + mine + base[hi2:]
    merged = merge.merge3(_join(base), _join(ours), _join(theirs))
    assert not merged.conflicts and merged.text == _join(both)
    # The agent's change moved onto the person's lines: a conflict, nothing applied.
    theirs = base[:lo2] + agent + base[max(hi2, lo2 + 1) :]
    ours = [*base[:lo2], *mine, "@@person", *base[hi2:]]
    clash = merge.merge3(_join(base), _join(ours), _join(theirs))
    assert clash.conflicts and clash.text == _join(ours)


def test_a_second_overlay_replaces_the_agents_first_without_a_false_conflict(tmp_path: Path, host: Host) -> None:
    host.call("simple_read", {"path": "counter.py"}, root=tmp_path, client="s1")
    first = COUNTER.replace("self.value = 0", "self.value = 5")
    second = COUNTER.replace("self.value = 0", "self.value = 6")
    host.call("files_apply_overlay", {"path": "counter.py", "content": first}, root=tmp_path, client="s1")
    again = host.call("files_apply_overlay", {"path": "counter.py", "content": second}, root=tmp_path, client="s1")
    assert not again.is_error, _text(again)
    assert host.state(tmp_path).workspace.overlays.agent[tmp_path / "counter.py"] == second


def test_changes_since_names_lines_changed_outside_symbols(tmp_path: Path, host: Host) -> None:
    host.call("simple_read", {"path": "counter.py"}, root=tmp_path, client="s1")
    (tmp_path / "counter.py").write_text("import os\n" + COUNTER.replace("+ n", "- n") + "\nLIMIT = 3\n")
    found = host.call("changes_since", {"path": "counter.py"}, root=tmp_path, client="s1")
    assert _text(found).splitlines() == [
        "counter.py: 2 symbol changes since you read it",
        "  ~ body changed  F> def add(self, n) { ... } L6-8",
        "  + Constant:LIMIT  LIMIT = 3 L10",
        "  ~ outside symbols  L1",
    ]
    (tmp_path / "counter.py").write_text("import os\n" + COUNTER)
    only = host.call("changes_since", {"path": "counter.py"}, root=tmp_path, client="s1")
    assert _text(only) == (
        "counter.py: changed outside any symbol since you read it (L1: imports, comments or statements)."
    )
