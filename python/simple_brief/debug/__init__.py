"""Debugging through the Debug Adapter Protocol: `client` (one adapter's process and its
conversation, on the engine's shared `framing`), `adapters` (the `[debug.NAME]` config
tables and the built-in debugpy), `session` (one debugged program, its breakpoints,
stops and limits; the sessions of a server). The tools are `tools.debug`."""
