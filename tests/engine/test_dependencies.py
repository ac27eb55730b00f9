"""Every package the engine imports is declared in pyproject.toml's dependencies (issue 27:
uvicorn and h11 were used without being declared, working only because the MCP SDK happened
to bring them). Read from the code: each top-level import that is not the standard library
is mapped to the distribution that provides it (`importlib.metadata`)."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "python" / "simple_brief"


def _imported_top_level_names() -> dict[str, str]:
    """Each third-party top-level module the package imports, with one place that imports it."""
    found: dict[str, str] = {}
    for module in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "simple_brief":
                    found.setdefault(top, f"{module.relative_to(REPO)}:{node.lineno}")
    return found


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_imported_package_is_a_declared_dependency() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {_normalised(re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0]) for spec in project["dependencies"]}
    providers = importlib.metadata.packages_distributions()
    imported = _imported_top_level_names()
    assert len(imported) > 10
    undeclared = {
        top: where
        for top, where in imported.items()
        if not any(_normalised(dist) in declared for dist in providers.get(top, [top]))
    }
    assert undeclared == {}, f"imported but not in [project] dependencies: {undeclared}"
