"""``dudo.odds``: the learner's odds call against brute force (every roll of the unknown
dice, counted by the engine, or settled by the engine's own call)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dudo.engine import CALL, OPEN, Bid, DudoError, Game, Revealed, Rules, count_matching, preset
from dudo.odds import EVEN, bid_odds, format_chance, safest_bids, view_odds

RULES = (
    preset("dudo"),  # aces wild
    preset("dudo-legacy"),  # aces wild only beside a natural
    preset("dudo").with_options(aces_wild=False),
    preset("dudo").with_options(faces=4, pass_hands=[]),
    preset("dudo-legacy").with_options(faces=3, pass_hands=[], pass_allows_spot_on=False),
)


def distribution(
    face: int, known: Sequence[int], unknown: int, rules: Rules, obliging: bool
) -> list[Fraction]:
    """P(count == k) over every roll of the unknown dice, counted by the engine."""
    wild = rules.aces_wild and not obliging  # docs/rules.md: aces are never wild while obliging
    counts: list[int] = [0] * (len(known) + unknown + 1)
    for roll in itertools.product(range(1, rules.faces + 1), repeat=unknown):
        counts[count_matching([known, roll], face, wild, rules.wild_needs_natural)] += 1
    total = rules.faces**unknown
    return [Fraction(n, total) for n in counts]


@st.composite
def cases(draw: st.DrawFn) -> tuple[Rules, list[int], list[int], int, bool, Bid]:
    rules = draw(st.sampled_from(RULES))
    die = st.integers(1, rules.faces)
    dice = draw(st.lists(die, max_size=3))
    revealed = draw(st.lists(die, max_size=2))
    unknown = draw(st.integers(0, 3))
    obliging = draw(st.booleans())
    total = len(dice) + len(revealed) + unknown
    bid = Bid(draw(st.integers(1, total + 1)), draw(st.integers(1, rules.faces)))
    return rules, dice, revealed, unknown, obliging, bid


@settings(max_examples=150, deadline=None)
@given(cases())
def test_bid_odds_match_brute_force(
    case: tuple[Rules, list[int], list[int], int, bool, Bid],
) -> None:
    rules, dice, revealed, unknown, obliging, bid = case
    odds = bid_odds(rules, dice, unknown, revealed=revealed, obliging=obliging, bid=bid)
    known = dice + revealed
    for face in range(1, rules.faces + 1):
        dist = distribution(face, known, unknown, rules, obliging)
        assert list(odds.distributions[face]) == dist
        assert odds.expected[face] == sum(k * p for k, p in enumerate(dist))
    dist = distribution(bid.face, known, unknown, rules, obliging)
    assert odds.probability == sum(dist[bid.quantity :])
    assert odds.spot_on == (dist[bid.quantity] if bid.quantity < len(dist) else 0)
    assert odds.probability_float == pytest.approx(float(sum(dist[bid.quantity :])))
    assert odds.distribution == odds.distributions[bid.face]
    # The same knowledge given as the other players' dice counts.
    others = [unknown + len(revealed)]
    same = bid_odds(rules, dice, others=others, revealed=revealed, obliging=obliging, bid=bid)
    assert same == odds


def settle(rules: Rules, hands: Sequence[Sequence[int]], bid: Bid, **kw: object) -> int:
    """The engine's count when seat 0 bids ``bid`` on ``hands`` and seat 1 calls."""
    game = Game.with_hands(rules, hands, **kw)  # type: ignore[arg-type]
    game.push(bid)
    game.push(CALL)
    (reveal,) = [e for e in game.events if isinstance(e, Revealed)]
    assert reveal.count is not None
    return reveal.count


@pytest.mark.parametrize(
    ("rules", "mine", "bid", "kw"),
    [
        (preset("dudo-legacy"), (1, 1, 2), Bid(3, 5), {}),  # aces need a natural queen
        (preset("dudo"), (1, 1, 2), Bid(3, 5), {}),
        (preset("dudo-legacy"), (1,), Bid(2, 4), {"obliger": 0}),  # obliging: aces not wild
    ],
)
def test_view_odds_match_the_engines_calls(
    rules: Rules, mine: tuple[int, ...], bid: Bid, kw: dict[str, object]
) -> None:
    # Seat 1 holds two dice seat 0 cannot see: settle the bid for every roll of them.
    faces = range(1, rules.faces + 1)
    counts = [settle(rules, [mine, roll], bid, **kw) for roll in itertools.product(faces, faces)]
    true = Fraction(sum(c >= bid.quantity for c in counts), len(counts))
    exact = Fraction(sum(c == bid.quantity for c in counts), len(counts))
    view = Game.with_hands(rules, [mine, (2, 2)], **kw).view(0)  # type: ignore[arg-type]
    odds = view_odds(view, bid)
    assert (odds.probability, odds.spot_on) == (true, exact)
    assert odds.unknown == 2 and odds.known == mine


def test_open_obliging_round_counts_the_hands_you_see() -> None:
    rules = preset("dudo").with_options(oblige_visibility="obliger_chooses")
    game = Game.with_hands(rules, [(4,), (1, 4, 4), (3, 3)], obliger=0)
    assert OPEN in game.view(0).legal_actions  # the obliger chooses an open round
    game.push(OPEN)
    view = game.view(0)
    assert view.obliging and view.my_dice is None
    odds = view_odds(view, Bid(3, 4))
    # Seat 0 sees both other hands, not their own die: aces are not wild, two quads seen.
    assert odds.known == (1, 4, 4, 3, 3) and odds.unknown == 1
    assert odds.probability == Fraction(1, 6)
    # The same by hand: no dice of your own seen, your one die unknown.
    same = bid_odds(rules, [], 1, revealed=[1, 4, 4, 3, 3], obliging=True, bid=Bid(3, 4))
    assert same == odds


def test_safest_bids_are_legal_and_ranked() -> None:
    game = Game.with_hands(preset("dudo"), [(1, 3, 3, 5, 6), (2, 2, 4, 4, 6)], opener=1)
    game.push(Bid(2, 4))
    view = game.view(0)
    safest = safest_bids(view, 4)
    assert len(safest) == 4
    odds = view_odds(view)
    legal = [a for a in view.legal_actions if isinstance(a, Bid)]
    best = max(odds.at_least(b) for b in legal)
    assert safest[0][1] == best
    assert [p for _, p in safest] == sorted((p for _, p in safest), reverse=True)
    for bid, p in safest:
        assert bid in legal and p == odds.at_least(bid)
    assert safest_bids(game.view(1)) == []  # not seat 1's turn: no bids


def test_likeliest_bid_is_the_highest_even_one() -> None:
    odds = bid_odds(preset("dudo"), [1, 3, 3, 5, 6], 20)
    assert odds.probability is None and odds.spot_on is None
    found = odds.likeliest(3)
    assert found is not None
    bid, chance = found
    assert chance == odds.at_least(bid) >= EVEN > odds.at_least(Bid(bid.quantity + 1, 3))
    assert bid_odds(preset("dudo"), [2], 0).likeliest(3) is None
    with pytest.raises(DudoError, match="no bid given"):
        _ = odds.distribution


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"dice": [0], "unknown": 1}, "dice: a die shows 0"),
        ({"dice": [True], "unknown": 1}, "dice: a die shows True"),
        ({"dice": [], "unknown": 1, "revealed": [7]}, "revealed: a die shows 7"),
        ({"dice": [1] * 6, "unknown": 1}, "a hand holds at most 5"),
        ({"dice": [], "unknown": -1}, "unknown: -1 is negative"),
        ({"dice": [], "unknown": 1, "others": [1]}, "give either"),
        ({"dice": [], "others": [-1]}, "others: -1 is negative"),
        ({"dice": [], "others": [1], "revealed": [2, 2]}, "the other players hold only 1"),
        ({"dice": [], "unknown": 1, "bid": Bid(0, 3)}, "at least one die"),
        ({"dice": [], "unknown": 1, "bid": Bid(1, 7)}, "there is no face 7"),
    ],
)
def test_bad_input_raises_a_clear_error(kw: dict[str, object], message: str) -> None:
    with pytest.raises(DudoError, match=message):
        bid_odds(preset("dudo"), **kw)  # type: ignore[arg-type]
    with pytest.raises(DudoError, match="no obliging rounds"):
        bid_odds(preset("liars-dice"), [], 1, obliging=True)


def test_format_chance() -> None:
    assert format_chance(Fraction(0)) == "0%"
    assert format_chance(Fraction(1)) == "100%"
    assert format_chance(Fraction(1, 3)) == "33.3%"
    assert format_chance(Fraction(1, 6**5)) == "<0.1%"
    assert format_chance(1 - Fraction(1, 6**5)) == ">99.9%"
