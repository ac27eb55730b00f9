"""Finding the program a command's first word names: one rule for every program simple-brief
starts (tasks, debug adapters, language servers configured or discovered).

- A bare name (`ruff`) is looked up only in the PATH entries a workspace may run programs
  from: absolute entries that do not resolve inside the workspace root. A relative entry
  (`.`, `./node_modules/.bin`) or an empty one (a leading, doubled or trailing `:`, which
  means the current folder) is skipped, and so is an absolute entry inside the root: a
  repository must not plant its own `./ruff` or `node_modules/.bin/ruff` in place of the
  program the person trusted.
- A word with a `/` is an explicit path the (trusted) config names: absolute, or relative
  to the folder the command runs in (`.venv/bin/python`); it is used as written.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from simple_brief.proc import environment


def path_dirs(root: Path, path_env: str | None = None) -> list[Path]:
    """The PATH entries (`path_env`, default the process's) a workspace at `root` may run
    programs from: absolute ones that do not resolve inside `root`."""
    inside = root.resolve()
    kept = []
    for entry in dict.fromkeys(_entries(path_env)):
        if not entry or not os.path.isabs(entry):
            continue
        try:
            real = Path(entry).resolve()
        except (OSError, RuntimeError):
            continue
        if real != inside and inside not in real.parents:
            kept.append(Path(entry))
    return kept


def on_path(name: str, root: Path, path_env: str | None = None) -> Path | None:
    """`name` in the first PATH entry that holds it as an executable file, skipping entries
    that are relative or empty (the current folder) or that resolve inside `root`."""
    return next((folder / name for folder in path_dirs(root, path_env) if is_executable(folder / name)), None)


def find(word: str, root: Path, cwd: Path, path_env: str | None = None) -> Path | None:
    """The program a command's first word names (see the module doc), or None."""
    if "/" in word:
        candidate = Path(word).expanduser()
        candidate = candidate if candidate.is_absolute() else cwd / candidate
        return candidate if is_executable(candidate) else None
    return on_path(word, root, path_env)


def skipped(name: str, root: Path, cwd: Path, path_env: str | None = None) -> str | None:
    """Where a bare `name` would have been found through a PATH entry `on_path` skips
    (`./ruff`), for the sentence that says why it was not run; None when nowhere."""
    kept = set(path_dirs(root, path_env))
    for entry in _entries(path_env):
        if entry and Path(entry) in kept:
            continue
        folder = Path(entry) if os.path.isabs(entry) else cwd / entry
        if is_executable(folder / name):
            return os.path.join(entry or ".", name)
    return None


def shown(argv: Sequence[str], root: Path, cwd: Path | None = None, path_env: str | None = None) -> str:
    """A command as the person reviews it before trusting: its words, and the program file
    its first word resolves to (`ruff check . → /usr/bin/ruff`)."""
    words = " ".join(argv)[:60]
    found = find(argv[0], root, cwd or root, path_env)
    if found is None and "/" in argv[0]:
        return f"{words} → not found"
    if found is None:
        where = skipped(argv[0], root, cwd or root, path_env)
        why = f"; {where} is the workspace's own and is never run" if where else ""
        return f"{words} → not found outside the workspace{why}"
    if "/" not in argv[0] or not Path(argv[0]).is_absolute():
        return f"{words} → {found}"
    return words


def is_executable(path: Path) -> bool:
    """Whether `path` is an executable regular file (links followed)."""
    try:
        return path.is_file() and os.access(path, os.X_OK)
    except OSError:
        return False


def _entries(path_env: str | None) -> list[str]:
    return (environment.get("PATH", os.defpath) or os.defpath if path_env is None else path_env).split(os.pathsep)
