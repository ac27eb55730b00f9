"""Files of a workspace: path safety, overlays, .gitignore-aware listing, a parse cache.

Every path a tool receives is resolved inside the workspace root, symlinks included,
or refused with one sentence (SPEC "Security"). Unsaved text (overlays: the editor's
buffers) wins over what is on disk.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.scan import Outline, scan
from simple_brief.source import BINARY_SNIFF, DEFAULT_MAX_BYTES, Source, human_size

#: Directories never listed, whatever .gitignore says (VCS data, caches, environments).
ALWAYS_SKIPPED = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".hypothesis",
        ".cache",
    }
)
#: Files larger than this are skipped by workspace-wide tools (search) as generated or vendored.
LISTING_MAX_BYTES = 1024 * 1024


@dataclass
class Workspace:
    """A root directory, the overlays laid over it, and parsed documents cached by identity.

    Attributes:
        root: the resolved workspace root; no tool reads outside it.
        overlays: unsaved content by resolved path; read instead of the disk.
        max_bytes: the largest file a tool reads.
    """

    root: Path
    overlays: dict[Path, str] = field(default_factory=dict)
    max_bytes: int = DEFAULT_MAX_BYTES
    _cache: dict[Path, tuple[object, Outline]] = field(default_factory=dict, repr=False)

    @classmethod
    def at(cls, root: str | os.PathLike[str] | None = None) -> Workspace:
        """A workspace rooted at `root` (default: the current directory).

        Raises:
            UserError: the root is not a directory.
        """
        path = Path(root if root is not None else os.getcwd()).expanduser()
        if not path.is_dir():
            raise UserError(f"workspace root {path} is not a directory; pass an existing folder with --root.")
        return cls(root=path.resolve())

    def resolve(self, path: str | os.PathLike[str]) -> Path:
        """The real path of `path` (relative to the root), refused unless it stays inside the root.

        Raises:
            UserError: the path leaves the workspace, directly or through a symlink.
        """
        raw = Path(path).expanduser()
        candidate = raw if raw.is_absolute() else self.root / raw
        real = candidate.resolve()
        if real != self.root and self.root not in real.parents:
            raise UserError(
                f"{path} is outside the workspace {self.root}; use a path inside it or start from another --root."
            )
        return real

    def display(self, path: Path) -> str:
        """Workspace-relative path for output; absolute when outside (seed 002 path rules)."""
        try:
            return path.relative_to(self.root).as_posix() or "."
        except ValueError:
            return str(path)

    def read(self, path: str | os.PathLike[str]) -> tuple[Path, Source]:
        """The resolved path and decoded text of a file; overlays first.

        Raises:
            UserError: missing file, a directory, a device, FIFO or socket, binary or too large.
        """
        real = self.resolve(path)
        if real in self.overlays:
            return real, Source(self.overlays[real])
        return real, Source.from_bytes(self._read_bytes(real, path), name=str(path), max_bytes=self.max_bytes)

    def _read_bytes(self, real: Path, shown: str | os.PathLike[str]) -> bytes:
        try:
            info = real.stat()
        except FileNotFoundError:
            raise UserError(f"{shown} does not exist; check the path (it is relative to {self.root}).") from None
        except OSError as exc:
            raise UserError(f"{shown} cannot be read ({exc.strerror}); check its permissions.") from None
        if stat.S_ISDIR(info.st_mode):
            raise UserError(f"{shown} is a directory; name a file inside it.")
        if not stat.S_ISREG(info.st_mode) or str(real).startswith("/proc/"):
            raise UserError(
                f"{shown} is not a regular file (a device, FIFO, socket or /proc entry); name a source file."
            )
        if info.st_size > self.max_bytes:
            raise UserError(
                f"{shown} is {human_size(info.st_size)}, over the {human_size(self.max_bytes)} limit; "
                "open a smaller file or raise the limit with --max-bytes."
            )
        try:
            return real.read_bytes()
        except OSError as exc:
            raise UserError(f"{shown} cannot be read ({exc.strerror}); check its permissions.") from None

    def outline(self, path: str | os.PathLike[str], filetype: str | None = None) -> tuple[Path, Outline]:
        """Parsed document, reused while the file (or overlay) is unchanged."""
        real = self.resolve(path)
        if real in self.overlays:
            key: object = ("overlay", hash(self.overlays[real]), filetype)
        else:
            try:
                info = real.stat()
                key = (info.st_mtime_ns, info.st_size, filetype)
            except OSError:
                key = None
        cached = self._cache.get(real)
        if cached is not None and key is not None and cached[0] == key:
            return real, cached[1]
        real, source = self.read(path)
        outline = scan(source, languages.detect(real, filetype))
        if key is not None:
            self._cache[real] = (key, outline)
        return real, outline

    def files(self, under: str | os.PathLike[str] | None = None, known_only: bool = True) -> Iterator[Path]:
        """Files below `under` (default the root) not ignored by .gitignore, in name order.

        Skips ALWAYS_SKIPPED directories, symlinks leading outside the root, files over
        LISTING_MAX_BYTES and, with `known_only`, files of no known language.

        Raises:
            UserError: `under` leaves the workspace or does not exist.
        """
        start = self.resolve(under) if under is not None else self.root
        if not start.exists():
            raise UserError(f"{under} does not exist; check the path (it is relative to {self.root}).")
        if start.is_file():
            yield start
            return
        specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
        for parent in [*reversed(start.parents), start]:
            if parent == self.root or self.root in parent.parents:
                spec = _gitignore(parent)
                if spec is not None:
                    specs.append((parent, spec))
        yield from self._walk(start, specs, known_only)

    def _walk(self, folder: Path, specs: list[tuple[Path, pathspec.GitIgnoreSpec]], known_only: bool) -> Iterator[Path]:
        own = _gitignore(folder)
        if own is not None and (not specs or specs[-1][0] != folder):
            specs = [*specs, (folder, own)]
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            path = Path(entry.path)
            is_dir = entry.is_dir(follow_symlinks=False)
            if is_dir and entry.name in ALWAYS_SKIPPED:
                continue
            if _ignored(path, is_dir, specs):
                continue
            if entry.is_symlink():
                try:
                    self.resolve(path)
                except UserError:
                    continue
                if path.resolve().is_dir():
                    continue
            if is_dir:
                yield from self._walk(path, specs, known_only)
            elif entry.is_file():
                if known_only and languages.for_path(path) is languages.PLAIN:
                    continue
                try:
                    if entry.stat().st_size > LISTING_MAX_BYTES:
                        continue
                except OSError:
                    continue
                if _looks_binary(path):
                    continue
                yield path


def _gitignore(folder: Path) -> pathspec.GitIgnoreSpec | None:
    ignore = folder / ".gitignore"
    try:
        text = ignore.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(text.splitlines())


def _ignored(path: Path, is_dir: bool, specs: list[tuple[Path, pathspec.GitIgnoreSpec]]) -> bool:
    """Git's rule: the deepest .gitignore with a pattern that matches decides (`!x` re-includes)."""
    for base, spec in reversed(specs):
        rel = path.relative_to(base).as_posix()
        if is_dir:
            rel += "/"
        decision = spec.check_file(rel).include
        if decision is not None:
            return bool(decision)
    return False


def _looks_binary(path: Path) -> bool:
    """A NUL byte in the first BINARY_SNIFF bytes (the test `Source.from_bytes` applies)."""
    try:
        with path.open("rb") as handle:
            return b"\0" in handle.read(BINARY_SNIFF)
    except OSError:
        return True
