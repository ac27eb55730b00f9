"""Coverage reports as per-file line coverage: `read_coverage(path)` detects the format.

- coverage.py JSON (`coverage json`, read with `json`): `executed_lines`/`missing_lines`
  per file.
- Cobertura XML (`coverage xml`, gcovr, JaCoCo converters, cargo-tarpaulin …), parsed
  through `defusedxml` (an entity bomb is an error, not a hang): `<line number hits>`; a
  class's `filename` is joined to the `<source>` it exists under (else the first).
- lcov tracefiles (`coverage lcov`, `geninfo`, grcov, c8 …): `SF:`, `DA:line,hits`,
  `end_of_record`; the format is a few line prefixes, so a small reader here (the PyPI
  parsers are single releases without a test suite); a file in several records is merged.

Statements are the lines the report lists, covered the ones with hits; `percent` is
covered / statements (100 for a file without statements), the same for every format
(coverage.py's own JSON percent counts branches too when branch coverage is on).
Paths are as the report gives them (see `test_results.resolve_path`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simple_brief.errors import UserError
from simple_brief.files.beneath import shown_path
from simple_brief.tasks.test_results import parse_xml, read_report


@dataclass
class FileCoverage:
    """One file's line coverage; `missing_lines` 1-based, ascending."""

    path: str
    statements: int
    covered: int
    percent: float
    missing_lines: list[int] = field(default_factory=list)


@dataclass
class CoverageReport:
    """The totals over `files` and the files."""

    percent: float
    statements: int
    covered: int
    files: list[FileCoverage] = field(default_factory=list)


def _percent(covered: int, statements: int) -> float:
    return 100.0 * covered / statements if statements else 100.0


def _file(path: str, hits: dict[int, int]) -> FileCoverage:
    covered = sum(1 for count in hits.values() if count > 0)
    missing = sorted(line for line, count in hits.items() if count <= 0)
    return FileCoverage(path, len(hits), covered, _percent(covered, len(hits)), missing)


def _report(files: list[FileCoverage]) -> CoverageReport:
    statements = sum(f.statements for f in files)
    covered = sum(f.covered for f in files)
    return CoverageReport(_percent(covered, statements), statements, covered, files)


def read_coverage(path: Path, root: Path | None = None) -> CoverageReport:
    """The coverage report at `path`: coverage.py JSON, Cobertura XML or an lcov tracefile.
    `root` is the folder a Cobertura report's relative `<source>` folders are relative to
    (the run's; by default the report's folder).

    Raises:
        UserError: missing, too large, of none of these formats, or malformed.
    """
    data = read_report(path).removeprefix(b"\xef\xbb\xbf")  # a UTF-8 BOM (Windows tools)
    shown = shown_path(path)
    head = data.lstrip()[:1]
    if data.startswith(b"SQLite format 3"):
        raise UserError(
            f"{shown} is coverage.py's data file, not a report; write one with `coverage json` (or xml, lcov)."
        )
    if head in (b"{", b"["):
        return _read_json(data, shown)
    if head == b"<":
        return _read_cobertura(data, shown, root if root is not None else Path(os.path.abspath(path)).parent)
    text = data.decode("utf-8", errors="replace")
    if any(line.startswith(("SF:", "TN:")) for line in text.splitlines()):
        return _read_lcov(text, shown)
    raise UserError(
        f"{shown} is not a coverage report this reads; write coverage.py JSON, Cobertura XML or an lcov tracefile."
    )


def _read_json(data: bytes, shown: str) -> CoverageReport:
    try:
        body = json.loads(data)
    except ValueError as exc:
        raise UserError(
            f"{shown} is not valid JSON ({exc.__class__.__name__}: {str(exc).split(':')[0]}, cut short?); "
            "rerun `coverage json` to write it again."
        ) from None
    files = body.get("files") if isinstance(body, dict) else None
    if not isinstance(files, dict):
        raise UserError(
            f"{shown} is JSON but not a coverage.py report (no `files` table); write it with `coverage json`."
        )
    out = []
    for name, entry in files.items():
        if not isinstance(entry, dict):
            raise UserError(f"{shown} has a malformed entry for {name!r}; rerun `coverage json` to write it again.")
        executed = _lines(entry.get("executed_lines"), shown, name)
        missing = _lines(entry.get("missing_lines"), shown, name)
        hits = {line: 1 for line in executed}
        hits.update({line: 0 for line in missing if line not in hits})
        out.append(_file(str(name), hits))
    return _report(out)


def _lines(value: Any, shown: str, name: str) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise UserError(f"{shown} lists lines of {name!r} that are not numbers; rerun `coverage json`.")
    return value


def _read_cobertura(data: bytes, shown: str, base: Path) -> CoverageReport:
    root = parse_xml(data, shown, "a coverage report")
    if root.tag != "coverage":
        raise UserError(
            f"{shown} is XML but not a Cobertura report (its root is <{root.tag}>, not <coverage>); "
            "write one with `coverage xml` or your tool's Cobertura option."
        )
    sources = [(s.text or "").strip() for s in root.iter("source") if (s.text or "").strip()]
    merged: dict[str, dict[int, int]] = {}
    for cls in root.iter("class"):
        filename = cls.get("filename")
        if not filename:
            continue
        hits = merged.setdefault(_joined(filename, sources, base), {})
        lines = cls.find("lines")
        for line in lines.iter("line") if lines is not None else ():
            try:
                number, count = int(line.get("number", "")), int(float(line.get("hits", "0")))
            except ValueError:
                raise UserError(f"{shown} has a <line> without a number or hits; regenerate the report.") from None
            hits[number] = max(hits.get(number, 0), count)
    return _report([_file(path, hits) for path, hits in merged.items()])


def _joined(filename: str, sources: list[str], base: Path) -> str:
    """A Cobertura filename joined to the source folder it exists in (else the first); a
    relative source folder is looked in from `base`."""
    if os.path.isabs(filename) or not sources:
        return filename
    for source in sources:
        candidate = os.path.join(source, filename)
        if os.path.isfile(os.path.join(base, candidate)):
            return os.path.normpath(candidate)
    return os.path.normpath(os.path.join(sources[0], filename))


def _read_lcov(text: str, shown: str) -> CoverageReport:
    merged: dict[str, dict[int, int]] = {}
    current: dict[int, int] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("SF:"):
            current = merged.setdefault(line[3:], {})
        elif line == "end_of_record":
            current = None
        elif line.startswith("DA:"):
            if current is None:
                raise UserError(f"{shown} line {number} has DA: outside an SF: record; regenerate the tracefile.")
            fields = line[3:].split(",")
            try:
                lineno, count = int(fields[0]), int(fields[1])
            except (ValueError, IndexError):
                raise UserError(f"{shown} line {number} is not `DA:line,hits`; regenerate the tracefile.") from None
            current[lineno] = max(current.get(lineno, 0), count)
    return _report([_file(path, hits) for path, hits in merged.items()])


def least_covered(report: CoverageReport, n: int) -> list[FileCoverage]:
    """The `n` files with statements and the lowest percent (more missing lines first on a tie)."""
    files = [f for f in report.files if f.statements]
    files.sort(key=lambda f: (f.percent, -len(f.missing_lines), f.path))
    return files[: max(n, 0)]
