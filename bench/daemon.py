"""The `simple-brief` command through the per-user daemon against standalone, and the
daemon's memory after serving a large tree.

- `outline` of a Python and a C++ file (tests/fixtures/outline), runs alternating between
  the two files and the two ways so both see the same machine load: wall-clock p50/p90,
  and the interpreter's bare start (`python -c pass`) as the floor (target: <= 50 ms wall
  through the daemon);
- `search` over the bench tree (the standard library plus site-packages, hard-linked by
  bench/symbol_index.py; `--quick`: four stdlib packages): the first call (the daemon
  builds the symbol index), then warm calls through the daemon and standalone;
- the daemon's RSS (and peak, VmHWM) at start, after the outlines, after the tree;
- `search` over a generated tree of 100,000 small files (bench/generated_tree.py, in a
  temporary folder; `--files N`): the index's build, a cold CLI search (standalone, the
  index on disk: a stat walk), a search with no daemon running (it starts one, which
  walks the tree once that search is done), then warm CLI searches through it (`-v` says
  which calls walked: none should), against `find TREE -type f` and `grep -rn
  --include=*.py` over the same tree.

Every daemon figure comes from a daemon of its own (a temporary state directory).

    .venv/bin/python bench/daemon.py [--runs 15] [--quick] [--files 100000]

Prints a markdown table and writes it between markers into bench/results/latest.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "latest.md"
START, END = "<!-- daemon:start -->", "<!-- daemon:end -->"
GENERATED = ("<!-- daemon-generated:start -->", "<!-- daemon-generated:end -->")
FILES = {"python": ROOT / "tests/fixtures/outline/python.py", "cpp": ROOT / "tests/fixtures/outline/cpp.cpp"}
QUERIES = ("parse", "JSONDecoder", "read_text", "getLogger", "open_connection", "make_archive", "Request", "walk")


def progress(msg: str) -> None:
    print(f"[daemon] {msg}", file=sys.stderr, flush=True)


def script() -> list[str]:
    """The installed `simple-brief` script when it is the daemon-aware one, else its module."""
    exe = Path(sys.executable).with_name("simple-brief")
    if exe.exists() and "simple_brief.main" in exe.read_text(encoding="utf-8", errors="replace"):
        return [str(exe)]
    return [sys.executable, "-m", "simple_brief.main"]


def timed(argv: list[str], env: dict[str, str], cwd: Path | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False, timeout=3600)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr}")
    if done.stderr:
        progress(f"stderr of {' '.join(argv[-3:])}: {done.stderr.strip()}")
    return wall, done.stdout


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def status(cli: list[str], env: dict[str, str]) -> dict[str, object]:
    """The daemon's status, from its socket (the same answer `daemon status` prints)."""
    probe = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); from simple_brief.daemon import protocol; "
        "print(json.dumps(protocol.ask({'op': 'status'})['status']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(ROOT / "python")], env=env, capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout))


def peak_rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def mb(value: object) -> str:
    return f"{int(str(value)) / 1e6:.0f} MB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each file each way (default: %(default)s)")
    parser.add_argument("--quick", action="store_true", help="a small tree (four stdlib packages)")
    parser.add_argument("--files", type=int, default=100_000, help="files of the generated tree (0: none)")
    parser.add_argument("--generated-only", action="store_true", help="only the generated tree's rows")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "bench"))
    from symbol_index import build_tree

    cli = script()
    state = Path(tempfile.mkdtemp(prefix="sbb-"))
    base = {**os.environ, "SIMPLE_BRIEF_STATE_DIR": str(state), "SIMPLE_BRIEF_CACHE_DIR": str(state / "cache")}
    base.pop("PYTEST_CURRENT_TEST", None)
    alone = {**base, "SIMPLE_BRIEF_DAEMON": "0"}
    served = {**base, "SIMPLE_BRIEF_DAEMON": "1"}
    rows: list[tuple[str, str, str, str, str]] = []
    big: list[tuple[str, str, str, str, str]] = []
    try:
        if not args.generated_only:
            rows += outlines(cli, alone, served, args.runs)
            rows += big_tree(cli, alone, served, build_tree(args.quick), args.quick)
        if args.files:
            big = generated(cli, alone, served, args.files)
    finally:
        subprocess.run([*cli, "daemon", "stop"], env=served, capture_output=True, check=False)
        shutil.rmtree(state, ignore_errors=True)
    if rows:
        intro = f"{args.runs} runs of each file each way, alternating; `{' '.join(Path(c).name for c in cli)}`."
        publish("## Daemon (`bench/daemon.py`)", intro, rows, (START, END))
    if big:
        intro = (
            "`search` as CLI processes over a generated tree (bench/generated_tree.py: small Python, TypeScript,"
            " Go, Rust and Markdown files, ~10 a folder, 4-6 levels), against `find` and `grep` over the same tree."
        )
        publish(f"## Daemon: search over {args.files:,} files (`bench/daemon.py`)", intro, big, GENERATED)
    return 0


def publish(title: str, intro: str, rows: list[tuple[str, str, str, str, str]], markers: tuple[str, str]) -> None:
    table = "\n".join(
        [
            title,
            "",
            intro,
            "",
            "| Measure | Value | Baseline | Target | Result |",
            "| --- | --- | --- | --- | --- |",
            *(f"| {' | '.join(row)} |" for row in rows),
        ]
    )
    print(table)
    write(table, markers)


def outlines(
    cli: list[str], alone: dict[str, str], served: dict[str, str], runs: int
) -> list[tuple[str, str, str, str, str]]:
    floor = [timed([sys.executable, "-c", "pass"], alone)[0] for _ in range(runs)]
    subprocess.run([*cli, "daemon", "start"], env=served, check=True, capture_output=True)
    pid = int(str(status(cli, served)["pid"]))
    at_start = status(cli, served)["rss"]
    walls: dict[tuple[str, str], list[float]] = {}
    firsts: dict[str, float] = {}
    answers: dict[tuple[str, str], str] = {}
    for name, path in FILES.items():
        firsts[name], _ = timed([*cli, "outline", str(path)], served)  # the daemon compiles the query
        timed([*cli, "outline", str(path)], alone)  # page cache and bytecode, not measured
    progress(f"outline x{runs} each way")
    for _ in range(runs):
        for name, path in FILES.items():
            for way, env in (("alone", alone), ("daemon", served)):
                wall, out = timed([*cli, "outline", str(path)], env)
                walls.setdefault((name, way), []).append(wall)
                answers[(name, way)] = out
    after = status(cli, served)
    rows = [("interpreter start (`python -c pass`)", f"p50 {ms(pct(floor, 0.5))}", "—", "—", "—")]
    for name in FILES:
        a, d = walls[(name, "alone")], walls[(name, "daemon")]
        same = answers[(name, "alone")] == answers[(name, "daemon")]
        rows.append(
            (
                f"`outline` {name} file through the daemon",
                f"p50 {ms(pct(d, 0.5))}, p90 {ms(pct(d, 0.9))}; {statistics.median(a) / statistics.median(d):.1f}x "
                f"faster than standalone; same stdout: {'yes' if same else 'NO'}",
                f"standalone p50 {ms(pct(a, 0.5))}, p90 {ms(pct(a, 0.9))}",
                "<= 50 ms",
                "pass" if pct(d, 0.5) <= 0.05 and same else "**FAIL**",
            )
        )
        rows.append((f"first `outline` {name} in a fresh daemon", ms(firsts[name]), "—", "—", "—"))
    rows.append(
        (
            "daemon memory (RSS): idle / after the outlines",
            f"{mb(at_start)} / {mb(after['rss'])} (peak {mb(peak_rss(pid))}), {after['requests']} requests",
            "—",
            "< 500 MB",
            "pass" if int(str(after["rss"])) < 500e6 else "**FAIL**",
        )
    )
    return rows


def big_tree(
    cli: list[str], alone: dict[str, str], served: dict[str, str], tree: Path, quick: bool
) -> list[tuple[str, str, str, str, str]]:
    files = sum(1 for path in tree.rglob("*") if path.is_file())
    progress(f"first search over {tree} ({files} files) through the daemon: it builds the index")
    first, _ = timed([*cli, "search", QUERIES[0], "--root", str(tree)], served)
    warm = [timed([*cli, "search", q, "--root", str(tree)], served)[0] for q in QUERIES for _ in range(2)]
    progress("the same searches standalone (the index on disk: a stat walk per call)")
    cold = [timed([*cli, "search", q, "--root", str(tree)], alone)[0] for q in QUERIES[:3]]
    info = status(cli, served)
    pid = int(str(info["pid"]))
    built_peak = peak_rss(pid)
    progress("a fresh daemon, the index already on disk: one search loads its name table")
    subprocess.run([*cli, "daemon", "stop"], env=served, check=True, capture_output=True)
    subprocess.run([*cli, "daemon", "start"], env=served, check=True, capture_output=True)
    reopened, _ = timed([*cli, "search", QUERIES[1], "--root", str(tree)], served)
    again = status(cli, served)
    again_pid = int(str(again["pid"]))
    size = "quick tree" if quick else "stdlib + site-packages"
    return [
        (
            f"first `search` over the {size} ({files:,} files) through the daemon",
            f"{first:.1f} s (builds the symbol index)",
            "—",
            "—",
            "—",
        ),
        (
            "warm `search` through the daemon, same tree",
            f"first two {warm[0]:.1f} s, {warm[1]:.1f} s (the index reopened after the build, then the watcher's "
            f"first walk); then p50 {ms(pct(warm[2:], 0.5))}, p90 {ms(pct(warm[2:], 0.9))} ({len(warm) - 2} calls)",
            f"standalone p50 {ms(pct(cold, 0.5))} ({len(cold)} calls)",
            "—",
            "—",
        ),
        (
            "daemon memory (RSS) after indexing and serving that tree",
            f"{mb(info['rss'])} (peak {mb(built_peak)})",
            "—",
            "< 500 MB",
            "pass" if int(str(info["rss"])) < 500e6 else "**FAIL**",
        ),
        (
            "a fresh daemon on the built index: first `search`, then RSS",
            f"{reopened:.1f} s; {mb(again['rss'])} (peak {mb(peak_rss(again_pid))})",
            "—",
            "< 500 MB",
            "pass" if int(str(again["rss"])) < 500e6 else "**FAIL**",
        ),
    ]


def generated(
    cli: list[str], alone: dict[str, str], served: dict[str, str], count: int
) -> list[tuple[str, str, str, str, str]]:
    """Search over a generated tree of `count` files: build, cold (standalone), warm (daemon)."""
    from generated_tree import make_tree

    folder = Path(tempfile.mkdtemp(prefix="sb-tree-"))
    try:
        tree = folder / "tree"
        progress(f"writing {count:,} files into {tree}")
        made = make_tree(tree, count)
        names = ("fetch_user", "BillingAccount", "sendMessage", "parse_invoice", "LedgerService", "load_cache")
        search = [*cli, "search", "--root", str(tree)]
        progress("building its index (standalone)")
        build, _ = timed([*search, names[0]], alone)
        progress("cold searches: standalone, the index on disk")
        cold = [timed([*search, name], alone)[0] for name in names[:3]]
        subprocess.run([*cli, "daemon", "stop"], env=served, check=True, capture_output=True)
        progress("a search with no daemon running (it starts one), then searches through it")
        starting, _ = timed([*search, names[0]], served)
        while not (state := status_or_none(served)) or state.get("busy"):
            time.sleep(0.1)  # the new daemon walks the tree once the first search's process left
        first, walked = verbose_search(cli, served, tree, names[1])
        warm, walks = [], 0
        for name in names * 3:
            wall, did = verbose_search(cli, served, tree, name)
            warm.append(wall)
            walks += did
        find = [timed(["find", str(tree), "-type", "f"], alone)[0] for _ in range(3)]
        grep = [timed(["grep", "-rn", "--include=*.py", "def fetch_user", str(tree)], alone)[0] for _ in range(3)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    p50, find50, grep50, cold50 = pct(warm, 0.5), pct(find, 0.5), pct(grep, 0.5), pct(cold, 0.5)
    return [
        (f"generated tree ({made:,} files): first `search`, standalone", f"{build:.1f} s (builds it)", "—", "—", "—"),
        (
            "cold `search` (standalone CLI, the index on disk)",
            f"p50 {cold50:.1f} s ({len(cold)} calls; a stat walk and the name table each time)",
            f"`find -type f` p50 {ms(find50)}: {cold50 / find50:.0f}x",
            "—",
            "—",
        ),
        (
            "warm `search` through the daemon, same tree",
            f"the search starting it {starting:.1f} s (standalone); the daemon's first {ms(first)} "
            f"({'walked' if walked else 'no walk'}); then p50 {ms(p50)}, "
            f"p90 {ms(pct(warm, 0.9))} ({len(warm)} calls, {walks} walked); {cold50 / p50:.0f}x faster than cold",
            f"`find -type f` p50 {ms(find50)} ({p50 / find50:.2f}x); `grep -rn --include=*.py` p50 {ms(grep50)}"
            f" ({p50 / grep50:.2f}x)",
            "no walk after the call that started it",
            "pass" if walks == 0 and not walked else "**FAIL**",
        ),
    ]


def status_or_none(env: dict[str, str]) -> dict[str, object] | None:
    """The daemon's status, or None while none listens."""
    try:
        return status([], env)
    except subprocess.CalledProcessError:
        return None


def verbose_search(cli: list[str], env: dict[str, str], tree: Path, name: str) -> tuple[float, bool]:
    """One `-v search` through the daemon: its wall time and whether it walked the tree."""
    start = time.perf_counter()
    done = subprocess.run([*cli, "-v", "search", "--root", str(tree), name], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"search {name} failed ({done.returncode}): {done.stderr}")
    return wall, "INFO walked " in done.stderr


def write(table: str, markers: tuple[str, str]) -> None:
    start, end = markers
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    if start in text and end in text:
        before, _, rest = text.partition(start)
        _, _, after = rest.partition(end)
        text = before.rstrip() + "\n\n" + after.lstrip()
    RESULTS.write_text(f"{text.rstrip()}\n\n{start}\n{table}\n{end}\n", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
