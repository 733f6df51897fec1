"""Whether each person of a game made a move of it themselves (``game_players.acted``): a rated
game rates only those who did, and a seat only a stand-in or the turn timer played is left out.

Rows stored before this revision are marked as acted: the games they belong to were rated, or
are in play, under the rule that counted everyone.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "game_players",
        sa.Column("acted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    game_players = sa.table("game_players", sa.column("acted", sa.Boolean))
    op.execute(game_players.update().values(acted=True))


def downgrade() -> None:
    # A plain DROP COLUMN, as 0009 and 0010 do (SQLite 3.35 and later).
    op.drop_column("game_players", "acted")
