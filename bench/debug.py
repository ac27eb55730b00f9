"""The debug toolset through the MCP server against driving debugpy directly: launch to the
first breakpoint, and one step over, each through the MCP server's tool path (the SDK's
Client in process, `debug_launch` / `debug_step`: our DAP client, the answer's stack and
symbol lookup, the MCP round trip) and through a minimal DAP script (a pipe, the frames,
nothing else) against the same debugpy adapter, runs alternating, medians in one run.

    .venv/bin/python bench/debug.py [--runs 5] [--steps 10]

Prints a markdown table and writes it between markers into bench/results/latest.md.
"""

from __future__ import annotations

import argparse
import json
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "bench"))

from mcp import Client  # noqa: E402

from report import markdown_table, verdict, write_block  # noqa: E402
from simple_brief.files.workspace import Workspace  # noqa: E402
from simple_brief.host.served import Served  # noqa: E402
from simple_brief.servers.mcp import build_server  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "latest.md"
PROGRAM = """\
def main():
    total = 0
    for i in range(1000):
        total += i
        total -= 1
    return total


main()
"""
LINE = 4
#: Targets: the tool path may cost this much over the bare protocol.
LAUNCH_TARGET = 1.5
STEP_TARGET = 3.0


class Direct:
    """A minimal DAP script: debugpy's adapter on a pipe, requests answered in order."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "debugpy.adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.seq = 0
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            header = stream.readline()
            if not header:
                return
            length = int(header.split(b":")[1])
            stream.readline()
            self.messages.put(json.loads(stream.read(length)))

    def send(self, command: str, arguments: dict[str, Any]) -> int:
        self.seq += 1
        body = json.dumps({"seq": self.seq, "type": "request", "command": command, "arguments": arguments}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()
        return self.seq

    def until(self, kind: str, name: str) -> dict[str, Any]:
        while True:
            message = self.messages.get(timeout=30)
            if message.get("type") == kind and name in (message.get("event"), message.get("command")):
                return message

    def close(self) -> None:
        self.send("disconnect", {"terminateDebuggee": True})
        self.until("response", "disconnect")
        assert self.proc.stdin is not None
        self.proc.stdin.close()  # the adapter ends with its input
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def direct_run(program: Path, steps: int) -> tuple[float, list[float]]:
    """Launch to the breakpoint, then `steps` steps over (each to its stopped event), in ms."""
    started = time.perf_counter()
    dap = Direct()
    dap.send("initialize", {"adapterID": "python", "linesStartAt1": True, "pathFormat": "path"})
    dap.until("response", "initialize")
    dap.send("launch", {"program": str(program), "console": "internalConsole", "cwd": str(program.parent)})
    dap.until("event", "initialized")
    dap.send("setBreakpoints", {"source": {"path": str(program)}, "breakpoints": [{"line": LINE}]})
    dap.until("response", "setBreakpoints")
    dap.send("configurationDone", {})
    stopped = dap.until("event", "stopped")
    launch = (time.perf_counter() - started) * 1000
    thread = stopped["body"]["threadId"]
    times = []
    for _ in range(steps):
        began = time.perf_counter()
        dap.send("next", {"threadId": thread})
        dap.until("event", "stopped")
        dap.send("stackTrace", {"threadId": thread, "levels": 1})  # where it stopped, as any client asks
        dap.until("response", "stackTrace")
        times.append((time.perf_counter() - began) * 1000)
    dap.close()
    return launch, times


async def _tool_run(root: Path, steps: int) -> tuple[float, list[float], str]:
    state = Served.over(Workspace.at(root), toolsets=("debug",))
    try:
        async with Client(build_server(state), raise_exceptions=True) as client:
            began = time.perf_counter()
            launched = await client.call_tool("debug_launch", {"program": "loop.py", "breakpoints": f"loop.py:{LINE}"})
            launch = (time.perf_counter() - began) * 1000
            sid = (launched.structured_content or {})["session_id"]
            times = []
            answer = ""
            for _ in range(steps):
                began = time.perf_counter()
                stepped = await client.call_tool("debug_step", {"session_id": sid, "kind": "over"})
                times.append((time.perf_counter() - began) * 1000)
                answer = str(stepped.content[0].text)  # type: ignore[union-attr]
            await client.call_tool("debug_terminate", {"session_id": sid})
    finally:
        state.close()
    return launch, times, answer


def tool_run(root: Path, steps: int) -> tuple[float, list[float], str]:
    return anyio.run(_tool_run, root, steps)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        program = root / "loop.py"
        program.write_text(PROGRAM, encoding="utf-8")
        tool_run(root, 2)  # warm: imports, the first adapter start
        direct_run(program, 2)
        ours_launch, theirs_launch, ours_step, theirs_step = [], [], [], []
        sample = ""
        for _ in range(args.runs):
            launch, steps = direct_run(program, args.steps)
            theirs_launch.append(launch)
            theirs_step.extend(steps)
            launch, steps, sample = tool_run(root, args.steps)
            ours_launch.append(launch)
            ours_step.extend(steps)
    ol, tl = statistics.median(ours_launch), statistics.median(theirs_launch)
    os_, ts = statistics.median(ours_step), statistics.median(theirs_step)
    rl, rs = ol / tl, os_ / ts
    title = f"## Debug (`bench/debug.py`, median of {args.runs} alternating runs, {args.steps} steps each)"
    rows = [
        [
            "`debug_launch` to the first breakpoint over MCP (debugpy)",
            f"{ol:.0f} ms ({rl:.2f}x)",
            f"a minimal DAP script to the same stop: {tl:.0f} ms",
            f"<= {LAUNCH_TARGET}x",
            verdict(rl <= LAUNCH_TARGET),
        ],
        [
            f"`debug_step kind=over` over MCP (answer: `{sample.split(' · ')[0]}`)",
            f"{os_:.1f} ms ({rs:.2f}x)",
            f"`next` + `stackTrace` in the script: {ts:.1f} ms",
            f"<= {STEP_TARGET}x",
            verdict(rs <= STEP_TARGET),
        ],
    ]
    table = f"{title}\n\n" + markdown_table(["Measure", "Value", "Baseline", "Target", "Result"], rows)
    print(table)
    write_block(RESULTS, "debug", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
