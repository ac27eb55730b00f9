"""workspace toolset (being built)."""
