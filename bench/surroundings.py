"""A symbol with its surroundings in one call (`expand_at context=true`) against the symbol
alone (`expand_at`), what an agent does otherwise (the file's outline and the symbol: two
calls), and reading the whole file. Real files nobody here wrote: the standard library and
TypeScript's own declaration files in node_modules (`lib.dom.d.ts`, `typescript.d.ts`).
Tokens are o200k; the surroundings (class headers, fields, nearby siblings, imports used)
are bounded by `tools/surroundings.SURROUNDINGS_TOKENS`.

    .venv/bin/python bench/surroundings.py

Prints markdown tables and writes them between markers into bench/results/latest.md.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "bench"))

from measure import Tokenizer  # noqa: E402
from report import markdown_table, write_block  # noqa: E402
from simple_brief.files.workspace import Workspace  # noqa: E402
from simple_brief.tools import Call, invoke  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "latest.md"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
TS_LIB = ROOT / "node_modules" / "typescript" / "lib"
#: (folder, file under it, selector): real symbols agents read.
SYMBOLS = (
    (STDLIB, "http/server.py", "SimpleHTTPRequestHandler.translate_path"),
    (STDLIB, "http/server.py", "BaseHTTPRequestHandler.parse_request"),
    (STDLIB, "json/decoder.py", "JSONDecoder.raw_decode"),
    (STDLIB, "asyncio/base_events.py", "BaseEventLoop.create_connection"),
    (STDLIB, "logging/__init__.py", "Logger.callHandlers"),
    (STDLIB, "argparse.py", "ArgumentParser.parse_known_args"),
    (STDLIB, "shutil.py", "copytree"),
    (STDLIB, "subprocess.py", "Popen.communicate"),
    (STDLIB, "email/message.py", "Message.get_content_type"),
    (STDLIB, "asyncio/queues.py", "Queue.get"),
    (TS_LIB, "lib.dom.d.ts", "AbortController.abort"),
    (TS_LIB, "typescript.d.ts", "ts.server.ScriptInfo.getLatestVersion"),
)
BUDGET = 10_000


def main() -> int:
    count = Tokenizer().count
    rows = []
    one, alone, two, full = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for folder, rel, selector in SYMBOLS:
            source = folder / rel
            if not source.is_file():
                print(f"skipped: {source} is missing", file=sys.stderr)
                continue
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, target)
            call = Call(workspace=Workspace.at(root), budget=BUDGET)
            surroundings = count(invoke("expand_at", {"path": rel, "selector": selector, "context": True}, call).text)
            outline = count(invoke("simple_read", {"path": rel, "mode": "outline"}, call).text)
            symbol = count(invoke("expand_at", {"path": rel, "selector": selector}, call).text)
            whole = count(source.read_text(encoding="utf-8"))
            one.append(surroundings)
            alone.append(symbol)
            two.append(outline + symbol)
            full.append(whole)
            rows.append((f"`{rel}` `{selector}`", f"{symbol:,}", f"{surroundings:,}", f"+{surroundings - symbol:,}"))
    m1, m0, m2, m3 = (statistics.median(x) for x in (one, alone, two, full))
    summary = [
        (f"`expand_at context=true` ({len(one)} symbols)", f"{m1:,.0f} tokens, 1 call", "—"),
        ("`expand_at` alone", f"{m0:,.0f} tokens, 1 call", f"{m1 / m0:.2f}x the tokens"),
        ("`simple_read mode=outline` + `expand_at`", f"{m2:,.0f} tokens, 2 calls", f"{m1 / m2:.2f}x the tokens"),
        ("reading the whole file (its source)", f"{m3:,.0f} tokens, 1 call", f"{m1 / m3:.2f}x the tokens"),
    ]
    table = "\n".join(
        [
            f"## A symbol with its surroundings (`bench/surroundings.py`, medians, budget {BUDGET:,})",
            "",
            markdown_table(("Way", "Cost", "surroundings vs it"), summary),
            "",
            markdown_table(("Symbol", "`expand_at`", "`context=true`", "surroundings"), rows),
        ]
    )
    print(table)
    write_block(RESULTS, "surroundings", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
