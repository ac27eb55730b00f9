"""The host: one owner of every workspace's long-lived state, and the one call entry.

Every adapter answers through `Host.call` (the MCP server, the command line standalone and
in the daemon, the rplugin's servers): the workspace config read once, the editor's
snapshot first (AC12), the call's own view of the workspace (its editor's unsaved buffers
over the files, under the agent's overlays, which win), the tool, then the editor context
attached to the answer.

Workspaces are kept by resolved root, at most `limit` (the least recently used one is
closed first), and each call checks the config: a root whose secrets rules changed gets
a fresh state (the old one's caches answered under the old rules). Locking: the host's
table of roots has its own lock, and each long-lived object of a workspace is made under
its own (`tools.Session`, `index.symbol_index`); calls of one workspace run at once.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simple_brief import tools as registry
from simple_brief.editor import DiskBackend, EditorBackend
from simple_brief.editor.context import context_line
from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.secret_files import SecretRules
from simple_brief.files.workspace import Workspace, real_root
from simple_brief.host.context import Answer, editor_context, error_text, safe
from simple_brief.host.state import WorkspaceState
from simple_brief.intel import ServerPoolFactory
from simple_brief.languages import LanguageSpec
from simple_brief.model import ProgressFn
from simple_brief.scan import Outline

log = logging.getLogger(__name__)

#: Workspaces kept; the least recently used one is closed (with its caches and servers) beyond this.
MAX_WORKSPACES = 16


class Host:
    """Workspaces by root with their state, and the call entry (see the module's docstring).

    Args:
        server_pool: what starts language servers in disk mode for a workspace
            (`simple_brief.lsp.pool.ServerPool`); None: the tools ask only the editor's.
        limit: how many workspaces are kept.
        long_lived: after each call the workspace's open symbol indexes watch their trees
            (a server or the daemon); a one-call host does not start watchers.
        calls_share_agent_state: the agent's overlays (`files_apply_overlay`) and
            `workspace_open` workspaces outlive the call that made them (an MCP session);
            False: each call starts without any, as a standalone command does (the daemon).
    """

    def __init__(
        self,
        server_pool: ServerPoolFactory | None = None,
        *,
        limit: int = MAX_WORKSPACES,
        long_lived: bool = False,
        calls_share_agent_state: bool = True,
    ) -> None:
        self.server_pool = server_pool
        self.limit = limit
        self.long_lived = long_lived
        self.calls_share_agent_state = calls_share_agent_state
        self._states: OrderedDict[Path, WorkspaceState] = OrderedDict()
        self._lock = threading.Lock()
        self._closed = False

    def state(
        self, root: str | os.PathLike[str] | None = None, settings: config.Config | None = None
    ) -> WorkspaceState:
        """The state of the workspace at `root` (default: the current folder), opened or
        reused; `settings` is the config already read for this root (else it is read here).

        Raises:
            UserError: the root is not a folder, or its config is broken.
        """
        real = real_root(root)
        loaded = settings if settings is not None else config.load(real)
        stale: list[WorkspaceState] = []
        with self._lock:
            if self._closed:
                raise UserError("simple-brief is shutting down; run the call again.")
            state = self._states.get(real)
            if state is None or state.secrets != loaded.secrets:
                if state is not None:
                    stale.append(state)
                state = WorkspaceState(Workspace(root=real, secrets=loaded.secrets), self._session())
                self._states[real] = state
            self._states.move_to_end(real)
            while len(self._states) > self.limit:
                stale.append(self._states.popitem(last=False)[1])
        for old in stale:
            old.close()
        return state

    def adopt(self, workspace: Workspace) -> WorkspaceState:
        """Serve `workspace` itself for its root (a server started on a Workspace it opened,
        with its own limits or overlays); the state kept for that root before is closed."""
        state = WorkspaceState(workspace, self._session())
        with self._lock:
            old = self._states.pop(workspace.root, None)
            self._states[workspace.root] = state
        if old is not None and old is not state:
            old.close()
        return state

    def _session(self) -> registry.Session:
        return registry.Session(server_pool=self.server_pool)

    def call(
        self,
        tool: str | registry.Tool,
        args: dict[str, Any],
        *,
        root: str | os.PathLike[str] | None = None,
        editor: EditorBackend | None = None,
        editor_for: Callable[[Path, SecretRules], EditorBackend] | None = None,
        budget: int | None = None,
        toolsets: tuple[str, ...] | None = None,
        max_bytes: int | None = None,
        progress: ProgressFn | None = None,
        cancelled: threading.Event | None = None,
        client: str | None = None,
    ) -> Answer:
        """One call: the config read once, the editor's snapshot first, the call's view of the
        workspace, the tool, then the editor context attached to the answer.

        `editor`: the adapter's editor (None: the disk), or `editor_for(root, secrets)`, made
        for this call once its config is read (the command line attaches one per call);
        `budget` None: the workspace config's; `toolsets`: those the adapter lists (None:
        all); `cancelled`: the adapter's flag for an abandoned call (the tool stops at its
        next check by raising `tools.Cancelled`, which this raises on); `client`: the MCP
        session making the call, whose read marks the call sees and a reading tool moves
        (None: the command line, which keeps none).

        A user error (a bad root or config, an unknown tool or argument, the tool's own
        refusal) is an error answer of one line.
        """
        shown_args: dict[str, Any] = {tool.name if isinstance(tool, registry.Tool) else tool: None, **args}
        try:
            spec = tool if isinstance(tool, registry.Tool) else registry.get(tool, toolsets)
            real = real_root(root)
            settings = config.load(real)
            state = self.state(real, settings)
            if editor is None:
                editor = editor_for(real, settings.secrets) if editor_for is not None else DiskBackend()
        except UserError as err:
            return Answer([error_text(str(err), shown_args)], {}, is_error=True)
        snap = None if spec.system else safe("the snapshot", editor.snapshot, None)
        # The editor's unsaved buffers belong to this call's view: another call running at
        # the same time sees its own editor's. The agent's overlays are shared and win.
        buffers = {} if spec.system else safe("the unsaved buffers", editor.overlays, {})
        own = not self.calls_share_agent_state
        view = state.workspace.for_call(buffers, max_bytes, agent={} if own else None)
        run = registry.Call(
            workspace=view,
            budget=budget if budget is not None else settings.budget,
            editor=editor,
            session=state.session,
            progress=progress,
            toolsets=toolsets,
            cancelled=cancelled if cancelled is not None else threading.Event(),
            loaded_config=settings,
            own_opened=registry.OpenedWorkspaces() if own else None,
            marks=state.read_marks.of(client) if client is not None and not own else None,
            proposals=state.proposals,
        )
        try:
            result = registry.invoke(spec.name, args, run)
            _mark_read(run, spec.name, args)
        except UserError as err:
            return Answer([error_text(str(err), args)], {}, is_error=True)
        finally:
            if self.long_lived:
                state.watch_indexes()
        return _with_editor(result, view, editor, snap, spec.system)

    def parsed(self, path: Path, text: str, language: LanguageSpec) -> Outline | None:
        """A kept workspace's parse of `path` when it was made from exactly `text` read as
        `language` (`Workspace.parsed`): the fold server's documents share it; else None."""
        for state in self._kept():
            root = state.workspace.root
            if path == root or root in path.parents:
                found = state.workspace.parsed(path, text, language)
                if found is not None:
                    return found
        return None

    def workspaces(self) -> list[Workspace]:
        """Every workspace kept, and those their calls opened with `workspace_open`."""
        with self._lock:
            states = list(self._states.values())
        return [ws for state in states for ws in state.workspaces()]

    def roots(self) -> list[str]:
        """The roots kept, most recently used last."""
        with self._lock:
            return [str(root) for root in self._states]

    def close_indexes(self) -> None:
        """Close every workspace's symbol indexes (they reopen from disk on next use)."""
        for state in self._kept():
            state.close_indexes()

    def watch_indexes(self) -> None:
        """Every open symbol index watches its tree from now on."""
        for state in self._kept():
            state.watch_indexes()

    def close(self) -> None:
        """Stop everything the calls started: language servers, debug sessions, the docs and
        symbol indexes and their watchers. Calls after this are refused."""
        with self._lock:
            self._closed = True
            states = list(self._states.values())
            self._states.clear()
        for state in states:
            try:
                state.close()
            except Exception:  # one workspace failing to stop must not keep the others running
                log.exception("closing the workspace %s failed", state.workspace.root)

    def _kept(self) -> list[WorkspaceState]:
        with self._lock:
            return list(self._states.values())


def _mark_read(call: registry.Call, tool: str, args: dict[str, Any]) -> None:
    """After a tool that showed a file's text (`registry.READING_TOOLS`): the session's read
    mark of that file is the text the call read."""
    path = args.get("path")
    if call.marks is None or tool not in registry.READING_TOOLS or not isinstance(path, str):
        return
    try:
        real, source = call.workspace.read(path)
    except UserError:
        return
    call.marks.mark(real, source.text)


def _with_editor(
    result: registry.ToolResult, view: Workspace, editor: EditorBackend, snap: Any, system: bool
) -> Answer:
    """The tool's answer with the editor around it: the context line first (from the
    snapshot taken before the tool ran), and a note when Neovim is not answering."""
    blocks = list(result.blocks)
    structured: dict[str, Any] = dict(result.data)
    if snap is not None:
        ctx = editor_context(view, editor, snap)
        if ctx is not None:
            structured["editorContext"] = ctx
            blocks.insert(0, context_line(ctx, view.root, terminal_fallback=snap.terminal_fallback))
    if not system:
        status = safe("the editor status", editor.status, {})
        if status.get("connected") is False and status.get("message"):
            # Neovim went away, is not there yet, or stopped answering during this call:
            # say this answer comes from the disk.
            blocks.insert(0, f"[{status['message']}]")
    if not blocks:
        blocks = ["(nothing to show)"]
    return Answer(blocks, structured)
