"""Alembic migrations of the server's database (run on start by :func:`dudo.server.storage.migrate`)."""
