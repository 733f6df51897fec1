"""Provably fair dice: each table's secret for its next game, and each game's secret and
locked client seeds, so a resumed game keeps its commitment and its dice.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fair_dice",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), sa.ForeignKey("tables.code"), nullable=False),
        # NULL: the secret drawn for the table's next game (its commitment is shown already).
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=True, unique=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("seeds", sa.Text, nullable=True),  # JSON: the client seeds, in player order
    )
    op.create_index("fair_dice_code", "fair_dice", ["code"])


def downgrade() -> None:
    op.drop_index("fair_dice_code", table_name="fair_dice")
    op.drop_table("fair_dice")
