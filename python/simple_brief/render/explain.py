"""The catalogue of simple-brief's own diagnostic codes, for `diagnostics explain=CODE`.

Codes are stable (seed 004): `E` + 3 digits for errors, `W` for warnings, `H` for hints.
A code never changes meaning once released; a retired code stays listed. Findings of
other tools keep their own code next to their source (`ruff F401`, `pyright
reportMissingImports`) and are explained by those tools, not here.

Fix-it confidence is `model.fixit_confidence`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from simple_brief.errors import UserError
from simple_brief.model import Severity


@dataclass(frozen=True)
class Explanation:
    """What one of simple-brief's own codes means.

    Attributes:
        code: `E001`...
        severity: the severity findings of this code carry.
        title: a few words naming it.
        cause: why the finding occurs.
        rule: the rule being applied.
        example: text that produces the finding.
        fixed: the same text fixed.
        fix: what to do.
        related: tools or help topics to read next.
    """

    code: str
    severity: Severity
    title: str
    cause: str
    rule: str
    example: str
    fixed: str
    fix: str
    related: tuple[str, ...] = ()


CATALOGUE: dict[str, Explanation] = {
    e.code: e
    for e in (
        Explanation(
            "E001",
            Severity.Error,
            "retired: the grammar met unexpected text",
            "simple-brief no longer reports this code. It marked the text tree-sitter's grammar could not fit "
            "(an ERROR node); a grammar can be older than the language or blind to a macro, so that was often "
            "valid code. Such regions are now the hint H003; syntax errors come from the file's checker "
            "(Python's compile(), gofmt, node --check ...) or its language server, under their own names.",
            "Errors come from what judges the language; the grammar's limits are hints.",
            "def total(items:\n    return sum(items)",
            "def total(items):\n    return sum(items)",
            "Read the checker's error (its source is shown, e.g. `python`); see H003 for the hint.",
            ("diagnostics explain=H003", "diagnostics only=parse"),
        ),
        Explanation(
            "E002",
            Severity.Error,
            "retired: the grammar assumed a missing token",
            "simple-brief no longer reports this code. It marked a token tree-sitter's grammar assumed (a "
            "MISSING node); that region is now part of the hint H003, and the file's checker or language "
            "server says whether the token is really missing.",
            "Errors come from what judges the language; the grammar's limits are hints.",
            "print(total(items)",
            "print(total(items))",
            "Read the checker's error (its source is shown, e.g. `gofmt`); see H003 for the hint.",
            ("diagnostics explain=H003", "diagnostics only=parse"),
        ),
        Explanation(
            "W001",
            Severity.Warning,
            "invalid UTF-8",
            "The file holds bytes that are not valid UTF-8; simple-brief shows each as U+FFFD and goes on.",
            "Source files are read as UTF-8 (a BOM is accepted); other encodings are not guessed.",
            "b'caf\\xe9 = 1'  (Latin-1 bytes)",
            "b'caf\\xc3\\xa9 = 1'  (the same text in UTF-8)",
            "Convert the file to UTF-8 (e.g. `iconv -f latin1 -t utf-8`); positions after a bad byte may be off "
            "by the replaced characters until then.",
        ),
        Explanation(
            "W002",
            Severity.Warning,
            "file could not be read",
            "A file listed for the diagnostics tool could not be read: it vanished, is too large, is binary, "
            "or is not a regular file; the message says which.",
            "Tools read only regular text files inside the workspace, up to the size limit.",
            "diagnostics path=assets  (a folder holding big.py of 20 MB)",
            "diagnostics path=src  (only the source folder)",
            "Narrow `path` to source files, or raise the limit with --max-bytes when the file is real source.",
            ("diagnostics", "simple_read"),
        ),
        Explanation(
            "W003",
            Severity.Warning,
            "no grammar: the outline is the line heuristic's",
            "The file's language has a tree-sitter grammar in simple-brief, but it did not load on this machine "
            "(a grammar Neovim ships, such as vimdoc's, and no Neovim was found; or a broken query), so the "
            "outline comes from indentation and keywords and may miss or invent definitions.",
            "An outline says when it is not the grammar's.",
            "doc/myplugin.txt (a Vim help file) read where no Neovim is installed",
            "the same file read with `nvim` on PATH, or from inside Neovim",
            "Do what the message says (put Neovim's `nvim` on PATH, or reinstall simple-brief), then ask again.",
            ("simple_read",),
        ),
        Explanation(
            "H001",
            Severity.Hint,
            "definitions nested too deep",
            "Definitions nested deeper than 64 levels are left out of outlines and symbol lists; the count is "
            "in the message.",
            "Outlines list at most 64 levels of nesting so every view and walker stays bounded.",
            "def f0():\n    def f1():\n        ...  # 65 levels of nested functions",
            "Flatten the nesting (module-level helpers) or read the deep part with simple_read mode=full.",
            "Read the deep part as source (simple_read mode=full or expand_at line:N of an outer definition).",
            ("expand_at", "simple_read mode=full"),
        ),
        Explanation(
            "H002",
            Severity.Hint,
            "outline cut at its limit",
            "A data file (JSON, YAML, TOML) holds more keys than its language lists: the outline stops at the "
            "limit in the message, in document order.",
            "Data files are outlined up to a fixed number of keys, so opening a huge one stays quick and small.",
            '{"k00001": {"a": 1}, "k00002": {"a": 2}, ...}  (a 7 MB object of objects)',
            "the same data split over files of fewer keys each",
            "Read the part you need as text (simple_read mode=full, or search for a key).",
            ("simple_read mode=full", "search"),
        ),
        Explanation(
            "H003",
            Severity.Hint,
            "the grammar could not read a region",
            "tree-sitter's grammar for the file's language could not fit these lines (ERROR nodes: text it "
            "skipped; MISSING nodes: a token it assumed, named in the message). It is a hint, not an error: "
            "a grammar may be older than the language, not see through a macro, or not know a dialect, and "
            "read valid code this way. One hint per region (nodes on adjacent lines merged).",
            "Whether the file is valid is for its checker (diagnostics only=parse says which judged it) or its "
            "language server; the outline around the region stays usable.",
            "int main( {\n  return 0;\n}",
            "int main(void) {\n  return 0;\n}",
            "If the file's checker or language server reports an error there, fix that; if not, the grammar "
            "is behind the code: read the region as source (simple_read mode=full) - definitions in it may be "
            "missing from the outline.",
            ("diagnostics only=parse", "simple_read mode=full"),
        ),
    )
}

_OWN_CODE = re.compile(r"^[EWH]\d{3}$")


def explain(code: str) -> Explanation:
    """The explanation of one of simple-brief's codes (`e001` works too).

    Raises:
        UserError: not one of simple-brief's codes; the sentence says whose it may be.
    """
    raw = " ".join(code.split())
    key = raw.upper()
    if key in CATALOGUE:
        return CATALOGUE[key]
    known = ", ".join(CATALOGUE)
    if _OWN_CODE.match(key):
        raise UserError(f"simple-brief has no diagnostic {key}; its codes are {known}.")
    raise UserError(
        f"`{raw}` is not one of simple-brief's codes ({known}); a code shown next to another source "
        "(ruff, pyflakes, pyright ...) is explained by that tool's documentation."
    )


def explanation_data(exp: Explanation) -> dict[str, Any]:
    """The explanation as JSON data (seed 004: cause, rule, example, related docs)."""
    return {
        "code": exp.code,
        "severity": int(exp.severity),
        "title": exp.title,
        "cause": exp.cause,
        "rule": exp.rule,
        "example": {"error": exp.example, "fixed": exp.fixed},
        "fix": exp.fix,
        "related_docs": list(exp.related),
    }


def render_explanation(exp: Explanation) -> str:
    """The explanation as text: title line, cause, rule, example error and fix, what to do."""
    lines = [
        f"{exp.code} {exp.severity.letter} {exp.title} (simple-brief)",
        f"cause: {exp.cause}",
        f"rule: {exp.rule}",
        "example (error):",
        *("  " + line for line in exp.example.splitlines()),
        "example (fixed):",
        *("  " + line for line in exp.fixed.splitlines()),
        f"fix: {exp.fix}",
    ]
    if exp.related:
        lines.append(f"see: {'; '.join(exp.related)}")
    return "\n".join(lines)
