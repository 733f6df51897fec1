"""The ``dudo solve``, ``dudo solve-game`` and ``dudo evaluate`` commands (the terminal side
of :mod:`dudo.solver`, which prints nothing): checking the options, running the
solver with a progress bar, stopping, checkpoints and resuming, writing the strategy file
and the plot, and printing the results.

Every option is checked before anything is computed or written, so a bad option ends the
command with one line ``error: ...``, exit code 2, and no file touched. Exit codes: 0 done,
1 a file could not be written, 2 bad options or files, 130 interrupted (Ctrl-C: the run
stops after the current iteration and saves what it has; a second Ctrl-C stops at once).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from dudo.engine import DudoError, Rules
from dudo.engine.rules import preset, rules_from_settings
from dudo.solver.cfr import Algorithm, RoundSolver, parse_algorithm
from dudo.solver.evaluate import Evaluation, evaluate
from dudo.solver.loop import StopReason, StopRule, solve_until
from dudo.solver.position import Position, SolverError, heads_up_problem
from dudo.solver.round import Round, build_round

if TYPE_CHECKING:
    from dudo.solver.book import Book
from dudo.solver.store import (
    CHECKPOINT_FORMAT,
    History,
    HistoryRow,
    compact,
    evaluation_metadata,
    expand,
    file_format,
    load_strategy,
    position_from_metadata,
    round_metadata,
    rules_from_metadata,
    save_checkpoint,
    save_strategy,
    solver_from_checkpoint,
)
from dudo.terminal.narration import rules_label
from dudo.terminal.solve_options import SolveOptions

#: Iterations when no stopping rule is given.
DEFAULT_ITERATIONS = 1000


def default_eval_every(round_: Round) -> int:
    """Iterations between exact evaluations. One evaluation costs about one iteration
    (the same passes over the tree, without the updates), so every 10 keeps them near 10% of
    the time; on small trees (milliseconds per iteration) every 25 is plenty of points."""
    cells = round_.nodes * max(round_.hands(0), round_.hands(1))
    return 25 if cells <= 200_000 else 10


build_rules = rules_from_settings  # the preset and the --set house rules, as `dudo play` reads them


def default_stem(rules_name: str, rules: Rules, position: Position) -> str:
    """A file name for a solve: the preset, the house rules that change it, the dice,
    e.g. ``liars-dice-aces_rank-high-1v1``; a short hash instead when the rules are long."""
    base = preset(rules_name)
    parts = [rules_name.strip().lower()]
    for option, (value, _) in rules.differences(base).items():
        shown = "+".join(map(str, value)) if isinstance(value, list) else str(value)
        parts.append(f"{option}-{shown.lower()}")
    stem = "-".join(parts)
    if len(stem) > 80:
        digest = hashlib.sha1(json.dumps(rules.to_dict(), sort_keys=True).encode()).hexdigest()
        stem = f"{parts[0]}-custom-{digest[:8]}"
    stem = re.sub(r"[^A-Za-z0-9_.+-]", "_", stem)
    return f"{stem}-{position.label()}"


@dataclass(frozen=True)
class SolvePlan:
    """A checked ``dudo solve`` request."""

    rules: Rules
    rules_text: str
    position: Position
    algorithm: Algorithm
    iterations: int | None
    target: float | None
    time_limit: float | None
    eval_every: int | None
    out: Path
    plot: Path | None
    checkpoint: Path | None
    checkpoint_every: float
    resume: bool
    game_book: Path | None = None
    plot_note: str | None = None  # why the default plot is not drawn


def _check_writable(path: Path, what: str) -> None:
    folder = path.parent
    if path.is_dir():
        raise SolverError(f"{what} {path} is a folder")
    if not folder.is_dir():
        raise SolverError(f"{what} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise SolverError(f"{what} {path}: cannot write in {folder}")


def plan_solve(options: SolveOptions) -> SolvePlan:
    """Check every option of ``dudo solve`` (raising DudoError) without writing anything."""
    rules = build_rules(options.rules, options.settings)
    position = Position((options.dice[0], options.dice[1]))
    problem = heads_up_problem(rules, position)
    if problem is not None:
        raise SolverError(problem)
    chosen = parse_algorithm(options.algorithm)
    _check_numbers(options)
    iterations = options.iterations
    if iterations is None and options.target is None and options.time_limit is None:
        iterations = DEFAULT_ITERATIONS
    out = options.out
    if out is None:
        out = Path(default_stem(options.rules, rules, position) + ".npz")
    plot, plot_note = _plot(options, out)
    if options.resume and options.checkpoint is None:
        raise SolverError("--resume needs --checkpoint FILE (the checkpoint to continue)")
    game_book = options.game_book
    if game_book is not None:
        game_book = _open_game_book(game_book, rules).directory.resolve()
    _check_outputs([("--out", out), ("--plot", plot), ("--checkpoint", options.checkpoint)])
    return SolvePlan(
        rules=rules,
        rules_text=rules_label(rules, options.rules),
        position=position,
        algorithm=chosen,
        iterations=iterations,
        target=options.target,
        time_limit=options.time_limit,
        eval_every=options.eval_every,
        out=out,
        plot=plot,
        checkpoint=options.checkpoint,
        checkpoint_every=options.checkpoint_every,
        resume=options.resume,
        game_book=game_book,
        plot_note=plot_note,
    )


def _check_numbers(options: SolveOptions) -> None:
    """The stopping rules and intervals are in range."""
    if options.iterations is not None and options.iterations < 1:
        raise SolverError(f"--iterations {options.iterations}: give at least 1")
    if options.target is not None and not options.target > 0:
        raise SolverError(f"--target {options.target}: give an exploitability above 0")
    if options.time_limit is not None and not options.time_limit > 0:
        raise SolverError(f"--time {options.time_limit}: give a number of seconds above 0")
    if options.eval_every is not None and options.eval_every < 1:
        raise SolverError(f"--eval-every {options.eval_every}: give at least 1")
    if not options.checkpoint_every >= 0:
        raise SolverError(f"--checkpoint-every {options.checkpoint_every}: give seconds, 0 or more")


def _plot(options: SolveOptions, out: Path) -> tuple[Path | None, str | None]:
    """The plot to draw (None: none) and a note on why the default one is left out."""
    from dudo.solver.plots import plot_format, plots_missing

    if options.no_plot:
        return None, None
    plot = options.plot if options.plot is not None else out.with_suffix(".png")
    plot_format(plot)
    # Without the plots extra an asked-for plot is refused before any work; the default
    # one is left out with a note, as the strategy is what a solve is for.
    missing = plots_missing()
    if missing is None:
        return plot, None
    if options.plot is not None:
        raise SolverError(f"--plot {plot}: {missing} (or leave out --plot)")
    return None, f"no plot: {missing} (or pass --no-plot)"


def _check_outputs(named: Sequence[tuple[str, Path | None]]) -> None:
    """The files to write are distinct and can be written."""
    paths = [(flag, p.resolve()) for flag, p in named if p is not None]
    for i, (flag, path) in enumerate(paths):
        for other, seen in paths[:i]:
            if path == seen:
                raise SolverError(f"{other} and {flag} are the same file, {path}")
    for flag, p in named:
        if p is not None:
            _check_writable(p, flag)


def _open_game_book(folder: Path, rules: Rules) -> Book:
    """The book whose game values a ``--game-book`` round pays, for exactly these rules."""
    from dudo.solver.book import Book, rules_id

    book = Book.open(folder)
    if rules_id(book.rules) != rules_id(rules):
        raise SolverError(
            f"--game-book {folder}: the book was solved for other rules than these "
            f"(book {rules_id(book.rules)}, these {rules_id(rules)})"
        )
    return book


def _resume_solver(plan: SolvePlan) -> tuple[RoundSolver, History, float]:
    """The solver, history and seconds of the checkpoint, checked against the request."""
    assert plan.checkpoint is not None
    if not plan.checkpoint.exists():
        raise SolverError(f"--resume: the checkpoint {plan.checkpoint} does not exist")
    solver, meta = solver_from_checkpoint(plan.checkpoint)
    stored_rules = rules_from_metadata(meta)
    if stored_rules != plan.rules:
        changes = ", ".join(
            f"{name}={mine} (checkpoint: {theirs})"
            for name, (mine, theirs) in plan.rules.differences(stored_rules).items()
        )
        raise SolverError(f"--resume: {plan.checkpoint} solves other rules: {changes}")
    stored_position = position_from_metadata(meta).canonical()
    if stored_position != plan.position.canonical():
        raise SolverError(
            f"--resume: {plan.checkpoint} solves {stored_position.label()}, "
            f"not {plan.position.label()}"
        )
    if solver.algorithm is not plan.algorithm:
        raise SolverError(
            f"--resume: {plan.checkpoint} was made with --algorithm {solver.algorithm.value}"
        )
    history = History.from_dict(meta.get("history", {}))
    seconds = meta.get("seconds", 0.0)
    return solver, history, float(seconds) if isinstance(seconds, int | float) else 0.0


class _Interrupt:
    """Ctrl-C asks the run to stop after the current iteration; a second one stops at once."""

    def __init__(self) -> None:
        self.requested = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    @contextmanager
    def installed(self) -> Iterator[_Interrupt]:
        try:
            previous = signal.signal(signal.SIGINT, self.handle)
        except ValueError:  # not the main thread: leave Ctrl-C alone
            yield self
            return
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)


def _fmt_value(x: float) -> str:
    return f"{x:+.6f}"


def _fmt_expl(x: float) -> str:
    return f"{x:.3g}"


def _print_results(
    console: Console, evaluation: Evaluation, iterations: int, seconds: float, algorithm: str
) -> None:
    low, high = evaluation.value_bounds
    br0, br1 = evaluation.best_response
    lines = [
        f"value for the opener: {_fmt_value(evaluation.value)}",
        f"exploitability: {_fmt_expl(evaluation.exploitability)}",
        f"value bounds: [{_fmt_value(low)}, {_fmt_value(high)}]",
        f"best responses: opener {_fmt_value(br0)}, other player {_fmt_value(br1)}",
        f"iterations: {iterations} ({algorithm}) in {seconds:.1f} s",
    ]
    for line in lines:
        console.print(Text(line), soft_wrap=True)


def _size(path: Path) -> str:
    size = path.stat().st_size
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size / 1e3:.1f} kB"


def _error(console: Console, error: Exception) -> None:
    console.print(Text(f"error: {error}", style="red"), soft_wrap=True)


def solve_command(options: SolveOptions, console: Console) -> int:
    """Solve one heads-up round and write its strategy file; returns the exit code."""
    try:
        plan = plan_solve(options)
        if plan.resume:
            solver, history, seconds = _resume_solver(plan)
        else:
            continuation = None
            if plan.game_book is not None:
                continuation = _open_game_book(plan.game_book, plan.rules).continuation
            round_ = build_round(plan.rules, plan.position, continuation)
            solver = RoundSolver(round_, plan.algorithm)
            history, seconds = History(), 0.0
    except DudoError as error:
        _error(console, error)
        return 2
    try:
        return _run(plan, solver, history, seconds, console)
    except OSError as error:
        _error(console, error)
        return 1


def _run(
    plan: SolvePlan, solver: RoundSolver, history: History, seconds: float, console: Console
) -> int:
    round_ = solver.round
    eval_every = plan.eval_every or default_eval_every(round_)
    who = f"{round_.position.dice[0]} vs {round_.position.dice[1]} dice"
    console.print(
        Text(
            f"Solving one round of {plan.rules_text}, opener {who}: {round_.nodes} histories, "
            f"{round_.hands(0)} x {round_.hands(1)} hands, {plan.algorithm.value}, "
            f"exact evaluation every {eval_every} iterations"
            + (f", resuming at iteration {solver.iteration}" if plan.resume else "")
        ),
        soft_wrap=True,
    )

    # A round of a whole game pays the book's game values: say so, and where the book is.
    game = {} if plan.game_book is None else {"payoff": "game", "book": str(plan.game_book)}

    def meta_now(elapsed: float) -> dict[str, Any]:
        return {
            **round_metadata(round_, plan.algorithm),
            **game,
            "iterations": solver.iteration,
            "seconds": elapsed,
            "eval_every": eval_every,
            "history": history.to_dict(),
        }

    def checkpoint(seconds_so_far: float) -> None:
        assert plan.checkpoint is not None
        save_checkpoint(plan.checkpoint, solver, meta_now(seconds_so_far))

    progress, on_step = _progress(plan, solver, history, console)
    interrupt = _Interrupt()
    with interrupt.installed(), progress:
        reason, total_seconds, average = solve_until(
            solver,
            history,
            StopRule(plan.iterations, plan.target, plan.time_limit),
            eval_every=eval_every,
            seconds_before=seconds,
            interrupted=lambda: interrupt.requested,
            on_step=on_step,
            checkpoint=checkpoint if plan.checkpoint is not None else None,
            checkpoint_every=plan.checkpoint_every,
        )

    # What is stored is float32: report the numbers of exactly that strategy.
    stored = expand(round_, compact(round_, average))
    final = evaluate(round_, stored)
    meta = {**meta_now(total_seconds), **evaluation_metadata(final), "stopped": reason}
    save_strategy(plan.out, round_, stored, meta)
    if plan.checkpoint is not None:
        save_checkpoint(plan.checkpoint, solver, meta_now(total_seconds))
    if plan.plot is not None:
        from dudo.solver.plots import plot_history

        plot_history(history, plan.plot, _title(round_, plan.algorithm.value))
    _print_end(console, plan, solver.iteration, reason, final, total_seconds)
    return 130 if reason is StopReason.INTERRUPTED else 0


def _progress(
    plan: SolvePlan, solver: RoundSolver, history: History, console: Console
) -> tuple[Progress, Callable[[int, float, HistoryRow | None], None]]:
    """The progress bar of a solve (over iterations or seconds, whichever stops it) and the
    step callback that moves it."""
    if plan.iterations is not None:
        total: float | None = plan.iterations
    elif plan.time_limit is not None:
        total = plan.time_limit
    else:
        total = None
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("iteration {task.fields[iteration]}"),
        TextColumn("exploitability {task.fields[exploitability]}"),
        TextColumn("value {task.fields[value]}"),
        TimeElapsedColumn(),
        console=console,
    )
    last = history.last
    task = progress.add_task(
        solver.round.position.label(),
        total=total,
        completed=solver.iteration if plan.iterations is not None else 0,
        iteration=solver.iteration,
        exploitability=_fmt_expl(last.exploitability) if last else "-",
        value=_fmt_value(last.value) if last else "-",
    )

    def on_step(iteration: int, run_seconds: float, row: HistoryRow | None) -> None:
        fields: dict[str, Any] = {"iteration": iteration}
        if row is not None:
            fields["exploitability"] = _fmt_expl(row.exploitability)
            fields["value"] = _fmt_value(row.value)
        if plan.iterations is not None:
            completed = float(iteration)
        elif plan.time_limit is not None:
            completed = min(run_seconds, plan.time_limit)
        else:
            completed = 0.0
        progress.update(task, completed=completed, **fields)

    return progress, on_step


def _print_end(
    console: Console,
    plan: SolvePlan,
    iterations: int,
    reason: StopReason,
    final: Evaluation,
    seconds: float,
) -> None:
    """Why the solve stopped, its results and the files written."""
    if iterations == 0:
        console.print(Text("no iteration was run: the strategy is uniform"), soft_wrap=True)
    stop_words = {
        StopReason.ITERATIONS: "the iterations were done",
        StopReason.TARGET: f"exploitability reached the target {plan.target:g}"
        if plan.target
        else "",
        StopReason.TIME: f"the time limit of {plan.time_limit:g} s was reached"
        if plan.time_limit
        else "",
        StopReason.INTERRUPTED: "interrupted",
    }
    console.print(Text(f"Stopped: {stop_words[reason]}."), soft_wrap=True)
    _print_results(console, final, iterations, seconds, plan.algorithm.value)
    console.print(Text(f"strategy: {plan.out} ({_size(plan.out)})"), soft_wrap=True)
    if plan.plot is not None:
        console.print(Text(f"plot: {plan.plot}"), soft_wrap=True)
    if plan.plot_note is not None:
        console.print(Text(plan.plot_note, style="yellow"), soft_wrap=True)
    if plan.checkpoint is not None:
        console.print(
            Text(f"checkpoint: {plan.checkpoint} ({_size(plan.checkpoint)})"), soft_wrap=True
        )


def _number(meta: dict[str, Any], key: str) -> float:
    """A number from a file's metadata (NaN if missing or not a number)."""
    found = meta.get(key)
    return float(found) if isinstance(found, int | float) else float("nan")


def _title(round_: Round, algorithm: str) -> str:
    return f"{rules_label(round_.rules, None)}: {round_.position.label()}, {algorithm}"


def evaluate_command(file: Path, plot: Path | None, console: Console) -> int:
    """Load a strategy file (or a checkpoint: its average strategy), evaluate it exactly and
    print the results; ``plot`` draws the stored convergence history. Returns the exit code."""
    from dudo.solver.plots import plot_format, plot_history, plots_missing

    try:
        if plot is not None:
            plot_format(plot)
            missing = plots_missing()
            if missing is not None:
                raise SolverError(f"--plot {plot}: {missing} (or leave out --plot)")
            _check_writable(plot, "--plot")
            if plot.resolve() == file.resolve():
                raise SolverError("--plot would overwrite the file being evaluated")
        if file_format(file) == CHECKPOINT_FORMAT:
            solver, meta = solver_from_checkpoint(file)
            round_, strategy = solver.round, solver.average()
            kind = f"checkpoint at iteration {solver.iteration}"
        else:
            round_, strategy, meta = load_strategy(file)
            kind = "strategy"
        stored = meta.get("history")
        history = History() if stored is None else History.from_dict(stored)
        if plot is not None and not history.rows:
            raise SolverError(f"{file} holds no convergence history to plot")
    except DudoError as error:
        _error(console, error)
        return 2
    result = evaluate(round_, strategy)
    position = round_.position
    console.print(
        Text(
            f"{file}: {kind} for one round of {rules_label(round_.rules, None)}, "
            f"opener {position.dice[0]} vs {position.dice[1]} dice"
        ),
        soft_wrap=True,
    )
    found = meta.get("iterations")
    iterations = found if isinstance(found, int) else 0
    seconds = _number(meta, "seconds")
    _print_results(console, result, iterations, seconds, str(meta.get("algorithm")))
    if kind == "strategy":
        gap = max(
            abs(result.value - _number(meta, "value")),
            abs(result.exploitability - _number(meta, "exploitability")),
        )
        if not gap <= 1e-6:
            console.print(
                Text(
                    f"warning: the file says value {meta.get('value')}, exploitability "
                    f"{meta.get('exploitability')}; evaluated now they differ by {gap:.3g}",
                    style="yellow",
                ),
                soft_wrap=True,
            )
    if plot is not None:
        try:
            plot_history(history, plot, _title(round_, str(meta.get("algorithm"))))
        except OSError as error:
            _error(console, error)
            return 1
        console.print(Text(f"plot: {plot}"), soft_wrap=True)
    return 0


def solve_game_command(
    rules_name: str,
    settings: Sequence[str],
    max_dice: int,
    target: float,
    seconds: float | None,
    algorithm_name: str,
    out: Path | None,
    console: Console,
    starts: Sequence[tuple[int, int]] = (),
    whole_tree_dice: int = 3,
    iterations: int = 100,
    sweeps: int = 3,
) -> int:
    """``dudo solve-game``: solve the heads-up game bottom-up and write a strategy book
    (what the ``hard`` bot plays), with a progress bar over its rounds."""
    from dudo.solver.book import book_root, rules_id, solve_book
    from dudo.solver.game import Abstraction, Budget

    try:
        rules = build_rules(rules_name, settings)
        _check_game_options(target, seconds, whole_tree_dice, iterations, sweeps)
        time_limit = float("inf") if seconds is None else seconds
        budget = Budget(
            target=target, seconds=time_limit, algorithm=parse_algorithm(algorithm_name)
        )
        abstraction = Abstraction(
            whole_tree_dice=whole_tree_dice, iterations=iterations, seconds=time_limit
        )
        problem = heads_up_problem(rules, Position((max_dice, max_dice)))
        if problem is not None:
            raise SolverError(problem)
        folder = out if out is not None else book_root() / rules_id(rules)
        console.print(
            f"Solving heads-up {rules_name} up to {max_dice} dice each into {folder}: rounds "
            f"of at most {whole_tree_dice} dice to exploitability {target:g} on the whole "
            f"tree, larger ones under the abstraction ({iterations} iterations each)"
        )
        # Obliging rounds add positions (who is obliged, open or closed): no known total then.
        heads_up_oblige = rules.oblige and rules.oblige_min_players <= 2
        rounds = None if heads_up_oblige else max_dice * max_dice
        progress, reported, iterated = _book_progress(console, rounds, iterations)
        with progress:
            book = solve_book(
                rules,
                max_dice,
                budget,
                folder,
                report=reported,
                starts=[Position((a, b)) for a, b in starts] or None,
                abstraction=abstraction,
                progress=iterated,
                sweeps=sweeps,
            )
    except (DudoError, OSError) as error:
        _error(console, error)
        return 2
    for start in sorted(book.starts, key=lambda p: (sum(p.dice), p.dice)):
        console.print(f"{start.label()}: value for the opener {book.value(start):+.6f}")
    if book.value_changes:
        moved = ", ".join(f"{change:.4f}" for change in book.value_changes)
        console.print(
            f"values on a right spot-on's gained die: each sweep moved them by at most {moved}"
        )
    console.print(f"book: {folder} (the hard bot finds it there for these rules)")
    return 0


def _check_game_options(
    target: float, seconds: float | None, whole_tree_dice: int, iterations: int, sweeps: int
) -> None:
    """The numbers of ``dudo solve-game`` are in range."""
    if not 0 < target < 2:
        raise SolverError(f"--target {target}: give an exploitability between 0 and 2")
    if seconds is not None and seconds <= 0:
        raise SolverError(f"--time {seconds}: give a positive number of seconds")
    if whole_tree_dice < 2:
        raise SolverError(f"--whole-tree-dice {whole_tree_dice}: give at least 2 (1 v 1)")
    if iterations < 1:
        raise SolverError(f"--iterations {iterations}: give a positive number")
    if sweeps < 0:
        raise SolverError(f"--sweeps {sweeps}: give 0 or more")


def _book_progress(
    console: Console, rounds: int | None, iterations: int
) -> tuple[Progress, Callable[[str], None], Callable[[Position, int, int], None]]:
    """Bars over a book's rounds (``rounds`` of them, None: not known) and over the
    iterations of the round being solved; the callbacks that report a solved round and that
    move the iterations."""
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    rounds_task = progress.add_task("rounds", total=rounds)
    iterations_task = progress.add_task("", total=iterations, visible=False)

    def reported(line: str) -> None:
        progress.console.print(line, soft_wrap=True)
        progress.advance(rounds_task)
        progress.update(iterations_task, visible=False)

    def iterated(position: Position, done: int, planned: int) -> None:
        progress.update(
            iterations_task,
            description=f"  {position.label()} iterations",
            completed=done,
            total=planned,
            visible=True,
        )

    return progress, reported, iterated
