"""simple-brief benchmark: token savings, coverage against universal-ctags, and speed.

    .venv/bin/python bench/run.py [--quick]

Prints one markdown table to stdout and writes it, with a details section, to
bench/results/latest.md. Progress goes to stderr. See bench/README.md.
"""

from __future__ import annotations

import argparse
import logging
import platform
import sys
import time
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
if str(REPO / "python") not in sys.path:
    sys.path.insert(1, str(REPO / "python"))

import agent  # noqa: E402
import corpus  # noqa: E402
import ctags  # noqa: E402
import docs  # noqa: E402
import editor  # noqa: E402
import lsp  # noqa: E402
import speed  # noqa: E402
from measure import VIEWS, FileResult, Tokenizer, measure_file  # noqa: E402
from report import Table, markdown_table, median, num, pct, verdict  # noqa: E402

#: Targets from the project brief.
TARGET_TABLE_VS_JSON = 0.75
TARGET_OUTLINE_SHARE = 0.20
TARGET_COVERAGE = 0.98
TARGET_PARSE_RATIO = 2.0
TARGET_CTAGS_RATIO = 2.0
MISSED_SHOWN = 12


def progress(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


class _Warnings(logging.Handler):
    """Collects the engine's warnings (a missing query falls back to the heuristic)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        msg = record.getMessage()
        if msg not in self.messages:
            self.messages.append(msg)
            progress(f"engine warning: {msg}")


def ratio(results: list[FileResult], num_key: str, den_key: str, need_symbols: bool = False) -> list[float]:
    """Per-file num/den token ratios, over files where both were measured and den > 0."""
    out = []
    for r in results:
        if r.failed or num_key not in r.tokens or not r.tokens.get(den_key):
            continue
        if need_symbols and not r.symbols:
            continue
        out.append(r.tokens[num_key] / r.tokens[den_key])
    return out


def total_ratio(results: list[FileResult], num_key: str, den_key: str, need_symbols: bool = False) -> float:
    pairs = [
        (r.tokens[num_key], r.tokens[den_key])
        for r in results
        if not r.failed and num_key in r.tokens and den_key in r.tokens and (r.symbols or not need_symbols)
    ]
    den = sum(d for _, d in pairs)
    return sum(n for n, _ in pairs) / den if den else float("nan")


def measure_all(files: dict[str, list[Path]], tok: Tokenizer, use_ctags: bool) -> dict[str, list[FileResult]]:
    results: dict[str, list[FileResult]] = {}
    for lang, paths in files.items():
        run = ctags.run_batch(lang, paths) if use_ctags else None
        if run is not None and run.error:
            progress(f"{lang}: ctags failed ({run.error}); no ctags columns for it")
            run = None
        progress(f"{lang}: measuring {len(paths)} files")
        results[lang] = [
            measure_file(
                p,
                lang,
                tok,
                run.json_text.get(p, "") if run else None,
                run.tags.get(p, []) if run else None,
            )
            for p in paths
        ]
    return results


def token_rows(table: Table, results: dict[str, list[FileResult]], tok: Tokenizer, have_ctags: bool) -> None:
    table.section(f"Tokens ({tok.name}; per file)")
    every = [r for rs in results.values() for r in rs]
    med = {v: median(r.tokens[v] for r in every if not r.failed and v in r.tokens) for v in VIEWS}
    shown = ", ".join(f"{v} {num(med[v])}" for v in VIEWS if med[v] == med[v])
    table.add("median tokens per file, all files", shown, "raw source tokens")
    groups = [(f"{lang} ({_engine(rs)})", rs) for lang, rs in results.items()] + [("all files", every)]
    for label, rs in groups:
        share = median(ratio(rs, "outline", "source"))
        table.add(
            f"{label}: outline / source",
            f"median {pct(share)} (total {pct(total_ratio(rs, 'outline', 'source'))})",
            "raw source tokens",
            f"<= {pct(TARGET_OUTLINE_SHARE, 0)}",
            verdict(share <= TARGET_OUTLINE_SHARE),
        )
    for label, rs in groups:
        if not ratio(rs, "table", "json", need_symbols=True):
            continue
        reduction = 1 - median(ratio(rs, "table", "json", need_symbols=True))
        table.add(
            f"{label}: table vs compact JSON, fewer tokens",
            f"median {pct(reduction)} (total {pct(1 - total_ratio(rs, 'table', 'json', need_symbols=True))})",
            "LSP DocumentSymbol[] compact JSON, same symbols",
            f">= {pct(TARGET_TABLE_VS_JSON, 0)} fewer",
            verdict(reduction >= TARGET_TABLE_VS_JSON),
        )
    cases = [
        ("table without HOVER_INFO vs compact JSON", "table_nohover", "json", "LSP DocumentSymbol[] compact JSON"),
        ("table vs pretty JSON", "table", "json_pretty", "DocumentSymbol[] JSON, indent=2"),
    ]
    if have_ctags:
        cases += [
            ("table vs ctags JSON", "table", "ctags", "ctags --output-format=json --fields=+nKzSe"),
            ("outline vs ctags JSON", "outline", "ctags", "ctags --output-format=json --fields=+nKzSe"),
        ]
    for label, a, b, base in cases:
        reduction = 1 - median(ratio(every, a, b, need_symbols=True))
        total = 1 - total_ratio(every, a, b, need_symbols=True)
        table.add(f"all files: {label}, fewer tokens", f"median {pct(reduction)} (total {pct(total)})", base)
    est = []
    for view in ("source", "outline", "table", "json"):
        vals = [r.approx[view] / r.tokens[view] for r in every if not r.failed and r.tokens.get(view)]
        est.append(f"{view} {median(vals):.2f}")
    table.add(
        "render.budget.approx_tokens / real tokens (median)",
        ", ".join(est),
        "o200k_base count of the same text",
        "~1.0 (>1 = safe side)",
    )


def coverage_rows(table: Table, results: dict[str, list[FileResult]]) -> None:
    table.section("Coverage vs ctags")
    all_wanted = all_missed = all_missed_outline = 0
    for lang, rs in results.items():
        wanted = sum(len(r.wanted) for r in rs)
        if not wanted:
            continue
        missed = sum(len(r.missed) for r in rs)
        missed_outline = sum(len(r.missed_in_outline) for r in rs)
        all_wanted += wanted
        all_missed += missed
        all_missed_outline += missed_outline
        in_syms = 1 - missed / wanted
        in_outline = 1 - missed_outline / wanted
        engine = _engine(rs)
        table.add(
            f"{lang} ({engine}): ctags names found",
            f"symbols {pct(in_syms)}, outline text {pct(in_outline)} of {wanted:,}",
            f"ctags kinds {'/'.join(sorted(ctags.DEFINITION_KINDS[lang]))}",
            f">= {pct(TARGET_COVERAGE, 0)}",
            verdict(in_syms >= TARGET_COVERAGE and in_outline >= TARGET_COVERAGE),
        )
    if all_wanted:
        total = 1 - all_missed / all_wanted
        total_outline = 1 - all_missed_outline / all_wanted
        table.add(
            "all languages",
            f"symbols {pct(total)}, outline text {pct(total_outline)} of {all_wanted:,}",
            "ctags definitions (kinds per row)",
            f">= {pct(TARGET_COVERAGE, 0)}",
            verdict(total >= TARGET_COVERAGE and total_outline >= TARGET_COVERAGE),
        )


def _engine(rs: list[FileResult]) -> str:
    engines = Counter(r.engine for r in rs if not r.failed)
    return "/".join(sorted(engines)) or "failed"


def speed_rows(
    table: Table, files: dict[str, list[Path]], results: dict[str, list[FileResult]], quick: bool, have_ctags: bool
) -> list[speed.BigFileResult]:
    table.section("Speed")
    runs = 3 if quick else 7
    bigs: list[speed.BigFileResult] = []
    for lang, paths in files.items():
        progress(f"{lang}: large-file timing")
        big = speed.big_file(lang, paths, runs)
        if big is None:
            continue
        ok = big.ratio <= TARGET_PARSE_RATIO if big.engine == "tree-sitter" else None
        bigs.append(big)
        errs = ", has syntax errors" if big.syntax_errors else ""
        table.add(
            f"{lang}: {big.lines:,}-line file ({len(big.files)} files joined), outline / parse",
            f"{big.ratio:.2f}x ({num(big.outline_ms)} ms vs {num(big.parse_ms)} ms, {big.symbols:,} symbols, "
            f"{big.engine}{errs})",
            f"bare tree-sitter parse, median of {runs}",
            f"<= {TARGET_PARSE_RATIO:.1f}x",
            verdict(ok),
        )
    passes = 2 if quick else 3
    totals = speed.Throughput()
    ctags_s = 0.0
    ctags_tags = 0
    for lang, paths in files.items():
        progress(f"{lang}: throughput, {passes} pass(es){' and ctags timing' if have_ctags else ''}")
        thr = speed.throughput(paths, passes)
        totals.files += thr.files
        totals.symbols += thr.symbols
        totals.scan_s += thr.scan_s
        totals.render_s += thr.render_s
        totals.parse_s += thr.parse_s
        if not have_ctags or not thr.files:
            continue
        c_s = min(ctags.time_batch(lang, paths) for _ in range(passes))
        n_tags = sum(r.ctags_total for r in results[lang])
        ctags_s += c_s
        ctags_tags += n_tags
        _ctags_row(table, lang, thr, len(paths), c_s, n_tags, _engine(results[lang]), passes)
    if have_ctags and totals.files:
        _ctags_row(table, "all", totals, sum(len(p) for p in files.values()), ctags_s, ctags_tags, "", passes)
    if totals.files:
        both = totals.scan_s + totals.render_s
        table.add(
            "corpus: scan + render_outline",
            f"{totals.files / both:,.0f} files/s ({1000 * both / totals.files:.2f} ms/file, render "
            f"{pct(totals.render_s / both, 0)} of it)",
            f"{totals.files} files, one process, best of {passes} pass(es)",
        )
    return bigs


def _ctags_row(
    table: Table, lang: str, thr: speed.Throughput, c_files: int, c_s: float, tags: int, engine: str, passes: int
) -> None:
    ours_ms = 1000 * thr.scan_s / thr.files
    c_ms = 1000 * c_s / c_files
    factor = ours_ms / c_ms if c_ms else float("nan")
    label = f"{lang} ({engine})" if engine else lang
    parse = f"; bare parse alone {1000 * thr.parse_s / thr.files:.2f} ms/file" if thr.parse_s else ""
    table.add(
        f"{label}: extraction ms/file vs ctags",
        f"{factor:.2f}x: ours {ours_ms:.2f} ms/file, {num(thr.symbols / thr.scan_s if thr.scan_s else 0)} "
        f"symbols/s; ctags {c_ms:.2f} ms/file, {num(tags / c_s if c_s else 0)} tags/s{parse}",
        f"ctags, one batched process (-L); both best of {passes}",
        f"<= {TARGET_CTAGS_RATIO:.1f}x",
        verdict(factor <= TARGET_CTAGS_RATIO),
    )


def corpus_rows(table: Table, results: dict[str, list[FileResult]], notes: list[str]) -> None:
    table.section("Corpus")
    every = [r for rs in results.values() for r in rs]
    counts = ", ".join(f"{lang} {len(rs)}" for lang, rs in results.items())
    lines = sum(r.lines for r in every)
    table.add("files measured", f"{len(every):,} files, {lines:,} lines ({counts})", "deterministic sample")
    failed = sum(1 for r in every if r.failed)
    errors = sum(1 for r in every if r.syntax_errors)
    heuristic = [lang for lang, rs in results.items() if any(r.engine == "heuristic" for r in rs)]
    table.add(
        "files not read / with syntax errors",
        f"{failed} not read, {errors} parsed with ERROR/MISSING nodes",
        "—",
        "handled, counted",
        verdict(True),
    )
    if heuristic:
        table.add("read by the line heuristic (no query)", ", ".join(heuristic), "tree-sitter query per language")
    for note in notes:
        table.add("skipped", note)


def details(
    results: dict[str, list[FileResult]],
    env: list[str],
    origin: dict[str, str],
    available: dict[str, int],
    bigs: list[speed.BigFileResult],
) -> str:
    out = ["## Details", "", *(f"- {line}" for line in env), ""]
    out += ["### Corpus", ""]
    out.append(
        markdown_table(
            ("language", "sampled", "available", "from", "engine"),
            [
                (lang, str(len(rs)), str(available.get(lang, 0)), origin.get(lang, ""), _engine(rs))
                for lang, rs in results.items()
            ],
        )
    )
    out += ["", "### Median tokens per file, by language", ""]
    rows = []
    for lang, rs in results.items():
        ok = [r for r in rs if not r.failed]
        medians = [num(median(r.tokens[v] for r in ok if v in r.tokens)) for v in VIEWS]
        share = pct(median(ratio(ok, "outline", "source")))
        rows.append((lang, str(len(ok)), *medians, share, pct(1 - median(ratio(ok, "table", "json", True)))))
    out.append(markdown_table(("language", "files", *VIEWS, "outline/source", "table vs json fewer"), rows))
    out += ["", "### Coverage details", ""]
    for lang, rs in results.items():
        _coverage_details(out, lang, rs)
    out += ["### Large-file inputs", ""]
    for big in bigs:
        shown = Counter(big.files)
        parts = ", ".join(f"{name} x{n}" if n > 1 else name for name, n in shown.items())
        out.append(f"- {big.language}: {big.lines:,} lines from {parts}")
    problems = [r for rs in results.values() for r in rs if r.failed or r.syntax_errors]
    if problems:
        out += ["", "### Files not read or parsed with errors (first 20)", ""]
        out += [f"- `{r.path}`: {r.failed or 'syntax errors (ERROR/MISSING nodes)'}" for r in problems[:20]]
    return "\n".join(out) + "\n"


def _coverage_details(out: list[str], lang: str, rs: list[FileResult]) -> None:
    wanted = sum(len(r.wanted) for r in rs)
    if not wanted and not any(r.ctags_total for r in rs):
        return
    excluded: Counter[str] = Counter()
    for r in rs:
        excluded.update(r.excluded_kinds)
    quirks = [(reason, r.path, tag) for r in rs for reason, tag in r.not_definitions]
    out.append(f"**{lang}**: ctags kinds counted: {', '.join(sorted(ctags.DEFINITION_KINDS[lang]))}; {wanted:,} names.")
    if excluded:
        kinds = ", ".join(f"{k} {n:,}" for k, n in excluded.most_common())
        out.append(f"Not counted (kind choice, not definitions of the outline's kinds): {kinds}.")
    if quirks:
        reasons = Counter(q[0] for q in quirks)
        out.append(
            "ctags tags of counted kinds that are not real definitions (not counted): "
            + ", ".join(f"{k} {n:,}" for k, n in reasons.most_common())
            + "; first:"
        )
        for reason, path, tag in quirks[: MISSED_SHOWN // 2]:
            out.append(f"  - `{tag.name}` ({tag.kind}, {reason}) {path.name}:{tag.line} `{_pattern(tag)}`")
    for attr, what in (("missed", "missing from our symbols"), ("missed_in_outline", "missing from the outline text")):
        missed = [(r.path, t) for r in rs for t in getattr(r, attr)]
        if not missed:
            continue
        by_kind = Counter(t.kind for _, t in missed)
        out.append(f"{len(missed):,} {what} ({', '.join(f'{k} {n}' for k, n in by_kind.most_common())}), first:")
        for path, tag in missed[:MISSED_SHOWN]:
            out.append(f"  - `{tag.name}` ({tag.kind}) {path.name}:{tag.line} `{_pattern(tag)}`")
    out.append("")


def _pattern(tag: ctags.Tag) -> str:
    text = tag.pattern.removeprefix("/^").removesuffix("/").removesuffix("$").strip()
    return (text[:77] + "...") if len(text) > 80 else text


def editor_rows(table: Table, files: dict[str, list[Path]], quick: bool) -> None:
    """foldingRange latency, Neovim's edit-then-refold round trip and attach time, on ~10,000 lines."""
    table.section("Editor (LSP, Neovim 0.11)")
    paths = files.get("python")
    if not paths:
        table.add("editor figures", "skipped: no Python files in the corpus")
        return
    data, lines, _names = speed.build_big_file(paths, "python")
    runs = 5 if quick else 15
    progress(f"editor: foldingRange and Neovim round trips on {lines:,} lines, {runs} runs")
    res = editor.measure(data.decode("utf-8"), runs)
    base = f"bare tree-sitter parse of the same {lines:,} lines: {num(res.parse_ms)} ms"
    table.add("foldingRange after open (full parse), stdio", f"{num(res.folding_cold_ms)} ms", base)
    table.add(
        "foldingRange after a one-character edit (incremental)",
        f"{num(res.folding_after_edit_ms)} ms ({res.folding_after_edit_ms / res.parse_ms:.2f}x parse)",
        base,
    )
    table.add(
        "Neovim: edit, then the new fold shows (round trip)",
        f"{num(res.nvim_refold_ms)} ms ({res.nvim_refold_ms / res.parse_ms:.2f}x parse)",
        base,
    )
    table.add(
        "LSP attach: vim.lsp.start to initialized (child process)",
        f"{num(res.nvim_attach_ms)} ms",
        f"pygls client start + initialize alone: {num(res.initialize_ms)} ms",
    )
    for note in res.notes:
        table.add("note", note)


def agent_rows(table: Table, files: dict[str, list[Path]], tok: Tokenizer, quick: bool) -> None:
    """tools/list token cost, MCP stdio latency, and the editor-context cost."""
    table.section("Agents (MCP)")
    paths = sorted(files.get("python") or [], key=lambda p: p.stat().st_size)
    if not paths:
        table.add("agent figures", "skipped: no Python files in the corpus")
        return
    sample = paths[len(paths) // 2]
    runs = 10 if quick else 40
    progress(f"agents: tools/list and {runs} stdio calls on {sample.name}")
    res = agent.measure(sample, runs, tok.count)
    fixed = res.tools_list_tokens + res.instructions_tokens
    table.add(
        "fixed cost per session: tools/list + instructions, default toolsets (read, lsp, docs + system)",
        f"{fixed:,} tokens: tools/list {res.tools_list_tokens:,} for {res.tools} tools "
        f"({res.tools_list_tokens / res.tools:.0f} per tool) + instructions {res.instructions_tokens:,}",
        "compact JSON as the client receives it; Serena's REPL interface 1,066 + 1,970 of initial instructions",
        f"<= {agent.FIXED_COST_TARGET:,} tokens",
        verdict(fixed <= agent.FIXED_COST_TARGET),
    )
    table.add(
        f"stdio call: simple_read outline of {sample.name}",
        f"p50 {num(res.stdio_p50_ms)} ms, p95 {num(res.stdio_p95_ms)} ms",
        f"the same tool in-process, warm cache as the server's: p50 {num(res.inprocess_p50_ms)} ms",
    )
    for label, (p50, p95) in res.context.items():
        table.add(
            label,
            f"p50 {num(p50)} ms, p95 {num(p95)} ms",
            "SPEC: p95 < 10 ms (seed: 100 ms)",
            "< 10 ms",
            verdict(p95 < 10),
        )
    for note in res.notes:
        table.add("note", note)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller corpus and fewer timing runs")
    parser.add_argument("--out", type=Path, default=BENCH / "results" / "latest.md", help="markdown file to write")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    warnings = _Warnings()
    logging.getLogger("simple_brief").addHandler(warnings)
    logging.getLogger("simple_brief").propagate = False

    progress("discovering corpus")
    found = corpus.discover(REPO, args.quick)
    for note in found.notes:
        progress(note)
    ctags_version = ctags.available()
    if ctags_version is None:
        note = "universal-ctags (with JSON output) not found: ctags columns skipped (apt-get install universal-ctags)"
        progress(note)
        found.notes.append(note)
    tok = Tokenizer()
    results = measure_all(found.files, tok, ctags_version is not None)

    table = Table()
    corpus_rows(table, results, found.notes)
    token_rows(table, results, tok, ctags_version is not None)
    if ctags_version is not None:
        coverage_rows(table, results)
    bigs = speed_rows(table, found.files, results, args.quick, ctags_version is not None)
    speed.linearity_rows(table, args.quick)
    editor_rows(table, found.files, args.quick)
    agent_rows(table, found.files, tok, args.quick)
    docs.rows(table, args.quick)
    lsp.rows(table, args.quick)

    import tree_sitter

    elapsed = time.perf_counter() - started
    env = [
        f"mode: {'quick' if args.quick else 'full'}; run time {elapsed:.0f} s",
        f"Python {platform.python_version()}, tree-sitter {getattr(tree_sitter, '__version__', '?')}",
        f"tokenizer: {tok.name}",
        f"ctags: {ctags_version or 'not installed'}",
        "engine warnings: " + ("; ".join(warnings.messages) if warnings.messages else "none"),
    ]
    text = table.markdown()
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        f"# simple-brief benchmark\n\n{text}\n\n{details(results, env, found.origin, found.available, bigs)}",
        encoding="utf-8",
    )
    progress(f"wrote {args.out} in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
