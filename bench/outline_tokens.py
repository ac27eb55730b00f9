"""Outline tokens against the source and against an Aider-style repo map of the same
files, built here the way Aider's map shows a file (its name, then each definition's
line as it is written, `│`-prefixed, `⋮` between them), and the `names` tier. Same
files (the bench corpus: real code found on this machine), same run, o200k tokens.

Issue 30's targets: the outline at most 0.8x the Aider-style map's tokens and at most 15%
of the source (median per file), every definition still named (issue 18's was 1.0x). Also
printed: the share of the outline that is its line spans (the map has none), and both
figures per language.

    .venv/bin/python bench/outline_tokens.py [--quick]

Prints a markdown table and writes it between markers into bench/results/latest.md.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "bench"))

from corpus import discover  # noqa: E402
from measure import Tokenizer  # noqa: E402
from report import markdown_table, verdict, write_block  # noqa: E402
from simple_brief import languages  # noqa: E402
from simple_brief.model import walk_with_parent  # noqa: E402
from simple_brief.render.blockmarks import render_outline  # noqa: E402
from simple_brief.render.names import render_names  # noqa: E402
from simple_brief.scan import scan  # noqa: E402
from simple_brief.source import Source  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "latest.md"
#: Most outline tokens per token of the Aider-style map (issue 30).
VS_AIDER_TARGET = 0.8
#: Most outline tokens per source token, median per file.
VS_SOURCE_TARGET = 0.15
#: An outline line's span (`… { ... } L3-5`): what the Aider-style map does not have.
SPAN = re.compile(r" L\d+(?:-\d+)?$", re.M)


def aider_map(name: str, outline_source: Source, symbols: list) -> str:  # type: ignore[type-arg]
    """A file as Aider's repo map shows it: its name, every definition's first line."""
    lines = [f"{name}:"]
    for sym, _ in walk_with_parent(symbols):
        row = sym.selection_range.start.line
        text = outline_source.lines[row].rstrip() if row < len(outline_source.lines) else ""
        lines.append("⋮...")
        lines.append(f"│{text}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count = Tokenizer().count
    corpus = discover(ROOT, args.quick)
    totals = {"source": 0, "outline": 0, "names": 0, "aider": 0, "no_spans": 0}
    ratios: list[float] = []
    aider_ratios: list[float] = []
    #: language -> [outline tokens, map tokens, outline/source per file]
    per_language: dict[str, tuple[list[int], list[float]]] = {}
    files = 0
    for language, paths in sorted(corpus.files.items()):
        spec = languages.by_name(language)
        if spec is None:
            continue
        for path in paths:
            text = path.read_text(encoding="utf-8", errors="replace")
            outline = scan(text, spec)
            if not outline.symbols:
                continue
            source_t = count(text)
            rendered = render_outline(outline, outline.diagnostics)
            outline_t = count(rendered)
            totals["source"] += source_t
            totals["outline"] += outline_t
            totals["no_spans"] += count(SPAN.sub("", rendered))
            totals["names"] += count(render_names(outline.symbols))
            aider_t = count(aider_map(path.name, outline.source, outline.symbols))
            totals["aider"] += aider_t
            aider_ratios.append(aider_t / max(source_t, 1))
            ratios.append(outline_t / max(source_t, 1))
            sums, shares = per_language.setdefault(language, ([0, 0], []))
            sums[0] += outline_t
            sums[1] += aider_t
            shares.append(outline_t / max(source_t, 1))
            files += 1
    median = statistics.median(ratios)
    vs_aider = totals["outline"] / totals["aider"]
    rows = [
        (
            f"outline tokens vs an Aider-style map, {files} files",
            f"{totals['outline']:,} vs {totals['aider']:,} ({vs_aider:.2f}x)",
            f"<= {VS_AIDER_TARGET}x",
            verdict(vs_aider <= VS_AIDER_TARGET),
        ),
        (
            "outline / source, median per file",
            f"{median:.1%} (total {totals['outline'] / totals['source']:.1%})",
            f"<= {VS_SOURCE_TARGET:.0%}",
            verdict(median <= VS_SOURCE_TARGET),
        ),
        (
            "the Aider-style map / source, median per file (first lines only, no spans)",
            f"{statistics.median(aider_ratios):.1%}",
            "—",
            "—",
        ),
        (
            "the outline's line spans (` L3-5`), share of its tokens; the outline without them vs the map",
            f"{1 - totals['no_spans'] / totals['outline']:.1%}; {totals['no_spans'] / totals['aider']:.2f}x",
            "—",
            "—",
        ),
        (
            "`names` tier vs the Aider-style map",
            f"{totals['names']:,} ({totals['names'] / totals['aider']:.2f}x)",
            "—",
            "—",
        ),
    ]
    for language, ((outline_sum, aider_sum), shares) in sorted(per_language.items()):
        rows.append(
            (
                f"{language} ({len(shares)} files): outline vs the map; outline / source, median",
                f"{outline_sum / aider_sum:.2f}x; {statistics.median(shares):.1%}",
                "—",
                "—",
            )
        )
    table = "\n".join(
        [
            "## Outline tokens (`bench/outline_tokens.py`, the bench corpus, o200k)",
            "",
            markdown_table(("Measure", "Value", "Target", "Result"), rows),
        ]
    )
    print(table)
    write_block(RESULTS, "outline-tokens", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
