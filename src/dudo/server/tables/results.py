"""A finished game's result: its record, where each player placed, the seats' running score,
the ratings it changed, and storing all of it (again and again, if the store is not
answering, until it takes it)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from dudo.engine.fair import FairSeed
from dudo.records import PlayerInfo, record_of
from dudo.server import ratings
from dudo.server.chat import game_over as chat_game_over
from dudo.server.logs import table_context
from dudo.server.storage import Place, RatingChange, StoredGame, StoreUnavailable
from dudo.server.tables.model import SeatKind, TableStatus, retry_delay

if TYPE_CHECKING:
    from dudo.server.tables.table import Table

log = logging.getLogger("dudo.server")

#: What :meth:`Store.finish_game` takes: code, game id, winner, rounds, record, scores, places.
FinishArgs = tuple[
    str, int, int, int, dict[str, Any], tuple[tuple[int, int, int], ...], tuple[Place, ...]
]


class Results:
    """The last game's rating changes, and whether its record is still being saved."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: The last game's rating changes, once stored: (before, after) by engine player.
        self.rating_changes: dict[int, RatingChange] = {}
        self.saving_record = False

    def new_game(self) -> None:
        self.rating_changes = {}

    def resume(self, stored: StoredGame) -> None:
        self.rating_changes = dict(stored.rating_changes)

    def to_json(self) -> dict[str, Any] | None:
        """After a rated game: its rule family, and each rated seat's shown rating before and
        after it, whether that is provisional, and for a bot its level (every bot of a level
        shares the level's rating). None before the result is stored, and at an unrated
        table."""
        table = self.table
        if table.status is not TableStatus.OVER or not self.rating_changes:
            return None
        players = table.play.players
        seats = [
            {"seat": players[p], **asdict(change)}
            for p, change in sorted(self.rating_changes.items())
            if p < len(players)
        ]
        return {
            "family": ratings.family(table.preset),
            "seats": seats,
            "provisional_games": ratings.PROVISIONAL_GAMES,
        }

    def _record(self) -> dict[str, Any]:
        """The finished game's record. The table's code stays out of it: records are public,
        codes are invitations."""
        table, play = self.table, self.table.play
        game = play.game
        assert game is not None
        infos = []
        for seat_index in play.players:
            seat = table.seats[seat_index]
            name = seat.name or f"Seat {seat_index + 1}"
            if seat.kind is SeatKind.BOT:
                infos.append(PlayerInfo(name, "bot", seat.level))
            else:
                infos.append(PlayerInfo(name, "human"))
        meta: dict[str, Any] = {"game": play.game_number, "game_id": play.game_id}
        if play.stood_in:
            meta["stood_in"] = sorted(play.stood_in)
        seed = table.fair.seed
        if isinstance(seed, FairSeed):  # revealed: anyone can now check every die
            meta["fair"] = seed.to_json(reveal=True)
        if play.left_early:
            meta["left_early"] = sorted(play.left_early)
        if table.settings.rated:
            meta["rated"] = ratings.family(table.preset)
        return record_of(game, infos, meta=meta, preset=table.preset)

    async def finish(self) -> None:
        """The game is over (its last action is stored): end it here and store its record, so
        it can be fetched once anyone hears the game is over; if the store does not take it,
        keep trying in the background."""
        table, play = self.table, self.table.play
        game = play.game
        assert game is not None and game.winner is not None and play.game_id is not None
        placed = ratings.places(game.finishing_order(), play.left_early)
        places = tuple(
            Place(p, placed[p], p in play.left_early, p in play.acted) for p in sorted(placed)
        )
        record = self._record()
        chat_game_over(table)
        scores = table.seating.game_over(play.players, game.winner)
        table.fair.new_next_secret()  # the rematch's commitment, shown with the revealed secret
        self.saving_record = True
        args: FinishArgs = (
            table.code,
            play.game_id,
            game.winner,
            game.round_number,
            record,
            scores,
            places,
        )
        log.info(
            "table %s: game %s over after %d rounds, won by player %d",
            table.code,
            play.game_id,
            game.round_number,
            game.winner,
            extra=table_context(
                table.code, play.game_id, winner=game.winner, rounds=game.round_number
            ),
        )
        # The table says "over" once the record can be fetched (anyone told the game is over
        # may ask for it at once); only a store that is not answering makes it say so first,
        # with the record being saved (store_state "retrying") until it is.
        try:
            self.rating_changes = await table.hall.db.run(table.hall.store.finish_game, *args)
            self.saving_record = False
            table.status = TableStatus.OVER
        except StoreUnavailable:
            table.status = TableStatus.OVER
            table.saving.retrying()
            table.hall.spawn(self._save_record(args, 1))
        table.audience.broadcast_table()

    async def _save_record(self, args: FinishArgs, attempt: int) -> None:
        table = self.table
        while True:
            try:
                changes = await table.hall.db.run(table.hall.store.finish_game, *args)
            except StoreUnavailable:
                table.saving.retrying()
                await asyncio.sleep(retry_delay(attempt))
                attempt += 1
                continue
            if table.play.game_id == args[1]:  # still this game's table (no rematch since)
                self.rating_changes = changes
            self.saving_record = False
            table.saving.ok()
            return
