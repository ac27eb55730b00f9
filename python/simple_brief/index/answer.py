"""What `search` and `workspace_symbols` call: the index when it can answer, the full scan
when it cannot (one file, a folder the listing does not walk into, a cache folder that
cannot be written), and the note on files left out."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

from simple_brief.docs import db
from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.index import SymbolIndex, symbol_index
from simple_brief.index.query import Found, full_scan, search_index
from simple_brief.model import ProgressFn, SymbolKind

log = logging.getLogger(__name__)


def find_symbols(
    ws: Workspace,
    query: str,
    *,
    path: str | None = None,
    kinds: set[SymbolKind] | None = None,
    limit: int = 50,
    display: Callable[[Path], str] | None = None,
    progress: ProgressFn | None = None,
    check: Callable[[], None] = lambda: None,
) -> Found:
    """Ranked definitions matching `query` in `ws` (under `path`), as the full scan finds them.

    Raises:
        UserError: `path` is refused or does not exist.
    """
    shown = display or ws.display
    under: str | None = None
    if path is not None:
        real = ws.resolve(path)
        if real in ws.overlays or not real.is_dir() or not ws.listed_folder(real):
            return full_scan(ws, query, path, kinds, limit, shown, check)
        under = None if real == ws.root else real.relative_to(ws.root).as_posix() + "/"
    try:
        index = symbol_index(ws)
        for attempt in range(2):
            try:
                index.ensure_fresh(progress)
                return search_index(index, query, under, kinds, limit, shown)
            except sqlite3.DatabaseError as exc:
                if attempt or not db.is_damage(exc):
                    raise
                index.recover(exc)
        raise AssertionError("unreachable")
    except (UserError, sqlite3.Error, OSError) as exc:
        log.warning("symbol index unusable, parsing every file instead: %s", exc)
        return full_scan(ws, query, path, kinds, limit, shown, check)


def fresh_index(ws: Workspace, path: str | None, progress: ProgressFn | None = None) -> SymbolIndex | None:
    """The workspace's index brought up to date, when `path` is the whole workspace or a
    folder its listing walks into (workspace-wide diagnostics read the stored findings
    instead of parsing every file); None otherwise or when it cannot be used."""
    try:
        if path is not None:
            real = ws.resolve(path)
            if real in ws.overlays or not real.is_dir() or not ws.listed_folder(real):
                return None
        index = symbol_index(ws)
        index.ensure_fresh(progress)
        return index
    except UserError:
        return None
    except (sqlite3.Error, OSError) as exc:
        log.warning("symbol index unusable, parsing every file instead: %s", exc)
        return None


def skip_note(counts: dict[str, int]) -> str:
    """`(2 files skipped: 1 over 1.0 MB, 1 binary)`, or "" when none were."""
    total = sum(counts.values())
    if not total:
        return ""
    parts = ", ".join(f"{n} {reason}" for reason, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return f" ({total} file{'s' if total != 1 else ''} skipped: {parts})"
