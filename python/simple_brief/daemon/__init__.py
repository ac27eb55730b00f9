"""The per-user daemon the `simple-brief` command talks to (SPEC "Processes", issue 15).

`service` is `simple-brief daemon start|stop|status` and the daemon's wiring (one
long-lived host, `simple_brief.host`); `server` is the daemon itself (socket, lock, idle
stop); `memory` the policy closing warm indexes when memory grows. The wire both sides
speak (`simple_brief.host.protocol`) and the tool call it carries (`host.request`) are the
engine's, so the command line (`cli/`), its client, imports no part of this adapter.
"""
