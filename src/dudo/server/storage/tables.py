"""Tables and their seats: created, changed (under the table's fence), closed, and loaded
again with their current game and latest chat when a process takes them up.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dudo.server.storage.chat import ChatMessage, stored_chat
from dudo.server.storage.database import Database, touch
from dudo.server.storage.games import StoredGame, load_game, read_next_secret
from dudo.server.storage.schema import (
    LIVE_STATUSES,
    fair_table,
    game_players_table,
    seats_table,
    tables_table,
)

#: ``save_seat``'s ``host`` when the host does not change.
KEEP_HOST = -1


@dataclass
class StoredSeat:
    seat: int
    kind: str
    name: str | None
    level: str | None
    token_hash: str | None
    autoplay: bool
    ready: bool = False
    wins: int = 0
    played: int = 0
    player_id: str | None = None


@dataclass
class StoredTable:
    code: str
    status: str
    preset: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seats: list[StoredSeat]
    game: StoredGame | None
    host: int | None = 0
    public: bool = False
    #: The secret drawn for the table's next game (None: none stored yet).
    next_secret: bytes | None = None
    #: The host turned the table's chat off; its latest messages, oldest first.
    chat_off: bool = False
    chat: list[ChatMessage] = field(default_factory=list)


class TableStore(Database):
    """Tables and seats."""

    def code_taken(self, code: str) -> bool:
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(tables_table.c.code).where(tables_table.c.code == code)
            ).first()
        return row is not None

    def create_table(
        self,
        code: str,
        preset: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        seats: list[StoredSeat],
        public: bool = False,
        next_secret: bytes | None = None,
    ) -> None:
        """Store a new table; ``next_secret``: the secret of its first game's dice."""
        with self.engine.begin() as c:
            now = time.time()
            c.execute(
                tables_table.insert().values(
                    code=code,
                    created=now,
                    updated=now,
                    status="lobby",
                    preset=preset,
                    options=json.dumps(options),
                    settings=json.dumps(settings),
                    game_id=None,
                    host=0,
                    public=public,
                    fence=1,
                )
            )
            if self.fences is not None:
                self.fences[code] = 1
            for seat in seats:
                c.execute(seats_table.insert().values(code=code, **asdict(seat)))
            if next_secret is not None:
                c.execute(
                    fair_table.insert().values(code=code, game_id=None, secret=next_secret.hex())
                )

    def save_seat(
        self,
        code: str,
        seat: StoredSeat,
        host: int | None = KEEP_HOST,
        left: tuple[int, int, bool] | None = None,
    ) -> None:
        """Store one seat and, unless ``host`` is :data:`KEEP_HOST`, who is host now (one
        transaction: a host leaving hands the role on in the same write). ``left``: (game id,
        player, left early) of the game in play when a bot takes the seat over or its person
        takes it back."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            c.execute(
                seats_table.update()
                .where(seats_table.c.code == code, seats_table.c.seat == seat.seat)
                .values(**asdict(seat))
            )
            if left is not None:
                # Kept with the stand-in, not only at the end: a restart after the stand-in
                # went out cannot tell from the dice that its person had left with dice.
                game_id, player, left_early = left
                c.execute(
                    game_players_table.update()
                    .where(
                        game_players_table.c.game_id == game_id,
                        game_players_table.c.player == player,
                    )
                    .values(left_early=left_early)
                )
            if host != KEEP_HOST:
                c.execute(
                    tables_table.update().where(tables_table.c.code == code).values(host=host)
                )
            touch(c, code)

    def set_host(self, code: str, host: int | None) -> None:
        with self.engine.begin() as c:
            self._fenced(c, code)
            c.execute(tables_table.update().where(tables_table.c.code == code).values(host=host))

    def set_status(self, code: str, status: str) -> None:
        with self.engine.begin() as c:
            self._fenced(c, code)
            c.execute(
                tables_table.update()
                .where(tables_table.c.code == code)
                .values(status=status, updated=time.time())
            )

    def load_tables(self, statuses: tuple[str, ...] = LIVE_STATUSES) -> list[StoredTable]:
        """Every table whose status is one of ``statuses`` (by default the ones a server holds
        in memory from its start: lobbies and games in play), with its current game's
        actions. Finished tables are loaded one by one when someone opens them
        (:meth:`load_table`)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(tables_table)
                .where(tables_table.c.status.in_(statuses))
                .order_by(tables_table.c.created)
            ).all()
            return [_stored_table(c, row) for row in rows]

    def load_table(self, code: str) -> StoredTable | None:
        """One table that is not closed, with its current game's actions (None: no such
        table, or it was closed)."""
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(tables_table).where(
                    tables_table.c.code == code, tables_table.c.status != "closed"
                )
            ).first()
            return None if row is None else _stored_table(c, row)

    def live_codes(self) -> list[str]:
        """The codes of the tables in their lobby or in play (each needs an owner)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(tables_table.c.code).where(tables_table.c.status.in_(LIVE_STATUSES))
            ).all()
        return [str(row.code) for row in rows]

    def close_idle_lobbies(
        self, idle_since: float, keep: set[str], only: set[str] | None = None
    ) -> list[str]:
        """Close the lobbies (tables with no game in play) unchanged since ``idle_since``
        (time.time()), except those in ``keep`` (and, if given, of those in ``only``); their
        codes. Finished games stay."""
        with self.engine.begin() as c:
            rows = c.execute(
                sa.select(tables_table.c.code).where(
                    tables_table.c.status.in_(("lobby", "over")),
                    sa.func.coalesce(tables_table.c.updated, tables_table.c.created) < idle_since,
                )
            ).all()
            codes = [
                row.code
                for row in rows
                if row.code not in keep and (only is None or row.code in only)
            ]
            if codes:
                c.execute(
                    tables_table.update()
                    .where(tables_table.c.code.in_(codes))
                    .values(status="closed", updated=time.time())
                )
        return codes


def _stored_table(c: Connection, row: Any) -> StoredTable:
    seats = [
        StoredSeat(
            s.seat,
            s.kind,
            s.name,
            s.level,
            s.token_hash,
            bool(s.autoplay),
            bool(s.ready),
            int(s.wins or 0),
            int(s.played or 0),
            s.player_id,
        )
        for s in c.execute(
            sa.select(seats_table)
            .where(seats_table.c.code == row.code)
            .order_by(seats_table.c.seat)
        ).all()
    ]
    game = None if row.game_id is None else load_game(c, row.game_id)
    return StoredTable(
        row.code,
        row.status,
        row.preset,
        json.loads(row.options),
        json.loads(row.settings),
        seats,
        game,
        row.host,
        bool(row.public),
        read_next_secret(c, row.code),
        *stored_chat(c, row.code),
    )


def release_seats(c: Connection, player_id: str) -> None:
    """The seats still the player's in the store (of tables no process holds in memory, or
    whose owner has yet to hear): no token of theirs works any more, and at a table between
    games the seat opens, the host role passing to the next person seated."""
    rows = c.execute(
        sa.select(
            seats_table.c.code, seats_table.c.seat, tables_table.c.status, tables_table.c.host
        )
        .join(tables_table, tables_table.c.code == seats_table.c.code)
        .where(seats_table.c.player_id == player_id)
    ).all()
    for row in rows:
        mine = (seats_table.c.code == row.code) & (seats_table.c.seat == row.seat)
        if row.status not in ("lobby", "over"):
            c.execute(seats_table.update().where(mine).values(token_hash=None, player_id=None))
            continue
        c.execute(
            seats_table.update()
            .where(mine)
            .values(**asdict(StoredSeat(row.seat, "open", None, None, None, False)))
        )
        if row.host == row.seat:
            heir = c.execute(
                sa.select(sa.func.min(seats_table.c.seat)).where(
                    seats_table.c.code == row.code, seats_table.c.kind == "human"
                )
            ).scalar()
            c.execute(
                tables_table.update().where(tables_table.c.code == row.code).values(host=heir)
            )
