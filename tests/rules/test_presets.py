"""docs/rules.md section 3: the seven presets, exactly as the table says, and house rules on top."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dudo.engine import (
    DEFAULT_PRESET,
    OPTION_NAMES,
    PRESET_SUMMARIES,
    PRESETS,
    DudoError,
    Game,
    RandomChance,
    Rules,
    RulesError,
    preset,
)
from dudo.engine.rules import from_mapping, option_choices, parse_assignment

from .conftest import PRESET_NAMES

ALL_PASS = ["five_different", "five_kind", "full_house"]

# Variants off by default in every preset (docs/rules.md section 3, below the table), and the
# research options every preset leaves at their defaults.
OFF: dict[str, Any] = {
    "loss": "one",
    "cruzado": False,
    "reveal_reroll": False,
    "direction": "clockwise",
    "next_opener": "loser",
    "faces": 6,
    "dice_per_player": 5,
    "min_players": 2,
}
ACES = {"aces_to": "ceil_half", "aces_from": "double_plus_one"}

# The docs/rules.md section 3 table, as data: every option the table fixes for each preset.
TABLE: dict[str, dict[str, Any]] = {
    "dudo": {
        "aces_wild": True,
        "wild_needs_natural": False,
        "raise_mode": "any_face",
        **ACES,
        "open_on_aces": "one_die_only",
        "spot_on": True,
        "spot_on_reward": "gain",
        "spot_on_threshold": "more_than_half",
        "spot_on_min_players": 2,
        "pass_hands": ALL_PASS,
        "pass_allows_spot_on": False,
        "pass_min_players": 2,
        "oblige": True,
        "oblige_min_players": 2,
        "oblige_face_change": "single_die",
        "oblige_visibility": "obliger_chooses",
        "seating": "roll",
        "max_players": None,
    },
    "dudo-legacy": {
        "aces_wild": True,
        "wild_needs_natural": True,
        "raise_mode": "nondecreasing",
        **ACES,
        "open_on_aces": "free_transform",
        "spot_on": True,
        "spot_on_reward": "gain",
        "spot_on_threshold": "none",
        "spot_on_min_players": 2,
        "pass_hands": ["five_different"],
        "pass_allows_spot_on": True,
        "pass_min_players": 2,
        "oblige": True,
        "oblige_min_players": 2,
        "oblige_face_change": "single_die_veteran",
        "oblige_visibility": "normal",
        "seating": "roll",
        "max_players": None,
    },
    "dudo-equalize": {
        "aces_wild": True,
        "wild_needs_natural": True,
        "raise_mode": "nondecreasing",
        **ACES,
        "open_on_aces": "free_transform",
        "spot_on": True,
        "spot_on_reward": "gain",
        "spot_on_threshold": "none",
        "spot_on_min_players": 2,
        "pass_hands": ALL_PASS,
        "pass_allows_spot_on": False,
        "pass_min_players": 2,
        "oblige": True,
        "oblige_min_players": 2,
        "oblige_face_change": "nobody",
        "oblige_visibility": "closed",
        "seating": "roll",
        "max_players": None,
    },
    "dudo-app": {
        "aces_wild": True,
        "wild_needs_natural": False,
        "raise_mode": "nondecreasing",
        **ACES,
        "open_on_aces": "never",
        "spot_on": True,
        "spot_on_reward": "cancel",
        "spot_on_threshold": "none",
        "spot_on_min_players": 2,
        "pass_hands": [],
        "pass_allows_spot_on": False,
        "oblige": True,
        "oblige_min_players": 3,
        "oblige_face_change": "single_die_veteran",
        "oblige_visibility": "normal",
        "seating": "roll",
        "max_players": None,
    },
    "perudo": {
        "aces_wild": True,
        "wild_needs_natural": False,
        "raise_mode": "any_face",
        **ACES,
        "open_on_aces": "never",
        "spot_on": True,
        "spot_on_reward": "gain",
        "spot_on_threshold": "none",
        "spot_on_min_players": 3,
        "pass_hands": [],
        "pass_allows_spot_on": False,
        "oblige": True,
        "oblige_min_players": 3,
        "oblige_face_change": "single_die_veteran",
        "oblige_visibility": "normal",
        "seating": "random",
        "max_players": 6,
    },
    "cacho": {
        "aces_wild": True,
        "wild_needs_natural": False,
        "raise_mode": "nondecreasing",
        **ACES,
        "open_on_aces": "one_die_only",
        "spot_on": True,
        "spot_on_reward": "gain",
        "spot_on_threshold": "half_or_single",
        "spot_on_min_players": 3,
        "pass_hands": ALL_PASS,
        "pass_allows_spot_on": False,
        "pass_min_players": 3,
        "oblige": True,
        "oblige_min_players": 3,
        "oblige_face_change": "nobody",
        "oblige_visibility": "obliger_chooses",
        "seating": "roll",
        "max_players": None,
    },
    "liars-dice": {
        "aces_wild": True,
        "wild_needs_natural": False,
        "raise_mode": "index",
        "aces_rank": "low",
        "open_on_aces": "always",
        "spot_on": False,
        "pass_hands": [],
        "pass_allows_spot_on": False,
        "oblige": False,
        "seating": "random",
        "max_players": None,
    },
}

VARIANTS: list[tuple[str, Any, Any]] = [
    # (option, value as text, value as read back)
    ("loss", "difference", "difference"),
    ("cruzado", "true", True),
    ("reveal_reroll", "yes", True),
    ("direction", "counterclockwise", "counterclockwise"),
    ("next_opener", "winner", "winner"),
]


def test_the_seven_presets() -> None:
    assert set(PRESETS) == set(PRESET_NAMES)
    assert set(PRESET_SUMMARIES) == set(PRESET_NAMES)
    assert all(PRESET_SUMMARIES[n].strip() for n in PRESET_NAMES)
    assert DEFAULT_PRESET == "dudo"
    assert Rules() == PRESETS["dudo"]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_matches_the_table(name: str) -> None:
    options = preset(name).to_dict()
    expected = {**OFF, **TABLE[name]}
    assert {k: options[k] for k in expected} == expected


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_lookup(name: str) -> None:
    assert preset(name) is PRESETS[name]


def test_unknown_preset_is_rejected() -> None:
    with pytest.raises(RulesError, match="bluff"):
        preset("bluff")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_perudo_takes_two_to_six_players(players: int) -> None:
    g = Game(preset("perudo"), players, chance=RandomChance(1))
    assert len(g.order) == players


@pytest.mark.parametrize(("players", "option"), [(1, "min_players"), (7, "max_players")])
def test_perudo_rejects_other_player_counts(players: int, option: str) -> None:
    with pytest.raises(DudoError, match=option):
        Game(preset("perudo"), players, chance=RandomChance(1))


@pytest.mark.parametrize("name", [n for n in PRESET_NAMES if n != "perudo"])
def test_other_presets_take_two_or_more_players(name: str) -> None:
    for players in (2, 7, 9):
        g = Game(preset(name), players, chance=RandomChance(1))
        assert sorted(g.order) == list(range(players))
    with pytest.raises(DudoError, match="min_players"):
        Game(preset(name), 1, chance=RandomChance(1))


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(("option", "text", "value"), VARIANTS)
def test_every_variant_can_be_switched_on(name: str, option: str, text: str, value: Any) -> None:
    base = preset(name)
    for rules in (
        preset(name, **{option: text}),
        base.with_options(**{option: text}),
        from_mapping({option: text}, base=base),
    ):
        assert rules.to_dict()[option] == value
        assert set(rules.differences(base)) == {option}


@pytest.mark.parametrize(
    ("name", "options", "option", "value"),
    [
        ("perudo", {"max_players": "none"}, "max_players", None),
        ("perudo", {"max_players": 8}, "max_players", 8),
        ("cacho", {"pass_hands": "five_kind"}, "pass_hands", ["five_kind"]),
        ("dudo", {"pass_hands": "none"}, "pass_hands", []),
        ("dudo", {"spot_on": "off"}, "spot_on", False),
        ("dudo-app", {"open_on_aces": "free-transform"}, "open_on_aces", "free_transform"),
        ("liars-dice", {"aces_rank": "high"}, "aces_rank", "high"),
        ("liars-dice", {"oblige": True}, "oblige", True),
        ("dudo", {"faces": "4", "pass_hands": "none"}, "faces", 4),
    ],
)
def test_any_option_can_be_overridden(
    name: str, options: dict[str, Any], option: str, value: Any
) -> None:
    assert preset(name, **options).to_dict()[option] == value


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_full_option_set_round_trips(name: str) -> None:
    rules = preset(name)
    stored = rules.to_dict()
    assert set(stored) == set(OPTION_NAMES)
    assert from_mapping(json.loads(json.dumps(stored))) == rules


def test_parse_assignment() -> None:
    assert parse_assignment("spot_on=false") == ("spot_on", "false")
    assert parse_assignment("next-opener = winner") == ("next_opener", "winner")
    with pytest.raises(RulesError, match="OPTION=VALUE"):
        parse_assignment("spot_on")
    with pytest.raises(RulesError, match="unknown option 'bogus'"):
        parse_assignment("bogus=1")


# --- the rules page's own table ------------------------------------------------------------

RULES_PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def shown(value: Any) -> str:
    """An option value as docs/rules.md writes it in the section 3 table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(value) if value else "none"
    return str(value)


def page_table() -> tuple[list[str], dict[str, dict[str, str]]]:
    """The presets heading the section 3 table, and each option row, cell by preset."""
    lines = RULES_PAGE.read_text(encoding="utf-8").splitlines()
    header = next(line for line in lines if line.startswith("| option |"))
    names = [cell.strip().strip("`") for cell in header.strip("|").split("|")][1:]
    rows: dict[str, dict[str, str]] = {}
    for line in lines:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        option = cells[0].strip("`")
        if option in OPTION_NAMES and len(cells) == len(names) + 1:
            rows[option] = dict(zip(names, cells[1:], strict=True))
    return names, rows


def test_the_rules_page_table_shows_every_option_of_every_preset() -> None:
    names, rows = page_table()
    assert names == list(PRESETS)
    assert list(rows) == list(OPTION_NAMES)
    for name, rules in PRESETS.items():
        for option, value in rules.to_dict().items():
            assert rows[option][name] == shown(value), (name, option)


def test_the_rules_page_names_every_option_and_value() -> None:
    text = RULES_PAGE.read_text(encoding="utf-8")
    for option in OPTION_NAMES:
        assert f"`{option}`" in text, option
        for value in option_choices(option) or ():
            if isinstance(value, str):
                assert f"`{value}`" in text, (option, value)
    for hand in ALL_PASS:
        assert f"`{hand}`" in text, hand
