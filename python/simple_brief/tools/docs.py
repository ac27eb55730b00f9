"""docs toolset (being built)."""
