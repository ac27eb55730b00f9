"""The counts a test runner prints in its closing lines, read when it left no structured
results (no JUnit XML, no `go test -json` events, no per-test lines), so a run's counts are
what the runner said, never a silent zero.

Each reader takes one command's output (ANSI colours removed) and returns a `Summary` or
None when the runner's closing lines are not there:

- pytest: `1 failed, 1 passed, 2 skipped in 0.12s` (xpassed counts as passed, xfailed as
  skipped, `error(s)` as errors); `no tests ran in 0.01s`.
- unittest: `Ran 3 tests in 0.001s` and `OK (skipped=1)` / `FAILED (failures=1, errors=1)`
  (expected failures count as skipped, unexpected successes as failed).
- cargo: every `test result: ok. 3 passed; 0 failed; 1 ignored; …` line, added up (one per
  test binary and doc-tests).
- go: the `--- PASS/FAIL/SKIP:` lines (printed for failures, and for every test with -v)
  and the packages' `ok`/`FAIL` lines; without -v the passes are not printed, which the
  summary says (`partial`).
- jest: `Tests:       1 failed, 1 skipped, 1 passed, 3 total`.
- vitest: `Tests  1 failed | 1 passed | 1 skipped (3)`.
- node --test: `# pass 1` / `ℹ pass 1` with `fail`, `skipped`, `todo`, `cancelled`.
- mocha: `1 passing (3ms)`, `1 failing`, `1 pending`.

A runner that is not known (`make test`) gets every reader in turn; the first that finds
its lines wins.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

Failing = Literal["failed", "error"]
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


@dataclass
class Summary:
    """What a runner's closing lines said.

    Attributes:
        runner: which runner's lines they are (`pytest`, `go`, …).
        passed, failed, skipped, errors: the counts.
        lines: the lines read, as printed (without colours).
        partial: what the lines do not count, or "" when they count every test.
        passed_unknown: the lines do not count the passing tests (`go test` without -v).
        failures: the failing tests the output names with their text, as (status
            `failed`/`error`, name, text) — unittest's `FAIL:`/`ERROR:` sections.
    """

    runner: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0
    lines: tuple[str, ...] = ()
    partial: str = ""
    passed_unknown: bool = False
    failures: list[tuple[Failing, str, str]] = field(default_factory=list)

    def add(self, other: Summary) -> None:
        """Add another command's counts (a task of several commands)."""
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.errors += other.errors
        self.lines += other.lines
        self.passed_unknown = self.passed_unknown or other.passed_unknown
        self.failures += other.failures
        if other.partial and other.partial not in self.partial:
            self.partial = f"{self.partial}; {other.partial}" if self.partial else other.partial


def plain(text: str) -> str:
    """`text` without ANSI colour and cursor sequences."""
    return _ANSI.sub("", text).replace("\r\n", "\n")


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    matches = list(pattern.finditer(text))
    return matches[-1] if matches else None


def _words(parts: Iterable[tuple[str, str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for number, word in parts:
        counts[word] = counts.get(word, 0) + int(number)
    return counts


_PYTEST = re.compile(
    r"^(?:=+ )?(?P<parts>(?:\d+ [a-z]+(?:, )?)+|no tests ran) in [\d.]+s(?: \([^)]*\))?(?: =+)?\s*$", re.M
)
_COUNT = re.compile(r"(\d+) ([a-z]+)")


def _from_words(runner: str, pattern: re.Pattern[str], text: str) -> Summary | None:
    """The counts of the last line `pattern` finds, whose `parts` group is `N word` pairs:
    `passed` and `xpassed` pass, `skipped`, `xfailed` and `todo` are skipped, `error(s)` errors."""
    found = _last(pattern, text)
    if found is None:
        return None
    words = _words(_COUNT.findall(found.group("parts")))
    return Summary(
        runner,
        passed=words.get("passed", 0) + words.get("xpassed", 0),
        failed=words.get("failed", 0),
        skipped=words.get("skipped", 0) + words.get("xfailed", 0) + words.get("todo", 0),
        errors=words.get("error", 0) + words.get("errors", 0),
        lines=(found.group(0).strip(),),
    )


def pytest_summary(text: str) -> Summary | None:
    return _from_words("pytest", _PYTEST, text)


_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in [\d.]+s$", re.M)
_UNITTEST_END = re.compile(r"^(OK|FAILED|NO TESTS RAN)(?: \((?P<parts>[^)]*)\))?\s*$", re.M)


def unittest_summary(text: str) -> Summary | None:
    ran = _last(_UNITTEST_RAN, text)
    if ran is None:
        return None
    end = _UNITTEST_END.search(text, ran.end())
    parts = (
        dict(
            (key.strip(), int(value))
            for key, _, value in (p.partition("=") for p in (end.group("parts") or "").split(","))
            if value.strip().isdigit()
        )
        if end
        else {}
    )
    failed = parts.get("failures", 0) + parts.get("unexpected successes", 0)
    errors = parts.get("errors", 0)
    skipped = parts.get("skipped", 0) + parts.get("expected failures", 0)
    total = int(ran.group(1))
    lines = (ran.group(0), end.group(0).strip()) if end else (ran.group(0),)
    summary = Summary("unittest", max(total - failed - errors - skipped, 0), failed, skipped, errors, lines)
    summary.failures = _unittest_sections(text[: ran.start()])
    return summary


_UNITTEST_SECTION = re.compile(r"^={20,}\n(FAIL|ERROR): (.+)\n-{20,}\n", re.M)


def _unittest_sections(text: str) -> list[tuple[Failing, str, str]]:
    """unittest's `FAIL: name (module.Class.name)` / `ERROR: …` sections: (status, name, traceback)."""
    heads = list(_UNITTEST_SECTION.finditer(text))
    found: list[tuple[Failing, str, str]] = []
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = re.sub(r"\n-{20,}\n?$", "", text[head.end() : end].rstrip("\n")).rstrip()
        found.append(("failed" if head.group(1) == "FAIL" else "error", _unittest_id(head.group(2).strip()), body))
    return found


def _unittest_id(title: str) -> str:
    """`test_x (mod.C.test_x) (i=1)` → `mod.C.test_x (i=1)` (Python 3.10 and older: `(mod.C)`)."""
    found = re.match(r"^(\w+) \(([\w.]+)\)(.*)$", title)
    if found is None:
        return title
    method, where, rest = found.groups()
    test_id = where if where.endswith("." + method) else f"{where}.{method}"
    return test_id + rest


_CARGO = re.compile(r"^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;.*$", re.M)


def cargo_summary(text: str) -> Summary | None:
    results = list(_CARGO.finditer(text))
    if not results:
        return None
    summary = Summary("cargo")
    for found in results:
        summary.passed += int(found.group(1))
        summary.failed += int(found.group(2))
        summary.skipped += int(found.group(3))
    summary.lines = tuple(found.group(0) for found in results)
    return summary


_GO_TEST = re.compile(r"^\s*--- (PASS|FAIL|SKIP): \S+", re.M)
_GO_PACKAGE = re.compile(r"^(ok|FAIL)\s+\S+\s+(?:[\d.]+s|\(cached\)|\[[^\]]+\]).*$", re.M)


def go_summary(text: str) -> Summary | None:
    tests = [found.group(1) for found in _GO_TEST.finditer(text)]
    packages = [found.group(0) for found in _GO_PACKAGE.finditer(text)]
    if not packages:
        return None
    summary = Summary("go", tests.count("PASS"), tests.count("FAIL"), tests.count("SKIP"), lines=tuple(packages))
    if "PASS" not in tests:  # without -v, go prints failures only
        ok = sum(1 for line in packages if line.startswith("ok"))
        summary.passed_unknown = True
        summary.partial = (
            f"go printed no line per passing test ({ok} of {len(packages)} package{'s' * (len(packages) != 1)} "
            "ok); `go test -json` or -v lists them"
        )
    not_built = [line for line in packages if line.startswith("FAIL") and "failed]" in line]
    summary.errors = len(not_built)
    return summary


_JEST = re.compile(r"^Tests:\s+(?P<parts>.*?),?\s*(?P<total>\d+) total\s*$", re.M)


def jest_summary(text: str) -> Summary | None:
    return _from_words("jest", _JEST, text)


_VITEST = re.compile(r"^\s*Tests\s+(?P<parts>\d+ [a-z]+(?: \| \d+ [a-z]+)*)\s+\((?P<total>\d+)\)\s*$", re.M)


def vitest_summary(text: str) -> Summary | None:
    return _from_words("vitest", _VITEST, text)


_NODE = re.compile(r"^(?:# |\N{INFORMATION SOURCE} )(tests|pass|fail|cancelled|skipped|todo) (\d+)\s*$", re.M)


def node_summary(text: str) -> Summary | None:
    block: dict[str, int] = {}
    lines: list[str] = []
    for found in _NODE.finditer(text):
        if found.group(1) == "tests":  # a new summary block (the last one wins)
            block, lines = {}, []
        block[found.group(1)] = int(found.group(2))
        lines.append(found.group(0).strip())
    if "pass" not in block or "fail" not in block:
        return None
    return Summary(
        "node",
        passed=block["pass"],
        failed=block["fail"],
        skipped=block.get("skipped", 0) + block.get("todo", 0),
        errors=block.get("cancelled", 0),
        lines=tuple(lines),
    )


_MOCHA_PASSING = re.compile(r"^\s+(\d+) passing \([^)]*\)\s*$", re.M)
_MOCHA_OTHER = re.compile(r"^\s+(\d+) (failing|pending)\s*$", re.M)


def mocha_summary(text: str) -> Summary | None:
    passing = _last(_MOCHA_PASSING, text)
    if passing is None:
        return None
    words = {word: int(number) for number, word in _MOCHA_OTHER.findall(text, passing.end())}
    lines = [passing.group(0).strip(), *(f"{n} {w}" for w, n in words.items())]
    return Summary("mocha", int(passing.group(1)), words.get("failing", 0), words.get("pending", 0), lines=tuple(lines))


READERS: dict[str, Callable[[str], Summary | None]] = {
    "pytest": pytest_summary,
    "unittest": unittest_summary,
    "cargo": cargo_summary,
    "go": go_summary,
    "jest": jest_summary,
    "vitest": vitest_summary,
    "node": node_summary,
    "mocha": mocha_summary,
}


def read_summary(outputs: Iterable[str], runner: str | None = None) -> Summary | None:
    """The counts the closing lines of each command's output give, added up; `runner`'s
    reader only when it is known, else every reader in turn (the first that finds its
    lines in a command's output). None when no command printed any."""
    readers = [READERS[runner]] if runner in READERS else list(READERS.values())
    total: Summary | None = None
    for output in outputs:
        text = plain(output)
        for reader in readers:
            found = reader(text)
            if found is not None:
                if total is None:
                    total = found
                else:
                    total.add(found)
                break
    return total
