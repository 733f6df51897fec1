"""Heads-up positions between rounds, and the engine games that start from them.

Between two rounds everything is public: the dice counts, who opens, who has had an obliging
round and whether the next round is one. A :class:`Position` holds exactly that, so a whole
heads-up game is a graph of positions joined by rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dudo.engine import CLOSED, OPEN, Game, Phase, Rules
from dudo.engine.errors import DudoError


class SolverError(DudoError):
    """A request the solver cannot carry out (unsupported rules, bad file, bad option)."""


@dataclass(frozen=True, order=True)
class Position:
    """A heads-up position at the start of a round.

    ``dice``: dice of players 0 and 1; ``opener``: who opens; ``obliged``: players who have
    had their obliging round; ``obliging``: this round is the opener's obliging round;
    ``visibility``: under ``oblige_visibility=obliger_chooses``, the obliger's choice
    (``"open"`` or ``"closed"``), None before it is made.
    """

    dice: tuple[int, int]
    opener: int = 0
    obliged: frozenset[int] = field(default=frozenset())
    obliging: bool = False
    visibility: str | None = None

    def canonical(self) -> Position:
        """The same position with players relabelled so that the opener is player 0."""
        if self.opener == 0:
            return self
        return Position(
            (self.dice[1], self.dice[0]),
            0,
            frozenset(1 - p for p in self.obliged),
            self.obliging,
            self.visibility,
        )

    def label(self) -> str:
        """A short name: ``2v1`` (opener's dice first), with obliging-round marks."""
        c = self.canonical()
        text = f"{c.dice[0]}v{c.dice[1]}"
        if c.obliged:
            text += "-o" + "".join(str(p) for p in sorted(c.obliged))
        if c.obliging:
            text += "-obliging" + (f"-{c.visibility}" if c.visibility else "")
        return text

    def to_dict(self) -> dict[str, object]:
        return {
            "dice": list(self.dice),
            "opener": self.opener,
            "obliged": sorted(self.obliged),
            "obliging": self.obliging,
            "visibility": self.visibility,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Position:
        dice = data["dice"]
        obliged = data.get("obliged", [])
        if not (isinstance(dice, list) and len(dice) == 2 and isinstance(obliged, list)):
            raise SolverError(f"not a position: {data!r}")
        visibility = data.get("visibility")
        return cls(
            (int(dice[0]), int(dice[1])),
            int(str(data.get("opener", 0))),
            frozenset(int(p) for p in obliged),
            bool(data.get("obliging", False)),
            None if visibility is None else str(visibility),
        )


def start_game(rules: Rules, position: Position, hands: Sequence[Sequence[int]]) -> Game:
    """An engine game at ``position`` whose round is dealt ``hands`` (one per player, sized
    as ``position.dice``). The obliger's visibility choice, if any, is already pushed."""
    obliger = position.opener if position.obliging else None
    game = Game.with_hands(
        rules,
        hands,
        opener=position.opener,
        start_total=2 * rules.dice_per_player,
        obliged=position.obliged,
        obliger=obliger,
        seed=0,
    )
    if game.phase is Phase.CHOOSE_VISIBILITY:
        if position.visibility not in ("open", "closed"):
            raise SolverError(
                f"position {position.label()}: the obliger chooses open or closed; "
                "give the choice (visibility 'open' or 'closed')"
            )
        game.push(OPEN if position.visibility == "open" else CLOSED)
    return game


def position_after(game: Game) -> Position | int:
    """The position an engine game has reached between rounds, or the winner if it is over."""
    if game.winner is not None:
        return game.winner
    counts = game.counts
    return Position(
        (counts[0], counts[1]),
        game.opener,
        game.obliged,
        game.obliging,
        None,
    )


def heads_up_problem(rules: Rules, position: Position) -> str | None:
    """Why the solver cannot solve a round at ``position`` under ``rules``, or None.

    The solver handles heads-up rounds in which nothing is revealed mid-round. (Rounds
    with passes or spot-on claims are solved under the abstraction only: see
    :func:`dudo.solver.round.build_round`.)
    """
    for p, dice in enumerate(position.dice):
        if not 1 <= dice <= rules.dice_per_player:
            return (
                f"player {p} has {dice} dice; a heads-up position needs 1..{rules.dice_per_player} "
                "each (dice_per_player)"
            )
    if rules.reveal_reroll:
        return "the solver does not handle revealed dice: add --set reveal_reroll=false"
    if position.obliging and not rules.oblige:
        return "these rules have no obliging rounds"
    return None


def check_heads_up(rules: Rules, position: Position) -> None:
    problem = heads_up_problem(rules, position)
    if problem is not None:
        raise SolverError(problem)
