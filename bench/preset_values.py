"""Game values of every preset's heads-up rules (spot-on and pass off), solved bottom-up.

Run by hand, not a test. For each preset, with ``spot_on=false`` and ``pass_hands=none``, it
(and `pass_allows_spot_on=false`), solves the whole heads-up game from every start with at most ``--most`` dice each, each
round to exploitability ``--target``, and prints the value for the opener (player 0) of
each start, how exploitable its round's solution is, and the size of that round's tree.
Rounds with more than ``--max-histories`` histories are skipped (2 dice each under a total
bid order is 2^24 histories and about 15 GB):

    python bench/preset_values.py --most 2 --target 1e-4
"""

from __future__ import annotations

import argparse
import time

from dudo.engine import PRESETS
from dudo.solver import SolverError
from dudo.solver.game import Budget, GameSolver, starting_positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--most", type=int, default=2)
    parser.add_argument("--target", type=float, default=1e-4)
    parser.add_argument("--max-histories", type=int, default=2_000_000)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    args = parser.parse_args()
    print("| preset | start | value for the opener | exploitability | histories | seconds |")
    print("|---|---|---|---|---|---|")
    for name in args.presets:
        rules = PRESETS[name].with_options(
            spot_on=False, pass_hands="none", pass_allows_spot_on=False
        )
        game = GameSolver(rules, Budget(target=args.target, every=50))
        for start in starting_positions(rules, args.most):
            began = time.perf_counter()
            try:
                game.max_histories = args.max_histories
                value = game.value(start)
            except SolverError as error:
                print(f"| {name} | {start.label()} | not solved: {error} | | | |", flush=True)
                continue
            solved = game.rounds.get(start)
            if solved is None:  # an obliger's choice: the better of two rounds
                print(f"| {name} | {start.label()} | {value:+.4f} | | | |", flush=True)
                continue
            print(
                f"| {name} | {start.label()} | {value:+.4f} | "
                f"{solved.evaluation.exploitability:.1e} | {solved.round.nodes:,} | "
                f"{time.perf_counter() - began:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
