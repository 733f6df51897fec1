"""The fence of each table: raised by every process that takes the table over, and checked by
every write of its owner, so that a process which lost the table can never commit to it.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("fence", sa.Integer, nullable=False, server_default=sa.text("0"))
    )


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite 3.35 and later): a batch copy of "tables" would drop the
    # table that seats, games and chat rows point at, which SQLite refuses.
    op.drop_column("tables", "fence")
