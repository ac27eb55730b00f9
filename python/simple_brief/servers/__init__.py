"""What simple-brief serves: the MCP server (`mcp`, stdio and HTTP), the pygls language
server (`lsp`, with its open `documents` and `folding` ranges), and the call envelope every
MCP and CLI call goes through (`envelope`: the editor snapshot, overlays, the context)."""
