"""One workspace's long-lived state, as the host keeps it: typed, each part made on first
use under its own lock, all of it stopped by `close`.

- `workspace`: the Workspace (its parse cache, the agent's overlays); a call never writes
  its editor's unsaved buffers here (`Workspace.for_call` gives each call its own view);
- the symbol index (`simple_brief.index.symbol_index`, one per Workspace: a call's view
  shares it), watching its tree in a long-lived host;
- `session` (`tools.Session`, what the tools read): the docs index, the language servers
  started from the host's server-pool factory, debug sessions, `workspace_open` workspaces;
- `read_marks` (per MCP session: each file's text as the agent last read it) and
  `proposals` (the edits sent to the person's review, `r1`, `r2`, …): `editor.review`.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from simple_brief.editor.review import Proposals, ReadMarks
from simple_brief.files.secret_files import SecretRules
from simple_brief.files.workspace import Workspace
from simple_brief.tools import Session

if TYPE_CHECKING:
    from types import ModuleType

log = logging.getLogger(__name__)


@dataclass
class WorkspaceState:
    """What the host keeps for one workspace root between calls.

    Attributes:
        workspace: the Workspace every call of this root views (`Workspace.for_call`).
        session: the tools' long-lived objects (docs index, language servers, debug
            sessions, opened workspaces), each under its own lock (`tools.Session`).
        secrets: the secrets rules it was opened under: a call whose config names others
            gets a fresh state (what this one cached answered under the old rules).
        read_marks: per MCP session, the text of each file as the agent last read it.
        proposals: the edits sent to the person's review, by id.
    """

    workspace: Workspace
    session: Session = field(default_factory=Session)
    read_marks: ReadMarks = field(default_factory=ReadMarks)
    proposals: Proposals = field(default_factory=Proposals)

    @property
    def secrets(self) -> SecretRules:
        """The secrets rules this state was opened under."""
        return self.workspace.secrets

    def workspaces(self) -> list[Workspace]:
        """The workspace and those opened with `workspace_open`."""
        return [self.workspace, *self.session.opened.all()]

    def watch_indexes(self) -> None:
        """Every open symbol index of these workspaces watches its tree from now on, so the
        next query checks only what the kernel reported changed. A workspace whose index was
        never opened is left alone (watching costs a thread and the kernel's watches)."""
        indexes = _symbol_indexes()
        if indexes is None:
            return
        for ws in self.workspaces():
            index = indexes.open_symbol_index(ws)
            if index is None:
                continue
            try:
                index.watch()
            except Exception:  # a watcher that cannot start leaves the index walking per query
                log.exception("the symbol index of %s cannot watch its tree", ws.root)

    def close_indexes(self) -> None:
        """Close the symbol indexes (their watchers and SQLite connections): the next query
        reopens them from disk. The language servers and the docs index stay."""
        self._close_indexes(self.workspaces())

    def _close_indexes(self, workspaces: list[Workspace]) -> None:
        indexes = _symbol_indexes()
        if indexes is None:
            return
        for ws in workspaces:
            indexes.close_symbol_index(ws)

    def close(self) -> None:
        """Stop everything: debug sessions, language servers, the docs index, the symbol indexes."""
        opened = self.workspaces()
        with self.read_marks.lock:
            self.read_marks.by_client.clear()
        with self.proposals.lock:
            self.proposals.by_id.clear()
        try:
            self.session.close()
        finally:
            self._close_indexes(opened)


def _symbol_indexes() -> ModuleType | None:
    """The symbol index package (`simple_brief.index`) once a call imported it; before that
    no index is open (a cold outline never imports its SQLite and worker pools)."""
    return sys.modules.get("simple_brief.index")
