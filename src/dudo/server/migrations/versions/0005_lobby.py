"""Tables are public (listed in the lobby) or private (reached by their link only).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every table made before the lobby existed was shared by link: private. A plain ADD
    # COLUMN, not a batch copy of the table: on SQLite a batch drops and re-creates "tables",
    # which the rows of seats and fair_dice that point at it forbid.
    op.add_column(
        "tables", sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_index("ix_tables_public_status", "tables", ["public", "status"])


def downgrade() -> None:
    op.drop_index("ix_tables_public_status", table_name="tables")
    # A plain DROP COLUMN too (SQLite 3.35 and later), for the same reason as the upgrade.
    op.drop_column("tables", "public")
