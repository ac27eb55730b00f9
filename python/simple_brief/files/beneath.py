"""The one door every file is read through (SPEC "Security"): `read_beneath` opens a file
below a root one component at a time from the root's descriptor, never following a symlink
(`openat` with `O_NOFOLLOW`), decides from `lstat` before opening (a FIFO would block, a
device never ends) and checks with `fstat` that what was opened is what was checked.
`Workspace`, the docs index's libraries and the editor context all read through it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path, PurePath

from simple_brief.errors import UserError
from simple_brief.files.path_escapes import escape_path
from simple_brief.source import BINARY_SNIFF, human_size


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as given, made safe for a one-line message: one with control characters (a
    newline, an escape) or bytes that are not UTF-8 is quoted with them escaped
    (`path_escapes.escape_path`, the form listings show); a long one is cut."""
    given = os.fspath(path)
    text = escape_path(given)
    if text != given:
        text = f"'{text}'"
    return text if len(text) <= 160 else text[:80] + "…" + text[-40:]


#: Flags of each folder on the way down (never a symlink) and of the file at the end
#: (never a symlink, never blocks on a FIFO, never becomes our terminal).
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NOCTTY


def _changed(shown: str) -> UserError:
    return UserError(f"{shown} changed while being read (a folder or the file became a symlink); try again.")


def _open_error(shown: str, exc: OSError, root: Path) -> UserError:
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return _changed(shown)
    if exc.errno == errno.ENOENT:
        return UserError(f"{shown} does not exist; check the path (it is relative to {root}).")
    return UserError(f"{shown} cannot be read ({exc.strerror}); check its permissions.")


@contextlib.contextmanager
def folder_beneath(root: Path, parts: tuple[str, ...], shown: str) -> Iterator[int]:
    """A descriptor of the folder `root/parts…`, each component opened from the one above
    without following a symlink, so no swap on the way can lead out of `root`.

    Raises:
        UserError: a component is missing, not a folder, or a symlink (it changed meanwhile).
    """
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise UserError(f"the root {root} cannot be opened ({exc.strerror}); check it exists.") from None
    try:
        for name in parts:
            if name in ("", ".", "..") or "/" in name:
                raise UserError(f"{shown} has a `{name}` component; give a plain path.")
            try:
                inner = os.open(name, DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise _open_error(shown, exc, root) from None
            os.close(fd)
            fd = inner
        yield fd
    finally:
        os.close(fd)


def read_at(folder: int, name: str, shown: str, max_bytes: int, root: Path, sniff: bool = False) -> bytes:
    """The bytes of the regular file `name` in the folder descriptor `folder`, never
    following a symlink nor blocking; `sniff` reads only the first BINARY_SNIFF bytes.

    Raises:
        UserError: missing, a symlink, a directory, a device, FIFO or socket, or over `max_bytes`.
    """
    try:
        before = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError as exc:
        raise _open_error(shown, exc, root) from None
    # Decide from `lstat` before opening anything: opening a FIFO blocks, a device never ends.
    if stat.S_ISLNK(before.st_mode):
        raise _changed(shown)
    if stat.S_ISDIR(before.st_mode):
        raise UserError(f"{shown} is a directory; name a file inside it.")
    if not stat.S_ISREG(before.st_mode):
        raise UserError(f"{shown} is not a regular file but a {file_kind(before.st_mode)}; name a source file.")
    if not sniff:
        _check_size(shown, before.st_size, max_bytes)
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=folder)
    except OSError as exc:
        raise _open_error(shown, exc, root) from None
    with os.fdopen(fd, "rb") as handle:
        # Check what was opened, not the name: the same regular file `lstat` saw.
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (before.st_dev, before.st_ino):
            raise _changed(shown)
        # Bounded read: a file growing after the stat cannot exceed the limit.
        data = handle.read(BINARY_SNIFF if sniff else max_bytes + 1)
    if not sniff:
        _check_size(shown, len(data), max_bytes)
    return data


def read_beneath(root: Path, rel: str | PurePath, max_bytes: int, shown: str | None = None) -> bytes:
    """The bytes of `root/rel`, opened with no symlink followed at any component (SPEC
    "Security"): the one door for every file simple-brief reads, in the workspace or in a
    library folder.

    Raises:
        UserError: see `folder_beneath` and `read_at`.
    """
    parts = PurePath(rel).parts
    label = shown if shown is not None else shown_path(rel)
    if not parts or PurePath(rel).is_absolute():
        raise UserError(f"{label} is not a file inside {root}; name a file.")
    with folder_beneath(root, parts[:-1], label) as folder:
        return read_at(folder, parts[-1], label, max_bytes, root)


def _check_size(shown: str, size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise UserError(
            f"{shown} is {human_size(size)}, over the {human_size(max_bytes)} limit; "
            "open a smaller file or raise the limit with --max-bytes."
        )


def file_kind(mode: int) -> str:
    """What `stat` says a path is, for refusals of what is not a regular file."""
    if stat.S_ISFIFO(mode):
        return "named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "special file"
