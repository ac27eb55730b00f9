"""Markdown helpers: one summary table, then details sections."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from pathlib import Path

HEADER = ("Section", "Measure", "Value", "Baseline", "Target", "Result")


class Table:
    """Rows of the single summary table; a section name is shown on its first row only."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []
        self._section = ""
        self._shown = ""

    def section(self, name: str) -> None:
        self._section = name

    def add(self, measure: str, value: str, baseline: str = "—", target: str = "—", result: str = "—") -> None:
        shown = "" if self._section == self._shown else f"**{self._section}**"
        self._shown = self._section
        self.rows.append((shown, measure, value, baseline, target, result))

    def markdown(self) -> str:
        return markdown_table(HEADER, self.rows)


def markdown_table(header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    lines.extend("| " + " | ".join(cell(c) for c in row) + " |" for row in rows)
    return "\n".join(lines)


def cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def verdict(ok: bool | None) -> str:
    if ok is None:
        return "—"
    return "pass" if ok else "**FAIL**"


def median(values: Iterable[float]) -> float:
    vals = list(values)
    return statistics.median(vals) if vals else float("nan")


def pct(x: float, digits: int = 1) -> str:
    return "n/a" if x != x else f"{100 * x:.{digits}f}%"


def num(x: float) -> str:
    if x != x:
        return "n/a"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.1f}" if abs(x) >= 10 else f"{x:,.2f}"


def write_block(results: Path, name: str, table: str) -> None:
    """Put `table` between the `<!-- name:start -->` and `<!-- name:end -->` markers of the
    results file (added at its end the first time); the rest of the file is kept."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    text = results.read_text(encoding="utf-8")
    block = f"{start}\n{table}\n{end}"
    before, found, rest = text.partition(start)
    text = before + block + rest.partition(end)[2] if found else f"{text.rstrip()}\n\n{block}\n"
    results.write_text(text, encoding="utf-8")
