"""Rule options and named presets (docs/rules.md sections 2 and 3), as immutable data.

A :class:`Rules` value holds every option. Presets are plain ``Rules`` values looked
up by name; house rules are a preset with some options replaced (:meth:`Rules.with_options`).
Every constructor validates, so an impossible value or combination never reaches the engine.
"""

from __future__ import annotations

import dataclasses
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

_ENUM_OPTIONS: dict[str, type[StrEnum]] = {
    "raise_mode": RaiseMode,
    "aces_rank": AcesRank,
    "aces_to": AcesTo,
    "aces_from": AcesFrom,
    "open_on_aces": OpenOnAces,
    "loss": Loss,
    "spot_on_reward": SpotOnReward,
    "spot_on_threshold": SpotOnThreshold,
    "oblige_face_change": ObligeFaceChange,
    "oblige_visibility": ObligeVisibility,
    "seating": Seating,
    "direction": Direction,
    "next_opener": NextOpener,
}
_BOOL_OPTIONS = frozenset(
    {
        "aces_wild",
        "wild_needs_natural",
        "cruzado",
        "spot_on",
        "pass_allows_spot_on",
        "oblige",
        "reveal_reroll",
    }
)
_INT_OPTIONS = frozenset(
    {
        "spot_on_min_players",
        "pass_min_players",
        "oblige_min_players",
        "min_players",
        "faces",
        "dice_per_player",
    }
)
_TRUE_WORDS = frozenset({"true", "yes", "on", "1"})
_FALSE_WORDS = frozenset({"false", "no", "off", "0"})


def describe_option(name: str) -> str:
    """The values an option accepts, for help texts and error messages."""
    if name in _ENUM_OPTIONS:
        return " | ".join(str(v) for v in _ENUM_OPTIONS[name])
    if name in _BOOL_OPTIONS:
        return "true | false"
    if name == "pass_hands":
        return "comma-separated subset of " + ", ".join(str(v) for v in PassHand) + " (or none)"
    if name == "max_players":
        return "an integer, or none for no limit"
    if name in ("spot_on_min_players", "pass_min_players", "oblige_min_players"):
        return "2 | 3"
    if name == "faces":
        return "an integer from 2 to 6"
    if name == "dice_per_player":
        return "an integer from 1 to 5"
    return "an integer"


def option_choices(name: str) -> list[Any] | None:
    """Every value an option can take, as JSON values, when they are few (enumerated options and
    switches); None for numbers and sets (see :func:`describe_option`)."""
    if name in _ENUM_OPTIONS:
        return [str(v) for v in _ENUM_OPTIONS[name]]
    if name in _BOOL_OPTIONS:
        return [True, False]
    if name in ("spot_on_min_players", "pass_min_players", "oblige_min_players"):
        return [2, 3]
    return None


def _coerce(name: str, value: Any) -> Any:
    """Turn a value given in text or JSON form into the option's type."""
    if name not in OPTION_NAMES:
        known = ", ".join(OPTION_NAMES)
        raise RulesError(f"unknown option {name!r}; options are: {known}")
    expected = describe_option(name)
    if name in _ENUM_OPTIONS:
        try:
            return _ENUM_OPTIONS[name](str(value).strip().lower().replace("-", "_"))
        except ValueError:
            raise RulesError(f"{name}={value!r} is not valid; use {expected}", name) from None
    if name in _BOOL_OPTIONS:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE_WORDS:
            return True
        if text in _FALSE_WORDS:
            return False
        raise RulesError(f"{name}={value!r} is not valid; use {expected}", name)
    if name in _INT_OPTIONS or name == "max_players":
        if name == "max_players" and (value is None or str(value).strip().lower() == "none"):
            return None
        if isinstance(value, bool):
            raise RulesError(f"{name}={value!r} is not valid; use {expected}", name)
        try:
            return int(str(value).strip()) if not isinstance(value, int) else value
        except ValueError:
            raise RulesError(f"{name}={value!r} is not valid; use {expected}", name) from None
    if name == "pass_hands":
        if isinstance(value, str):
            text = value.strip().lower()
            items = [] if text in ("", "none", "no", "off") else text.split(",")
        elif isinstance(value, (list, tuple, set, frozenset)):
            items = list(value)
        else:
            raise RulesError(f"{name}={value!r} is not valid; use {expected}", name)
        hands = set()
        for item in items:
            try:
                hands.add(PassHand(str(item).strip().lower().replace("-", "_")))
            except ValueError:
                raise RulesError(
                    f"{name}: {str(item).strip()!r} is not a pass hand; use {expected}", name
                ) from None
        return frozenset(hands)
    raise AssertionError(name)  # pragma: no cover - every option is handled above


def from_mapping(options: Mapping[str, Any], base: Rules | None = None) -> Rules:
    """Rules from option values (text or JSON form), on top of ``base`` (default: ``dudo``)."""
    start = base if base is not None else PRESETS["dudo"]
    changes = {name: _coerce(name, value) for name, value in options.items()}
    return dataclasses.replace(start, **changes)


def _validate(r: Rules) -> None:
    def bad(option: str, why: str) -> RulesError:
        return RulesError(f"{option}: {why}", option)

    # Types first, so that a wrong type gets a message instead of a comparison error.
    for name in OPTION_NAMES:
        value = getattr(r, name)
        if name in _ENUM_OPTIONS and not isinstance(value, _ENUM_OPTIONS[name]):
            raise bad(name, f"{value!r} is not valid; use {describe_option(name)}")
        if name in _BOOL_OPTIONS and not isinstance(value, bool):
            raise bad(name, f"{value!r} is not valid; use true | false")
        if name in _INT_OPTIONS and (isinstance(value, bool) or not isinstance(value, int)):
            raise bad(name, f"{value!r} is not an integer")
    if not isinstance(r.pass_hands, frozenset) or not all(
        isinstance(h, PassHand) for h in r.pass_hands
    ):
        raise bad("pass_hands", f"{r.pass_hands!r} is not a set of pass hands")
    if r.max_players is not None and (
        isinstance(r.max_players, bool) or not isinstance(r.max_players, int)
    ):
        raise bad("max_players", f"{r.max_players!r} is not an integer or none")

    if not 2 <= r.faces <= 6:
        raise bad("faces", f"{r.faces} is outside 2..6 (a die has at most six faces)")
    if not 1 <= r.dice_per_player <= 5:
        raise bad(
            "dice_per_player", f"{r.dice_per_player} is outside 1..5 (a hand holds at most 5)"
        )
    if r.min_players < 2:
        raise bad("min_players", f"{r.min_players} is below 2: Dudo needs two or more players")
    if r.max_players is not None and r.max_players < r.min_players:
        raise bad("max_players", f"{r.max_players} is below min_players={r.min_players}")
    for name in ("spot_on_min_players", "pass_min_players", "oblige_min_players"):
        if getattr(r, name) not in (2, 3):
            raise bad(name, f"{getattr(r, name)} is not 2 or 3")
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
