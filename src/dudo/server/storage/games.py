"""Games: each one started at a table, its players and where they finished, its result and
record, and the fair dice that decide it; the list of finished games anyone may see.

An accepted action is written by :mod:`.actions`; a finished rated game's ratings change in
the same transaction as its result (:func:`.ratings.rate_game`).
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dudo.engine.fair import FairSeed
from dudo.server import ratings
from dudo.server.storage.database import Database
from dudo.server.storage.ratings import RatingChange, rate_game, rating_changes
from dudo.server.storage.schema import (
    actions_table,
    fair_table,
    game_players_table,
    games_table,
    seats_table,
    tables_table,
)


@dataclass(frozen=True)
class Place:
    """Where one player of a game finished: ``place`` 1 is the winner; players who left the
    game before its end share the last place (``left_early``)."""

    player: int
    place: int
    left_early: bool = False
    #: The person made at least one move of the game themselves (only they are rated).
    acted: bool = False


@dataclass
class StoredGame:
    id: int
    number: int
    seed: int
    rules: dict[str, Any]
    players: list[dict[str, Any]]
    actions: list[tuple[int, str]]
    finished: bool
    #: The secret and locked client seeds that decide the dice (None: a game from before
    #: provably fair dice, dealt from ``seed``).
    fair: FairSeed | None = None
    #: The players who left the game while they still had dice.
    left_early: frozenset[int] = frozenset()
    #: The players whose person made a move of the game themselves (kept in rated games).
    acted: frozenset[int] = frozenset()
    #: A finished rated game: each rated player's shown rating before and after it.
    rating_changes: dict[int, RatingChange] = field(default_factory=dict)
    #: The setup beyond the players, as a record writes it ({}: a fresh game's).
    setup: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameSummary:
    """A finished game in the list anyone may see (no table code: a code is the invitation
    to a table)."""

    id: int
    #: Who had a bot play for them at some point: not a plain result of theirs.
    stood_in: list[str | None]
    finished: float
    #: The players' names, in player order (None: the player deleted their account).
    players: list[str | None]
    winner: str | None
    #: The players who deleted their account.
    deleted: list[int]
    rounds: int | None
    preset: str


@dataclass(frozen=True)
class GameFilter:
    """Which finished games a list holds: those a player played (``rater``, a player id),
    rated or not (``rated``; None: both), of these presets (``presets``; None: any)."""

    rater: str | None = None
    rated: bool | None = None
    presets: tuple[str, ...] | None = None

    def where(self) -> list[sa.ColumnElement[bool]]:
        """The conditions on games and tables joined (the player's through game_players'
        index on rater)."""
        found: list[sa.ColumnElement[bool]] = [games_table.c.finished.is_not(None)]
        if self.rater is not None:
            gp = game_players_table
            found.append(
                games_table.c.id.in_(sa.select(gp.c.game_id).where(gp.c.rater == self.rater))
            )
        if self.rated is not None:
            rated = games_table.c.rated
            found.append(rated.is_not(None) if self.rated else rated.is_(None))
        if self.presets is not None:
            found.append(tables_table.c.preset.in_(self.presets))
        return found


class GameStore(Database):
    """Games, from their start to their record."""

    def start_game(
        self,
        code: str,
        number: int,
        seed: int,
        rules: dict[str, Any],
        players: list[dict[str, Any]],
        fair: FairSeed | None = None,
        rated: str | None = None,
        setup: dict[str, Any] | None = None,
    ) -> int:
        """Record a new game at the table and make it the table's current game (no seat is on
        autoplay in a new game). ``fair``: the secret and locked client seeds of its dice, in
        the same transaction (the table's next-game secret is used up). ``rated``: the rule
        family the game's result rates its players in (None: not rated). ``setup``: the
        game's setup beyond its players, as a record writes it (None: a fresh game's)."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            result = c.execute(
                games_table.insert().values(
                    code=code,
                    number=number,
                    seed=seed,
                    rules=json.dumps(rules),
                    players=json.dumps(players),
                    started=time.time(),
                    rated=rated,
                    setup=json.dumps(setup or {}),
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            game_id = int(key[0])
            if players:
                c.execute(
                    game_players_table.insert(),
                    [
                        {
                            "game_id": game_id,
                            "player": number,
                            "rater": ratings.rater(
                                p.get("kind"), p.get("level"), p.get("player_id")
                            ),
                            "place": None,
                            "left_early": False,
                            "acted": False,
                        }
                        for number, p in enumerate(players)
                    ],
                )
            if fair is not None:
                clear_next_secret(c, code)
                c.execute(
                    fair_table.insert().values(
                        code=code,
                        game_id=game_id,
                        secret=fair.secret.hex(),
                        seeds=json.dumps(list(fair.seeds)),
                    )
                )
            c.execute(
                tables_table.update()
                .where(tables_table.c.code == code)
                .values(status="playing", game_id=game_id, updated=time.time())
            )
            # A new game starts with every seat played by its own player again, and nobody
            # ready for the game after it yet.
            c.execute(
                seats_table.update()
                .where(seats_table.c.code == code)
                .values(autoplay=False, ready=False)
            )
        return game_id

    def mark_acted(self, game_id: int, player: int) -> None:
        """The person of ``player`` made a move of game ``game_id`` themselves."""
        with self.engine.begin() as c:
            c.execute(
                game_players_table.update()
                .where(
                    game_players_table.c.game_id == game_id,
                    game_players_table.c.player == player,
                )
                .values(acted=True)
            )

    def finish_game(
        self,
        code: str,
        game_id: int,
        winner: int,
        rounds: int,
        record: dict[str, Any],
        scores: tuple[tuple[int, int, int], ...] = (),
        places: tuple[Place, ...] = (),
    ) -> dict[int, RatingChange]:
        """Store a finished game's result and record, and the table's running score with it:
        ``scores`` are (seat, wins, played), the totals after this game (so a retry of the same
        write counts nothing twice); ``places`` where each player finished. A rated game's
        ratings change in this same transaction, once however often the write is retried.
        Returns each rated player's shown rating before and after the game (by player
        number; empty for an unrated game)."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            for place in places:
                # Who acted is never unset: a restart forgets it in memory, not in the store.
                acted = {"acted": True} if place.acted else {}
                c.execute(
                    game_players_table.update()
                    .where(
                        game_players_table.c.game_id == game_id,
                        game_players_table.c.player == place.player,
                    )
                    .values(place=place.place, left_early=place.left_early, **acted)
                )
            family = c.execute(
                sa.select(games_table.c.rated).where(games_table.c.id == game_id)
            ).scalar()
            if family is not None and places:
                rate_game(c, game_id, family)
            for seat, wins, played in scores:
                c.execute(
                    seats_table.update()
                    .where(seats_table.c.code == code, seats_table.c.seat == seat)
                    .values(wins=wins, played=played)
                )
            row = c.execute(
                sa.select(games_table.c.players).where(games_table.c.id == game_id)
            ).first()
            # A player who deleted their account during the game is not named by its record.
            if row is not None:
                gone = [i for i, p in enumerate(json.loads(row.players)) if p.get("deleted")]
                if gone:
                    record = unnamed(json.loads(json.dumps(record)), gone)
            c.execute(
                games_table.update()
                .where(games_table.c.id == game_id)
                .values(
                    finished=time.time(), winner=winner, rounds=rounds, record=json.dumps(record)
                )
            )
            # The list of games says who had a bot play for them, without reading records.
            stood_in = record.get("meta", {}).get("stood_in", [])
            if stood_in and row is not None:
                players = json.loads(row.players)
                for p in stood_in:
                    if 0 <= p < len(players):
                        players[p]["stood_in"] = True
                c.execute(
                    games_table.update()
                    .where(games_table.c.id == game_id)
                    .values(players=json.dumps(players))
                )
            # Only if this game is still the table's: a late retry must not end a rematch.
            c.execute(
                tables_table.update()
                .where(tables_table.c.code == code, tables_table.c.game_id == game_id)
                .values(status="over", updated=time.time())
            )
            return rating_changes(c, game_id)

    def set_next_secret(self, code: str, secret: bytes) -> None:
        """Keep the secret of the table's next game (replacing any earlier one)."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            clear_next_secret(c, code)
            c.execute(fair_table.insert().values(code=code, game_id=None, secret=secret.hex()))

    # ---------------------------------------------------------------------- past games

    def recent_games(self, limit: int, only: GameFilter = GameFilter()) -> list[GameSummary]:
        """The newest finished games (those ``only`` lets through), for everyone to see: no
        table codes (a code is the invitation to a table)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(
                    games_table.c.id,
                    games_table.c.code,
                    games_table.c.finished,
                    games_table.c.players,
                    games_table.c.winner,
                    games_table.c.rounds,
                    tables_table.c.preset,
                )
                .join(tables_table, tables_table.c.code == games_table.c.code)
                .where(*only.where())
                .order_by(games_table.c.finished.desc(), games_table.c.id.desc())
                .limit(limit)
            ).all()
        games = []
        for row in rows:
            players = json.loads(row.players)
            names = [p["name"] for p in players]
            games.append(
                GameSummary(
                    id=row.id,
                    stood_in=[p["name"] for p in players if p.get("stood_in")],
                    finished=row.finished,
                    players=names,
                    winner=names[row.winner] if row.winner is not None else None,
                    deleted=[i for i, p in enumerate(players) if p.get("deleted")],
                    rounds=row.rounds,
                    preset=row.preset,
                )
            )
        return games

    def game_record(self, game_id: int) -> dict[str, Any] | None:
        """A finished game's dudo-record, the JSON document :mod:`dudo.records` reads (None:
        no such game, or not finished)."""
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(games_table.c.record).where(games_table.c.id == game_id)
            ).first()
        if row is None or row.record is None:
            return None
        record: dict[str, Any] = json.loads(row.record)
        meta = record.get("meta")
        if isinstance(meta, dict):  # records stored before codes were kept out of them
            meta.pop("table", None)
        return record


def clear_next_secret(c: Connection, code: str) -> None:
    c.execute(fair_table.delete().where(fair_table.c.code == code, fair_table.c.game_id.is_(None)))


def read_next_secret(c: Connection, code: str) -> bytes | None:
    row = c.execute(
        sa.select(fair_table.c.secret)
        .where(fair_table.c.code == code, fair_table.c.game_id.is_(None))
        .order_by(fair_table.c.id.desc())
    ).first()
    return None if row is None else bytes.fromhex(row.secret)


def game_fair(c: Connection, game_id: int) -> FairSeed | None:
    row = c.execute(
        sa.select(fair_table.c.secret, fair_table.c.seeds).where(fair_table.c.game_id == game_id)
    ).first()
    if row is None:
        return None
    return FairSeed(bytes.fromhex(row.secret), tuple(json.loads(row.seeds or "[]")))


def unnamed(record: dict[str, Any], gone: list[int]) -> dict[str, Any]:
    """A game's record without the names of players ``gone`` (who deleted their account)."""
    for i in gone:
        with contextlib.suppress(IndexError, KeyError, TypeError):
            record["players"][i]["name"] = ""
    meta = record.setdefault("meta", {})
    meta["deleted"] = sorted(set(meta.get("deleted", [])) | set(gone))
    return record


def load_game(c: Connection, game_id: int) -> StoredGame | None:
    row = c.execute(sa.select(games_table).where(games_table.c.id == game_id)).first()
    if row is None:
        return None
    actions = [
        (a.player, a.action)
        for a in c.execute(
            sa.select(actions_table.c.player, actions_table.c.action)
            .where(actions_table.c.game_id == game_id)
            .order_by(actions_table.c.seq)
        ).all()
    ]
    gp = game_players_table
    marks = c.execute(
        sa.select(gp.c.player, gp.c.left_early, gp.c.acted).where(
            gp.c.game_id == game_id, sa.or_(gp.c.left_early, gp.c.acted)
        )
    ).all()
    return StoredGame(
        row.id,
        row.number,
        int(row.seed),
        json.loads(row.rules),
        json.loads(row.players),
        actions,
        row.finished is not None,
        game_fair(c, game_id),
        frozenset(int(m.player) for m in marks if m.left_early),
        frozenset(int(m.player) for m in marks if m.acted),
        rating_changes(c, game_id) if row.finished is not None and row.rated else {},
        json.loads(row.setup),
    )
