"""A command line's tool call as the daemon's request carries it, and the shape of its
answer: standard library only (the `simple-brief` script builds it before, and usually
instead of, importing the engine).

A call (`ToolCall`) names the tool (`""`: the `tools` listing), its arguments (a file named
on the command line made absolute: it is relative to the shell's folder), the folder the
command ran in, the root (`--root` as typed, or the folder of a file named outside the
current folder), budget, largest file, `--json`, whether to draw a progress bar, `-v`,
and `--nvim`. An answer is a JSON object: `blocks`, `data`, `tool`, or `error` (the user
error's sentence), or `listing` (what `tools` prints), or `code` alone (cancelled: 130; a
failure inside the daemon: 1, after its traceback on stderr). `cli.calls` builds calls
from command lines and prints answers; `host.command` runs them on a host.
"""

from __future__ import annotations

import os

from simple_brief.errors import UserError

TYPE_CHECKING = False  # not typing's: importing typing costs the script's fast path milliseconds
if TYPE_CHECKING:
    from typing import Any

#: Exit code of a user error (a bad argument, a refused path: one sentence on stderr).
EXIT_USER_ERROR = 2
#: The commands the `simple-brief` script hands to the per-user daemon (the others run here).
DAEMON_COMMANDS = ("outline", "expand", "symbols", "search", "diagnostics", "docs", "run", "tools")
#: Exit code of a call its person stopped (Ctrl-C; SIGINT's shell convention).
EXIT_CANCELLED = 130
#: How `-v` and warnings show a log line on stderr.
LOG_FORMAT = "simple-brief: %(levelname)s %(message)s"


class ToolCall:
    """One command line as a tool call (see the module's docstring). A plain class, not a
    dataclass: importing dataclasses costs the script's fast path about 5 ms."""

    __slots__ = FIELDS = (
        "command",
        "tool",
        "params",
        "cwd",
        "root",
        "budget",
        "max_bytes",
        "as_json",
        "progress",
        "verbose",
        "nvim",
        "env",
    )

    def __init__(
        self,
        command: str,
        tool: str,
        params: dict[str, Any],
        cwd: str,
        root: str | None = None,
        budget: int | None = None,
        max_bytes: int = 0,
        as_json: bool = False,
        progress: bool = False,
        verbose: bool = False,
        nvim: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.command, self.tool, self.params, self.cwd = command, tool, params, cwd
        self.root, self.budget, self.max_bytes = root, budget, max_bytes
        self.as_json, self.progress, self.verbose = as_json, progress, verbose
        self.nvim = nvim
        #: The client's environment, which the call sees (the daemon's requests only; `environment`).
        self.env: dict[str, str] = {} if env is None else env

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ToolCall) and self.message() == other.message()

    __hash__ = None  # type: ignore[assignment]

    def message(self) -> dict[str, Any]:
        """The call as the daemon's request carries it."""
        return {name: getattr(self, name) for name in self.FIELDS}

    @classmethod
    def from_message(cls, message: object) -> ToolCall:
        """A call from a request.

        Raises:
            ValueError: not a call this version of simple-brief sends.
        """
        if not isinstance(message, dict):
            raise ValueError("the call is not an object")
        try:
            call = cls(**message)
        except TypeError as exc:
            raise ValueError(f"the call does not fit: {exc}") from None
        texts = (call.command, call.tool, call.cwd)
        if not all(isinstance(text, str) for text in texts) or not isinstance(call.params, dict):
            raise ValueError("the call's command, tool, folder or arguments are not what they should be")
        if not isinstance(call.env, dict) or not all(isinstance(v, str) for v in call.env.values()):
            raise ValueError("the call's environment is not text")
        return call

    def folder(self) -> str:
        """The root to open, absolute (`root` relative to the command's folder, else that folder)."""
        if self.root is None:
            return self.cwd
        return os.path.join(self.cwd, os.path.expanduser(self.root))


def error_answer(err: UserError | str) -> dict[str, Any]:
    """The answer of a call that ended with a user error."""
    return {"error": str(err)}
