"""The arena's chart: win rates with 95% intervals against equal strength, ratings and
decision latency, one panel each, drawn on matplotlib's Agg canvas (no display needed).

matplotlib is the ``plots`` extra, not a dependency of the server's install: it is imported
only here, when a chart is drawn, and without it the arena skips the chart with a notice."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dudo.arena.run import ArenaResult


#: What the arena prints in place of the chart when matplotlib is not installed.
CHART_SKIPPED = "No chart: it needs matplotlib, pip install 'dudo[plots]' (or pass --no-chart)."


def chart_missing() -> str | None:
    """None when the chart can be drawn, else the notice that says what to install."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return CHART_SKIPPED
    return None


def chart_title(result: ArenaResult) -> str:
    p = result.plan
    counts = {bot: p.lineup.count(bot) for bot in p.bots}
    table = " vs ".join(bot if n == 1 else f"{n}× {bot}" for bot, n in counts.items())
    played = len(result.outcomes)
    games = f"{played} games" if played == p.games else f"{played} of {p.games} games"
    dice = p.rules.dice_per_player
    return f"{table}: {p.preset}, {dice} dice each, {games}"


def draw_chart(result: ArenaResult, path: Path) -> None:
    """Write the chart of ``result`` to ``path`` as a PNG (atomically)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bots = result.bots
    names = [b.label if b.copies == 1 else f"{b.label} ×{b.copies}" for b in bots]
    xs = list(range(len(bots)))
    figure = Figure(figsize=(4 + 2.2 * len(bots), 4.8), layout="constrained")
    FigureCanvasAgg(figure)
    wins, ratings, latency = figure.subplots(1, 3)

    rates = [b.win_rate if b.win_rate is not None else 0.0 for b in bots]
    below = [max(0.0, r - b.ci_low) for r, b in zip(rates, bots, strict=True)]
    above = [max(0.0, b.ci_high - r) for r, b in zip(rates, bots, strict=True)]
    wins.bar(xs, rates, color="tab:blue", alpha=0.8)
    wins.errorbar(xs, rates, yerr=[below, above], fmt="none", ecolor="black", capsize=6)
    for x, b in zip(xs, bots, strict=True):
        wins.hlines(b.equal_share, x - 0.45, x + 0.45, colors="tab:red", linestyles="dashed")
    wins.plot([], [], color="tab:red", linestyle="dashed", label="equal strength")
    wins.set_ylim(0, 1.15)  # headroom above 100% for the legend
    wins.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    wins.set_ylabel("win rate (95% interval)")
    wins.legend(loc="upper center", fontsize="small")

    mus = [b.rating.mu for b in bots]
    sigmas = [b.rating.sigma for b in bots]
    ratings.errorbar(
        xs, mus, yerr=sigmas, fmt="o", color="tab:green", capsize=6, label="mu ± sigma"
    )
    ratings.plot(xs, [b.rating.ordinal for b in bots], "v", color="tab:gray", label="ordinal")
    ratings.set_ylabel("openskill rating")
    ratings.legend(loc="best", fontsize="small")

    width = 0.38
    for offset, key, color in ((-width / 2, "p50", "tab:purple"), (width / 2, "p99", "tab:orange")):
        values = [getattr(b.latency, key) for b in bots]
        ms = [v * 1000 if v is not None else float("nan") for v in values]
        latency.bar([x + offset for x in xs], ms, width, color=color, label=key)
    latency.set_yscale("log")
    latency.set_ylabel("decision time (ms)")
    latency.legend(loc="best", fontsize="small")

    for axes in (wins, ratings, latency):
        axes.set_xticks(xs, names)
        axes.set_xlim(-0.6, len(bots) - 0.4)
        axes.grid(True, axis="y", alpha=0.3)
    figure.suptitle(chart_title(result))

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            figure.savefig(out, format="png", dpi=100)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
