"""A round rebuilt from a player's view and an assumed deal: how search plays out what a
player cannot see (see :meth:`Game.from_view <dudo.engine.game.Game.from_view>`).

The round is replayed from its start through ``push``, so every rule applies as in the real
game; dice a player revealed and re-rolled are scripted so that the re-rolls end in the
hidden dice assumed now.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dudo.engine.actions import RevealBid, Spoken
from dudo.engine.chance import ChanceSource, ScriptedChance
from dudo.engine.errors import DudoError
from dudo.engine.setup import Setup
from dudo.engine.view import PlayerView

if TYPE_CHECKING:
    from dudo.engine.game import Game


def replayed_round(
    cls: type[Game], view: PlayerView, hidden: Sequence[Sequence[int]], later: ChanceSource
) -> Game:
    """The round ``view`` shows replayed with ``hidden`` as the dice under the cups now,
    later dice from ``later``; checks that ``hidden`` fits what the view shows."""
    if view.is_over:
        raise DudoError("the game is over: there is nothing to play out")
    counts = view.dice_counts
    if len(hidden) != view.players:
        raise DudoError(f"hidden: {len(hidden)} hands given for {view.players} players")
    hands = [tuple(sorted(h)) for h in hidden]
    for p, hand in enumerate(hands):
        aside = view.set_aside[p]
        if len(hand) + len(aside) != counts[p]:
            raise DudoError(
                f"hidden: player {p} holds {counts[p]} dice, {len(aside)} of them set "
                f"aside, but {len(hand)} hidden dice were given"
            )
        seen = view.seen_dice[p]
        shown = () if seen is None else tuple(sorted(seen[: len(seen) - len(aside)]))
        if shown and shown != hand:  # the view shows these hidden dice otherwise
            raise DudoError(f"hidden: player {p}'s dice are seen as {list(shown)}")
    # The opener sits first (seating is a cycle, so who follows whom is unchanged).
    at = view.order.index(view.opener)
    setup = Setup(
        view.players,
        view.order[at:] + view.order[:at],
        counts,
        view.start_total,
        view.obliged,
        view.obliger if view.obliging else None,
        any(type(a) is Spoken for _, a in view.round_actions),
    )
    script = ScriptedChance(_round_script(view, hands), then=later)
    game = cls(view.rules, chance=script, setup=setup)
    for _, action in view.round_actions:
        game.push(action)
    return game


def _round_script(view: PlayerView, hands: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The dice a round's replay draws (see Game.from_view): each player's first reveal
    came out of their opening hand; each re-roll holds the next reveal, the last one the
    dice hidden now (the rest is filler)."""
    counts = view.dice_counts
    reveals: dict[int, list[tuple[int, ...]]] = {}
    for p, action in view.round_actions:
        if isinstance(action, RevealBid):
            reveals.setdefault(p, []).append(action.reveal)
    filler = view.rules.faces
    script: list[tuple[int, ...]] = []
    rerolls: dict[int, list[tuple[int, ...]]] = {}
    for p, hand in enumerate(hands):
        if not counts[p]:
            continue
        revealed = reveals.get(p, [])
        if not revealed:
            script.append(hand)
            continue
        sizes = [counts[p]]
        for reveal in revealed:
            sizes.append(sizes[-1] - len(reveal))
        rolls = [r + (filler,) * (n - len(r)) for r, n in zip(revealed, sizes, strict=False)]
        rolls.append(hand)
        script.append(rolls[0])
        rerolls[p] = rolls[1:]
    used = dict.fromkeys(rerolls, 0)
    for p, action in view.round_actions:
        if isinstance(action, RevealBid):
            script.append(rerolls[p][used[p]])
            used[p] += 1
    return script
