"""The docs toolset: one tool, `docs`, whose `action` is search, get (part=doc|examples|related),
list, resolve or index (seed 004's documentation system; seed 004's docs_search, docs_get,
docs_list, docs_resolve, docs_index, docs_examples and docs_related, one tool since issue 30:
every listed tool costs the agent tokens on every turn).

The index is the workspace's file store's (`index.docs_index`: the symbol index keeps both
current from one parse per file) and is brought up to date before each call
(`DocsIndex.refresh` only re-reads files whose content changed); progress goes to
`call.report` (MCP progress notifications, the CLI's bar).
"""

from __future__ import annotations

import contextlib
import re
import textwrap
import time
from typing import Annotated, Any, Literal

from rapidfuzz import fuzz, process
from tree_sitter import Node, Parser

from simple_brief import index as file_store
from simple_brief import languages
from simple_brief.docs.index import DocsIndex
from simple_brief.docs.indexing import RefreshStats
from simple_brief.docs.model import Example, Item
from simple_brief.errors import UserError
from simple_brief.model import ProgressFn
from simple_brief.render import docs as render
from simple_brief.tools import Call, Doc, ToolResult, hints, tool

#: Seconds between two progress reports passed on (the first and the last always are).
PROGRESS_INTERVAL = 0.1
#: Most results one docs call lists.
MAX_LIMIT = 100
#: Ids named in an "unknown id" sentence.
SUGGESTIONS = 5


class _Throttled:
    """A progress function passed on at most every PROGRESS_INTERVAL seconds (and always
    the first and the final report), so a walk over thousands of files costs a few
    notifications, not thousands."""

    def __init__(self, report: ProgressFn) -> None:
        self.report = report
        self.last: float | None = None

    def __call__(self, done: float, total: float | None, message: str) -> None:
        now = time.monotonic()
        final = total is not None and done >= total
        if final or self.last is None or now - self.last >= PROGRESS_INTERVAL:
            self.last = now
            self.report(done, total, message)


def _open(call: Call) -> DocsIndex:
    """The workspace's docs index, kept current by its file store (`index.docs_index`), which
    the host closes with the workspace."""
    return file_store.docs_index(call.workspace)


def _index(call: Call) -> tuple[DocsIndex, list[str]]:
    """The session's index brought up to date; notes for the answer (a rebuild, a skipped refresh)."""
    index = _open(call)
    stats = index.refresh(_Throttled(call.report), view=call.workspace)
    notes = []
    if stats.rebuilt:
        notes.append(render.rebuilt_note(stats))
    if stats.stopped:
        notes.append(render.stopped_note(stats))
    if stats.skipped:
        notes.append(f"[Not refreshed: {stats.skipped}.]")
    return index, notes


def _answer(notes: list[str], blocks: list[str], data: dict[str, Any]) -> ToolResult:
    """The notes about the index first; when the answer was cut, its cut note on the same line."""
    if notes and blocks and render.is_cut_note(blocks[0]):
        return ToolResult([" ".join([*notes, blocks[0]]), *blocks[1:]], data)
    return ToolResult(notes + blocks, data)


def _limit(limit: int) -> int:
    if not 1 <= limit <= MAX_LIMIT:
        raise UserError(f"parameter `limit` must be between 1 and {MAX_LIMIT}, not {limit}.")
    return limit


def _required(value: str, name: str, example: str) -> str:
    text = value.strip()
    if not text:
        raise UserError(f"parameter `{name}` is missing or empty; give {example}.")
    return text


def _tail(name: str) -> str:
    """The last part of a qualified name (`a.b.C.m`, `a::b::m`, `vim.lsp.buf.hover` -> the name)."""
    parts = [p for p in re.split(r"::|[.:/#]", name) if p]
    return parts[-1] if parts else name


def _candidates(index: DocsIndex, text: str) -> list[Item]:
    """Items a mistyped id or name may mean, closest first: what resolve finds for it and its
    last part, the items of the modules its prefix names, and what a search of its words finds."""
    tail = _tail(text)
    words = " ".join(re.findall(r"[A-Za-z][a-z]*|\d+", tail)) or tail
    found: list[Item] = []
    for attempt in (
        lambda: index.resolve(text),
        lambda: index.resolve(tail),
        lambda: [hit.item for hit in index.search(words, limit=SUGGESTIONS * 2)],
    ):
        with contextlib.suppress(UserError):  # a name the index cannot read suggests nothing
            found += attempt()
    parts = re.split(r"(::|[.:#/])", text)
    for end in range(len(parts) - 2, 0, -2):  # `a.b.c` -> modules `a.b`, then `a`
        listing = index.list_module("".join(parts[:end]))
        found += listing.items + ([listing.module] if listing.module is not None else [])
        if listing.items:
            break
    unique = {item.id: item for item in reversed(found)}
    scored = process.extract(text, {key: key for key in unique}, scorer=fuzz.WRatio, limit=SUGGESTIONS, score_cutoff=50)
    return [unique[key] for _match, _score, key in scored]


def _unknown(what: str, text: str, candidates: list[Item]) -> UserError:
    if candidates:
        ids = ", ".join(f"`{c.id}`" for c in candidates)
        finder = hints.command("docs", action="search", query="…")
        return UserError(f"no docs item has the {what} `{text}`; closest ids: {ids} ({finder} finds others).")
    finder = hints.command("docs", action="search", query="…")
    return UserError(f"no docs item has the {what} `{text}` and none is close; find ids with {finder}.")


def _item(index: DocsIndex, item_id: str) -> tuple[Item, list[str]]:
    """The item of an id; a bare name that means exactly one item is taken with a note.

    Raises:
        UserError: empty, or no such id (the sentence names the closest ids).
    """
    text = _required(item_id, "id", "an id from docs action=search or action=resolve, e.g. `pkg.mod.func`")
    item = index.get(text)
    if item is not None:
        return item, []
    candidates = _candidates(index, text)
    named = [c for c in candidates if c.name == text]
    if len(named) == 1:
        return named[0], [f"[`{text}` is not a full id; showing {named[0].id}.]"]
    raise _unknown("id", text, candidates)


def _scope(index: DocsIndex, library: str | None) -> str:
    """`workspace`, `python`, or `workspace + python, nvim`: what a query searches.

    Raises:
        UserError: `library` is not indexed.
    """
    names = [lib.name for lib in index.libraries()]
    if library is not None:
        if library not in names:
            raise UserError(
                f"library `{library}` is not indexed; index it with "
                f"{hints.command('docs', action='index', library=library)} "
                f"(indexed: {', '.join(names) or 'none'})."
            )
        return library
    return ", ".join(names) or "workspace"


def _search(
    call: Call, query: str, kind: str | None, module: str | None, library: str | None, limit: int, offset: int
) -> ToolResult:
    """Ranked items with id, score, name, kind and snippet."""
    text = _required(query, "query", "words to search the documentation for, e.g. `parse config file`")
    _limit(limit)
    if offset < 0:
        raise UserError(f"parameter `offset` must be 0 or more, not {offset}.")
    index, notes = _index(call)
    scope = _scope(index, library)
    hits = index.search(text, kind=kind or None, module=module or None, library=library, limit=offset + limit)
    hits = hits[offset:]
    given = {k: v for k, v in (("kind", kind), ("module", module), ("library", library)) if v}
    filters = ", ".join(f"{k}={v}" for k, v in given.items() if k != "library")

    def next_call(shown: int) -> str:
        more = hints.command("docs", action="search", query=text, **given, offset=offset + shown, limit=max(shown, 1))
        return f"the next ones: {more}"

    where = f"{scope}{f' ({filters})' if filters else ''}"
    blocks, shown = render.render_search(text, where, hits, call.budget, next_call, offset + 1)
    results = [
        {**render.item_data(h.item), "score": round(h.score, 4), "snippet": h.snippet} for h in hits[: shown or None]
    ]
    data: dict[str, Any] = {"query": text, "scope": scope, "results": results}
    if shown < len(hits):
        data["truncated"] = len(hits) - shown
        data["next_offset"] = offset + shown
    return _answer(notes, blocks, data)


def _get(call: Call, id: str, part: str) -> ToolResult:
    """The item's whole documentation, its examples, or the items related to it."""
    if part == "examples":
        return _examples(call, id)
    if part == "related":
        return _related(call, id)
    index, notes = _index(call)
    item, more = _item(index, id)
    data = render.item_data(item, full=True)
    data["file"] = f"{item.path}:{item.line}"
    examples_call = hints.command("docs", action="get", id=item.id, part="examples")
    return _answer(notes + more, render.render_item(item, call.budget, examples_call), data)


def _list(call: Call, module: str) -> ToolResult:
    """The module's item, its items and submodules."""
    name = _required(module, "module", "a module id such as `pkg.mod`, `crate::mod` or `vim.lsp`")
    index, notes = _index(call)
    listing = index.list_module(name)
    if listing.module is None and not listing.items and not listing.submodules:
        modules = [c for c in _candidates(index, name) if c.kind == "module"] or _candidates(index, name)
        raise _unknown("module id", name, modules)
    blocks, shown = render.render_listing(name, listing.module, listing.items, listing.submodules, call.budget)
    data: dict[str, Any] = {
        "module": None,
        "items": [
            {"id": i.id, "kind": i.kind, "name": i.name, "signature": i.signature, "summary": render.summary_of(i)}
            for i in listing.items[: shown or None]
        ],
        "submodules": list(listing.submodules),
    }
    if listing.module is not None:
        mod = listing.module
        data["module"] = {"id": mod.id, "name": mod.name, "doc": mod.doc.body or mod.doc.summary, "path": mod.path}
    if shown < len(listing.items):
        data["truncated"] = len(listing.items) - shown
    return _answer(notes, blocks, data)


def _resolve(call: Call, symbol: str, context: str | None) -> ToolResult:
    """The best item for a name and the other candidates."""
    name = _required(symbol, "query", "a name such as `Config` or `buf.hover`")
    index, notes = _index(call)
    items = index.resolve(name, context or None)[: MAX_LIMIT // 10]
    if not items:
        hits = [h.item for h in index.search(_tail(name), limit=SUGGESTIONS)] if _tail(name).strip() else []
        if hits:
            ids = ", ".join(f"`{h.id}`" for h in hits)
            raise UserError(f"no documented item is named `{name}`; the docs mentioning it: {ids}.")
        finder = hints.command("docs", action="search", query="…")
        raise UserError(f"no documented item is named `{name}`; try {finder} with words from its doc.")
    best = items[0]
    data = {
        "id": best.id,
        "kind": best.kind,
        "item": render.item_data(best),
        "alternatives": [render.item_data(i) for i in items[1:]],
    }
    return _answer(notes, render.render_resolve(name, items), data)


def _examples(call: Call, id: str) -> ToolResult:
    """`docs action=get part=examples`: the examples with code, description and `runnable`."""
    index, notes = _index(call)
    item, more = _item(index, id)
    checked = [check_example(ex, item.language) for ex in item.doc.examples]
    data = {
        "id": item.id,
        "examples": [
            {
                "code": c.example.code,
                "description": c.example.description,
                "language": c.language,
                "runnable": c.runnable,
                "problem": c.problem,
            }
            for c in checked
        ],
    }
    return _answer(notes + more, render.render_examples(item, checked, call.budget), data)


def _related(call: Call, id: str) -> ToolResult:
    """`docs action=get part=related`: related items, most relevant first."""
    index, notes = _index(call)
    item, more = _item(index, id)
    related = index.related(item.id, limit=10)
    data = {
        "id": item.id,
        "related": [
            {**render.item_data(r.item), "reason": r.reason, "relevance": round(r.relevance, 3)} for r in related
        ],
    }
    return _answer(notes + more, render.render_related(item, related, call.budget), data)


def _reindex(call: Call, library: str | None) -> ToolResult:
    """What the (re)index did, and every indexed library.

    Raises:
        UserError: a library it may not read: only python, site-packages, nvim and the
            folders listed under [docs] folders in the config (the sentence says how).
    """
    name = (library or "").strip() or "workspace"
    index = _open(call)
    progress = _Throttled(call.report)
    if name == "workspace":
        stats: RefreshStats = index.refresh(progress, force=True, view=call.workspace)
    else:
        stats = index.index_library(name, progress, folders=call.config.docs_folders)
    libraries = index.libraries()
    data: dict[str, Any] = {
        "library": stats.library,
        "files_seen": stats.files_seen,
        "files_indexed": stats.files_indexed,
        "files_removed": stats.files_removed,
        "items": stats.items,
        "seconds": round(stats.seconds, 3),
        "rebuilt": stats.rebuilt,
        "skipped": stats.skipped,
        "stopped": stats.stopped,
        "files_left": stats.files_left,
        "reindex": [{"name": name, "library": source} for name, source in stats.reindex],
        "libraries": [
            {"name": lib.name, "root": lib.root, "files": lib.files, "items": lib.items} for lib in libraries
        ],
    }
    return ToolResult(render.render_index(stats.library, stats, libraries), data)


@tool(
    "docs",
    "docs",
    "Doc comments of the workspace and indexed libraries: search words, get an id, list a module, resolve a "
    "name to an id, index a library. USE FOR: which API does X, how to call it. DON'T USE FOR: where a name is "
    "defined (search).",
)
def docs(
    call: Call,
    action: Annotated[Literal["search", "get", "list", "resolve", "index"], Doc("What to do.")],
    query: Annotated[str | None, Doc("search: words; resolve: a name.")] = None,
    id: Annotated[str | None, Doc("get: from search or resolve.")] = None,
    part: Annotated[Literal["doc", "examples", "related"], Doc("get: which part.")] = "doc",
    module: Annotated[str | None, Doc("list: which; search: only in it.")] = None,
    kind: Annotated[str | None, Doc("search: only this kind.")] = None,
    library: Annotated[str | None, Doc("index: python, site-packages, nvim, a folder; search: only it.")] = None,
    context: Annotated[str | None, Doc("resolve: where the name is used.")] = None,
    limit: Annotated[int, Doc("search: most results.")] = 10,
    offset: Annotated[int, Doc("search: results to skip.")] = 0,
) -> ToolResult:
    """The answer of one action (each was a tool of its own before issue 30)."""
    if action == "search":
        return _search(call, query or "", kind, module, library, limit, offset)
    if action == "get":
        return _get(call, id or "", part)
    if action == "list":
        return _list(call, module or "")
    if action == "resolve":
        return _resolve(call, query or "", context)
    return _reindex(call, library)


# -- examples: does the code parse? ---------------------------------------------------------

#: Fence tags of doctest sessions, and tags that are not code at all.
_DOCTEST_TAGS = ("pycon", "doctest", "python-repl")
_NOT_CODE = ("", "text", "txt", "plain", "output", "console", "shell", "sh", "bash", "markdown", "md")
_TAG_ALIASES = {"python3": "python", "py3": "python", "luau": "lua"}


def _is_doctest(code: str) -> bool:
    return any(line.lstrip().startswith(">>>") for line in code.splitlines())


def strip_doctest(code: str) -> str:
    """The Python in a doctest: `>>> ` and `... ` prompts removed, output lines dropped."""
    kept = []
    for line in textwrap.dedent(code).splitlines():
        stripped = line.lstrip()
        for prompt in (">>> ", "... "):
            if stripped.startswith(prompt):
                kept.append(stripped[len(prompt) :])
                break
        else:
            if stripped in (">>>", "..."):
                kept.append("")
    return "\n".join(kept) + "\n"


def _first_problem(node: Node, code: bytes) -> str:
    """`syntax error at L:C` or `missing `)` at L:C` for the first ERROR/MISSING node (1-based)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_error or current.is_missing:
            row, col = current.start_point
            lines = code.split(b"\n")
            line = lines[row] if row < len(lines) else b""
            where = f"{row + 1}:{len(line[:col].decode('utf-8', 'replace')) + 1}"
            return f"missing `{current.type}` at {where}" if current.is_missing else f"syntax error at {where}"
        if current.has_error:
            stack.extend(reversed(current.children))
    return "syntax error"


def check_example(example: Example, item_language: str) -> render.CheckedExample:
    """Whether an example's code parses with its language's tree-sitter grammar: the fence's
    language, else the item's; doctests (`>>>`) are checked as Python without prompts and output."""
    tag = example.language.strip().lower().split(",")[0].split(" ")[0]
    tag = _TAG_ALIASES.get(tag, tag)
    code = example.code
    if tag in _DOCTEST_TAGS or (tag in ("", "python", "py") and _is_doctest(code)):
        language, code = "python", strip_doctest(code)
    elif tag in _NOT_CODE and tag:
        return render.CheckedExample(example, tag, None, f"`{tag}` is not checked")
    else:
        language = tag or item_language
    spec = languages.by_name(language) if language else None
    if spec is None or not spec.has_grammar or spec.name == "markdown":
        return render.CheckedExample(example, language, None, f"no grammar for `{language or 'unknown'}`")
    if spec.name == "rust":
        # rustdoc's hidden lines (`# let x = 1;`) are still part of the example.
        code = "\n".join(line[2:] if line.startswith("# ") else line for line in code.splitlines())
    source = code.encode("utf-8")
    root = Parser(languages.grammar(spec)).parse(languages.parseable(spec, source)).root_node
    if root.has_error:
        return render.CheckedExample(example, spec.name, False, _first_problem(root, source))
    return render.CheckedExample(example, spec.name, True)
