"""The docs index: the workspace's own doc comments (and, on request, installed libraries),
parsed into one model and searchable offline from a SQLite FTS5 database (seed 004)."""
