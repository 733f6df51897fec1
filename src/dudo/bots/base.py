"""The interface every computer player implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from dudo.engine.actions import Action, Call
from dudo.engine.errors import DudoError
from dudo.engine.view import PlayerView

#: Seconds an outside bot (:class:`~dudo.bots.external.ExternalBot`) has for each choose and
#: out_of_turn answer, unless told otherwise. Here, with the interface, so that what reads
#: only this default (the arena's options) need not load the protocol.
DECISION_TIMEOUT = 10.0


class Bot(Protocol):
    """A computer player.

    ``choose`` gets the engine's view for the bot's seat (``game.view(seat)``) and returns
    an element of ``view.legal_actions``; it is only asked when that tuple is non-empty.
    A bot's randomness comes from the ``random.Random`` it was built with, so its choices
    are determined by that generator's seed and the views it is shown.
    """

    name: str

    def choose(self, view: PlayerView) -> Action: ...


@runtime_checkable
class PolicyBot(Protocol):
    """A bot that can say how it plays: ``policy(view)`` is the probability of every action
    ``choose(view)`` may return (those with positive probability, summing to 1). Exact
    exploitability (:mod:`dudo.exploit`) reads a bot's strategy through it."""

    name: str

    def choose(self, view: PlayerView) -> Action: ...

    def policy(self, view: PlayerView) -> dict[Action, float]: ...


def policy_of(bot: Bot, view: PlayerView) -> dict[Action, float]:
    """``bot``'s action distribution at ``view``; a :class:`DudoError` for a bot that
    cannot tell (an outside program)."""
    # A plain attribute lookup: a runtime Protocol check costs more than many policies do,
    # and exploitability asks at every information set.
    policy = getattr(bot, "policy", None)
    if policy is None:
        raise DudoError(f"the bot {bot.name!r} cannot report its action probabilities")
    found: dict[Action, float] = policy(view)
    return found


@runtime_checkable
class OutOfTurnCaller(Protocol):
    """A bot that may call out of turn under ``cruzado``.

    A driver polls seats that are not to move with a view whose ``legal_actions`` is
    ``(Call(by=seat),)``; when ``wants_out_of_turn_call`` is True it pushes that call
    (which is also what ``choose`` returns for such a view).
    """

    def wants_out_of_turn_call(self, view: PlayerView) -> bool: ...


def out_of_turn_call(bot: Bot, view: PlayerView) -> Call | None:
    """The out-of-turn call ``bot`` makes now, if any (``view`` is for a seat not to move)."""
    if view.my_turn or not isinstance(bot, OutOfTurnCaller):
        return None
    calls = [a for a in view.legal_actions if isinstance(a, Call) and a.by == view.viewer]
    if not calls or not bot.wants_out_of_turn_call(view):
        return None
    return calls[0]
