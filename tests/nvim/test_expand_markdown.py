""":ExpandAt on Markdown headings of READMEs nobody here wrote, `foldclosed()` as the oracle.

The headings and their nesting come from simple-brief's `textDocument/documentSymbol`;
what a heading is called (its text without `#`s, a `Parent > Child` path when the text
alone is ambiguous) is worked out here, in Python, independently of the plugin. After
`:SimpleBrief`, `:ExpandAt <heading>` must leave the heading's own section open (its
first line and every heading inside it), its ancestors open, and every other section as
it was: closed ones stay closed, open ones open. The completion list holds only typeable
names (one argument each, no `#`s), and each one opens its heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pynvim
import pytest

from nvim_session import document_symbols, nvim

ROOT = Path(__file__).resolve().parents[2]
PYENV = Path.home() / ".pyenv"

#: (id, path, why it may be absent, how many headings to sample)
FILES: list[tuple[str, Path, str, int]] = [
    ("body-parser", ROOT / "node_modules" / "body-parser" / "README.md", "npm ci (a devDependency's dependency)", 6),
    ("ts-node", ROOT / "node_modules" / "ts-node" / "README.md", "npm ci (a devDependency's dependency)", 5),
    ("python-build", PYENV / "plugins" / "python-build" / "README.md", "pyenv (in the dev image)", 4),
]
WHATS = ("all", "body", "signature")


@dataclass
class Heading:
    """One heading symbol, 1-based inclusive lines."""

    name: str
    first: int
    last: int
    parent: Heading | None = None
    children: list[Heading] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(re.sub(r"^#{1,6}(\s+|$)|\s+#+\s*$", "", self.name.strip()).split())

    @property
    def path(self) -> list[str]:
        return ([*self.parent.path] if self.parent else []) + [self.text]

    def within(self, other: Heading) -> bool:
        """Whether self is `other` or inside its section."""
        node: Heading | None = self
        while node is not None:
            if node is other:
                return True
            node = node.parent
        return False


def _headings(nv: pynvim.Nvim) -> list[Heading]:
    raw = document_symbols(nv)
    out: list[Heading] = []

    def walk(items: list[dict[str, Any]], parent: Heading | None) -> None:
        for d in items:
            h = Heading(d["name"], d["range"]["start"]["line"] + 1, d["range"]["end"]["line"] + 1, parent)
            if parent:
                parent.children.append(h)
            out.append(h)
            walk(d.get("children") or [], h)

    walk(raw, None)
    return sorted(out, key=lambda h: h.first)


def _named(headings: list[Heading], parts: list[str]) -> list[Heading]:
    return [h for h in headings if h.path[-len(parts) :] == parts]


def _shortest_path(headings: list[Heading], h: Heading) -> list[str] | None:
    for n in range(1, len(h.path) + 1):
        if len(_named(headings, h.path[-n:])) == 1:
            return h.path[-n:]
    return None


def _closed(nv: pynvim.Nvim, lines: list[int]) -> list[int]:
    got = nv.exec_lua(
        "local out = {} for _, l in ipairs(...) do out[#out + 1] = vim.fn.foldclosed(l) end return out", lines
    )
    return [int(x) for x in got]


def _completion(nv: pynvim.Nvim, line: str) -> list[str]:
    return list(nv.exec_lua("return vim.fn.getcompletion(..., 'cmdline')", "ExpandAt " + line))


def _unescape(word: str) -> str:
    return re.sub(r"\\(.)", r"\1", word)


def _command_forms(headings: list[Heading], h: Heading) -> list[str]:
    """Ways a user types this heading: as the text (rest of the line), with its `#`s,
    quoted, with escaped spaces, or as a path when the text alone is ambiguous."""
    path = _shortest_path(headings, h)
    if path is None:  # the same path twice: only its line names it
        return [f"line:{h.first}"]
    if len(path) > 1:
        return [" > ".join(path), f"line:{h.first}"]
    forms = [f"line:{h.first}", h.text.replace("\\", "\\\\").replace(" ", "\\ ")]
    if "\\" not in h.text and h.text.split()[-1] not in WHATS and h.text not in forms:
        forms.append(h.text)
    if h.name.startswith("#") and len([x for x in headings if x.name == h.name]) == 1:
        forms.append(h.name)
        if '"' not in h.name:
            forms.append(f'"{h.name}" all')
    return forms


@pytest.mark.parametrize(("name", "path", "source", "sample"), FILES, ids=[f[0] for f in FILES])
def test_expand_at_opens_that_heading_and_no_other(
    tmp_path: Path, name: str, path: Path, source: str, sample: int
) -> None:
    if not path.is_file():
        pytest.skip(f"{name}'s README comes with {source}")
    with nvim(tmp_path) as nv:
        nv.command(f"edit {path}")
        nv.command("SimpleBrief")
        headings = _headings(nv)
        assert len(headings) > sample, "the outline shows the README's headings"
        lines = [h.first for h in headings]
        step = max(1, len(headings) // sample)
        failures: list[str] = []
        for h in headings[1::step][:sample]:
            for form in _command_forms(headings, h):
                nv.command("normal! zR")
                nv.command("SimpleBrief")
                before = dict(zip(lines, _closed(nv, lines), strict=True))
                try:
                    nv.command(f"ExpandAt {form}")
                except pynvim.NvimError as err:
                    failures.append(f":ExpandAt {form} -> {err}")
                    continue
                after = dict(zip(lines, _closed(nv, lines), strict=True))
                cursor = nv.exec_lua("return vim.api.nvim_win_get_cursor(0)[1]")
                if cursor != h.first:
                    failures.append(f":ExpandAt {form} -> cursor on line {cursor}, not {h.first}")
                for other in headings:
                    if other.within(h) or h.within(other):
                        want_open = True
                    elif other.last > other.first:
                        want_open = before[other.first] == -1
                    else:
                        continue  # a heading with nothing under it has no fold of its own
                    if (after[other.first] == -1) != want_open:
                        state = "open" if after[other.first] == -1 else "closed"
                        failures.append(f":ExpandAt {form} -> {other.name} (line {other.first}) {state}")
        assert not failures, f"{path}:\n" + "\n".join(failures[:20])


def test_completion_offers_typeable_names_that_each_open_their_heading(tmp_path: Path) -> None:
    path = FILES[0][1]
    if not path.is_file():
        pytest.skip(f"body-parser's README comes with {FILES[0][2]}")
    with nvim(tmp_path) as nv:
        nv.command(f"edit {path}")
        nv.command("SimpleBrief")
        headings = _headings(nv)
        words = _completion(nv, "")
        assert words, "completion offers the headings"
        for word in words:
            assert not word.startswith("#"), word
            assert not re.search(r"(?<!\\) ", word), f"{word!r} is not one argument"
        # Every heading with an unambiguous name is offered, by that name.
        expected = {
            " > ".join(p).replace("\\", "\\\\").replace(" ", "\\ ")
            if (p := _shortest_path(headings, h))
            else f"line:{h.first}"
            for h in headings
        }
        assert set(words) == expected
        # A typed prefix with escaped spaces completes; after the name come the `what` words.
        assert _completion(nv, "unsupported\\ c") == [
            'unsupported\\ charset\\ "BOGUS"',
            'unsupported\\ content\\ encoding\\ "bogus"',
        ]
        assert _completion(nv, "request\\ aborted ") == list(WHATS)
        failures = []
        for word in words:
            parts = _unescape(word).split(" > ")
            (h,) = [x for x in headings if f"line:{x.first}" == word] or _named(headings, parts)
            try:
                nv.command(f"ExpandAt {word}")
            except pynvim.NvimError as err:
                failures.append(f"{word}: {err}")
                continue
            cursor = nv.exec_lua("return vim.api.nvim_win_get_cursor(0)[1]")
            closed = _closed(nv, [h.first])[0]
            if cursor != h.first or closed != -1:
                failures.append(f"{word}: cursor {cursor}, foldclosed {closed}, want {h.first} open")
        assert not failures, "\n".join(failures)


def test_a_heading_ending_in_a_what_word_and_signature(tmp_path: Path) -> None:
    text = (
        "# Tool\n\n## Install all\n\nEverything.\n\n## Install\n\nOne.\n\n"
        "## Usage\n\nRun.\nTwice.\n\n## Run body\n\nText.\n"
    )
    (tmp_path / "README.md").write_text(text)
    with nvim(tmp_path) as nv:
        nv.command(f"edit {tmp_path / 'README.md'}")
        nv.command("SimpleBrief")
        nv.command("ExpandAt Install all")  # the last word is `what`: the heading is Install
        assert nv.exec_lua("return vim.api.nvim_win_get_cursor(0)[1]") == 7
        nv.command("ExpandAt Install\\ all")
        assert nv.exec_lua("return vim.api.nvim_win_get_cursor(0)[1]") == 3
        nv.command('ExpandAt "Install all" signature')
        assert _closed(nv, [3, 7]) == [3, -1]
        nv.command("ExpandAt ## Usage body")
        assert _closed(nv, [11]) == [-1]
        nv.command("ExpandAt line:11 signature")
        assert _closed(nv, [3, 7, 11]) == [3, -1, 11]
        nv.command("ExpandAt Install all body")
        assert nv.exec_lua("return vim.api.nvim_win_get_cursor(0)[1]") == 3
        nv.command("ExpandAt Run body")  # no heading `Run`: the whole line names the heading
        assert nv.exec_lua("return vim.api.nvim_win_get_cursor(0)[1]") == 16
