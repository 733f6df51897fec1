"""The devices that used each player's key, listed for the player by last use (so a key copied
to a device they do not know shows, and "sign out other devices" can be chosen knowingly).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_devices",
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("device", sa.String(32), primary_key=True),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("first_seen", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_devices")
