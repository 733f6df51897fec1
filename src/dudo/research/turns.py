"""Whose decision it is, one seat at a time: a :class:`~dudo.engine.Game` as a sequence of
single-seat decisions, for the multi-agent environments (PettingZoo, OpenSpiel).

The engine lets anyone call out of turn under ``cruzado``, at any moment a bid stands. A
turn-based interface needs one decider at a time, so the driver *polls*: before every
in-turn decision while a bid stands, each seat that may call out of turn (the engine says
which: ``game.legal_actions(seat)``) is asked once, in seat order from seat 0 (as
:func:`dudo.bots.match.advance` asks bots), and answers ``call`` or ``no-call``. The first
``call`` ends the round; when all answered ``no-call`` the player to move decides. Without
``cruzado`` there are no polls and the decider is always the engine's player to move.

A game is cut off after ``max_rounds`` rounds (some house rules let rounds be cancelled for
ever); it then has no decider and no winner.
"""

from __future__ import annotations

from dudo.bots.match import MAX_ROUNDS
from dudo.engine import Call, Event, Game
from dudo.engine.encoding import ActionEncoding, Choice, NoCall
from dudo.engine.errors import DudoError, IllegalActionError


class Turns:
    """A game, its action encoding and the out-of-turn polls still to ask."""

    def __init__(self, game: Game, encoding: ActionEncoding, *, max_rounds: int = MAX_ROUNDS):
        self.game = game
        self.encoding = encoding
        self.max_rounds = max_rounds
        self.polls: list[int] = []
        #: Every "no-call" answer so far: (number of game events then, seat). Public.
        self.declined: list[tuple[int, int]] = []
        self._refresh_polls()

    def clone(self) -> Turns:
        """An independent copy (the game cloned with :meth:`~dudo.engine.Game.clone`)."""
        twin = Turns.__new__(Turns)
        twin.__dict__.update(self.__dict__)
        twin.game = self.game.clone()
        twin.polls = list(self.polls)
        twin.declined = list(self.declined)
        return twin

    @property
    def capped(self) -> bool:
        """The game reached the round cap unfinished."""
        return not self.game.is_over and self.game.round_number > self.max_rounds

    @property
    def finished(self) -> bool:
        return self.game.is_over or self.capped

    @property
    def actor(self) -> int | None:
        """The seat that decides now (None when the game is over or cut off)."""
        return self._actor

    @property
    def polling(self) -> bool:
        """The decider is being asked for an out-of-turn call."""
        return bool(self.polls) and self._actor is not None

    def _settle(self) -> None:
        # The decider changes only here and in apply(): worked out once, as environments
        # ask for it several times a step.
        if self.finished:
            self._actor: int | None = None
        else:
            self._actor = self.polls[0] if self.polls else self.game.to_move

    def legal_ids(self) -> list[int]:
        actor = self.actor
        if actor is None:
            return []
        # The engine's legal actions for the decider: what its view would list, without
        # building the view.
        return self.encoding.ids(self.game.legal_actions(actor), polled=self.polling)

    def choice(self, action_id: int) -> Choice:
        """What ``action_id`` means for the decider now (the call of a polled seat is its
        out-of-turn ``Call(by=seat)``)."""
        choice = self.encoding.action(action_id)
        if self.polling and isinstance(choice, Call):
            return Call(by=self.polls[0])
        return choice

    def apply(self, action_id: int) -> tuple[Event, ...]:
        """Play ``action_id`` for the decider; an illegal id raises IllegalActionError and
        changes nothing. (The engine's ``push`` judges engine actions, exactly as its
        ``legal_actions`` lists them; only the poll answers are checked here.)"""
        action_id = int(action_id)
        if self.finished:
            raise IllegalActionError(self.problem(action_id))
        try:
            choice = self.choice(action_id)
        except DudoError:
            raise IllegalActionError(self.problem(action_id)) from None
        if self.polling:
            if isinstance(choice, NoCall):
                self.declined.append((len(self.game.events), self.polls.pop(0)))
                self._settle()
                return ()
            if not isinstance(choice, Call):
                raise IllegalActionError(self.problem(action_id))
        elif isinstance(choice, NoCall):
            raise IllegalActionError(self.problem(action_id))
        events = self.game.push(choice)  # may raise: nothing here has changed yet
        self._refresh_polls()
        return events

    def problem(self, action_id: int) -> str:
        """Why ``action_id`` is not legal for the decider now."""
        actor = self.actor
        if actor is None:
            return "the game is over" if self.game.is_over else "the game reached its round cap"
        try:
            choice = self.choice(action_id)
        except DudoError as error:  # an id outside the encoding
            return str(error)
        if isinstance(choice, NoCall):
            return f"no-call answers an out-of-turn poll; player {actor} is to move"
        found: str | None = self.game.problem(choice)
        if found is None and self.polling:
            found = f"player {actor} is asked for an out-of-turn call: call or no-call"
        return f"{choice} is not legal for player {actor}: {found or 'not offered now'}"

    def _refresh_polls(self) -> None:
        game = self.game
        if not game.rules.cruzado or game.is_over or game.bid is None:
            self.polls = []
        else:
            mover = game.to_move
            self.polls = [p for p in range(game.players) if p != mover and game.legal_actions(p)]
        self._settle()
