"""Which editor a workspace reads: the attach rules, once (`attach`) or over time (`AutoBackend`).

1. `--nvim ADDR` (explicit): always that Neovim; it reconnects by itself.
2. `$NVIM` (set for processes started inside Neovim), when it answers.
3. The Neovim registered in the state directory whose cwd contains the workspace that the
   person used last (focus, typing: `used` in its instance file; else the newest); while
   attached this way `AutoBackend` follows whichever of them is used last.
4. Else a Neovim of 2 or 3 that is there but does not answer (stopped with Ctrl-Z, or
   busy): kept, answering from the disk until it answers again.
5. Else the disk.

Every backend gets the workspace root and its secrets rules: buffers of secrets files are
never sent from Neovim (`simple_brief.editor.nvim.backend`).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from simple_brief.editor import DiskBackend, EditorBackend, Snapshot
from simple_brief.editor.nvim import instances
from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.editor.nvim.buffers import workspace_secrets
from simple_brief.files.secret_files import SecretRules
from simple_brief.intel import LanguageIntel
from simple_brief.model import Diagnostic, Symbol, TextEdit
from simple_brief.proc import environment

log = logging.getLogger(__name__)


def attach(
    workspace_root: str | os.PathLike[str],
    explicit: str | None = None,
    *,
    state_dir: Path | None = None,
    **options: Any,
) -> EditorBackend:
    """The backend for a workspace, by the attach rules.

    1. `explicit` (`--nvim ADDR`): always that Neovim, even when it does not answer yet
       (the backend keeps trying to reconnect).
    2. `$NVIM` (set for processes started inside Neovim), when it answers.
    3. The registered Neovim whose cwd contains the workspace that was used last, when it answers.
    4. Else the first of those that is there but did not answer in time (a stopped
       Neovim): it answers from the disk until it is resumed.
    5. Else `DiskBackend()`.

    Args:
        workspace_root: the workspace's root folder.
        explicit: an address given on the command line.
        state_dir: the state directory (`private_files.state_dir()` when None).
        **options: `NvimBackend` keyword arguments (prefer, timeouts, secrets...); `root`
            is the workspace root unless given.

    Returns:
        A connected (or stalled) `NvimBackend`, the explicit one, or a `DiskBackend`.
    """
    options.setdefault("root", workspace_root)
    if explicit:
        backend = NvimBackend.connect(explicit, origin="--nvim", **options)
        if not backend.connected:
            log.warning("no Neovim answers at %s yet (--nvim); will retry", explicit)
        return backend
    candidates: list[tuple[str, str]] = []
    env = environment.get("NVIM", "")
    if env:
        candidates.append((env, "$NVIM"))
    try:
        entry = instances.best_instance(workspace_root, state_dir)
    except Exception:
        log.exception("reading the Neovim instances failed")
        entry = None
    if entry is not None:
        candidates.append((entry["servername"], "instances"))
    stalled: NvimBackend | None = None
    for address, origin in candidates:
        backend = NvimBackend.connect(address, origin=origin, **options)
        if backend.connected:
            if stalled is not None:
                stalled.close()
            return backend
        log.info("Neovim from %s at %s does not answer", origin, address)
        if backend.stalled and stalled is None:
            stalled = backend  # there, but stopped or busy: kept in case no other answers
        else:
            backend.close()
    return stalled if stalled is not None else DiskBackend()


class AutoBackend:
    """A backend that follows the attach rules over time.

    While it has no live Neovim (disk mode, or its Neovim went away), it re-runs `attach`
    at most once per `retry_interval` seconds, so a Neovim started or restarted later is
    picked up; calls in between answer as the current backend does (empty when none).
    A Neovim that is there but does not answer (stopped) is kept without re-attaching:
    its calls answer empty at once until it is resumed.

    Attached to a registered Neovim, it follows the one the person used last: at the start
    of a call (`snapshot`, `status`) it reads the registry again when an instance file
    changed (or `retry_interval` passed), and when another Neovim for the workspace was
    used last it connects to that one and closes the old connection. An address given
    with `--nvim`, or `$NVIM` (the agent runs inside that Neovim), is kept.

    Args:
        workspace_root: the workspace's root folder.
        explicit: `--nvim ADDR`; then only that address is used (it reconnects by itself).
        state_dir: the state directory (`private_files.state_dir()` when None).
        retry_interval: seconds between attach attempts.
        secrets: the secrets rules (None: the workspace's configs', read once here).
        **options: `NvimBackend` keyword arguments.
    """

    def __init__(
        self,
        workspace_root: str | os.PathLike[str],
        explicit: str | None = None,
        *,
        state_dir: Path | None = None,
        retry_interval: float = 1.0,
        secrets: SecretRules | None = None,
        **options: Any,
    ) -> None:
        self.workspace_root = Path(workspace_root)
        self.explicit = explicit
        self.state_dir = state_dir
        self.retry_interval = retry_interval
        if secrets is None:
            secrets = workspace_secrets(self.workspace_root)
        self._options = {**options, "retry_interval": retry_interval, "secrets": secrets}
        self._options.setdefault("root", self.workspace_root)
        self._lock = threading.Lock()
        self._last_attach = time.monotonic()
        #: The registered Neovims for the workspace (used last first), when they were read,
        #: and the registry's stamp then (`instances.registry_stamp`).
        self._peers: list[instances.Instance] = []
        self._last_scan = -float("inf")
        self._stamp: int | None = None
        #: Addresses that did not answer when they were the one used last, with that `used`:
        #: tried again only once used again.
        self._refused: dict[str, float] = {}
        self._inner: EditorBackend = attach(self.workspace_root, explicit, state_dir=state_dir, **self._options)

    @property
    def name(self) -> str:
        """The current backend's name (`nvim` or `disk`)."""
        return self._inner.name

    @property
    def current(self) -> EditorBackend:
        """The backend calls go to now (after a throttled re-attach when needed)."""
        return self._current_or_inner(follow=False)

    def _current_or_inner(self, follow: bool) -> EditorBackend:
        try:
            return self._current(follow)
        except Exception:
            log.exception("re-attaching failed")
            return self._inner

    def _current(self, follow: bool = False) -> EditorBackend:
        inner = self._inner
        if self.explicit:
            return inner
        live = isinstance(inner, NvimBackend) and (inner.connected or inner.stalled)
        if live and isinstance(inner, NvimBackend) and inner.origin == "$NVIM":
            return inner  # the agent runs inside that Neovim: keep it
        with self._lock:
            if live:
                return self._follow_last_used() if follow else self._inner
            now = time.monotonic()
            if now - self._last_attach < self.retry_interval:
                return self._inner
            self._last_attach = now
            fresh = attach(self.workspace_root, None, state_dir=self.state_dir, **self._options)
            # With no live Neovim found, a lost one is kept: its status says why.
            if isinstance(fresh, NvimBackend):
                if isinstance(inner, NvimBackend):
                    inner.close()
                self._inner = fresh
                self._last_scan = -float("inf")
                log.info("attached to Neovim at %s (%s)", fresh.address, fresh.origin)
            return self._inner

    def _refresh(self) -> None:
        """Read the registry again when an instance file changed or `retry_interval` passed."""
        stamp = instances.registry_stamp(self.state_dir)
        now = time.monotonic()
        if stamp == self._stamp and now - self._last_scan < self.retry_interval:
            return
        self._stamp, self._last_scan = stamp, now
        try:
            self._peers = instances.for_workspace(self.workspace_root, self.state_dir)
        except Exception:
            log.exception("reading the Neovim instances failed")
            self._peers = []

    def _follow_last_used(self) -> EditorBackend:
        """Under the lock, attached to a registered Neovim: switch to the one used last."""
        inner = self._inner
        assert isinstance(inner, NvimBackend)
        self._refresh()
        for entry in self._peers:
            address = entry["servername"]
            if address == inner.address:
                return inner  # still the one used last
            if self._refused.get(address) == instances.used(entry):
                continue  # did not answer; tried again once used again
            fresh = NvimBackend.connect(address, origin="instances", **self._options)
            if not fresh.connected:
                fresh.close()
                self._refused[address] = instances.used(entry)
                log.info("Neovim at %s (pid %s) was used last but does not answer", address, entry["pid"])
                continue
            self._refused.pop(address, None)
            inner.close()
            self._inner = fresh
            log.info("following Neovim at %s (pid %s): the person used it last", address, entry["pid"])
            return fresh
        return inner

    def editors(self) -> list[dict[str, Any]]:
        """The live Neovims registered for the workspace, in the order they started.

        Each: `pid`, `address`, `cwd`, `file` (its last code window's, "" unknown),
        `started` and `used` (Unix times), `usedLast` (the one the person used last),
        `followed` (the one calls go to) and, for that one, `origin` (`--nvim`, `$NVIM`,
        `instances`).
        """
        with self._lock:
            self._refresh()
            peers = list(self._peers)
        inner = self._inner
        address = inner.address if isinstance(inner, NvimBackend) else None
        origin = inner.origin if isinstance(inner, NvimBackend) else None
        pid = inner.status().get("pid") if isinstance(inner, NvimBackend) else None
        last = peers[0]["pid"] if peers else None
        out = []
        for entry in sorted(peers, key=lambda e: (e["started"], e["pid"])):
            followed = address is not None and (entry["servername"] == address or entry["pid"] == pid)
            item: dict[str, Any] = {
                "pid": entry["pid"],
                "address": entry["servername"],
                "cwd": entry["cwd"],
                "file": entry.get("file", ""),
                "started": entry["started"],
                "used": instances.used(entry),
                "usedLast": entry["pid"] == last,
                "followed": followed,
            }
            if followed:
                item["origin"] = origin
            out.append(item)
        return out

    def snapshot(self) -> Snapshot | None:
        """See `EditorBackend.snapshot`; first switches to the Neovim used last (see the class)."""
        return self._current_or_inner(follow=True).snapshot()

    def overlays(self) -> dict[Path, str]:
        """See `EditorBackend.overlays`."""
        return self.current.overlays()

    def diagnostics(self) -> dict[Path, list[Diagnostic]]:
        """See `EditorBackend.diagnostics`."""
        return self.current.diagnostics()

    def symbols(self, path: Path) -> list[Symbol] | None:
        """See `EditorBackend.symbols`."""
        return self.current.symbols(path)

    def intel(self) -> LanguageIntel | None:
        """See `EditorBackend.intel`."""
        return self.current.intel()

    def apply_edits(self, edits: dict[Path, list[TextEdit]]) -> list[Path]:
        """See `EditorBackend.apply_edits`."""
        return self.current.apply_edits(edits)

    def show_findings(self, kind: str, findings: dict[Path, list[Diagnostic]]) -> bool:
        """See `EditorBackend.show_findings`."""
        return self.current.show_findings(kind, findings)

    def show_debug(self, view: dict[str, Any]) -> dict[str, Any]:
        """See `EditorBackend.show_debug`."""
        return self.current.show_debug(view)

    def nvim_dap(self, function: str, args: list[Any], timeout: float) -> Any:
        """See `NvimBackend.nvim_dap`."""
        return self.current.nvim_dap(function, args, timeout)

    def review(self, function: str, args: list[Any]) -> dict[str, Any] | None:
        """See `EditorBackend.review`."""
        return self.current.review(function, args)

    def status(self) -> dict[str, Any]:
        """The current backend's status, with how it was chosen."""
        try:
            info = dict(self._current_or_inner(follow=True).status())
        except Exception as exc:
            info = {"backend": "unknown", "error": str(exc)}
        info["workspace"] = str(self.workspace_root)
        info["attach"] = "--nvim" if self.explicit else "auto"
        return info

    def close(self) -> None:
        """Close the current Neovim connection, if any."""
        inner = self._inner
        if isinstance(inner, NvimBackend):
            inner.close()
