"""LSP's `Content-Length` framing: the engine's `simple_brief.framing`, which the DAP client
(`simple_brief.debug.client`) shares; kept here under its old name for `lsp.process`."""

from simple_brief.framing import (
    MAX_HEADER_BYTES,
    MAX_MESSAGE_BYTES,
    MAX_OUTBOX_BYTES,
    MalformedMessage,
    Outbox,
    encode,
    read_message,
    write_within,
)

__all__ = [
    "MAX_HEADER_BYTES",
    "MAX_MESSAGE_BYTES",
    "MAX_OUTBOX_BYTES",
    "MalformedMessage",
    "Outbox",
    "encode",
    "read_message",
    "write_within",
]
