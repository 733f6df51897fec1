"""Rule options and named presets (docs/rules.md sections 2 and 3), as immutable data.

A :class:`Rules` value holds every option. Presets are plain ``Rules`` values looked
up by name; house rules are a preset with some options replaced (:meth:`Rules.with_options`).
Every constructor validates, so an impossible value or combination never reaches the engine.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dudo.engine.errors import RulesError


class RaiseMode(StrEnum):
    ANY_FACE = "any_face"
    NONDECREASING = "nondecreasing"
    INDEX = "index"


class AcesRank(StrEnum):
    LOW = "low"
    HIGH = "high"


class AcesTo(StrEnum):
    CEIL_HALF = "ceil_half"
    FLOOR_HALF_PLUS_ONE = "floor_half_plus_one"


class AcesFrom(StrEnum):
    DOUBLE_PLUS_ONE = "double_plus_one"
    DOUBLE = "double"


class OpenOnAces(StrEnum):
    NEVER = "never"
    ONE_DIE_ONLY = "one_die_only"
    FREE_TRANSFORM = "free_transform"
    ALWAYS = "always"


class Loss(StrEnum):
    ONE = "one"
    DIFFERENCE = "difference"


class SpotOnReward(StrEnum):
    GAIN = "gain"
    CANCEL = "cancel"


class SpotOnThreshold(StrEnum):
    NONE = "none"
    MORE_THAN_HALF = "more_than_half"
    HALF_OR_SINGLE = "half_or_single"


class PassHand(StrEnum):
    FULL_HOUSE = "full_house"
    FIVE_KIND = "five_kind"
    FIVE_DIFFERENT = "five_different"


class ObligeFaceChange(StrEnum):
    NOBODY = "nobody"
    SINGLE_DIE = "single_die"
    SINGLE_DIE_VETERAN = "single_die_veteran"


class ObligeVisibility(StrEnum):
    NORMAL = "normal"
    CLOSED = "closed"
    OBLIGER_CHOOSES = "obliger_chooses"


class Seating(StrEnum):
    ROLL = "roll"
    RANDOM = "random"
    FIXED = "fixed"


class Direction(StrEnum):
    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


class NextOpener(StrEnum):
    LOSER = "loser"
    WINNER = "winner"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of a game. Build one with :func:`preset` or :meth:`with_options`."""

    # Counting
    aces_wild: bool = True
    wild_needs_natural: bool = False
    # Raising
    raise_mode: RaiseMode = RaiseMode.ANY_FACE
    aces_rank: AcesRank = AcesRank.LOW
    aces_to: AcesTo = AcesTo.CEIL_HALF
    aces_from: AcesFrom = AcesFrom.DOUBLE_PLUS_ONE
    open_on_aces: OpenOnAces = OpenOnAces.ONE_DIE_ONLY
    # Calling
    loss: Loss = Loss.ONE
    cruzado: bool = False
    # Spot-on
    spot_on: bool = True
    spot_on_reward: SpotOnReward = SpotOnReward.GAIN
    spot_on_threshold: SpotOnThreshold = SpotOnThreshold.MORE_THAN_HALF
    spot_on_min_players: int = 2
    # Pass
    pass_hands: frozenset[PassHand] = frozenset(
        {PassHand.FULL_HOUSE, PassHand.FIVE_KIND, PassHand.FIVE_DIFFERENT}
    )
    pass_min_players: int = 2
    pass_allows_spot_on: bool = False
    # Obliging round
    oblige: bool = True
    oblige_min_players: int = 2
    oblige_face_change: ObligeFaceChange = ObligeFaceChange.SINGLE_DIE
    oblige_visibility: ObligeVisibility = ObligeVisibility.OBLIGER_CHOOSES
    # Other variants
    reveal_reroll: bool = False
    seating: Seating = Seating.ROLL
    direction: Direction = Direction.CLOCKWISE
    next_opener: NextOpener = NextOpener.LOSER
    min_players: int = 2
    max_players: int | None = None
    # Research and solver use
    faces: int = 6
    dice_per_player: int = 5
    # Not an option: a cache key so equal rules share precomputed bid tables.
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _validate(self)
        # Rules key the shared bid tables; hashing 28 fields on every lookup would be slow.
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, n) for n in OPTION_NAMES)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def pass_enabled(self) -> bool:
        return bool(self.pass_hands)

    def with_options(self, **options: Any) -> Rules:
        """These rules with some options replaced. Values may be given as text."""
        return from_mapping(options, base=self)

    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON-ready values (the form stored in game records)."""
        out: dict[str, Any] = {}
        for name in OPTION_NAMES:
            value = getattr(self, name)
            if isinstance(value, frozenset):
                value = sorted(str(v) for v in value)
            elif isinstance(value, StrEnum):
                value = str(value)
            out[name] = value
        return out

    def differences(self, other: Rules) -> dict[str, tuple[Any, Any]]:
        """Options whose values differ: name -> (self's value, other's value)."""
        mine, theirs = self.to_dict(), other.to_dict()
        return {n: (mine[n], theirs[n]) for n in OPTION_NAMES if mine[n] != theirs[n]}


OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if not f.name.startswith("_")
)

_TRUE_WORDS = frozenset({"true", "yes", "on", "1"})
_FALSE_WORDS = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option as every part reads it (parsing, checking, help texts, records): its
    ``kind`` (``bool``, ``int``, one of the StrEnums above, or ``frozenset`` of pass hands),
    the range of an integer with ``why`` it is so, and whether none is a value."""

    name: str
    kind: type
    low: int | None = None
    high: int | None = None
    none_ok: bool = False
    why: str = ""

    @property
    def is_enum(self) -> bool:
        return issubclass(self.kind, StrEnum)

    @property
    def names(self) -> list[str]:
        """A named option's values (empty for the others)."""
        return [str(v) for v in typing.cast(type[StrEnum], self.kind)] if self.is_enum else []

    def _few(self) -> list[int] | None:
        """The values of a range of two (2 | 3), listed rather than described."""
        if self.low is not None and self.high is not None and self.high - self.low == 1:
            return [self.low, self.high]
        return None

    def describe(self) -> str:
        """The values the option accepts, for help texts and error messages."""
        if self.is_enum:
            return " | ".join(self.names)
        if self.kind is bool:
            return "true | false"
        if self.kind is frozenset:
            return "comma-separated subset of " + ", ".join(str(v) for v in PassHand) + " (or none)"
        if self.none_ok:
            return "an integer, or none for no limit"
        few = self._few()
        if few is not None:
            return " | ".join(str(v) for v in few)
        if self.low is not None and self.high is not None:
            return f"an integer from {self.low} to {self.high}"
        return "an integer"

    def choices(self) -> list[Any] | None:
        """Every value as JSON when they are few (named values, switches, a range of two)."""
        if self.is_enum:
            return self.names
        if self.kind is bool:
            return [True, False]
        return list(self._few() or ()) or None

    def coerce(self, value: Any) -> Any:
        """A value given as text or JSON, in the option's type."""
        wrong = RulesError(f"{self.name}={value!r} is not valid; use {self.describe()}", self.name)
        if self.is_enum:
            try:
                return self.kind(str(value).strip().lower().replace("-", "_"))
            except ValueError:
                raise wrong from None
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE_WORDS or text in _FALSE_WORDS:
                return text in _TRUE_WORDS
            raise wrong
        if self.kind is int:
            if self.none_ok and (value is None or str(value).strip().lower() == "none"):
                return None
            if isinstance(value, bool):
                raise wrong
            try:
                return int(str(value).strip()) if not isinstance(value, int) else value
            except ValueError:
                raise wrong from None
        if isinstance(value, str):
            text = value.strip().lower()
            items: list[Any] = [] if text in ("", "none", "no", "off") else text.split(",")
        elif isinstance(value, (list, tuple, set, frozenset)):
            items = list(value)
        else:
            raise wrong
        hands = set()
        for item in items:
            try:
                hands.add(PassHand(str(item).strip().lower().replace("-", "_")))
            except ValueError:
                raise RulesError(
                    f"{self.name}: {str(item).strip()!r} is not a pass hand; use {self.describe()}",
                    self.name,
                ) from None
        return frozenset(hands)

    def problem(self, value: Any) -> str | None:
        """What is wrong with a value of the option's field (its type, then its range)."""
        if self.is_enum:
            ok = isinstance(value, self.kind)
            return None if ok else f"{value!r} is not valid; use {self.describe()}"
        if self.kind is bool:
            return None if isinstance(value, bool) else f"{value!r} is not valid; use true | false"
        if self.kind is frozenset:
            ok = isinstance(value, frozenset) and all(isinstance(h, PassHand) for h in value)
            return None if ok else f"{value!r} is not a set of pass hands"
        if value is None and self.none_ok:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{value!r} is not an integer" + (" or none" if self.none_ok else "")
        few = self._few()
        if few is not None and value not in few:
            return f"{value} is not {few[0]} or {few[1]}"
        low, high = self.low, self.high
        if low is not None and high is not None and not low <= value <= high:
            return f"{value} is outside {low}..{high}" + (f" ({self.why})" if self.why else "")
        if low is not None and high is None and value < low:
            return f"{value} is below {low}" + (f": {self.why}" if self.why else "")
        return None


#: Ranges of the integer options, and why each is what it is.
_RANGES: dict[str, tuple[int | None, int | None, str]] = {
    "spot_on_min_players": (2, 3, ""),
    "pass_min_players": (2, 3, ""),
    "oblige_min_players": (2, 3, ""),
    "min_players": (2, None, "Dudo needs two or more players"),
    "faces": (2, 6, "a die has at most six faces"),
    "dice_per_player": (1, 5, "a hand holds at most 5"),
}


def _options() -> dict[str, Option]:
    hints = typing.get_type_hints(Rules)
    out = {}
    for name in OPTION_NAMES:
        kind = hints[name]
        none_ok = isinstance(kind, types.UnionType) and type(None) in typing.get_args(kind)
        if none_ok:
            kind = next(a for a in typing.get_args(kind) if a is not type(None))
        kind = typing.get_origin(kind) or kind  # frozenset[PassHand] -> frozenset
        low, high, why = _RANGES.get(name, (None, None, ""))
        out[name] = Option(name, kind, low, high, none_ok, why)
    return out


OPTIONS: dict[str, Option] = _options()
"""Every rule option, described once, by name (in the order of :data:`OPTION_NAMES`)."""


def describe_option(name: str) -> str:
    """The values an option accepts, for help texts and error messages."""
    return OPTIONS[name].describe()


def option_choices(name: str) -> list[Any] | None:
    """Every value an option can take, as JSON values, when they are few (enumerated options and
    switches); None for numbers and sets (see :func:`describe_option`)."""
    return OPTIONS[name].choices()


def _coerce(name: str, value: Any) -> Any:
    """Turn a value given in text or JSON form into the option's type."""
    if name not in OPTIONS:
        known = ", ".join(OPTION_NAMES)
        raise RulesError(f"unknown option {name!r}; options are: {known}")
    return OPTIONS[name].coerce(value)


def from_mapping(options: Mapping[str, Any], base: Rules | None = None) -> Rules:
    """Rules from option values (text or JSON form), on top of ``base`` (default: ``dudo``)."""
    start = base if base is not None else PRESETS["dudo"]
    changes = {name: _coerce(name, value) for name, value in options.items()}
    return dataclasses.replace(start, **changes)


def _validate(r: Rules) -> None:
    def bad(option: str, why: str) -> RulesError:
        return RulesError(f"{option}: {why}", option)

    # Each option alone first (its type, then its range), so that a wrong type gets a message
    # instead of a comparison error; then the rules that combine options.
    for name, option in OPTIONS.items():
        why = option.problem(getattr(r, name))
        if why is not None:
            raise bad(name, why)
    if r.max_players is not None and r.max_players < r.min_players:
        raise bad("max_players", f"{r.max_players} is below min_players={r.min_players}")
    if r.wild_needs_natural and not r.aces_wild:
        raise bad(
            "wild_needs_natural", "needs aces_wild=true (aces that are not wild need no natural)"
        )
    if r.aces_wild and r.faces < 3:
        raise bad("aces_wild", f"with faces={r.faces} there is no face for a wild ace to stand for")
    if (
        r.aces_wild
        and r.raise_mode is not RaiseMode.INDEX
        and r.aces_to is AcesTo.CEIL_HALF
        and r.aces_from is AcesFrom.DOUBLE
    ):
        raise bad(
            "aces_from",
            "double with aces_to=ceil_half lets bids go round in a circle "
            "(4x6 -> 2x1 -> 4x6), so a round might never end; use double_plus_one, "
            "or aces_to=floor_half_plus_one",
        )
    if r.pass_hands and r.dice_per_player < 5:
        raise bad(
            "pass_hands", f"pass hands need five dice, but dice_per_player={r.dice_per_player}"
        )
    if PassHand.FIVE_DIFFERENT in r.pass_hands and r.faces < 5:
        raise bad("pass_hands", f"five_different needs at least five faces, but faces={r.faces}")
    if r.pass_allows_spot_on and not (r.pass_hands and r.spot_on):
        raise bad("pass_allows_spot_on", "needs both pass (pass_hands) and spot_on enabled")


_DUDO = Rules()

PRESETS: dict[str, Rules] = {
    "dudo": _DUDO,
    "dudo-legacy": dataclasses.replace(
        _DUDO,
        wild_needs_natural=True,
        raise_mode=RaiseMode.NONDECREASING,
        open_on_aces=OpenOnAces.FREE_TRANSFORM,
        spot_on_threshold=SpotOnThreshold.NONE,
        pass_hands=frozenset({PassHand.FIVE_DIFFERENT}),
        pass_allows_spot_on=True,
        oblige_face_change=ObligeFaceChange.SINGLE_DIE_VETERAN,
        oblige_visibility=ObligeVisibility.NORMAL,
    ),
    "dudo-equalize": dataclasses.replace(
        _DUDO,
        wild_needs_natural=True,
        raise_mode=RaiseMode.NONDECREASING,
        open_on_aces=OpenOnAces.FREE_TRANSFORM,
        spot_on_threshold=SpotOnThreshold.NONE,
        oblige_face_change=ObligeFaceChange.NOBODY,
        oblige_visibility=ObligeVisibility.CLOSED,
    ),
    "dudo-app": dataclasses.replace(
        _DUDO,
        raise_mode=RaiseMode.NONDECREASING,
        open_on_aces=OpenOnAces.NEVER,
        spot_on_reward=SpotOnReward.CANCEL,
        spot_on_threshold=SpotOnThreshold.NONE,
        pass_hands=frozenset(),
        oblige_min_players=3,
        oblige_face_change=ObligeFaceChange.SINGLE_DIE_VETERAN,
        oblige_visibility=ObligeVisibility.NORMAL,
    ),
    "perudo": dataclasses.replace(
        _DUDO,
        open_on_aces=OpenOnAces.NEVER,
        spot_on_threshold=SpotOnThreshold.NONE,
        spot_on_min_players=3,
        pass_hands=frozenset(),
        oblige_min_players=3,
        oblige_face_change=ObligeFaceChange.SINGLE_DIE_VETERAN,
        oblige_visibility=ObligeVisibility.NORMAL,
        seating=Seating.RANDOM,
        max_players=6,
    ),
    "cacho": dataclasses.replace(
        _DUDO,
        raise_mode=RaiseMode.NONDECREASING,
        spot_on_threshold=SpotOnThreshold.HALF_OR_SINGLE,
        spot_on_min_players=3,
        pass_min_players=3,
        oblige_min_players=3,
        oblige_face_change=ObligeFaceChange.NOBODY,
    ),
    "liars-dice": dataclasses.replace(
        _DUDO,
        raise_mode=RaiseMode.INDEX,
        aces_rank=AcesRank.LOW,
        open_on_aces=OpenOnAces.ALWAYS,
        spot_on=False,
        pass_hands=frozenset(),
        oblige=False,
        seating=Seating.RANDOM,
    ),
}

PRESET_SUMMARIES: dict[str, str] = {
    "dudo": "The default, from the encyclopedia article: any-face raises, aces wild, open on aces only with one "
    "die, spot-on while more than half the dice remain, pass on three patterns, obliging "
    "rounds where one-die players change the face and the obliger picks open or closed.",
    "dudo-legacy": "An older version of the encyclopedia article: aces count only beside a natural, neither quantity nor face may "
    "go down, an opening bid on aces frees the next bid, spot-on always, pass only on five "
    "different (spot-on allowed after it), obliging rounds where one-die veterans change the face.",
    "dudo-equalize": "Another version of the encyclopedia article: like dudo-legacy, but pass on all three patterns, no spot-on "
    "after a pass, and closed obliging rounds where nobody changes the face.",
    "dudo-app": "The dice-cup app: neither quantity nor face may go down, never "
    "open on aces, a right spot-on re-deals the round, no pass, obliging rounds only with "
    "three or more players.",
    "perudo": "Commercial Perudo: like dudo but 2-6 players, random seating, never open on "
    "aces, spot-on always (three or more players), no pass, obliging rounds with three or more.",
    "cacho": "Chilean Cacho: neither quantity nor face may go down, spot-on while half the "
    "dice remain or by a one-die player, pass and spot-on and obliging rounds with three or "
    "more players, nobody changes the face.",
    "liars-dice": "Classic Liar's Dice: bids in one fixed order (aces lowest), ones wild except "
    "on a bid of ones, open on any face, call is the only other action, no obliging rounds, "
    "random seating.",
}

DEFAULT_PRESET = "dudo"


def preset(name: str, **options: Any) -> Rules:
    """The named preset, with any options replaced (house rules)."""
    key = name.strip().lower()
    if key not in PRESETS:
        raise RulesError(f"unknown preset {name!r}; presets are: {', '.join(PRESETS)}")
    rules = PRESETS[key]
    return rules.with_options(**options) if options else rules


def rules_from_settings(name: str, settings: Iterable[str]) -> Rules:
    """The preset ``name`` with the ``OPTION=VALUE`` house rules in ``settings`` (as the
    command line gives them); a :class:`RulesError` names what is wrong."""
    options: dict[str, str] = {}
    for text in settings:
        option, value = parse_assignment(text)
        options[option] = value
    base = preset(name)
    return base.with_options(**options) if options else base


def parse_assignment(text: str) -> tuple[str, str]:
    """Split an ``OPTION=VALUE`` house-rule setting, with a clear error when malformed."""
    name, sep, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not name:
        raise RulesError(f"{text!r} is not OPTION=VALUE (for example spot_on=false)")
    if name not in OPTION_NAMES:
        raise RulesError(f"unknown option {name!r}; options are: {', '.join(OPTION_NAMES)}")
    return name, value.strip()
