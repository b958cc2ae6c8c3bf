"""Alembic migrations of the store (run by ``pairing_service.store.migrate``)."""
