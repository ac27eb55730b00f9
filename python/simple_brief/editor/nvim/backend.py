"""The editor backend for a live Neovim, over its RPC socket (pynvim).

`NvimBackend` answers the `EditorBackend` questions with one `exec_lua` request each
(the reading is `simple_brief.editor.nvim.buffers`):

- `snapshot()`: `require('simple_brief.context').snapshot()` (lua/simple_brief/context.lua),
  with the buffer text cached by (buffer, changedtick) so an unchanged buffer is not sent
  again;
- `overlays()`: the text of every modified file buffer (again only the changed ones are sent);
- `diagnostics()`: `vim.diagnostic.get()` for every buffer and every source;
- `symbols(path)`: `textDocument/documentSymbol` from an attached language server (not
  simple-brief's own client unless it is the only one), or None so the engine's scanner
  answers; `prefer='scanner'` always leaves symbols to the scanner.
- `intel()`, `apply_edits()`: the attached LSP clients and buffer edits (simple_brief.editor.nvim.intel).

Secrets files (SPEC "Security") never leave Neovim: the workspace's deny/allow globs travel
with every call that walks the buffers and are matched in Neovim (nvim_rpc.lua), so a
buffer whose file matches sends no text, no selected text and no diagnostics; the
snapshot names the file and the position and says the content is withheld. Language
questions about such a file are not asked.

Every pynvim call runs on the backend's own worker thread: pynvim runs an asyncio loop of
its own per request, which cannot run inside a caller's running event loop (an MCP
server's), and it is not thread-safe. A call that Neovim does not answer in time returns
empty, and calls made while it is still pending return empty at once, without waiting:
a stopped Neovim (Ctrl-Z, SIGSTOP) or a busy one costs one deadline, and `status()` says
that answers come from the disk until the pending call is answered. When Neovim goes
away (EOF, a refused connection), the backend says so in `status()`, answers empty, and
reconnects on a later call (throttled), clearing its caches for the new instance.

Which Neovim to attach to is `simple_brief.editor.nvim.attach`'s business.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

# Imported here, on the main thread: pynvim records the thread it is imported on as the
# main one, and installs signal handlers only there (the worker thread must not).
import pynvim

from simple_brief.editor import Snapshot
from simple_brief.editor.nvim import intel as nvim_intel
from simple_brief.editor.nvim.buffers import (
    BufferCache,
    SecretsGuard,
    read_diagnostics,
    read_overlays,
    read_snapshot,
    workspace_secrets,
)
from simple_brief.editor.nvim.intel import OWN_CLIENT
from simple_brief.files.secret_files import SecretRules
from simple_brief.intel.protocol import symbols_from_lsp
from simple_brief.model import Diagnostic, Symbol, TextEdit

log = logging.getLogger(__name__)

T = TypeVar("T")

Prefer = Literal["lsp", "scanner"]


#: The Lua side of the snapshot, shipped to Neovim when its runtimepath lacks the plugin.
_CONTEXT_LUA = resources.files("simple_brief.editor.nvim").joinpath("context.lua")

#: Helpers installed once per connection in `_G.simple_brief_rpc` (package data); each call
#: is then one short `exec_lua` naming a function.
_INSTALL_LUA = resources.files("simple_brief.editor.nvim").joinpath("rpc.lua").read_text(encoding="utf-8")

_SYMBOLS = "return simple_brief_rpc.symbols(...)"

__all__ = ["OWN_CLIENT", "NvimBackend"]


class _Worker:
    """One daemon thread that runs every pynvim call of a backend, in order."""

    def __init__(self, name: str) -> None:
        self._queue: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._queue.put((fn, future))
        return future

    def stop(self) -> None:
        self._queue.put(None)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            fn, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn())
            except BaseException as exc:  # handed to the caller, who logs it
                future.set_exception(exc)


def _close_session(nvim: Any) -> None:
    """Close a pynvim session, socket included.

    pynvim closes its asyncio loop right after asking the transport to close, before the
    loop has run the close: the socket would stay open until garbage collection (with a
    ResourceWarning). Let the loop run once in between; then close as usual.
    """
    with contextlib.suppress(Exception):
        events = nvim._session.loop  # pynvim's AsyncioEventLoop
        transport = getattr(events, "_transport", None)
        if transport is not None:
            events._transport = None
            transport.close()
            events._loop.run_until_complete(asyncio.sleep(0))
    with contextlib.suppress(Exception):
        nvim.close()


def _is_disconnect(exc: BaseException) -> bool:
    """Whether an exception means the connection to Neovim is gone (not a Lua error)."""
    if isinstance(exc, EOFError | OSError):
        return True
    # pynvim re-raises the loop's stored error; after EOF it may be a RuntimeError.
    return isinstance(exc, RuntimeError) and "closed" in str(exc).lower()


def _parse_address(address: str) -> tuple[str, str]:
    """The pynvim transport for an address: ('tcp', 'host:port') or ('socket', path or pipe)."""
    if "/" not in address and "\\" not in address:
        host, sep, port = address.rpartition(":")
        if sep and host and port.isdigit():
            return "tcp", address
    return "socket", address


class NvimBackend:
    """`EditorBackend` over a Neovim RPC address (Unix socket path, named pipe or host:port).

    Args:
        address: Neovim's `v:servername` (or any `--listen` address).
        prefer: 'lsp' to take document symbols from attached language servers when they
            have them; 'scanner' to always leave symbols to the engine's scanner.
        lsp_timeout_ms: how long a documentSymbol request may take in Neovim.
        call_timeout: seconds a call waits for Neovim before answering empty.
        retry_interval: seconds between reconnection attempts while disconnected.
        origin: how the address was found (`--nvim`, `$NVIM`, `instances`), for `status()`.
        root: the workspace root; buffers' files are matched against the secrets rules
            from it (None: whole paths are matched, so `.env` is withheld anywhere).
        secrets: the secrets rules in force; None: `config.load(root).secrets` (the
            defaults without a root, or when the config cannot be read).

    Raises:
        ValueError: `prefer` is neither 'lsp' nor 'scanner'.
    """

    name = "nvim"

    def __init__(
        self,
        address: str,
        *,
        prefer: Prefer = "lsp",
        lsp_timeout_ms: int = 500,
        call_timeout: float = 2.0,
        retry_interval: float = 1.0,
        origin: str = "explicit",
        root: str | os.PathLike[str] | None = None,
        secrets: SecretRules | None = None,
    ) -> None:
        if prefer not in ("lsp", "scanner"):
            raise ValueError(f"prefer must be 'lsp' or 'scanner', not {prefer!r}")
        self.address = address
        self.prefer: Prefer = prefer
        self.lsp_timeout_ms = lsp_timeout_ms
        self.call_timeout = call_timeout
        self.retry_interval = retry_interval
        self.origin = origin
        #: Buffer texts received and resolved buffer names (simple_brief.editor.nvim.buffers).
        self.buffers = BufferCache()
        #: The secrets rules sent with every call that walks Neovim's buffers.
        self.guard = SecretsGuard(root, secrets if secrets is not None else workspace_secrets(root))
        self._nvim: Any = None
        self._pid: int | None = None
        self._state = "not connected"
        self._error: str | None = None
        self._symbols_note: str | None = None
        #: The language server that gave the last document symbols.
        self.symbols_client: str | None = None
        self._last_attempt = -float("inf")
        self._connected_at: float | None = None
        self._pending: Future[Any] | None = None
        #: When the call still pending past its deadline started (None: Neovim answers).
        self._stalled_since: float | None = None
        # Re-entrant: a call's done-callback (`_answered`) may run where the call is submitted.
        self._lock = threading.RLock()
        self._worker: _Worker | None = None
        self._intel = nvim_intel.NvimIntel(self)

    # --- public API --------------------------------------------------------------------

    @classmethod
    def connect(cls, address: str, **options: Any) -> NvimBackend:
        """A backend for `address`, connected now when Neovim answers there.

        Args:
            address: Unix socket path, named pipe or `host:port`.
            **options: the constructor's keyword arguments.

        Returns:
            The backend; check `connected` (it keeps trying later when not).
        """
        backend = cls(address, **options)
        backend.ensure_connected()
        return backend

    @property
    def connected(self) -> bool:
        """Whether the backend holds a live connection (as of its last call)."""
        return self._nvim is not None

    @property
    def stalled(self) -> bool:
        """Whether a call is still waiting for Neovim past its deadline (stopped or busy):
        calls answer empty at once until it is answered."""
        return self._stalled_since is not None

    @property
    def lines_received(self) -> int:
        """How many buffers' lines Neovim sent (the text cache's misses)."""
        return self.buffers.lines_received

    def secret_rule(self, path: str | os.PathLike[str]) -> str | None:
        """The secrets rule a file matches (then nothing of it is asked from Neovim), or None."""
        return self.guard.rule(path)

    def ensure_connected(self) -> bool:
        """Connect now if disconnected (ignoring the retry throttle).

        Returns:
            Whether a connection is up afterwards.
        """
        self._last_attempt = -float("inf")
        return bool(self._call(lambda: True, False, "connect"))

    def snapshot(self) -> Snapshot | None:
        """The person's position now, in one request (None: no code window, or no Neovim)."""
        return self._call(self._snapshot, None, "snapshot")

    def overlays(self) -> dict[Path, str]:
        """Unsaved text of every modified file buffer, by resolved absolute path."""
        return self._call(self._overlays, {}, "overlays")

    def diagnostics(self) -> dict[Path, list[Diagnostic]]:
        """Every diagnostic Neovim holds (all buffers, all sources), by resolved path."""
        return self._call(self._diagnostics, {}, "diagnostics")

    def symbols(self, path: Path) -> list[Symbol] | None:
        """Document symbols of an open buffer from its language server, or None.

        None when `prefer` is 'scanner', the file is not loaded in Neovim, no language
        server attached to it provides document symbols (no waiting then), or the request
        failed or timed out (noted in `status()`): the engine's scanner answers instead.
        An empty list for a secrets file: its names are not asked from Neovim either.
        """
        if self.secret_rule(path) is not None:
            return []  # a secrets file: no symbols asked, and none read from the disk either
        if self.prefer == "scanner":
            return None
        timeout = self.call_timeout + self.lsp_timeout_ms / 1000
        return self._call(lambda: self._symbols(Path(path)), None, "symbols", timeout)

    def intel(self) -> nvim_intel.NvimIntel:
        """The LSP clients attached in this Neovim (simple_brief.editor.nvim.intel)."""
        return self._intel

    def apply_edits(self, edits: dict[Path, list[TextEdit]]) -> list[Path]:
        """Apply edits (code points) to Neovim's buffers, never to disk; see `nvim_intel.apply_edits`."""
        return nvim_intel.apply_edits(self, edits)

    def show_findings(self, kind: str, findings: dict[Path, list[Diagnostic]]) -> bool:
        """Show a task run's findings as `vim.diagnostic` entries in the `simple-brief.<kind>`
        namespace (lua/simple_brief/tasks.lua), replacing the last run's."""
        items = [
            {
                "path": str(path),
                "diagnostics": [
                    {
                        "lnum": d.range.start.line,
                        "col": d.range.start.character,
                        "end_lnum": d.range.end.line,
                        "end_col": d.range.end.character,
                        "severity": int(d.severity),
                        "message": d.message,
                        "source": d.source,
                        "code": d.code,
                    }
                    for d in diags
                ],
            }
            for path, diags in findings.items()
        ]

        def run() -> bool:
            self._nvim.exec_lua("return require('simple_brief.tasks').show(...)", kind, items)
            return True

        return self._call(run, False, "show findings", self.call_timeout + 0.05 * len(items))

    def show_debug(self, view: dict[str, Any]) -> dict[str, Any]:
        """Show a debug session's breakpoints as signs and its stopped line highlighted
        (extmarks of lua/simple_brief/debug.lua), replacing the session's last view."""

        def run() -> dict[str, Any]:
            shown = self._nvim.exec_lua("return require('simple_brief.debug').show(...)", view)
            return dict(shown) if isinstance(shown, dict) else {}

        return self._call(run, {}, "show debug", self.call_timeout)

    def nvim_dap(self, function: str, args: list[Any], timeout: float) -> Any:
        """Call `function` of lua/simple_brief/nvim_dap.lua (the person's nvim-dap driving a
        debug session) with `args`; its answer, or None when Neovim did not answer in
        `timeout` seconds."""

        def run() -> Any:
            return self._nvim.exec_lua(f"return require('simple_brief.nvim_dap').{function}(...)", *args)

        return self._call(run, None, f"nvim-dap {function}", timeout)

    def review(self, function: str, args: list[Any]) -> dict[str, Any] | None:
        """See `EditorBackend.review`: one `exec_lua` each."""

        def run() -> dict[str, Any] | None:
            if function == "buffer":
                return {"value": self._nvim.exec_lua(_BUFFER_LUA, *args)}
            module = "simple_brief.show" if function == "show" else "simple_brief.review"
            answer = self._nvim.exec_lua(_REVIEW_LUA, module, function, args)
            return dict(answer) if isinstance(answer, dict) else None

        # Loading a file into a buffer and folding it may take a fresh Neovim a few seconds.
        return self._call(run, None, f"review {function}", max(self.call_timeout, REVIEW_TIMEOUT))

    def status(self) -> dict[str, Any]:
        """What the backend is attached to, and whether Neovim answers.

        `connected` is False while Neovim is unreachable or does not answer (stopped,
        busy); `message` then says that answers come from the disk.
        """
        stalled = self._stalled_since
        info: dict[str, Any] = {
            "backend": self.name,
            "address": self.address,
            "origin": self.origin,
            "connected": self.connected and stalled is None,
            "state": self._state,
            "prefer": self.prefer,
        }
        if self._pid is not None:
            info["pid"] = self._pid
        if self._error:
            info["error"] = self._error
        if self._symbols_note:
            info["symbols_error"] = self._symbols_note
        if self.symbols_client:
            info["symbols_client"] = self.symbols_client
        if stalled is not None:
            info["message"] = self._stall_message(time.monotonic() - stalled)
        elif not self.connected:
            info["message"] = f"Neovim at {self.address} is not reachable ({self._state}); answering from disk"
        return info

    def _stall_message(self, waited: float) -> str:
        why = "stopped or busy"
        if self._pid is not None and _parse_address(self.address)[0] == "socket" and _stopped(self._pid):
            why = "its process is stopped, e.g. suspended with Ctrl-Z"
        return (
            f"Neovim at {self.address} has not answered for {waited:.0f} s ({why}); "
            "answering from disk, so unsaved changes in Neovim may be missing"
        )

    def close(self) -> None:
        """Drop the connection and stop the worker thread."""
        with self._lock:
            worker, self._worker = self._worker, None
        if worker is None:
            return
        done: Future[None] = worker.submit(self._drop)
        with contextlib.suppress(Exception):
            # Behind a call Neovim does not answer, the drop runs once it does (or never).
            done.result(timeout=0 if self.stalled else 1.0)
        worker.stop()
        self._state = "closed"

    # --- calls on the worker thread ---------------------------------------------------

    def _call(self, fn: Callable[[], T], default: T, what: str, timeout: float | None = None) -> T:
        """Run `fn` on the worker (connecting first when needed); `default` on any failure.

        While an earlier call is still waiting for Neovim, `default` at once: a stopped
        Neovim costs one deadline, not one per call, and the first answer ends the wait.
        """
        started = time.monotonic()
        try:
            with self._lock:
                pending = self._pending
                if pending is not None and not pending.done():
                    log.debug("nvim %s: a previous call is still waiting for Neovim", what)
                    return default
                if self._worker is None:
                    self._worker = _Worker(f"simple-brief-nvim:{self.address}")
                future = self._worker.submit(lambda: self._guarded(fn, default, what))
                future.add_done_callback(self._answered)
                self._pending = future
            return future.result(timeout=timeout if timeout is not None else self.call_timeout)
        except FutureTimeout:
            with self._lock:
                if not future.done() and self._stalled_since is None:
                    self._stalled_since = started
            self._state = "busy"
            self._error = f"Neovim did not answer {what} within {timeout or self.call_timeout:.1f}s"
            log.warning("%s", self._error)
            return default
        except Exception as exc:  # never raise to a tool call
            log.exception("nvim %s failed", what)
            self._error = f"{type(exc).__name__}: {exc}"
            return default

    def _answered(self, future: Future[Any]) -> None:
        """On the worker, when a call is done: Neovim answers (or is gone) again."""
        with self._lock:
            if self._stalled_since is not None:
                log.info("Neovim at %s answers again", self.address)
                self._stalled_since = None

    def _guarded(self, fn: Callable[[], T], default: T, what: str) -> T:
        """On the worker: connect when needed, run `fn`, turn failures into `default`.

        When the connection turns out to be gone, one reconnection is tried at once (a
        Neovim restarted at the same address answers this very call); else `default`.
        """
        for attempt in range(2):
            if self._nvim is None and not self._connect():
                return default
            try:
                result = fn()
            except Exception as exc:
                if not (_is_disconnect(exc) or self._gone()):
                    log.warning("nvim %s failed: %s", what, exc)
                    self._error = f"{what}: {exc}"
                    return default
                log.info("Neovim at %s went away during %s: %s", self.address, what, exc)
                self._drop()
                self._state = "disconnected"
                self._error = f"{what}: {type(exc).__name__}: {exc}"
                if attempt == 0:
                    continue
                return default
            self._state = "connected"
            if self._error and self._error.startswith("Neovim did not answer"):
                self._error = None
            return result
        return default

    def _gone(self) -> bool:
        """After an unclear error: whether the connection still answers."""
        try:
            self._nvim.api.get_mode()
        except Exception:
            return True
        return False

    def _connect(self) -> bool:
        now = time.monotonic()
        if now - self._last_attempt < self.retry_interval:
            return False
        self._last_attempt = now
        kind, target = _parse_address(self.address)
        try:
            if kind == "tcp":
                host, _, port = target.rpartition(":")
                nvim = pynvim.attach("tcp", address=host, port=int(port))
            else:
                nvim = pynvim.attach("socket", path=target)
        except Exception as exc:
            self._state = "disconnected" if self._connected_at is not None else "not connected"
            self._error = f"connect {self.address}: {type(exc).__name__}: {exc}"
            log.debug("no Neovim at %s: %s", self.address, exc)
            return False
        try:
            info = self._install(nvim)
        except Exception as exc:
            _close_session(nvim)
            self._state = "disconnected"
            self._error = f"setup {self.address}: {type(exc).__name__}: {exc}"
            log.warning("Neovim at %s did not take the simple-brief helpers: %s", self.address, exc)
            return False
        self._nvim = nvim
        self.buffers.clear()
        self._pid = int(info.get("pid") or 0) or None
        self._state = "connected"
        self._error = None if info.get("context") else "the simple-brief Lua plugin is not loaded in that Neovim"
        self._connected_at = time.monotonic()
        log.info("attached to Neovim at %s (pid %s)", self.address, self._pid)
        return True

    def _install(self, nvim: Any) -> dict[str, Any]:
        """Define the RPC helpers in this Neovim; ship context.lua when it is not on its runtimepath."""
        info: dict[str, Any] = nvim.exec_lua(_INSTALL_LUA, None)
        if not info.get("context") and _CONTEXT_LUA.is_file():
            source = _CONTEXT_LUA.read_text(encoding="utf-8")
            info = nvim.exec_lua(_INSTALL_LUA, source)
        return info

    def _drop(self) -> None:
        nvim, self._nvim = self._nvim, None
        self.buffers.clear()
        if nvim is not None:
            _close_session(nvim)

    def _snapshot(self) -> Snapshot | None:
        return read_snapshot(self._nvim, self.buffers, self.guard)

    def _overlays(self) -> dict[Path, str]:
        return read_overlays(self._nvim, self.buffers, self.guard)

    def _diagnostics(self) -> dict[Path, list[Diagnostic]]:
        return read_diagnostics(self._nvim, self.buffers, self.guard)

    def _symbols(self, path: Path) -> list[Symbol] | None:
        answer: dict[str, Any] = self._nvim.exec_lua(_SYMBOLS, str(path), int(self.lsp_timeout_ms), OWN_CLIENT)
        status = answer.get("status") if isinstance(answer, dict) else None
        if status != "ok":
            if status == "error":
                self._symbols_note = f"{answer.get('client')}: {answer.get('error')}"
                log.warning("documentSymbol from %s failed: %s", answer.get("client"), answer.get("error"))
            return None
        self._symbols_note = None
        self.symbols_client = str(answer.get("client") or "")
        try:
            return symbols_from_lsp(answer.get("result") or [])
        except (KeyError, TypeError, ValueError) as exc:
            self._symbols_note = f"{answer.get('client')}: unreadable documentSymbol answer ({exc})"
            log.warning("%s", self._symbols_note)
            return None


#: Seconds a review call (propose, status, show) may take before the tool says Neovim did not answer.
REVIEW_TIMEOUT = 5.0

#: `module.fn(unpack(args))` wrapped: `{value = …}`, or `{error = …}` when the plugin lacks it.
_REVIEW_LUA = """
local module, fn, args = ...
local ok, mod = pcall(require, module)
if not ok or type(mod) ~= 'table' or type(mod[fn]) ~= 'function' then
  return { error = 'the simple-brief plugin in this Neovim has no ' .. module .. '.' .. fn
    .. '; update the plugin' }
end
return { value = mod[fn](unpack(args)) }
"""

#: The loaded buffer of a file (by its full name): its lines, final newline and changedtick.
_BUFFER_LUA = """
local path = ...
for _, buf in ipairs(vim.api.nvim_list_bufs()) do
  local name = vim.api.nvim_buf_get_name(buf)
  if vim.api.nvim_buf_is_loaded(buf) and name ~= '' and (name == path or vim.fn.resolve(name) == path) then
    return {
      lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false),
      eol = vim.bo[buf].eol or vim.bo[buf].fixeol,
      tick = vim.api.nvim_buf_get_changedtick(buf),
    }
  end
end
return vim.NIL
"""


def _stopped(pid: int) -> bool:
    """Whether a local process is stopped (Linux /proc; False where that cannot be told)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return False
    fields = stat[stat.rfind(b")") + 1 :].split()
    return bool(fields) and fields[0] in (b"T", b"t")
