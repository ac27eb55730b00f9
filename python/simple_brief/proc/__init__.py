"""Programs simple-brief starts: where they are (`programs`), the environment they get
(`environment`), their limits and cgroups, keeping them (`process_keeper`), and the
message framing the LSP client, the DAP client and tasks share (`framing`)."""
