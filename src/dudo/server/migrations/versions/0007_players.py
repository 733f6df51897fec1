"""Players: a lasting identity (name, hashed key, optional password), one-time codes to move
to another device, and the player who sits in each seat.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),  # NULL once deleted
        sa.Column("name_key", sa.String(256), nullable=True, unique=True),
        sa.Column("key_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("key_sealed", sa.String(256), nullable=True),  # the key, sealed by the password
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float, nullable=True),
    )
    op.create_table(
        "player_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("key_sealed", sa.String(256), nullable=False),  # the key, sealed by the code
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("player_codes_player", "player_codes", ["player"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("player_id")
    op.drop_index("player_codes_player", "player_codes")
    op.drop_table("player_codes")
    op.drop_table("players")
