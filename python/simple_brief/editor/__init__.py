"""The editor-backend interface: what a tool call may learn from a running editor.

A backend answers, at the start of each call: a snapshot of where the person is
(file, cursor, selection), the unsaved text of open buffers (overlays that win over
the disk), the editor's diagnostics, and document symbols from its language servers.
`DiskBackend` (the default, no editor) answers nothing, and every tool still works
on files on disk. `simple_brief.editor.nvim.backend` implements it for a live Neovim.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from simple_brief.errors import UserError
from simple_brief.intel import LanguageIntel
from simple_brief.model import Diagnostic, Symbol, TextEdit


@dataclass(frozen=True)
class Selection:
    """A visual selection, 1-based inclusive positions (line, character)."""

    mode: str
    start: tuple[int, int]
    end: tuple[int, int]
    text: str


@dataclass
class Snapshot:
    """Where the person is, captured once at the start of a call (seed 001 AC12).

    Attributes:
        path: absolute path of the buffer's file (None for an unnamed buffer).
        filetype: the editor's filetype (language id).
        line_count: lines in the buffer.
        modified: unsaved changes.
        cursor: 1-based (line, character); character counts characters, not bytes.
        mode: the editor mode (`n`, `i`, `v`, `V`, `\\x16`, ...).
        selection: the live or last real selection in that buffer, if any.
        text: the buffer's current text, when the backend sent it.
        terminal_fallback: the person is in a terminal or non-file window; this is the
            last code window they used.
    """

    path: Path | None
    filetype: str
    line_count: int
    modified: bool
    cursor: tuple[int, int]
    mode: str = "n"
    selection: Selection | None = None
    text: str | None = None
    terminal_fallback: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


class EditorBackend(Protocol):
    """What tools may ask an editor. Every method must answer quickly and never raise:
    a backend that cannot answer returns None or empty (and says why in `status`)."""

    @property
    def name(self) -> str:
        """`nvim` or `disk`."""
        ...

    def snapshot(self) -> Snapshot | None:
        """The person's position now, or None when no file is open or focused."""
        ...

    def overlays(self) -> dict[Path, str]:
        """Unsaved text of open buffers by absolute path (only modified buffers need be sent)."""
        ...

    def diagnostics(self) -> dict[Path, list[Diagnostic]]:
        """The editor's diagnostics by absolute path (every source)."""
        ...

    def symbols(self, path: Path) -> list[Symbol] | None:
        """Document symbols of an open buffer from the editor's language servers, or None."""
        ...

    def status(self) -> dict[str, Any]:
        """What the backend is attached to, for `server_status`."""
        ...

    def intel(self) -> LanguageIntel | None:
        """The editor's language servers (its attached LSP clients), or None."""
        ...

    def apply_edits(self, edits: dict[Path, list[TextEdit]]) -> list[Path]:
        """Apply edits (positions in code points) to the editor's buffers, loading files
        not open yet into buffers; never writes a file. Returns the paths changed.

        Raises:
            UserError: the editor cannot take edits (disk mode) or refused them.
        """
        ...

    def show_findings(self, kind: str, findings: dict[Path, list[Diagnostic]]) -> bool:
        """Show a task run's findings (`build`, `test`) in the person's buffers, replacing
        the last run's of that kind; whether an editor showed them."""
        ...

    def show_debug(self, view: dict[str, Any]) -> dict[str, Any]:
        """Show a debug session's breakpoints and stopped line in the person's buffers
        (`view`: session, ended, stopped {path, line} or None, breakpoints [{path, line,
        number, verified, condition}]), replacing that session's last view; what the editor
        showed (`shown`, `nvim_dap`: whether nvim-dap is installed), or {} when nobody did."""
        ...

    def nvim_dap(self, function: str, args: list[Any], timeout: float) -> Any:
        """Call `function` of the editor's nvim-dap bridge (lua/simple_brief/nvim_dap.lua);
        its answer, or None when there is no such editor or it did not answer in time."""
        ...

    def review(self, function: str, args: list[Any]) -> dict[str, Any] | None:
        """The person's review of the agent's edits (issue 29): `propose`, `status` and
        `withdraw` of lua/simple_brief/review.lua, `show` of lua/simple_brief/show.lua, and
        `buffer` (the loaded buffer of a path: `lines`, `eol`, `tick`, or nil). The answer
        as `{"value": …}` (`{"error": sentence}` when the editor lacks the module), or None
        when there is no editor or it did not answer."""
        ...


class DiskBackend:
    """No editor: files on disk are the truth and there is no editor context."""

    name = "disk"

    def snapshot(self) -> Snapshot | None:
        """Never a snapshot (AC4: the context is omitted)."""
        return None

    def overlays(self) -> dict[Path, str]:
        """No unsaved buffers."""
        return {}

    def diagnostics(self) -> dict[Path, list[Diagnostic]]:
        """No editor diagnostics (the engine's own syntax findings still come from the scan)."""
        return {}

    def symbols(self, path: Path) -> list[Symbol] | None:
        """No language servers: the engine's scanner answers."""
        return None

    def status(self) -> dict[str, Any]:
        """Disk mode."""
        return {"backend": "disk"}

    def intel(self) -> LanguageIntel | None:
        """No editor language servers (the workspace's configured servers answer instead)."""
        return None

    def apply_edits(self, edits: dict[Path, list[TextEdit]]) -> list[Path]:
        """There are no buffers to edit."""
        raise UserError("no editor is attached, so there are no buffers to apply edits to.")

    def show_findings(self, kind: str, findings: dict[Path, list[Diagnostic]]) -> bool:
        """Nobody to show them to: the answer carries them."""
        return False

    def show_debug(self, view: dict[str, Any]) -> dict[str, Any]:
        """Nobody to show it to: the answer says where execution stands."""
        return {}

    def nvim_dap(self, function: str, args: list[Any], timeout: float) -> Any:
        """No editor, no nvim-dap."""
        return None

    def review(self, function: str, args: list[Any]) -> dict[str, Any] | None:
        """No editor: nobody to review (the tools say review needs a running Neovim)."""
        return None
