"""lsp toolset (being built)."""
