"""Solver speed: wall time to an exploitability target on the 1v1 liars-dice round, against
OpenSpiel's C++ CFR+.

Run by hand (not a test):
    python bench/solver_speed.py [--target 1e-4] [--check-every 10]
        [--openspiel-check-every 100] [--repeats 3] [--quick]

The round is ``preset("liars-dice", aces_rank="high")`` at ``Position((1, 1))``, which is
OpenSpiel's ``liars_dice`` (numdice 1; see :mod:`dudo.solver.openspiel_bridge`). Each
solver runs until the exploitability of its average strategy is at most ``--target``,
checked exactly every K iterations: ours with :func:`~dudo.solver.evaluate.evaluate`,
OpenSpiel's ``CFRPlusSolver`` with ``pyspiel.exploitability`` of ``average_policy()``.
Repetitions alternate the solvers in one run; medians are reported.

Columns: iterations needed (a multiple of K), setup (ours: building the round and the
solver; OpenSpiel: loading the game and the solver), iterations alone, the checks, wall
time (all three), and OpenSpiel's time over ours (wall, and iterations alone).

Checkpoint spacing K matters: the run stops at the first multiple of K past the true
crossing, so it overshoots by K/2 iterations on average, and it pays one check per K
iterations. Our check costs about one of our iterations, so K=10 costs ~10% and overshoots
by ~5 iterations. OpenSpiel's check costs about twenty of its iterations, so its K is
larger (default 100: ~20% of the run in checks and ~50 iterations of overshoot); the
"iterations" columns show the time without the checks.

OpenSpiel comes from the optional extra:  pip install -e '.[open-spiel]'
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from typing import Any

from dudo.engine import preset
from dudo.solver import Position, build_round
from dudo.solver.cfr import Algorithm, RoundSolver
from dudo.solver.evaluate import evaluate


@dataclass(frozen=True)
class Run:
    iterations: int
    setup: float
    iterating: float
    checking: float
    exploitability: float

    @property
    def wall(self) -> float:
        return self.setup + self.iterating + self.checking


def run_ours(algorithm: Algorithm, target: float, every: int, cap: int) -> Run:
    start = time.perf_counter()
    round_ = build_round(preset("liars-dice", aces_rank="high"), Position((1, 1)))
    solver = RoundSolver(round_, algorithm)
    setup = time.perf_counter() - start
    iterating = checking = 0.0
    while True:
        t0 = time.perf_counter()
        for _ in range(every):
            solver.step()
        t1 = time.perf_counter()
        exploitability = evaluate(round_, solver.average()).exploitability
        t2 = time.perf_counter()
        iterating += t1 - t0
        checking += t2 - t1
        if exploitability <= target or solver.iteration >= cap:
            return Run(solver.iteration, setup, iterating, checking, exploitability)


def run_openspiel(pyspiel: Any, target: float, every: int, cap: int) -> Run:
    start = time.perf_counter()
    game = pyspiel.load_game("liars_dice", {"players": 2, "numdice": 1})
    solver = pyspiel.CFRPlusSolver(game)
    setup = time.perf_counter() - start
    iterating = checking = 0.0
    iteration = 0
    while True:
        t0 = time.perf_counter()
        for _ in range(every):
            solver.evaluate_and_update_policy()
        iteration += every
        t1 = time.perf_counter()
        exploitability = float(pyspiel.exploitability(game, solver.average_policy()))
        t2 = time.perf_counter()
        iterating += t1 - t0
        checking += t2 - t1
        if exploitability <= target or iteration >= cap:
            return Run(iteration, setup, iterating, checking, exploitability)


def load_pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def median_run(runs: list[Run]) -> Run:
    return Run(
        int(statistics.median(r.iterations for r in runs)),
        statistics.median(r.setup for r in runs),
        statistics.median(r.iterating for r in runs),
        statistics.median(r.checking for r in runs),
        statistics.median(r.exploitability for r in runs),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=1e-4, help="exploitability to reach")
    parser.add_argument("--check-every", type=int, default=10, help="our checkpoint spacing")
    parser.add_argument(
        "--openspiel-check-every", type=int, default=100, help="OpenSpiel's checkpoint spacing"
    )
    parser.add_argument("--repeats", type=int, default=3, help="repetitions (median reported)")
    parser.add_argument("--max-iterations", type=int, default=20_000, help="give up after this")
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: target 3e-2, one repeat, OpenSpiel K=10"
    )
    args = parser.parse_args()
    if args.quick:
        args.target, args.repeats, args.openspiel_check_every = 3e-2, 1, 10
    pyspiel = load_pyspiel()
    if pyspiel is None:
        print("OpenSpiel not installed (pip install -e '.[open-spiel]'): ours only")

    names = ["ours CFR+", "ours DCFR", "OpenSpiel CFR+ (C++)"]
    every = [args.check_every, args.check_every, args.openspiel_check_every]
    runs: list[list[Run]] = [[], [], []]
    for repeat in range(args.repeats):
        for i, algorithm in enumerate((Algorithm.CFR_PLUS, Algorithm.DCFR)):
            runs[i].append(run_ours(algorithm, args.target, every[i], args.max_iterations))
        if pyspiel is not None:
            runs[2].append(run_openspiel(pyspiel, args.target, every[2], args.max_iterations))
        done = ", ".join(f"{n} {r[-1].wall:.1f} s" for n, r in zip(names, runs, strict=True) if r)
        print(f"repeat {repeat + 1}/{args.repeats}: {done}", flush=True)

    print(
        f"\n1v1 liars-dice round (aces high) = OpenSpiel liars_dice numdice=1; "
        f"target exploitability {args.target:g}; median of {args.repeats}\n"
    )
    header = (
        f"{'solver':<22} {'K':>4} {'iterations':>10} {'expl. at stop':>13} {'setup s':>8} "
        f"{'iter s':>8} {'checks s':>8} {'wall s':>8} {'ms/iter':>8} "
        f"{'OS/ours wall':>12} {'OS/ours iter':>12}"
    )
    print(header)
    print("-" * len(header))
    for name, k, results in zip(names, every, runs, strict=True):
        if not results:
            continue
        m = median_run(results)
        per_iter = 1000 * m.iterating / m.iterations
        if runs[2] and results is not runs[2]:
            # Median of the per-repeat ratios: each pairs runs made back to back.
            pairs = list(zip(runs[2], results, strict=True))
            wall_ratio = f"{statistics.median(o.wall / u.wall for o, u in pairs):.1f}"
            iter_ratio = f"{statistics.median(o.iterating / u.iterating for o, u in pairs):.1f}"
        else:
            wall_ratio = iter_ratio = ""
        print(
            f"{name:<22} {k:>4} {m.iterations:>10} {m.exploitability:>13.3g} {m.setup:>8.2f} "
            f"{m.iterating:>8.2f} {m.checking:>8.2f} {m.wall:>8.2f} {per_iter:>8.2f} "
            f"{wall_ratio:>12} {iter_ratio:>12}"
        )


if __name__ == "__main__":
    main()
