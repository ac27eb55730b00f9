"""analyze what=references on a hub symbol: the first page (counts per file, 50 sites naming their
enclosing definitions) against the same request unpaged (every site named and shown) and
against the language server's own answer time, in one run with one real server
(jedi-language-server, named in the user's own config), runs alternating, medians compared.

The hub is a generated tree: `hub/base.py` defines `Base`; each of FILES modules imports it
and defines CLASSES subclasses whose method calls it, so `Base` has 1 + FILES x (1 + 2 x
CLASSES) references (4,026 by default; jedi reads at most 30 other files for references, so
the tree stays under that). Target: the first page answers well within the
request deadline (`tools.servers.TIMEOUT`, 10 s), cold parse cache included, and costs
a small fraction of the unpaged answer's tokens.

    .venv/bin/python bench/references.py [--runs 5] [--files 25] [--classes 80]

Prints a markdown table and writes it between markers into bench/results/latest.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "bench"))

from report import markdown_table, verdict, write_block  # noqa: E402
from simple_brief import tools as registry  # noqa: E402
from simple_brief.files.workspace import Workspace  # noqa: E402
from simple_brief.lsp.pool import ServerPool  # noqa: E402
from simple_brief.render.budget import approx_tokens  # noqa: E402
from simple_brief.tools import Call, Session  # noqa: E402
from simple_brief.tools.servers import TIMEOUT, ask  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "latest.md"
BIN = Path(sys.executable).parent


def hub_tree(root: Path, files: int, classes: int) -> int:
    """Write the hub tree; returns how many references `Base` has (declaration included)."""
    hub = root / "hub"
    hub.mkdir(parents=True)
    (hub / "__init__.py").write_text("")
    (hub / "base.py").write_text('class Base:\n    """The hub."""\n')
    for i in range(files):
        body = "".join(
            f"\n\nclass C{i}_{j}(Base):\n    def make(self):\n        return Base()\n" for j in range(classes)
        )
        (hub / f"m{i:03}.py").write_text("from hub.base import Base\n" + body)
    return 1 + files * (1 + 2 * classes)


def token_counter() -> tuple[Callable[[str], int], str]:
    """Real tokens (o200k_base, the bench extra) when installed, else simple-brief's estimate."""
    try:
        from measure import Tokenizer

        tokenizer = Tokenizer()
        return tokenizer.count, tokenizer.name
    except ImportError:
        return approx_tokens, "approx_tokens (install the bench extra for real counts)"


def timed(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - start) * 1000, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--files", type=int, default=25)
    parser.add_argument("--classes", type=int, default=80)
    args = parser.parse_args()
    count, tokenizer = token_counter()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        expected = hub_tree(root, args.files, args.classes)
        user = Path(tmp) / "user.toml"  # the user's own config: no trust needed
        user.write_text(f'[servers.jedi]\ncommand = ["{BIN / "jedi-language-server"}"]\nfiletypes = ["python"]\n')
        os.environ["SIMPLE_BRIEF_CONFIG"] = str(user)
        registry.load()
        session = Session(server_pool=ServerPool)
        warm = Call(workspace=Workspace.at(root), session=session)
        where = {"path": "hub/base.py", "line": 1, "col": 7}
        real = warm.workspace.read("hub/base.py")[0]
        params = {"position": {"line": 0, "character": 6}, "context": {"includeDeclaration": True}}
        try:
            registry.invoke("analyze", {"what": "references", **where}, warm)  # start the server, warm its caches
            raw, cold, page, unpaged = [], [], [], []
            first = everything = None
            for _ in range(args.runs):
                raw.append(timed(ask, warm, real, "hub/base.py", "textDocument/references", params)[0])
                fresh = Call(workspace=Workspace.at(root), session=session)  # an empty parse cache
                cold.append(timed(registry.invoke, "analyze", {"what": "references", **where}, fresh)[0])
                ms, first = timed(registry.invoke, "analyze", {"what": "references", **where}, warm)
                page.append(ms)
                whole = Call(workspace=Workspace.at(root), session=session, budget=10**9)
                ms, everything = timed(
                    registry.invoke, "analyze", {"what": "references", **where, "limit": expected}, whole
                )
                unpaged.append(ms)
        finally:
            session.close()
    assert first is not None and everything is not None
    total = first.data["total"]
    r, c, p, u = (statistics.median(x) for x in (raw, cold, page, unpaged))
    page_tokens, all_tokens = count(first.text), count(everything.text)
    rows = [
        (
            "first page (50 sites named, counts per file), cold parse cache",
            f"{c:.0f} ms",
            f"the server's own answer: {r:.0f} ms",
            f"<= half the {TIMEOUT:.0f} s deadline",
            verdict(c <= TIMEOUT * 1000 / 2 and total == expected),
        ),
        (
            "first page, warm parse cache",
            f"{p:.0f} ms ({p - r:+.0f} ms over the server)",
            f"the same request unpaged (all {total:,} sites named): {u:.0f} ms",
            "faster than unpaged",
            verdict(p < u),
        ),
        (
            "first page tokens",
            f"{page_tokens:,}",
            f"unpaged answer: {all_tokens:,}",
            "<= 10%",
            verdict(page_tokens <= all_tokens / 10),
        ),
    ]
    title = f"## References of a hub symbol (`bench/references.py`, median of {args.runs} alternating runs)"
    about = (
        f"`Base` with {total:,} references in {len(first.data['files'])} files (expected {expected:,}), "
        f"jedi-language-server; tokens by {tokenizer}."
    )
    table = f"{title}\n\n{about}\n\n{markdown_table(('Measure', 'Value', 'Baseline', 'Target', 'Result'), rows)}"
    print(table)
    write_block(RESULTS, "references", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
