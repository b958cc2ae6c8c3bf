"""Alembic environment: migrations run on the connection ``migrate()`` passes in."""

from __future__ import annotations

from alembic import context

from pairing_service.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the alembic CLI; use pairing_service.store.migrate
    raise SystemExit("run migrations with: python -m pairing_service.store upgrade")

context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
