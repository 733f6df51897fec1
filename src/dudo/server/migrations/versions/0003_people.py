"""Tables keep their host, and seats their readiness for a rematch and their running score.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("host", sa.Integer, nullable=True))
    # Until now the host was always the seat that created the table.
    op.execute("UPDATE tables SET host = 0")
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("ready", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("wins", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("played", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("played")
        batch.drop_column("wins")
        batch.drop_column("ready")
    # A plain DROP COLUMN: a batch copy would drop "tables", which seats and games point at.
    op.drop_column("tables", "host")
