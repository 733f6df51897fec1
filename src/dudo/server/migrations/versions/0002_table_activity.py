"""Tables remember when they last changed, so idle lobbies can be closed after a while.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("updated", sa.Float, nullable=True))
    op.execute("UPDATE tables SET updated = created")
    op.create_index("tables_status", "tables", ["status"])
    op.create_index("cups_updated", "cups", ["updated"])


def downgrade() -> None:
    op.drop_index("cups_updated", "cups")
    op.drop_index("tables_status", "tables")
    # A plain DROP COLUMN: a batch copy would drop "tables", which seats and games point at.
    op.drop_column("tables", "updated")
