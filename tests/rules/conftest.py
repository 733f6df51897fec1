"""Helpers for the docs/rules.md scenario tests: fixed dice, scripted play, illegal-action
checks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import pytest

from dudo.engine import (
    CALL,
    CLOSED,
    DOUBT_PASS,
    OPEN,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    Call,
    Event,
    Game,
    IllegalActionError,
    RandomChance,
    RevealBid,
    Rules,
    ScriptedChance,
    preset,
)

PRESET_NAMES: tuple[str, ...] = (
    "dudo",
    "dudo-legacy",
    "dudo-equalize",
    "dudo-app",
    "perudo",
    "cacho",
    "liars-dice",
)

E = TypeVar("E")


def act(text: str) -> Action:
    """A tiny notation for tests: ``5x3``, ``call``, ``call by 2``, ``spot-on``, ``pass``,
    ``doubt-pass``, ``open``, ``closed``, ``5x3 reveal 3,1``."""
    words = text.strip().lower()
    fixed: dict[str, Action] = {
        "call": CALL,
        "spot-on": SPOT_ON,
        "pass": PASS,
        "doubt-pass": DOUBT_PASS,
        "open": OPEN,
        "closed": CLOSED,
    }
    if words in fixed:
        return fixed[words]
    if words.startswith("call by "):
        return Call(by=int(words.removeprefix("call by ")))
    if " reveal " in words:
        bid_text, dice_text = words.split(" reveal ")
        bid = act(bid_text)
        assert isinstance(bid, Bid)
        return RevealBid(bid, tuple(int(d) for d in dice_text.split(",")))
    q, f = words.split("x")
    return Bid(int(q), int(f))


def as_action(action: Action | str) -> Action:
    return act(action) if isinstance(action, str) else action


def deal(
    rules: Rules | str,
    hands: Sequence[Sequence[int]],
    *,
    opener: int = 0,
    later: Sequence[Sequence[int]] = (),
    start_total: int | None = None,
    obliged: Iterable[int] = (),
    obliger: int | None = None,
) -> Game:
    """A game whose round 1 is dealt ``hands`` (seats 0, 1, ... in order, ``opener`` first);
    ``later`` scripts the following rolls (one per player with dice, in player order), after
    which dice come from a fixed seed."""
    r = preset(rules) if isinstance(rules, str) else rules
    return Game.with_hands(
        r,
        hands,
        opener=opener,
        start_total=start_total,
        obliged=obliged,
        obliger=obliger,
        then=ScriptedChance(list(later), then=RandomChance(12345)),
    )


def actor_of(g: Game, action: Action) -> int:
    if isinstance(action, Call) and action.by is not None:
        return action.by
    return g.to_move


def is_listed(g: Game, action: Action) -> bool:
    """Whether ``action`` appears among the acting player's legal actions."""
    player = actor_of(g, action)
    listed = g.legal_actions(player)
    if isinstance(action, Call) and action.by == g.to_move:
        return CALL in listed
    return action in listed


def play(g: Game, *actions: Action | str) -> list[Event]:
    """Push each action, checking first that the engine lists it as legal; return all events."""
    out: list[Event] = []
    for raw in actions:
        action = as_action(raw)
        assert g.problem(action) is None, f"{action} should be legal: {g.problem(action)}"
        assert is_listed(g, action), f"{action} is legal but not in legal_actions"
        out.extend(g.push(action))
    return out


def legal(g: Game, action: Action | str) -> bool:
    """Whether the engine accepts ``action`` now; also checks problem() and legal_actions agree."""
    a = as_action(action)
    ok = g.problem(a) is None
    assert ok == is_listed(g, a), f"problem() and legal_actions() disagree on {a}"
    return ok


def snapshot(g: Game) -> tuple[Any, ...]:
    return (
        g.view(None),
        tuple(g.view(p) for p in range(g.players)),
        g.phase,
        g.counts,
        g.hidden,
        g.set_aside,
        g.to_move,
        g.bid,
        g.bidder,
        g.passer,
        g.round_number,
        g.obliged,
        tuple(g.history),
        tuple(g.events),
        tuple(g.chance_log),
    )


def assert_illegal(g: Game, action: Action | str, *fragments: str) -> str:
    """``action`` is refused with IllegalActionError, the message contains every fragment
    (case-insensitive), it is not listed as legal, and the game is left unchanged."""
    a = as_action(action)
    before = snapshot(g)
    assert not is_listed(g, a), f"{a} is listed as legal"
    reason = g.problem(a)
    assert reason is not None, f"problem() finds nothing wrong with {a}"
    with pytest.raises(IllegalActionError) as info:
        g.push(a)
    message = str(info.value)
    for fragment in fragments:
        assert fragment.lower() in message.lower(), f"{fragment!r} not in {message!r}"
    assert snapshot(g) == before, f"refusing {a} changed the game"
    return message


def of_type(events: Iterable[object], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def only(events: Iterable[object], kind: type[E]) -> E:
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]
