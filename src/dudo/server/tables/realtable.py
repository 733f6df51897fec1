"""A real table: the friends sit together, each phone is a cup, and the program is the referee.

``Cups`` owns what only such a table has: which cups have rolled this round (a round is played
only once every cup in it has rolled: the dice are the provably fair deal, the shake is the
player's), the call tapped after bids said aloud (the standing bid and whose it was, picked by
the caller when nobody entered it), and the host playing on for a phone that is away. The
rules stay the engine's: a call after spoken bids is the engine's ``Spoken`` action followed by
the call, each checked and stored like any other action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dudo.engine.actions import CALL, DOUBT_PASS, SPOT_ON, Action, Bid, Call, Spoken
from dudo.engine.errors import DudoError
from dudo.engine.spoken import speech_calls
from dudo.notation import parse_action
from dudo.server.errors import ErrorCode as E
from dudo.server.tables.model import ActionRefused, Seat, SeatKind

if TYPE_CHECKING:
    from dudo.engine.game import Game
    from dudo.server.tables.table import Table

#: The calls a phone taps, by their wire names (the engine actions' notation).
CALLS: dict[str, Action] = {str(a): a for a in (CALL, SPOT_ON, DOUBT_PASS)}


class Cups:
    """The cups of a real table (nothing at an online one)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: The (game, round) the shakes below belong to.
        self._round: tuple[int | None, int] | None = None
        self._shaken: set[int] = set()

    @property
    def on(self) -> bool:
        return self.table.settings.real

    def shaken(self) -> set[int]:
        """The engine players whose cup has rolled this round."""
        game = self.table.play.game
        key = (self.table.play.game_id, 0 if game is None else game.round_number)
        if key != self._round:
            self._round, self._shaken = key, set()
        return self._shaken

    def waiting(self) -> list[int]:
        """The players in the game whose cup has not rolled this round yet."""
        game = self.table.play.game
        if not self.on or game is None or game.is_over:
            return []
        shaken = self.shaken()
        return [p for p in range(game.players) if game.counts[p] and p not in shaken]

    def require_rolled(self, action: Action) -> None:
        """Refuse any action but the obliger's choice while a cup of the round has not rolled."""
        waiting = self.waiting()
        if not waiting or str(action) in ("open", "closed"):
            return
        names = [self.table.play.name_of(p) for p in waiting]
        raise ActionRefused(
            E.CUPS_NOT_ROLLED,
            f"wait until every cup has rolled: {', '.join(names)} still to shake",
            None,
            names=", ".join(names),
            count=len(names),
        )

    # ------------------------------------------------------------------ a phone's requests

    def player_for(self, seat: Seat | None, player: int | None) -> int:
        """The engine player a phone acts for: its own, or (the host, for a phone that is
        away) ``player``'s."""
        table = self.table
        if not self.on:
            raise ActionRefused(E.NOT_REAL, "this is not a real table: there are no cups to shake")
        play = table.play
        own = play.player_of(seat if seat is not None and seat.kind is SeatKind.HUMAN else None)
        if play.game is None:
            raise ActionRefused(E.NO_GAME, "no game is being played at this table")
        if own is None and player is None:
            raise ActionRefused(E.NOT_A_PLAYER, "you are watching: only players have a cup")
        if player is None or player == own:
            assert own is not None
            return own
        if seat is None or seat.seat != table.host:
            raise ActionRefused(E.HOST_ONLY, "only the host can play on for another phone")
        if not 0 <= player < len(play.players):
            raise ActionRefused(E.NOT_A_PLAYER, f"there is no player {player + 1} in this game")
        other = table.seats[play.players[player]]
        if table.audience.present(other):
            raise ActionRefused(
                E.PLAY_ON_PRESENT,
                f"{other.name}'s phone is here: they play for themselves",
                None,
                name=other.name or "",
            )
        return player

    def stand_for(self, seat: Seat | None, player: int) -> Seat:
        """The seat the host plays on for (``player``'s phone is away)."""
        who = self.player_for(seat, player)
        return self.table.seats[self.table.play.players[who]]

    async def shake(self, seat: Seat | None, player: int | None) -> None:
        """A cup rolled (the phone's own, or one the host plays on for)."""
        table = self.table
        async with table.lock:
            who = self.player_for(seat, player)
            game = table.play.game
            if game is None or game.is_over or not game.counts[who]:
                raise ActionRefused(E.NO_GAME, "there is no round to roll for")
            shaken = self.shaken()
            if who in shaken:
                return  # a second shake rolls nothing new: the dice are dealt
            shaken.add(who)
            table.changed()
            table.audience.broadcast_table()

    async def call(
        self, seat: Seat | None, call: str, bid_text: str, bidder: int, turn: int | None
    ) -> None:
        """A call tapped after bids said aloud: ``bid_text`` by ``bidder`` was the standing bid
        (or the bid a pass passed on, for the doubt of a pass). Both steps are checked first;
        refused, nothing changes."""
        table = self.table
        async with table.lock:
            play = table.play
            caller = self.player_for(seat, None)
            game = play.game
            assert game is not None
            if turn is not None and turn != len(game.history):
                raise ActionRefused(
                    E.STALE, "the game has moved on (someone else called first): look again"
                )
            steps = self._steps(game, call, bid_text, bidder)
            for step in steps:
                self.require_rolled(step)
            for player, step in self._checked(game, caller, steps):
                await play.commit(player, step)

    def _steps(self, game: Game, call: str, bid_text: str, bidder: int) -> list[Action]:
        """The engine actions a call means: what was said (unless it was entered), then the
        call itself (out of turn under cruzado)."""
        action = CALLS.get(call)
        if action is None:
            raise ActionRefused(
                E.UNKNOWN_CALL,
                f"{call[:20]!r} is not a call; calls are {', '.join(CALLS)}",
                None,
                call=call[:20],
            )
        try:
            bid = parse_action(bid_text, game.rules.faces)
        except DudoError as exc:
            raise ActionRefused(E.UNKNOWN_ACTION, str(exc), None, action=bid_text[:40]) from None
        if type(bid) is not Bid:
            raise ActionRefused(
                E.UNKNOWN_ACTION, f"{bid_text[:40]!r} is not a bid", None, action=bid_text[:40]
            )
        steps: list[Action] = []
        if action is DOUBT_PASS:
            if not (game.passer == bidder and game.bid == bid):
                steps.append(Spoken(bid, bidder, passed=True))
        elif not (game.bid == bid and game.bidder == bidder and game.passer is None):
            steps.append(Spoken(bid, bidder))
        steps.append(action)
        return steps

    def _checked(self, game: Game, caller: int, steps: list[Action]) -> list[tuple[int, Action]]:
        """Each step with its player, once every one is legal in turn; else refused in the
        caller's words. What was said is tried on the game and taken back (it draws no dice);
        the call is only checked, as pushing it would draw the next round's dice."""
        play = self.table.play
        out: list[tuple[int, Action]] = []
        tried = 0
        try:
            for step in steps:
                if step is CALL and caller != game.to_move:
                    step = Call(by=caller)  # out of turn: the engine says whether cruzado allows
                player = step.by if isinstance(step, Spoken) and step.by is not None else caller
                why = play.problem(player, step)
                if why is not None:
                    raise ActionRefused(E.ILLEGAL, why, why)
                out.append((player, step))
                if isinstance(step, Spoken):
                    game.push(step)
                    tried += 1
        finally:
            for _ in range(tried):
                game.pop()
        return out

    def to_json(self) -> dict[str, Any] | None:
        """What every phone and screen of a real table shows beside the game (None: online)."""
        if not self.on:
            return None
        game = self.table.play.game
        calls: dict[str, list[str]] = {}
        if game is not None:
            for p in range(game.players):
                calls[str(p)] = [str(a) for a in speech_calls(game, p)]
        return {
            "round": None if game is None else game.round_number,
            "shaken": sorted(self.shaken()) if game is not None else [],
            "waiting": self.waiting(),
            "calls": calls,
        }
