"""Convergence plots of a solve: exploitability (log scale) and the game value, against
iterations and against wall time, drawn from a run's :class:`~dudo.solver.store.History`.

Drawn with matplotlib's Agg canvas directly (no pyplot, no display, no global state) and
written atomically like the other solver files. matplotlib is the ``plots`` extra: it is
imported only when a plot is drawn, and :func:`plots_missing` says what to install.
"""

from __future__ import annotations

from pathlib import Path

from dudo.solver.position import SolverError
from dudo.solver.store import History, atomic_file

#: File types the plot can be written as, by suffix.
PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


#: Why a convergence plot cannot be drawn without the ``plots`` extra, and what to install.
PLOTS_MISSING = "plots need matplotlib: pip install 'dudo[plots]'"


def plots_missing() -> str | None:
    """None when plots can be drawn, else :data:`PLOTS_MISSING`."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return PLOTS_MISSING
    return None


def plot_format(path: Path) -> str:
    """The file type for ``path`` from its suffix, or a SolverError naming the choices."""
    found = PLOT_FORMATS.get(path.suffix.lower())
    if found is None:
        choices = ", ".join(PLOT_FORMATS)
        raise SolverError(f"plot {path}: unknown file type {path.suffix!r}; use {choices}")
    return found


def plot_history(history: History, path: Path, title: str) -> None:
    """Write a 2x2 figure to ``path``: exploitability (log) and value, against iterations
    (left) and seconds (right). The value panels shade the interval that holds the
    equilibrium value, between the two best responses."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    kind = plot_format(path)
    if not history.rows:
        raise SolverError("nothing to plot: the run made no evaluation")
    iterations = history.column("iteration")
    seconds = history.column("seconds")
    exploitability = history.column("exploitability")
    positive = [e if e > 0 else float("nan") for e in exploitability]
    value = history.column("value")
    lower, upper = history.column("lower"), history.column("upper")

    figure = Figure(figsize=(10, 7), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(2, 2, sharex="col")
    for column, (xs, label) in enumerate(((iterations, "iterations"), (seconds, "wall time (s)"))):
        top, bottom = axes[0][column], axes[1][column]
        top.plot(xs, positive, marker="." if len(xs) < 60 else None, color="tab:red")
        top.set_yscale("log")
        top.set_ylabel("exploitability")
        top.grid(True, which="both", alpha=0.3)
        bottom.fill_between(xs, lower, upper, color="tab:blue", alpha=0.15, label="value bounds")
        bottom.plot(xs, value, color="tab:blue", label="value of the average strategy")
        bottom.set_ylabel("value for the opener")
        bottom.set_xlabel(label)
        bottom.grid(True, alpha=0.3)
        # The bounds are wide early on: show the last 90% of the run's values and the
        # final bounds.
        tail = [*value[len(value) // 10 :], lower[-1], upper[-1]]
        low, high = min(tail), max(tail)
        margin = max(high - low, 1e-6) * 0.5
        bottom.set_ylim(low - margin, high + margin)
    axes[1][0].legend(loc="best", fontsize="small")
    figure.suptitle(title)
    with atomic_file(path) as out:
        figure.savefig(out, format=kind, dpi=100)
