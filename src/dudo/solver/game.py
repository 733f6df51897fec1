"""Whole heads-up games, solved bottom-up.

Between rounds everything is public (:class:`~dudo.solver.position.Position`), so a game's
equilibrium is an equilibrium of each round whose calls pay the value of the position they
lead to. A call, a doubted pass and a wrong spot-on cost a die, so those positions hold fewer
dice and are solved first: 1 v 1, then 2 v 1 and 1 v 2, then 2 v 2, ...

A right spot-on that wins a die leads *up*, to a position not solved yet (and one whose own
rounds lead back down): values form a cycle. The solver then uses an estimate for that
position (:attr:`GameSolver.estimates`, 0 at first) and marks what it solves as resting on
it; :meth:`GameSolver.refine` solves those positions again with the values just found as
estimates, as value iteration does, and reports how far the values moved.

Values are for the opener of the (canonical) position, in [-1, 1]: the probability of
winning the game minus that of losing it. Under ``oblige_visibility=obliger_chooses`` the
obliger picks the better of the open and the closed round.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from dudo.engine import Game, Rules
from dudo.solver.abstract_strategy import AbstractStrategy, from_profile, sample_value
from dudo.solver.abstraction import AbstractSolver, abstract_size, build_abstract_round
from dudo.solver.cfr import Algorithm, RoundSolver, Strategy
from dudo.solver.evaluate import Evaluation, evaluate
from dudo.solver.position import Position, SolverError, check_heads_up
from dudo.solver.round import MAX_NODES, Moves, Outcome, Round, build_round, hands_of


@dataclass
class SolvedRound:
    """One round of the game, solved: its tree, average strategy and evaluation."""

    position: Position
    round: Round
    strategy: Strategy
    evaluation: Evaluation
    iterations: int
    seconds: float


@dataclass
class SolvedAbstractRound:
    """One round of the game solved under an imperfect-recall abstraction: its strategy
    (whose value is estimated on sampled deals; no exact exploitability without the tree)."""

    position: Position
    strategy: AbstractStrategy
    iterations: int
    seconds: float


@dataclass(frozen=True)
class Abstraction:
    """How a game solver handles rounds too big for the whole tree (more than
    ``whole_tree_dice`` dice in all): players remember the last ``recall`` bids
    (:mod:`dudo.solver.abstraction`), the most that keeps the graph's edges times the hands
    of a player within ``budget`` (between ``least_recall`` and ``most_recall``; ``window``,
    if given, keeps only the lowest raises); the abstract round gets ``iterations`` of
    discounted CFR (or ``seconds``, whichever comes first), and its game value is estimated
    on ``samples`` deals.

    The budget bounds the time and memory of each round and the size of its file: about
    one byte per edge and hand on disk before compression, and a second per 5 million
    with every iteration."""

    whole_tree_dice: int = 3
    budget: int = 12_000_000
    least_recall: int = 2
    most_recall: int = 6
    window: int | None = None
    iterations: int = 100
    seconds: float = float("inf")
    samples: int = 200_000

    def shape(self, rules: Rules, position: Position) -> tuple[int, int | None]:
        """(recall, window) for the round at ``position``."""
        hands = max(len(hands_of(rules, n)[0]) for n in position.dice)
        recall = self.least_recall
        for k in range(self.least_recall + 1, self.most_recall + 1):
            _, edges = abstract_size(rules, position, k, self.window)
            if edges * hands > self.budget:
                break
            recall = k
        return recall, self.window

    def covers(self, rules: Rules, position: Position) -> bool:
        """Is the round at ``position`` solved under the abstraction? (Larger rounds, and
        those with passes or spot-on claims, which only the abstraction handles.)"""
        if sum(position.dice) > self.whole_tree_dice:
            return True
        moves = Moves(rules, position.canonical())
        return moves.count > moves.nbids

    def to_dict(self) -> dict[str, object]:
        return {
            "whole_tree_dice": self.whole_tree_dice,
            "budget": self.budget,
            "least_recall": self.least_recall,
            "most_recall": self.most_recall,
            "window": self.window,
            "iterations": self.iterations,
            "seconds": self.seconds if self.seconds != float("inf") else None,
            "samples": self.samples,
        }


@dataclass(frozen=True)
class Budget:
    """When to stop solving one round: exploitability at most ``target``, or ``iterations``,
    or ``seconds``, whichever comes first; evaluated every ``every`` iterations."""

    target: float = 1e-4
    iterations: int = 100_000
    seconds: float = float("inf")
    every: int = 50
    algorithm: Algorithm = Algorithm.DCFR


BLUFF: dict[str, object] = {
    "raise_mode": "any_face",
    "aces_to": "floor_half_plus_one",
    "aces_from": "double",
    "open_on_aces": "always",
    "loss": "difference",
    "next_opener": "winner",
    "spot_on": False,
    "pass_hands": "none",
    "oblige": False,
}
"""The options that make the ``dudo`` preset the "Bluff" game of Lanctot's thesis, whose
heads-up game values are published (about +0.6189 for 2 dice against 1, -0.5883 for 1
against 2 and +0.0127 for 2 against 2, for the opener)."""

Reporter = Callable[[str], None]
Progress = Callable[[Position, int, int], None]
"""Told the position, the iterations done and the iterations planned of an abstract round."""
Watcher = Callable[[Position, RoundSolver, Evaluation, float], None]
"""Called after every exact evaluation: the position, the solver, its evaluation and the
seconds since the round began to be built."""


@dataclass
class GameSolver:
    """Values (and solved rounds) of heads-up positions under ``rules``."""

    rules: Rules
    budget: Budget = field(default_factory=Budget)
    keep_rounds: bool = True
    report: Reporter | None = None
    watch: Watcher | None = None
    progress: Progress | None = None
    max_histories: int = MAX_NODES
    abstraction: Abstraction | None = None
    values: dict[Position, float] = field(default_factory=dict)
    rounds: dict[Position, SolvedRound] = field(default_factory=dict)
    abstract_rounds: dict[Position, SolvedAbstractRound] = field(default_factory=dict)
    estimates: dict[Position, float] = field(default_factory=dict)
    estimated: set[Position] = field(default_factory=set)  # solved on some estimate
    rough: int | None = None  # iterations of abstract rounds resting on estimates (refine)
    _solving: list[Position] = field(default_factory=list)

    def value(self, position: Position) -> float:
        """The game value of ``position`` for its opener (solving what it needs first)."""
        key = _key(self.rules, position.canonical())
        found = self.values.get(key)
        if found is not None:
            return found
        if self._solving and (key in self._solving or sum(key.dice) > sum(self._solving[-1].dice)):
            # A spot-on won a die: the value comes round again (module docstring).
            self.estimated.update(self._solving)
            return self.estimates.get(key, 0.0)
        self._solving.append(key)
        try:
            found = self._value(key)
        finally:
            self._solving.pop()
        self.values[key] = found
        return found

    def refine(self, sweeps: int, after: Callable[[], None] | None = None) -> list[float]:
        """Solve again, ``sweeps`` times, every position from the fewest dice at which some
        value was estimated, taking the last values as estimates (``after`` is called when
        each is solved). Abstract rounds resting on estimates get only ``rough``
        iterations (if set) until the last sweep, which gives them all. Returns the
        largest change of a value in each sweep (none if nothing was estimated)."""
        changes: list[float] = []
        for sweep in range(sweeps):
            if not self.estimated:
                break
            if sweep == sweeps - 1:
                self.rough = None
            least = min(sum(p.dice) for p in self.estimated)
            again = sorted(
                (p for p in self.values if sum(p.dice) >= least),
                key=lambda p: (sum(p.dice), p.dice, p.label()),
            )
            before = {p: self.values[p] for p in again}
            self.estimates.update(before)
            self.estimated = set()
            for p in again:
                del self.values[p]
            for p in again:
                self.value(p)
                if after is not None:
                    after()
            changes.append(max(abs(self.values[p] - before[p]) for p in again))
        return changes

    def _value(self, key: Position) -> float:
        if key.obliging and key.visibility is None and _obliger_chooses(self.rules):
            # The choice comes before the deal, in public: take the better round.
            found = max(
                self.value(_with_visibility(key, "open")),
                self.value(_with_visibility(key, "closed")),
            )
        elif self.abstraction is not None and self.abstraction.covers(self.rules, key):
            found = self._solve_abstract(key, self.abstraction).strategy.value
        else:
            found = self._solve(key).evaluation.value
        return found

    def continuation(self, outcome: Outcome, game: Game) -> float:
        """Player 0's payoff for what a call leads to (player 0 opens the round)."""
        if isinstance(outcome, int):
            return 1.0 if outcome == 0 else -1.0
        value = self.value(outcome)
        return value if outcome.opener == 0 else -value

    def _solve(self, position: Position) -> SolvedRound:
        check_heads_up(self.rules, position)
        started = time.perf_counter()
        round_ = build_round(self.rules, position, self.continuation, max_nodes=self.max_histories)
        solver = RoundSolver(round_, self.budget.algorithm)
        watch = self.watch
        result = solve_to_budget(
            solver,
            self.budget,
            started,
            None if watch is None else lambda s, e, t: watch(position, s, e, t),
        )
        solved = SolvedRound(
            position,
            round_,
            result[0],
            result[1],
            solver.iteration,
            time.perf_counter() - started,
        )
        if self.report is not None:
            self.report(
                f"{position.label()}: value {solved.evaluation.value:+.6f}, exploitability "
                f"{solved.evaluation.exploitability:.2e} after {solved.iterations} iterations "
                f"({solved.seconds:.1f} s, {round_.nodes} histories)"
            )
        if self.keep_rounds:
            self.rounds[position] = solved
        return solved

    def _solve_abstract(self, position: Position, abstraction: Abstraction) -> SolvedAbstractRound:
        check_heads_up(self.rules, position)
        started = time.perf_counter()
        recall, window = abstraction.shape(self.rules, position)
        graph = build_abstract_round(self.rules, position, recall, self.continuation, window)
        solver = AbstractSolver(graph, np.float32)  # half the memory; plays as float64
        planned = abstraction.iterations
        if self.rough is not None and position in self.estimated:
            planned = min(planned, self.rough)  # its values will move again: see refine
        while solver.iteration < planned and time.perf_counter() - started < abstraction.seconds:
            solver.step()
            if self.progress is not None:
                self.progress(position, solver.iteration, planned)
        strategy = from_profile(graph, solver.average())
        strategy.value, strategy.value_error = sample_value(strategy, graph, abstraction.samples)
        strategy.iterations = solver.iteration
        strategy.seconds = strategy_seconds = time.perf_counter() - started
        solved = SolvedAbstractRound(position, strategy, solver.iteration, strategy_seconds)
        if self.report is not None:
            self.report(
                f"{position.label()}: value {strategy.value:+.4f} ± {strategy.value_error:.4f} "
                f"(abstraction: last {recall} bids"
                + ("" if window is None else f", raises to the {window} lowest bids")
                + f"; {graph.nodes} nodes, {graph.edges} edges) after {solver.iteration} "
                f"iterations ({strategy_seconds:.1f} s)"
            )
        if self.keep_rounds:
            self.abstract_rounds[position] = solved
        return solved


def solve_to_budget(
    solver: RoundSolver,
    budget: Budget,
    started: float | None = None,
    watch: Callable[[RoundSolver, Evaluation, float], None] | None = None,
) -> tuple[Strategy, Evaluation]:
    """Run ``solver`` until the budget says stop; the average strategy and its evaluation."""
    started = time.perf_counter() if started is None else started
    while True:
        for _ in range(budget.every):
            solver.step()
        average = solver.average()
        result = evaluate(solver.round, average, solver.scratch())
        if watch is not None:
            watch(solver, result, time.perf_counter() - started)
        if (
            result.exploitability <= budget.target
            or solver.iteration >= budget.iterations
            or time.perf_counter() - started >= budget.seconds
        ):
            return average, result


def starting_positions(rules: Rules, most: int) -> list[Position]:
    """Every start of a heads-up game with at most ``most`` dice each (player 0 opens),
    fewest dice first."""
    if not 1 <= most <= rules.dice_per_player:
        raise SolverError(f"dice: {most} is outside 1..{rules.dice_per_player} (dice_per_player)")
    found = [Position((a, b)) for a in range(1, most + 1) for b in range(1, most + 1)]
    return sorted(found, key=lambda p: (sum(p.dice), p.dice))


def _key(rules: Rules, position: Position) -> Position:
    """The position with what cannot matter under ``rules`` forgotten (obliged marks without
    obliging rounds), so equal positions share one value."""
    if not rules.oblige and position.obliged:
        return Position(position.dice, position.opener, frozenset(), False, None)
    return position


def _obliger_chooses(rules: Rules) -> bool:
    return str(rules.oblige_visibility) == "obliger_chooses"


def _with_visibility(position: Position, visibility: str) -> Position:
    return Position(position.dice, position.opener, position.obliged, position.obliging, visibility)
