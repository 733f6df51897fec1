"""docs/rules.md section 2, Counting: aces_wild and wild_needs_natural, for every preset."""

from __future__ import annotations

import pytest

from dudo.engine import Bid, DiceLost, Revealed, count_matching, preset

from .conftest import PRESET_NAMES, deal, only, play

# Which presets make aces wild, and which need a natural (docs/rules.md section 3 table).
WILD = dict.fromkeys(PRESET_NAMES, True)
NEEDS_NATURAL = {name: name in ("dudo-legacy", "dudo-equalize") for name in PRESET_NAMES}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_aces_count_for_another_face(name: str) -> None:
    # A natural 3 is on the table, so aces count for threes under every preset.
    g = deal(name, [[1, 1, 3, 5, 6], [3, 4, 4, 2, 2]])
    assert g.count(Bid(4, 3)) == 4
    events = play(g, "4x3", "call")
    reveal = only(events, Revealed)
    assert (reveal.count, reveal.wild_aces) == (4, True)
    assert only(events, DiceLost).player == 1  # at least 4: the caller loses


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_bid_on_aces_counts_aces_only(name: str) -> None:
    g = deal(name, [[1, 1, 3, 5, 6], [3, 3, 3, 3, 1]])
    assert g.count(Bid(3, 1)) == 3
    assert g.count(Bid(4, 1)) == 3


def test_aces_not_wild_count_only_for_aces() -> None:
    g = deal(preset("dudo", aces_wild=False), [[1, 1, 3, 5, 6], [3, 4, 4, 2, 2]])
    assert g.count(Bid(2, 3)) == 2
    assert g.count(Bid(2, 1)) == 2
    events = play(g, "3x3", "call")
    reveal = only(events, Revealed)
    assert (reveal.count, reveal.wild_aces) == (2, False)
    assert only(events, DiceLost).player == 0  # fewer than 3: the bidder loses


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_wild_needs_natural_without_any_natural(name: str) -> None:
    # No natural 3 anywhere: with wild_needs_natural the two aces do not count.
    g = deal(name, [[1, 1, 2, 5, 6], [4, 4, 4, 2, 2]])
    expected = 0 if NEEDS_NATURAL[name] else 2
    assert g.count(Bid(2, 3)) == expected
    events = play(g, "2x3", "call")
    assert only(events, Revealed).count == expected
    assert only(events, DiceLost).player == (0 if NEEDS_NATURAL[name] else 1)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_wild_needs_natural_looks_at_all_hands_not_per_hand(name: str) -> None:
    # The aces are in hand 0, the only natural 3 in hand 1: the aces count anyway.
    g = deal(name, [[1, 1, 2, 5, 6], [3, 4, 4, 2, 2]])
    assert g.count(Bid(3, 3)) == 3
    events = play(g, "3x3", "call")
    assert only(events, Revealed).count == 3
    assert only(events, DiceLost).player == 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_aces_bid_unaffected_by_wild_needs_natural(name: str) -> None:
    g = deal(name, [[1, 1, 2, 5, 6], [4, 4, 4, 2, 2]])
    assert g.count(Bid(2, 1)) == 2


def test_preset_counting_options() -> None:
    for name in PRESET_NAMES:
        rules = preset(name)
        assert rules.aces_wild is WILD[name]
        assert rules.wild_needs_natural is NEEDS_NATURAL[name]


@pytest.mark.parametrize(
    ("face", "wild", "needs_natural", "expected"),
    [
        (3, True, False, 4),
        (3, False, False, 2),
        (3, True, True, 4),
        (4, True, False, 2),  # no natural 4: aces still count
        (4, True, True, 0),  # no natural 4: aces do not count
        (1, True, False, 2),  # aces count aces only
        (1, True, True, 2),
    ],
)
def test_count_matching(face: int, wild: bool, needs_natural: bool, expected: int) -> None:
    hands = [(1, 3, 5), (1, 3, 6)]
    assert count_matching(hands, face, wild, needs_natural) == expected
