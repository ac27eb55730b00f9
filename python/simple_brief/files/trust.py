"""Trust: a workspace's own config may name programs only after the person trusted it.

Neovim's model (`:help vim.secure`, `:trust`): the trust database holds one line per file,
`<sha256 of the content> <absolute path>`, or `! <path>` for a file the person denied.
A config is trusted when the database holds its path with the hash of its current
content, so any change to the file needs a new `simple-brief trust`. simple-brief keeps
its own database at `<state>/trust` (0600, see `private_files.state_dir`) and also honours
Neovim's (`$XDG_STATE_HOME/nvim/trust`, written by `:trust`, `vim.secure.read` and
`:SimpleBrief trust`); a denial in either wins.
"""

from __future__ import annotations

import hashlib
import os
from enum import Enum
from pathlib import Path

from simple_brief.files.private_files import state_dir, write_private

DENIED = "!"


class Trust(Enum):
    """What the trust databases say of one file's current content."""

    TRUSTED = "trusted"
    DENIED = "denied"
    UNKNOWN = "unknown"  # never trusted, or changed since


def digest(data: bytes) -> str:
    """The hash Neovim's trust database records (sha256, hex), which `vim.fn.sha256` gives too."""
    return hashlib.sha256(data).hexdigest()


def database() -> Path:
    """simple-brief's own trust database."""
    return state_dir() / "trust"


def neovim_database() -> Path:
    """Neovim's trust database (`stdpath('state')/trust`, with $NVIM_APPNAME)."""
    base = os.environ.get("XDG_STATE_HOME") or ""
    state = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "state"
    return state / (os.environ.get("NVIM_APPNAME") or "nvim") / "trust"


def _entries(path: Path) -> dict[str, str]:
    """path -> hash (or `!`) of one database; empty when it is missing or unreadable."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    entries = {}
    for line in text.splitlines():
        value, _, file = line.partition(" ")
        if value and file:
            entries[file] = value
    return entries


def status(path: Path, data: bytes) -> Trust:
    """Whether `path` (absolute, resolved) with content `data` is trusted."""
    key = str(path)
    recorded = [_entries(db).get(key) for db in (database(), neovim_database())]
    if DENIED in recorded:
        return Trust.DENIED
    return Trust.TRUSTED if digest(data) in recorded else Trust.UNKNOWN


def _write(entries: dict[str, str]) -> None:
    text = "".join(f"{value} {file}\n" for file, value in sorted(entries.items()))
    write_private(database(), text.encode("utf-8"))


def allow(path: Path, data: bytes) -> None:
    """Trust `path` with exactly this content (a later change needs a new trust).

    Raises:
        OSError: the database cannot be written.
    """
    entries = _entries(database())
    entries[str(path)] = digest(data)
    _write(entries)


def deny(path: Path) -> None:
    """Record that the person refused `path`, whatever its content.

    Raises:
        OSError: the database cannot be written.
    """
    entries = _entries(database())
    entries[str(path)] = DENIED
    _write(entries)


def remove(path: Path) -> bool:
    """Forget `path` in simple-brief's database; whether it was there.

    Raises:
        OSError: the database cannot be written.
    """
    entries = _entries(database())
    if entries.pop(str(path), None) is None:
        return False
    _write(entries)
    return True
