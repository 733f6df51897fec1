"""Table chat: each message kept with its game and moment, whether a table's chat is off,
and a game's conversation for its replay.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dudo.server.storage.database import Database, touch
from dudo.server.storage.schema import chat_settings_table, chat_table

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
