"""A fixed integer encoding of every action the engine can offer, for learning environments.

An :class:`ActionEncoding` is built from the rules, the number of players and the dice per
player (default: the rules' ``dice_per_player``). Let ``N = players * dice_per_player`` (the
most dice ever in play) and ``F = rules.faces``. Ids, in order:

``0 .. N*F - 1``
    The bid ``q x f`` is ``(q - 1) * F + (f - 1)``: quantity first, then face.
``N*F + 0 .. N*F + 6``
    ``call`` (in turn or, under ``cruzado``, out of turn), ``spot-on``, ``pass``,
    ``doubt-pass``, ``open``, ``closed`` (the obliger's choice), and ``no-call``: not an
    engine action but the answer "let the bid stand" when an environment polls a seat for
    an out-of-turn call (see :mod:`dudo.research.turns`).
``N*F + 7 ..`` (only when ``rules.reveal_reroll``)
    Reveal-and-reroll raises: ``N*F + 7 + bid_id * K + pair``. A revealed die shows the
    bid's face or a wild ace, so a reveal is the pair (aces ``a``, naturals ``n``) of how
    many of each the player sets aside, with ``1 <= a + n <= dice_per_player - 1`` (one
    die always stays hidden). Pairs are numbered by total ``a + n`` ascending, then ``a``
    ascending: ``(0,1) (1,0) (0,2) (1,1) (2,0) ...``, so ``K = (D - 1)(D + 2) / 2`` for
    ``D = dice_per_player``. For a bid on aces every die set aside is a natural ace, so
    pairs with ``a > 0`` are unused ids there (:meth:`ActionEncoding.action` refuses them).

Which ids are legal at a moment comes only from a view's ``legal_actions``
(:meth:`ActionEncoding.mask`); the encoding decides no rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

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
    DoubtPass,
    ObligeChoice,
    Pass,
    PlayerView,
    RevealBid,
    Rules,
    SpotOn,
)
from dudo.engine.errors import DudoError

SPECIAL_NAMES: tuple[str, ...] = (
    "call",
    "spot-on",
    "pass",
    "doubt-pass",
    "open",
    "closed",
    "no-call",
)
"""The actions after the bids, in id order."""


class NoCall:
    """The answer "let the bid stand" to an out-of-turn poll (not an engine action)."""

    def __repr__(self) -> str:
        return "NO_CALL"

    def __str__(self) -> str:
        return "no-call"


NO_CALL = NoCall()

Choice = Action | NoCall
"""What an id decodes to: an engine action, or :data:`NO_CALL`."""


@dataclass(frozen=True)
class ActionEncoding:
    """Integer ids for the actions of a game with these rules and this many players."""

    rules: Rules
    players: int
    dice_per_player: int = 0  # 0: the rules' dice_per_player
    _pairs: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    # Ids already worked out, by action: legal id lists are built on every step.
    _known: dict[Choice, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.dice_per_player == 0:
            object.__setattr__(self, "dice_per_player", self.rules.dice_per_player)
        if not isinstance(self.players, int) or self.players < 2:
            raise DudoError(f"players: {self.players!r} is not a number of players (2 or more)")
        if not 1 <= self.dice_per_player <= 5:
            raise DudoError(f"dice_per_player: {self.dice_per_player} is outside 1..5")
        pairs = tuple(
            (aces, total - aces)
            for total in range(1, self.dice_per_player)
            for aces in range(total + 1)
        )
        object.__setattr__(self, "_pairs", pairs)
        object.__setattr__(self, "_known", {})

    # ------------------------------------------------------------------ sizes and offsets

    @property
    def max_quantity(self) -> int:
        """The most dice ever in play: the highest quantity a bid can name."""
        return self.players * self.dice_per_player

    @property
    def faces(self) -> int:
        return self.rules.faces

    @property
    def num_bids(self) -> int:
        return self.max_quantity * self.faces

    @property
    def call_id(self) -> int:
        return self.num_bids

    @property
    def spot_on_id(self) -> int:
        return self.num_bids + 1

    @property
    def pass_id(self) -> int:
        return self.num_bids + 2

    @property
    def doubt_pass_id(self) -> int:
        return self.num_bids + 3

    @property
    def open_id(self) -> int:
        return self.num_bids + 4

    @property
    def closed_id(self) -> int:
        return self.num_bids + 5

    @property
    def no_call_id(self) -> int:
        return self.num_bids + 6

    @property
    def reveal_start(self) -> int:
        return self.num_bids + len(SPECIAL_NAMES)

    @property
    def reveal_pairs(self) -> tuple[tuple[int, int], ...]:
        """The (aces, naturals) reveals, in id order within one bid."""
        return self._pairs if self.rules.reveal_reroll else ()

    @property
    def size(self) -> int:
        """How many ids there are: the size of a ``Discrete`` action space."""
        return self.reveal_start + self.num_bids * len(self.reveal_pairs)

    # ------------------------------------------------------------------------ mapping

    def bid_id(self, bid: Bid) -> int:
        q, f = bid.quantity, bid.face
        if not (1 <= q <= self.max_quantity and 1 <= f <= self.faces):
            raise DudoError(
                f"{bid} is outside this encoding (1..{self.max_quantity} x 1..{self.faces})"
            )
        return (q - 1) * self.faces + (f - 1)

    def bid(self, bid_id: int) -> Bid:
        quantity, face = divmod(bid_id, self.faces)
        return Bid(quantity + 1, face + 1)

    def id(self, choice: Choice) -> int:
        """The id of an action (an out-of-turn ``Call(by=p)`` is the call id too)."""
        known = self._known.get(choice)
        if known is None:
            known = self._known[choice] = self._find_id(choice)
        return known

    def _find_id(self, choice: Choice) -> int:
        if isinstance(choice, Bid):
            return self.bid_id(choice)
        if isinstance(choice, Call):
            return self.call_id
        if isinstance(choice, SpotOn):
            return self.spot_on_id
        if isinstance(choice, Pass):
            return self.pass_id
        if isinstance(choice, DoubtPass):
            return self.doubt_pass_id
        if isinstance(choice, ObligeChoice):
            return self.open_id if choice.open else self.closed_id
        if isinstance(choice, NoCall):
            return self.no_call_id
        if isinstance(choice, RevealBid):
            return self._reveal_id(choice)
        raise DudoError(f"{choice!r} is not an action")

    def _reveal_id(self, action: RevealBid) -> int:
        if not self.rules.reveal_reroll:
            raise DudoError(
                f"{action}: these rules have no reveal-and-reroll (reveal_reroll=false)"
            )
        face = action.bid.face
        aces = action.reveal.count(1) if face != 1 else 0
        naturals = action.reveal.count(face)
        if aces + naturals != len(action.reveal):
            raise DudoError(f"{action}: a revealed die must show the bid's face or an ace")
        try:
            pair = self._pairs.index((aces, naturals))
        except ValueError:
            raise DudoError(
                f"{action}: reveal 1 to {self.dice_per_player - 1} dice (one stays hidden)"
            ) from None
        return self.reveal_start + self.bid_id(action.bid) * len(self._pairs) + pair

    def action(self, action_id: int) -> Choice:
        """The action an id stands for; the call id is the in-turn ``Call()``."""
        action_id = int(action_id)
        if not 0 <= action_id < self.size:
            raise DudoError(f"action id {action_id} is outside 0..{self.size - 1}")
        if action_id < self.num_bids:
            return self.bid(action_id)
        if action_id < self.reveal_start:
            return (CALL, SPOT_ON, PASS, DOUBT_PASS, OPEN, CLOSED, NO_CALL)[
                action_id - self.num_bids
            ]
        bid_id, pair = divmod(action_id - self.reveal_start, len(self._pairs))
        bid = self.bid(bid_id)
        aces, naturals = self._pairs[pair]
        if bid.face == 1 and aces:
            raise DudoError(f"action id {action_id} is unused (a bid on aces reveals only aces)")
        return RevealBid(bid, (1,) * aces + (bid.face,) * naturals)

    def name(self, action_id: int) -> str:
        """The canonical notation of an id (``5x3``, ``call``, ``5x3 reveal 1,3``, ``no-call``)."""
        return str(self.action(action_id))

    # -------------------------------------------------------------------------- masks

    def legal_ids(self, view: PlayerView, *, polled: bool = False) -> list[int]:
        """The ids of ``view.legal_actions``, ascending; ``polled`` adds ``no-call`` (a seat
        asked whether it calls out of turn may also let the bid stand)."""
        return self.ids(view.legal_actions, polled=polled)

    def ids(self, actions: Iterable[Action], *, polled: bool = False) -> list[int]:
        """The ids of ``actions`` (such as ``Game.legal_actions(seat)``), ascending, with
        ``no-call`` if ``polled``."""
        known, find = self._known, self.id
        ids = {known[a] if a in known else find(a) for a in actions}
        if polled:
            ids.add(self.no_call_id)
        return sorted(ids)

    def mask(self, view: PlayerView, *, polled: bool = False) -> npt.NDArray[np.int8]:
        """1 at every legal id of ``view`` (see :meth:`legal_ids`), 0 elsewhere."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[self.legal_ids(view, polled=polled)] = 1
        return mask
