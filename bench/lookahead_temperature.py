"""How far `hard`'s one-round lookahead should mix: its exploitability and its paired results
against a pool of opponents, for several temperatures.

Run by hand, not a test. The lookahead plays every action with weight exp(-(loss - least) / T)
(`dudo.bots.lookahead.LookaheadBot`); T = 0 is the old deterministic choice. Two parts:

    python bench/lookahead_temperature.py exploit --temperature 0 0.05 0.1 0.2
    python bench/lookahead_temperature.py arena --temperature 0 0.1 --games 2000

`exploit` measures the lookahead itself (not the book `hard` plays where one covers the
position), with +1/-1 round payoffs: exactly under `liars-dice` at 1v1, 2v1 and 1v2, and with
3 faces at 2v2 and 3v3, where the whole tree fits; by local best response (LBR, --lbr-games
rounds, a lower bound with its 95% interval) at 5v5 with 6 faces, where `hard` plays it.

`arena` plays `hard` (book where it has one, lookahead elsewhere heads-up) against each
opponent of the pool on common deals (`dudo arena hard X --common-deals`, seat-swapped pairs
on the same dice), 5 dice each, under `liars-dice` and `dudo`, and prints the paired
difference in points of win rate with its 95% t interval. The pool holds `medium`, the
`caller` (calls far too often) and the `bluffer` (bids far above its dice), and `hard` at
T = 0, the deterministic lookahead (the default). docs/exploitability.md, "Mixing the
lookahead", has the table this measured, and why `hard` stays at T = 0.
"""

from __future__ import annotations

import argparse
import random
import time

import dudo.bots.lookahead as lookahead_module
from dudo.arena import ArenaConfig, ArenaResult, run_arena
from dudo.bots.lookahead import LookaheadBot
from dudo.engine import preset
from dudo.engine.rules import rules_from_settings
from dudo.exploit import BotQuery, lbr
from dudo.solver import Position, build_round
from dudo.solver.exploit import exact_exploitability

EXACT = (
    ("liars-dice", (), (1, 1)),
    ("liars-dice", (), (2, 1)),
    ("liars-dice", (), (1, 2)),
    ("liars-dice", ("faces=3",), (2, 2)),
    ("liars-dice", ("faces=3",), (3, 3)),
)
LBR = (("liars-dice", (), (5, 5)),)
POOL = ("medium", "caller", "bluffer")


def exploit(temperatures: list[float], lbr_games: int) -> None:
    heads = [f"{'+'.join(s) or '6 faces'} {a}v{b}" for _, s, (a, b) in EXACT]
    heads += [f"{a}v{b} LBR" for _, _, (a, b) in LBR]
    print("| T | " + " | ".join(heads) + " | mean exact | seconds |")
    print("|---" * (len(heads) + 3) + "|")
    for temperature in temperatures:
        began = time.perf_counter()
        cells: list[str] = []
        exact: list[float] = []
        for rules_name, settings, dice in EXACT:
            rules = rules_from_settings(rules_name, list(settings))
            round_ = build_round(rules, Position(dice))
            query = BotQuery(round_, LookaheadBot(random.Random(0), temperature=temperature))
            value = exact_exploitability(round_, (query, query)).exploitability
            exact.append(value)
            cells.append(f"{value:.3f}")
        for rules_name, settings, dice in LBR:
            rules = rules_from_settings(rules_name, list(settings))
            bot = LookaheadBot(random.Random(0), temperature=temperature)
            found = lbr(rules, Position(dice), bot, lbr_games, seed=0)
            cells.append(f"{found.value:+.3f} ± {found.half_width:.3f}")
        mean = sum(exact) / len(exact)
        seconds = time.perf_counter() - began
        print(f"| {temperature:g} | " + " | ".join(cells) + f" | {mean:.3f} | {seconds:.0f} |")


def arena(temperatures: list[float], games: int, rules_names: list[str], pool: list[str]) -> None:
    print("| T | rules | vs | hard's win rate | paired difference [95%] | seconds |")
    print("|---|---|---|---|---|---|")
    for temperature in temperatures:
        for rules_name in rules_names:
            for opponent in pool:
                began = time.perf_counter()
                found = _hard_against(opponent, temperature, games, rules_name)
                paired = found.paired
                assert paired is not None
                d = paired.difference
                rate, low, high = paired.rate(paired.first_wins)
                mean, ci_low, ci_high = d.mean, d.ci_low, d.ci_high
                assert rate is not None and mean is not None
                assert ci_low is not None and ci_high is not None
                print(
                    f"| {temperature:g} | {rules_name} | {opponent} | {100 * rate:.1f}% "
                    f"[{100 * low:.1f}, {100 * high:.1f}] | {100 * mean:+.1f} "
                    f"[{100 * ci_low:+.1f}, {100 * ci_high:+.1f}] | "
                    f"{time.perf_counter() - began:.0f} |",
                    flush=True,
                )


def _hard_against(opponent: str, temperature: float, games: int, rules_name: str) -> ArenaResult:
    """`hard` at ``temperature`` against ``opponent`` on common deals. ``hard@0`` is `hard` at
    T = 0: every `hard` seat reads the one module constant, so that opponent is registered
    under its own name, the `hard` level with its lookahead set to 0."""
    import dudo.bots as bots

    hard = bots.LEVELS["hard"]
    search = bots.Method("search", {"temperature": 0.0})
    bots._SPARRING["hard@0"] = bots.Method(hard.name, hard.params, fallback=search)
    lookahead_module.LOOKAHEAD_TEMPERATURE = temperature
    config = ArenaConfig(
        bots=("hard", opponent),
        games=games,
        rules=rules_name,
        dice=5,
        seed=14,
        workers=1,
        save=False,
        common_deals=True,
    )
    return run_arena(config)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=("exploit", "arena"))
    parser.add_argument("--temperature", type=float, nargs="+", default=[0.0, 0.1])
    parser.add_argument("--lbr-games", type=int, default=1000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rules", nargs="+", default=["liars-dice", "dudo"])
    parser.add_argument("--pool", nargs="+", default=[*POOL, "hard@0"])
    args = parser.parse_args()
    preset("liars-dice")  # fail early on a broken install
    if args.part == "exploit":
        exploit(args.temperature, args.lbr_games)
    else:
        arena(args.temperature, args.games, args.rules, args.pool)


if __name__ == "__main__":
    main()
