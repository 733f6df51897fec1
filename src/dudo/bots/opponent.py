"""What an opponent's revealed answers say about how they play, heads-up: the book's
equilibrium, or a player who calls by a threshold on their own odds.

Every round that ends in a reveal shows the opponent's dice, so each of their answers to a
bid of this round (a call, or a raise instead) can be judged as they saw it. Two accounts of
those answers are compared (:class:`Evidence`):

- **the book**: the chance the book's strategy gives that answer at that point of the round
  with those dice (:func:`book_call_chance`);
- **a threshold caller**: the bidding model of the search's rollouts
  (:class:`~dudo.bots.search.RolloutModel`), which calls a bid with chance
  ``sigmoid(sharpness * (1 - P - B - margin))`` from the player's own dice
  (:func:`~dudo.bots.search.answer_margin`), its margin unknown: the likelihood is the mean
  over the margins of :data:`~dudo.bots.search.MARGIN_GRID`, each equally likely at first.
  Players who call by their odds, however readily or reluctantly (``easy``, ``caller``,
  ``bluffer``, most people), fit it; the book, which mixes its calls, fits itself better.

Only heads-up rounds without passes, spot-on claims or set-aside dice are judged (the rounds
the book's trees hold), each against the book's round for its position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dudo.bots.beliefs import Floats
from dudo.bots.search import MARGIN_GRID, RolloutModel, answer_margin
from dudo.engine.actions import Bid
from dudo.engine.bids import bid_table
from dudo.engine.events import (
    BidMade,
    Called,
    ObligingRound,
    Passed,
    Revealed,
    RoundStarted,
    SpotOnClaimed,
)
from dudo.engine.view import PlayerView
from dudo.solver.book import Book
from dudo.solver.book_key import start_fits
from dudo.solver.position import Position

#: The least chance either account gives an answer: one answer moves the evidence at most
#: log(1 / FLOOR) (an opponent doing what the book never does is not proof of everything).
FLOOR = 0.02


@dataclass(frozen=True, slots=True)
class Evidence:
    """The opponent's revealed answers judged: how many, and the log-likelihood of them under
    the book and under a threshold caller."""

    answers: int = 0
    log_book: float = 0.0
    log_threshold: float = 0.0

    @property
    def log_ratio(self) -> float:
        """log(threshold caller / book): positive when the answers look like a threshold."""
        return self.log_threshold - self.log_book


def book_call_chance(
    book: Book, position: Position, history: list[int], player: int, signal: object
) -> float | None:
    """The chance the book's strategy calls after ``history`` (a round's moves, numbered as
    its tree numbers them) for ``player`` (0: the opener) seeing ``signal``; None where the
    book has no such point."""
    if book.kind(position) == "abstract":
        strategy = book.abstract(position)
        hand = strategy.hand(player, signal)
        options = None if hand is None else strategy.options(history, hand)
        if not options:
            return None
        return sum(p for move, p in options if move is None)
    round_, tree = book.policy(position)
    node = round_.node_of(tuple(history))
    if node is None or node == 0 or int(round_.actor[node]) != player:
        return None
    try:
        hand = round_.signals[player].index(signal)
    except ValueError:
        return None
    raises = sum(float(tree.sigma_in[c, hand]) for c in round_.children(node))
    call = float(tree.sigma_call[node, hand])
    total = raises + call
    return call / total if total > 0 else None


def _bids(book: Book, position: Position) -> tuple[Bid, ...]:
    """The book round's bids, in the order its moves number them."""
    if book.kind(position) == "abstract":
        return tuple(book.abstract(position).bids)
    return tuple(book.policy(position)[0].bids)


@dataclass
class _Round:
    """A heads-up round being followed: the book's position, the seats as its players 0 and
    1, the round's bids (and each one's number), the moves so far, and the opponent's answers
    (moves before it, standing bid, called)."""

    position: Position
    seats: tuple[int, int]
    bids: tuple[Bid, ...]
    index: dict[Bid, int]
    history: list[int]
    answers: list[tuple[list[int], Bid, bool]]
    dice_in_play: int


class _Judge:
    """Walks a view's events, judging the opponent's answers at every reveal."""

    def __init__(self, view: PlayerView, book: Book, opponent: int, model: RolloutModel) -> None:
        self.view, self.book, self.opponent, self.model = view, book, opponent, model
        self.obliged: set[int] = set()
        self.current: _Round | None = None
        self.book_logs: list[float] = []
        self.threshold_rows: list[Floats] = []

    def start(self, event: RoundStarted) -> None:
        self.current = None
        live = [p for p, n in enumerate(event.dice_counts) if n > 0]
        if len(live) != 2 or event.obliging or self.opponent not in live:
            return
        view = self.view
        if not start_fits(view.rules, view.start_total, sum(event.dice_counts)):
            return
        opener = event.opener
        seats = (opener, live[0] if live[1] == opener else live[1])
        counts = (event.dice_counts[seats[0]], event.dice_counts[seats[1]])
        obliged = frozenset(i for i, seat in enumerate(seats) if seat in self.obliged)
        position = Position(counts, 0, obliged, False, None)
        if not self.book.solved(position):
            return
        bids = _bids(self.book, position)
        index = {bid: i for i, bid in enumerate(bids)}
        self.current = _Round(position, seats, bids, index, [], [], sum(event.dice_counts))

    def bid(self, event: BidMade) -> None:
        now = self.current
        if now is None:
            return
        if event.revealed or event.rerolled or event.bid not in now.index:
            self.current = None
            return
        if event.player == self.opponent and now.history:
            now.answers.append((list(now.history), now.bids[now.history[-1]], False))
        now.history.append(now.index[event.bid])

    def call(self, event: Called) -> None:
        now = self.current
        if now is not None and event.player == self.opponent and not event.out_of_turn:
            now.answers.append((list(now.history), event.bid, True))

    def reveal(self, event: Revealed) -> None:
        now, self.current = self.current, None
        if now is None or not now.answers:
            return
        hand = event.hands[self.opponent]
        player = now.seats.index(self.opponent)
        seen = (hand, None) if player == 0 else (None, hand)
        signal = (hand, seen)
        table = bid_table(self.view.rules, now.dice_in_play, False)
        grid = np.array(MARGIN_GRID)
        faces = self.view.rules.faces
        for history, bid, called in now.answers:
            chance = book_call_chance(self.book, now.position, history, player, signal)
            x = answer_margin(event, table, self.opponent, bid, faces, self.model)
            if chance is None or x is None:
                continue
            said = chance if called else 1.0 - chance
            self.book_logs.append(math.log(max(said, FLOOR)))
            calls = 1.0 / (1.0 + np.exp(-self.model.sharpness * (x - grid)))
            row = calls if called else 1.0 - calls
            self.threshold_rows.append(np.log(np.clip(row, FLOOR, 1.0)))

    def evidence(self) -> Evidence:
        if not self.book_logs:
            return Evidence()
        per_margin = np.sum(self.threshold_rows, axis=0)  # each margin's log-likelihood
        top = float(per_margin.max())
        mean = top + math.log(float(np.exp(per_margin - top).mean()))
        return Evidence(len(self.book_logs), float(sum(self.book_logs)), mean)


def answer_evidence(
    view: PlayerView, book: Book, opponent: int, model: RolloutModel | None = None
) -> Evidence:
    """The opponent's answers in this game's revealed heads-up rounds, judged by the book and
    by a threshold caller (the module docstring)."""
    judge = _Judge(view, book, opponent, model if model is not None else RolloutModel())
    for event in view.events:
        if isinstance(event, RoundStarted):
            judge.start(event)
        elif isinstance(event, ObligingRound):
            judge.obliged.add(event.player)
        elif isinstance(event, BidMade):
            judge.bid(event)
        elif isinstance(event, Called):
            judge.call(event)
        elif isinstance(event, Revealed):
            judge.reveal(event)
        elif isinstance(event, Passed | SpotOnClaimed):
            judge.current = None  # a round the book's trees do not hold
    return judge.evidence()
