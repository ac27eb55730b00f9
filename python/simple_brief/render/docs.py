"""Docs answers as text, in seed 002's spirit: a summary line first, then one line per
result with the position (rank, or line) and the id first, signatures in backticks.

    Found 2 docs items for "parse config" in workspace, best first

    1. app.config.parse_config · Function · app/config.py:3 · score 7.41
       `def parse_config(path: str, strict: bool = False) -> dict`
       Parse a configuration file into a dictionary.

Pure functions over `Item`/`Hit`/`Related` objects: no index, no I/O. Lines shown are
1-based (`path:line`); the JSON helpers give LSP 0-based positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from simple_brief.docs.model import Example, Item
from simple_brief.render.budget import approx_tokens
from simple_brief.render.lsp import cut_note, plural

#: Characters of a one-line signature preview (seed 002 cuts at 100; ids and types run longer).
SIGNATURE_CHARS = 120
#: Characters of a summary or snippet on a result line.
SNIPPET_CHARS = 160
#: Tokens kept for the note that opens a cut answer.
NOTE_TOKENS = 60


@dataclass
class CheckedExample:
    """An example with the verdict of its grammar check.

    Attributes:
        example: the example as parsed from the doc comment.
        language: the language it was checked as ('' when none is known).
        runnable: True when the code parses without ERROR/MISSING nodes, False when it
            does not, None when no grammar can check it.
        problem: where it fails to parse (`syntax error at 2:5`), or why it was not checked.
    """

    example: Example
    language: str
    runnable: bool | None
    problem: str = ""


def kind_label(kind: str) -> str:
    """`function` -> `Function` (seed 002 shows kinds capitalised)."""
    return kind[:1].upper() + kind[1:] if kind else "Item"


def one_line(text: str, limit: int) -> str:
    """Whitespace folded to single spaces, cut after the last whole word within `limit`."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit + 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut[:limit]).rstrip() + "..."


def location(item: Item) -> str:
    """`path:line` (1-based), with the library named when it is not the workspace."""
    where = f"{item.path}:{item.line}"
    return where if item.library == "workspace" else f"{where} [{item.library}]"


def summary_of(item: Item) -> str:
    """The item's first sentence, or the start of its body."""
    return item.doc.summary or item.doc.body.strip().split("\n\n", 1)[0]


def item_data(item: Item, full: bool = False) -> dict[str, Any]:
    """JSON-ready item: LSP 0-based `position`; with `full`, the parsed doc as well."""
    data: dict[str, Any] = {
        "id": item.id,
        "name": item.name,
        "kind": item.kind,
        "module": item.module,
        "language": item.language,
        "library": item.library,
        "path": item.path,
        "position": {"line": max(item.line - 1, 0), "character": 0},
        "signature": item.signature,
        "summary": summary_of(item),
        "public": item.public,
    }
    if full:
        doc = item.doc.to_dict()
        data.update(
            doc=doc["body"] or doc["summary"],
            params=doc["params"],
            returns=doc["returns"],
            raises=doc["raises"],
            examples=doc["examples"],
            see_also=doc["see_also"],
        )
    return data


def fit_lines(
    entries: Sequence[str], budget: int, hint: str | Callable[[int], str], used: int = 0
) -> tuple[str, int, str]:
    """Whole entries, one per line, while they fit `budget` tokens (of which `used` are already
    taken by the rest of the answer) beside the note that says how many were left out and
    `hint` how to get them (or `hint(shown)`, when it names where the rest starts). Returns the
    text, the number of entries shown (always at least one) and the note (empty when nothing
    was left out): the answer opens with it."""
    if used + sum(approx_tokens(entry) + 1 for entry in entries) <= budget:
        return "\n".join(entries), len(entries), ""
    hint_for = hint if callable(hint) else lambda _shown: hint
    used += approx_tokens(cut_note(f"{len(entries):,} more", budget, hint_for(len(entries)))) + 1
    lines: list[str] = []
    for entry in entries:
        cost = approx_tokens(entry) + 1
        if lines and used + cost > budget:
            break
        lines.append(entry)
        used += cost
    left = len(entries) - len(lines)
    return "\n".join(lines), len(lines), cut_note(f"{left:,} more", budget, hint_for(len(lines))) if left else ""


def opened(note: str, blocks: list[str]) -> list[str]:
    """The blocks of an answer opened by its cut note, when there is one."""
    return [note, *blocks] if note else blocks


def is_cut_note(block: str) -> bool:
    """Whether a block is the one-line note that opens a cut answer (`cut_note`)."""
    return block.startswith("[") and "\n" not in block and " left out to stay within the " in block


def _result_lines(prefix: str, item: Item, tail: str, snippet: str, pad: str | None = None) -> str:
    """`prefix id · Kind · path:line tail`, the signature in backticks, a snippet line."""
    pad = " " * len(prefix) if pad is None else pad
    lines = [f"{prefix}{item.id} · {kind_label(item.kind)} · {location(item)}{tail}"]
    if item.signature:
        lines.append(f"{pad}`{one_line(item.signature, SIGNATURE_CHARS)}`")
    text = one_line(snippet, SNIPPET_CHARS)
    if text and text != one_line(item.signature, SNIPPET_CHARS):  # undocumented: nothing beyond the signature
        lines.append(f"{pad}{text}")
    return "\n".join(lines)


def render_search(
    query: str,
    scope: str,
    hits: Sequence[Any],
    budget: int,
    hint: str | Callable[[int], str] = "narrow the query",
    first: int = 1,
) -> tuple[list[str], int]:
    """Summary block and one block of ranked results (`Hit`s, ranked from `first`); returns
    blocks and how many shown. A cut opens the answer with a note ending in `hint` (how to
    get the rest)."""
    if not hits:
        return [
            f'Found 0 docs items for "{query}" in {scope}; try other words, drop kind/module filters, '
            "or index a library with docs action=index."
        ], 0
    noun = "item" if len(hits) == 1 else "items"
    summary = f'Found {len(hits)} docs {noun} for "{query}" in {scope}, best first' + (
        f" from rank {first}" if first > 1 else ""
    )
    entries = [
        _result_lines(f"{rank}. ", hit.item, f" · score {hit.score:.2f}", hit.snippet or summary_of(hit.item))
        for rank, hit in enumerate(hits, first)
    ]
    text, shown, note = fit_lines(entries, budget, hint, approx_tokens(summary))
    return opened(note, [summary, text]), shown


def _signature_block(item: Item) -> str:
    if "\n" in item.signature.strip():
        return f"```{item.language}\n{item.signature.strip()}\n```"
    return f"`{item.signature.strip()}`"


def _examples_in(body: str, examples: Sequence[Example]) -> list[Example]:
    """The examples whose code the body does not already show (the body keeps its fences)."""
    folded = " ".join(body.split())
    return [ex for ex in examples if " ".join(ex.code.split()) not in folded]


def render_item(item: Item, budget: int, examples_call: str = "") -> list[str]:
    """`docs action=get`: header, signature, the doc as Markdown, params/returns/raises, examples, see also.
    Examples over half the budget are left out with a note naming `examples_call` (the call
    that shows them, as the caller writes it; default: the MCP call)."""
    doc = item.doc
    head = [f"{item.id} · {kind_label(item.kind)} · {item.language} · {location(item)}"]
    if item.signature:
        head.append(_signature_block(item))
    fields: list[str] = []
    if doc.params:
        fields.append("Parameters:")
        fields += [f"- `{p.name}`{f' ({p.type})' if p.type else ''}: {p.doc}".rstrip(": ") for p in doc.params]
    if doc.returns is not None and (doc.returns.type or doc.returns.doc):
        kind = f"({doc.returns.type}) " if doc.returns.type else ""
        fields.append(f"Returns: {kind}{doc.returns.doc}".rstrip())
    if doc.raises:
        fields.append("Raises:")
        fields += [f"- `{r.name}`{': ' + r.doc if r.doc else ''}" for r in doc.raises]
    if doc.see_also:
        fields.append("See also: " + ", ".join(doc.see_also))
    body = doc.body.strip() or doc.summary.strip() or "(no documentation)"
    extra = _examples_in(body, doc.examples)
    examples = "\n\n".join(_example_text(i, ex, ex.language or item.language) for i, ex in enumerate(extra, 1))
    left_out: list[str] = []
    how: list[str] = []
    if approx_tokens(examples) > budget // 2:
        left_out.append(plural(len(extra), "example"))
        how.append(f"{examples_call or f'docs action=get id={item.id} part=examples'} shows them")
        examples = ""
    fixed = approx_tokens("\n".join(head) + "\n".join(fields) + examples) + 20 + NOTE_TOKENS
    room = max(budget - fixed, 200) * 28 // 10  # characters the body may take
    if len(body) > room:
        cut = body[:room].rsplit("\n", 1)[0] if "\n" in body[:room] else body[:room]
        left_out.insert(0, f"the doc past its first {len(cut):,} of {len(body):,} characters")
        how.insert(0, f"read the source at {location(item)} for the rest")
        body = cut.rstrip()
    blocks = ["\n".join(head), body]
    if fields:
        blocks.append("\n".join(fields))
    if examples:
        blocks.append(examples)
    return opened(cut_note(" and ".join(left_out), budget, "; ".join(how)) if left_out else "", blocks)


def _example_text(number: int, example: Example, language: str, verdict: str = "") -> str:
    title = f"Example {number}" + (f" · {verdict}" if verdict else "")
    if example.description.strip():
        title += f" — {one_line(example.description, SNIPPET_CHARS)}"
    return f"{title}\n```{language}\n{example.code.rstrip()}\n```"


def render_listing(
    module: str, module_item: Item | None, items: Sequence[Item], submodules: Sequence[str], budget: int
) -> tuple[list[str], int]:
    """`docs action=list`: the module line, counts, one line per item (`@line Kind - name `sig` — summary`)."""
    if module_item is not None:
        head = f"Module {module_item.id} · {module_item.language} · {location(module_item)}"
        summary = summary_of(module_item)
        if summary:
            head += f"\n{one_line(summary, SNIPPET_CHARS * 2)}"
    else:
        head = f"Module {module or '(top level)'}"
    counts = f"{len(items)} {'item' if len(items) == 1 else 'items'}, {len(submodules)} " + (
        "submodule" if len(submodules) == 1 else "submodules"
    )
    blocks = [f"{head}\n{counts}"]
    base = module_item.path if module_item is not None else None
    full: list[str] = []
    names: list[str] = []
    ids: list[str] = []
    for item in items:
        depth = sum(1 for parent in ids if _is_member(item.id, parent))
        ids.append(item.id)
        where = f"@{item.line}" if item.path == base else f"@{item.path}:{item.line}"
        line = f"{'  ' * depth}{where} {kind_label(item.kind)} - {item.name}"
        names.append(line)
        if item.signature:
            line += f" `{one_line(item.signature, SIGNATURE_CHARS)}`"
        summary = summary_of(item)
        if summary:
            line += f" — {one_line(summary, SNIPPET_CHARS // 2)}"
        full.append(line)
    shown = 0
    used = approx_tokens(blocks[0]) + approx_tokens(", ".join(submodules)) + 10
    note = ""
    if full:
        # Too long with signatures and summaries: names only (docs action=get gives the rest), then cut.
        entries = full if approx_tokens("\n".join(full)) + used <= budget else names
        hint = "docs action=get id=ID shows one item, docs action=search query=… module=" + (module or "MODULE")
        hint += " finds others"
        text, shown, note = fit_lines(entries, budget, hint, used + (NOTE_TOKENS if entries is names else 0))
        if entries is names:
            more = f", and {len(entries) - shown:,} more items," if shown < len(entries) else ""
            note = cut_note(f"the signatures and summaries{more}", budget, hint)
        blocks.append(text)
    if submodules:
        blocks.append("Submodules: " + ", ".join(submodules))
    return opened(note, blocks), shown


def _is_member(child: str, parent: str) -> bool:
    """Whether `child` is `parent` + a separator + a name (`.`, `::`, `:`, `/`)."""
    return any(child.startswith(parent + sep) for sep in (".", "::", ":", "/")) and child != parent


def render_resolve(symbol: str, items: Sequence[Item]) -> list[str]:
    """`docs action=resolve`: the best match with its signature and summary, then the alternatives."""
    best = items[0]
    lines = [f"`{symbol}` -> {best.id} · {kind_label(best.kind)} · {location(best)}"]
    if best.signature:
        lines.append(f"`{one_line(best.signature, SIGNATURE_CHARS)}`")
    if summary_of(best):
        lines.append(one_line(summary_of(best), SNIPPET_CHARS))
    blocks = ["\n".join(lines)]
    if len(items) > 1:
        alt = [f"Alternatives ({len(items) - 1}):"]
        for item in items[1:]:
            line = f"- {item.id} · {kind_label(item.kind)} · {location(item)}"
            if item.signature:
                line += f" `{one_line(item.signature, SIGNATURE_CHARS // 2)}`"
            alt.append(line)
        blocks.append("\n".join(alt))
    return blocks


def render_examples(item: Item, checked: Sequence[CheckedExample], budget: int) -> list[str]:
    """`docs action=get part=examples`: a count line, then one block per example with its verdict."""
    if not checked:
        return [f"{item.id} has no examples in its documentation; docs action=get id={item.id} shows the rest of it."]
    runnable = sum(1 for c in checked if c.runnable)
    noun = "example" if len(checked) == 1 else "examples"
    blocks = [f"{item.id}: {len(checked)} {noun}, {runnable} runnable (parse with their language's grammar)"]
    used = approx_tokens(blocks[0]) + NOTE_TOKENS
    note = ""
    for number, c in enumerate(checked, 1):
        if c.runnable:
            verdict = f"{c.language} · runnable"
        elif c.runnable is None:
            verdict = f"{c.language or 'unknown language'} · not checked ({c.problem})"
        else:
            verdict = f"{c.language} · not runnable ({c.problem})"
        text = _example_text(number, c.example, c.language, verdict)
        if len(blocks) > 1 and used + approx_tokens(text) > budget:
            note = cut_note(plural(len(checked) - number + 1, "more example"), budget, "the data holds every example")
            break
        blocks.append(text)
        used += approx_tokens(text)
    return opened(note, blocks)


def render_related(item: Item, related: Sequence[Any], budget: int) -> list[str]:
    """`docs action=get part=related`: one line per related item: reason, relevance, id, kind, place, summary."""
    if not related:
        return [f"Nothing related to {item.id} was found (no see-also, module mates or similar signatures)."]
    noun = "item" if len(related) == 1 else "items"
    head = f"{len(related)} {noun} related to {item.id}, most relevant first"
    entries = []
    for rank, rel in enumerate(related, 1):
        prefix = f"{rank}. {rel.reason} {rel.relevance:.2f} · "
        entries.append(_result_lines(prefix, rel.item, "", summary_of(rel.item), pad="   "))
    text, _, note = fit_lines(entries, budget, "ask docs action=get part=related of a closer item", approx_tokens(head))
    return opened(note, [head, text])


def rebuilt_note(stats: Any) -> str:
    """One sentence after a rebuild of the docs database: why, what this call indexed again,
    and which libraries to index again and how (`stats.reindex`), never advice that is wrong."""
    if stats.library == "workspace":
        done = f"the workspace was indexed again ({plural(stats.files_indexed, 'file')})"
    else:
        done = f"{stats.library} was indexed again now and the workspace is indexed again by the next docs call"
    if stats.reindex:
        runs = ", then ".join(f"library={source}" for _name, source in stats.reindex)
        names = ", ".join(name for name, _source in stats.reindex)
        done += (
            f", and the libraries indexed before ({names}) must be indexed again: "
            f"run docs action=index with {runs} (`simple-brief docs index NAME` in a shell)"
        )
    return f"[The docs database was rebuilt because {stats.rebuilt}; {done}.]"


def stopped_note(stats: Any) -> str:
    """One sentence when an index run stopped at a limit: what is kept, what running it again does."""
    if stats.listing_cut:
        smaller = "start from a smaller workspace root" if stats.library == "workspace" else "list a smaller folder"
        return (
            f"[Indexing {stats.library} stopped at {stats.stopped}; what was indexed is kept, but a folder this "
            f"big is never indexed whole in one call: {smaller}.]"
        )
    return (
        f"[Indexing {stats.library} stopped at {stats.stopped} with {plural(stats.files_left, 'file')} left; "
        "what was indexed is kept, and running docs action=index again continues from there.]"
    )


def render_index(name: str, stats: Any, libraries: Sequence[Any]) -> list[str]:
    """`docs action=index`: what the refresh did, then every indexed library with its counts."""
    what = (
        f"Indexed {name} in {stats.seconds:.2f} s: {plural(stats.files_seen, 'file')} seen, {stats.files_indexed:,} "
        f"(re)indexed ({plural(stats.items, 'item')}), {stats.files_removed:,} removed."
    )
    if getattr(stats, "stopped", None):
        what += "\n" + stopped_note(stats)
    if stats.rebuilt:
        what += "\n" + rebuilt_note(stats)
    if getattr(stats, "skipped", None):
        what += f"\n[Nothing was written: {stats.skipped}.]"
    libs = ["Libraries (search one with library=NAME):"]
    libs += [
        f"- {lib.name}: {plural(lib.files, 'file')}, {plural(lib.items, 'item')} · {lib.root}" for lib in libraries
    ]
    return [what, "\n".join(libs)]
