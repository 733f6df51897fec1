"""Alembic's entry point: migrate the connection the server hands over (online mode only)."""

from __future__ import annotations

from alembic import context

from dudo.server.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always passes its connection
    raise RuntimeError("run migrations through dudo.server.storage.migrate()")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
