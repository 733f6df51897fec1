"""A fixed-length observation vector (numpy float32, every entry in 0..1) built only from a
:class:`~dudo.engine.PlayerView`, so it holds nothing the viewer may not know.

Seats are relative to the viewer: slot ``k`` of a per-seat section is seat
``(viewer + k) % players`` (slot 0 is the viewer). With ``P`` players, ``D`` dice per
player, ``F`` faces, ``N = P * D`` and ``H`` history slots, the sections, in order:

==================  =========  ===========================================================
section             size       content
==================  =========  ===========================================================
my_dice             F          own hidden dice the viewer sees, count of each face / D
my_dice_visible     1          1 if the viewer sees their own hidden dice
seen_dice           P * F      dice of each seat the viewer sees (own, set aside, an open
                               round's), count of each face / D
seen_known          P          1 if anything of that seat's hand is visible
set_aside           P * F      dice set aside face up (reveal-and-reroll), per face / D
dice_counts         P          dice each seat holds / D
obliged             P          1 if the seat has had its obliging round
passed              P          1 if the seat passed this round
to_move             P          one-hot: the seat to move (all 0 when the game is over)
bidder              P          one-hot: who made the standing bid
opener              P          one-hot: who opened this round
obliger             P          one-hot: who obliges this round
passer              P          one-hot: whose pass stands
bid_quantity        N          one-hot: the standing bid's quantity
bid_face            F          one-hot: the standing bid's face
phase               3          one-hot: choose_visibility, bidding, over
visibility          4          one-hot: normal, closed, open, not chosen yet
flags               3          obliging round, viewer's turn, viewer may call out of turn
dice_in_play        1          dice in play / N
round               1          round number / 100 (capped at 1)
round_length        1          actions so far this round / (H * 4) (capped at 1)
last_reveal         P * F      the latest reveal's hands (all dice shown at a round's end),
                               count of each face / D
history             H * S      the last H actions of this round, oldest first, right
                               aligned (empty slots 0); each slot: actor one-hot (P),
                               kind one-hot (8: bid, reveal-bid, call, spot-on, pass,
                               doubt-pass, open, closed), quantity / N, face one-hot (F),
                               dice revealed / D; ``S = P + 8 + 1 + F + 1``
==================  =========  ===========================================================

:meth:`ObservationLayout.sections` gives the offsets; :meth:`ObservationLayout.split`
cuts a vector back into named pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from dudo.engine import (
    Action,
    Bid,
    Call,
    DoubtPass,
    ObligeChoice,
    Pass,
    PlayerView,
    RevealBid,
    Revealed,
    Rules,
    SpotOn,
)
from dudo.engine.errors import DudoError

HISTORY_SLOTS = 16
"""Default number of recent actions of the round the vector keeps."""

_PHASES = ("choose_visibility", "bidding", "over")
_VISIBILITIES = ("normal", "closed", "open")
KINDS = 8


def action_kind(action: Action) -> int:
    """An action's kind in the history section (see the module docstring)."""
    if isinstance(action, Bid):
        return 0
    if isinstance(action, RevealBid):
        return 1
    if isinstance(action, Call):
        return 2
    if isinstance(action, SpotOn):
        return 3
    if isinstance(action, Pass):
        return 4
    if isinstance(action, DoubtPass):
        return 5
    if isinstance(action, ObligeChoice):
        return 6 if action.open else 7
    raise DudoError(f"{action!r} is not an action")  # pragma: no cover - all kinds above


@dataclass(frozen=True)
class ObservationLayout:
    """The vector layout for a game with these rules and this many players."""

    rules: Rules
    players: int
    dice_per_player: int = 0  # 0: the rules' dice_per_player
    history_slots: int = HISTORY_SLOTS
    _offsets: dict[str, tuple[int, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.dice_per_player == 0:
            object.__setattr__(self, "dice_per_player", self.rules.dice_per_player)
        if self.history_slots < 0:
            raise DudoError(f"history_slots: {self.history_slots} is below 0")
        offsets: dict[str, tuple[int, int]] = {}
        start = 0
        for name, size in self._sizes():
            offsets[name] = (start, start + size)
            start += size
        object.__setattr__(self, "_offsets", offsets)

    @property
    def slot_size(self) -> int:
        return self.players + KINDS + 1 + self.rules.faces + 1

    def _sizes(self) -> list[tuple[str, int]]:
        p, f = self.players, self.rules.faces
        n = self.players * self.dice_per_player
        return [
            ("my_dice", f),
            ("my_dice_visible", 1),
            ("seen_dice", p * f),
            ("seen_known", p),
            ("set_aside", p * f),
            ("dice_counts", p),
            ("obliged", p),
            ("passed", p),
            ("to_move", p),
            ("bidder", p),
            ("opener", p),
            ("obliger", p),
            ("passer", p),
            ("bid_quantity", n),
            ("bid_face", f),
            ("phase", len(_PHASES)),
            ("visibility", len(_VISIBILITIES) + 1),
            ("flags", 3),
            ("dice_in_play", 1),
            ("round", 1),
            ("round_length", 1),
            ("last_reveal", p * f),
            ("history", self.history_slots * self.slot_size),
        ]

    @property
    def sections(self) -> dict[str, tuple[int, int]]:
        """Section name -> (start, stop) in the vector."""
        return dict(self._offsets)

    @property
    def size(self) -> int:
        return self._offsets["history"][1]

    def split(self, vector: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """The named sections of a vector (views into it, not copies)."""
        return {name: vector[a:b] for name, (a, b) in self._offsets.items()}

    def encode(self, view: PlayerView) -> npt.NDArray[np.float32]:
        """The vector for ``view`` (a player's view: a spectator has no seat to centre on)."""
        viewer = view.viewer
        if viewer is None:
            raise DudoError("an observation is for a player, not a spectator")
        if view.players != self.players or view.rules.faces != self.rules.faces:
            raise DudoError(
                f"a view of {view.players} players with {view.rules.faces} faces does not fit "
                f"this layout ({self.players} players, {self.rules.faces} faces)"
            )
        out = np.zeros(self.size, dtype=np.float32)
        s = self.split(out)
        players, faces, dice = self.players, self.rules.faces, self.dice_per_player
        most = players * dice

        def seat(p: int) -> int:
            return (p - viewer) % players

        def faces_into(target: npt.NDArray[np.float32], hand: Sequence[int]) -> None:
            # Count first, then divide once: the same float32 as count / dice computed
            # anywhere else (the batched simulator's arrays), where repeated sums drift.
            for face in set(hand):
                target[face - 1] = hand.count(face) / dice

        def one_hot(name: str, p: int | None) -> None:
            if p is not None:
                s[name][seat(p)] = 1.0

        if view.my_dice is not None:
            faces_into(s["my_dice"], view.my_dice)
            s["my_dice_visible"][0] = 1.0
        for p in range(players):
            k = seat(p)
            hand = view.seen_dice[p]
            if hand is not None:
                faces_into(s["seen_dice"][k * faces : (k + 1) * faces], hand)
                s["seen_known"][k] = 1.0
            faces_into(s["set_aside"][k * faces : (k + 1) * faces], view.set_aside[p])
            s["dice_counts"][k] = view.dice_counts[p] / dice
            s["obliged"][k] = float(p in view.obliged)
            s["passed"][k] = float(p in view.passed)
        one_hot("to_move", view.to_move)
        one_hot("bidder", view.bidder)
        one_hot("opener", view.opener)
        one_hot("obliger", view.obliger)
        one_hot("passer", view.passer)
        if view.standing_bid is not None:
            s["bid_quantity"][view.standing_bid.quantity - 1] = 1.0
            s["bid_face"][view.standing_bid.face - 1] = 1.0
        s["phase"][_PHASES.index(view.phase)] = 1.0
        visibility = view.visibility
        s["visibility"][
            _VISIBILITIES.index(visibility) if visibility is not None else len(_VISIBILITIES)
        ] = 1.0
        may_call_out_of_turn = not view.my_turn and bool(view.legal_actions)
        s["flags"][:] = (float(view.obliging), float(view.my_turn), float(may_call_out_of_turn))
        s["dice_in_play"][0] = min(1.0, view.dice_in_play / most)
        s["round"][0] = min(1.0, view.round_number / 100)
        s["round_length"][0] = min(1.0, len(view.round_actions) / max(1, 4 * self.history_slots))
        reveal = next((e for e in reversed(view.events) if isinstance(e, Revealed)), None)
        if reveal is not None:
            for p, hand in enumerate(reveal.hands):
                k = seat(p)
                faces_into(s["last_reveal"][k * faces : (k + 1) * faces], hand)
        if self.history_slots:
            self._history(s["history"], view, seat, most)
        return out

    def _history(
        self,
        target: npt.NDArray[np.float32],
        view: PlayerView,
        seat: Callable[[int], int],
        most: int,
    ) -> None:
        players, faces, dice = self.players, self.rules.faces, self.dice_per_player
        slots = target.reshape(self.history_slots, self.slot_size)
        recent = view.round_actions[-self.history_slots :]
        first = self.history_slots - len(recent)
        for i, (player, action) in enumerate(recent):
            row = slots[first + i]
            row[seat(player)] = 1.0
            row[players + action_kind(action)] = 1.0
            bid = action.bid if isinstance(action, RevealBid) else action
            if isinstance(bid, Bid):
                row[players + KINDS] = bid.quantity / most
                row[players + KINDS + bid.face] = 1.0  # face f at offset f - 1 after quantity
            if isinstance(action, RevealBid):
                row[players + KINDS + 1 + faces] = len(action.reveal) / dice
