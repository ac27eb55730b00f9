"""simple-brief's LSP client: language servers it starts itself in disk mode (`pool`), each
server's process and JSON-RPC conversation (`process`), and bounded message framing with
the writer thread and its deadline (`framing`)."""

from simple_brief import intel
from simple_brief.lsp.pool import ServerPool

# The engine's tools start the session's language servers through this hook.
intel.provide_server_pool(ServerPool)
