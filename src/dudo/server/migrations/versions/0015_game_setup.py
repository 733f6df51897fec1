"""A game's setup beyond its players (``games.setup``, JSON as a record writes it): the seating
order a host chose, and whether bids may be said aloud (a game at a real table).

Games stored before this revision had none: a fresh setup, ``{}``.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("setup", sa.Text, nullable=False, server_default=sa.text("'{}'"))
    )


def downgrade() -> None:
    # A plain DROP COLUMN, as 0009 and 0010 do (SQLite 3.35 and later).
    op.drop_column("games", "setup")
