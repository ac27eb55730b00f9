"""The per-user daemon the `simple-brief` command talks to (SPEC "Processes", issue 15).

`protocol` (standard library only: the command's fast path imports it) names the socket
and frames the messages; `server` is the daemon itself; `warm` keeps workspaces between
calls. The daemon answers the tool calls it is handed (`server.serve(run=...)`), so it
imports no adapter: `simple_brief.cli` wires it (`daemon_commands.answer`).
"""
