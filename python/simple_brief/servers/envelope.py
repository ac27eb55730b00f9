"""One tool call with the editor around it: snapshot first (AC12), unsaved buffers as
overlays, the tool, then the editor context attached to the answer. The MCP server and the
CLI (`simple-brief run … --json`, AC2) both answer through here.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simple_brief import languages
from simple_brief import lsp as _disk_servers  # noqa: F401  (registers the disk-mode language servers)
from simple_brief import tools as registry
from simple_brief.defaults import DEFAULT_BUDGET_TOKENS, DEFAULT_TOOLSETS
from simple_brief.editor import DiskBackend, EditorBackend, Snapshot
from simple_brief.editor.context import ListsEditors, build_context, context_line, following
from simple_brief.errors import UserError, excerpt
from simple_brief.files.workspace import Workspace
from simple_brief.scan import scan

log = logging.getLogger(__name__)

#: An error answer is one line of at most this many characters, whatever a tool put in it.
MAX_ERROR_CHARS = 1000
#: An argument longer than this (or with a newline or control character) that an error
#: message repeats is shown as an excerpt; shorter ones, like most paths, stay whole.
ECHO_CHARS = 200


@dataclass
class ServerState:
    """What every call of one server (or one CLI run) shares."""

    workspace: Workspace
    editor: EditorBackend = field(default_factory=DiskBackend)
    budget: int = DEFAULT_BUDGET_TOKENS
    toolsets: tuple[str, ...] = DEFAULT_TOOLSETS
    session: registry.Session = field(default_factory=registry.Session)
    #: A long-lived server (`simple-brief mcp`): after each call its open symbol indexes
    #: watch their trees (`index.watch.keep_watching`) instead of walking them per query.
    long_lived: bool = False

    def workspaces(self) -> list[Workspace]:
        """The workspace and those opened with `workspace_open`."""
        return [self.workspace, *self.session.workspaces.values()]

    def close(self) -> None:
        """Stop what the calls started: language servers, the docs index, symbol indexes."""
        self.session.close()
        for ws in self.workspaces():
            ws.close_attached()


@dataclass
class Answer:
    """A call's answer: text blocks, structured data (with `editorContext`), error flag."""

    blocks: list[str]
    data: dict[str, Any]
    is_error: bool = False


def _safe(what: str, fn: Callable[[], Any], default: Any) -> Any:
    """An editor answer, or `default`: a failing editor never breaks the tool's answer (AC11)."""
    try:
        return fn()
    except Exception:  # any backend failure is logged and the call goes on (AC11)
        log.exception("editor backend failed while getting %s; answering without it", what)
        return default


def editor_context(state: ServerState, snap: Snapshot) -> dict[str, Any] | None:
    """The seed 001 context object for a snapshot, or None when it cannot be built (AC11)."""

    def build() -> dict[str, Any]:
        symbols = None
        warning = None
        if snap.path is not None:
            symbols = state.editor.symbols(snap.path)
        rule = _secret_rule(state.workspace, snap.path)
        if rule is not None:
            # Where the person is, but nothing of what the file holds (SPEC "Secrets").
            symbols, warning = [], f"secrets file (rule `{rule}`): its content is withheld"
        elif symbols is None:
            spec = languages.detect(snap.path or "buffer", snap.filetype)
            if spec is languages.PLAIN:
                warning = "No symbol provider registered for this language"
            elif snap.path is not None and _inside(state.workspace.root, snap.path):
                real = snap.path.resolve()
                layers = state.workspace.overlays
                if real in layers.agent:
                    # The context is where the person is, in their buffer: not in the text an
                    # agent overlaid on that file.
                    buffer = snap.text if snap.text is not None else _disk_text(state.workspace, real)
                    symbols = scan(buffer, spec).symbols
                else:
                    # The workspace's parse cache: unchanged buffers are not scanned again.
                    if snap.text is not None:
                        layers.editor.setdefault(real, snap.text)
                    symbols = state.workspace.outline(real, snap.filetype)[1].symbols
            else:
                text = snap.text
                if text is None and snap.path is not None:
                    text = _disk_text(state.workspace, snap.path)
                symbols = scan(text or "", spec).symbols
        # A selection counts while it is live; the last one only stands in for a terminal.
        shown = snap
        if snap.selection is not None and not snap.terminal_fallback and not snap.extra.get("selection_live", True):
            shown = dataclasses.replace(snap, selection=None)
        return build_context(shown, symbols, warning)

    result: dict[str, Any] | None = _safe("the editor context", build, None)
    if result is not None and isinstance(state.editor, ListsEditors):
        # Several Neovims on this workspace: say which one the context is from.
        neovim = following(_safe("the registered editors", state.editor.editors, []))
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


def answer(
    state: ServerState,
    tool: registry.Tool,
    args: dict[str, Any],
    progress: registry.ProgressFn | None = None,
    cancelled: threading.Event | None = None,
) -> Answer:
    """One call: snapshot first, overlays, the tool, then the context attached to the answer.

    `cancelled` is the adapter's flag for an abandoned call: once set, the tool stops at
    its next check (`Call.check_cancelled`, `Call.report`) by raising `tools.Cancelled`.
    """
    snap = None if tool.system else _safe("the snapshot", state.editor.snapshot, None)
    # The editor's unsaved buffers of this call replace the last call's; the agent's
    # overlays (files_apply_overlay) are kept and win over them.
    state.workspace.overlays.replace_editor(_safe("the unsaved buffers", state.editor.overlays, {}))
    call = registry.Call(
        workspace=state.workspace,
        budget=state.budget,
        editor=state.editor,
        session=state.session,
        progress=progress,
        toolsets=state.toolsets,
        cancelled=cancelled if cancelled is not None else threading.Event(),
    )
    try:
        result = registry.invoke(tool.name, args, call)
    except UserError as err:
        return Answer([error_text(str(err), args)], {}, is_error=True)
    blocks = list(result.blocks)
    structured: dict[str, Any] = dict(result.data)
    if snap is not None:
        ctx = editor_context(state, snap)
        if ctx is not None:
            structured["editorContext"] = ctx
            blocks.insert(0, context_line(ctx, state.workspace.root, terminal_fallback=snap.terminal_fallback))
    if not tool.system:
        status = _safe("the editor status", state.editor.status, {})
        if status.get("connected") is False and status.get("message"):
            # Neovim went away, is not there yet, or stopped answering during this call:
            # say this answer comes from the disk.
            blocks.insert(0, f"[{status['message']}]")
    if not blocks:
        blocks = ["(nothing to show)"]
    return Answer(blocks, structured)


def attach_editor(root: Path, explicit: str | None) -> EditorBackend:
    """The editor to read: --nvim, $NVIM, the registered Neovim for `root`, else the disk.

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
    backend: EditorBackend = nvim_attach.AutoBackend(root, explicit)
    return backend
