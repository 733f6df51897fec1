"""What the store answers about chat beyond keeping it (:mod:`dudo.server.storage`): who may
read a finished game's chat, the secret a speaker's identity is made from, and a player's own
messages for their data export.

A game's chat is its players' conversation: its replay shows it only to a person who had a seat
in that game, known by their player key (the seat was the player's when the game began) or by
the seat token they played it with. Spectators who watched are not at the table."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from dudo.server.storage import Store, chat_table, games_table, players_table


def sat_in_game(store: Store, game_id: int, player_id: str | None, token_hash: str | None) -> bool:
    """Whether the player ``player_id``, or the holder of the seat token hashed
    ``token_hash``, had a seat in game ``game_id``."""
    if player_id is None and token_hash is None:
        return False
    with store.engine.connect() as c:
        players = c.execute(
            sa.select(games_table.c.players).where(games_table.c.id == game_id)
        ).scalar()
    if players is None:
        return False
    for seat in json.loads(players):
        if player_id is not None and seat.get("player_id") == player_id:
            return True
        # The token the seat was played with, kept when the game began (tables/game.py): whoever
        # sits there later has another one.
        if token_hash is not None and seat.get("token_hash") == token_hash:
            return True
    return False


def speaker_secret(store: Store, player_id: str) -> str | None:
    """What a player's chat identity is derived from: their key's hash, which only the store
    holds (their public id would let anyone link a table's speaker to a profile). None: no
    such player (deleted)."""
    with store.engine.connect() as c:
        found = c.execute(
            sa.select(players_table.c.key_hash).where(
                players_table.c.id == player_id, players_table.c.deleted.is_(None)
            )
        ).scalar()
    return None if found is None else str(found)


def player_chat(store: Store, player_id: str) -> list[dict[str, Any]]:
    """Every chat message the player wrote, oldest first: the table, the game (None: in the
    lobby before the table's first game), when, and what."""
    with store.engine.connect() as c:
        rows = c.execute(
            sa.select(chat_table)
            .where(chat_table.c.player == player_id)
            .order_by(chat_table.c.at, chat_table.c.code, chat_table.c.game, chat_table.c.seq)
        ).all()
    return [
        {
            "table": row.code,
            "game": row.game or None,
            "at": row.at,
            "channel": row.channel,
            "name": row.name,
            "text": row.text,
            "phrase": row.phrase,
        }
        for row in rows
    ]
