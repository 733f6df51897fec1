"""Rating update cost per game: what rating adds to storing a finished game's result.

Run by hand (not a test):

    python bench/rating_update.py [--games 200] [--repeats 5] [--players 2 4 8]
                                  [--database-url postgresql://...]

Each case times ``Store.finish_game`` (one transaction: places, result, record, running score
and, for a rated game, every rater's openskill update with its history rows) for ``--games``
rated games and as many unrated ones, the same games otherwise: same players, same record (a
real random game of that many players, written by ``record_of``), same places. Each repetition
times both blocks, in turns (rated first in odd repetitions), on one database, so the two are
peers of the same run; it prints per game the median time of each, the median of the
repetitions' rated/unrated ratios and the difference, which is the cost of rating. The raters
come from a pool of players and the four bot levels, so most updates find earlier ratings.
Beside it, the pure openskill update (``dudo.server.ratings.rate``, no database) per game.

SQLite: a fresh file in a temporary folder, with the server's own settings (WAL, synchronous
NORMAL). PostgreSQL, only with ``--database-url``: give a throwaway database; the bench adds
tables and games to it (codes starting with ``RB``) and does not remove them.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from dudo.engine import Game, preset
from dudo.records import PlayerInfo, record_of
from dudo.server import ratings
from dudo.server.storage import Place, Store, StoredSeat

LEVELS = ("random", "easy", "medium", "hard")
#: The players of the pool the seats are drawn from.
POOL = 64


class Case:
    """``count`` started games of ``players`` players, rated or not, ready to be finished."""

    def __init__(self, store: Store, players: int, count: int, rated: bool, seed: int) -> None:
        rng = random.Random(seed)
        game = Game(preset("dudo"), players, seed=seed)
        while not game.is_over:
            game.push(rng.choice(game.legal_actions()))
        order = game.finishing_order()
        self.args: list[tuple[Any, ...]] = []
        for _ in range(count):
            code = "RB" + secrets.token_hex(5).upper()
            seats = self.seats(rng, players)
            infos = [
                PlayerInfo(s["name"], "bot", s["level"])
                if s["kind"] == "bot"
                else PlayerInfo(s["name"])
                for s in seats
            ]
            record = record_of(game, infos, meta={"game": 1}, preset="dudo")
            stored = [
                StoredSeat(
                    s["seat"],
                    s["kind"],
                    s["name"],
                    s["level"],
                    secrets.token_hex(32) if s["kind"] == "human" else None,
                    False,
                    player_id=s.get("player_id"),
                )
                for s in seats
            ]
            store.create_table(code, "dudo", {}, {"seats": players}, stored, public=True)
            game_id = store.start_game(code, 1, seed, {}, seats, rated="dudo" if rated else None)
            places = tuple(Place(p, order.index(p) + 1, acted=True) for p in range(players))
            scores = tuple((s, int(order[0] == s), 1) for s in range(players))
            self.args.append((code, game_id, order[0], game.round_number, record, scores, places))

    @staticmethod
    def seats(rng: random.Random, players: int) -> list[dict[str, Any]]:
        """Half people of the pool (no one twice), half bots of any level."""
        people = rng.sample(range(POOL), players - players // 2)
        seats: list[dict[str, Any]] = [
            {"seat": i, "name": f"P{p}", "kind": "human", "level": None, "player_id": f"bench{p}"}
            for i, p in enumerate(people)
        ]
        for i in range(len(seats), players):
            seats.append(
                {"seat": i, "name": f"Bot {i}", "kind": "bot", "level": rng.choice(LEVELS)}
            )
        rng.shuffle(seats)
        for i, seat in enumerate(seats):
            seat["seat"] = i
        return seats

    def finish_all(self, store: Store) -> float:
        """Store every game's result; the median seconds per game."""
        times = []
        for args in self.args:
            start = time.perf_counter()
            store.finish_game(*args)
            times.append(time.perf_counter() - start)
        return statistics.median(times)


def pure_rate(players: int, calls: int = 200) -> float:
    """The median seconds of one openskill update of ``players`` raters, with no database."""
    rng = random.Random(players)
    times = []
    for _ in range(calls):
        ranks = {
            f"r{i}": float(place)
            for i, place in enumerate(rng.sample(range(1, players + 1), players))
        }
        before = {r: (25.0 + rng.uniform(-5, 5), 8.0 * rng.uniform(0.3, 1)) for r in ranks}
        start = time.perf_counter()
        ratings.rate(ranks, before)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench(label: str, url: str, args: argparse.Namespace) -> None:
    store = Store(url)
    try:
        for p in range(POOL):  # the pool's players exist, as a rated table's players do
            store.create_player(
                f"bench{p}",
                f"Bench {p} {secrets.token_hex(3)}",
                secrets.token_hex(8),
                secrets.token_hex(16),
            )
        # A first round of rated games so most raters have a rating and a history already.
        for players in args.players:
            Case(store, players, args.games, True, seed=players).finish_all(store)
        for players in args.players:
            rated_ms, unrated_ms, ratios = [], [], []
            for repeat in range(args.repeats):
                seed = 1000 * players + repeat
                cases = {
                    kind: Case(store, players, args.games, kind, seed) for kind in (True, False)
                }
                order = (True, False) if repeat % 2 == 0 else (False, True)
                took = {kind: cases[kind].finish_all(store) for kind in order}
                rated_ms.append(took[True] * 1e3)
                unrated_ms.append(took[False] * 1e3)
                ratios.append(took[True] / took[False])
            rated, unrated = statistics.median(rated_ms), statistics.median(unrated_ms)
            print(
                f"{label:<11} {players:>7} {unrated:>12.3f} {rated:>10.3f} "
                f"{statistics.median(ratios):>13.2f} {rated - unrated:>10.3f} "
                f"{pure_rate(players) * 1e3:>12.3f}"
            )
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per block (one timing each)")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions (medians reported)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 8])
    parser.add_argument("--database-url", help="a throwaway PostgreSQL database to measure too")
    args = parser.parse_args()
    print(
        f"finish_game per game, median of {args.repeats} repetitions of {args.games} games "
        "(each repetition's time: the median game)"
    )
    print(
        f"{'database':<11} {'players':>7} {'unrated ms':>12} {'rated ms':>10} "
        f"{'rated/unrated':>13} {'rating ms':>10} {'openskill ms':>12}"
    )
    with tempfile.TemporaryDirectory(prefix="dudo-rating-bench-") as folder:
        bench("sqlite", f"sqlite:///{Path(folder) / 'dudo.sqlite3'}", args)
    if args.database_url:
        bench("postgresql", args.database_url, args)


if __name__ == "__main__":
    main()
