"""First run in Neovim: how long `:checkhealth simple_brief` takes, and how soon `:SimpleBrief`
reports an engine that is not installed, each beside a named baseline in the same run.

- `:checkhealth simple_brief` (engine: this checkout's, as a child process) against Neovim's
  own `:checkhealth vim.lsp` in the same headless Neovim set-up.
- `:SimpleBrief` with no engine (`python3 -m <missing module> lsp`): the time until its error
  message, against the attach timeout it would otherwise wait out (10 s by default).

Runs alternate; each figure is the median of the runs.

    .venv/bin/python bench/first_run.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from nvim_session import nvim  # noqa: E402  (the tests' isolated headless Neovim)

ATTACH_TIMEOUT_MS = 10000
SAMPLE = "import os\n\n\ndef f():\n    return os.sep\n"


def health_ms(name: str) -> float:
    """Wall milliseconds of `:checkhealth name` in a fresh headless Neovim."""
    with tempfile.TemporaryDirectory() as tmp, nvim(Path(tmp)) as nv:
        start = time.perf_counter()
        nv.command(f"checkhealth {name}")
        return (time.perf_counter() - start) * 1000


def missing_engine_ms() -> float:
    """Wall milliseconds until `:SimpleBrief` reports a child server that exited at once."""
    with tempfile.TemporaryDirectory() as tmp, nvim(Path(tmp), SIMPLE_BRIEF_TEST_PYTHON="") as nv:
        nv.exec_lua(
            "require('simple_brief').setup({ cmd = { ..., '-m', 'simple_brief_not_installed', 'lsp' },"
            f" attach_timeout_ms = {ATTACH_TIMEOUT_MS} }})",
            sys.executable,
        )
        source = Path(tmp) / "a.py"
        source.write_text(SAMPLE)
        nv.command(f"edit {source}")
        start = time.perf_counter()
        nv.command("SimpleBrief")
        elapsed = (time.perf_counter() - start) * 1000
        said = nv.exec_lua("return vim.api.nvim_exec2('messages', { output = true }).output")
    if "exited at once" not in said:
        raise SystemExit(f"first_run: :SimpleBrief did not report the missing engine: {said!r}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ours, theirs, missing = [], [], []
    for _ in range(args.runs):
        ours.append(health_ms("simple_brief"))
        theirs.append(health_ms("vim.lsp"))
        missing.append(missing_engine_ms())
    o, t, m = (statistics.median(x) for x in (ours, theirs, missing))
    print(f"## First run in Neovim (median of {args.runs})\n")
    print("| measure | ms | baseline | ms | ratio |")
    print("| --- | ---: | --- | ---: | ---: |")
    print(f"| `:checkhealth simple_brief` | {o:.0f} | `:checkhealth vim.lsp` | {t:.0f} | {o / t:.2f}x |")
    print(
        f"| `:SimpleBrief` with no engine, until the message | {m:.0f} | attach timeout | {ATTACH_TIMEOUT_MS} | "
        f"{m / ATTACH_TIMEOUT_MS:.3f}x |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
