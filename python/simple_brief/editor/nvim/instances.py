"""The Neovim instances: the running Neovims `simple-brief mcp` can attach to.

Each Neovim with the plugin writes `<state>/instances/<pid>.json` (lua/simple_brief/instances.lua)
holding `servername`, `cwd`, `pid`, `started` (Unix time), `version`, and once the person used
it `used` (Unix time of the last focus, typing or moving, fractional) and `file` (the last code
window's file), and removes it on exit. The one used last is the one an agent follows.
`<state>` is `$SIMPLE_BRIEF_STATE_DIR` when set, else platformdirs' user state directory for
`simple-brief` (`$XDG_STATE_HOME/simple-brief` or `~/.local/state/simple-brief` on Linux,
`~/Library/Application Support/simple-brief` on macOS, `%LOCALAPPDATA%\\simple-brief` on Windows).
The Lua side follows the same rule; keep the two in step.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import NotRequired, TypedDict

from simple_brief.files.private_files import state_dir

log = logging.getLogger(__name__)


class Instance(TypedDict):
    """One registered Neovim: the file's fields (`used` and `file` only once written)."""

    servername: str
    cwd: str
    pid: int
    started: float
    version: str
    used: NotRequired[float]
    file: NotRequired[str]


if sys.platform == "win32":
    import ctypes

    def _pid_alive(pid: int) -> bool:
        # os.kill(pid, 0) would terminate the process on Windows: ask the kernel instead.
        process_query_limited_information = 0x1000
        still_active = 259
        error_access_denied = 5
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        handle = kernel32.OpenProcess(process_query_limited_information, False, pid)
        if not handle:
            return ctypes.get_last_error() == error_access_denied  # running, under another user
        try:
            code = ctypes.c_ulong()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return False
            return code.value == still_active
        finally:
            kernel32.CloseHandle(handle)

else:

    def _pid_alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True  # running, under another user
        except OSError:
            return False
        return True


def _parse(path: Path) -> Instance | None:
    """An instance file's entry, or None when it is unreadable or malformed."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    pid, servername, cwd, started = data.get("pid"), data.get("servername"), data.get("cwd"), data.get("started")
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return None
    if not isinstance(servername, str) or not servername or not isinstance(cwd, str):
        return None
    if isinstance(started, bool) or not isinstance(started, int | float):
        return None
    version, used, file = data.get("version"), data.get("used"), data.get("file")
    entry = Instance(
        servername=servername,
        cwd=cwd,
        pid=pid,
        started=started,
        version=version if isinstance(version, str) else "",
    )
    if not isinstance(used, bool) and isinstance(used, int | float):
        entry["used"] = used
    if isinstance(file, str) and file:
        entry["file"] = file
    return entry


def _reachable(instance: Instance) -> bool:
    """The process runs and, for a Unix socket address, the socket is still there."""
    if not _pid_alive(instance["pid"]):
        return False
    server = instance["servername"]
    return not (server.startswith("/") and not os.path.exists(server))


def used(entry: Instance) -> float:
    """When the person last used this Neovim: `used`, else `started`."""
    return entry.get("used", entry["started"])


def last_use(entry: Instance) -> tuple[float, float, int]:
    """The sort key of `instances`: last use, then start, then pid."""
    return (used(entry), entry["started"], entry["pid"])


def instances(directory: Path | None = None) -> list[Instance]:
    """The live registered Neovims, the one used last first (`used`, else `started`).

    Args:
        directory: The state directory; `state_dir()` when None.

    Returns:
        Valid entries whose process still runs (files of dead ones are left for Neovim to prune).
    """
    folder = (directory if directory is not None else state_dir()) / "instances"
    try:
        paths = sorted(folder.glob("*.json"))
    except OSError:
        return []
    found = []
    for path in paths:
        if not path.stem.isdigit():
            continue
        entry = _parse(path)
        if entry is None:
            log.debug("ignoring malformed instance file %s", path)
        elif _reachable(entry):
            found.append(entry)
    found.sort(key=last_use, reverse=True)
    return found


def _normalized(path: str | os.PathLike[str]) -> Path:
    return Path(os.path.normcase(os.path.realpath(path)))


def for_workspace(workspace_root: str | os.PathLike[str], directory: Path | None = None) -> list[Instance]:
    """The live Neovims working on a workspace, the one used last first.

    Args:
        workspace_root: The workspace's root folder.
        directory: The state directory; `state_dir()` when None.

    Returns:
        The instances whose cwd is the workspace root or one of its ancestors.
    """
    root = _normalized(workspace_root)
    found = []
    for entry in instances(directory):
        cwd = _normalized(entry["cwd"])
        if cwd == root or cwd in root.parents:
            found.append(entry)
    return found


def best_instance(workspace_root: str | os.PathLike[str], directory: Path | None = None) -> Instance | None:
    """The live Neovim working on a workspace that the person used last.

    Args:
        workspace_root: The workspace's root folder.
        directory: The state directory; `state_dir()` when None.

    Returns:
        The instance used last (`used`, else `started`) whose cwd is the workspace root or
        one of its ancestors, else None.
    """
    found = for_workspace(workspace_root, directory)
    return found[0] if found else None


def registry_stamp(directory: Path | None = None) -> int | None:
    """A cheap token that changes when an instance file is written or removed (the folder's
    mtime: every write is a rename into it), None when the folder is not there."""
    folder = (directory if directory is not None else state_dir()) / "instances"
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return None
