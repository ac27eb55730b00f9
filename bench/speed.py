"""Timings: outline vs bare tree-sitter parse on a ~10,000-line file, corpus throughput, and
linearity (outline time of N and 4N trivial definitions).

    .venv/bin/python bench/speed.py [--quick]    # the linearity rows alone
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from report import Table, verdict
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


def _timed(fn: Callable[[], object]) -> float:
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


#: One trivial definition per language for the linearity rows (`{i}` its number); "fallback"
#: is a language read by the line heuristic.
TRIVIAL = {
    "python": ("x.py", "def f{i}(): pass\n"),
    "lua": ("x.lua", "function f{i}() end\n"),
    "javascript": ("x.js", "function f{i}() {{}}\n"),
    "c": ("x.c", "int f{i}(void) {{ return 0; }}\n"),
    "markdown": ("x.md", "# Heading {i}\n\nText.\n\n"),
    "fallback": ("x.kt", "fun f{i}() {{ }}\n"),
}
#: Definitions in the smaller file (the larger has 4x): Python at the size of the report
#: in issue 11, the others smaller to keep the run short; --quick halves them.
LINEAR_N = {"python": 20_000}
LINEAR_N_DEFAULT = 5_000
#: Largest large/small ratio judged linear: 4.0 is exactly linear, a quadratic step gives 16.
TARGET_LINEAR_RATIO = 5.0


@dataclass
class Linearity:
    """Outline time (decode + scan + render_outline) of N and 4N trivial definitions, and the
    part of it CPython's cyclic garbage collector took."""

    language: str
    n: int
    small_ms: float
    large_ms: float
    small_gc_ms: float
    large_gc_ms: float
    symbols: int

    @property
    def ratio(self) -> float:
        """Of the whole times."""
        return self.large_ms / self.small_ms if self.small_ms else float("nan")

    @property
    def engine_ratio(self) -> float:
        """Of the times without the collector's passes."""
        small = self.small_ms - self.small_gc_ms
        return (self.large_ms - self.large_gc_ms) / small if small else float("nan")


def trivial_file(language: str, n: int) -> tuple[str, bytes]:
    """A file of `n` trivial definitions: (name, bytes)."""
    name, line = TRIVIAL[language]
    return name, "".join(line.format(i=i) for i in range(n)).encode()


class _GcClock:
    """Milliseconds spent in garbage collection while installed (`gc.callbacks`)."""

    def __init__(self) -> None:
        self.ms = 0.0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.ms += (time.perf_counter() - self._start) * 1000


def linearity(language: str, n: int, runs: int) -> Linearity:
    """Outline time of n and 4n trivial definitions, measured alternately; of each size the
    fastest run (with the collector's share of that run)."""
    spec_name, small = trivial_file(language, n)
    _name, large = trivial_file(language, 4 * n)
    spec = languages.for_path(spec_name)
    found: list[int] = []

    def outline(data: bytes) -> None:
        out = scan.scan(Source.from_bytes(data), spec)
        render_outline(out, out.diagnostics)
        found.append(sum(1 for _ in walk_all(out.symbols)))

    def timed(data: bytes) -> tuple[float, float]:
        clock = _GcClock()
        gc.collect()
        gc.callbacks.append(clock)
        try:
            start = time.perf_counter()
            outline(data)
            return (time.perf_counter() - start) * 1000, clock.ms
        finally:
            gc.callbacks.remove(clock)

    outline(small)  # warm-up: grammar and query loaded once
    small_runs: list[tuple[float, float]] = []
    large_runs: list[tuple[float, float]] = []
    for _ in range(runs):
        small_runs.append(timed(small))
        large_runs.append(timed(large))
    (small_ms, small_gc), (large_ms, large_gc) = min(small_runs), min(large_runs)
    return Linearity(language, n, small_ms, large_ms, small_gc, large_gc, found[-1])


def linearity_rows(table: Table, quick: bool) -> list[Linearity]:
    """Add one row per language of `TRIVIAL` to `table`: outline time of N and 4N trivial
    definitions and their ratio (SPEC: the outline is linear in the number of definitions).

    Judged on the time without the cyclic garbage collector's passes: they visit the whole
    heap each time it has grown by a quarter, which is linear in the end but, from these
    sizes, still grows faster than the heap (the interpreter's own objects weigh less and
    less). Both ratios are shown."""
    table.section("Speed")
    runs = 1 if quick else 2
    results: list[Linearity] = []
    for language in TRIVIAL:
        n = LINEAR_N.get(language, LINEAR_N_DEFAULT) // (2 if quick else 1)
        print(f"[bench] {language}: linearity, {n:,} and {4 * n:,} definitions", file=sys.stderr, flush=True)
        res = linearity(language, n, runs)
        results.append(res)
        table.add(
            f"{language}: outline of {n:,} and {4 * n:,} trivial definitions, time ratio",
            f"{res.engine_ratio:.2f}x without the garbage collector's passes; {res.ratio:.2f}x with them "
            f"({res.small_ms:,.0f} ms vs {res.large_ms:,.0f} ms, of which GC {res.small_gc_ms:,.0f} and "
            f"{res.large_gc_ms:,.0f} ms; {res.symbols:,} symbols)",
            f"4.0x = linear, 16x = quadratic; fastest of {runs}",
            f"<= {TARGET_LINEAR_RATIO:.1f}x",
            verdict(res.engine_ratio <= TARGET_LINEAR_RATIO),
        )
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="outline linearity rows")
    parser.add_argument("--quick", action="store_true", help="half the definitions, fewer runs")
    table = Table()
    linearity_rows(table, parser.parse_args().quick)
    print(table.markdown())
