"""What ``dudo solve`` is asked to do (:class:`SolveOptions`): every option once, with its
type, default and help, from which the command line is built; :func:`dudo.terminal.solve.
plan_solve` checks them. Only the standard library here: the command line reads this module
at every start, before any solver module (or numpy) is loaded.

A field's ``metadata`` says how the command line shows it: ``help``, and ``flags`` (the
option's names, when not the field's) or ``metavar`` where the default ones would not do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

#: Seconds between checkpoints by default.
DEFAULT_CHECKPOINT_EVERY = 60.0


@dataclass(frozen=True)
class SolveOptions:
    """A ``dudo solve`` request as given: nothing checked yet."""

    rules: str = field(
        default="liars-dice", metadata={"flags": ("--rules",), "help": "Preset: see `dudo rules`."}
    )
    settings: tuple[str, ...] = field(
        default=(),
        metadata={
            "flags": ("--set",),
            "help": "House rule OPTION=VALUE (repeatable), e.g. --set aces_rank=high.",
        },
    )
    dice: tuple[int, int] = field(
        default=(1, 1),
        metadata={"metavar": "A B", "help": "Dice of the opener (A) and of the other player (B)."},
    )
    algorithm: str = field(
        default="dcfr",
        metadata={"help": "dcfr (discounted CFR, the default), dcfr+, pcfr+, linear or cfr+."},
    )
    iterations: int | None = field(
        default=None,
        metadata={
            "help": "Stop at this iteration (counted from the start, also when resuming). "
            "Default 1000 when no --target or --time is given."
        },
    )
    target: float | None = field(
        default=None, metadata={"help": "Stop once the exploitability is at most this."}
    )
    time_limit: float | None = field(
        default=None,
        metadata={"flags": ("--time",), "help": "Stop after this many seconds of this run."},
    )
    eval_every: int | None = field(
        default=None,
        metadata={"help": "Iterations between exact evaluations (default: from the tree size)."},
    )
    out: Path | None = field(
        default=None,
        metadata={"help": "Strategy file to write (default: named after the rules and dice)."},
    )
    plot: Path | None = field(
        default=None,
        metadata={"help": "Convergence plot, .png/.svg/.pdf (default: --out with .png)."},
    )
    no_plot: bool = field(
        default=False, metadata={"flags": ("--no-plot",), "help": "Write no plot."}
    )
    checkpoint: Path | None = field(
        default=None, metadata={"help": "Checkpoint file, written periodically and at the end."}
    )
    checkpoint_every: float = field(
        default=DEFAULT_CHECKPOINT_EVERY, metadata={"help": "Seconds between checkpoints."}
    )
    resume: bool = field(
        default=False,
        metadata={"flags": ("--resume",), "help": "Continue exactly from --checkpoint."},
    )
    game_book: Path | None = field(
        default=None,
        metadata={
            "help": "Pay each call the game value of the position it leads to, from this book "
            "(see `dudo solve-game`), instead of +1/-1: a round of a whole game."
        },
    )
