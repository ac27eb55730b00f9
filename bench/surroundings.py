"""A symbol with its surroundings in one call (`expand_at context=true`) against what an
agent does otherwise: the file's outline and the symbol as two calls (`simple_read
mode=outline` + `expand_at`), and reading the whole file (its source: what 42 of 52
reads in the study the issue cites did). Same symbols, same run: methods of
classes in the standard library, tokens (o200k) and calls per symbol.

    .venv/bin/python bench/surroundings.py

Prints a markdown table and writes it between markers into bench/results/latest.md.
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
from simple_brief.tools import Call, invoke  # noqa: E402
from simple_brief.workspace import Workspace  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "latest.md"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
#: (file under the standard library, Class.method): real methods agents read.
SYMBOLS = (
    ("http/server.py", "SimpleHTTPRequestHandler.translate_path"),
    ("http/server.py", "BaseHTTPRequestHandler.parse_request"),
    ("json/decoder.py", "JSONDecoder.raw_decode"),
    ("logging/__init__.py", "Logger.callHandlers"),
    ("argparse.py", "ArgumentParser.parse_known_args"),
    ("pathlib.py", "Path.resolve"),
    ("shutil.py", "copytree"),
    ("subprocess.py", "Popen.communicate"),
    ("email/message.py", "Message.get_content_type"),
    ("asyncio/queues.py", "Queue.get"),
)


def main() -> int:
    count = Tokenizer().count
    one, two, full = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, selector in SYMBOLS:
            source = STDLIB / rel
            if not source.is_file():
                continue
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, target)
            call = Call(workspace=Workspace.at(root), budget=20_000)
            surroundings = invoke("expand_at", {"path": rel, "selector": selector, "context": True}, call).text
            outline = invoke("simple_read", {"path": rel, "mode": "outline"}, call).text
            symbol = invoke("expand_at", {"path": rel, "selector": selector}, call).text
            whole = source.read_text(encoding="utf-8")
            one.append(count(surroundings))
            two.append(count(outline) + count(symbol))
            full.append(count(whole))
    m1, m2, m3 = (statistics.median(x) for x in (one, two, full))
    rows = [
        (f"`expand_at context=true` ({len(one)} stdlib methods)", f"{m1:,.0f} tokens, 1 call", "—"),
        ("`simple_read mode=outline` + `expand_at`", f"{m2:,.0f} tokens, 2 calls", f"{m1 / m2:.2f}x the tokens"),
        ("reading the whole file (its source)", f"{m3:,.0f} tokens, 1 call", f"{m1 / m3:.2f}x the tokens"),
    ]
    table = "\n".join(
        [
            "## A symbol with its surroundings (`bench/surroundings.py`, medians)",
            "",
            markdown_table(("Way", "Cost", "surroundings vs it"), rows),
        ]
    )
    print(table)
    write_block(RESULTS, "surroundings", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
