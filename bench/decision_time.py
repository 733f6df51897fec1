"""Decision time of ``hard``'s search with 3 to 6 players, over random positions.

Run by hand (not a test):
    python bench/decision_time.py [--games 10] [--rules dudo perudo liars-dice] [--budget S]

For each rule set and each table of 3 to 6 players, ``medium`` bots play whole games; at
every position where 3 or more players have dice and the player to move has a choice,
``hard`` is asked for its decision there (timed with ``time.perf_counter`` around
``choose(view)``, the view built outside the timing) and the game goes on with medium's
move. Prints p50, p90, p99 and the maximum per rule set, the deals searched per decision
(p50 and the least), and the process CPU time beside the wall time, since the machine may
be shared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dudo.bots import make_bot
from dudo.bots.book import BookBot
from dudo.bots.search import SEARCH_BUDGET, SearchBot
from dudo.engine import Game
from dudo.engine.rules import rules_from_settings


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per rule set and table")
    parser.add_argument("--rules", nargs="*", default=["dudo", "perudo", "liars-dice"])
    parser.add_argument("--budget", type=float, default=SEARCH_BUDGET)
    args = parser.parse_args()
    print(f"hard's search, budget {args.budget * 1e3:.0f} ms, {args.games} games per table")
    print(
        f"{'rules':11} {'decisions':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}"
        f" {'max ms':>8} {'deals p50':>9} {'deals min':>9} {'wall s':>7} {'cpu s':>7}"
    )
    every: list[float] = []
    for name in args.rules:
        rules = rules_from_settings(name, [])
        times: list[float] = []
        deals: list[int] = []
        wall, cpu = time.perf_counter(), time.process_time()
        for players in range(3, 7):
            for number in range(args.games):
                seed = players * 1000 + number
                game = Game(rules, players, seed=seed)
                others = [make_bot("medium", random.Random(seed + s)) for s in range(players)]
                rng = random.Random(seed)  # the hard level, with the budget asked for
                search = SearchBot(rng, budget=args.budget)
                hard = BookBot(rng, fallback=search)
                while not game.is_over:
                    mover = game.to_move
                    view = game.view(mover)
                    live = sum(1 for n in view.dice_counts if n)
                    if live >= 3 and len(view.legal_actions) > 1:
                        search.last_samples = 0
                        start = time.perf_counter()
                        hard.choose(view)
                        times.append(time.perf_counter() - start)
                        deals.append(search.last_samples)
                    game.push(others[mover].choose(view))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        every.extend(times)
        ms = [t * 1e3 for t in times]
        searched = [d for d in deals if d]  # 0: a position the search left to the lookahead
        print(
            f"{name:11} {len(ms):9d} {statistics.median(ms):8.2f} {percentile(ms, 0.9):8.2f}"
            f" {percentile(ms, 0.99):8.2f} {max(ms):8.2f} {statistics.median(searched):9.0f}"
            f" {min(searched):9d} {wall:7.1f} {cpu:7.1f}"
        )
    ms = [t * 1e3 for t in every]
    print(
        f"{'all':11} {len(ms):9d} {statistics.median(ms):8.2f} {percentile(ms, 0.9):8.2f}"
        f" {percentile(ms, 0.99):8.2f} {max(ms):8.2f}"
    )


if __name__ == "__main__":
    main()
