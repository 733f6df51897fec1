"""Chat messages know their speaker: the player (to export their messages and delete them with
the account) and the opaque identity a reader mutes (the person, not the seat).

Messages said in a game before this version get their player from the game's seats; lobby
messages of that time stay without one (who sat at a seat then is not known).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chat", sa.Column("player", sa.String(32), nullable=True))
    op.add_column("chat", sa.Column("who", sa.String(16), nullable=True))
    op.create_index("chat_player", "chat", ["player"])
    bind = op.get_bind()
    chat = sa.table(
        "chat",
        sa.column("game", sa.Integer),
        sa.column("seat", sa.Integer),
        sa.column("player", sa.String),
    )
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("players", sa.Text))
    spoken = sa.select(chat.c.game).where(chat.c.game > 0, chat.c.seat.is_not(None)).distinct()
    for row in bind.execute(sa.select(games.c.id, games.c.players).where(games.c.id.in_(spoken))):
        for seat in json.loads(row.players):
            if seat.get("player_id"):
                bind.execute(
                    chat.update()
                    .where(chat.c.game == row.id, chat.c.seat == seat["seat"])
                    .values(player=seat["player_id"])
                )


def downgrade() -> None:
    op.drop_index("chat_player", table_name="chat")
    op.drop_column("chat", "who")
    op.drop_column("chat", "player")
