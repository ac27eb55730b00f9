"""Files simple-brief writes for itself (trust database, state, caches): 0600 in 0700 folders.

SPEC "Security": what simple-brief writes may hold paths, tokens or code; nobody but the
user reads it. Folders are created 0700 (an existing folder of ours is narrowed to 0700),
files are written whole to a temporary 0600 file and renamed over the old one, so a
reader never sees half a file and a crash never leaves one.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import platformdirs

DIR_MODE = 0o700
FILE_MODE = 0o600
APP_NAME = "simple-brief"
#: Overrides the state directory (the trust database, the Neovim instances, HTTP server files).
STATE_DIR_ENV = "SIMPLE_BRIEF_STATE_DIR"


def state_dir() -> Path:
    """The state directory the Python and Lua sides agree on (lua/simple_brief/instances.lua).

    Returns:
        `$SIMPLE_BRIEF_STATE_DIR` when set and non-empty, else platformdirs' user state
        directory for simple-brief (`$XDG_STATE_HOME/simple-brief` or
        `~/.local/state/simple-brief` on Linux; no app-author folder on Windows).
    """
    override = os.environ.get(STATE_DIR_ENV, "")
    if override:
        return Path(override)
    return Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))


def private_dir(path: Path) -> Path:
    """Create `path` and its missing parents as 0700 folders (`Path.mkdir(parents=True)`
    would give the parents the umask's mode); narrow an existing one we own.

    Raises:
        OSError: it cannot be created, or it is not a folder.
    """
    missing = []
    current = path
    while not os.path.lexists(current) and current != current.parent:
        missing.append(current)
        current = current.parent
    for part in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(part, DIR_MODE)
    info = path.lstat()
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(f"{path} is not a folder")
    if info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(path, stat.S_IMODE(info.st_mode) & ~0o077)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write `data` to `path` as a 0600 file in a 0700 folder, atomically (temp file + rename).

    Raises:
        OSError: the folder or the file cannot be written.
    """
    private_dir(path.parent)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, FILE_MODE)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def narrow(path: Path) -> None:
    """Make an existing file of ours 0600 (e.g. a database SQLite created with the umask)."""
    with contextlib.suppress(OSError):
        if stat.S_IMODE(path.stat().st_mode) != FILE_MODE:
            os.chmod(path, FILE_MODE)
