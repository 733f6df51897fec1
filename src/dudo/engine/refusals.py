"""Why an action is refused, in words, where the reason takes more than a line to find:
a reveal-and-reroll raise, a pass, a spot-on claim, an out-of-turn call. Each reason is an
English sentence carrying a :class:`~dudo.engine.errors.ReasonCode` and its parameters.

The game asks these only for an action it has already found illegal (its own checks are the
quick ones); they read the game's state and change nothing.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from dudo.engine.actions import RevealBid
from dudo.engine.errors import Reason
from dudo.engine.errors import ReasonCode as R
from dudo.engine.rules import SpotOnThreshold

if TYPE_CHECKING:
    from dudo.engine.game import Game


def reveal_problem(game: Game, player: int, action: RevealBid) -> Reason | None:
    """Why ``player`` may not make this reveal-and-reroll raise."""
    if not game.rules.reveal_reroll:
        return Reason(
            R.REVEAL_NOT_PLAYED,
            "reveal-and-reroll is not played under these rules (reveal_reroll=false)",
        )
    if game.obliging:
        return Reason(
            R.REVEAL_NOT_IN_OBLIGE, "reveal-and-reroll is not allowed in an obliging round"
        )
    if game.bid is None:
        return Reason(
            R.REVEAL_NOT_ON_OPENING,
            "reveal-and-reroll is allowed on raises only, not on the opening bid",
        )
    found = game.bid_problem(player, action.bid)
    if found:
        return found
    face, reveal = action.bid.face, action.reveal
    if not reveal:
        return Reason(R.REVEAL_NONE, "reveal at least one die")
    wild = game.rules.aces_wild
    for die in reveal:
        if die != face and not (wild and die == 1 and face != 1):
            if wild and face != 1:
                return Reason(
                    R.REVEAL_WRONG_FACE_OR_ACE,
                    f"a revealed die must show the bid's face {face} or an ace",
                    face=face,
                )
            return Reason(
                R.REVEAL_WRONG_FACE,
                f"a revealed die must show the bid's face {face}",
                face=face,
            )
    hidden = Counter(game.hidden[player])
    if Counter(reveal) - hidden:
        return Reason(
            R.REVEAL_NOT_HELD,
            f"you do not hold {list(reveal)} among your hidden dice",
            dice=",".join(map(str, reveal)),
        )
    if len(reveal) >= len(game.hidden[player]):
        return Reason(R.REVEAL_KEEP_ONE, "at least one die must stay hidden")
    return None


def pass_problem(game: Game, player: int) -> Reason:
    """Why ``player`` may not pass (for a player the game refuses a pass)."""
    rules = game.rules
    if not rules.pass_hands:
        return Reason(R.PASS_NOT_PLAYED, "passing is not played under these rules")
    if game.obliging:
        return Reason(R.PASS_NOT_IN_OBLIGE, "no passing in an obliging round")
    if game.active < rules.pass_min_players:
        least = rules.pass_min_players
        return Reason(
            R.PASS_MIN_PLAYERS,
            f"passing needs at least {least} players in the game",
            count=least,
        )
    if game.passer is not None:
        return Reason(R.PASS_TWICE, "two passes may not follow each other")
    return Reason(R.PASS_ONCE_PER_ROUND, "each player passes at most once per round")


def spot_on_problem(game: Game) -> Reason:
    """Why spot-on is refused now (for a claim the game refuses)."""
    rules = game.rules
    if not rules.spot_on:
        return Reason(R.SPOT_ON_NOT_PLAYED, "spot-on is not played under these rules")
    if game.obliging:
        return Reason(R.SPOT_ON_NOT_IN_OBLIGE, "no spot-on in an obliging round")
    if game.active < rules.spot_on_min_players:
        least = rules.spot_on_min_players
        return Reason(
            R.SPOT_ON_MIN_PLAYERS,
            f"spot-on needs at least {least} players in the game",
            count=least,
        )
    if game.passer is not None:
        return Reason(
            R.SPOT_ON_AFTER_PASS, "after a pass you may raise or doubt the pass, not spot-on"
        )
    if rules.spot_on_threshold is SpotOnThreshold.MORE_THAN_HALF:
        return Reason(
            R.SPOT_ON_MORE_THAN_HALF,
            "spot-on is allowed only while more than half the starting dice are in play",
        )
    return Reason(
        R.SPOT_ON_HALF_OR_ONE_DIE,
        "spot-on is allowed only while half the starting dice are in play, or with one die",
    )


def out_of_turn_problem(game: Game, player: int) -> Reason | None:
    """Why ``player`` may not call out of turn now, or None."""
    if not isinstance(player, int) or not 0 <= player < game.players:
        return Reason(R.NO_SUCH_PLAYER, f"there is no player {player!r}", player=repr(player))
    if not game.rules.cruzado:
        return Reason(
            R.CRUZADO_OFF,
            f"it is player {game.to_move}'s turn; out-of-turn calls need cruzado",
            player=game.to_move,
        )
    if game.counts[player] == 0:
        return Reason(R.PLAYER_OUT, f"player {player} is out of the game", player=player)
    if game.phase != "bidding" or game.bid is None:
        return Reason(R.NO_BID_TO_CALL, "there is no bid to call")
    if player == game.bidder:
        return Reason(R.OWN_BID, "you may not call your own bid")
    return None
