"""A program that leaves processes behind the ways a real one can (run by the tests as a
task's or a debug adapter's program): `escaping.py MODE PIDFILE [HOLD]`.

MODE: `setsid` (a child in a session of its own), `setpgid` (a child in a process group of
its own), `daemon` (a double fork that leaves with setsid and closes its output), `tree`
(a setsid child that forks 49 more: 50 processes), `memory` (4 children, each in a process
group of its own, each holding 60 MB). Every process that escapes writes its pid to
PIDFILE (one a line) and sleeps; the program waits until all did, then exits 0 — or, with
HOLD, sleeps that many seconds first."""

import os
import sys
import time

MODE, PIDFILE = sys.argv[1], sys.argv[2]
HOLD = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
COUNTS = {"setsid": 1, "setpgid": 1, "daemon": 1, "tree": 50, "memory": 4}


def record() -> None:
    fd = os.open(PIDFILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.write(fd, f"{os.getpid()}\n".encode())
    os.close(fd)


def record_and_sleep() -> None:
    record()
    time.sleep(300)
    os._exit(0)


def forked(body) -> int:
    pid = os.fork()
    if pid == 0:
        try:
            body()
        finally:
            os._exit(0)
    return pid


def daemon() -> None:
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        record_and_sleep()
    os._exit(0)


def tree() -> None:
    os.setsid()
    for _ in range(COUNTS["tree"] - 1):
        forked(record_and_sleep)
    record_and_sleep()


def memory() -> None:
    os.setpgid(0, 0)
    record()  # before the memory: the limit may stop it as soon as it holds it
    held = b"x" * (60 * 1024 * 1024)
    time.sleep(300)
    del held
    os._exit(0)


def main() -> None:
    if MODE == "setsid":
        forked(lambda: (os.setsid(), record_and_sleep()))
    elif MODE == "setpgid":
        forked(lambda: (os.setpgid(0, 0), record_and_sleep()))
    elif MODE == "daemon":
        os.waitpid(forked(daemon), 0)
    elif MODE == "tree":
        forked(tree)
    elif MODE == "memory":
        for _ in range(COUNTS["memory"]):
            forked(memory)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with open(PIDFILE, encoding="ascii") as handle:
                if len(handle.read().split()) >= COUNTS[MODE]:
                    break
        except OSError:
            pass
        time.sleep(0.02)
    print(f"{MODE}: started", flush=True)
    time.sleep(HOLD)


if __name__ == "__main__":
    main()
