"""What simple-brief serves: the MCP server (`mcp`, stdio and HTTP) and the pygls language
server (`lsp`, with its open `documents` and `folding` ranges), both over the engine's host
(`simple_brief.host`), through which every call goes."""
