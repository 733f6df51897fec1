"""Who played each game, one row per player: the rater (a player id or ``bot:<level>``), the
place they finished in, and whether they left early; and the rule family a rated game counted
in. Profiles, exports and deletions read these rows instead of searching the games' JSON.

Games stored before this revision get their rows from the games' player lists: the winner has
place 1, the others no place (it was not kept).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    game_players = op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("rater", sa.String(40), nullable=True),
        sa.Column("place", sa.Integer, nullable=True),
        sa.Column("left_early", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("game_players_rater", "game_players", ["rater"])
    # A plain ADD COLUMN (a batch copy of "games" is forbidden by the rows pointing at it).
    op.add_column("games", sa.Column("rated", sa.String(16), nullable=True))

    games = sa.table(
        "games",
        sa.column("id", sa.Integer),
        sa.column("players", sa.Text),
        sa.column("winner", sa.Integer),
    )
    bind = op.get_bind()
    rows = []
    for game in bind.execute(sa.select(games.c.id, games.c.players, games.c.winner)):
        for number, player in enumerate(json.loads(game.players)):
            rows.append(
                {
                    "game_id": game.id,
                    "player": number,
                    "rater": rater_of(player),
                    "place": 1 if game.winner == number else None,
                    "left_early": False,
                }
            )
    if rows:
        op.bulk_insert(game_players, rows)


def rater_of(player: dict[str, object]) -> str | None:
    if player.get("kind") == "bot" and isinstance(player.get("level"), str):
        return f"bot:{player['level']}"
    found = player.get("player_id")
    return found if isinstance(found, str) else None


def downgrade() -> None:
    op.drop_index("game_players_rater", "game_players")
    op.drop_table("game_players")
    # A plain DROP COLUMN, as the upgrade adds it: a batch copy of "games" would drop the
    # table that actions, dice and chat rows point at, which SQLite refuses.
    op.drop_column("games", "rated")
