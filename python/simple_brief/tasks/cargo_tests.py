"""Rust's test harness (`cargo test`) as test results (`TestReport`). Stable Rust has no
structured test output (its JSON format needs `-Z unstable-options`), so its plain lines
are read: `test name ... ok|FAILED|ignored`, and each failure's `---- name stdout ----`
section with the panic's `path:line` and message.
"""

from __future__ import annotations

import re
from pathlib import Path

from simple_brief.tasks.test_results import Status, TestCase, TestReport, cut_text

#: `test name ... ok`; a doc-test's name has spaces: `test src/lib.rs - add (line 3) ... ok`.
_CARGO_RESULT = re.compile(r"^test (?P<name>\S.*?) \.\.\. (?P<word>ok|FAILED|ignored)(?:,.*)?$")
_CARGO_SECTION = re.compile(r"^---- (?P<name>\S.*?) std(?:out|err) ----$")
_CARGO_PANIC = re.compile(r"panicked at (?:'(?P<old>.*)', )?(?P<path>[^\s:]+\.rs):(?P<line>\d+):\d+:?(?P<rest>.*)$")


def looks_like_cargo_test(text: str) -> bool:
    """Whether `text` is the output of Rust's test harness (`cargo test`)."""
    return bool(re.search(r"^test result: (?:ok|FAILED)\. \d+ passed", text, re.M))


def read_cargo_test(text: str, root: Path) -> TestReport:
    """The results Rust's test harness printed (`cargo test`): it has no structured output
    on stable Rust (its JSON format needs `-Z unstable-options`), so its plain lines are read —
    `test name ... ok|FAILED|ignored`, and each failure's `---- name stdout ----` section with
    the panic's `path:line` and message."""
    lines = text.splitlines()
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        section = _CARGO_SECTION.match(line)
        if section:
            current = sections.setdefault(section.group("name"), [])
            continue
        if current is not None:
            if line.startswith(("failures:", "test result:")):
                current = None
            else:
                current.append(line)
    report = TestReport()
    for line in lines:
        found = _CARGO_RESULT.match(line.rstrip())
        if not found:
            continue
        name, word = found.group("name"), found.group("word")
        statuses: dict[str, Status] = {"ok": "passed", "FAILED": "failed", "ignored": "skipped"}
        status = statuses[word]
        case = TestCase(name=name, classname=name.rpartition("::")[0], status=status, duration_ms=0.0)
        if status == "failed":
            body = sections.get(name, [])
            case.details = cut_text("\n".join(body).strip())
            case.output = case.details
            for i, row in enumerate(body):
                panic = _CARGO_PANIC.search(row)
                if panic is None:
                    continue
                case.path, case.line = panic.group("path"), int(panic.group("line"))
                message = panic.group("old") or panic.group("rest").strip()
                if not message:
                    message = next((r.strip() for r in body[i + 1 :] if r.strip()), "")
                case.failure_message = message
                break
            if not case.failure_message:
                case.failure_message = next((r.strip() for r in body if r.strip()), "failed")
        report.add(case)
    return report
