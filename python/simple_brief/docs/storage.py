"""The docs database's files on disk, checked before SQLite opens anything.

SQLite follows a symlink in place of its file (and writes wherever it leads), blocks
forever reading a FIFO, and fails on a folder; a `-wal` left behind by a deleted
database would be replayed into the new one. So the layout is decided from `lstat`
alone (`layout_problem`), anything that is not a regular file is set aside or removed
(`move_aside`), and the file is created by us, 0600, before SQLite opens it (its -wal and
-shm inherit that mode); the folders are 0700 (SPEC "Security").

The list of indexed libraries is kept outside the database too, in a small 0600 JSON
file next to it (`<db>.libraries.json`), so a rebuild never forgets which libraries the
person indexed: the answer names them and says how to index them again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import stat
import time
from pathlib import Path
from urllib.parse import quote

from simple_brief.docs.libraries import KNOWN
from simple_brief.files.private_files import FILE_MODE, narrow, write_private

log = logging.getLogger(__name__)

#: The files SQLite keeps next to a database.
SIDE_FILES = ("-wal", "-shm", "-journal")
#: The sidecar listing the indexed libraries.
SIDECAR = ".libraries.json"
#: A sidecar larger than this is not ours (a list of a few libraries).
MAX_SIDECAR_BYTES = 256 * 1024

#: A library as the sidecar keeps it: name -> {"root": folder, "source": what docs_index takes}.
Listing = dict[str, dict[str, str]]


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device or special file"


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def side(path: Path, suffix: str) -> Path:
    """The file `suffix` (`-wal`, `.libraries.json`, …) next to the database `path`."""
    return path.with_name(path.name + suffix)


def layout_problem(path: Path) -> str | None:
    """Why the files at `path` cannot be opened as they are, from `lstat` only (nothing is
    opened: opening a FIFO blocks); None when the database is a regular file (or absent
    and never made)."""
    info = _lstat(path)
    if info is None:
        stale = [s for s in SIDE_FILES if _lstat(side(path, s)) is not None]
        if stale:
            return f"its file was deleted and its {', '.join(stale)} file was left behind"
        if _lstat(side(path, SIDECAR)) is not None:
            return "its file was deleted"
        return None
    if not stat.S_ISREG(info.st_mode):
        return f"{_kind(info.st_mode)} stands where its file should be"
    for suffix in SIDE_FILES:
        extra = _lstat(side(path, suffix))
        if extra is not None and not stat.S_ISREG(extra.st_mode):
            return f"{_kind(extra.st_mode)} stands where its {suffix} file should be"
    return None


def create_file(path: Path) -> None:
    """Create the empty database file 0600 (never through a symlink) unless it exists;
    narrow it and its side files to 0600."""
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
        os.close(fd)
    narrow_all(path)


def narrow_all(path: Path) -> None:
    """Make the database and its -wal, -shm and -journal 0600 (regular files only)."""
    for candidate in (path, *(side(path, s) for s in SIDE_FILES)):
        info = _lstat(candidate)
        if info is not None and stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) != FILE_MODE:
            narrow(candidate)


def move_aside(path: Path) -> None:
    """Set a damaged database aside as `<name>.corrupt` (a file or a folder; it replaces an
    older one), remove a symlink, FIFO or socket in its place, and drop its side files."""
    for suffix in SIDE_FILES:
        _remove(side(path, suffix))
    info = _lstat(path)
    if info is None:
        return
    if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode):
        target = side(path, ".corrupt")
        old = _lstat(target)
        if old is not None and stat.S_ISDIR(old.st_mode):
            target = side(path, f".corrupt-{os.getpid()}-{time.monotonic_ns()}")
        elif old is not None:
            target.unlink()
        os.replace(path, target)
        if stat.S_ISREG(info.st_mode):
            narrow(target)
    else:
        path.unlink()


def _remove(path: Path) -> None:
    """Remove a side file; a folder in its place is set aside (never deleted with its content)."""
    info = _lstat(path)
    if info is None:
        return
    if stat.S_ISDIR(info.st_mode):
        os.replace(path, side(path, f".corrupt-{os.getpid()}-{time.monotonic_ns()}"))
    else:
        path.unlink()


# ---------------------------------------------------------------- the list of libraries


def read_listing(path: Path) -> Listing:
    """The libraries the sidecar of the database `path` lists (empty when it is missing or unreadable)."""
    sidecar = side(path, SIDECAR)
    try:
        fd = os.open(sidecar, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return {}
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {}
        raw = handle.read(MAX_SIDECAR_BYTES + 1)
    try:
        data = json.loads(raw) if len(raw) <= MAX_SIDECAR_BYTES else {}
    except ValueError:
        return {}
    libraries = data.get("libraries") if isinstance(data, dict) else None
    if not isinstance(libraries, dict):
        return {}
    return {
        str(name): {"root": str(entry.get("root", "")), "source": str(entry.get("source", "") or name)}
        for name, entry in libraries.items()
        if isinstance(entry, dict)
    }


def write_listing(path: Path, libraries: Listing) -> None:
    """Write the sidecar of the database `path` (0600, atomic); a failure is only logged."""
    data = json.dumps({"version": 1, "libraries": libraries}, indent=1, sort_keys=True).encode()
    try:
        write_private(side(path, SIDECAR), data)
    except OSError as exc:
        log.warning("docs: cannot write the list of libraries next to %s: %s", path, exc)


def salvage_listing(path: Path) -> Listing:
    """The libraries table of an old database file, when it can still be read (read-only,
    a regular file only); empty otherwise."""
    info = _lstat(path)
    if info is None or not stat.S_ISREG(info.st_mode):
        return {}
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True, timeout=0.1)
    except sqlite3.Error:
        return {}
    try:
        rows = conn.execute("SELECT name, root FROM libraries").fetchall()
    except sqlite3.Error:
        return {}
    finally:
        conn.close()
    return {str(name): {"root": str(root), "source": str(name) if name in KNOWN else str(root)} for name, root in rows}
