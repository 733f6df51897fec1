"""Computer players: legality in full games, exact odds, decisions, strength and speed."""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dudo.bots import (
    BOT_NAMES,
    LEVELS,
    METHODS,
    SPARRING_BOTS,
    Bot,
    Method,
    OutOfTurnCaller,
    ProbabilityBot,
    RandomBot,
    build,
    make_adviser,
    make_bot,
    out_of_turn_call,
)
from dudo.bots.inferring import InferringBot
from dudo.bots.probability import pass_credibility
from dudo.engine import (
    CALL,
    CLOSED,
    DOUBT_PASS,
    OPEN,
    PASS,
    PRESETS,
    SPOT_ON,
    Bid,
    Call,
    DudoError,
    Game,
    Passed,
    PlayerView,
    RevealBid,
    Revealed,
    RoundStarted,
    Rules,
    count_matching,
    preset,
)
from dudo.probability import (
    Counting,
    Odds,
    bid_probability,
    bid_probability_exact,
    count_distribution,
    counting_for,
    exactly_probability,
    exactly_probability_exact,
    probability_at_least,
    view_bid_probability,
    view_exactly_probability,
)

# --- driving games -------------------------------------------------------------------------------


def play(rules: Rules, bots: Sequence[Bot], seed: int, max_actions: int = 20_000) -> Game:
    """Play a whole game between ``bots`` (seat i plays bots[i]), checking every choice is legal.

    Under cruzado, before each move the seats not to move are polled in seat order for an
    out-of-turn call.
    """
    g = Game(rules, len(bots), seed=seed)
    for _ in range(max_actions):
        if g.is_over:
            return g
        if rules.cruzado and g.bid is not None:
            caller = _out_of_turn(g, bots)
            if caller is not None:
                continue
        view = g.view(g.to_move)
        action = bots[g.to_move].choose(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        g.push(action)
    raise AssertionError(f"game not over after {max_actions} actions: {g!r}")


def _out_of_turn(g: Game, bots: Sequence[Bot]) -> int | None:
    for seat, bot in enumerate(bots):
        if seat == g.to_move:
            continue
        view = g.view(seat)
        call = out_of_turn_call(bot, view)
        if call is None:
            continue
        assert call in view.legal_actions
        assert bot.choose(view) == call  # the only legal action of a seat not to move
        g.push(call)
        return seat
    return None


def bots_for(names: Sequence[str], seed: int) -> list[Bot]:
    return [make_bot(name, random.Random(seed * 100 + i)) for i, name in enumerate(names)]


PRESET_NAMES = tuple(PRESETS)
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"cruzado": True},
    {"reveal_reroll": True},
    {"loss": "difference"},
    {"cruzado": True, "reveal_reroll": True, "loss": "difference", "direction": "counterclockwise"},
    {"next_opener": "winner", "oblige_visibility": "obliger_chooses"},
)


def _players(rules: Rules, n: int) -> int:
    return min(n, rules.max_players) if rules.max_players is not None else n


# --- bots always play legal actions --------------------------------------------------------------


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_random_full_games_are_legal(name: str, variant: int) -> None:
    rules = preset(name, **VARIANTS[variant])
    # 2..8 players over the variants of each preset, heads-up in every one.
    for players in (2, 3 + variant % 3, 6 + variant % 3):
        n = _players(rules, players)
        seed = 1000 * variant + players
        names = ["random", "easy"] * 4
        random.Random(seed).shuffle(names)
        g = play(rules, bots_for(names[:n], seed), seed)
        assert g.winner is not None


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_easy_bots_only_full_games_are_legal(name: str) -> None:
    for variant, players in ((0, 2), (1, 5), (2, 3), (4, 6)):
        rules = preset(name, **VARIANTS[variant])
        n = _players(rules, players)
        g = play(rules, bots_for(["easy"] * n, players), seed=players)
        assert g.winner is not None


@pytest.mark.parametrize(
    "options",
    [
        {"faces": 4, "pass_hands": "full_house,five_kind"},
        {"faces": 3, "dice_per_player": 2, "pass_hands": "none"},
        {"aces_wild": False, "wild_needs_natural": False},
        {"open_on_aces": "always", "aces_to": "floor_half_plus_one", "aces_from": "double"},
        {"oblige_visibility": "closed", "oblige_face_change": "single_die_veteran"},
        {"spot_on_reward": "cancel", "pass_allows_spot_on": True, "spot_on_threshold": "none"},
    ],
)
def test_house_rules_full_games_are_legal(options: dict[str, Any]) -> None:
    rules = preset("dudo", **options)
    for players in (2, 3, 6):
        for names in (["easy"] * players, ["random", "easy"] * 3):
            g = play(rules, bots_for(names[:players], players), seed=players)
            assert g.winner is not None


def test_liars_dice_research_games_are_legal() -> None:
    for options in (
        {"aces_rank": "high", "dice_per_player": 1, "faces": 6},
        {"dice_per_player": 2, "faces": 4},
    ):
        rules = preset("liars-dice", **options)
        for seed in range(20):
            g = play(rules, bots_for(["easy", "random"], seed), seed)
            assert g.winner is not None


def test_bots_are_deterministic_given_their_seeds() -> None:
    rules = preset("dudo", cruzado=True, reveal_reroll=True)
    first = play(rules, bots_for(["easy", "random", "easy", "random"], 7), seed=7)
    again = play(rules, bots_for(["easy", "random", "easy", "random"], 7), seed=7)
    assert first.history == again.history


# --- the registry --------------------------------------------------------------------------------


def test_make_bot_names_and_aliases() -> None:
    rng = random.Random(0)
    assert BOT_NAMES == ("random", "easy", "medium", "hard")
    assert isinstance(make_bot("random", rng), RandomBot)
    assert isinstance(make_bot("easy", rng), ProbabilityBot)
    assert isinstance(make_bot(" Probability ", rng), ProbabilityBot)
    for name in BOT_NAMES:
        bot = make_bot(name, rng)
        assert bot.name == name
        assert isinstance(bot, OutOfTurnCaller)


def test_bots_are_named_by_method_and_levels_keep_their_names() -> None:
    """A bot class calls itself by how it plays; a bot built for a level (or a sparring
    style) carries that name, which results, records and seats show."""
    for method, where in METHODS.items():
        module, _, attribute = where.partition(":")
        assert module.startswith("dudo.bots.")
        bot = build(Method(method), random.Random(0))
        assert type(bot).__name__ == attribute and bot.name == method
    for name in (*BOT_NAMES, *SPARRING_BOTS):
        assert make_bot(name, random.Random(0)).name == name
        assert make_adviser(name, random.Random(0)).name == name
    assert make_bot("solver", random.Random(0)).name == "hard"
    assert {m.name for m in LEVELS.values()} == {"random", "probability", "inferring", "book"}


def test_make_bot_unknown_name_lists_the_bots() -> None:
    listed = r"unknown bot 'expert'.*random, easy, medium, hard.*probability"
    with pytest.raises(DudoError, match=listed):
        make_bot("expert", random.Random(0))


def test_choose_without_legal_actions_is_an_error() -> None:
    g = Game.with_hands(preset("dudo"), [[2, 3, 4, 5, 6], [2, 3, 4, 5, 6]])
    view = g.view(1)  # not to move, no cruzado: nothing to do
    assert view.legal_actions == ()
    for name in BOT_NAMES:
        with pytest.raises(DudoError, match="no legal action"):
            make_bot(name, random.Random(0)).choose(view)


# --- odds against brute force --------------------------------------------------------------------


def brute_force(
    bid: Bid, known: Sequence[int], unknown: int, counting: Counting
) -> tuple[Fraction, Fraction]:
    """(P(true), P(exactly right)) by enumerating every roll of the unknown dice."""
    true = exact = 0
    outcomes = 0
    for roll in itertools.product(range(1, counting.faces + 1), repeat=unknown):
        count = count_matching(
            [known, roll], bid.face, counting.wild, counting.wild and counting.needs_natural
        )
        outcomes += 1
        true += count >= bid.quantity
        exact += count == bid.quantity
    return Fraction(true, outcomes), Fraction(exact, outcomes)


COUNTINGS = (
    Counting(wild=True, needs_natural=False, faces=6),
    Counting(wild=True, needs_natural=True, faces=6),
    Counting(wild=False, needs_natural=False, faces=6),
    Counting(wild=True, needs_natural=True, faces=4),
    Counting(wild=True, needs_natural=False, faces=4),
    Counting(wild=False, needs_natural=False, faces=4),
    Counting(wild=True, needs_natural=True, faces=3),
    Counting(wild=False, needs_natural=False, faces=2),
)


@st.composite
def odds_cases(draw: st.DrawFn) -> tuple[Bid, list[int], int, Counting]:
    counting = draw(st.sampled_from(COUNTINGS))
    faces = counting.faces
    known = draw(st.lists(st.integers(1, faces), max_size=6))
    unknown = draw(st.integers(0, 4))
    bid = Bid(draw(st.integers(0, len(known) + unknown + 1)), draw(st.integers(1, faces)))
    return bid, known, unknown, counting


def _kw(counting: Counting) -> dict[str, Any]:
    return {"wild": counting.wild, "needs_natural": counting.needs_natural, "faces": counting.faces}


@settings(max_examples=200, deadline=None)
@given(odds_cases())
def test_odds_match_brute_force(case: tuple[Bid, list[int], int, Counting]) -> None:
    bid, known, unknown, counting = case
    true, exact = brute_force(bid, known, unknown, counting)
    kw = _kw(counting)
    assert bid_probability_exact(bid, known, unknown, **kw) == true
    assert exactly_probability_exact(bid, known, unknown, **kw) == exact
    assert bid_probability(bid, known, unknown, **kw) == pytest.approx(float(true), abs=1e-12)
    assert exactly_probability(bid, known, unknown, **kw) == pytest.approx(float(exact), abs=1e-12)
    odds = Odds(known, unknown, counting)
    assert odds.at_least(bid) == pytest.approx(float(true), abs=1e-12)
    assert odds.exactly(bid) == pytest.approx(float(exact), abs=1e-12)


@pytest.mark.parametrize("counting", COUNTINGS)
def test_count_distribution_sums_to_one_and_matches_expectation(counting: Counting) -> None:
    known = [1, 2, 2] if counting.faces >= 2 else []
    for face in range(1, counting.faces + 1):
        dist = count_distribution(face, known, 5, **_kw(counting))
        assert sum(dist) == 1
        mean = sum(k * p for k, p in enumerate(dist))
        assert Odds(known, 5, counting).expected(face) == pytest.approx(float(mean))


def test_wild_needs_natural_examples() -> None:
    # Known: two aces, no five, one unknown die. The aces count for fives only if the
    # unknown die is a natural five; a plain binomial over "five or ace" would say 1x5 is
    # certain.
    nat = _kw(Counting(wild=True, needs_natural=True))
    plain_wild = _kw(Counting(wild=True, needs_natural=False))
    assert bid_probability_exact(Bid(1, 5), [1, 1], 1, **nat) == Fraction(1, 6)
    assert bid_probability_exact(Bid(1, 5), [1, 1], 1, **plain_wild) == 1
    assert bid_probability_exact(Bid(3, 5), [1, 1], 1, **nat) == Fraction(1, 6)
    assert exactly_probability_exact(Bid(0, 5), [1, 1], 1, **nat) == Fraction(5, 6)
    # With a natural known, the rule makes no difference.
    for q in range(5):
        assert bid_probability_exact(Bid(q, 5), [5, 1], 3, **nat) == bid_probability_exact(
            Bid(q, 5), [5, 1], 3, **plain_wild
        )


def test_bids_on_aces_count_aces_only() -> None:
    assert bid_probability_exact(Bid(2, 1), [1, 2, 2], 1) == Fraction(1, 6)
    assert bid_probability_exact(Bid(2, 2), [1, 2, 2], 1) == 1
    assert exactly_probability_exact(Bid(1, 1), [1, 2, 2], 2) == Fraction(25, 36)


@pytest.mark.parametrize("unknown", range(6))
@pytest.mark.parametrize("p", [0.0, 1 / 6, 1 / 3, 0.5, 1.0])
def test_probability_at_least_is_the_binomial_tail(unknown: int, p: float) -> None:
    for need in range(-1, unknown + 2):
        expected = 0.0
        for hits in itertools.product((0, 1), repeat=unknown):
            k = sum(hits)
            expected += p**k * (1 - p) ** (unknown - k) if k >= need else 0.0
        assert probability_at_least(need, unknown, p) == pytest.approx(expected, abs=1e-12)


def test_odds_reject_bad_input() -> None:
    with pytest.raises(DudoError):
        bid_probability(Bid(1, 7), [], 3)
    with pytest.raises(DudoError):
        bid_probability(Bid(1, 2), [9], 3)
    with pytest.raises(DudoError):
        bid_probability(Bid(1, 2), [], -1)
    with pytest.raises(DudoError):
        probability_at_least(1, 3, 1.5)
    with pytest.raises(DudoError):
        Counting(wild=True, faces=2)


def test_odds_given_moves_dice_from_unknown_to_known() -> None:
    odds = Odds([2, 3], 4).given([5, 5])
    assert odds.unknown == 2
    assert odds.at_least(Bid(2, 5)) == 1.0
    assert odds.at_least(Bid(3, 5)) == pytest.approx(1 - (4 / 6) ** 2)


def test_view_odds_use_visible_dice_and_the_round_counting() -> None:
    g = Game.with_hands(preset("dudo"), [[1, 1, 4, 4, 6], [2, 3, 4, 5, 6]])
    view = g.view(0)
    assert counting_for(view) == Counting(True, False, 6)
    assert view_bid_probability(view, Bid(4, 4)) == 1.0
    assert view_bid_probability(view, Bid(5, 4)) == pytest.approx(1 - (4 / 6) ** 5)
    assert view_exactly_probability(view, Bid(4, 4)) == pytest.approx((4 / 6) ** 5)
    # In an obliging round aces are not wild.
    ob = Game.with_hands(preset("dudo-legacy"), [[4], [1, 1, 4, 4, 6]], obliger=0)
    oview = ob.view(1)
    assert oview.obliging
    assert counting_for(oview) == Counting(False, False, 6)
    assert view_bid_probability(oview, Bid(3, 4)) == pytest.approx(1 / 6)


# --- how the probability player decides ----------------------------------------------------------


def easy(**kw: Any) -> ProbabilityBot:
    return ProbabilityBot(random.Random(0), **kw)


def after(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    *actions: Any,
    opener: int = 0,
    obliger: int | None = None,
) -> Game:
    g = Game.with_hands(rules, hands, opener=opener, obliger=obliger)
    for action in actions:
        g.push(action)
    return g


def test_calls_an_impossible_bid() -> None:
    g = after(preset("dudo"), [[2, 3, 4, 5, 6], [2, 2, 3, 3, 4]], Bid(9, 5), opener=1)
    assert easy().choose(g.view(0)) == CALL


def test_raises_a_certain_bid_with_the_likeliest_raise() -> None:
    g = after(preset("dudo"), [[1, 1, 4, 4, 4], [2, 2, 3, 3, 5]], Bid(3, 4), opener=1)
    action = easy().choose(g.view(0))
    # 5x4 is certain from p0's own dice; 4x4 is the lowest certain raise.
    assert action == Bid(4, 4)


def test_opening_is_a_confident_bid_on_its_best_face() -> None:
    g = Game.with_hands(preset("dudo"), [[6, 6, 6, 1, 2], [2, 3, 4, 5, 5]])
    action = easy().choose(g.view(0))
    assert isinstance(action, Bid) and action.face == 6
    assert view_bid_probability(g.view(0), action) >= 0.6
    assert action.quantity >= 4


def test_passes_with_a_pass_hand() -> None:
    # Five different faces; 4x5 is likely true and every raise unlikely: pass it on.
    g = after(preset("dudo"), [[2, 3, 4, 5, 6], [4, 5, 6, 6, 1]], Bid(4, 5), opener=1)
    view = g.view(0)
    assert PASS in view.legal_actions
    assert easy().choose(view) == PASS
    # Without a pass hand (and no bluffing) it calls instead.
    g = after(preset("dudo"), [[2, 3, 4, 4, 6], [4, 5, 6, 6, 1]], Bid(4, 5), opener=1)
    assert easy(bluff_rate=0.0).choose(g.view(0)) == CALL


def test_no_bluffed_pass_without_bluffing() -> None:
    for seed in range(20):
        g = after(preset("dudo"), [[2, 3, 4, 5, 6], [4, 4, 4, 1, 1]], Bid(7, 4), opener=1)
        bot = ProbabilityBot(random.Random(seed), bluff_rate=0.0)
        assert bot.choose(g.view(0)) != PASS


def test_spot_on_when_exactly_right_is_likeliest() -> None:
    # Four of five dice match 4x3; it is exactly right unless the bidder's one die matches
    # too (a chance of 1 in 3 on a fair die): spot-on is worth 2/3, calling nothing.
    g = after(preset("dudo"), [[3, 3, 3, 1, 2], [5]], Bid(4, 3), opener=1)
    view = g.view(0)
    assert SPOT_ON in view.legal_actions
    assert easy().choose(view) == SPOT_ON
    assert easy(spot_on_min=0.9).choose(view) == Bid(5, 3)  # true 1 in 3, better than a call


def test_a_bluffers_bid_does_not_make_spot_on_look_sure() -> None:
    """Credited with two dice of the bid's face, this two-dice bidder's 5x6 would be exactly
    right for sure (three sixes and aces here, two there); on fair dice it is exactly right
    1 time in 9. The claim is judged on the lower: it calls instead (true 1 in 9 too)."""
    g = after(preset("dudo"), [[1, 1, 4, 5, 6], [2, 3]], Bid(5, 6), opener=1)
    view = g.view(0)
    assert SPOT_ON in view.legal_actions
    assert easy().choose(view) != SPOT_ON
    assert InferringBot(random.Random(0)).choose(view) != SPOT_ON


def test_doubts_a_pass_from_a_known_bluffer() -> None:
    g = after(preset("dudo"), [[2, 3, 4, 4, 6], [2, 3, 5, 5, 6]], Bid(3, 4), PASS)
    view = g.view(0)
    assert pass_credibility(view, 1) == pytest.approx(2 / 3)
    assert easy().choose(view) == Bid(4, 4)  # 4x4 is true 54%: better than doubting (1 in 3)
    # The same position after three rounds in which player 1's passes were shown as bluffs.
    bluff = ((2, 3, 4, 5, 6), (2, 2, 3, 4, 5))
    earlier = (
        RoundStarted(1, 0, False, (5, 5)),
        Passed(1),
        Revealed(bluff, Bid(2, 2), 4, True),
    ) * 3
    history = dataclasses.replace(view, events=earlier + view.events)
    assert pass_credibility(history, 1) == pytest.approx(2 / 6)
    assert easy().choose(history) == DOUBT_PASS


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_pass_from_too_few_dice_for_a_pass_hand_is_always_doubted(level: str) -> None:
    """Every pass hand takes five dice: player 1, on three, can only be bluffing, however
    likely the bid it passed on. Doubting wins for sure, so every level doubts."""
    rules = preset("dudo")
    g = Game.with_hands(rules, [[2, 3, 4, 5, 6], [4, 4, 1]], opener=0, start_total=10)
    g.push(Bid(2, 4))
    g.push(PASS)
    view = g.view(0)
    assert pass_credibility(view, 1) == 0.0
    assert make_bot(level, random.Random(0)).choose(view) == DOUBT_PASS


def test_no_bluffed_pass_from_too_few_dice_for_a_pass_hand() -> None:
    """With bluffs forced (always bluff when nothing is worth 1), a five-dice player without
    a pass hand bluffs a pass; on four dice, where a pass is a sure bluff, it never does."""
    forced = {"bluff_rate": 1.0, "bluff_below": 1.0}
    rules = preset("dudo")
    five = after(rules, [[2, 3, 4, 4, 6], [4, 5, 6, 6, 1]], Bid(4, 5), opener=1)
    assert easy(**forced).policy(five.view(0)) == {PASS: 1.0}
    four = Game.with_hands(rules, [[2, 3, 4, 4], [4, 5, 6, 6, 1]], opener=1, start_total=10)
    four.push(Bid(4, 5))
    assert PASS in four.legal_actions()
    assert PASS not in easy(**forced).policy(four.view(0))


def test_pass_credibility_prior_and_honest_passes() -> None:
    rules = preset("dudo")
    g = after(rules, [[2, 3, 4, 5, 6], [4, 4, 4, 6, 6]], Bid(2, 4), PASS, DOUBT_PASS)
    # Player 1 passed with a full house and was doubted: more credible than the prior.
    assert pass_credibility(g.view(0), 1) == pytest.approx(3 / 4)


def test_after_a_pass_it_never_calls() -> None:
    g = after(preset("dudo"), [[2, 3, 4, 5, 6], [4, 4, 4, 6, 6]], Bid(9, 4), PASS)
    view = g.view(0)
    assert CALL not in view.legal_actions
    assert easy().choose(view) in view.legal_actions


def test_obliger_chooses_an_open_round() -> None:
    g = Game.with_hands(preset("dudo"), [[4], [1, 1, 4, 4, 6]], obliger=0)
    view = g.view(0)
    assert set(view.legal_actions) == {OPEN, CLOSED}
    assert easy().choose(view) == OPEN


def test_uses_reveal_and_reroll_when_it_helps() -> None:
    rules = preset("dudo", reveal_reroll=True)
    g = after(rules, [[5, 5, 5, 2, 3], [2, 2, 4, 4, 6]], Bid(3, 6), opener=1)
    view = g.view(0)
    action = easy().choose(view)
    assert action == RevealBid(Bid(4, 5), (5, 5, 5))
    assert easy(reveal_margin=1.0).choose(view) == Bid(4, 5)


def test_out_of_turn_call_only_when_the_bid_is_very_likely_false() -> None:
    rules = preset("dudo", cruzado=True)
    hands = [[2, 2, 3, 3, 4], [2, 3, 4, 5, 6], [2, 3, 4, 5, 5]]
    wild = after(rules, hands, Bid(14, 6))
    view = wild.view(2)
    assert view.legal_actions == (Call(by=2),)
    bot = easy()
    assert bot.wants_out_of_turn_call(view)
    assert out_of_turn_call(bot, view) == Call(by=2)
    assert bot.choose(view) == Call(by=2)
    tame = after(rules, hands, Bid(2, 5))
    assert not bot.wants_out_of_turn_call(tame.view(2))
    assert out_of_turn_call(bot, tame.view(1)) is None  # the player to move calls in turn


def test_obliging_round_answers_follow_the_face_rules() -> None:
    rules = preset("dudo-equalize")  # nobody changes the face, closed rounds
    g = after(rules, [[4], [1, 1, 4, 4, 6], [2, 3, 5, 6, 6]], Bid(2, 4), obliger=0)
    view = g.view(1)
    assert view.my_dice is None  # closed: a five-dice player sees nothing
    action = easy().choose(view)
    assert action == CALL or (isinstance(action, Bid) and action.face == 4)


def test_random_bot_is_uniform_over_legal_actions() -> None:
    g = Game.with_hands(preset("dudo"), [[2, 3, 4, 5, 6], [2, 3, 4, 5, 6]])
    view = g.view(0)
    bot = RandomBot(random.Random(1))
    picks = {bot.choose(view) for _ in range(2000)}
    assert picks == set(view.legal_actions)


# --- strength and speed --------------------------------------------------------------------------


def _win_rate(rules: Rules, games: int) -> float:
    wins = 0
    for i in range(games):
        rng = random.Random(i)
        strong: Bot = ProbabilityBot(random.Random(rng.random()))
        weak: Bot = RandomBot(random.Random(rng.random()))
        seat = i % 2
        bots = [strong, weak] if seat == 0 else [weak, strong]
        wins += play(rules, bots, seed=i).winner == seat
    return wins / games


def test_probability_bot_beats_random_bot_heads_up() -> None:
    assert _win_rate(preset("dudo"), 200) > 0.7


def test_probability_bot_decides_fast() -> None:
    rules = preset("dudo", reveal_reroll=True)
    views: list[tuple[Bot, PlayerView]] = []
    for seed in range(5):
        g = Game(rules, 6, seed=seed)
        bots = bots_for(["easy"] * 6, seed)
        while not g.is_over and g.round_number <= 2:
            view = g.view(g.to_move)
            views.append((bots[g.to_move], view))
            g.push(bots[g.to_move].choose(view))
    start = time.perf_counter()
    for bot, view in views:
        bot.choose(view)
    average = (time.perf_counter() - start) / len(views)
    assert average < 0.05  # loose: a decision takes about a millisecond
