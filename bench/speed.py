"""Timings: outline vs bare tree-sitter parse on a ~10,000-line file, corpus throughput."""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from simple_brief import languages, scan
from simple_brief.model import walk_all
from simple_brief.render.blockmarks import render_outline
from simple_brief.source import Source

#: Lines the large-file test aims for.
BIG_LINES = 10_000


#: Wrappers that keep joined files valid: a Lua chunk may `return` only at the end of a block.
WRAP = {"lua": (b"do\n", b"end\n")}


def build_big_file(files: list[Path], language: str, target: int = BIG_LINES) -> tuple[bytes, int, list[str]]:
    """Whole real files of one language joined to about `target` lines: (bytes, lines, names used).

    Files are taken largest first while they fit under 110% of the target, never cut (a cut
    file is a syntax error); when the language has too few lines on the machine, they repeat.
    """
    head, tail = WRAP.get(language, (b"", b""))
    sized: list[tuple[int, str, bytes, int]] = []
    for path in files:
        try:
            data = path.read_bytes()
            data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if b"\0" not in data and data.strip():
            if not data.endswith(b"\n"):
                data += b"\n"
            data = head + data + tail
            sized.append((-len(data), path.name, data, data.count(b"\n")))
    sized.sort()
    chunks: list[bytes] = []
    names: list[str] = []
    lines = 0
    while sized and lines < 0.95 * target:
        added = False
        for _size, name, data, count in sized:
            if lines + count <= 1.1 * target or not chunks:
                chunks.append(data)
                names.append(name)
                lines += count
                added = True
            if lines >= 0.95 * target:
                break
        if not added:
            break
    return b"".join(chunks), lines, names


@dataclass
class BigFileResult:
    language: str
    lines: int
    files: list[str]
    engine: str
    syntax_errors: bool
    outline_ms: float
    parse_ms: float
    symbols: int

    @property
    def ratio(self) -> float:
        return self.outline_ms / self.parse_ms if self.parse_ms else float("nan")


def _timed(fn) -> float:  # type: ignore[no-untyped-def]
    gc.collect()
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def big_file(language: str, files: list[Path], runs: int) -> BigFileResult | None:
    """Median outline time (decode + scan + render) and bare parse time (Parser + parse) of one big file."""
    from tree_sitter import Parser

    data, lines, used = build_big_file(files, language)
    if lines == 0:
        return None
    spec = languages.by_name(language)
    if spec is None or not spec.has_grammar:
        return None
    grammar = languages.grammar(spec)
    found: list[int] = []
    engines: list[str] = []
    errors: list[bool] = []

    def outline() -> None:
        out = scan.scan(Source.from_bytes(data), spec)
        render_outline(out, out.diagnostics)
        found.append(sum(1 for _ in walk_all(out.symbols)))
        engines.append("tree-sitter" if out.tree is not None else "heuristic")
        errors.append(out.tree is not None and out.tree.root_node.has_error)

    def parse() -> None:
        Parser(grammar).parse(data)

    outline()
    parse()
    outline_ms: list[float] = []
    parse_ms: list[float] = []
    for _ in range(runs):
        parse_ms.append(_timed(parse))
        outline_ms.append(_timed(outline))
    return BigFileResult(
        language,
        lines,
        used,
        engines[-1],
        errors[-1],
        statistics.median(outline_ms),
        statistics.median(parse_ms),
        found[-1],
    )


@dataclass
class Throughput:
    """Per-language totals of one in-process pass over the corpus (best of the passes)."""

    files: int = 0
    symbols: int = 0
    scan_s: float = 0.0
    render_s: float = 0.0
    parse_s: float = 0.0
    passes: list[tuple[float, float, float]] = field(default_factory=list)


def throughput(files: list[Path], passes: int) -> Throughput:
    """Per file: read + decode + scan (extraction, compared with ctags), then render_outline,
    then (for reference) a bare tree-sitter parse of the same bytes.

    Each pass runs over every file in order; totals are the best (lowest) pass, as for ctags:
    on a shared machine the minimum is the least noisy estimate of the work itself.
    """
    from tree_sitter import Parser

    out = Throughput()
    for n in range(passes):
        scan_s = render_s = parse_s = 0.0
        symbols = ok = 0
        gc.collect()
        for path in files:
            start = time.perf_counter()
            try:
                outline = scan.scan(Source.from_bytes(path.read_bytes()), languages.for_path(path))
            except Exception:  # counted as failed by measure.py; not timed
                continue
            mid = time.perf_counter()
            render_outline(outline, outline.diagnostics)
            end = time.perf_counter()
            scan_s += mid - start
            render_s += end - mid
            ok += 1
            if outline.language.has_grammar:
                data = outline.source.data
                start = time.perf_counter()
                Parser(languages.grammar(outline.language)).parse(data)
                parse_s += time.perf_counter() - start
            if n == 0:
                symbols += sum(1 for _ in walk_all(outline.symbols))
        if n == 0:
            out.files, out.symbols = ok, symbols
        out.passes.append((scan_s, render_s, parse_s))
    out.scan_s = min(p[0] for p in out.passes)
    out.render_s = min(p[1] for p in out.passes)
    out.parse_s = min(p[2] for p in out.passes)
    return out
