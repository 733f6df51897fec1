"""The game state: legal actions of whoever may act, applying actions, undo, and views.

:class:`Game` is the one core type. ``legal_actions()`` lists what the player to act may
do, ``push(action)`` applies an action (or raises :class:`IllegalActionError` and changes
nothing) and returns the events it caused, ``pop()`` undoes the last action, and
``view(player)`` is what that player may know. Chance comes only from the injected
:class:`ChanceSource`, so a game is determined by its chance outcomes and its actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import lru_cache
from typing import Any, NamedTuple

from dudo.engine.actions import (
    CALL,
    CLOSED,
    DOUBT_PASS,
    OPEN,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    Call,
    DoubtPass,
    ObligeChoice,
    Pass,
    RevealBid,
    Spoken,
    SpotOn,
)
from dudo.engine.bids import BidTable, RaiseContext, bid_table, opening_problem, raise_problem
from dudo.engine.chance import ChanceOutcome, ChanceSource, RandomChance, ScriptedChance
from dudo.engine.counting import count_matching, counting_of, pass_hand
from dudo.engine.errors import DudoError, IllegalActionError, Reason, RulesError
from dudo.engine.errors import ReasonCode as R
from dudo.engine.events import (
    BidMade,
    Called,
    DiceLost,
    DieWon,
    Eliminated,
    Event,
    GameOver,
    ObligingRound,
    PassDoubted,
    Passed,
    Revealed,
    RoundCancelled,
    RoundStarted,
    SeatingDecided,
    SeatingRolled,
    SpotOnClaimed,
    VisibilityChosen,
)
from dudo.engine.fromview import replayed_round
from dudo.engine.refusals import out_of_turn_problem, pass_problem, reveal_problem, spot_on_problem
from dudo.engine.rules import (
    PRESETS,
    Direction,
    Loss,
    NextOpener,
    ObligeFaceChange,
    ObligeVisibility,
    OpenOnAces,
    PassHand,
    Rules,
    Seating,
    SpotOnReward,
    SpotOnThreshold,
)
from dudo.engine.setup import NOT_GIVEN, Setup, fresh_start, setup_from
from dudo.engine.spoken import say, spoken_problem
from dudo.engine.view import PlayerView, PublicPart, ViewerPart
from dudo.engine.view import successors as _successors


class Phase(StrEnum):
    CHOOSE_VISIBILITY = "choose_visibility"  # the obliger picks an open or closed round
    BIDDING = "bidding"
    OVER = "over"


class Visibility(StrEnum):
    NORMAL = "normal"  # everyone sees their own dice
    CLOSED = "closed"  # only players holding one die see their own dice
    OPEN = "open"  # everyone sees everybody's dice except their own


# Enum members the hot paths compare against, bound once: on Python 3.11 each lookup such
# as ``Phase.OVER`` goes through EnumType.__getattr__ and costs as much as a small call.
_BIDDING = Phase.BIDDING
_CHOOSING = Phase.CHOOSE_VISIBILITY
_OVER = Phase.OVER
_NORMAL_VISIBILITY = Visibility.NORMAL
_NORMAL = RaiseContext.NORMAL
_FIXED_SEATING = Seating.FIXED
_RANDOM_SEATING = Seating.RANDOM
_CLOCKWISE = Direction.CLOCKWISE
_LOSE_ONE = Loss.ONE
_WINNER_OPENS = NextOpener.WINNER
_OPEN_ACES_FREE = OpenOnAces.FREE_TRANSFORM
_NOBODY: frozenset[int] = frozenset()

# Fields restored by pop(), in the order Game._save reads them. All are immutable values,
# so a snapshot is a tuple of references.
_STATE_FIELDS = (
    "phase",
    "counts",
    "hidden",
    "set_aside",
    "obliged",
    "round_number",
    "obliging",
    "obliger",
    "visibility",
    "opener",
    "to_move",
    "bid",
    "bidder",
    "round_bids",
    "passer",
    "passed",
    "_round_start",
    "_round",
    "winner",
    "active",
)
# A bid changes only these fields and draws no chance, so pushing one saves just them.
_BID_FIELDS = ("bid", "bidder", "passer", "round_bids", "to_move")


class Game:
    """A game of Dudo from seating to the last die.

    ``Game(rules, setup=Setup(...), seed=...)`` starts a game as its :class:`Setup` says
    (kept as ``game.setup``): the players, numbered 0..players-1, their seating, starting
    dice and obliged marks. ``Game(rules, players, order=..., dice=..., ...)`` is the same
    with the setup's fields as keywords. The seating comes from the rules' ``seating``
    (recorded as chance), or from the setup's ``order`` when the caller fixes it. Either
    way ``order`` lists the seats clockwise from ``order[0]``, who opens the first round;
    play goes round them in the rules' ``direction``.
    """

    __slots__ = (
        "_events_frozen",
        "_round",
        "_round_start",
        "_undo",
        "active",
        "bid",
        "bidder",
        "chance",
        "chance_log",
        "counts",
        "events",
        "hidden",
        "history",
        "obliged",
        "obliger",
        "obliging",
        "opener",
        "order",
        "passed",
        "passer",
        "phase",
        "players",
        "round_bids",
        "round_number",
        "rules",
        "set_aside",
        "setup",
        "start_total",
        "to_move",
        "visibility",
        "winner",
    )

    def __init__(
        self,
        rules: Rules | None = None,
        players: int | None = None,
        *,
        seed: int | str | None = None,
        chance: ChanceSource | None = None,
        setup: Setup | None = None,
        order: Sequence[int] | None = None,
        dice: Sequence[int] | None = None,
        start_total: int | None = None,
        obliged: Iterable[int] = NOT_GIVEN,
        obliger: int | None = None,
    ) -> None:
        self.rules = rules = rules if rules is not None else PRESETS["dudo"]
        # (The type() test first spares an isinstance call in the common case.)
        if type(rules) is not Rules and not isinstance(rules, Rules):
            raise RulesError(f"{rules!r} is not a Rules value")
        # Two quick paths, as games are set up in the thousands by search and simulation: a
        # fresh game (its setup, dice and start total worked out once per rules and player
        # count), and a Setup alone. Everything else, errors included, goes to setup_from.
        alone = order is None and dice is None and start_total is None and obliger is None
        if alone and setup is None and type(players) is int and obliged is NOT_GIVEN:
            setup, counts, total = fresh_start(rules, players)
        else:
            if alone and type(setup) is Setup and players is None and obliged is NOT_GIVEN:
                setup.check(rules)
            else:
                setup = setup_from(
                    rules, setup, players, order, dice, start_total, obliged, obliger
                )
            counts, total = setup.start_dice(rules), setup.start_total_of(rules)
        if chance is not None and seed is not None:
            raise DudoError("give either seed or chance, not both")
        self.chance: ChanceSource = chance if chance is not None else RandomChance(seed)
        self.setup = setup
        self.players = n = setup.players
        self.counts: tuple[int, ...] = counts
        self.active = n - counts.count(0)
        self.start_total = total
        self.obliged: frozenset[int] = setup.obliged
        self.events: list[Event] = []
        # The events as a tuple, as views give them, shared by every view until an event
        # is added or taken back (see view()).
        self._events_frozen: tuple[Event, ...] = ()
        self.history: list[tuple[int, Action]] = []
        self.chance_log: list[ChanceOutcome] = []
        self._undo: list[tuple[Any, ...]] = []
        self.round_number = 0
        self.winner: int | None = None

        self.order = seated = self._seat(setup.order)
        self.events.append(_new_tuple(SeatingDecided, (seated, rules.direction)))

        first = seated[0]
        if not self.counts[first]:  # the next seat with dice opens
            succ = _successors(tuple(seated), rules.direction is _CLOCKWISE)
            first = _next_with_dice(succ, self.counts, first)
        obliger = setup.obliger
        if obliger is not None:
            self.obliged = self.obliged | {obliger}
            first = obliger
        self._start_round(first, obliger, self.events)

    @classmethod
    def with_hands(
        cls,
        rules: Rules | None,
        hands: Sequence[Sequence[int]],
        *,
        opener: int = 0,
        start_total: int | None = None,
        obliged: Iterable[int] = (),
        obliger: int | None = None,
        then: ChanceSource | None = None,
        seed: int | None = None,
        spoken: bool = False,
    ) -> Game:
        """A game whose first round is dealt ``hands`` (a player with no dice is out), with
        ``opener`` to open; later dice come from ``then`` (default: a generator seeded with
        ``seed``). Seating is fixed: players sit 0, 1, 2, ... clockwise. ``spoken``: bids
        may be said aloud (see :class:`Setup`)."""
        rules = rules if rules is not None else PRESETS["dudo"]
        n = len(hands)
        if not 0 <= opener < n:
            raise DudoError(f"opener {opener} is not a player (0..{n - 1})")
        order = tuple(range(opener, n)) + tuple(range(opener))
        later = then if then is not None else RandomChance(seed)
        script = ScriptedChance([tuple(h) for h in hands if h], then=later)
        dice = tuple(len(h) for h in hands)
        setup = Setup(n, order, dice, start_total, frozenset(obliged), obliger, spoken)
        return cls(rules, chance=script, setup=setup)

    @classmethod
    def from_view(
        cls,
        view: PlayerView,
        hidden: Sequence[Sequence[int]],
        *,
        then: ChanceSource | None = None,
        seed: int | None = None,
    ) -> Game:
        """The game ``view`` shows, with ``hidden[p]`` as the dice under player p's cup now
        (their dice not set aside face up; for a round whose dice are not dealt yet, the
        dice they will be dealt). Search uses it to play out an assumed deal.

        The round is rebuilt from its start and its actions replayed through ``push``, so
        every rule applies as in the real game; dice a player revealed and re-rolled are
        scripted so that the re-rolls end in ``hidden[p]`` (what they held before is not
        known and no longer matters). Earlier rounds are not replayed: ``events`` is the
        view's, and ``history`` holds only this round. Dice the view shows must be given as
        shown. Later dice come from ``then`` (default: a generator seeded with ``seed``).
        The game cannot be popped back past the view's position."""
        game = replayed_round(cls, view, hidden, then if then is not None else RandomChance(seed))
        game.order = view.order
        game.round_number = view.round_number
        game.events = list(view.events)
        game._events_frozen = ()
        game.chance_log = []
        game._undo = []
        return game

    # ----------------------------------------------------------------- seating and rounds

    def _seat(self, order: Sequence[int] | None) -> tuple[int, ...]:
        seating, n = self.rules.seating, self.players
        if order is not None:
            return tuple(order)
        if seating is _FIXED_SEATING:
            return tuple(range(n))
        if seating is _RANDOM_SEATING:
            seated = self.chance.order(n)
            self.chance_log.append(_new_tuple(ChanceOutcome, ("order", seated)))
            return seated
        by_roll = self._seat_by_roll(list(range(n)))
        if self.rules.direction is _CLOCKWISE:
            return by_roll
        # ``order`` lists the seats clockwise: for counterclockwise play to run in roll
        # order, the highest roller sits first and the others, lowest first, round after.
        return by_roll[:1] + by_roll[:0:-1]

    def _seat_by_roll(self, group: list[int]) -> tuple[int, ...]:
        """Each player rolls one die; the order of play, highest first (tied players
        re-roll among themselves)."""
        values = self.chance.roll(len(group), self.rules.faces)
        self.chance_log.append(ChanceOutcome("roll", values))
        self.events.append(SeatingRolled(tuple(zip(group, values, strict=True))))
        order: list[int] = []
        for face in sorted(set(values), reverse=True):
            tied = [p for p, v in zip(group, values, strict=True) if v == face]
            order.extend(tied if len(tied) == 1 else self._seat_by_roll(tied))
        return tuple(order)

    @property
    def round_setup(self) -> RoundSetup:
        """What the seating and this round's dice counts decided before anyone acted."""
        return self._round

    def _next_active(self, player: int) -> int:
        return _next_with_dice(self._round.succ, self.counts, player)

    @property
    def round_actions(self) -> tuple[tuple[int, Action], ...]:
        """The (player, action) pairs of the current round."""
        return tuple(self.history[self._round_start :])

    def _start_round(self, opener: int, obliger: int | None, events: list[Event]) -> None:
        rules = self.rules
        self.round_number = number = self.round_number + 1
        self.obliging = obliging = obliger is not None
        self.obliger = obliger
        self.opener = self.to_move = opener
        self.bid: Bid | None = None
        self.bidder: int | None = None
        self.round_bids = 0
        self.passer: int | None = None
        self.passed: frozenset[int] = _NOBODY
        # The action that ended the last round is appended to history after this runs.
        self._round_start = len(self.history) + (1 if number > 1 else 0)
        self._round = _round_setup(
            rules, tuple(self.order), self.counts, obliging, self.start_total
        )
        self.hidden: tuple[tuple[int, ...], ...] = ((),) * self.players
        self.set_aside: tuple[tuple[int, ...], ...] = self.hidden
        events.append(_new_tuple(RoundStarted, (number, opener, obliging, self.counts)))
        self.visibility: Visibility | None = _NORMAL_VISIBILITY
        if obliger is not None:
            mode = rules.oblige_visibility
            if mode is ObligeVisibility.OBLIGER_CHOOSES:
                # The choice comes before anyone looks at the new dice: deal after it.
                self.visibility = None
                self.phase = _CHOOSING
                events.append(ObligingRound(obliger, None))
                return
            if mode is ObligeVisibility.CLOSED:
                self.visibility = Visibility.CLOSED
            events.append(ObligingRound(obliger, str(self.visibility)))
        self._deal()
        self.phase = _BIDDING

    def _deal(self) -> None:
        faces = self.rules.faces
        hands: list[tuple[int, ...]] = []
        for count in self.counts:
            if count:
                values = self.chance.roll(count, faces)
                self.chance_log.append(_new_tuple(ChanceOutcome, ("roll", values)))
                if count != 1 or type(values) is not tuple:
                    values = tuple(sorted(values))  # a single die needs no sorting
                hands.append(values)
            else:
                hands.append(())
        self.hidden = tuple(hands)

    # ------------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def dice_in_play(self) -> int:
        return sum(self.counts)

    def finishing_order(self) -> tuple[int, ...]:
        """Every player from first place to last once the game is over: the winner, then the
        others from the last eliminated to the first (one action eliminates at most one player,
        so there are no ties); players set up with no dice come last, in seat order."""
        if self.winner is None:
            raise DudoError("the game is not over: nobody has a place yet")
        out = [e.player for e in self.events if type(e) is Eliminated]
        out.reverse()
        never = [p for p in range(self.players) if p != self.winner and p not in out]
        return (self.winner, *out, *never)

    def hand(self, player: int) -> tuple[int, ...]:
        """All of a player's dice (hidden and set aside). Not for interfaces: use view()."""
        return self.hidden[player] + self.set_aside[player]

    def count(self, bid: Bid) -> int:
        """How many dice on the table match ``bid`` under this round's counting rules."""
        counting = counting_of(self.rules, self.obliging)
        hands = self.hidden
        if self.set_aside.count(()) != self.players:
            hands = hands + self.set_aside
        return count_matching(hands, bid.face, counting.wild, counting.needs_natural)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """What ``player`` (default: the player to act) may do now.

        Out-of-turn players get at most a cruzado call, ``Call(by=player)``.
        """
        legal = self._legal(player)
        # A remembered tuple is copied ([*memo] is quicker to build than list(memo)); a
        # list is made for this call already.
        return legal if type(legal) is list else [*legal]

    def _legal(self, player: int | None) -> Sequence[Action]:
        """:meth:`legal_actions`: a fresh list, or a tuple the bid table remembers and
        shares (which nothing may change: a view takes it as it is)."""
        phase = self.phase
        if phase is _BIDDING and (player is None or player == self.to_move):
            # Hot paths first: the opening bids, and the raises and call of a plain round.
            bid = self.bid
            if bid is None:
                return self._round.table.opening_tuples[self.counts[self.to_move]]
            if self._round.plain:
                context = _NORMAL
                if self.obliging or (self.round_bids == 1 and bid.face == 1):
                    context = self.raise_context(self.to_move)  # see _context
                return self._round.table.raise_calls[context][bid]
            if not self.rules.reveal_reroll or self.obliging:
                # The raises and what else the mover may do (_mover_actions, shared).
                p = self.to_move
                others: tuple[Action, ...] = (CALL if self.passer is None else DOUBT_PASS,)
                if self._may_pass(p):
                    others += (PASS,)
                if self._may_spot_on(p):
                    others += (SPOT_ON,)
                return self._round.table.raises_then[self.raise_context(p), bid, others]
            return self._mover_actions()
        if phase is _OVER:
            return []
        if player is None or player == self.to_move:
            return self._mover_actions()
        if self._may_call_out_of_turn(player):
            return [Call(by=player)]
        return []

    def all_legal_actions(self) -> list[tuple[int, Action]]:
        """Every (player, action) anyone may take now, out-of-turn calls included."""
        out = [(self.to_move, a) for a in self.legal_actions()]
        if self.rules.cruzado:
            for p in range(self.players):
                if p != self.to_move and self._may_call_out_of_turn(p):
                    out.append((p, Call(by=p)))
        return out

    def _mover_actions(self) -> list[Action]:
        if self.phase is _CHOOSING:
            return [OPEN, CLOSED]
        p = self.to_move
        table = self._round.table
        bid = self.bid
        if bid is None:
            return list(table.openings(self.counts[p]))
        raises = table.raises(self.raise_context(p), bid)
        actions: list[Action] = list(raises)
        if self.rules.reveal_reroll and not self.obliging:
            actions.extend(self._reveal_bids(p, raises))
        actions.append(CALL if self.passer is None else DOUBT_PASS)
        if self._may_pass(p):
            actions.append(PASS)
        if self._may_spot_on(p):
            actions.append(SPOT_ON)
        return actions

    def raise_context(self, player: int) -> RaiseContext:
        """The raise rules that apply to ``player``'s bid on the standing bid now."""
        if self.round_bids != 1 and not self.obliging:
            return _NORMAL
        if self.obliging:
            if self._may_change_face(player):
                return RaiseContext.OBLIGE_FACE_CHANGE
            return RaiseContext.OBLIGE_SAME_FACE
        if (
            self.round_bids == 1
            and self.bid is not None
            and self.bid.face == 1
            and self.rules.open_on_aces is _OPEN_ACES_FREE
        ):
            return RaiseContext.FREE_TRANSFORM
        return _NORMAL

    def _may_change_face(self, player: int) -> bool:
        rule = self.rules.oblige_face_change
        if rule is ObligeFaceChange.NOBODY or self.counts[player] != 1:
            return False
        if rule is ObligeFaceChange.SINGLE_DIE:
            return True
        return player in self.obliged and player != self.obliger

    def _may_pass(self, player: int) -> bool:
        return self._round.pass_ok and self.passer is None and player not in self.passed

    def _may_spot_on(self, player: int) -> bool:
        if not self._round.spot_on_ok[player]:
            return False
        return self.passer is None or self.rules.pass_allows_spot_on

    def _may_call_out_of_turn(self, player: int) -> bool:
        return (
            self.rules.cruzado
            and self.phase is _BIDDING
            and self.bid is not None
            and 0 <= player < self.players
            and player != self.bidder
            and player != self.to_move
            and self.counts[player] > 0
        )

    def _reveal_bids(self, player: int, raises: tuple[Bid, ...]) -> list[Action]:
        hidden = self.hidden[player]
        most = len(hidden) - 1  # at least one die stays hidden
        if most < 1:
            return []
        wild = self.rules.aces_wild
        out: list[Action] = []
        for bid in raises:
            face = bid.face
            naturals = hidden.count(face)
            aces = hidden.count(1) if wild and face != 1 else 0
            for n in range(naturals + 1):
                for a in range(aces + 1):
                    if 1 <= n + a <= most:
                        out.append(RevealBid(bid, (1,) * a + (face,) * n))
        return out

    # ---------------------------------------------------------------------- checking

    def problem(self, action: Action) -> Reason | None:
        """Why ``action`` is illegal now, or None if it is legal: an English sentence that also
        carries a :class:`ReasonCode` and parameters (see :class:`Reason`)."""
        phase = self.phase
        kind = type(action)
        if phase is _BIDDING:
            # Hot paths first (every bid and call of every game): memoised sets of legal bids.
            standing = self.bid
            if kind is Bid:
                if standing is None:
                    legal = self._round.table.opening_set(self.counts[self.to_move])
                else:
                    legal = self._round.table.raise_set(self.raise_context(self.to_move), standing)
                if action in legal:
                    return None
                return self.bid_problem(self.to_move, action)  # type: ignore[arg-type]
            if kind is Call and action.by is None and standing is not None and self.passer is None:  # type: ignore[union-attr]
                return None
        elif phase is _OVER:
            return Reason(R.GAME_OVER, "the game is over")
        if kind is Spoken:
            return spoken_problem(self, action)  # type: ignore[arg-type]
        if isinstance(action, Call) and action.by is not None and action.by != self.to_move:
            return out_of_turn_problem(self, action.by)
        p = self.to_move
        if self.phase is _CHOOSING:
            if isinstance(action, ObligeChoice):
                return None
            return Reason(
                R.OBLIGE_CHOICE_FIRST,
                f"player {p} must first choose an open or closed obliging round",
                player=p,
            )
        if isinstance(action, ObligeChoice):
            return Reason(R.NO_OBLIGE_CHOICE, "there is no open or closed choice to make now")
        bid = self.bid
        if isinstance(action, Bid):
            return self.bid_problem(p, action)
        if isinstance(action, RevealBid):
            return reveal_problem(self, p, action)
        if bid is None:
            return Reason(R.OPENER_MUST_BID, f"player {p} opens the round and must bid", player=p)
        if isinstance(action, Call):
            if self.passer is not None:
                return Reason(
                    R.NO_CALL_AFTER_PASS,
                    "after a pass you may not call the standing bid: raise it or doubt the pass",
                )
            return None
        if isinstance(action, DoubtPass):
            if self.passer is None:
                return Reason(R.NO_PASS_TO_DOUBT, "there is no pass to doubt")
            return None
        if isinstance(action, Pass):
            return None if self._may_pass(p) else pass_problem(self, p)
        if isinstance(action, SpotOn):
            return None if self._may_spot_on(p) else spot_on_problem(self)
        return Reason(R.NOT_AN_ACTION, f"{action!r} is not an action", action=repr(action))

    def bid_problem(self, player: int, bid: Bid) -> Reason | None:
        """Why ``player`` may not bid ``bid`` now, or None."""
        found = self.bid_shape_problem(bid)
        if found is not None:
            return found
        if self.bid is None:
            return opening_problem(self.rules, bid, self.counts[player], self.obliging)
        return raise_problem(self.rules, self.raise_context(player), self.bid, bid, self.obliging)

    def bid_shape_problem(self, bid: Bid) -> Reason | None:
        """Why ``bid`` is no bid of this round whatever stands: numbers, face, quantity."""
        table = self._round.table
        if not (isinstance(bid.quantity, int) and isinstance(bid.face, int)):
            return Reason(R.BID_NOT_WHOLE, f"{bid!r} is not a bid of whole numbers", bid=repr(bid))
        if not 1 <= bid.face <= self.rules.faces:
            faces = self.rules.faces
            return Reason(
                R.NO_SUCH_FACE,
                f"{bid}: there is no face {bid.face} (faces are 1-{faces})",
                bid=str(bid),
                face=bid.face,
                faces=faces,
            )
        if not 1 <= bid.quantity <= table.dice_in_play:
            most = table.dice_in_play
            return Reason(
                R.QUANTITY_RANGE,
                f"{bid}: the quantity must be 1 to {most} (the dice in play)",
                bid=str(bid),
                count=most,
            )
        return None

    # ----------------------------------------------------------------------- playing

    def push(self, action: Action) -> tuple[Event, ...]:
        """Apply ``action`` for the player to act (or a cruzado caller); return its events.

        An illegal action raises :class:`IllegalActionError` and changes nothing.
        """
        if type(action) is Bid and self.phase is _BIDDING:
            # The hot path (most actions of every game): a bid checked against a memoised set.
            p = self.to_move
            standing = self.bid
            if standing is None:
                legal = self._round.table.opening_sets[self.counts[p]]
            else:
                context = _NORMAL
                if self.obliging or (self.round_bids == 1 and standing.face == 1):
                    context = self.raise_context(p)  # only then may it differ from NORMAL
                legal = self._round.table.raise_sets[context][standing]
            if action in legal:
                # What _place_bid does, inlined; only the _BID_FIELDS change (see _save).
                self._undo.append(
                    (
                        len(self.events),
                        len(self.chance_log),
                        _BID_FIELDS,
                        standing,
                        self.bidder,
                        self.passer,
                        self.round_bids,
                        p,
                    )
                )
                event = _new_tuple(BidMade, (p, action, (), 0))
                self.bid = action
                self.bidder = p
                self.passer = None
                self.round_bids += 1
                self.to_move = self._round.after[p]
                self.history.append((p, action))
                self.events.append(event)
                return (event,)
        # The other common action, an in-turn call (the shared CALL) of the standing bid, is
        # legal whenever no pass stands; anything else is checked in full.
        quick_call = (
            action is CALL
            and self.phase is _BIDDING
            and self.bid is not None
            and self.passer is None
        )
        if not quick_call:
            found = self.problem(action)
            if found is not None:
                raise IllegalActionError(found)
        saved = self._save()
        events: list[Event] = []
        try:
            if quick_call:
                player = self.to_move
                self._call(player, False, events)
            else:
                player = self._apply(action, events)
        except BaseException:
            self._restore(saved)
            raise
        self._undo.append(saved)
        self.history.append((player, action))
        self.events.extend(events)
        return tuple(events)

    def pop(self) -> tuple[int, Action]:
        """Undo the last action and return (player, action). Chance already drawn is not put
        back: pushing the same action again draws new dice where it ends a round."""
        if not self._undo:
            raise DudoError("there is no action to undo")
        self._restore(self._undo.pop())
        return self.history.pop()

    def _save(self) -> tuple[Any, ...]:
        """An undo record: the lengths of the event and chance logs, the names of the fields
        to restore, then their values (one flat tuple: one allocation per action).
        The fields are read directly, several times faster than with attrgetter."""
        return (
            len(self.events),
            len(self.chance_log),
            _STATE_FIELDS,
            self.phase,
            self.counts,
            self.hidden,
            self.set_aside,
            self.obliged,
            self.round_number,
            self.obliging,
            self.obliger,
            self.visibility,
            self.opener,
            self.to_move,
            self.bid,
            self.bidder,
            self.round_bids,
            self.passer,
            self.passed,
            self._round_start,
            self._round,
            self.winner,
            self.active,
        )

    def _restore(self, saved: tuple[Any, ...]) -> None:
        # Assigned by name, not by setattr over the field names: search pops millions of
        # times, and this is several times quicker (the order is _STATE_FIELDS'/_BID_FIELDS').
        n_events, n_chance, fields = saved[:3]
        if fields is _BID_FIELDS:
            _, _, _, self.bid, self.bidder, self.passer, self.round_bids, self.to_move = saved
        else:
            (
                _,
                _,
                _,
                self.phase,
                self.counts,
                self.hidden,
                self.set_aside,
                self.obliged,
                self.round_number,
                self.obliging,
                self.obliger,
                self.visibility,
                self.opener,
                self.to_move,
                self.bid,
                self.bidder,
                self.round_bids,
                self.passer,
                self.passed,
                self._round_start,
                self._round,
                self.winner,
                self.active,
            ) = saved
        del self.events[n_events:]
        self._events_frozen = ()  # events only grow, but for this: see view()
        del self.chance_log[n_chance:]

    def _apply(self, action: Action, events: list[Event]) -> int:
        p = self.to_move
        if isinstance(action, Call):  # the most common action here (bids mostly take a fast path)
            caller = p if action.by is None else action.by
            self._call(caller, caller != p, events)
            p = caller
        elif isinstance(action, Spoken):
            p = say(self, action, events)
        elif isinstance(action, Bid):
            self._place_bid(p, action, (), 0, events)
        elif isinstance(action, RevealBid):
            self._reveal_and_bid(p, action, events)
        elif isinstance(action, Pass):
            events.append(Passed(p))
            self.passer = p
            self.passed = self.passed | {p}
            self.to_move = self._round.after[p]
        elif isinstance(action, DoubtPass):
            self._doubt_pass(p, events)
        elif isinstance(action, SpotOn):
            self._spot_on(p, events)
        else:
            self.visibility = Visibility.OPEN if action.open else Visibility.CLOSED
            events.append(VisibilityChosen(p, action.open))
            self._deal()
            self.phase = _BIDDING
        return p

    def _place_bid(
        self, p: int, bid: Bid, revealed: tuple[int, ...], rerolled: int, events: list[Event]
    ) -> None:
        events.append(_new_tuple(BidMade, (p, bid, revealed, rerolled)))
        self.bid = bid
        self.bidder = p
        self.passer = None
        self.round_bids += 1
        self.to_move = self._round.after[p]

    def _reveal_and_bid(self, p: int, action: RevealBid, events: list[Event]) -> None:
        rest = list(self.hidden[p])
        for die in action.reveal:
            rest.remove(die)
        rolled = self.chance.roll(len(rest), self.rules.faces)
        self.chance_log.append(ChanceOutcome("roll", rolled))
        self.hidden = _replaced(self.hidden, p, tuple(sorted(rolled)))
        self.set_aside = _replaced(self.set_aside, p, self.set_aside[p] + action.reveal)
        self._place_bid(p, action.bid, action.reveal, len(rolled), events)

    def _reveal(
        self,
        bid: Bid | None,
        count: int | None,
        passer: int | None = None,
        pass_hand: PassHand | None = None,
    ) -> Revealed:
        if self.set_aside.count(()) == self.players:
            hands = self.hidden  # already sorted at the deal
        else:
            hands = tuple(
                tuple(sorted(h + s)) for h, s in zip(self.hidden, self.set_aside, strict=True)
            )
        wild = counting_of(self.rules, self.obliging).wild
        return _new_tuple(Revealed, (hands, bid, count, wild, passer, pass_hand))

    def _call(self, caller: int, out_of_turn: bool, events: list[Event]) -> None:
        bid, bidder = self.bid, self.bidder
        assert bid is not None and bidder is not None
        count = self.count(bid)
        events.append(_new_tuple(Called, (caller, bid, bidder, out_of_turn)))
        events.append(self._reveal(bid, count))
        if count < bid.quantity:
            loser, winner, miss = bidder, caller, bid.quantity - count
        else:
            loser, winner, miss = caller, bidder, count - bid.quantity
        lost = 1 if self.rules.loss is _LOSE_ONE else max(1, miss)
        oblige = self._lose(loser, lost, events)
        if out_of_turn and winner == caller:
            self._gain(caller, events)
        self._next_round(self._opener_after(loser, winner), oblige, events)

    def _spot_on(self, p: int, events: list[Event]) -> None:
        bid, bidder = self.bid, self.bidder
        assert bid is not None and bidder is not None
        count = self.count(bid)
        events.append(SpotOnClaimed(p, bid, bidder))
        events.append(self._reveal(bid, count))
        oblige = None
        if count == bid.quantity:
            if self.rules.spot_on_reward is SpotOnReward.GAIN:
                self._gain(p, events)
            else:
                events.append(RoundCancelled(p))
        else:
            oblige = self._lose(p, 1, events)
        self._next_round(p, oblige, events)

    def _doubt_pass(self, p: int, events: list[Event]) -> None:
        passer = self.passer
        assert passer is not None
        shown = pass_hand(self.hand(passer), self.rules.pass_hands)
        events.append(PassDoubted(p, passer))
        events.append(self._reveal(None, None, passer=passer, pass_hand=shown))
        loser, winner = (p, passer) if shown is not None else (passer, p)
        oblige = self._lose(loser, 1, events)
        self._next_round(self._opener_after(loser, winner), oblige, events)

    def _opener_after(self, loser: int, winner: int) -> int:
        return winner if self.rules.next_opener is _WINNER_OPENS else loser

    def _lose(self, player: int, dice: int, events: list[Event]) -> int | None:
        """Take dice from a player; return the player if this triggers their obliging round."""
        before = self.counts[player]
        lost = dice if dice < before else before
        after = before - lost
        self.counts = _replaced(self.counts, player, after)
        events.append(_new_tuple(DiceLost, (player, lost, after)))
        if after == 0:
            events.append(_new_tuple(Eliminated, (player,)))
        if self.rules.oblige and after == 1 and before > 1 and player not in self.obliged:
            return player
        return None

    def _gain(self, player: int, events: list[Event]) -> None:
        if self.counts[player] < self.rules.dice_per_player:
            self.counts = _replaced(self.counts, player, self.counts[player] + 1)
            events.append(DieWon(player, self.counts[player]))

    def _next_round(self, opener: int, oblige: int | None, events: list[Event]) -> None:
        self.active = active = self.players - self.counts.count(0)
        if active == 1:
            winner = 0
            while not self.counts[winner]:  # the one player with dice (quicker than max())
                winner += 1
            self.winner = winner
            self.phase = _OVER
            self.bid = self.bidder = self.passer = None
            # The last reveal showed every die; no hand is left in play.
            self.hidden = self.set_aside = ((),) * self.players
            events.append(_new_tuple(GameOver, (winner,)))
            return
        if oblige is not None and active >= self.rules.oblige_min_players:
            self.obliged = self.obliged | {oblige}
            self._start_round(oblige, oblige, events)
            return
        if not self.counts[opener]:
            opener = self._next_active(opener)
        self._start_round(opener, None, events)

    # ------------------------------------------------------------------------- views

    def view(self, viewer: int | None) -> PlayerView:
        """What ``viewer`` may know now (None: a spectator): the moment's public part and the
        viewer's own."""
        public = self.public_part()
        _, own, seen, legal = self.viewer_part(viewer)
        return PlayerView(
            rules=public.rules,
            viewer=viewer,
            players=public.players,
            order=public.order,
            dice_counts=public.dice_counts,
            start_total=public.start_total,
            obliged=public.obliged,
            phase=public.phase,
            round_number=public.round_number,
            obliging=public.obliging,
            obliger=public.obliger,
            visibility=public.visibility,
            opener=public.opener,
            to_move=public.to_move,
            standing_bid=public.standing_bid,
            bidder=public.bidder,
            passer=public.passer,
            passed=public.passed,
            round_actions=public.round_actions,
            my_dice=own,
            seen_dice=seen,
            set_aside=public.set_aside,
            legal_actions=legal,
            events=public.events,
            winner=public.winner,
        )

    def public_part(self) -> PublicPart:
        """The fields of every view of this moment that are the same whoever looks."""
        # Every view of one moment shares one tuple of the events: copying them for each
        # viewer touched every event of the game, several times per action on a server.
        # Events are only appended, or cut back by _restore (which empties the copy), so a
        # copy of the same length is a copy of the same events.
        events = self._events_frozen
        if len(events) != len(self.events):
            events = self._events_frozen = tuple(self.events)
        return _new_tuple(
            PublicPart,
            (
                self.rules,
                self.players,
                self.order,
                self.counts,
                self.start_total,
                self.obliged,
                str(self.phase),
                self.round_number,
                self.obliging,
                self.obliger,
                None if self.visibility is None else str(self.visibility),
                self.opener,
                None if self.phase is _OVER else self.to_move,
                self.bid,
                self.bidder,
                self.passer,
                self.passed,
                self.round_actions,
                self.set_aside,
                events,
                self.winner,
            ),
        )

    def viewer_part(self, viewer: int | None) -> ViewerPart:
        """The fields of ``view(viewer)`` that depend on the viewer (None: a spectator):
        their own dice, the dice they see, their legal actions."""
        if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < self.players):
            raise DudoError(f"there is no player {viewer!r}")
        sees_own, sees_others = self._sees(viewer)
        hidden, set_aside, counts = self.hidden, self.set_aside, self.counts
        seen: list[tuple[int, ...] | None] = []
        for p in range(self.players):
            aside = set_aside[p]
            if counts[p] and (sees_own if p == viewer else sees_others):
                seen.append(hidden[p] + aside)
            elif aside or not counts[p]:
                seen.append(aside)
            else:
                seen.append(None)
        if viewer is None or self.phase is _OVER:
            legal: tuple[Action, ...] = ()
        else:
            legal = tuple(self._legal(viewer))  # the bid table's own tuple, when it is one
        own = hidden[viewer] if sees_own and viewer is not None else None
        return _new_tuple(ViewerPart, (viewer, own, tuple(seen), legal))

    def _sees(self, viewer: int | None) -> tuple[bool, bool]:
        """May ``viewer`` see their own hidden dice now, and the hidden dice of the others
        (of those who have dice)? A player who is out sees no more than a spectator, so
        nobody outside the game can pass on an open round's dice."""
        if viewer is None or self.phase is not _BIDDING or not self.counts[viewer]:
            return False, False
        visibility = self.visibility
        if visibility is Visibility.NORMAL:
            return True, False
        if visibility is Visibility.CLOSED:
            return self.counts[viewer] == 1, False
        return False, True  # open obliging round

    # ------------------------------------------------------------------------ copying

    def clone(self, chance: ChanceSource | None = None) -> Game:
        """An independent copy of the current state (without undo history). It draws from
        ``chance`` if given, else shares this game's chance source."""
        twin = object.__new__(Game)
        for name in Game.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.events = list(self.events)
        twin.history = list(self.history)
        twin.chance_log = list(self.chance_log)
        twin._undo = []
        if chance is not None:
            twin.chance = chance
        return twin

    def __repr__(self) -> str:
        return (
            f"<Game round {self.round_number} {self.phase} to_move={self.to_move} "
            f"bid={self.bid} dice={list(self.counts)}>"
        )


class RoundSetup(NamedTuple):
    """What the seating and a round's dice counts decide before anyone acts (counts only
    change between rounds), kept by the game as one value."""

    succ: tuple[int, ...]  # who sits after each player (see _successors)
    after: tuple[int, ...]  # who acts after each player: the next seat with dice
    pass_ok: bool  # whether anyone may pass this round
    spot_on_ok: tuple[bool, ...]  # whether each player may claim spot-on
    plain: bool  # only raises and calls: the fast path of legal_actions
    table: BidTable  # the bids of this round's dice in play


def _next_with_dice(succ: tuple[int, ...], counts: tuple[int, ...], player: int) -> int:
    """The first seat after ``player`` (in ``succ`` order) that holds dice."""
    nxt = succ[player]
    while not counts[nxt]:
        nxt = succ[nxt]
    return nxt


@lru_cache(maxsize=4096)
def _round_setup(
    rules: Rules, order: tuple[int, ...], counts: tuple[int, ...], obliging: bool, start_total: int
) -> RoundSetup:
    """The :class:`RoundSetup` of a round (cached: rounds repeat their counts)."""
    players = len(counts)
    succ = _successors(order, rules.direction is Direction.CLOCKWISE)
    after = [_next_with_dice(succ, counts, p) for p in range(players)]
    active = players - counts.count(0)
    pass_ok = bool(rules.pass_hands) and not obliging and active >= rules.pass_min_players
    spot_ok: tuple[bool, ...]
    in_play = 2 * sum(counts)
    threshold = rules.spot_on_threshold
    if not rules.spot_on or obliging or active < rules.spot_on_min_players:
        spot_ok = (False,) * players
    elif threshold is SpotOnThreshold.MORE_THAN_HALF:
        spot_ok = (in_play > start_total,) * players
    elif threshold is SpotOnThreshold.HALF_OR_SINGLE:
        spot_ok = tuple([in_play >= start_total or c == 1 for c in counts])
    else:
        spot_ok = (True,) * players
    plain = not (pass_ok or any(spot_ok) or (rules.reveal_reroll and not obliging))
    table = bid_table(rules, sum(counts), obliging)
    return RoundSetup(succ, tuple(after), pass_ok, spot_ok, plain, table)


# Builds a named tuple without its Python-level __new__: events and chance outcomes are
# created on every engine step.
_new_tuple = tuple.__new__


def _replaced(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    changed = [*values]  # (quicker than list(values))
    changed[index] = value
    return tuple(changed)
