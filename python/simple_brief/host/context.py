"""What a call's answer carries besides the tool's own: the editor context (seed 001) built
from the snapshot taken before the tool ran (AC12), the guard on error messages, and the
editor backend an adapter attaches. `core.Host.call` puts them together.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simple_brief import languages
from simple_brief.editor import DiskBackend, EditorBackend, Snapshot
from simple_brief.editor.context import ListsEditors, build_context, following
from simple_brief.errors import UserError, excerpt
from simple_brief.files.secret_files import SecretRules
from simple_brief.files.workspace import Workspace
from simple_brief.scan import scan

log = logging.getLogger(__name__)

#: An error answer is one line of at most this many characters, whatever a tool put in it.
MAX_ERROR_CHARS = 1000
#: An argument longer than this (or with a newline or control character) that an error
#: message repeats is shown as an excerpt; shorter ones, like most paths, stay whole.
ECHO_CHARS = 200


@dataclass
class Answer:
    """A call's answer: text blocks, structured data (with `editorContext`), error flag."""

    blocks: list[str]
    data: dict[str, Any]
    is_error: bool = False


def safe(what: str, fn: Callable[[], Any], default: Any) -> Any:
    """An editor answer, or `default`: a failing editor never breaks the tool's answer (AC11)."""
    try:
        return fn()
    except Exception:  # any backend failure is logged and the call goes on (AC11)
        log.exception("editor backend failed while getting %s; answering without it", what)
        return default


def editor_context(workspace: Workspace, editor: EditorBackend, snap: Snapshot) -> dict[str, Any] | None:
    """The seed 001 context object for a snapshot, or None when it cannot be built (AC11).

    `workspace` is the call's view: its editor layer holds this call's unsaved buffers."""

    def build() -> dict[str, Any]:
        symbols = None
        warning = None
        if snap.path is not None:
            symbols = editor.symbols(snap.path)
        rule = _secret_rule(workspace, snap.path)
        if rule is not None:
            # Where the person is, but nothing of what the file holds (SPEC "Secrets").
            symbols, warning = [], f"secrets file (rule `{rule}`): its content is withheld"
        elif symbols is None:
            spec = languages.detect(snap.path or "buffer", snap.filetype)
            if spec is languages.PLAIN:
                warning = "No symbol provider registered for this language"
            elif snap.path is not None and _inside(workspace.root, snap.path):
                real = snap.path.resolve()
                layers = workspace.overlays
                if real in layers.agent:
                    # The context is where the person is, in their buffer: not in the text an
                    # agent overlaid on that file.
                    buffer = snap.text if snap.text is not None else _disk_text(workspace, real)
                    symbols = scan(buffer, spec).symbols
                else:
                    # The workspace's parse cache: unchanged buffers are not scanned again
                    # (the buffer joins this call's own editor layer, nobody else's).
                    if snap.text is not None:
                        layers.editor.setdefault(real, snap.text)
                    symbols = workspace.outline(real, snap.filetype)[1].symbols
            else:
                text = snap.text
                if text is None and snap.path is not None:
                    text = _disk_text(workspace, snap.path)
                symbols = scan(text or "", spec).symbols
        # A selection counts while it is live; the last one only stands in for a terminal.
        shown = snap
        if snap.selection is not None and not snap.terminal_fallback and not snap.extra.get("selection_live", True):
            shown = dataclasses.replace(snap, selection=None)
        return build_context(shown, symbols, warning)

    result: dict[str, Any] | None = safe("the editor context", build, None)
    if result is not None and isinstance(editor, ListsEditors):
        # Several Neovims on this workspace: say which one the context is from.
        neovim = following(safe("the registered editors", editor.editors, []))
        if neovim is not None:
            result["neovim"] = neovim
    return result


def _disk_text(workspace: Workspace, path: Path) -> str:
    """A file's text for the context, through the same door as every read
    (`Workspace.read_anywhere`); empty when it cannot be read."""
    try:
        return workspace.read_anywhere(path).decode("utf-8", "replace")
    except UserError:
        return ""


def _secret_rule(workspace: Workspace, path: Path | None) -> str | None:
    """The secrets rule the editor's file matches (relative to the root, or its whole path outside it)."""
    if path is None:
        return None
    for candidate in (Path(os.path.abspath(path)), path.resolve()):  # the name, and where a link leads
        try:
            rel = candidate.relative_to(workspace.root).as_posix()
        except ValueError:
            rel = candidate.as_posix().lstrip("/")
        rule = workspace.secrets.rule_for(rel)
        if rule is not None:
            return rule
    return None


def _inside(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root)
    except ValueError:
        return False
    return True


def error_text(message: str, args: Mapping[str, Any] | None = None) -> str:
    """An error message as a caller sees it: every long or multi-line argument (name or
    value) it repeats shown as an excerpt, on one line, at most MAX_ERROR_CHARS long.

    The last guard behind the tools' own messages: whatever a tool echoes, the answer
    never carries a caller's megabyte back to them.
    """
    text = message
    for value in sorted(_echoable(args or {}), key=len, reverse=True):
        short = excerpt(value)
        for form in (repr(value), f"`{value}`", value):
            text = text.replace(form, short)
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    if len(text) > MAX_ERROR_CHARS:
        text = f"{text[: MAX_ERROR_CHARS - 40].rstrip()}… ({len(message):,} characters in all)"
    return text


def _echoable(args: Mapping[str, Any]) -> Iterator[str]:
    """The argument names and text values an error must not repeat in full."""
    for key, value in args.items():
        for item in (key, value):
            if isinstance(item, str) and (len(item) > ECHO_CHARS or not item.isprintable()):
                yield item


def attach_editor(root: Path, explicit: str | None, secrets: SecretRules | None = None) -> EditorBackend:
    """The editor to read: --nvim, $NVIM, the registered Neovim for `root`, else the disk;
    `secrets`: the workspace's rules, when the caller read its config already.

    Raises:
        UserError: `explicit` names a Neovim but pynvim (the `nvim` extra) is not installed.
    """
    try:
        from simple_brief.editor.nvim import attach as nvim_attach
    except ImportError as err:
        if explicit:
            raise UserError(
                f"reading the Neovim at {explicit} needs pynvim, which is not installed with this engine: "
                "install the `nvim` extra (pip install 'simple-brief[nvim]'; the plugin's :SimpleBriefInstall does)."
            ) from None
        log.warning("Neovim support unavailable (%s); reading files on disk", err)
        return DiskBackend()
    # AutoBackend re-runs the attach rules while no Neovim answers: one started (or
    # restarted) after the server is picked up.
    backend: EditorBackend = nvim_attach.AutoBackend(root, explicit, secrets=secrets)
    return backend
