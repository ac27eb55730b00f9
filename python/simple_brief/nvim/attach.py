"""Which editor a workspace reads: the attach rules, once (`attach`) or over time (`AutoBackend`).

1. `--nvim ADDR` (explicit): always that Neovim; it reconnects by itself.
2. `$NVIM` (set for processes started inside Neovim), when it answers.
3. The newest Neovim registered in the state directory whose cwd contains the workspace.
4. Else a Neovim of 2 or 3 that is there but does not answer (stopped with Ctrl-Z, or
   busy): kept, answering from the disk until it answers again.
5. Else the disk.

Every backend gets the workspace root and its secrets rules: buffers of secrets files are
never sent from Neovim (`simple_brief.nvim.backend`).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from simple_brief.editor import DiskBackend, EditorBackend, Snapshot
from simple_brief.intel import LanguageIntel
from simple_brief.model import Diagnostic, Symbol, TextEdit
from simple_brief.nvim import instances
from simple_brief.nvim.backend import NvimBackend
from simple_brief.nvim.buffers import workspace_secrets
from simple_brief.secret_files import SecretRules

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
    3. The newest registered Neovim whose cwd contains the workspace, when it answers.
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
    env = os.environ.get("NVIM", "")
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
        self._lock = threading.Lock()
        self._last_attach = time.monotonic()
        self._inner: EditorBackend = attach(self.workspace_root, explicit, state_dir=state_dir, **self._options)

    @property
    def name(self) -> str:
        """The current backend's name (`nvim` or `disk`)."""
        return self._inner.name

    @property
    def current(self) -> EditorBackend:
        """The backend calls go to now (after a throttled re-attach when needed)."""
        try:
            return self._current()
        except Exception:
            log.exception("re-attaching failed")
            return self._inner

    def _current(self) -> EditorBackend:
        inner = self._inner
        if self.explicit or (isinstance(inner, NvimBackend) and (inner.connected or inner.stalled)):
            return inner
        with self._lock:
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
                log.info("attached to Neovim at %s (%s)", fresh.address, fresh.origin)
            return self._inner

    def snapshot(self) -> Snapshot | None:
        """See `EditorBackend.snapshot`."""
        return self.current.snapshot()

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

    def status(self) -> dict[str, Any]:
        """The current backend's status, with how it was chosen."""
        try:
            info = dict(self.current.status())
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
