"""The environment variables the engine reads, and whose values a call sees.

Standard library only: the `simple-brief` script imports it to send the daemon exactly the
variables below. In a standalone run a call sees the process's own environment. In the
daemon a call sees the values its client sent (`calling_with`, bound to the calling thread
through a context variable), never a swapped `os.environ`: the daemon's own environment
is not touched by a request.

The client sends its whole environment with a call: the programs the call starts (a task,
a test runner, a language server, a debug adapter) get it as it is (`for_child`), as they
would in a standalone run — a test that needs DJANGO_SETTINGS_MODULE from the person's
shell has it.

- `PER_CALL`: what the engine's own code reads during a call (through `get`), so each
  request may bring its own: PATH (the programs a workspace runs: language servers, tasks, debug adapters),
  NVIM (the Neovim `run` answers from), VIMRUNTIME (`docs index nvim`), RUSTUP_HOME (the
  rust-analyzer of a toolchain), SIMPLE_BRIEF_CACHE_DIR (the docs databases), COLUMNS and
  LINES (the width of a progress bar).
- `PROCESS`: read by code that runs once per process or by libraries (platformdirs, the
  user config and trust paths, the task cgroup): a daemon serves only clients whose values
  equal its own (else the client works without it).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from contextvars import ContextVar

PER_CALL = (
    "PATH",
    "NVIM",
    "VIMRUNTIME",
    "RUSTUP_HOME",
    "SIMPLE_BRIEF_CACHE_DIR",
    "COLUMNS",
    "LINES",
)
PROCESS = (
    "HOME",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "XDG_DATA_HOME",
    "SIMPLE_BRIEF_CONFIG",
    "SIMPLE_BRIEF_STATE_DIR",
    "SIMPLE_BRIEF_DOCS_PRIVATE",
    "SIMPLE_BRIEF_CGROUP2_ROOT",
    "NVIM_APPNAME",
)

_calling: ContextVar[Mapping[str, str] | None] = ContextVar("simple_brief_call_env", default=None)


def subset(environ: Mapping[str, str], names: tuple[str, ...]) -> dict[str, str]:
    """The variables of `names` that `environ` sets."""
    return {name: environ[name] for name in names if name in environ}


def get(name: str, default: str | None = None) -> str | None:
    """A `PER_CALL` variable as the running call sees it."""
    given = _calling.get()
    if given is None:
        return os.environ.get(name, default)
    return given.get(name, default)


def for_child() -> dict[str, str]:
    """The environment of a program a call starts: the client's whole environment in the
    daemon, this process's in a standalone run."""
    given = _calling.get()
    return dict(os.environ if given is None else given)


@contextlib.contextmanager
def calling_with(environ: Mapping[str, str]) -> Iterator[None]:
    """Within this block (this thread), `get` and `for_child` read `environ` (the client's)."""
    token = _calling.set(dict(environ))
    try:
        yield
    finally:
        _calling.reset(token)
