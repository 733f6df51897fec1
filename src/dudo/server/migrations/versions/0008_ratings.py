"""Ratings: each rater's (player id or ``bot:<level>``) openskill rating per rule family, and
one history row per rated game and rater, whose unique key keeps a retried update single.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("rater", sa.String(40), primary_key=True),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.Integer, primary_key=True),
        sa.Column("rater", sa.String(40), primary_key=True),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("rating_history_rater", "rating_history", ["rater", "family"])


def downgrade() -> None:
    op.drop_index("rating_history_rater", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
