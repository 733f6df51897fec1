"""Table chat: every message kept with its game, and whether the host turned chat off.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("code", sa.String(16), primary_key=True),
        # 0: said in the lobby before the table's first game.
        sa.Column("game", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.String(256), nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("chat_game", "chat", ["game", "seq"])
    op.create_table(
        "chat_settings",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("off", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_table("chat_settings")
    op.drop_index("chat_game", table_name="chat")
    op.drop_table("chat")
