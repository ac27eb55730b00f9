"""Where the daemon listens and how the two sides talk: standard library only, because the
`simple-brief` command imports this before (and usually instead of) the engine.

One Unix socket per user, `<state>/daemon/daemon.sock` (0600, in a 0700 folder), beside the
lock file the running daemon holds (`daemon.lock`) and its log (`daemon.log`).

Messages are JSON objects, one per line (ASCII: `json.dumps` escapes the rest, lone
surrogates of undecodable file names included). The client sends one request:

    {"op": "call", "call": {...}, "process_env": {...}, "tty": {"stderr": b},
     "encoding": {"stderr": ...}, "identity": {...}}
    {"op": "status"} | {"op": "stop"}

(`call`: a tool call, `host.request.ToolCall`, with the client's environment, which it
sees; `process_env`: the client's `environment.PROCESS` variables, which must equal the
daemon's) and the daemon answers with frames: `{"e": text}` (the call's stderr: progress
bar, log lines), `{"hb": 1}` (still working: sent every `HEARTBEAT` seconds while the
request waits or runs), and last `{"answer": {...}}` (what `cli.calls.render` prints);
or `{"status": {...}}`, `{"stopping": pid}`, `{"mismatch": reason}` (another version of
simple-brief, or other user folders: the client works without it) or `{"mismatch": reason,
"restart": true}` (the same installation with other code: the daemon stops, and the client
starts a new one and asks it).

The identity both sides compare holds a fingerprint of the engine's own files (their
paths, mtimes and sizes, read once per process): an edited module of an editable install
restarts the daemon instead of leaving it answering with the old code.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import struct
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import simple_brief

TYPE_CHECKING = False  # not typing's: importing typing costs the script's fast path milliseconds
if TYPE_CHECKING:
    from typing import Any

#: Bumped when the messages change; a daemon of another protocol answers `mismatch`.
PROTOCOL = 2
#: `0`/`off` never uses a daemon, `1`/`on` does (over the user's config); for tests and scripts.
SWITCH_ENV = "SIMPLE_BRIEF_DAEMON"
#: Seconds between the daemon's "still working" frames.
HEARTBEAT = 1.0
#: Seconds without any frame after which the client gives the daemon up (it is stopped or stuck).
SILENCE_LIMIT = 10.0
#: Seconds a connect may take (a Unix socket answers at once or not at all).
CONNECT_TIMEOUT = 1.0
#: The longest line either side accepts.
MAX_LINE = 64 * 1024 * 1024
#: sun_path holds 108 bytes on Linux, 104 on macOS; longer paths are reached through /proc.
_SUN_PATH_LIMIT = 100


def state_dir() -> Path:
    """The state directory, as `simple_brief.files.private_files.state_dir` computes it (that
    module imports platformdirs; on Linux the answer is computed here without it)."""
    override = os.environ.get("SIMPLE_BRIEF_STATE_DIR", "")
    if override:
        return Path(override)
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_STATE_HOME", "").strip() or os.path.expanduser("~/.local/state")
        return Path(base) / "simple-brief"
    from simple_brief.files.private_files import state_dir as computed  # (platformdirs: macOS, Windows)

    return computed()


def daemon_dir() -> Path:
    """The daemon's folder: its socket, lock file and log."""
    return state_dir() / "daemon"


def socket_path() -> Path:
    """The Unix socket of this user's daemon."""
    return daemon_dir() / "daemon.sock"


def lock_path() -> Path:
    """The lock file the running daemon holds (fcntl.flock) for as long as it runs."""
    return daemon_dir() / "daemon.lock"


def log_path() -> Path:
    """Where the daemon logs what goes wrong inside it."""
    return daemon_dir() / "daemon.log"


@contextlib.contextmanager
def address(path: Path) -> Iterator[str]:
    """A name to bind or connect `path` by: itself, or (too long for a socket address) the
    same file reached through an open descriptor of its folder in /proc (Linux)."""
    if len(os.fsencode(path)) < _SUN_PATH_LIMIT or not os.path.isdir("/proc/self/fd"):
        yield str(path)
        return
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        yield f"/proc/self/fd/{folder}/{path.name}"
    finally:
        os.close(folder)


def private_folder_problem(folder: Path) -> str | None:
    """Why `folder` must not be trusted with the socket (not ours, or open to others), or None."""
    try:
        info = folder.lstat()
    except OSError as exc:
        return f"{folder} cannot be read ({exc.strerror})"
    if not stat.S_ISDIR(info.st_mode):
        return f"{folder} is not a folder"
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return f"{folder} belongs to another user"
    if stat.S_IMODE(info.st_mode) & 0o077:
        return f"{folder} is open to other users (mode {stat.S_IMODE(info.st_mode):o})"
    return None


def peer_uid(sock: socket.socket) -> int | None:
    """The user id of the process at the other end (SO_PEERCRED, Linux), None elsewhere."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    raw = sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", raw)
    return int(uid)


def connect(path: Path, timeout: float = CONNECT_TIMEOUT) -> socket.socket:
    """A connection to the daemon at `path`, checked to be this user's.

    Raises:
        FileNotFoundError: nothing listens there (no daemon was started).
        OSError: something is there but does not answer as our daemon would.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        with address(path) as name:
            sock.connect(name)
        uid = peer_uid(sock)
        if uid is not None and uid != os.getuid():
            raise PermissionError(f"the socket {path} is served by another user (uid {uid})")
    except BaseException:
        sock.close()
        raise
    return sock


_fingerprints: dict[str, str] = {}


def identity() -> dict[str, Any]:
    """What client and daemon must share: protocol, version, where the code lives, and the
    fingerprint of its files as this process first saw them (`engine_fingerprint`)."""
    home = os.path.dirname(os.path.abspath(simple_brief.__file__))
    engine = _fingerprints.get(home)
    if engine is None:
        engine = _fingerprints[home] = engine_fingerprint(home)
    return {"protocol": PROTOCOL, "version": simple_brief.__version__, "home": home, "engine": engine}


def engine_fingerprint(home: str) -> str:
    """`FILES:CRC` of every file of the package at `home` but compiled bytecode: their
    paths, mtimes and sizes (stat only: ~200 files, well under a millisecond)."""
    listing: list[str] = []
    folders = [home]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            folders.append(entry.path)
                        continue
                    if entry.name.endswith((".pyc", ".pyo")):
                        continue
                    with contextlib.suppress(OSError):
                        info = entry.stat(follow_symlinks=True)
                        listing.append(f"{entry.path}\0{info.st_mtime_ns}\0{info.st_size}")
        except OSError:
            listing.append(f"{folder}\0unreadable")
    listing.sort()
    text = "\n".join(listing).encode("utf-8", "surrogateescape")
    return f"{len(listing)}:{zlib.crc32(text):08x}{zlib.adler32(text):08x}"


def lock_is_held() -> bool:
    """Whether a daemon holds the lock (it runs, or is starting and not listening yet)."""
    try:
        fd = os.open(lock_path(), os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        import fcntl  # (POSIX only)

        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing drops a lock we took
    return False


def ask(message: dict[str, Any], timeout: float = 5.0) -> dict[str, Any] | None:
    """Send one message and return the first reply that is not a heartbeat (None: no reply).

    Raises:
        FileNotFoundError: no daemon listens.
        OSError: the daemon cannot be reached.
    """
    with connect(socket_path()) as sock:
        sock.settimeout(timeout)
        sock.sendall(encode(message))
        lines = Lines(sock)
        while (reply := lines.read()) is not None:
            if "hb" not in reply:
                return reply
        return None


def encode(message: dict[str, Any]) -> bytes:
    """One message as its line."""
    return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


class Lines:
    """Reads one JSON message per line from a socket, each within the socket's timeout."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()

    def read(self) -> dict[str, Any] | None:
        """The next message, or None when the other side closed the connection.

        Raises:
            TimeoutError: nothing came within the socket's timeout.
            ValueError: a line that is not a JSON object, or longer than MAX_LINE.
        """
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                message = json.loads(line)
                if not isinstance(message, dict):
                    raise ValueError("a message is not a JSON object")
                return message
            if len(self.buffer) > MAX_LINE:
                raise ValueError("a message is too long")
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                if self.buffer:
                    raise ValueError("the connection closed in the middle of a message")
                return None
            self.buffer += chunk
