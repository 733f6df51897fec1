"""Ratings: each rater's rating in each rule family, its history game by game, the
leaderboard, and a rater's public profile; a finished rated game rates its players.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dudo.server import ratings
from dudo.server.storage.database import Database
from dudo.server.storage.schema import (
    game_players_table,
    games_table,
    players_table,
    rating_history_table,
    ratings_table,
    tables_table,
)

#: How many of the latest finished games and of the raters met most often a profile gives.
PROFILE_RECENT = 20
PROFILE_OPPONENTS = 5


@dataclass(frozen=True)
class LeaderboardRow:
    """A rater on a rule family's leaderboard (``name``: None for a bot level)."""

    rater: str
    name: str | None
    mu: float
    sigma: float
    rating: int  # the shown rating (ratings.shown)
    games: int
    provisional: bool  # fewer than ratings.PROVISIONAL_GAMES rated games


@dataclass(frozen=True)
class RatingPoint:
    """A rater's rating before and after one rated game."""

    game: int
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: float

    @property
    def rating(self) -> int:
        """The rating shown after the game."""
        return ratings.shown(self.mu_after)


@dataclass(frozen=True)
class RaterRating:
    """A rater's rating in one rule family, with its history (oldest game first)."""

    mu: float
    sigma: float
    rating: int  # the shown rating (ratings.shown)
    games: int
    provisional: bool  # fewer than ratings.PROVISIONAL_GAMES rated games
    history: list[RatingPoint]


@dataclass(frozen=True)
class RatingChange:
    """One rated player's shown rating before and after a game."""

    before: int
    after: int
    provisional: bool  # after the game
    level: str | None  # a bot level: the level's rating, shared by every bot of it


@dataclass(frozen=True)
class PresetRecord:
    """A rater's finished games and wins with one preset."""

    preset: str
    games: int
    wins: int
    win_rate: float


@dataclass(frozen=True)
class RecentGame:
    """One of a rater's latest finished games (no table code: it is the invitation)."""

    game: int
    preset: str
    rated: str | None
    finished: float
    place: int | None
    players: int
    left_early: bool


@dataclass(frozen=True)
class Opponent:
    """A rater met often, and how often the profile's rater finished above them."""

    rater: str
    name: str | None
    games: int
    wins_against: int


@dataclass(frozen=True)
class Profile:
    """What anyone may see of a rater (:meth:`RatingStore.profile`)."""

    rater: str
    name: str | None  # None: a bot level
    games: int
    wins: int
    by_preset: list[PresetRecord]
    ratings: dict[str, RaterRating]
    recent: list[RecentGame]
    opponents: list[Opponent]


class RatingStore(Database):
    """Ratings and profiles."""

    def leaderboard(
        self, family: str, limit: int = 100, provisional: bool = True
    ) -> list[LeaderboardRow]:
        """The best raters of a rule family by shown rating (that is, by mu), with names;
        without ``provisional``, people with a provisional rating are left out (bot levels
        never are: they are the marks a newcomer measures themselves against)."""
        query = (
            sa.select(ratings_table, players_table.c.name)
            .outerjoin(players_table, players_table.c.id == ratings_table.c.rater)
            .where(ratings_table.c.family == family)
            .order_by(ratings_table.c.mu.desc(), ratings_table.c.rater)
            .limit(limit)
        )
        if not provisional:
            query = query.where(sa.not_(_provisional_person()))
        with self.engine.connect() as c:
            return [
                LeaderboardRow(
                    r.rater,
                    r.name,
                    r.mu,
                    r.sigma,
                    ratings.shown(r.mu),
                    r.games,
                    ratings.provisional(r.games),
                )
                for r in c.execute(query)
            ]

    def provisional_players(self, family: str) -> int:
        """How many people of a rule family have a provisional rating (the leaderboard hides
        them unless asked)."""
        query = (
            sa.select(sa.func.count())
            .select_from(ratings_table)
            .where(ratings_table.c.family == family, _provisional_person())
        )
        with self.engine.connect() as c:
            return int(c.execute(query).scalar() or 0)

    def rater_ratings(self, rater: str) -> dict[str, RaterRating]:
        """A rater's rating in each family played, with its history (oldest game first)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(ratings_table).where(ratings_table.c.rater == rater)).all()
            history = c.execute(
                sa.select(rating_history_table)
                .where(rating_history_table.c.rater == rater)
                .order_by(rating_history_table.c.at, rating_history_table.c.game_id)
            ).all()
        points: dict[str, list[RatingPoint]] = {r.family: [] for r in rows}
        for h in history:
            if h.family in points:
                points[h.family].append(
                    RatingPoint(
                        h.game_id,
                        h.place,
                        h.mu_before,
                        h.sigma_before,
                        h.mu_after,
                        h.sigma_after,
                        h.at,
                    )
                )
        return {
            r.family: RaterRating(
                r.mu,
                r.sigma,
                ratings.shown(r.mu),
                r.games,
                ratings.provisional(r.games),
                points[r.family],
            )
            for r in rows
        }

    def profile(self, rater: str) -> Profile | None:
        """What anyone may see of a rater (a player id or ``bot:<level>``): the name, finished
        games and wins in all and by preset, the latest finished games, the raters met most
        often and the ratings with their history; None for a player id that is nobody's (or
        whose account was deleted). Only finished games count, and no table code is given (a
        code is the invitation to a table). Several bots of one level in a game are one rater,
        placed at the best of their places."""
        with self.engine.connect() as c:
            name = None
            if not rater.startswith(ratings.BOT_PREFIX):
                name = c.execute(
                    sa.select(players_table.c.name).where(
                        players_table.c.id == rater, players_table.c.deleted.is_(None)
                    )
                ).scalar()
                if name is None:
                    return None
            mine = _finished_games(rater)
            by_preset = _by_preset(c, mine)
            recent = _recent(c, mine)
            opponents = _opponents(c, rater, mine)
        return Profile(
            rater=rater,
            name=name,
            games=sum(p.games for p in by_preset),
            wins=sum(p.wins for p in by_preset),
            by_preset=by_preset,
            ratings=self.rater_ratings(rater),
            recent=recent,
            opponents=opponents,
        )


def _provisional_person() -> sa.ColumnElement[bool]:
    """A ``ratings`` row of a person (not a bot level) whose rating is still provisional."""
    return sa.and_(
        ratings_table.c.games < ratings.PROVISIONAL_GAMES,
        sa.not_(ratings_table.c.rater.startswith(ratings.BOT_PREFIX, autoescape=True)),
    )


# A profile's queries, each on the rater's finished games (:func:`_finished_games`).


def _finished_games(rater: str) -> sa.Subquery:
    """One row per finished game of the rater: its place and whether it left early."""
    gp = game_players_table
    return (
        sa.select(
            gp.c.game_id,
            sa.func.min(gp.c.place).label("place"),
            sa.func.max(sa.case((gp.c.left_early, 1), else_=0)).label("left_early"),
        )
        .join(games_table, games_table.c.id == gp.c.game_id)
        .where(gp.c.rater == rater, games_table.c.finished.is_not(None))
        .group_by(gp.c.game_id)
        .subquery("mine")
    )


def _by_preset(c: Connection, mine: sa.Subquery) -> list[PresetRecord]:
    """Games and wins by preset, the most played first."""
    won = sa.func.sum(sa.case((mine.c.place == 1, 1), else_=0))
    played = sa.func.count()
    rows = c.execute(
        sa.select(tables_table.c.preset, played.label("games"), won.label("wins"))
        .select_from(mine)
        .join(games_table, games_table.c.id == mine.c.game_id)
        .join(tables_table, tables_table.c.code == games_table.c.code)
        .group_by(tables_table.c.preset)
        .order_by(played.desc(), tables_table.c.preset)
    ).all()
    return [
        PresetRecord(r.preset, int(r.games), int(r.wins or 0), int(r.wins or 0) / int(r.games))
        for r in rows
    ]


def _recent(c: Connection, mine: sa.Subquery) -> list[RecentGame]:
    """The latest finished games, with their number of players."""
    other = game_players_table.alias("other")
    seats = (
        sa.select(sa.func.count())
        .select_from(other)
        .where(other.c.game_id == mine.c.game_id)
        .scalar_subquery()
    )
    rows = c.execute(
        sa.select(
            mine.c.game_id,
            mine.c.place,
            mine.c.left_early,
            games_table.c.finished,
            games_table.c.rated,
            tables_table.c.preset,
            seats.label("players"),
        )
        .join(games_table, games_table.c.id == mine.c.game_id)
        .join(tables_table, tables_table.c.code == games_table.c.code)
        .order_by(games_table.c.finished.desc(), mine.c.game_id.desc())
        .limit(PROFILE_RECENT)
    ).all()
    return [
        RecentGame(
            game=r.game_id,
            preset=r.preset,
            rated=r.rated,
            finished=r.finished,
            place=r.place,
            players=int(r.players),
            left_early=bool(r.left_early),
        )
        for r in rows
    ]


def _opponents(c: Connection, rater: str, mine: sa.Subquery) -> list[Opponent]:
    """The raters met most often, and how often the rater finished above each."""
    gp = game_players_table
    other = gp.alias("other")
    # The other raters of those games, one row per (game, rater).
    theirs = (
        sa.select(other.c.game_id, other.c.rater, sa.func.min(other.c.place).label("place"))
        .where(
            other.c.rater.is_not(None),
            other.c.rater != rater,
            other.c.game_id.in_(sa.select(gp.c.game_id).where(gp.c.rater == rater)),
        )
        .group_by(other.c.game_id, other.c.rater)
        .subquery("theirs")
    )
    # Above them: a better place, or a place where they have none (a game stored before
    # places were kept gives the winner's alone).
    above = sa.case(
        (
            sa.and_(
                mine.c.place.is_not(None),
                sa.or_(theirs.c.place.is_(None), mine.c.place < theirs.c.place),
            ),
            1,
        ),
        else_=0,
    )
    met = sa.func.count()
    rows = c.execute(
        sa.select(
            theirs.c.rater,
            players_table.c.name,
            met.label("games"),
            sa.func.sum(above).label("wins_against"),
        )
        .select_from(mine)
        .join(theirs, theirs.c.game_id == mine.c.game_id)
        .outerjoin(players_table, players_table.c.id == theirs.c.rater)
        .group_by(theirs.c.rater, players_table.c.name)
        .order_by(met.desc(), theirs.c.rater)
        .limit(PROFILE_OPPONENTS)
    ).all()
    return [Opponent(r.rater, r.name, int(r.games), int(r.wins_against or 0)) for r in rows]


def rate_game(c: Connection, game_id: int, family: str) -> None:
    """Rate a finished game's players from their places (in ``game_players``)."""
    # A history row means this game was rated already: a retried write changes nothing.
    done = c.execute(
        sa.select(rating_history_table.c.rater).where(rating_history_table.c.game_id == game_id)
    ).first()
    if done is not None:
        return
    gp = game_players_table
    finished = c.execute(
        sa.select(gp.c.rater, gp.c.place, gp.c.acted).where(
            gp.c.game_id == game_id, gp.c.rater.is_not(None), gp.c.place.is_not(None)
        )
    ).all()
    standings = ratings.standings(
        ratings.counted([(r.rater, r.place, bool(r.acted)) for r in finished])
    )
    if len(standings) < 2:
        return
    rows = c.execute(
        sa.select(ratings_table).where(
            ratings_table.c.family == family, ratings_table.c.rater.in_(list(standings))
        )
    ).all()
    known = {r.rater: r for r in rows}
    before = {
        r: (known[r].mu, known[r].sigma) if r in known else ratings.default() for r in standings
    }
    after = ratings.rate(standings, before)
    now = time.time()
    # One statement per kind of row, each with every rater's values: the statements, not the
    # openskill update, are what rating adds to storing a result (bench/rating_update.py).
    changed = [
        {"b_rater": r, "b_mu": after[r][0], "b_sigma": after[r][1], "b_games": known[r].games + 1}
        for r in standings
        if r in known
    ]
    if changed:
        c.execute(
            ratings_table.update()
            .where(
                ratings_table.c.rater == sa.bindparam("b_rater"),
                ratings_table.c.family == family,
            )
            .values(
                mu=sa.bindparam("b_mu"),
                sigma=sa.bindparam("b_sigma"),
                games=sa.bindparam("b_games"),
                updated=now,
            ),
            changed,
        )
    new = [
        {"rater": r, "family": family, "mu": mu, "sigma": sigma, "games": 1, "updated": now}
        for r, (mu, sigma) in after.items()
        if r not in known
    ]
    if new:
        c.execute(ratings_table.insert(), new)
    c.execute(
        rating_history_table.insert(),
        [
            {
                "game_id": game_id,
                "rater": rater,
                "family": family,
                "place": round(rank),  # several bots of one level: their mean place
                "mu_before": before[rater][0],
                "sigma_before": before[rater][1],
                "mu_after": after[rater][0],
                "sigma_after": after[rater][1],
                "at": now,
            }
            for rater, rank in standings.items()
        ],
    )


def rating_changes(c: Connection, game_id: int) -> dict[int, RatingChange]:
    """Each rated player's shown rating before and after the game (by player number), and
    whether it is provisional after it (counting the rater's rated games up to this one)."""
    gp, h = game_players_table, rating_history_table
    earlier = rating_history_table.alias("earlier")
    games = (
        sa.select(sa.func.count())
        .select_from(earlier)
        .where(earlier.c.rater == h.c.rater, earlier.c.family == h.c.family, earlier.c.at <= h.c.at)
        .scalar_subquery()
    )
    rows = c.execute(
        sa.select(gp.c.player, h.c.rater, h.c.mu_before, h.c.mu_after, games.label("games"))
        .join(h, sa.and_(h.c.game_id == gp.c.game_id, h.c.rater == gp.c.rater))
        .where(gp.c.game_id == game_id)
    ).all()
    return {
        int(r.player): RatingChange(
            before=ratings.shown(r.mu_before),
            after=ratings.shown(r.mu_after),
            provisional=ratings.provisional(int(r.games)),
            level=r.rater.removeprefix(ratings.BOT_PREFIX)
            if r.rater.startswith(ratings.BOT_PREFIX)
            else None,
        )
        for r in rows
    }
