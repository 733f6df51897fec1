"""The strength table of the bot levels: every level against every lower level.

Run by hand (not a test):  python bench/arena_table.py [--scale 1.0] [--workers 2] [--out DIR]

For each pair (higher, lower): 2,000 heads-up games with 5 dice each under ``dudo`` and under
``liars-dice``, and 1,000 four-player ``dudo`` games of the higher level against three copies
of the lower one (``--scale`` multiplies the game counts). Each cell is the same run as
``dudo arena HIGHER LOWER --rules R --players P --games N --seed 1``; with ``--out`` every run
keeps its records, summary and chart in its own folder. Prints the win rates of the higher
level with 95% Wilson intervals (and the win rate of equal strength), then each level's
decision times (p50 over all runs' medians, the worst p99).
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from dudo.arena import ArenaConfig, BotResult, run_arena

LEVELS = ("random", "easy", "medium", "hard")
SETUPS = (("dudo", 2, 2000), ("liars-dice", 2, 2000), ("dudo", 4, 1000))


def cell(result: BotResult) -> str:
    rate = result.win_rate if result.win_rate is not None else float("nan")
    low, high = result.ci_low, result.ci_high
    return f"**{rate:.1%}** [{low:.1%}, {high:.1%}] (equal {result.equal_share:.0%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    header = [f"{r}, {p} players, {round(g * args.scale):,} games" for r, p, g in SETUPS]
    print("| higher vs lower | " + " | ".join(header) + " |")
    print("|---" * (len(SETUPS) + 1) + "|")
    times: dict[str, list[tuple[float, float]]] = {level: [] for level in LEVELS}
    for high_index, higher in enumerate(LEVELS):
        for lower in LEVELS[:high_index]:
            cells = []
            for rules, players, games in SETUPS:
                out = None if args.out is None else args.out / f"{higher}-{lower}-{rules}-{players}"
                config = ArenaConfig(
                    bots=(higher, lower),
                    games=max(players, round(games * args.scale)),
                    rules=rules,
                    players=players,
                    seed=1,
                    workers=args.workers,
                    out=out,
                    save=out is not None,
                    chart=out is not None,
                )
                result = run_arena(config)
                cells.append(cell(result.bot(higher)))
                for bot in result.bots:
                    p50, p99 = bot.latency.p50, bot.latency.p99
                    if p50 is not None and p99 is not None:
                        times[bot.bot].append((p50, p99))
            print(f"| {higher} vs {lower} | " + " | ".join(cells) + " |", flush=True)
    print()
    print("| level | p50 ms | worst p99 ms |")
    print("|---|---|---|")
    for level, pairs in times.items():
        if pairs:
            p50 = statistics.median(p for p, _ in pairs) * 1e3
            print(f"| {level} | {p50:.2f} | {max(q for _, q in pairs) * 1e3:.2f} |")


if __name__ == "__main__":
    main()
