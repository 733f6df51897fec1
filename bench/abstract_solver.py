"""Seconds per iteration and peak memory of the last-k-bids abstraction solver.

Run by hand, not a test. For each position it builds the abstract round (timed), then runs
``--repeats`` times: a fresh :class:`AbstractSolver`, one warm-up step, then ``--steps``
timed steps; it prints the median seconds per step over all timed steps and the peak of
memory allocated while a solver is built and stepped (tracemalloc, in a separate run so
that tracing costs nothing to the timings). With ``--whole`` it also solves a position
whose recall covers the whole round with both the abstraction and the full-tree
:class:`RoundSolver` (DCFR, same dtype) and prints the ratio of their seconds per step.

    python bench/abstract_solver.py --dice 4 4 --dice 5 5 --recall 4 --window 6
    python bench/abstract_solver.py --dice 3 3 --recall 3 --dtype float32 --whole 1 1

numpy's BLAS may run several threads; on a busy 2-core machine its many small products
are faster with one (``OPENBLAS_NUM_THREADS=1``); the header prints the setting.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
import tracemalloc
from collections.abc import Callable

import numpy as np

from dudo.engine import preset
from dudo.engine.rules import parse_assignment
from dudo.solver import Position, build_round
from dudo.solver.abstraction import AbstractRound, AbstractSolver, build_abstract_round
from dudo.solver.cfr import Algorithm, RoundSolver


def per_step(make: Callable[[], object], steps: int, repeats: int) -> float:
    """Median seconds of one ``step()`` over ``repeats`` fresh solvers (after a warm-up step
    each, which pays for the first touch of the arrays)."""
    times = []
    for _ in range(repeats):
        solver = make()
        solver.step()  # type: ignore[attr-defined]
        for _ in range(steps):
            began = time.perf_counter()
            solver.step()  # type: ignore[attr-defined]
            times.append(time.perf_counter() - began)
        del solver
        gc.collect()
    return statistics.median(times)


def peak_bytes(make: Callable[[], object], steps: int) -> int:
    """Peak memory allocated while a solver is built and stepped ``steps`` times."""
    gc.collect()
    tracemalloc.start()
    solver = make()
    for _ in range(steps):
        solver.step()  # type: ignore[attr-defined]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del solver
    gc.collect()
    return peak


def solver_of(graph: AbstractRound, dtype: type[np.floating]) -> Callable[[], object]:
    # The float64 default is passed by omission, so the same script times older versions.
    if dtype is np.float64:
        return lambda: AbstractSolver(graph)
    return lambda: AbstractSolver(graph, dtype=dtype)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="liars-dice")
    parser.add_argument("--set", dest="settings", action="append", default=[])
    parser.add_argument("--dice", nargs=2, type=int, action="append")
    parser.add_argument("--recall", type=int, default=4)
    parser.add_argument("--window", type=int, default=None)
    parser.add_argument("--dtype", choices=["float64", "float32"], default="float64")
    parser.add_argument("--steps", type=int, default=3, help="timed steps per repetition")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--whole", nargs=2, type=int, help="a position solved whole too")
    args = parser.parse_args()
    rules = preset(args.rules, **dict(parse_assignment(s) for s in args.settings))
    dtype = np.float32 if args.dtype == "float32" else np.float64
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(
        f"# {args.rules} {' '.join(args.settings)} recall {args.recall} window {args.window} "
        f"{args.dtype}, {args.repeats} x {args.steps} timed steps, BLAS threads {threads}"
    )
    print("| position | nodes | edges | hands | build s | s/step | peak MB |")
    print("|---|---|---|---|---|---|---|")
    for dice in args.dice or [[4, 4]]:
        position = Position((dice[0], dice[1]))
        began = time.perf_counter()
        graph = build_abstract_round(rules, position, args.recall, window=args.window)
        built = time.perf_counter() - began
        make = solver_of(graph, dtype)
        seconds = per_step(make, args.steps, args.repeats)
        peak = peak_bytes(make, 2)
        print(
            f"| {position.label()} | {graph.nodes:,} | {graph.edges:,} | "
            f"{graph.hands(0)}x{graph.hands(1)} | {built:.1f} | {seconds:.3f} | "
            f"{peak / 1e6:,.0f} |",
            flush=True,
        )
        del graph, make
        gc.collect()
    if args.whole:
        position = Position((args.whole[0], args.whole[1]))
        round_ = build_round(rules, position)
        graph = build_abstract_round(rules, position, recall=len(round_.bids))
        assert graph.nodes == round_.nodes, "the recall does not cover the whole round"
        steps, repeats = 20, args.repeats
        abstract = per_step(solver_of(graph, dtype), steps, repeats)
        tree = per_step(lambda: RoundSolver(round_, Algorithm.DCFR, dtype), steps, repeats)
        print(
            f"\nwhole round {position.label()} ({round_.nodes:,} histories): abstraction "
            f"{abstract * 1e3:.2f} ms/step, full-tree RoundSolver {tree * 1e3:.2f} ms/step, "
            f"ratio {abstract / tree:.1f}"
        )


if __name__ == "__main__":
    main()
