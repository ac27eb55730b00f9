"""Start the daemon detached from the calling process (standard library only)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable


def spawn(become_daemon: Callable[[], int]) -> None:
    """Run `become_daemon` in a process detached from this one: a double fork (its own
    session, no terminal, stdio on /dev/null, no inherited descriptor, so a caller
    capturing our output is never kept waiting by it). Nothing is executed: the grandchild
    is this interpreter, which imports the engine itself. Returns at once in the caller."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    child = os.fork()
    if child:
        os.waitpid(child, 0)  # the first child leaves at once; its child is adopted by init
        return
    code = 1
    try:
        os.setsid()
        if os.fork():
            os._exit(0)
        os.chdir("/")
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, 1 << 16)
        code = become_daemon()
    finally:
        os._exit(code)
