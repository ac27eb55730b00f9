"""Language-server overhead benchmark: hover and definition asked of jedi-language-server
directly (pygls's own `LanguageClient`, no simple-brief code) against the same requests
through simple-brief's LSP client (`ServerPool`), the registry tools (`analyze what=hover`,
`what=definition`: position checks, conversion, rendering) and the MCP server (in-process
SDK `Client`: JSON-RPC, schema validation, the host's call). Same file, same positions, same
warm server process per path, one run.

    .venv/bin/python bench/lsp.py [--quick]

Called by run.py (`rows`); run alone it prints its rows as a markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import shutil
import signal
import statistics
import sys
import sysconfig
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
if str(REPO / "python") not in sys.path:
    sys.path.insert(1, str(REPO / "python"))

from report import Table  # noqa: E402
from simple_brief.files import trust  # noqa: E402

#: The file asked about: a mid-sized standard-library module with calls across modules.
SOURCE = "json/decoder.py"
SERVER = "jedi-language-server"
METHODS = {
    "hover": ("textDocument/hover", "hover"),
    "definition": ("textDocument/definition", "definition"),
}
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def progress(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def positions(text: str, n: int) -> list[tuple[int, int]]:
    """Up to `n` 0-based (line, character) positions on called names, spread over the file."""
    found = []
    for number, line in enumerate(text.splitlines()):
        if line.lstrip().startswith(("#", "def ", "class ")):
            continue
        found += [(number, m.start(1) + 1) for m in _CALLED.finditer(line)]
    step = max(1, len(found) // n)
    return found[::step][:n]


async def _timed(ask: Callable[[int, int], Awaitable[Any]], where: list[tuple[int, int]]) -> list[float]:
    out = []
    for line, character in where:
        start = time.perf_counter()
        await ask(line, character)
        out.append(1000 * (time.perf_counter() - start))
    return out


async def direct(server: Path, path: Path, where: list[tuple[int, int]], runs: int) -> dict[str, list[float]]:
    """Milliseconds per request from pygls's LanguageClient talking to the server itself."""
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    logging.getLogger("pygls").setLevel(logging.ERROR)  # its notes on notifications it does not handle
    client = LanguageClient("bench-direct", "1")
    await client.start_io(str(server))
    try:
        await client.initialize_async(
            types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=path.parent.as_uri())
        )
        client.initialized(types.InitializedParams())
        uri = path.as_uri()
        item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=path.read_text())
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
        doc = types.TextDocumentIdentifier(uri=uri)

        def hover(line: int, character: int) -> Awaitable[Any]:
            return client.text_document_hover_async(types.HoverParams(doc, types.Position(line, character)))

        def definition(line: int, character: int) -> Awaitable[Any]:
            return client.text_document_definition_async(types.DefinitionParams(doc, types.Position(line, character)))

        asks = {"hover": hover, "definition": definition}
        for ask in asks.values():  # warm: jedi's caches, parso's parse of the file
            await _timed(ask, where)
        return {name: [ms for _ in range(runs) for ms in await _timed(ask, where)] for name, ask in asks.items()}
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        # jedi-language-server may not exit on `exit` while a helper process it started still
        # holds its output pipe, and pygls's stop() then waits forever (it hung `make bench`):
        # after 5 s the server and its children are killed.
        process = client._server  # pygls has no public handle on the process it started
        if process is not None:
            try:
                await asyncio.wait_for(process.wait(), 5)
            except TimeoutError:
                for pid in [*_children(process.pid), process.pid]:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(TimeoutError):  # its reader tasks may never see the end either
            await asyncio.wait_for(client.stop(), 5)


def _children(pid: int) -> list[int]:
    """The live child processes of `pid`."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with (
                contextlib.suppress(OSError, ValueError, IndexError),
                open(f"/proc/{entry.name}/stat", "rb") as handle,
            ):
                if int(handle.read().rsplit(b")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def through_pool_and_tools(root: Path, where: list[tuple[int, int]], runs: int) -> dict[str, dict[str, list[float]]]:
    """Milliseconds per request through ServerPool.request and through the registry tools."""
    from simple_brief.files import config
    from simple_brief.files.workspace import Workspace
    from simple_brief.lsp.pool import ServerPool
    from simple_brief.tools import Call, Session, invoke

    path = root / Path(SOURCE).name
    ws = Workspace.at(root)
    pool = ServerPool(ws, config.load(root))
    call = Call(workspace=ws, session=Session(server_pool=ServerPool))
    out: dict[str, dict[str, list[float]]] = {"pool": {}, "tool": {}}
    try:
        for name, (method, tool) in METHODS.items():
            pooled: list[float] = []
            tooled: list[float] = []
            for run in range(runs + 1):  # run 0 warms
                for line, character in where:
                    start = time.perf_counter()
                    pool.request(path, method, {"position": {"line": line, "character": character}}, 10.0)
                    middle = time.perf_counter()
                    invoke("analyze", {"what": tool, "path": path.name, "line": line + 1, "col": character + 1}, call)
                    end = time.perf_counter()
                    if run:
                        pooled.append(1000 * (middle - start))
                        tooled.append(1000 * (end - middle))
            out["pool"][name], out["tool"][name] = pooled, tooled
    finally:
        pool.close()
        call.session.close()
    return out


async def through_mcp(root: Path, where: list[tuple[int, int]], runs: int) -> dict[str, list[float]]:
    """Milliseconds per tool call through the MCP server (in-process SDK Client)."""
    from mcp import Client

    from simple_brief.files.workspace import Workspace
    from simple_brief.host.served import Served
    from simple_brief.servers.mcp import build_server

    state = Served.over(Workspace.at(root))
    name = Path(SOURCE).name
    out: dict[str, list[float]] = {}
    try:
        async with Client(build_server(state), raise_exceptions=True) as client:
            for label, (_, tool) in METHODS.items():

                def ask(line: int, character: int, tool: str = tool) -> Awaitable[Any]:
                    return client.call_tool(
                        "analyze", {"what": tool, "path": name, "line": line + 1, "col": character + 1}
                    )

                await _timed(ask, where)
                out[label] = [ms for _ in range(runs) for ms in await _timed(ask, where)]
    finally:
        state.session.close()
    return out


def rows(table: Table, quick: bool) -> None:
    """Add the language-server overhead rows to `table`."""
    table.section("Language servers (jedi-language-server)")
    server = Path(sys.executable).parent / SERVER
    if not server.exists():
        progress(f"lsp: {SERVER} is not installed (make test installs it); rows skipped")
        table.add("hover/definition overhead", f"not measured: {SERVER} is not installed")
        return
    work = Path(tempfile.mkdtemp(prefix="simple-brief-bench-lsp-"))
    # The config naming the server is trusted in a state folder of the bench's own, so the
    # person's trust database gets no entry for a folder that is deleted afterwards.
    saved = os.environ.get("XDG_STATE_HOME")
    (work / "state").mkdir()
    os.environ["XDG_STATE_HOME"] = str(work / "state")
    try:
        _measure(table, server, work, quick)
    finally:
        if saved is None:
            os.environ.pop("XDG_STATE_HOME", None)
        else:
            os.environ["XDG_STATE_HOME"] = saved
        shutil.rmtree(work, ignore_errors=True)


def _measure(table: Table, server: Path, work: Path, quick: bool) -> None:
    path = work / Path(SOURCE).name
    shutil.copy(Path(sysconfig.get_paths()["stdlib"]) / SOURCE, path)
    config = work / ".simple-brief.toml"
    config.write_text(f'[servers.jedi]\ncommand = ["{server}"]\nfiletypes = ["python"]\n')
    trust.allow(config.resolve(), config.read_bytes())  # as the person does with `simple-brief trust`
    where = positions(path.read_text(), 12 if quick else 30)
    runs = 2 if quick else 4
    progress(f"lsp: {len(where)} positions in {SOURCE} x {runs} runs, hover and definition, four ways")
    results = {"direct": asyncio.run(direct(server, path, where, runs))}
    results.update(through_pool_and_tools(work, where, runs))
    results["MCP"] = asyncio.run(through_mcp(work, where, runs))
    for name in METHODS:
        base = results["direct"][name]
        base50 = statistics.median(base)
        table.add(
            f"{name}: asked directly (baseline)",
            f"p50 {base50:.1f} ms, p95 {_pct(base, 0.95):.1f} ms",
            f"pygls LanguageClient -> {SERVER}, {len(base)} requests",
        )
        for way, label in (
            ("pool", "simple-brief's LSP client"),
            ("tool", f"analyze what={METHODS[name][1]}"),
            ("MCP", "the MCP server"),
        ):
            ms = results[way][name]
            p50 = statistics.median(ms)
            table.add(
                f"{name}: through {label}",
                f"p50 {p50:.1f} ms, p95 {_pct(ms, 0.95):.1f} ms",
                f"{p50 / base50:.2f}x direct ({p50 - base50:+.1f} ms at p50)",
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions and runs")
    args = parser.parse_args(argv)
    table = Table()
    rows(table, args.quick)
    print(table.markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
