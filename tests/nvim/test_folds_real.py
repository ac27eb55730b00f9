""":SimpleBrief on real files nobody here wrote, with Neovim's `foldclosed()` as the oracle.

Per file: the definitions come from simple-brief's own `textDocument/documentSymbol`
(asked through Neovim's attached client), cross-checked in count with universal-ctags
when it is installed. After `:SimpleBrief` every definition of 2+ lines that is not a
container is inside a closed fold that starts at or before it and does not reach into the
next definition; containers are open; docstrings (found by Python's `ast`), comment blocks
of 3+ lines and long literal lists are closed.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pynvim
import pytest

from simple_brief.model import BLOCK_KINDS, CLASS_KINDS

from nvim_session import document_symbols, nvim

ROOT = Path(__file__).resolve().parents[2]
LUA = Path("/usr/share/lua/5.1")
RUSTUP = Path.home() / ".rustup" / "toolchains"


def _rust_file() -> Path | None:
    """A Rust source over 2 kB from the installed toolchains, if any."""
    if not RUSTUP.is_dir():
        return None
    for path in sorted(RUSTUP.glob("*/share/doc/rust/html/error_codes/*.rs")) + sorted(
        RUSTUP.glob("*/lib/rustlib/src/rust/library/core/src/*.rs")
    ):
        if path.stat().st_size > 2048:
            return path
    return None


#: (id, path or None, why it may be absent)
FILES: list[tuple[str, Path | None, str]] = [
    ("luassert-spy", LUA / "luassert" / "spy.lua", "Debian's lua-busted (installed by .ci/run)"),
    ("penlight-stringx", LUA / "pl" / "stringx.lua", "Debian's lua-penlight (installed with lua-busted by .ci/run)"),
    ("dkjson", LUA / "dkjson.lua", "Debian's lua-dkjson (installed with lua-busted by .ci/run)"),
    ("json-decoder", Path(json.__file__).parent / "decoder.py", "the Python standard library"),
    (
        "rxjs-subscriber",
        ROOT / "node_modules" / "rxjs" / "src" / "internal" / "Subscriber.ts",
        "rxjs's sources (npm ci)",
    ),
    ("rust", _rust_file(), "a Rust toolchain's sources (rustup)"),
]


@dataclass
class Sym:
    """One document symbol, 1-based inclusive lines."""

    name: str
    kind: int
    first: int
    last: int
    parent: Sym | None = None
    children: list[Sym] = field(default_factory=list)

    @property
    def container(self) -> bool:
        """What :SimpleBrief leaves open: `C` blocks, and values holding definitions."""
        if self.kind in CLASS_KINDS:
            return True
        return self.kind not in BLOCK_KINDS and any(c.kind in BLOCK_KINDS or c.container for c in self.children)


def _symbols(raw: list[dict[str, Any]], parent: Sym | None = None) -> list[Sym]:
    out: list[Sym] = []
    for d in raw:
        s = Sym(d["name"], d["kind"], d["range"]["start"]["line"] + 1, d["range"]["end"]["line"] + 1, parent)
        s.children = _symbols(d.get("children") or [], s)
        out.append(s)
    return out


def _walk(symbols: list[Sym]) -> list[Sym]:
    out: list[Sym] = []
    for s in symbols:
        out.append(s)
        out.extend(_walk(s.children))
    return out


def _document_symbols(nv: pynvim.Nvim) -> list[Sym]:
    raw = document_symbols(nv)
    return _symbols(raw)


def _closed(nv: pynvim.Nvim, lines: list[int]) -> dict[int, tuple[int, int]]:
    """foldclosed / foldclosedend of each line (-1, -1 when open)."""
    got = nv.exec_lua(
        "local out = {} for _, l in ipairs(...) do"
        " out[#out + 1] = { vim.fn.foldclosed(l), vim.fn.foldclosedend(l) } end return out",
        lines,
    )
    return {line: (int(a), int(b)) for line, (a, b) in zip(lines, got, strict=True)}


def _outermost_closable(s: Sym) -> Sym:
    """The outermost ancestor-or-self below every container: the fold that hides `s`."""
    chain = [s]
    while chain[-1].parent is not None:
        chain.append(chain[-1].parent)
    owner = s
    for a in chain:
        if a.container:
            break
        owner = a
    return owner


def _previous_end(s: Sym, roots: list[Sym]) -> int:
    """Last line of the sibling before `s` (0 if none)."""
    siblings = s.parent.children if s.parent else roots
    before = [o.last for o in siblings if o.last < s.first]
    return max(before, default=0)


def _comment_blocks(lines: list[str], ext: str, starts: set[int]) -> list[tuple[int, int]]:
    """Comment blocks of 3+ lines (1-based), each cut before the first definition inside it."""
    text = "\n".join(lines)
    if ext == ".lua":
        patterns = [r"^[ \t]*--\[(=*)\[.*?\]\1\]", r"^[ \t]*--(?!\[=*\[)[^\n]*(?:\n[ \t]*--(?!\[=*\[)[^\n]*)+"]
    elif ext == ".py":
        patterns = [r"^[ \t]*#[^\n]*(?:\n[ \t]*#[^\n]*)+"]
    else:
        patterns = [r"^[ \t]*/\*.*?\*/", r"^[ \t]*//[^\n]*(?:\n[ \t]*//[^\n]*)+"]
    blocks: list[tuple[int, int]] = []
    for p in patterns:
        for m in re.finditer(p, text, re.MULTILINE | re.DOTALL):
            first = text.count("\n", 0, m.start()) + 1
            last = first + m.group(0).count("\n")
            for line in range(first + 1, last + 1):
                if line in starts:
                    last = line - 1
                    break
            if last - first + 1 >= 3:
                blocks.append((first, last))
    return blocks


def _python_extras(source: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Docstrings of 3+ lines and top-level literal lists/dicts of 3+ lines, by `ast`."""
    tree = ast.parse(source)
    docs, literals = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                assert first.end_lineno is not None
                if first.end_lineno - first.lineno >= 2:
                    docs.append((first.lineno, first.end_lineno))
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.List | ast.Tuple | ast.Dict | ast.Set):
            assert node.end_lineno is not None
            if node.end_lineno - node.lineno >= 2:
                literals.append((node.lineno, node.end_lineno))
    return docs, literals


_CTAGS_KINDS = {"function", "method", "class", "member", "interface", "struct", "enum", "trait", "implementation"}


def _ctags_lines(path: Path) -> list[int] | None:
    """Lines of the block definitions universal-ctags finds, or None without it."""
    ctags = shutil.which("ctags")
    if (
        not ctags
        or "Universal Ctags" not in subprocess.run([ctags, "--version"], capture_output=True, text=True).stdout
    ):
        return None
    out = subprocess.run(
        [ctags, "--output-format=json", "--fields=+nK", "-f", "-", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    tags = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return [t["line"] for t in tags if t.get("kind") in _CTAGS_KINDS and "line" in t]


@pytest.mark.parametrize(("name", "path", "source"), FILES, ids=[f[0] for f in FILES])
def test_real_file_folds(tmp_path: Path, name: str, path: Path | None, source: str) -> None:
    if path is None or not path.is_file():
        pytest.skip(f"{name}: not on this machine ({source})")
    target = tmp_path / "ws" / path.name
    target.parent.mkdir()
    target.write_bytes(path.read_bytes())
    lines = target.read_text(encoding="utf-8", errors="replace").split("\n")
    with nvim(tmp_path) as nv:
        nv.command(f"edit {target}")
        nv.command("SimpleBrief")
        assert nv.exec_lua("return vim.wo.foldexpr") == "v:lua.vim.lsp.foldexpr()", "the server did not attach"
        roots = _document_symbols(nv)
        everything = _walk(roots)
        definitions = [s for s in everything if s.last > s.first]
        expected = [s for s in definitions if not s.container]
        containers = [s for s in definitions if s.container]
        starts = {s.first for s in everything}
        docs, literals = _python_extras(target.read_text()) if target.suffix == ".py" else ([], [])
        comments = _comment_blocks(lines, target.suffix, starts)
        probe = sorted(
            {s.first for s in definitions} | {s.last for s in containers} | {a for a, _ in docs + literals + comments}
        )
        closed = _closed(nv, probe)

    problems: list[str] = []
    for s in expected:
        c, e = closed[s.first]
        owner = _outermost_closable(s)
        if c == -1:
            problems.append(f"{s.name} (line {s.first}-{s.last}) is open")
        elif e < s.last:
            problems.append(f"{s.name} (line {s.first}-{s.last}) is open below its closed lines {c}-{e}")
        elif c > s.first or e > owner.last or c <= _previous_end(owner, roots):
            problems.append(f"{s.name} (line {s.first}-{s.last}) sits in the closed fold {c}-{e}")
    for s in containers:
        # Closed when one closed fold holds its first and last lines (its leading doc
        # comment may close alone; its last method closes from a later line).
        c = closed[s.last][0]
        if c != -1 and c <= s.first and not any(not a.container for a in _ancestors(s)):
            problems.append(f"container {s.name} (line {s.first}-{s.last}) is closed")
    for kind, spans in (("docstring", docs), ("literal", literals), ("comment block", comments)):
        for a, b in spans:
            if closed[a][0] == -1:
                problems.append(f"{kind} {a}-{b} is open")

    def shut(total: int, *prefixes: str) -> str:
        return f"{total - sum(1 for p in problems if p.startswith(prefixes))}/{total}"

    print(
        f"{name}: {len(definitions)} definitions of 2+ lines; closed: definitions"
        f" {len(expected) - sum(1 for s in expected if any(p.startswith(s.name + ' (line') for p in problems))}"
        f"/{len(expected)}, docstrings {shut(len(docs), 'docstring')}, literals {shut(len(literals), 'literal')},"
        f" comment blocks {shut(len(comments), 'comment')}; containers open {shut(len(containers), 'container')}"
    )
    assert not problems, f"{name}: " + "; ".join(problems[:12]) + f" ({len(problems)} problems)"

    tagged = _ctags_lines(target)
    if tagged is None:
        return  # universal-ctags is not installed: the cross-check needs it
    # Each definition ctags finds is one of ours or inside one (a function's local functions
    # are not listed: they fold with it).
    inside = [line for line in tagged if any(s.first <= line <= s.last for s in everything)]
    ours = sum(1 for s in everything if s.kind in BLOCK_KINDS)
    print(f"{name}: ctags {len(tagged)} block definitions, {len(inside)} inside simple-brief's {ours}")
    assert len(inside) >= 0.95 * len(tagged), (
        f"{name}: of {len(tagged)} ctags definitions only {len(inside)} are in the outline"
    )


def _ancestors(s: Sym) -> list[Sym]:
    out = []
    while s.parent is not None:
        s = s.parent
        out.append(s)
    return out
