"""simple-brief next to Serena, the MCP coding toolkit agents use, on the same files in the
same run: what a file overview costs (tokens, o200k) and takes (ms per call, through each
server's MCP stdio interface and the MCP SDK's `Client`), and how many of the file's
definitions it names (the oracle: Python's own `ast`).

    make bench-peers        # installs serena-agent from PyPI into .venv-peers, then runs this

Serena (`serena-agent` 2.1.0) runs with its `tools` interface and the jedi-language-server
backend (`python_jedi`: the one that needs no download at run time; its default, pyright,
is fetched through `uvx`). Its `get_symbols_overview depth=1` is the "names only"
overview; simple-brief's `simple_read mode=names` (names with line numbers) and
`mode=outline` (signatures, spans and body marks) are set beside it.

Prints a markdown table and writes it between markers into bench/results/latest.md.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from measure import Tokenizer  # noqa: E402
from report import markdown_table, verdict, write_block  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "latest.md"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
SERENA = ROOT / ".venv-peers" / "bin" / "serena"
#: Eight standard-library files (the issue compared eight such files).
FILES = (
    "http/server.py",
    "json/decoder.py",
    "argparse.py",
    "shutil.py",
    "textwrap.py",
    "logging/handlers.py",
    "email/message.py",
    "configparser.py",
)
SERENA_PROJECT = "project_name: bench\nlanguage_servers:\n- python_jedi\nencoding: utf-8\n"


def definitions(path: Path) -> set[str]:
    """The names of a file's classes, functions and methods (two levels), by Python's `ast`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                names.update(
                    child.name for child in node.body if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
                )
    return names


def named(text: str, names: set[str]) -> int:
    """How many of `names` the text names (as a whole word)."""

    return sum(1 for name in names if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text))


async def overviews(params: StdioServerParameters, tool: str, args: dict[str, Any], runs: int) -> dict[str, Any]:
    """Each file's answer text and the per-call milliseconds (after one warm-up call)."""
    texts: dict[str, str] = {}
    times: list[float] = []
    async with Client(params, raise_exceptions=True) as client:
        for rel in FILES:
            await client.call_tool(tool, {**args, **_path_arg(tool, rel)})  # warm: imports, the language server
            for _ in range(runs):
                started = time.perf_counter()
                result = await client.call_tool(tool, {**args, **_path_arg(tool, rel)})
                times.append((time.perf_counter() - started) * 1000)
            texts[rel] = "\n".join(getattr(c, "text", "") for c in result.content)
    return {"texts": texts, "ms": times}


#: Symbols whose references both servers list: (file, top-level class or function name).
REFERENCED = (
    ("textwrap.py", "TextWrapper"),
    ("json/decoder.py", "JSONDecodeError"),
    ("configparser.py", "NoSectionError"),
    ("shutil.py", "copyfile"),
    ("argparse.py", "_get_action_name"),
)


def declaration(path: Path, name: str) -> tuple[int, int]:
    """The 1-based line and column of a top-level class or function's name."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name == name:
            line = path.read_text(encoding="utf-8").splitlines()[node.lineno - 1]
            return node.lineno, line.index(name, node.col_offset) + 1
    raise LookupError(f"{name} is not defined at the top of {path}")


async def references(params: StdioServerParameters, serena: bool) -> dict[str, Any]:
    """Each symbol's references answer and the per-call milliseconds (after a warm-up call)."""
    texts: dict[str, str] = {}
    times: list[float] = []
    async with Client(params, raise_exceptions=True) as client:
        for rel, name in REFERENCED:
            flat = rel.replace("/", "_")
            if serena:
                tool, args = "find_referencing_symbols", {"name_path": name, "relative_path": flat}
            else:
                line, col = declaration(STDLIB / rel, name)
                tool, args = (
                    "analyze",
                    {"what": "references", "path": flat, "line": line, "col": col, "include_declaration": False},
                )
            await client.call_tool(tool, args)  # warm: the language server indexes the files
            started = time.perf_counter()
            result = await client.call_tool(tool, args)
            times.append((time.perf_counter() - started) * 1000)
            texts[name] = "\n".join(getattr(c, "text", "") for c in result.content)
    return {"texts": texts, "ms": times}


def _path_arg(tool: str, rel: str) -> dict[str, str]:
    flat = rel.replace("/", "_")
    return {"relative_path": flat} if tool == "get_symbols_overview" else {"path": flat}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed calls per file and tool (default 5)")
    options = parser.parse_args()
    if not SERENA.exists():
        print(f"bench/peers.py: {SERENA} is missing; run `make bench-peers` (installs serena-agent from PyPI).")
        return 2
    count = Tokenizer().count
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        home = Path(tmp) / "home"
        (project / ".serena").mkdir(parents=True)
        home.mkdir()
        (project / ".serena" / "project.yml").write_text(SERENA_PROJECT, encoding="utf-8")
        oracle: dict[str, set[str]] = {}
        for rel in FILES:
            shutil.copy(STDLIB / rel, project / rel.replace("/", "_"))
            oracle[rel] = definitions(STDLIB / rel)
        path = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"  # jedi-language-server
        env = {**os.environ, "HOME": str(home), "PATH": path, "NVIM": ""}
        serena = StdioServerParameters(
            command=str(SERENA),
            args=[
                "start-mcp-server",
                "--project",
                str(project),
                "--context",
                "agent",
                "--agent-interface",
                "tools",
                "--enable-web-dashboard",
                "false",
                "--open-web-dashboard",
                "false",
                "--log-level",
                "ERROR",
            ],
            env=env,
        )
        ours = StdioServerParameters(
            command=sys.executable, args=["-m", "simple_brief", "mcp", "--root", str(project)], env=env
        )
        runs = max(options.runs, 1)
        measured = {
            "Serena get_symbols_overview depth=1": anyio.run(
                overviews, serena, "get_symbols_overview", {"depth": 1}, runs
            ),
            "simple-brief simple_read mode=names": anyio.run(overviews, ours, "simple_read", {"mode": "names"}, runs),
            "simple-brief simple_read mode=outline": anyio.run(
                overviews, ours, "simple_read", {"mode": "outline"}, runs
            ),
        }
        refs = {"Serena find_referencing_symbols": anyio.run(references, serena, True)}
        refs["simple-brief analyze what=references"] = anyio.run(references, ours, False)
    total_defs = sum(len(names) for names in oracle.values())
    figures = {}
    for label, got in measured.items():
        tokens = sum(count(text) for text in got["texts"].values())
        found = sum(named(got["texts"][rel], oracle[rel]) for rel in FILES)
        figures[label] = (tokens, found, statistics.median(got["ms"]))
    serena_tokens = figures["Serena get_symbols_overview depth=1"][0]
    rows = []
    for label, (tokens, found, ms) in figures.items():
        ratio = tokens / max(serena_tokens, 1)
        target, result = "—", "—"
        if label.endswith("mode=names"):
            target, result = "<= 1.0x Serena", verdict(ratio <= 1.0)
        rows.append(
            (label, f"{tokens:,} ({ratio:.2f}x Serena)", f"{found / total_defs:.1%}", f"{ms:.1f}", target, result)
        )
    ref_rows = []
    serena_refs = sum(count(t) for t in refs["Serena find_referencing_symbols"]["texts"].values())
    for label, got in refs.items():
        tokens = sum(count(t) for t in got["texts"].values())
        ref_rows.append(
            (label, f"{tokens:,} ({tokens / max(serena_refs, 1):.2f}x Serena)", f"{statistics.median(got['ms']):.1f}")
        )
    table = "\n".join(
        [
            f"## Peers (`bench/peers.py`, {len(FILES)} standard-library files, o200k; "
            f"{total_defs} definitions by Python's ast)",
            "",
            markdown_table(("Overview", "Tokens", "Definitions named", "ms per call (p50)", "Target", "Result"), rows),
            "",
            "Serena names without line numbers; `mode=names` adds each name's line; `mode=outline` adds "
            "signatures, spans and body marks.",
            "",
            f"References of {len(REFERENCED)} symbols ("
            + ", ".join(name for _, name in REFERENCED)
            + "), both through jedi-language-server:",
            "",
            markdown_table(("References", "Tokens", "ms per call (p50)"), ref_rows),
        ]
    )
    print(table)
    write_block(RESULTS, "peers", table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
