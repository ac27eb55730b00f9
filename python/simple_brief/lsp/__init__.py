"""simple-brief's LSP client: language servers it starts itself in disk mode (`pool`), each
server's process and JSON-RPC conversation (`process`), and bounded message framing with
the writer thread and its deadline (`framing`). The host is handed `pool.ServerPool` when an
adapter builds it (`simple_brief.host.wiring`)."""
