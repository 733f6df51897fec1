"""How long the round solver takes on one big round, and how much memory it needs.

Run by hand, not a test. The default is the issue's large case: liars-dice with aces high,
two dice each (24 bids, 2^24 public histories, 21 hands a player), solved with discounted
CFR until the exact exploitability is at most 1e-3, or an hour has passed:

    python bench/solver_big_round.py
    python bench/solver_big_round.py --dice 2 1 --target 1e-4      # a smaller round

It prints one line per exact evaluation: iterations, wall time, the process's CPU time
(on a shared machine the two differ, and CPU time is what the solver itself needed),
seconds per iteration, value, exploitability, and the peak resident memory; ``--curve``
also writes those rows to a CSV file.

BLAS runs on one thread (``OPENBLAS_NUM_THREADS=1`` unless set): the solver's products are
thin (a layer's rows times a 21 x 21 payoff matrix), and on a loaded 2-core machine
OpenBLAS's threads wait on each other: a 2v1 iteration took 2.6 times as long with them.
"""

from __future__ import annotations

import os

# Before numpy is imported (by the imports below), or it has no effect.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import csv
import resource
import statistics
import time
from pathlib import Path

from dudo.engine import preset
from dudo.engine.rules import parse_assignment
from dudo.solver import Position, build_round
from dudo.solver.cfr import RoundSolver, parse_algorithm
from dudo.solver.evaluate import evaluate_average
from dudo.solver.plots import plot_history
from dudo.solver.store import History


def peak_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="liars-dice")
    parser.add_argument("--set", dest="settings", action="append", default=["aces_rank=high"])
    parser.add_argument("--dice", nargs=2, type=int, default=[2, 2])
    parser.add_argument("--algorithm", default="dcfr")
    parser.add_argument("--eval-every", type=int, default=20)
    parser.add_argument("--target", type=float, default=1e-3)
    parser.add_argument("--seconds", type=float, default=3600.0)
    parser.add_argument("--curve", type=Path, help="CSV file for the convergence curve")
    parser.add_argument("--plot", type=Path, help="PNG/SVG/PDF plot of the curve")
    args = parser.parse_args()
    options = dict(parse_assignment(s) for s in args.settings)
    rules = preset(args.rules, **options)
    position = Position((args.dice[0], args.dice[1]))

    start = time.perf_counter()
    round_ = build_round(rules, position)
    built = time.perf_counter() - start
    slices = sum(isinstance(layer.parents, slice) for layer in round_.layers)
    print(
        f"{args.rules} {options} dice {args.dice}: {round_.nodes:,} histories, "
        f"{round_.hands(0)}/{round_.hands(1)} hands, {len(round_.layers)} layers "
        f"({slices} with contiguous parents); built in {built:.1f} s; peak {peak_gib():.2f} GiB",
        flush=True,
    )
    solver = RoundSolver(round_, parse_algorithm(args.algorithm))
    print(f"solver: {args.algorithm}, {solver.dtype.__name__}", flush=True)
    begin, cpu_begin = time.perf_counter(), cpu_seconds()
    steps: list[float] = []
    rows: list[dict[str, float]] = []
    history = History()
    judged = 0.0  # how long the last evaluation took
    out_of_time = False
    while True:
        block: list[float] = []
        for _ in range(args.eval_every):
            # Stop early enough that the last evaluation, too, ends within --seconds.
            elapsed = time.perf_counter() - begin
            if block and elapsed + statistics.median(steps[-20:]) + judged > args.seconds:
                out_of_time = True
                break
            tick = time.perf_counter()
            solver.step()
            block.append(time.perf_counter() - tick)
            steps.append(block[-1])
        tick = time.perf_counter()
        result = evaluate_average(solver)
        judged = time.perf_counter() - tick
        wall, cpu = time.perf_counter() - begin, cpu_seconds() - cpu_begin
        rows.append(
            {
                "iterations": solver.iteration,
                "wall_seconds": round(wall, 2),
                "cpu_seconds": round(cpu, 2),
                "value": result.value,
                "exploitability": result.exploitability,
                "lower": result.value_bounds[0],
                "upper": result.value_bounds[1],
            }
        )
        history.add(solver.iteration, wall, result)
        if args.curve is not None:
            with args.curve.open("w", newline="") as out:
                writer = csv.DictWriter(out, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
        print(
            f"iter {solver.iteration:5d}  wall {wall:8.1f} s  cpu {cpu:8.1f} s  "
            f"{statistics.median(block):6.2f} s/iter (median)  eval {judged:5.1f} s  "
            f"value {result.value:+.6f}  "
            f"exploitability {result.exploitability:.3e}  peak {peak_gib():.2f} GiB",
            flush=True,
        )
        if result.exploitability <= args.target or out_of_time or wall >= args.seconds:
            break
    reached = "reached" if result.exploitability <= args.target else "did not reach"
    print(
        f"{reached} {args.target:g} after {solver.iteration} iterations: wall {wall:.0f} s "
        f"(+{built:.0f} s to build), cpu {cpu:.0f} s, peak {peak_gib():.2f} GiB; "
        f"median iteration {statistics.median(steps):.2f} s"
    )
    if args.plot is not None:  # at the end: drawing is no part of the solve's time
        title = f"{args.rules} {args.dice[0]}v{args.dice[1]}, {args.algorithm}"
        plot_history(history, args.plot, title)


if __name__ == "__main__":
    main()
