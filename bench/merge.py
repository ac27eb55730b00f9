"""The three-way merge of `edit_propose` (intel/merge.py) on real files nobody here wrote (the
standard library's largest modules), against one plain difflib diff of the whole file in the
same run (the baseline: what each of the merge's two diffs cost before they set aside the
lines both texts begin and end with).

Each file gets two one-line edits: the person's near the top, the agent's near the end
(far apart: the case the merge must combine), and the same with both in the middle.

    .venv/bin/python bench/merge.py

Prints a markdown table (best of 5 runs each).
"""

from __future__ import annotations

import difflib
import sys
import sysconfig
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from simple_brief.intel import merge  # noqa: E402

FILES = ("_pydecimal.py", "typing.py", "argparse.py", "inspect.py")
RUNS = 5


def _best_ms(fn: object) -> float:
    return min(timeit.repeat(fn, number=1, repeat=RUNS)) * 1000  # type: ignore[arg-type]


def main() -> int:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    rows = [
        "| file | lines | edits | merge3 ms | difflib ms (baseline) | ratio |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name in FILES:
        path = stdlib / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        n = len(lines)
        for label, mine, theirs in (("far apart", n // 50, n - n // 20), ("middle", n // 2, n // 2 + 5)):
            ours = "\n".join([*lines[:mine], "# the person's line", *lines[mine:]])
            agent = "\n".join([*lines[:theirs], "# the agent's line", *lines[theirs:]])
            merged = merge.merge3(text, ours, agent)
            assert not merged.conflicts and "# the agent's line" in merged.text
            ms = _best_ms(lambda text=text, ours=ours, agent=agent: merge.merge3(text, ours, agent))
            agent_lines = agent.split("\n")
            base = _best_ms(
                lambda lines=lines, agent_lines=agent_lines: difflib.SequenceMatcher(
                    None, lines, agent_lines, autojunk=False
                ).get_opcodes()
            )
            rows.append(f"| {name} | {n:,} | {label} | {ms:.1f} | {base:.1f} | {ms / base:.2f} |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
