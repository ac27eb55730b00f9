"""The first analyze what=references call of a fresh `simple-brief mcp` against a call made once
the server settled (issue 26): how many sites each answers, and how long the first took.

One stdio MCP session (the SDK's Client, as an agent would start it) per run: the first
call right after start, then `--settle` seconds later the same call again. The server is
whichever simple-brief finds on PATH, so PATH holds only the server to measure (and node):

    mkdir -p /tmp/pr && ln -sf $PWD/node_modules/.bin/pyright-langserver /tmp/pr/
    PATH=/tmp/pr:/usr/bin:/bin .venv/bin/python bench/lsp_first_call.py \\
        --root FLASK_SDIST src/flask/app.py 81 7

gopls runs `go` and clangd reads the project's compile_commands.json (remove its index,
`.cache/clangd` in the project, for a cold run):

    mkdir -p /tmp/go && ln -sf /usr/bin/gopls /usr/bin/go /tmp/go/
    PATH=/tmp/go .venv/bin/python bench/lsp_first_call.py --root GO_MODULE token/position.go 77 6

Prints one JSON line: totals, the first call's seconds, and the first line of each answer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

SIMPLE_BRIEF = Path(sys.executable).parent / "simple-brief"


async def measure(args: argparse.Namespace) -> dict[str, object]:
    params = StdioServerParameters(
        command=str(args.simple_brief), args=["mcp", "--root", str(args.root)], env=dict(os.environ)
    )
    asked = {"path": args.path, "line": args.line, "col": args.col, "limit": 1}
    async with Client(params) as client:
        start = time.monotonic()
        first = await client.call_tool("analyze", {"what": "references", **asked})
        seconds = time.monotonic() - start
        await anyio.sleep(args.settle)
        settled = await client.call_tool("analyze", {"what": "references", **asked})
    return {
        "first_total": (first.structured_content or {}).get("total"),
        "first_seconds": round(seconds, 1),
        "settled_total": (settled.structured_content or {}).get("total"),
        "first_line": first.content[0].text.splitlines()[0][:160],  # type: ignore[union-attr]
        "settled_line": settled.content[0].text.splitlines()[0][:160],  # type: ignore[union-attr]
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="the project (workspace root)")
    parser.add_argument("--settle", type=float, default=15.0, help="seconds before the settled call")
    parser.add_argument("--simple-brief", type=Path, default=SIMPLE_BRIEF, help="the simple-brief program")
    parser.add_argument("path")
    parser.add_argument("line", type=int)
    parser.add_argument("col", type=int)
    print(json.dumps(anyio.run(measure, parser.parse_args())))


if __name__ == "__main__":
    main()
