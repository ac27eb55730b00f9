"""The files the agent hook (`cli/hook.py`) answered with an outline, per agent session: a
second read of one goes through.

One private file, `<state>/hook/sessions.json` (0600 in a 0700 folder,
`files.private_files`): `{session_id: {"used": unix time, "files": [absolute paths]}}`,
bounded — the `MAX_SESSIONS` sessions used last, `MAX_FILES` files each. Reading it costs
only the standard library (the hook's pass-through path); writers take a lock on
`sessions.lock` beside it, so two reads answered at once both stay recorded.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time

TYPE_CHECKING = False  # not typing's: importing typing costs the pass-through path milliseconds
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

#: How many sessions are remembered (the ones used last).
MAX_SESSIONS = 64
#: How many files one session remembers (the ones outlined last).
MAX_FILES = 1_000
#: A record larger than this is not read (it is rewritten from nothing).
MAX_RECORD_BYTES = 8 * 1024 * 1024


def record_path() -> str:
    """The sessions' record, in the state directory as `host.protocol.state_dir` finds it
    (the same rules, without importing pathlib and socket: the pass-through path's cost)."""
    folder = os.environ.get("SIMPLE_BRIEF_STATE_DIR", "")
    if not folder and sys.platform.startswith("linux"):
        base = os.environ.get("XDG_STATE_HOME", "").strip() or os.path.expanduser("~/.local/state")
        folder = os.path.join(base, "simple-brief")
    elif not folder:
        from simple_brief.host.protocol import state_dir

        folder = str(state_dir())
    return os.path.join(folder, "hook", "sessions.json")


def _load() -> dict[str, Any]:
    try:
        fd = os.open(record_path(), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return {}
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read(MAX_RECORD_BYTES + 1)
    try:
        loaded = json.loads(raw) if len(raw) <= MAX_RECORD_BYTES else {}
    except ValueError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


def seen(session: str, path: str) -> bool:
    """Whether the hook already answered a read of `path` in `session`."""
    entry = _load().get(session)
    return isinstance(entry, dict) and isinstance(entry.get("files"), list) and path in entry["files"]


def record(session: str, path: str) -> None:
    """Remember that the hook answered a read of `path` in `session`."""
    from pathlib import Path

    from simple_brief.files.private_files import write_private

    with _locked():
        sessions = {
            key: entry
            for key, entry in _load().items()
            if isinstance(entry, dict) and isinstance(entry.get("files"), list)
        }
        entry = sessions.pop(session, {"files": []})
        files = [name for name in entry["files"] if name != path][-(MAX_FILES - 1) :]
        sessions[session] = {"used": time.time(), "files": [*files, path]}
        kept = sorted(sessions.items(), key=lambda item: float(item[1].get("used", 0)))[-MAX_SESSIONS:]
        write_private(Path(record_path()), json.dumps(dict(kept)).encode())


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    import fcntl
    from pathlib import Path

    from simple_brief.files.private_files import FILE_MODE, private_dir

    folder = private_dir(Path(record_path()).parent)
    fd = os.open(folder / "sessions.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
