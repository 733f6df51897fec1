"""Players: accounts (a name, a key, an optional password), one-time codes to move to
another device, the seats and games of a player, and the deletion of an account.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

import sqlalchemy as sa

from dudo.server.storage.chat import delete_chat_of
from dudo.server.storage.database import Database
from dudo.server.storage.games import unnamed
from dudo.server.storage.schema import (
    game_players_table,
    games_table,
    player_codes_table,
    player_devices_table,
    players_table,
    rating_history_table,
    ratings_table,
    seats_table,
    tables_table,
)
from dudo.server.storage.tables import release_seats


@dataclass
class StoredPlayer:
    id: str
    name: str
    created: float
    has_password: bool


class Password(NamedTuple):
    """A player's password as stored: its hash, and the player's key sealed by it."""

    player_id: str
    password_hash: str
    key_sealed: str


class TakenCode(NamedTuple):
    """A one-time code used up: whose it was, and their key sealed by it."""

    player_id: str
    key_sealed: str


@dataclass(frozen=True)
class PlayerSeat:
    """A seat held by a player as a person, at a table not closed."""

    code: str
    seat: int


@dataclass(frozen=True)
class PlayerGame:
    """A game a player sat in (finished or not), for their data export."""

    game: int
    preset: str
    rated: str | None  # the rule family of a rated game
    started: float
    finished: float | None
    seat: int
    player: int  # their player number in the game
    players: int  # how many played
    name: str | None
    place: int | None  # 1: the winner; None until the game ends
    left_early: bool
    won: bool | None  # None until the game ends
    rounds: int | None


class PlayerStore(Database):
    """Players' accounts."""

    def create_player(self, player_id: str, name: str, name_key: str, key_hash: str) -> bool:
        """A new player; False (nothing stored) when another player has the name."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    players_table.insert().values(
                        id=player_id,
                        name=name,
                        name_key=name_key,
                        key_hash=key_hash,
                        created=time.time(),
                    )
                )
        except sa.exc.IntegrityError:
            return False
        return True

    def player_by_key(self, key_hash: str) -> StoredPlayer | None:
        """The (not deleted) player whose key has this hash."""
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(players_table).where(
                    players_table.c.key_hash == key_hash, players_table.c.deleted.is_(None)
                )
            ).first()
        return None if row is None else _stored_player(row)

    def player(self, player_id: str) -> StoredPlayer | None:
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(players_table).where(
                    players_table.c.id == player_id, players_table.c.deleted.is_(None)
                )
            ).first()
        return None if row is None else _stored_player(row)

    def name_owner(self, name_key: str) -> str | None:
        """The id of the (not deleted) player whose name has this key
        (:func:`dudo.server.names.name_key`)."""
        with self.engine.connect() as c:
            owner = c.execute(
                sa.select(players_table.c.id).where(
                    players_table.c.name_key == name_key, players_table.c.deleted.is_(None)
                )
            ).scalar()
        return None if owner is None else str(owner)

    def rename_player(self, player_id: str, name: str, name_key: str) -> bool:
        """False (nothing changed) when another player has the name."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    players_table.update()
                    .where(players_table.c.id == player_id)
                    .values(name=name, name_key=name_key)
                )
        except sa.exc.IntegrityError:
            return False
        return True

    def set_password(self, player_id: str, password_hash: str, key_sealed: str) -> None:
        with self.engine.begin() as c:
            c.execute(
                players_table.update()
                .where(players_table.c.id == player_id)
                .values(password_hash=password_hash, key_sealed=key_sealed)
            )

    def password_of(self, name_key: str) -> Password | None:
        """The password of the player with this name (None: nobody, or no password)."""
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(
                    players_table.c.id, players_table.c.password_hash, players_table.c.key_sealed
                ).where(
                    players_table.c.name_key == name_key,
                    players_table.c.deleted.is_(None),
                    players_table.c.password_hash.is_not(None),
                )
            ).first()
        if row is None or row.key_sealed is None:
            return None
        return Password(str(row.id), str(row.password_hash), str(row.key_sealed))

    def password_hash_of(self, player_id: str) -> str | None:
        """The player's password hash (None: they have none)."""
        with self.engine.connect() as c:
            found = c.execute(
                sa.select(players_table.c.password_hash).where(players_table.c.id == player_id)
            ).scalar()
        return None if found is None else str(found)

    def add_code(self, code_hash: str, player_id: str, key_sealed: str, expires: float) -> None:
        """A one-time code for the player; any code of theirs given before stops working."""
        with self.engine.begin() as c:
            c.execute(player_codes_table.delete().where(player_codes_table.c.player == player_id))
            c.execute(player_codes_table.delete().where(player_codes_table.c.expires < time.time()))
            c.execute(
                player_codes_table.insert().values(
                    code_hash=code_hash, player=player_id, key_sealed=key_sealed, expires=expires
                )
            )

    def take_code(self, code_hash: str) -> TakenCode | None:
        """A code still valid, which is used up by this call."""
        with self.engine.begin() as c:
            row = c.execute(
                sa.select(player_codes_table).where(player_codes_table.c.code_hash == code_hash)
            ).first()
            if row is None:
                return None
            # Deleted whatever the answer: single use, and an expired code is gone for good.
            c.execute(
                player_codes_table.delete().where(player_codes_table.c.code_hash == code_hash)
            )
            if row.expires < time.time():
                return None
            return TakenCode(str(row.player), str(row.key_sealed))

    def player_tables(self, player_id: str) -> list[PlayerSeat]:
        """The seats the player has as a person at tables not closed, oldest table first."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(seats_table.c.code, seats_table.c.seat)
                .join(tables_table, tables_table.c.code == seats_table.c.code)
                .where(
                    seats_table.c.player_id == player_id,
                    seats_table.c.kind == "human",
                    tables_table.c.status != "closed",
                )
                .order_by(tables_table.c.created)
            ).all()
        return [PlayerSeat(row.code, row.seat) for row in rows]

    def player_games(self, player_id: str) -> list[PlayerGame]:
        """The games the player sat in (finished or not), oldest first, with their seat, player
        number and place (None until the game ends)."""
        gp = game_players_table
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(
                    games_table.c.id,
                    games_table.c.players,
                    games_table.c.started,
                    games_table.c.finished,
                    games_table.c.rounds,
                    games_table.c.rated,
                    tables_table.c.preset,
                    gp.c.player,
                    gp.c.place,
                    gp.c.left_early,
                )
                .join(games_table, games_table.c.id == gp.c.game_id)
                .join(tables_table, tables_table.c.code == games_table.c.code)
                .where(gp.c.rater == player_id)
                .order_by(games_table.c.id, gp.c.player)
            ).all()
        games = []
        for row in rows:
            players = json.loads(row.players)
            seat = players[row.player]
            games.append(
                PlayerGame(
                    game=row.id,
                    preset=row.preset,
                    rated=row.rated,
                    started=row.started,
                    finished=row.finished,
                    seat=seat["seat"],
                    player=row.player,
                    players=len(players),
                    name=seat["name"],
                    place=row.place,
                    left_early=bool(row.left_early),
                    won=None if row.finished is None else row.place == 1,
                    rounds=row.rounds,
                )
            )
        return games

    def delete_player(self, player_id: str) -> list[int]:
        """Forget the player: their name, key, password and codes go, their seats are given up
        (:func:`~.tables.release_seats`; a live table's owner gives them up first, as a leave), and
        the games they played stay with the seat named as a deleted player (their ids are
        returned)."""
        changed = []
        with self.engine.begin() as c:
            c.execute(player_codes_table.delete().where(player_codes_table.c.player == player_id))
            release_seats(c, player_id)
            c.execute(
                player_devices_table.delete().where(player_devices_table.c.player == player_id)
            )
            gp = game_players_table
            rows = c.execute(
                sa.select(games_table.c.id, games_table.c.players, games_table.c.record).where(
                    games_table.c.id.in_(sa.select(gp.c.game_id).where(gp.c.rater == player_id))
                )
            ).all()
            for row in rows:
                players = json.loads(row.players)
                gone = [i for i, p in enumerate(players) if p.get("player_id") == player_id]
                for i in gone:
                    players[i].update(name=None, player_id=None, deleted=True)
                values = {"players": json.dumps(players)}
                if row.record is not None:
                    values["record"] = json.dumps(unnamed(json.loads(row.record), gone))
                c.execute(games_table.update().where(games_table.c.id == row.id).values(**values))
                changed.append(int(row.id))
            # The games stay, rated and placed, with nobody's id in them; the player's own
            # ratings go (the others' ratings are theirs and stay as they are).
            c.execute(gp.update().where(gp.c.rater == player_id).values(rater=None))
            delete_chat_of(c, player_id)
            c.execute(ratings_table.delete().where(ratings_table.c.rater == player_id))
            c.execute(
                rating_history_table.delete().where(rating_history_table.c.rater == player_id)
            )
            c.execute(
                players_table.update()
                .where(players_table.c.id == player_id)
                .values(
                    name=None,
                    name_key=None,
                    key_hash=None,
                    password_hash=None,
                    key_sealed=None,
                    deleted=time.time(),
                )
            )
        return changed


def _stored_player(row: Any) -> StoredPlayer:
    return StoredPlayer(
        str(row.id), str(row.name), float(row.created), row.password_hash is not None
    )
