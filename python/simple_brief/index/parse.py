"""Turning one file into symbol rows and doc items: what the file store's workers run (in
other processes). A file is parsed once for both: a file the docs index reads
(`languages.documented`) gets the full scan, whose symbols give the same rows as the lean
scan (`tests/index/test_parse_lean.py`), and its doc items (`docs.items.extract`); any
other file gets the lean scan and rows only.

A row holds everything `search` and `workspace_symbols` show and rank by, so a query
never parses: the name, its qualified path (`User.greet`), the container, the kind, the
range and selection range, and the signature preview (`render.search.signature_preview`).
Rows keep two orders of the file's symbols: `seq`, the order `search` ranks them in
(`model.qualified`: by start), and `walk`, depth first (`workspace_symbols`
with an empty query).
"""

from __future__ import annotations

import gc
import json
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path

from simple_brief import languages
from simple_brief.docs.db import FileRows, content_hash, file_rows
from simple_brief.docs.items import extract
from simple_brief.docs.libraries import WORKSPACE
from simple_brief.errors import UserError
from simple_brief.files.beneath import read_beneath
from simple_brief.files.path_escapes import escape_path
from simple_brief.files.workspace import SKIP_BINARY, SKIP_TOO_BIG, SKIP_UNREADABLE
from simple_brief.index.symbol_search import words
from simple_brief.model import (
    Diagnostic,
    Position,
    Range,
    Severity,
    Symbol,
    SymbolKind,
    qualified,
)
from simple_brief.render.search import signature_preview
from simple_brief.scan import Outline, scan
from simple_brief.source import Source

#: One symbol as stored: (seq, walk, name, qual, container, kind, sl, sc, el, ec, ssl, ssc, sel, sec, preview, words).
Row = tuple[int, int, str, str, str, int, int, int, int, int, int, int, int, int, str, str]


@dataclass
class Parsed:
    """What a worker found for one file: its rows, or why it was skipped, or that its
    content did not change (`same`, only the stat is new)."""

    rel: str
    mtime_ns: int
    size: int
    hash: str = ""
    language: str = ""
    rows: list[Row] = field(default_factory=list)
    skipped: str | None = None
    same: bool = False
    diagnostics: str | None = None
    #: The doc items (a documented file, when the job asked for them); `docs_read`
    #: False when the file could not be read as text (kept with no items, as the docs
    #: index keeps it).
    docs: FileRows | None = None
    docs_read: bool = True


def rows_of(outline: Outline) -> list[Row]:
    """The rows of a parsed document."""
    walk: dict[int, int] = {}  # depth-first numbers (`walk_with_parent`'s order), without its generators
    stack = outline.symbols[::-1]
    while stack:
        sym = stack.pop()
        walk[id(sym)] = len(walk)
        stack += sym.children[::-1]
    lines = outline.source.lines
    rows: list[Row] = []
    for seq, (sym, qual, container) in enumerate(qualified(outline.symbols)):
        r, s = sym.range, sym.selection_range
        rows.append(
            (
                seq,
                walk[id(sym)],
                sym.name,
                qual,
                container,
                int(sym.kind),
                r.start.line,
                r.start.character,
                r.end.line,
                r.end.character,
                s.start.line,
                s.start.character,
                s.end.line,
                s.end.character,
                signature_preview(lines, sym),
                " ".join(words(sym.name)),
            )
        )
    return rows


def diagnostics_json(outline: Outline) -> str | None:
    """The document's own findings as JSON (None when one carries more than a range,
    message, severity, code and source: the diagnostics tool then parses the file)."""
    out = []
    for d in outline.diagnostics:
        if d.fixits or d.lsp_data is not None:
            return None
        r = d.range
        out.append(
            [r.start.line, r.start.character, r.end.line, r.end.character, d.message, int(d.severity), d.code, d.source]
        )
    return json.dumps(out, separators=(",", ":"))


def diagnostics_from(text: str) -> list[Diagnostic]:
    """The findings `diagnostics_json` stored."""
    return [
        Diagnostic(Range(Position(sl, sc), Position(el, ec)), message, Severity(severity), code, source)
        for sl, sc, el, ec, message, severity, code, source in json.loads(text)
    ]


def symbol_of(
    name: str, kind: int, sl: int, sc: int, el: int, ec: int, ssl: int, ssc: int, sel: int, sec: int
) -> Symbol:
    """The Symbol (without children) of a row's columns."""
    return Symbol(
        name=name,
        kind=SymbolKind(kind),
        range=Range(Position(sl, sc), Position(el, ec)),
        selection_range=Range(Position(ssl, ssc), Position(sel, sec)),
    )


#: What a job asks for besides the rows: None (rows only), else the doc items of a
#: documented file, private ones too when True.
DocsWanted = bool | None


def parse_file(
    root: Path,
    rel: str,
    real_rel: str,
    old_hash: str,
    max_bytes: int,
    stat: tuple[int, int],
    docs: DocsWanted = None,
) -> Parsed:
    """Read `root/real_rel` (no symlink followed) and parse it once; `same` when its hash is
    `old_hash`. With `docs` (not None), a documented file's doc items come from that parse."""
    mtime_ns, size = stat
    shown = rel
    try:
        data = read_beneath(root, real_rel, max_bytes, shown)
    except UserError as err:
        reason = SKIP_TOO_BIG if "limit" in str(err) else SKIP_UNREADABLE
        return Parsed(rel, mtime_ns, size, skipped=reason)
    except OSError:
        return Parsed(rel, mtime_ns, size, skipped=SKIP_UNREADABLE)
    digest = content_hash(data)
    if digest == old_hash:
        return Parsed(rel, mtime_ns, size, hash=digest, same=True)
    try:
        source = Source.from_bytes(data, name=shown, max_bytes=max_bytes)
    except UserError as err:
        reason = SKIP_BINARY if "binary" in str(err) else SKIP_TOO_BIG
        unread = FileRows() if reason == SKIP_BINARY and docs is not None and languages.documented(rel) else None
        return Parsed(rel, mtime_ns, size, hash=digest, skipped=reason, docs=unread, docs_read=False)
    spec = languages.detect(root / real_rel, None)
    documented = docs is not None and languages.documented(rel)
    full = documented and languages.for_path(rel) is spec
    outline = scan(source, spec, lean=not full)
    parsed = Parsed(
        rel,
        mtime_ns,
        size,
        hash=digest,
        language=spec.name,
        rows=rows_of(outline),
        diagnostics=diagnostics_json(outline),
    )
    if documented:
        parsed.docs, parsed.docs_read = docs_of(outline if full else None, source, root, rel, bool(docs))
    return parsed


def docs_of(outline: Outline | None, source: Source, root: Path, rel: str, private: bool) -> tuple[FileRows, bool]:
    """The rows of a workspace file's doc items (`docs.db.file_rows`, made here in the worker)
    from its full scan (None: scan it as its name reads, a symlink whose target's name reads
    as another language), and whether it could be read."""
    shown = escape_path(rel)
    try:
        full = outline if outline is not None else scan(source, languages.for_path(rel))
        return file_rows(WORKSPACE, shown, extract(full, shown, root, WORKSPACE, private=private)), True
    except Exception:  # text it cannot read (UserError), or a scanner bug: it must not stop the index
        return FileRows(), False


def read_digest(root: Path, real_rel: str, max_bytes: int) -> str | None:
    """The content hash of `root/real_rel` (None when it cannot be read or is too big)."""
    try:
        return content_hash(read_beneath(root, real_rel, max_bytes))
    except (UserError, OSError):
        return None


def copy_of(
    original: Parsed, root: Path, job: tuple[str, str, str, tuple[int, int]], digest: str, docs: DocsWanted = None
) -> Parsed | None:
    """What `parse_file` gives for the file of `job`, whose content hash (`digest`) is that
    of the file `original` was parsed from: the same rows and diagnostics (a scan reads
    only the text and the language). None when `original` holds no rows to copy (skipped,
    unchanged, another content or language), or the copy's doc items are wanted (they name
    its own path and module): parse the file instead."""
    rel, real_rel, old_hash, (mtime_ns, size) = job
    if original.skipped is not None or original.same or original.hash != digest:
        return None
    if digest == old_hash:
        return Parsed(rel, mtime_ns, size, hash=digest, same=True)
    if docs is not None and languages.documented(rel):
        return None
    if languages.detect(root / real_rel, None).name != original.language:
        return None
    return Parsed(
        rel,
        mtime_ns,
        size,
        hash=digest,
        language=original.language,
        rows=original.rows,
        diagnostics=original.diagnostics,
    )


def parse_chunk(
    root: str, jobs: list[tuple[str, str, str, tuple[int, int]]], max_bytes: int, docs: DocsWanted = None
) -> list[Parsed]:
    """A worker's chunk: (rel, real rel, old hash, stat) per file."""
    base = Path(root)
    out = []
    for rel, real_rel, old_hash, stat in jobs:
        try:
            out.append(parse_file(base, rel, real_rel, old_hash, max_bytes, stat, docs))
        except Exception:
            out.append(Parsed(rel, *stat, skipped=SKIP_UNREADABLE))
    return out


def parse_packed(
    root: str, jobs: list[tuple[str, str, str, tuple[int, int]]], max_bytes: int, docs: DocsWanted = None
) -> bytes:
    """`parse_chunk`, pickled: what a worker sends back waits as bytes (a fraction of the
    memory of the rows as objects) until it is stored (`unpack`).

    The cycle collector waits for the chunk's end: a scan makes hundreds of thousands of
    small objects, almost all freed by their reference counts, and the collections they
    would trigger on the way (each walking every object alive) cost ~10-15% of the parse."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        parsed = parse_chunk(root, jobs, max_bytes, docs)
    finally:
        if collecting:
            gc.enable()
    return pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL)


def unpack(packed: bytes) -> list[Parsed]:
    """What `parse_packed` sent."""
    parsed: list[Parsed] = pickle.loads(packed)
    return parsed


def worker_count() -> int:
    """One worker process per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
