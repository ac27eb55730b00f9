"""The host the adapters build: the engine's outgoing clients passed in, never registered
by an import's side effect."""

from __future__ import annotations

from simple_brief.host.core import MAX_WORKSPACES, Host
from simple_brief.lsp.pool import ServerPool


def build_host(*, long_lived: bool = False, limit: int = MAX_WORKSPACES, calls_share_agent_state: bool = True) -> Host:
    """A host whose tools start language servers in disk mode with our LSP client (`Host`'s
    arguments)."""
    return Host(ServerPool, limit=limit, long_lived=long_lived, calls_share_agent_state=calls_share_agent_state)
