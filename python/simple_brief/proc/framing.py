"""`Content-Length` framing over a child process's pipes, with bounds on everything: the one
framing of LSP (`lsp.process`) and of the Debug Adapter Protocol (`debug.client`), which
frame their JSON the same way.

Reading: a header block is at most `MAX_HEADER_BYTES` (stray blank lines included) and a
body at most `MAX_MESSAGE_BYTES`; anything else (an absurd, negative or non-numeric
length, a header block without `Content-Length`, headers that never end) raises
`MalformedMessage`, whose text says what was wrong. Writing: an `Outbox` is the one
writer of a server's input, a thread of its own fed by a queue, so no one who sends a
message (least of all the reader answering the server's requests) ever blocks on the
pipe; each frame is written before a deadline (`write_within`), else the outbox reports
the server as stalled. `lsp.process.Server` and `debug.client.DapClient` use both.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import IO, Any

log = logging.getLogger(__name__)

#: The largest message body accepted from a language server or debug adapter, bytes (the
#: largest answers seen, workspace symbols of a big monorepo, are a few MB).
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
#: The most header bytes before one body (LSP and DAP send one or two short lines).
MAX_HEADER_BYTES = 8 * 1024
#: Most bytes queued for one server; past it the server counts as not reading its input.
MAX_OUTBOX_BYTES = MAX_MESSAGE_BYTES


class MalformedMessage(Exception):
    """The server (or adapter) broke the framing; the text says how (shown to the user in a sentence)."""


def encode(message: dict[str, Any]) -> bytes:
    """`message` as one frame: header and UTF-8 JSON body (ASCII with `\\u` escapes when it
    holds a lone surrogate: a file name that is not UTF-8, which the other side reads back)."""
    text = json.dumps(message, ensure_ascii=False)
    try:
        body = text.encode("utf-8")
    except UnicodeEncodeError:
        body = json.dumps(message).encode("ascii")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def read_message(stream: IO[bytes]) -> dict[str, Any] | None:
    """One framed JSON message (JSON-RPC or DAP); None at the end of the stream; `{}` for a body that is
    not a JSON object (logged and skipped: the framing around it is intact).

    Raises:
        MalformedMessage: the header is broken or the length is not acceptable.
    """
    length: int | None = None
    seen = 0
    headers = 0
    while True:
        room = MAX_HEADER_BYTES - seen
        if room <= 0:
            raise MalformedMessage(f"over {MAX_HEADER_BYTES // 1024} KB of headers without a body")
        line = stream.readline(room)
        if not line:
            return None
        seen += len(line)
        line = line.strip()
        if not line:
            if length is not None:
                break
            if headers:
                raise MalformedMessage("a header block without Content-Length")
            continue  # a stray blank line between messages
        headers += 1
        name, _, value = line.decode("ascii", "replace").partition(":")
        if name.strip().lower() == "content-length":
            length = _length(value.strip())
    body = stream.read(length)
    if len(body) < length:
        return None
    try:
        message = json.loads(body)
    except ValueError:
        log.warning("a language server or debug adapter sent a message that is not JSON: %r", body[:200])
        return {}
    return message if isinstance(message, dict) else {}


def _length(value: str) -> int:
    if not (value.isascii() and value.isdigit()):
        raise MalformedMessage(f"Content-Length `{value[:40]}` is not a byte count")
    length = int(value)
    if length > MAX_MESSAGE_BYTES:
        raise MalformedMessage(f"Content-Length {length} is over the {MAX_MESSAGE_BYTES // (1024 * 1024)} MB limit")
    return length


def write_within(fd: int, data: bytes, deadline: float) -> bool:
    """Write all of `data` to the non-blocking pipe `fd` before `deadline` (`time.monotonic()`).

    Returns False when the deadline passed first: the other end stopped reading.

    Raises:
        OSError: the pipe broke (the server's end closed).
    """
    view = memoryview(data)
    poller = select.poll()  # not select(): descriptors above 1023 are fine
    poller.register(fd, select.POLLOUT)
    while True:
        with contextlib.suppress(BlockingIOError):  # a full pipe: wait below
            view = view[os.write(fd, view) :]
        if not view:
            return True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        # Wakes when the pipe has room, or at once with POLLERR when the server's end closed.
        poller.poll(max(1, math.ceil(remaining * 1000)))


class Outbox:
    """The writer of one server's input: `put` queues a frame and returns at once; a thread
    writes the frames in order, each within `timeout` seconds.

    `on_stall(why)` is called (from the writer thread, or from `put` when the queue passes
    `MAX_OUTBOX_BYTES`) when the server stops taking its input, `on_broken()` when the pipe
    breaks; after either, and after `close()`, frames are refused. The thread closes the
    pipe when it ends.
    """

    def __init__(
        self,
        pipe: IO[bytes],
        name: str,
        timeout: float,
        on_stall: Callable[[str], None],
        on_broken: Callable[[], None],
    ) -> None:
        self.timeout = timeout
        self._pipe = pipe
        self._on_stall = on_stall
        self._on_broken = on_broken
        self._frames: deque[bytes] = deque()
        self._bytes = 0
        self._closed = False
        self._ready = threading.Condition()
        os.set_blocking(pipe.fileno(), False)  # `write_within` waits with a deadline instead
        threading.Thread(target=self._run, name=name, daemon=True).start()

    def put(self, frame: bytes) -> bool:
        """Queue `frame`; False when the outbox is closed (or just overflowed and closed)."""
        with self._ready:
            if self._closed:
                return False
            if not self._frames or self._bytes + len(frame) <= MAX_OUTBOX_BYTES:
                self._frames.append(frame)
                self._bytes += len(frame)
                self._ready.notify()
                return True
            self._closed = True
            self._ready.notify()
        self._on_stall(f"over {MAX_OUTBOX_BYTES // (1024 * 1024)} MB waited for it")
        return False

    def close(self) -> None:
        """Refuse further frames; the thread ends (a frame being written ends at its deadline
        or when the pipe breaks, at once once the process is gone)."""
        with self._ready:
            self._closed = True
            self._ready.notify()

    def _run(self) -> None:
        try:
            while True:
                with self._ready:
                    self._ready.wait_for(lambda: self._frames or self._closed)
                    if self._closed:
                        return
                    frame = self._frames.popleft()
                    self._bytes -= len(frame)
                try:
                    written = write_within(self._pipe.fileno(), frame, time.monotonic() + self.timeout)
                except OSError:
                    self.close()
                    self._on_broken()
                    return
                if not written:
                    self.close()
                    self._on_stall(f"a message waited over {self.timeout:g}s to be written")
                    return
        except Exception as exc:  # never a silent death: the server would look alive
            self.close()
            self._on_stall(f"simple-brief could not write to it: {type(exc).__name__}: {str(exc)[:100]}")
        finally:
            with contextlib.suppress(OSError, ValueError):
                self._pipe.close()
