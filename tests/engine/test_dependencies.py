"""Every package the engine imports is declared in pyproject.toml's dependencies (issue 27:
uvicorn and h11 were used without being declared, working only because the MCP SDK happened
to bring them). Read from the code: each top-level import that is not the standard library
is mapped to the distribution that provides it (`importlib.metadata`)."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
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


def _plugin_extras() -> list[str]:
    """The extras the plugin's build step installs (`M.extras` in lua/simple_brief/install.lua)."""
    lua = (REPO / "lua" / "simple_brief" / "install.lua").read_text(encoding="utf-8")
    found = re.search(r"^M\.extras = \{([^}]*)\}", lua, re.M)
    assert found, "install.lua names the extras it installs"
    return re.findall(r"'([^']+)'", found.group(1))


def test_the_plugin_installs_the_neovim_client_and_the_debug_adapter_extras() -> None:
    """pynvim and debugpy are extras (a bare `pip install simple-brief` is the engine, its
    MCP and LSP servers); the build step, the Makefile and the offline wheelhouse install them."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert _plugin_extras() == ["nvim", "debug"]
    assert [s.split(">")[0] for s in extras["nvim"]] == ["pynvim"]
    assert [s.split(">")[0] for s in extras["debug"]] == ["debugpy"]
    assert not any(s.startswith(("pynvim", "debugpy")) for s in project["dependencies"])
    wheelhouse = ast.parse((REPO / "tests" / "install" / "wheelhouse.py").read_text(encoding="utf-8"))
    fetched = next(
        ast.literal_eval(node.value)
        for node in wheelhouse.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PLUGIN_EXTRAS"
    )
    assert list(fetched) == _plugin_extras()
    assert "'.[nvim,debug]'" in (REPO / "Makefile").read_text(encoding="utf-8")


def test_every_imported_package_is_a_declared_dependency() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = [
        *project["dependencies"],
        *(s for extra in _plugin_extras() for s in project["optional-dependencies"][extra]),
    ]
    declared = {_normalised(re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0]) for spec in specs}
    providers = importlib.metadata.packages_distributions()
    imported = _imported_top_level_names()
    assert len(imported) > 10
    undeclared = {
        top: where
        for top, where in imported.items()
        if not any(_normalised(dist) in declared for dist in providers.get(top, [top]))
    }
    assert undeclared == {}, f"imported but not in [project] dependencies: {undeclared}"


def _without(module: str, code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter in which `module` cannot be imported (as in an engine
    installed without that extra: a second venv cannot be built offline here)."""
    probe = f"import sys\nsys.modules[{module!r}] = None\n{code}"
    return subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False
    )


def test_without_pynvim_naming_a_neovim_says_which_extra_to_install(tmp_path: Path) -> None:
    done = _without(
        "pynvim",
        "from simple_brief.main import main\nsys.exit(main(['mcp', '--nvim', '/nonexistent/nvim.sock']))",
        tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "needs pynvim" in done.stderr and "simple-brief[nvim]" in done.stderr


def test_without_debugpy_the_builtin_adapter_says_which_extra_to_install(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("print('hi')\n")
    done = _without(
        "debugpy",
        "from simple_brief.cli import main\n"
        "sys.exit(main(['run', 'debug_launch', '--param', 'program=app.py', '--root', '.']))",
        tmp_path,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "needs debugpy" in done.stderr and "simple-brief[debug]" in done.stderr
