"""Where nothing is declared, the `[tasks]` lines that would declare what the project looks
like it uses (`detect`, `detect_task`); the declarations themselves are `files.task_specs`."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simple_brief.errors import UserError
from simple_brief.files.beneath import read_beneath
from simple_brief.files.task_specs import TaskSpec, parse_task


@dataclass(frozen=True)
class Suggestion:
    """What the project looks like, and the config text that declares its tasks."""

    kind: str
    evidence: str
    tasks: dict[str, dict[str, Any]]

    def toml(self, names: list[str] | None = None) -> str:
        """The `[tasks.NAME]` tables (only `names` when given), ready to paste."""
        out = []
        for name, table in self.tasks.items():
            if names is not None and name not in names:
                continue
            out.append(f"[tasks.{name}]")
            out.extend(f"{key} = {_toml_value(value)}" for key, value in table.items())
            out.append("")
        return "\n".join(out).rstrip()


def _toml_value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def detect(root: Path) -> list[Suggestion]:
    """What the project at `root` looks like it is built and tested with (nothing is run)."""
    found: list[Suggestion] = []
    python = _python_project(root)
    if python:
        found.append(python)
    if (root / "Cargo.toml").is_file():
        found.append(
            Suggestion(
                "Rust (cargo)",
                "Cargo.toml",
                {
                    "build": {"argv": ["cargo", "build", "--message-format=json"]},
                    "check": {"argv": ["cargo", "check", "--message-format=json"]},
                    "clean": {"argv": ["cargo", "clean"]},
                    # after `--` the filter reaches only the test binary, as its positional filter
                    "test": {"argv": ["cargo", "test"], "filter": ["--", "{filter}"]},
                    "test_list": {"argv": ["cargo", "test", "--", "--list"]},
                },
            )
        )
    if (root / "go.mod").is_file():
        found.append(
            Suggestion(
                "Go",
                "go.mod",
                {
                    "build": {"argv": ["go", "build", "./..."]},
                    "check": {"argv": ["go", "vet", "./..."]},
                    "clean": {"argv": ["go", "clean", "./..."]},
                    "test": {"argv": ["go", "test", "./..."], "filter": ["-run", "{filter}"]},
                    "test_list": {"argv": ["go", "test", "-list", ".", "./..."]},
                },
            )
        )
    node = _node_project(root)
    if node:
        found.append(node)
    make = _make_project(root)
    if make:
        found.append(make)
    return found


def _python_project(root: Path) -> Suggestion | None:
    marks = [n for n in ("pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini") if (root / n).is_file()]
    if not marks and not (root / "tests").is_dir():
        return None
    venv = next((f"{d}/bin/python" for d in (".venv", "venv") if (root / d / "bin" / "python").exists()), "python3")
    if not _uses_pytest(root):
        tests = {"test": {"argv": [venv, "-m", "unittest"], "filter": ["-k", "{filter}"]}}
        return Suggestion("Python (unittest)", ", ".join(marks) or "tests/", tests)
    tasks: dict[str, dict[str, Any]] = {
        "test": {"argv": [venv, "-m", "pytest", "-q"], "filter": ["-k", "{filter}"]},
        "test_list": {"argv": [venv, "-m", "pytest", "--collect-only", "-q"]},
        "coverage": {
            "argv": [
                [venv, "-m", "coverage", "run", "-m", "pytest", "-q"],
                [venv, "-m", "coverage", "json", "-o", "{report}"],
            ]
        },
        "profile": {"argv": [venv, "-m", "cProfile", "-o", "{report}", "{file}"]},
        "check": {"argv": [venv, "-m", "mypy", "."]},
    }
    return Suggestion("Python (pytest)", ", ".join(marks) or "tests/", tasks)


def _uses_pytest(root: Path) -> bool:
    """Whether the project looks tested with pytest rather than unittest: its config
    (pytest.ini, conftest.py, `[tool.pytest…]`, `[tool:pytest]`, tox's `[pytest]`), pytest
    named in pyproject.toml, the setup or requirements files, or installed in its venv; else
    its test files (`test_*.py` at the root, in tests/ or test/): `import pytest` or
    module-level `def test_` functions say pytest, `unittest.TestCase` classes alone say
    unittest; no evidence either way says pytest."""
    if any((root / name).is_file() for name in ("pytest.ini", "conftest.py", "tests/conftest.py")):
        return True
    for name in ("pyproject.toml", "setup.cfg", "tox.ini", "setup.py", "requirements-dev.txt", "requirements.txt"):
        if b"pytest" in _head(root, name):
            return True
    if any(root.glob(".venv/lib/python3*/site-packages/pytest")) or any(
        root.glob("venv/lib/python3*/site-packages/pytest")
    ):
        return True
    texts = [_head(root, rel) for rel in _test_files(root)]
    if any(b"import pytest" in t or re.search(rb"^def test_", t, re.M) for t in texts):
        return True
    return not any(b"TestCase" in t for t in texts)


def _head(root: Path, rel: str) -> bytes:
    """The first MB of a file of the project (no link followed), b"" when it cannot be read."""
    try:
        return read_beneath(root, rel, 1024 * 1024)
    except UserError:
        return b""


def _test_files(root: Path, most: int = 20) -> list[str]:
    found = []
    for folder in ("", "tests", "test"):
        try:
            names = sorted(os.listdir(root / folder)) if folder == "" or (root / folder).is_dir() else []
        except OSError:
            continue
        found += [f"{folder}/{n}" if folder else n for n in names if n.startswith("test_") and n.endswith(".py")]
    return found[:most]


def _node_project(root: Path) -> Suggestion | None:
    import json

    try:
        data = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return None
    tasks: dict[str, dict[str, Any]] = {}
    for task, script in (("build", "build"), ("check", "typecheck"), ("clean", "clean"), ("test", "test")):
        if script in scripts:
            tasks[task] = {"argv": ["npm", "run", script]}
    if "check" not in tasks and (root / "tsconfig.json").is_file():
        tasks["check"] = {"argv": ["npx", "tsc", "--noEmit", "--pretty", "false"]}
    return Suggestion("Node (package.json scripts)", "package.json", tasks) if tasks else None


def _make_project(root: Path) -> Suggestion | None:
    for name in ("GNUmakefile", "makefile", "Makefile"):
        try:
            text = (root / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        targets = set(re.findall(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", text, re.M))
        tasks: dict[str, dict[str, Any]] = {"build": {"argv": ["make"]}}
        for task in ("check", "clean", "test"):
            if task in targets:
                tasks[task] = {"argv": ["make", task]}
        return Suggestion("Makefile", f"{name} (targets: {', '.join(sorted(targets)[:8]) or 'none'})", tasks)
    return None


@dataclass(frozen=True)
class Detected:
    """A task nobody declared, taken from what the project looks like: `spec` is the first
    suggestion's; `others` the other suggestions that have the task."""

    spec: TaskSpec
    suggestion: Suggestion
    others: tuple[Suggestion, ...] = ()

    def note(self) -> str:
        """The line saying what ran and why."""
        name = self.spec.name
        also = f"; also found: {', '.join(s.kind for s in self.others)}" if self.others else ""
        return (
            f"No [tasks.{name}] is declared: ran `{' '.join(self.spec.argv)}`, detected from "
            f"{self.suggestion.evidence} ({self.suggestion.kind}) in this trusted workspace{also}; declare "
            f"[tasks.{name}] in .simple-brief.toml to run something else."
        )

    def json(self) -> dict[str, Any]:
        return {"argv": self.spec.argv, "kind": self.suggestion.kind, "evidence": self.suggestion.evidence}


def detect_task(root: Path, name: str) -> Detected | None:
    """The task `name` as the first suggestion of `detect(root)` that has it, or None."""
    found = [s for s in detect(root) if name in s.tasks]
    if not found:
        return None
    spec = parse_task(name, found[0].tasks[name], f"{found[0].evidence} (detected)")
    return Detected(spec, found[0], tuple(found[1:]))
