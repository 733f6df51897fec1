"""docs/rules.md section 2 and 3: invalid option values and impossible combinations are rejected
with a message that names the option."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from dudo.engine import PRESETS, DudoError, Rules, RulesError, preset
from dudo.engine.rules import from_mapping

from .conftest import PRESET_NAMES

BAD: list[tuple[dict[str, Any], str]] = [
    # unknown option
    ({"bogus": 1}, "bogus"),
    ({"aces": "wild"}, "aces"),
    # bad enum values
    ({"raise_mode": "upward"}, "raise_mode"),
    ({"aces_rank": "middle"}, "aces_rank"),
    ({"aces_to": "half"}, "aces_to"),
    ({"aces_from": "triple"}, "aces_from"),
    ({"open_on_aces": "sometimes"}, "open_on_aces"),
    ({"loss": "everything"}, "loss"),
    ({"spot_on_reward": "cash"}, "spot_on_reward"),
    ({"spot_on_threshold": "third"}, "spot_on_threshold"),
    ({"oblige_face_change": "anyone"}, "oblige_face_change"),
    ({"oblige_visibility": "glass"}, "oblige_visibility"),
    ({"seating": "alphabetical"}, "seating"),
    ({"direction": "up"}, "direction"),
    ({"next_opener": "caller"}, "next_opener"),
    # bad booleans, integers and sets
    ({"cruzado": "maybe"}, "cruzado"),
    ({"aces_wild": "2"}, "aces_wild"),
    ({"faces": "six"}, "faces"),
    ({"faces": True}, "faces"),
    ({"min_players": "two"}, "min_players"),
    ({"max_players": "many"}, "max_players"),
    ({"pass_hands": "straight"}, "pass_hands"),
    ({"pass_hands": 5}, "pass_hands"),
    # out of range
    ({"dice_per_player": 6}, "dice_per_player"),
    ({"dice_per_player": 0}, "dice_per_player"),
    ({"faces": 7}, "faces"),
    ({"faces": 1}, "faces"),
    ({"min_players": 1}, "min_players"),
    ({"max_players": 1}, "max_players"),
    ({"min_players": 4, "max_players": 3}, "max_players"),
    ({"spot_on_min_players": 4}, "spot_on_min_players"),
    ({"pass_min_players": 1}, "pass_min_players"),
    ({"oblige_min_players": 5}, "oblige_min_players"),
    # impossible combinations
    ({"aces_wild": False, "wild_needs_natural": True}, "wild_needs_natural"),
    ({"aces_from": "double"}, "aces_from"),  # with ceil_half bids could go round forever
    ({"pass_hands": "none", "pass_allows_spot_on": True}, "pass_allows_spot_on"),
    ({"spot_on": False, "pass_allows_spot_on": True}, "pass_allows_spot_on"),
    ({"dice_per_player": 4}, "pass_hands"),  # pass patterns need five dice
    ({"faces": 4}, "pass_hands"),  # five different faces need five faces
    ({"faces": 2, "pass_hands": "none"}, "aces_wild"),  # a wild ace must stand for a face
]


def ids(case: tuple[dict[str, Any], str]) -> str:
    return ",".join(f"{k}={v}" for k, v in case[0].items())


@pytest.mark.parametrize("case", BAD, ids=[ids(c) for c in BAD])
def test_invalid_options_are_rejected_naming_the_option(case: tuple[dict[str, Any], str]) -> None:
    options, option = case
    builds: list[Callable[[], Rules]] = [
        lambda: preset("dudo", **options),
        lambda: PRESETS["dudo"].with_options(**options),
        lambda: from_mapping(options),
    ]
    for build in builds:
        with pytest.raises(RulesError) as info:
            build()
        assert option in str(info.value)


def test_rules_errors_are_value_errors() -> None:
    assert issubclass(RulesError, DudoError)
    assert issubclass(RulesError, ValueError)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("faces", 7),
        ("dice_per_player", 6),
        ("min_players", 1),
        ("raise_mode", "sideways"),
        ("cruzado", "yes"),
        ("spot_on_min_players", 4),
    ],
)
def test_direct_construction_is_validated(field: str, value: Any) -> None:
    with pytest.raises(RulesError, match=field):
        Rules(**{field: value})


def test_wild_needs_natural_without_aces_wild_on_a_preset_that_needs_naturals() -> None:
    with pytest.raises(RulesError, match="wild_needs_natural"):
        preset("dudo-legacy", aces_wild=False)
    with pytest.raises(RulesError, match="wild_needs_natural"):
        dataclasses.replace(PRESETS["dudo-equalize"], aces_wild=False)


def test_perudo_min_players_above_its_maximum() -> None:
    with pytest.raises(RulesError, match="max_players"):
        preset("perudo", min_players=7)


@pytest.mark.parametrize(
    "options",
    [
        {"aces_to": "floor_half_plus_one", "aces_from": "double"},
        {"aces_wild": False},
        {"faces": 4, "pass_hands": "five_kind,full_house"},
        {"dice_per_player": 1, "pass_hands": "none"},
        {"faces": 3, "pass_hands": "none"},
        {"min_players": 3, "max_players": 3},
        {"spot_on_min_players": 3, "pass_min_players": 3, "oblige_min_players": 3},
    ],
)
def test_valid_combinations_are_accepted(options: dict[str, Any]) -> None:
    preset("dudo", **options)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_is_valid(name: str) -> None:
    rules = preset(name)
    assert dataclasses.replace(rules) == rules
