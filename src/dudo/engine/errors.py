"""The engine's typed errors: each says what was wrong, and raising one changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any


class DudoError(ValueError):
    """Base class of every error the project raises for bad input."""


class RulesError(DudoError):
    """An option value or combination of options that cannot be played. ``option`` names the
    option at fault when there is one (a client can word the refusal around it)."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class IllegalActionError(DudoError):
    """An action that is not legal now. The game state is left unchanged."""


class NotationCode(StrEnum):
    """Why typed text is no bid or call, as a stable code a front end words in its own
    language. Each carries ``text`` (what was typed, cut short) and the parameters beside it."""

    NOTHING = "nothing"
    UNEXPECTED_CHARACTER = "unexpected_character"  # char
    NOT_A_MOVE = "not_a_move"
    NO_SUCH_FACE = "no_such_face"  # face, faces
    FACE_TOO_LARGE = "face_too_large"  # faces
    QUANTITY_NO_FACE = "quantity_no_face"  # quantity
    FACE_NO_QUANTITY = "face_no_quantity"  # face
    QUANTITY_MIN = "quantity_min"
    QUANTITY_MAX = "quantity_max"  # most
    NOT_A_QUANTITY = "not_a_quantity"  # word
    NOT_A_FACE = "not_a_face"  # word, faces
    NO_BID_BEFORE_REVEAL = "no_bid_before_reveal"
    NO_FACE_AFTER_X = "no_face_after_x"
    NO_QUANTITY_BEFORE_X = "no_quantity_before_x"
    NO_REVEALED_DICE = "no_revealed_dice"
    NOT_A_REVEALED_DIE = "not_a_revealed_die"  # word


class NotationError(DudoError):
    """Text that is not a bid or call in any supported notation. The message is English;
    text a person typed also gets a :class:`NotationCode` and parameters (``code`` is None for
    a caller's mistake, such as an unknown language)."""

    def __init__(self, message: str, code: NotationCode | None = None, **params: int | str) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, int | str] = MappingProxyType(params)


class ChanceError(DudoError):
    """A chance source that cannot give what the engine asks (e.g. scripted dice ran out)."""


class RecordError(DudoError):
    """A game record that is corrupt, of an unknown version, or holds an illegal entry."""


class ReasonCode(StrEnum):
    """Every reason the engine gives for an illegal action, as a stable code a client words in
    its own language (``reason.<code>``); the parameters each one carries are listed beside it."""

    GAME_OVER = "game_over"
    OBLIGE_CHOICE_FIRST = "oblige_choice_first"  # player
    NO_OBLIGE_CHOICE = "no_oblige_choice"
    OPENER_MUST_BID = "opener_must_bid"  # player
    NO_CALL_AFTER_PASS = "no_call_after_pass"
    NO_PASS_TO_DOUBT = "no_pass_to_doubt"
    NOT_AN_ACTION = "not_an_action"  # action
    BID_NOT_WHOLE = "bid_not_whole"  # bid
    NO_SUCH_FACE = "no_such_face"  # bid, face, faces
    QUANTITY_RANGE = "quantity_range"  # bid, count (the dice in play)
    REVEAL_NOT_PLAYED = "reveal_not_played"
    REVEAL_NOT_IN_OBLIGE = "reveal_not_in_oblige"
    REVEAL_NOT_ON_OPENING = "reveal_not_on_opening"
    REVEAL_NONE = "reveal_none"
    REVEAL_WRONG_FACE = "reveal_wrong_face"  # face
    REVEAL_WRONG_FACE_OR_ACE = "reveal_wrong_face_or_ace"  # face
    REVEAL_NOT_HELD = "reveal_not_held"  # dice ("4,4")
    REVEAL_KEEP_ONE = "reveal_keep_one"
    PASS_NOT_PLAYED = "pass_not_played"
    PASS_NOT_IN_OBLIGE = "pass_not_in_oblige"
    PASS_MIN_PLAYERS = "pass_min_players"  # count
    PASS_TWICE = "pass_twice"
    PASS_ONCE_PER_ROUND = "pass_once_per_round"
    SPOT_ON_NOT_PLAYED = "spot_on_not_played"
    SPOT_ON_NOT_IN_OBLIGE = "spot_on_not_in_oblige"
    SPOT_ON_MIN_PLAYERS = "spot_on_min_players"  # count
    SPOT_ON_AFTER_PASS = "spot_on_after_pass"
    SPOT_ON_MORE_THAN_HALF = "spot_on_more_than_half"
    SPOT_ON_HALF_OR_ONE_DIE = "spot_on_half_or_one_die"
    NO_SUCH_PLAYER = "no_such_player"  # player
    CRUZADO_OFF = "cruzado_off"  # player (the one to move)
    PLAYER_OUT = "player_out"  # player
    NO_BID_TO_CALL = "no_bid_to_call"
    OWN_BID = "own_bid"
    # Raises (bids.py): each also carries new and standing, the two bids.
    OBLIGE_SAME_FACE = "oblige_same_face"
    QUANTITY_UP = "quantity_up"
    ACES_RAISE_QUANTITY = "aces_raise_quantity"
    ACES_NEED = "aces_need"  # count (aces needed)
    AFTER_ACES_NEED = "after_aces_need"  # count (dice needed)
    NONDECREASING_QUANTITY = "nondecreasing_quantity"
    NONDECREASING_FACE = "nondecreasing_face"
    SAME_BID = "same_bid"
    INDEX_ORDER = "index_order"  # order
    QUANTITY_DOWN = "quantity_down"
    FACE_UP = "face_up"
    # Openings (bids.py): each also carries bid.
    OPEN_ACES_NEVER = "open_aces_never"
    OPEN_ACES_ONE_DIE = "open_aces_one_die"
    # Bids said aloud at a real table (spoken.py).
    NOT_SPOKEN = "not_spoken"
    SPOKEN_WHO = "spoken_who"
    SPOKEN_STANDS = "spoken_stands"  # bid, player
    SPOKEN_NOT_NOW = "spoken_not_now"
    # Turn order as a server that checks actions by seat sees it.
    NOT_YOUR_TURN = "not_your_turn"  # player (the one to move)
    NOT_LEGAL_NOW = "not_legal_now"  # action


class Reason(str):
    """Why an action is illegal: the English sentence (it *is* that string, so every caller that
    prints or compares it is unchanged) plus a :class:`ReasonCode` and parameters that let a
    client word the same reason in another language."""

    code: ReasonCode
    params: Mapping[str, int | str]

    def __new__(cls, code: ReasonCode, text: str, **params: int | str) -> Reason:
        self = super().__new__(cls, text)
        self.code = code
        self.params = MappingProxyType(params)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (records, worker processes) as itself, code and parameters included.
        return (_rebuild, (self.code, str(self), dict(self.params)))


def _rebuild(code: str, text: str, params: dict[str, int | str]) -> Reason:
    return Reason(ReasonCode(code), text, **params)
