"""The house's plan, checked against the code (issues 12 and 27): the engine imports none of
its adapters nor their libraries, no adapter imports another (only the entry modules pick
one), and no module or package imports itself back in a loop.

The graph is read from the source with `ast` (every `import`, at module level, inside a
function, or under TYPE_CHECKING), so a cycle hidden behind a local import counts too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "python"
PACKAGE = ROOT / "simple_brief"
#: The entry modules: they pick the adapter by the command's first word, and alone may import several.
ENTRY_MODULES = ("simple_brief.main", "simple_brief.__main__")
#: The adapters: what we serve, the command line and its daemon, and the entry modules. (Our LSP
#: and DAP clients and the Neovim backend are the engine's outgoing clients: `lsp/`, `debug/`,
#: `editor/nvim/`.)
ADAPTERS = (
    "simple_brief.servers",
    "simple_brief.cli",
    "simple_brief.daemon",
    *ENTRY_MODULES,
)
#: Libraries only adapters may import.
ADAPTER_LIBRARIES = ("mcp", "pygls", "lsprotocol", "uvicorn", "starlette")
#: Libraries only one engine package may import: the Neovim client's pynvim (an extra).
CONFINED_LIBRARIES = {"pynvim": "simple_brief.editor.nvim"}
#: Top-level modules (besides `__init__` and `__main__`) the package may have; the rest live in rooms.
MAX_FLAT_MODULES = 12


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str) -> set[str]:
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
    return found


def _own(target: str) -> str | None:
    """The module of this package an import names (`a.b.c` -> `a.b` when c is a name in it)."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


GRAPH = {name: {m for t in _imports(name) if (m := _own(t)) and m != name} for name in MODULES}


def _is_adapter(name: str) -> bool:
    return any(name == a or name.startswith(a + ".") for a in ADAPTERS)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _package(name: str) -> str:
    """`simple_brief.docs.index` -> `simple_brief.docs`; top-level modules stand alone."""
    parts = name.split(".")
    is_package = MODULES[name].name == "__init__.py"
    return ".".join(parts[:2]) if len(parts) > 2 or is_package else name


def _listed(pairs: Iterable[str]) -> str:
    return "\n".join(sorted(pairs))


def test_the_graph_is_read() -> None:
    assert len(MODULES) > 60
    assert "simple_brief.files.workspace" in GRAPH[
        "simple_brief.tools.read"
    ] or "simple_brief.files.workspace" in GRAPH.get("simple_brief.tools", set())
    assert "simple_brief.editor.nvim.intel" in GRAPH["simple_brief.editor.nvim.backend"]


def test_the_engine_imports_no_adapter_and_no_adapter_library() -> None:
    wrong = []
    for name in MODULES:
        if _is_adapter(name):
            continue
        for target in _imports(name):
            own = _own(target)
            if target.split(".")[0] in ADAPTER_LIBRARIES or (own is not None and _is_adapter(own)):
                wrong.append(f"{name} imports {target}")
    assert not wrong, "the engine must not import adapters:\n" + _listed(wrong)


def test_no_module_imports_itself_back() -> None:
    assert _cycles(GRAPH) == []


def test_no_package_imports_itself_back() -> None:
    packages: dict[str, set[str]] = {}
    for name, targets in GRAPH.items():
        for target in targets:
            if _package(name) != _package(target):
                packages.setdefault(_package(name), set()).add(_package(target))
    for name in {_package(n) for n in MODULES}:
        packages.setdefault(name, set())
    assert _cycles(packages) == []


def test_a_cycle_would_be_seen() -> None:
    """The cycle finder itself finds a loop (so an empty answer above means something)."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _adapter_of(name: str) -> str | None:
    """The adapter package (or entry module) a module belongs to, or None for the engine."""
    return next((a for a in ADAPTERS if name == a or name.startswith(a + ".")), None)


def _adapter_crossings() -> list[str]:
    """Every import from one adapter into another (entry modules excepted)."""
    wrong = []
    for name in MODULES:
        home = _adapter_of(name)
        if home is None or home in ENTRY_MODULES:
            continue
        for target in _imports(name):
            own = _own(target)
            other = _adapter_of(own) if own is not None else None
            if other is not None and other != home:
                wrong.append(f"{name} imports {target}")
    return wrong


def test_no_adapter_imports_another() -> None:
    """The MCP and LSP servers, the command line and the daemon each import only the engine;
    the entry module (`simple_brief.main`) is the one place that picks among them."""
    assert _adapter_crossings() == [], _listed(_adapter_crossings())


def test_the_entry_module_reaches_every_adapter() -> None:
    """(So the rule above is checked against real imports: the entry's are crossings it allows.)"""
    reached = {_adapter_of(m) for m in GRAPH["simple_brief.main"] if m is not None}
    assert {"simple_brief.servers", "simple_brief.cli", "simple_brief.daemon"} <= reached


def test_the_package_has_few_flat_modules() -> None:
    """Modules live in rooms by concept (files/, intel/, proc/, editor/ …); only a few
    that every room shares stand at the top (the entry module besides)."""
    entry = {m.rpartition(".")[2] for m in ENTRY_MODULES}
    flat = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", *entry))
    assert len(flat) <= MAX_FLAT_MODULES, flat


def test_a_confined_library_is_imported_only_in_its_package() -> None:
    wrong = []
    for name in MODULES:
        for target in _imports(name):
            home = CONFINED_LIBRARIES.get(target.split(".")[0])
            if home is not None and not (name == home or name.startswith(home + ".")):
                wrong.append(f"{name} imports {target}")
    assert not wrong, _listed(wrong)
