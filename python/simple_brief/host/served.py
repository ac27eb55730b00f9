"""What every call of one server shares: its host, root, editor, budget and toolsets (the
MCP server's, the rplugin's). `Served.call` is `Host.call` with them filled in."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simple_brief import tools as registry
from simple_brief.defaults import DEFAULT_TOOLSETS
from simple_brief.editor import DiskBackend, EditorBackend
from simple_brief.files.workspace import Workspace
from simple_brief.host.context import Answer
from simple_brief.host.core import Host
from simple_brief.host.wiring import build_host
from simple_brief.model import ProgressFn


def with_editor_toolsets(toolsets: tuple[str, ...], editor: EditorBackend) -> tuple[str, ...]:
    """The default toolsets with `edit` (the review of the agent's edits) when a Neovim is
    attached at the start; toolsets the person chose are kept as they are."""
    if toolsets == DEFAULT_TOOLSETS and editor.name != "disk":
        return (*toolsets, "edit")
    return toolsets


@dataclass
class Served:
    """One server's standing call settings over a host.

    Attributes:
        host: the host answering (shared with the process's other servers).
        root: the workspace root every call reads.
        editor: the editor backend (the disk when none is attached).
        budget: the token budget of an answer; None: the workspace config's.
        toolsets: the toolsets the server lists (and its calls may use).
    """

    host: Host
    root: Path
    editor: EditorBackend = field(default_factory=DiskBackend)
    budget: int | None = None
    toolsets: tuple[str, ...] = DEFAULT_TOOLSETS

    @classmethod
    def over(
        cls,
        workspace: Workspace,
        editor: EditorBackend | None = None,
        budget: int | None = None,
        toolsets: tuple[str, ...] = DEFAULT_TOOLSETS,
        long_lived: bool = False,
    ) -> Served:
        """A server's calls over `workspace` itself, on a host of their own."""
        host = build_host(long_lived=long_lived)
        host.adopt(workspace)
        return cls(host, workspace.root, editor if editor is not None else DiskBackend(), budget, toolsets)

    @property
    def workspace(self) -> Workspace:
        """The workspace the calls view (without any call's editor buffers)."""
        return self.host.state(self.root).workspace

    @property
    def session(self) -> registry.Session:
        """The workspace's long-lived objects (language servers, debug sessions, opened workspaces)."""
        return self.host.state(self.root).session

    def call(
        self,
        tool: str | registry.Tool,
        args: dict[str, Any],
        progress: ProgressFn | None = None,
        cancelled: threading.Event | None = None,
        client: str | None = None,
    ) -> Answer:
        """One call through the host with this server's settings; `client`: the MCP session
        (its read marks, `Host.call`)."""
        return self.host.call(
            tool,
            args,
            root=self.root,
            editor=self.editor,
            budget=self.budget,
            toolsets=self.toolsets,
            progress=progress,
            cancelled=cancelled,
            client=client,
        )

    def close(self) -> None:
        """Stop what the calls started (the host's servers, indexes, debug sessions)."""
        self.host.close()
