"""The ``dudo arena`` command: the run with a progress bar, then the results as a table."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from dudo.arena.chart import chart_title
from dudo.arena.pairs import PairedResult
from dudo.arena.run import ArenaResult, run_plan
from dudo.arena.setup import ArenaConfig, plan
from dudo.engine.errors import DudoError


def arena_command(config: ArenaConfig, console: Console) -> int:
    """Run an arena and print its results. Returns the exit code: 0 done, 1 a game failed,
    2 bad input (nothing written), 130 interrupted (what was played is kept)."""
    try:
        checked = plan(config)
        processes = f"{checked.workers} worker" + ("s" if checked.workers != 1 else "")
        where = f"Ray cluster {config.ray_address}" if config.ray_address else processes
        console.print(
            Text(f"{checked.games} games, seed {checked.seed}, on {where}", style="bold"),
            soft_wrap=True,
        )
        bar = Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
        )
        task = bar.add_task("games", total=checked.games)

        shown: list[bool] = []

        def advance(done: int, total: int) -> None:
            if not shown:  # shown once set up, so that an error before stands alone
                bar.start()
                shown.append(True)
            bar.update(task, completed=done)

        try:
            result = run_plan(checked, progress=advance)
        finally:
            if shown:
                bar.stop()
    except DudoError as exc:
        console.print(Text(f"error: {exc}", style="red"), soft_wrap=True)
        return 2
    show_result(result, console)
    if result.error is not None:
        console.print(Text(f"error: {result.error}", style="red"), soft_wrap=True)
        return 1
    return 130 if result.interrupted else 0


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{1000 * value:.2f}"


def show_result(result: ArenaResult, console: Console) -> None:
    """Print the per-bot table and where the files are."""
    played, asked = len(result.outcomes), result.plan.games
    if result.interrupted:
        console.print(
            Text(f"Interrupted: {played} of {asked} games played.", style="yellow"),
            soft_wrap=True,
        )
    # No box and one space of padding: the table fits in 80 columns.
    table = Table(
        title=chart_title(result),
        title_justify="left",
        box=None,
        padding=(0, 1),
        pad_edge=False,
        header_style="bold underline",
    )
    longest = max((len(b.label) for b in result.bots), default=3)
    table.add_column("bot", overflow="fold", min_width=min(longest, 20))
    for heading in ("seats", "wins", "win rate [95% CI]", "equal", "mu±sigma", "ordinal"):
        table.add_column(heading, justify="right", no_wrap=True)
    table.add_column("ms p50/p99", justify="right", no_wrap=True)
    for b in result.bots:
        table.add_row(
            b.label,
            str(b.copies),
            f"{b.wins}/{b.finished}",
            f"{_percent(b.win_rate)} [{_percent(b.ci_low)[:-1]}, {_percent(b.ci_high)[:-1]}]",
            _percent(b.equal_share),
            f"{b.rating.mu:.1f}±{b.rating.sigma:.1f}",
            f"{b.rating.ordinal:.1f}",
            f"{_ms(b.latency.p50)}/{_ms(b.latency.p99)}",
        )
    console.print(table)
    if result.paired is not None:
        show_paired(result.paired, console)
    unfinished = result.unfinished
    if unfinished:
        shown = ", ".join(str(n) for n in unfinished[:10]) + (
            ", ..." if len(unfinished) > 10 else ""
        )
        console.print(
            Text(
                f"Unfinished (stopped at {result.plan.config.max_rounds} rounds, not counted): "
                f"{len(unfinished)} games ({shown})",
                style="yellow",
            ),
            soft_wrap=True,
        )
    rate = played / result.seconds if result.seconds > 0 else 0.0
    console.print(Text(f"{played} games in {result.seconds:.1f} s ({rate:.1f} games/s)"))
    if result.plan.out is not None:
        console.print(Text(f"Records: {result.plan.out / 'games'}"), soft_wrap=True)
    if result.summary_path is not None:
        console.print(Text(f"Summary: {result.summary_path}"), soft_wrap=True)
    if result.chart_path is not None:
        console.print(Text(f"Chart: {result.chart_path}"), soft_wrap=True)
    if result.chart_note is not None:
        console.print(Text(result.chart_note, style="yellow"), soft_wrap=True)


def _points(value: float | None) -> str:
    """A difference of win rates, in percentage points with its sign."""
    return "-" if value is None else f"{100 * value:+.1f}"


def show_paired(paired: PairedResult, console: Console) -> None:
    """Print the paired comparison of a common-deals run."""
    scores = paired.scores
    how = "same seat, same opponents" if paired.baseline else "seats swapped"
    console.print(
        Text(
            f"Common deals ({how}): {paired.counted} of {paired.pairs} pairs counted"
            f" (both games finished); pair scores +1/0/-1:"
            f" {scores[1]}/{scores[0]}/{scores[-1]}",
            style="bold",
        ),
        soft_wrap=True,
    )
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold underline")
    table.add_column("bot", overflow="fold")
    for heading in ("wins", "win rate [95% CI]"):
        table.add_column(heading, justify="right", no_wrap=True)
    for name, wins in ((paired.first, paired.first_wins), (paired.second, paired.second_wins)):
        rate, low, high = paired.rate(wins)
        table.add_row(
            name,
            f"{wins}/{paired.games_each}",
            f"{_percent(rate)} [{_percent(low)[:-1]}, {_percent(high)[:-1]}]",
        )
    console.print(table)
    diff = paired.difference
    interval = "-" if diff.ci_low is None else f"[{_points(diff.ci_low)}, {_points(diff.ci_high)}]"
    console.print(
        Text(
            f"Paired difference {paired.first} - {paired.second}: {_points(diff.mean)}"
            f" points of win rate, 95% CI {interval} (t over {diff.pairs} pairs)"
        ),
        soft_wrap=True,
    )
