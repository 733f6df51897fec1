"""Table chat: each message kept with its game and moment, whether a table's chat is off, a
game's conversation for its replay and who may read it, the secret a speaker's identity is
made from, and a player's own messages for their data export.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dudo.server.storage.database import Database, touch
from dudo.server.storage.schema import chat_settings_table, chat_table, games_table, players_table

#: How many of a table's latest messages a table loaded from the store brings back.
CHAT_RECENT = 50


@dataclass(frozen=True)
class ChatMessage:
    """One message said at a table (:mod:`dudo.server.chat`)."""

    game: int | None  # None: said in the lobby before the table's first game
    seq: int  # numbered from 0 within its game
    turn: int  # actions played in the game when it was said
    channel: str
    seat: int | None  # the speaker's seat (None: a spectator, who is not named)
    name: str | None
    text: str | None
    phrase: str | None
    at: float
    who: str | None = None  # the seated speaker's identity at this table (None: a spectator)
    player: str | None = None  # the speaker's player id: stored, never sent

    def to_json(self) -> dict[str, Any]:
        """The message as readers get it."""
        out = asdict(self)
        del out["player"]
        return out


@dataclass(frozen=True)
class ChatLine:
    """A message a player wrote, for their data export: the table, the game (None: in the
    lobby before the table's first game), when, and what."""

    table: str
    game: int | None
    at: float
    channel: str
    name: str | None
    text: str | None
    phrase: str | None


class ChatStore(Database):
    """Chat messages and settings."""

    def add_chat(self, code: str, message: ChatMessage) -> None:
        """Keep one chat message."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            c.execute(
                chat_table.insert().values(
                    code=code,
                    game=message.game or 0,
                    seq=message.seq,
                    turn=message.turn,
                    channel=message.channel,
                    seat=message.seat,
                    name=message.name,
                    text=message.text,
                    phrase=message.phrase,
                    at=message.at,
                    player=message.player,
                    who=message.who,
                )
            )

    def set_chat_off(self, code: str, off: bool) -> None:
        with self.engine.begin() as c:
            self._fenced(c, code)
            done = c.execute(
                chat_settings_table.update()
                .where(chat_settings_table.c.code == code)
                .values(off=off)
            )
            if not done.rowcount:
                c.execute(chat_settings_table.insert().values(code=code, off=off))
            touch(c, code)

    def game_chat(self, game_id: int) -> list[ChatMessage]:
        """Every message said during a game and after it, in order (the game is over: the
        spectators' messages too)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(chat_table).where(chat_table.c.game == game_id).order_by(chat_table.c.seq)
            ).all()
        return [_chat_message(row) for row in rows]

    # A finished game's chat is its players' conversation: its replay shows it only to a
    # person who had a seat in that game, known by their player key (the seat was the
    # player's when the game began) or by the seat token they played it with. Spectators who
    # watched are not at the table.

    def sat_in_game(self, game_id: int, player_id: str | None, token_hash: str | None) -> bool:
        """Whether the player ``player_id``, or the holder of the seat token hashed
        ``token_hash``, had a seat in game ``game_id``."""
        if player_id is None and token_hash is None:
            return False
        with self.engine.connect() as c:
            players = c.execute(
                sa.select(games_table.c.players).where(games_table.c.id == game_id)
            ).scalar()
        if players is None:
            return False
        for seat in json.loads(players):
            if player_id is not None and seat.get("player_id") == player_id:
                return True
            # The token the seat was played with, kept when the game began (:mod:`dudo.server.tables`): whoever
            # sits there later has another one.
            if token_hash is not None and seat.get("token_hash") == token_hash:
                return True
        return False

    def speaker_secret(self, player_id: str) -> str | None:
        """What a player's chat identity is derived from: their key's hash, which only the
        store holds (their public id would let anyone link a table's speaker to a profile).
        None: no such player (deleted)."""
        with self.engine.connect() as c:
            found = c.execute(
                sa.select(players_table.c.key_hash).where(
                    players_table.c.id == player_id, players_table.c.deleted.is_(None)
                )
            ).scalar()
        return None if found is None else str(found)

    def player_chat(self, player_id: str) -> list[ChatLine]:
        """Every chat message the player wrote, oldest first."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(chat_table)
                .where(chat_table.c.player == player_id)
                .order_by(chat_table.c.at, chat_table.c.code, chat_table.c.game, chat_table.c.seq)
            ).all()
        return [
            ChatLine(
                row.code, row.game or None, row.at, row.channel, row.name, row.text, row.phrase
            )
            for row in rows
        ]


def _chat_message(row: Any) -> ChatMessage:
    return ChatMessage(
        game=row.game or None,
        seq=row.seq,
        turn=row.turn,
        channel=row.channel,
        seat=row.seat,
        name=row.name,
        text=row.text,
        phrase=row.phrase,
        at=row.at,
        who=row.who,
        player=row.player,
    )


def stored_chat(c: Connection, code: str) -> tuple[bool, list[ChatMessage]]:
    """Whether the table's chat is off, and its latest messages, oldest first."""
    off = c.execute(
        sa.select(chat_settings_table.c.off).where(chat_settings_table.c.code == code)
    ).scalar()
    rows = c.execute(
        sa.select(chat_table)
        .where(chat_table.c.code == code)
        .order_by(chat_table.c.at.desc(), chat_table.c.seq.desc())
        .limit(CHAT_RECENT)
    ).all()
    # With the speaker's player id: the table's memory of them goes if they delete the account.
    return bool(off), [_chat_message(row) for row in reversed(rows)]


def delete_chat_of(c: Connection, player_id: str) -> None:
    """A player deleted their account: their chat messages go, words and name (what they
    wrote is theirs; the conversation keeps its numbering, with their lines missing)."""
    c.execute(chat_table.delete().where(chat_table.c.player == player_id))
