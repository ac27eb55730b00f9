"""The engine's one host: the owner of each workspace's long-lived state and the one call
entry every adapter answers through (`core.Host.call`).

- `core`: `Host` — workspaces by root (a bounded LRU, checked against the config on every
  call), each with its typed state (`state.WorkspaceState`); one call: the config read once,
  the editor's snapshot, the call's own view of the workspace (its editor's unsaved buffers),
  the tool, the editor context on the answer.
- `state`: one workspace's state — the Workspace and its parse cache, the symbol index, the
  docs index, the language servers, debug sessions and `workspace_open` workspaces.
- `context`: the editor context an answer carries, and the error guard.
- `served`: one server's settings over a host (root, editor, budget, toolsets).
- `wiring`: the host the adapters build, with the engine's outgoing clients passed in.
- `command`: a command line's tool call run on a host (standalone and in the daemon);
  `request` that call as the daemon's request carries it and `protocol` the daemon's wire
  (both standard library only).

Importing this package imports nothing else: the command's fast path reads `protocol`
and `request` from here.
"""
