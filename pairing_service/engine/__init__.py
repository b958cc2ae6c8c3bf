"""Pure tournament rules: no Flask, no database, no I/O. Deterministic given the inputs."""
