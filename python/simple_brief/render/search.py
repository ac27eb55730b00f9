"""`search` results in seed 002's layout: a summary block, then one block per file.

Found 3 matches for query "user" across 2 files

src/user.py (2 results)
  @7:7 Class - User
    `class User(Base): kind = "x" def __init__(self, name, age): self.name = name ...`

`@line:char` is where the name is (LSP's selectionRange), not the start of the doc
comment or decorators above it: an agent opening or editing there lands on the declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simple_brief.model import Symbol

#: Characters of the signature preview (seed 002's `createSignaturePreview` default).
PREVIEW_CHARS = 100
#: Source lines read for a preview.
PREVIEW_LINES = 6


@dataclass
class Match:
    """One symbol found by a search, with its rank score (higher is better)."""

    path: str
    symbol: Symbol
    score: float
    preview: str = ""

    def to_json(self, with_score: bool = True) -> dict[str, Any]:
        """The match as structured data: path, name, kind, the name's 1-based line and
        character, preview."""
        data: dict[str, Any] = {
            "path": self.path,
            "name": self.symbol.name,
            "kind": int(self.symbol.kind),
            "line": self.symbol.selection_range.start.line + 1,
            "character": self.symbol.selection_range.start.character + 1,
            "preview": self.preview,
        }
        if with_score:
            data["score"] = round(self.score, 2)
        return data


def signature_preview(lines: list[str], sym: Symbol) -> str:
    """The symbol's first lines from its name line, whitespace-folded, cut after the last whole
    word within 100 characters (as seed 002's previews are)."""
    first = sym.selection_range.start.line
    last = min(sym.range.end.line, first + PREVIEW_LINES - 1)
    text = " ".join(" ".join(lines[i].split()) for i in range(first, last + 1) if lines[i].strip())
    if len(text) <= PREVIEW_CHARS:
        return text
    cut = text[: PREVIEW_CHARS + 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > PREVIEW_CHARS // 2 else cut[:PREVIEW_CHARS]).rstrip() + "..."


def render_search(query: str, matches: list[Match], total: int, files_total: int) -> list[str]:
    """Summary block plus one block per file: the matches stay in score order (grouped by
    file only after ranking: files by their best match, a file's matches best first, ties
    by line)."""
    if not matches:
        return [f'Found 0 matches for query "{query}"']
    by_file: dict[str, list[Match]] = {}
    for m in matches:
        by_file.setdefault(m.path, []).append(m)
    order = sorted(by_file, key=lambda p: (-max(m.score for m in by_file[p]), p))
    files_word = "file" if files_total == 1 else "files"
    summary = f'Found {total} matches for query "{query}" across {files_total} {files_word}'
    if len(matches) < total:
        summary += f"; showing the best {len(matches)}: raise `limit` or narrow the query for the rest"
    blocks = [summary]
    for path in order:
        items = sorted(by_file[path], key=lambda m: (-m.score, m.symbol.range.start))
        noun = "result" if len(items) == 1 else "results"
        out = [f"{path} ({len(items)} {noun})"]
        for m in items:
            out.append(f"  @{m.symbol.selection_range.start.one_based()} {m.symbol.kind.name} - {m.symbol.name}")
            if m.preview:
                out.append(f"    `{m.preview}`")
        blocks.append("\n".join(out))
    return blocks
