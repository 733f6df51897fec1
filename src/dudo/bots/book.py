"""The book player: plays the equilibrium strategies of a solver book where it has one, and
its fallback everywhere else (the probability player by default; the ``hard`` level puts the
search behind it: :data:`dudo.bots.LEVELS`).

A book (:mod:`dudo.solver.book`) holds heads-up rounds solved as parts of a whole game. When
exactly two players have dice, the rules have a book and the book holds the round now in
play, the bot maps its view to that round: the position (dice, opener, obliged marks,
obliging round and its visibility, relabelled so that the opener is the solver's player 0),
its private signal (what the engine's view shows it, in that frame), and the bids of the
round so far (a node of the round's tree). It then draws its action from the book's
strategy there. Under ``oblige_visibility=obliger_chooses`` it picks the obliging round's
visibility with the better game value in the book.

The book is the one for the rules in play, or one whose positions stand for theirs (the
``liars-dice`` book of 5 dice each serves a game of 2, 3 or 4: :mod:`dudo.solver.book_key`).
Where spot-on depends on the start total, a game begun with more players uses it only at
positions where that makes no difference.

Anything else (more players, a position or rules the book does not cover, a view that does
not match the book's tree) is left to the fallback, so the bot always plays a legal action.
"""

from __future__ import annotations

import logging
import math
import random

from dudo.bots.opponent import Evidence, answer_evidence
from dudo.bots.probability import ProbabilityBot
from dudo.engine.actions import CLOSED, OPEN, Action, Bid, Call, DoubtPass, ObligeChoice, Pass
from dudo.engine.errors import DudoError
from dudo.engine.events import Revealed
from dudo.engine.rules import ObligeVisibility
from dudo.engine.view import PlayerView
from dudo.solver.book import Book, find_book
from dudo.solver.book_key import serves, start_fits
from dudo.solver.position import Position
from dudo.solver.round import MoveKind, move_action

#: The prior log-odds that an opponent calls by a threshold rather than as the book does:
#: before any of their answers is revealed, ``hard`` gives the fallback 1/(1 + e) of its
#: ``exploit`` weight.
EXPLOIT_PRIOR_LOG_ODDS = -1.0

_log = logging.getLogger(__name__)
_warned: set[str] = set()


def _warn_once(error: Exception, fallback: object) -> None:
    """Log why the book could not be used: in full the first time, briefly after that."""
    text = f"{type(error).__name__}: {error}"
    message = "book player: falling back to %s (%s)"
    if text in _warned:
        _log.debug(message, type(fallback).__name__, text)
        return
    if len(_warned) > 100:
        _warned.clear()
    _warned.add(text)
    _log.warning(message, type(fallback).__name__, text, exc_info=error)


class BookBot:
    """Plays a solver book's strategy in the heads-up rounds it covers, else as ``fallback``
    (default: a :class:`~dudo.bots.probability.ProbabilityBot` sharing this bot's ``rng``).

    ``book`` fixes the book to use (default: :func:`~dudo.solver.book.find_book` for the
    game's rules, looked up on every move and cached there); abstract rounds that remember
    fewer than ``min_recall`` bids are left to the fallback (by default the book's
    :attr:`~dudo.solver.book.Book.min_recall`).
    ``last_source`` says where the last choice came from: ``"book"`` or ``"fallback"``.
    """

    name: str = "book"

    def __init__(
        self,
        rng: random.Random,
        *,
        book: Book | None = None,
        fallback: ProbabilityBot | None = None,
        min_recall: int | None = None,
        exploit: float = 0.0,
    ) -> None:
        if not 0.0 <= exploit <= 1.0:
            raise DudoError(f"exploit must be between 0 and 1, not {exploit}")
        self.rng = rng
        self.book = book
        self.min_recall = min_recall
        self.fallback = fallback if fallback is not None else ProbabilityBot(rng)
        self.exploit = exploit
        self._evidence: tuple[object, Evidence] | None = None
        self.last_source = "fallback"

    def choose(self, view: PlayerView) -> Action:
        if not view.legal_actions:
            raise DudoError(f"player {view.viewer} has no legal action now")
        options = self._book_options(view)
        if options is not None:
            weight = self.exploit_weight(view)
            if weight == 0.0 or self.rng.random() >= weight:
                self.last_source = "book"
                return _draw(self.rng, options)
        self.last_source = "fallback"
        return self.fallback.choose(view)

    def policy(self, view: PlayerView) -> dict[Action, float]:
        """The probability of each action ``choose`` plays for ``view``: the book's
        strategy where it applies (mixed with the fallback's as far as
        :meth:`exploit_weight` says), else the fallback's policy."""
        if not view.legal_actions:
            raise DudoError(f"player {view.viewer} has no legal action now")
        options = self._book_options(view)
        if options is None:
            return self.fallback.policy(view)
        weight = self.exploit_weight(view)
        total = sum(p for _, p in options)
        out: dict[Action, float] = {}
        for action, p in options:
            if p > 0:
                out[action] = out.get(action, 0.0) + (1.0 - weight) * p / total
        if weight > 0.0:
            for action, p in self.fallback.policy(view).items():
                out[action] = out.get(action, 0.0) + weight * p
        return {a: p for a, p in out.items() if p > 0}

    def exploit_weight(self, view: PlayerView) -> float:
        """The chance of playing the fallback instead of the book at a point the book covers:
        ``exploit`` times the posterior that the opponent calls by a threshold on their own
        odds rather than as the book does (:mod:`dudo.bots.opponent`, from their answers in
        this game's revealed heads-up rounds; :data:`EXPLOIT_PRIOR_LOG_ODDS` before any)."""
        if self.exploit == 0.0 or view.viewer is None:
            return 0.0
        book = self._book_for(view)
        live = [p for p, count in enumerate(view.dice_counts) if count > 0 and p != view.viewer]
        if book is None or len(live) != 1:
            return 0.0
        # The evidence changes only at a reveal: judged once per reveal, not per decision.
        reveals = [e for e in view.events if type(e) is Revealed]
        key = (view.viewer, live[0], len(reveals), reveals[-1] if reveals else None)
        if self._evidence is None or self._evidence[0] != key:
            self._evidence = (key, answer_evidence(view, book, live[0]))
        return exploit_share(self._evidence[1], self.exploit)

    def _book_options(self, view: PlayerView) -> list[tuple[Action, float]] | None:
        """The book's actions here with their weights (positive total, all legal), or None."""
        try:
            options = self._from_book(view)
        except Exception as error:  # a damaged book or a surprise must never stop a game
            _warn_once(error, self.fallback)
            return None
        if options is None or not all(a in view.legal_actions for a, _ in options):
            return None
        return options

    def recall_needed(self, book: Book) -> int:
        """The fewest bids an abstract round of ``book`` must remember to be played."""
        return book.min_recall if self.min_recall is None else self.min_recall

    def wants_out_of_turn_call(self, view: PlayerView) -> bool:
        """Under ``cruzado``: as the fallback (heads-up it never arises)."""
        return self.fallback.wants_out_of_turn_call(view)

    # ----------------------------------------------------------------------- the book

    def _book_for(self, view: PlayerView) -> Book | None:
        """The book whose positions stand for this game's, or None."""
        if not start_fits(view.rules, view.start_total, sum(view.dice_counts)):
            return None  # the book's spot-on limits, solved for a game begun heads-up, differ
        if self.book is not None:
            return self.book if serves(self.book.rules, view.rules) else None
        return find_book(view.rules)

    def _from_book(self, view: PlayerView) -> list[tuple[Action, float]] | None:
        """The book's actions for this view with their weights, or None when the book does
        not cover it."""
        me = view.viewer
        if me is None or not view.my_turn:
            return None
        live = [p for p, count in enumerate(view.dice_counts) if count > 0]
        if len(live) != 2 or me not in live or view.opener not in live:
            return None
        book = self._book_for(view)
        if book is None:
            return None
        opener = view.opener
        other = live[0] if live[1] == opener else live[1]
        seats = (opener, other)  # the solver's players 0 and 1
        chooses = view.rules.oblige_visibility is ObligeVisibility.OBLIGER_CHOOSES
        visibility = view.visibility if view.obliging and chooses else None
        position = Position(
            (view.dice_counts[opener], view.dice_counts[other]),
            0,
            frozenset(i for i, seat in enumerate(seats) if seat in view.obliged),
            view.obliging,
            visibility,
        )
        if any(isinstance(a, ObligeChoice) for a in view.legal_actions):
            choice = self._visibility(book, position) if me == opener else None
            return None if choice is None else [(choice, 1.0)]
        if not book.solved(position):
            return None
        if book.kind(position) == "abstract":
            if book.abstract(position).recall < self.recall_needed(book):
                return None
            return self._play_abstract(book, position, view, seats, seats.index(me))
        return self._play(book, position, view, seats, seats.index(me))

    def _visibility(self, book: Book, position: Position) -> Action | None:
        """The obliger's choice: the round (open or closed) worth more to it."""
        if not (position.obliging and position.visibility is None):
            return None
        worth = {}
        for choice, name in ((OPEN, "open"), (CLOSED, "closed")):
            chosen = Position(position.dice, 0, position.obliged, True, name)
            if not book.has_value(chosen):
                return None
            worth[choice] = book.value(chosen)
        return OPEN if worth[OPEN] >= worth[CLOSED] else CLOSED

    def _play_abstract(
        self,
        book: Book,
        position: Position,
        view: PlayerView,
        seats: tuple[int, int],
        player: int,
    ) -> list[tuple[Action, float]] | None:
        """The abstract strategy's options here, or None where the abstraction has no node
        (an opponent raised past its window) or offers what the engine does not allow."""
        strategy = book.abstract(position)
        index = {bid: i for i, bid in enumerate(strategy.bids)}
        history = _move_history(view, seats, index)
        if history is None or len(history) % 2 != player:
            return None
        seen = view.seen_dice
        hand = strategy.hand(player, (view.my_dice, (seen[seats[0]], seen[seats[1]])))
        if hand is None:
            return None
        found = strategy.options(history, hand)
        if found is None:
            return None
        legal = view.legal_actions
        calls = _ends(view)
        options: list[tuple[Action, float]] = []
        for move, p in found:
            if move is None:
                if not calls:
                    return None
                options.append((calls[0], p))
            elif (action := move_action(strategy.bids, move)) in legal:
                options.append((action, p))
            else:
                return None  # the abstraction offers a move the engine does not allow here
        return options if sum(p for _, p in options) > 0 else None

    def _play(
        self,
        book: Book,
        position: Position,
        view: PlayerView,
        seats: tuple[int, int],
        player: int,
    ) -> list[tuple[Action, float]] | None:
        round_, strategy = book.policy(position)
        index = {bid: i for i, bid in enumerate(round_.bids)}
        history = _move_history(view, seats, index)
        if history is None:
            return None
        node = round_.node_of(tuple(history))
        if node is None or int(round_.actor[node]) != player:
            return None
        seen = view.seen_dice
        signal = (view.my_dice, (seen[seats[0]], seen[seats[1]]))
        try:
            hand = round_.signals[player].index(signal)
        except ValueError:
            return None
        # The tree must offer exactly what the engine allows here.
        legal = view.legal_actions
        calls = _ends(view)
        children = round_.children(node)
        offered = {round_.bids[int(round_.bid[c])] for c in children}
        if offered != {a for a in legal if type(a) is Bid} or bool(calls) != (node > 0):
            return None
        options: list[tuple[Action, float]] = [
            (round_.bids[int(round_.bid[c])], float(strategy.sigma_in[c, hand])) for c in children
        ]
        if node > 0:
            options.append((calls[0], float(strategy.sigma_call[node, hand])))
        total = sum(p for _, p in options)
        if not total > 0:
            return None
        return options


def exploit_share(evidence: Evidence, exploit: float) -> float:
    """``exploit`` times the posterior, after ``evidence``, that the opponent calls by a
    threshold (prior log-odds :data:`EXPLOIT_PRIOR_LOG_ODDS`)."""
    odds = evidence.log_ratio + EXPLOIT_PRIOR_LOG_ODDS
    return exploit / (1.0 + math.exp(-odds)) if odds > -60.0 else 0.0


def _ends(view: PlayerView) -> list[Action]:
    """The ways the player to act may end the round by doubting: an in-turn call, or
    doubting a pass."""
    return [
        a
        for a in view.legal_actions
        if (isinstance(a, Call) and a.by in (None, view.viewer)) or isinstance(a, DoubtPass)
    ]


def _move_history(
    view: PlayerView, seats: tuple[int, int], index: dict[Bid, int]
) -> list[int] | None:
    """The round's moves as a round's tree numbers them (``round.MoveKind``: bids by their
    index in ``index``, then passes), or None if it is not a heads-up round of such moves
    alternating between ``seats``."""
    history: list[int] = []
    for seat, action in view.round_actions:
        if isinstance(action, ObligeChoice):
            continue
        if seat != seats[len(history) % 2]:
            return None  # not the alternation of a heads-up round
        if type(action) is Bid and action in index:
            history.append(index[action])
        elif isinstance(action, Pass) and history:
            history.append(MoveKind.PASS * len(index) + history[-1] % len(index))
        else:
            return None
    return history


def _draw(rng: random.Random, options: list[tuple[Action, float]]) -> Action:
    """One action drawn from ``options`` by weight (the obliger's choice draws nothing)."""
    if len(options) == 1 and isinstance(options[0][0], ObligeChoice):
        return options[0][0]
    draw = rng.random() * sum(p for _, p in options)
    for action, p in options:
        draw -= p
        if draw < 0:
            return action
    return max(options, key=lambda ap: ap[1])[0]  # rounding: the likeliest
