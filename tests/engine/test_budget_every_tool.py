"""Every tool that returns a file's content holds the token budget on every bundled language's
biggest file, and an answer that had to be cut says so in its first line (issue 26, section 3).
Asked without a language server (the `lsp` tools' answers are the servers' and are paged by
their own `offset`/`limit`): simple_read (every mode), expand_at (the biggest symbol and a
nested one, every `what`, `context=true`), document_symbols (both formats, all rows, a page),
diagnostics (the file, `only=parse`), search, workspace_symbols, files_apply_overlay, and on
three of the files the docs tools (docs action=search, list, get).

The files: for each language, the largest file of its extensions found among what `make
test` installs — the standard library (without site-packages), the venv's site-packages,
node_modules, /usr/include — and of the conformance corpus (`bench/conformance_corpus.py`:
its system folders, and its npm and PyPI packages once `make conformance` fetched them), up
to `REAL_BYTES_MAX` (bigger ones cost parse time, not coverage: the cut is the same shape).
Where that file is under `BIG_TOKENS`, or there is none, the language's own fixture
`tests/fixtures/outline/<ft>.*` repeated past `BIG_TOKENS` stands in (JSON as one array of
the fixture); binary files are passed over. Each test's assertion message names which one it
used. Tokens are counted as the engine does (`render.budget.approx_tokens`).
"""

from __future__ import annotations

import os
import sys
import sysconfig
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.model import Symbol, walk_all
from simple_brief.render.budget import CHARS_PER_TOKEN, approx_tokens
from simple_brief.tools import Call, Session, invoke

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "outline"
BUDGET = 10_000
#: A file counts as big past this many tokens (four budgets).
BIG_TOKENS = 40_000
#: Real files above this size are passed over for the next largest (parse time on 2 shared cores).
REAL_BYTES_MAX = 700_000
STDLIB = Path(sysconfig.get_paths()["stdlib"])
SITE = Path(sysconfig.get_paths()["purelib"])
ROOTS = (STDLIB, SITE, REPO / "node_modules", Path("/usr/include"))
#: Words a first line uses when it says an answer was cut and how to get the rest.
CUT_WORDS = ("budget", "left out")
LANGUAGES = sorted(p.stem for p in FIXTURES.iterdir() if p.is_file())


@cache
def _largest_real_files() -> dict[str, Path]:
    """The largest regular file per filetype under ROOTS, within REAL_BYTES_MAX (links not followed)."""
    by_ext: dict[str, str] = {}
    for ft in LANGUAGES:
        spec = languages.by_name(ft)
        for ext in spec.extensions if spec else ():
            by_ext.setdefault(ext, ft)
    best: dict[str, tuple[int, str]] = {}
    for root in ROOTS:
        for folder, dirs, files in os.walk(root):
            if root == STDLIB:
                dirs[:] = [d for d in dirs if d != "site-packages"]
            for name in files:
                ft = by_ext.get(os.path.splitext(name)[1])
                if ft is None:
                    continue
                path = os.path.join(folder, name)
                try:
                    size = os.lstat(path).st_size
                except OSError:
                    continue
                bigger = best.get(ft, (0, ""))[0] < size <= REAL_BYTES_MAX
                if bigger and os.path.isfile(path) and not os.path.islink(path):
                    best[ft] = (size, path)
    for ft, path in _largest_conformance_files().items():
        size = path.stat().st_size
        if best.get(ft, (0, ""))[0] < size <= REAL_BYTES_MAX:
            best[ft] = (size, str(path))
    return {ft: Path(path) for ft, (_, path) in best.items()}


def _largest_conformance_files() -> dict[str, Path]:
    """The largest file per language of `make conformance`'s corpus (`bench/conformance_corpus.py`):
    what of it is present — its system folders always, its npm and PyPI packages once fetched."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        import conformance_corpus as corpus
    finally:
        sys.path.remove(str(REPO / "bench"))
    out: dict[str, Path] = {}
    for ft, src in corpus.sources().items():
        files = [f for f in corpus.files_of(ft, src) if f.stat().st_size <= REAL_BYTES_MAX]
        if files:
            out[ft] = max(files, key=lambda f: f.stat().st_size)
    return out


def _synthesized(ft: str) -> tuple[str, str]:
    """The language's fixture repeated past BIG_TOKENS: (file name, text)."""
    fixture = next(FIXTURES.glob(f"{ft}.*"))
    text = fixture.read_text(encoding="utf-8")
    times = int(BIG_TOKENS * CHARS_PER_TOKEN / len(text)) + 2
    if ft == "json":
        return fixture.name, "[" + ",\n".join([text.strip()] * times) + "]\n"
    return fixture.name, ("\n" + text.strip("\n") + "\n") * times


def _binary(path: Path) -> bool:
    """A NUL byte early on: Neovim's `.spl` spell files share the seed language's ending."""
    with path.open("rb") as f:
        return b"\0" in f.read(8192)


def _big_file(ft: str, root: Path) -> tuple[str, str]:
    """Write the language's big file into `root`: (its name there, where it came from)."""
    real = _largest_real_files().get(ft)
    if real is not None and real.stat().st_size / CHARS_PER_TOKEN > BIG_TOKENS and not _binary(real):
        name = "big" + real.suffix
        (root / name).write_bytes(real.read_bytes())
        return name, f"real: {real}"
    name, text = _synthesized(ft)
    (root / name).write_text(text, encoding="utf-8")
    return name, f"synthesized: {name} repeated to ~{approx_tokens(text):,} tokens"


def _calls(name: str, symbols: list[Symbol]) -> list[tuple[str, dict[str, Any]]]:
    """Every content-returning tool call worth asking on the file, parameters varied."""
    every = list(walk_all(symbols))
    biggest = max(every, key=lambda s: (s.range.end.line - s.range.start.line, -s.range.start.line), default=None)
    nested = next((child for s in every for child in s.children), None)
    calls: list[tuple[str, dict[str, Any]]] = [
        *(("simple_read", {"path": name, "mode": mode}) for mode in ("full", "outline", "compact", "symbols", "names")),
        ("simple_read", {"path": name, "mode": "symbols", "preview": "expanded"}),
        ("simple_read", {"path": name, "mode": "outline", "depth": 1}),
        ("document_symbols", {"path": name}),
        ("document_symbols", {"path": name, "format": "standard"}),
        ("document_symbols", {"path": name, "return_children": "yes", "include_hover": False}),
        ("document_symbols", {"path": name, "format": "standard", "return_children": "yes", "offset": 0}),
        ("diagnostics", {"path": name}),
        ("diagnostics", {"path": name, "only": "parse"}),
    ]
    for sym in {id(s): s for s in (biggest, nested) if s is not None}.values():
        line = f"line:{sym.range.start.line + 1}"
        calls += [
            ("expand_at", {"path": name, "selector": line, "what": what}) for what in ("all", "body", "signature")
        ]
        calls.append(("expand_at", {"path": name, "selector": line, "context": True}))
        calls.append(("search", {"query": sym.name[:40] or "a"}))
        calls.append(("workspace_symbols", {"query": sym.name[:40] or "a"}))
    return calls


@pytest.mark.parametrize("ft", LANGUAGES)
def test_every_content_tool_holds_the_budget_on_the_biggest_file(ft: str, tmp_path: Path) -> None:
    name, origin = _big_file(ft, tmp_path)
    workspace = Workspace.at(tmp_path)
    try:
        _, outline = workspace.outline(name)
    except UserError as err:  # a refusal is one sentence, far inside the budget
        assert approx_tokens(str(err)) < 200, origin
        return
    over: list[str] = []
    for tool, args in _calls(name, outline.symbols):
        try:
            answer = invoke(tool, args, Call(workspace=workspace, budget=BUDGET))
        except UserError as err:
            assert approx_tokens(str(err)) < 500, (origin, tool, args, str(err)[:300])
            continue
        first = answer.text.split("\n", 1)[0]
        if approx_tokens(answer.text) > BUDGET:
            over.append(f"{tool} {args}: ~{approx_tokens(answer.text):,} tokens, first line {first[:200]!r}")
        if tool == "simple_read" and args["mode"] == "full" and not any(word in first for word in CUT_WORDS):
            over.append(f"{tool} {args}: a file past {BIG_TOKENS:,} tokens, and the first line says no cut: {first!r}")
    assert not over, f"{origin}\n" + "\n".join(over)


@pytest.mark.parametrize("ft", ["python", "typescript"])
def test_files_apply_overlay_of_a_big_file_holds_the_budget(ft: str, tmp_path: Path) -> None:
    name, origin = _big_file(ft, tmp_path)
    text = (tmp_path / name).read_text(encoding="utf-8", errors="replace")
    answer = invoke(
        "files_apply_overlay",
        {"path": "overlay" + Path(name).suffix, "content": text},
        Call(workspace=Workspace.at(tmp_path), budget=BUDGET),
    )
    assert approx_tokens(answer.text) <= BUDGET, (origin, answer.text[:300])


@pytest.mark.parametrize("tool", ["search", "workspace_symbols"])
def test_an_answer_cut_to_whole_blocks_says_so_in_its_first_line(tool: str, tmp_path: Path) -> None:
    for n in range(40):
        (tmp_path / f"mod{n}.py").write_text(f"def handler_{n}(event):\n    return event\n", encoding="utf-8")
    answer = invoke(tool, {"query": "handler", "limit": 200}, Call(workspace=Workspace.at(tmp_path), budget=300))
    first = answer.text.split("\n", 1)[0]
    assert first.startswith("[") and "left out to stay within the 300-token budget" in first, first
    assert approx_tokens(answer.text) <= 300


@pytest.mark.parametrize("ft", ["python", "typescript", "c"])
def test_the_docs_tools_on_a_big_file_hold_the_budget(ft: str, tmp_path: Path) -> None:
    name, origin = _big_file(ft, tmp_path)
    session = Session(server_pool=ServerPool)
    try:
        call = Call(workspace=Workspace.at(tmp_path), budget=BUDGET, session=session)
        found = invoke("docs", {"action": "search", "query": "get", "limit": 100}, call)
        assert approx_tokens(found.text) <= BUDGET, origin
        answers = [found, invoke("docs", {"action": "list", "module": Path(name).stem}, call)]
        answers += [invoke("docs", {"action": "get", "id": hit["id"]}, call) for hit in found.data["results"][:3]]
    finally:
        session.close()
    assert all(approx_tokens(a.text) <= BUDGET for a in answers), origin
