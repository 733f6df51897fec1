"""Solve Lanctot's "Bluff" heads-up game bottom-up and compare with the published values.

Run by hand, not a test. Bluff is Dudo with ``raise_mode=any_face``,
``aces_to=floor_half_plus_one``, ``aces_from=double``, ``open_on_aces=always``,
``loss=difference``, ``next_opener=winner`` and no spot-on, pass or obliging round. The
published game values for the opener are about +0.6189 (2 dice vs 1), -0.5883 (1 vs 2) and
+0.0127 (2 vs 2, within about 0.003). The smaller positions are solved to exploitability
``--small-target``, the 2v2 round (2^24 histories) to ``--target``; every exact evaluation
prints a line with wall and CPU time and peak memory:

    python bench/bluff_game.py                        # up to 2 dice each (about an hour)
    python bench/bluff_game.py --most 1               # only the 1v1 round
"""

from __future__ import annotations

import argparse
import resource
import time

from dudo.engine import preset
from dudo.solver import Position
from dudo.solver.cfr import RoundSolver
from dudo.solver.evaluate import Evaluation
from dudo.solver.game import BLUFF, Budget, GameSolver

PUBLISHED = {(1, 1): -7 / 258, (2, 1): 0.6189, (1, 2): -0.5883, (2, 2): 0.0127}


def peak_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--most", type=int, default=2, help="most dice a player holds")
    parser.add_argument("--small-target", type=float, default=1e-4)
    parser.add_argument("--target", type=float, default=1e-3)
    parser.add_argument("--seconds", type=float, default=3600.0)
    args = parser.parse_args()
    cpu_at_start = [cpu_seconds()]

    def watch(position: Position, solver: RoundSolver, result: Evaluation, seconds: float) -> None:
        if solver.round.nodes > 100_000:
            print(
                f"  {position.label()} iter {solver.iteration:5d}  wall {seconds:8.1f} s  "
                f"cpu {cpu_seconds() - cpu_at_start[0]:8.1f} s  value {result.value:+.6f}  "
                f"exploitability {result.exploitability:.3e}  peak {peak_gib():.2f} GiB",
                flush=True,
            )

    game = GameSolver(
        preset("dudo", **BLUFF),
        Budget(target=args.small_target, every=50),
        report=lambda line: print(line, flush=True),
        watch=watch,
    )
    for dice in [(1, 1), (2, 1), (1, 2), (2, 2)]:
        if max(dice) > args.most:
            continue
        if dice == (2, 2):
            game.budget = Budget(target=args.target, every=20, seconds=args.seconds)
        cpu_at_start[0] = cpu_seconds()
        started = time.perf_counter()
        value = game.value(Position(dice))
        solved = game.rounds[Position(dice)]
        print(
            f"{dice[0]}v{dice[1]}: value {value:+.5f} (published {PUBLISHED[dice]:+.4f}), "
            f"exploitability {solved.evaluation.exploitability:.1e}, "
            f"{time.perf_counter() - started:.0f} s wall, {cpu_seconds() - cpu_at_start[0]:.0f} s cpu, "
            f"peak {peak_gib():.2f} GiB",
            flush=True,
        )


if __name__ == "__main__":
    main()
