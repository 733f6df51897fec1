"""Decision latency of every bot level in 6-player games with 5 dice each.

Run by hand (not a test):  python bench/bot_latency.py [--games 20] [--rules dudo] [--players 6]

The rules' solver book, if any, is loaded first (as ``dudo serve`` does when it starts), and
its loading time printed. Each level plays whole games in every seat (six copies of itself), every decision timed
with ``time.perf_counter`` around ``choose(view)`` (the view is built outside the timing).
Prints p50, p90, p99 and the maximum per level, with the process CPU time beside the wall
time, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dudo.bots import BOT_NAMES, make_bot
from dudo.bots.match import Timings, play_game
from dudo.engine import Game
from dudo.engine.rules import rules_from_settings
from dudo.solver.book import find_book


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rules", default="dudo")
    parser.add_argument("--set", dest="settings", action="append", default=[])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--levels", nargs="*", default=list(BOT_NAMES))
    args = parser.parse_args()
    rules = rules_from_settings(args.rules, args.settings)
    print(
        f"{args.rules}, {args.players} players, {rules.dice_per_player} dice each, {args.games} games per level"
    )
    book = find_book(rules)
    if book is not None:  # as `dudo serve` does, before any game
        started = time.perf_counter()
        book.preload()
        print(f"book {book.id} loaded before timing in {time.perf_counter() - started:.1f} s")
    print(
        f"{'level':8} {'decisions':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} {'wall s':>7} {'cpu s':>7}"
    )
    for level in args.levels:
        timings = Timings()
        wall, cpu = time.perf_counter(), time.process_time()
        for g in range(args.games):
            bots = [make_bot(level, random.Random(g * 100 + s)) for s in range(args.players)]
            play_game(Game(rules, args.players, seed=g), bots, on_decision=timings)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        times = [t * 1e3 for seat in timings.by_seat.values() for t in seat]
        print(
            f"{level:8} {len(times):9d} {statistics.median(times):8.2f} {percentile(times, 0.9):8.2f}"
            f" {percentile(times, 0.99):8.2f} {max(times):8.2f} {wall:7.1f} {cpu:7.1f}"
        )


if __name__ == "__main__":
    main()
