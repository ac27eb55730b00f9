"""The outline pipeline is linear in the number of definitions (issue 11, "No hangs").

No wall time here (CI shares two cores): each step's cost is counted, deterministically,
as the Python calls (and lines) it runs (`sys.settrace`) and the bytes it allocates
(`tracemalloc`, the growth between two calls summed, so a copy freed at once still
counts). A step run on N and on 4N definitions costs about 4x when it is linear and
about 16x when it is quadratic; `BOUND` sits between, above the few percent a sort or a
fixed cost adds. Speed itself is measured by `make bench` (bench/speed.py, "linearity").
"""

from __future__ import annotations

import gc
import sys
import tracemalloc
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from simple_brief import languages, scan
from simple_brief.model import Diagnostic, Position, Range, Severity
from simple_brief.render.blockmarks import render_expanded, render_outline
from simple_brief.render.symbols_view import render_symbols_view
from simple_brief.render.table import render_table
from simple_brief.source import Source
from simple_brief.tools.read import find_symbol

#: Definitions in the smaller file; the larger has four times as many.
N = 400
#: Largest cost ratio accepted between the two: linear steps measure 3.8-4.2 (fixed costs and
#: a sort), the quadratic ones this test was written against 5.3 and more at this N, 16 at most.
BOUND = 4.75


def cost(step: Callable[[], object], lines: bool = False) -> tuple[int, int]:
    """(calls, and with `lines` the lines, run; bytes allocated) by `step()`. Calls only are
    faster to count, but a loop that calls nothing goes unseen."""
    counts = {"events": 0, "bytes": 0, "last": 0}

    def line(frame: FrameType, event: str, arg: Any) -> Any:
        counts["events"] += 1
        return line

    def call(frame: FrameType, event: str, arg: Any) -> Any:
        current, peak = tracemalloc.get_traced_memory()
        counts["events"] += 1
        counts["bytes"] += max(0, peak - counts["last"])
        counts["last"] = current
        tracemalloc.reset_peak()
        return line if lines else None

    was_tracing = tracemalloc.is_tracing()
    old_trace = sys.gettrace()
    gc_was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()  # a collection frees memory at a point that depends on the tests run before
    if not was_tracing:
        tracemalloc.start()
    counts["last"] = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    sys.settrace(call)
    try:
        step()
    finally:
        sys.settrace(old_trace)
        _current, peak = tracemalloc.get_traced_memory()
        counts["bytes"] += max(0, peak - counts["last"])
        if not was_tracing:
            tracemalloc.stop()
        if gc_was_enabled:
            gc.enable()
    return counts["events"], counts["bytes"]


def ratios(make: Callable[[int], Callable[[], object]], lines: bool = False) -> tuple[float, float]:
    """Cost of `make(4 * N)()` over the cost of `make(N)()`: (lines and calls, bytes)."""
    small = cost(make(N), lines)
    large = cost(make(4 * N), lines)
    return large[0] / small[0], large[1] / small[1]


def outline_of(name: str, text: str) -> scan.Outline:
    return scan.scan(Source(text), languages.for_path(name))


#: One trivial definition per language, `{i}` its number (the fallback: the line heuristic).
TRIVIAL = {
    "python": ("x.py", "def f{i}(): pass\n"),
    "lua": ("x.lua", "function f{i}() end\n"),
    "javascript": ("x.js", "function f{i}() {{}}\n"),
    "c": ("x.c", "int f{i}(void) {{ return 0; }}\n"),
    "markdown": ("x.md", "# Heading {i}\n\nText.\n\n"),
    "fallback": ("x.kt", "fun f{i}() {{ }}\n"),
}


def trivial(language: str, n: int) -> tuple[str, str]:
    name, line = TRIVIAL[language]
    return name, "".join(line.format(i=i) for i in range(n))


def steps(name: str, text: str) -> dict[str, Callable[[], object]]:
    """Every step of the pipeline on one file: scan, the four views, expand_at by line."""
    outline = outline_of(name, text)
    middle = outline.symbols[len(outline.symbols) // 2].range.start.line + 1

    def expand() -> str:
        return render_expanded(outline, find_symbol(outline, f"line:{middle}", name))

    return {
        "scan": lambda: outline_of(name, text),
        "outline": lambda: render_outline(outline, outline.diagnostics),
        "compact": lambda: render_outline(outline, outline.diagnostics, "compact"),
        "symbols": lambda: render_symbols_view(outline, name, "signature"),
        "table": lambda: render_table(outline.symbols, "yes"),
        "expand_at": expand,
    }


@pytest.mark.parametrize("language", sorted(TRIVIAL))
def test_pipeline_is_linear_in_trivial_definitions(language: str) -> None:
    small = steps(*trivial(language, N))
    large = steps(*trivial(language, 4 * N))
    found = {}
    for step in small:
        (e1, b1), (e2, b2) = cost(small[step]), cost(large[step])
        found[step] = (round(e2 / e1, 2), round(b2 / b1, 2))
    slow = {step: r for step, r in found.items() if max(r) > BOUND}
    assert not slow, f"{language}: cost ratios for 4x the definitions (lines+calls, bytes): {found}"


def test_constructor_fields_are_hoisted_in_linear_time() -> None:
    """Each field set in `__init__` is listed under its class once per name."""

    def make(n: int) -> Callable[[], object]:
        text = "class A:\n    def __init__(self):\n" + "".join(f"        self.a{i} = {i}\n" for i in range(n))
        return lambda: outline_of("x.py", text)

    assert max(ratios(make)) < BOUND


def test_imports_between_definitions_are_summarised_in_linear_time() -> None:
    """Includes a line apart merge into one span that holds the definitions between them;
    each gap inside it starts at the span's first line."""

    def make(n: int) -> Callable[[], object]:
        text = "".join(f"#include <h{i}.h>\nint f{i}(void) {{ return 0; }}\n" for i in range(n))
        outline = outline_of("x.c", text)
        return lambda: render_outline(outline, outline.diagnostics)

    assert max(ratios(make)) < BOUND


def test_many_diagnostics_are_placed_in_linear_time() -> None:
    """One editor diagnostic per definition (the language server's render passes them)."""

    def make(n: int) -> Callable[[], object]:
        name, text = trivial("python", n)
        outline = outline_of(name, text)
        diags = [Diagnostic(Range(Position(i, 0), Position(i, 3)), "unused", Severity.Warning) for i in range(n)]
        return lambda: render_outline(outline, diags)

    assert max(ratios(make)) < BOUND


def test_fallback_container_body_is_looked_for_once() -> None:
    """A container whose body starts with brace-only lines (the line heuristic)."""

    def make(n: int) -> Callable[[], object]:
        text = "class A\n" + "    {\n" * n + "    val a: Int = 0\n"
        return lambda: outline_of("x.kt", text)

    assert max(ratios(make, lines=True)) < BOUND


def test_minified_non_ascii_line_is_read_in_linear_time() -> None:
    """Every definition on one long line with a non-ASCII character (minified code)."""

    def make(n: int) -> Callable[[], object]:
        text = "".join(f"function f{i}(){{}}" for i in range(n)) + "// é\n"
        return lambda: outline_of("x.js", text)

    assert max(ratios(make)) < BOUND


def test_cost_counts_a_quadratic_step() -> None:
    """The measure itself: a quadratic step is caught, a linear one passes."""

    def quadratic(n: int) -> Callable[[], object]:
        items = list(range(n))
        return lambda: [items[:i] for i in range(n)] and None

    def linear(n: int) -> Callable[[], object]:
        items = list(range(n))
        return lambda: [items[i : i + 8] for i in range(n)] and None

    for lines in (False, True):
        assert max(ratios(quadratic, lines)) > 3 * BOUND
        assert max(ratios(linear, lines)) < BOUND
