"""The medium and hard levels: beliefs from bids, the lookahead, legality everywhere, strength."""

from __future__ import annotations

import random
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dudo.bots import BOT_NAMES, make_bot
from dudo.bots.beliefs import BeliefOdds, Beliefs, BidModel, hand_table, likeliest_hands
from dudo.bots.book import BookBot
from dudo.bots.inferring import InferringBot
from dudo.bots.lookahead import LookaheadBot
from dudo.bots.match import play_game
from dudo.bots.search import SearchBot
from dudo.engine import Bid, Call, DudoError, Game, preset
from dudo.engine.counting import count_matching
from dudo.engine.rules import rules_from_settings
from dudo.probability import Odds

LEVELS = ("random", "easy", "medium", "hard")


def test_levels_weakest_first() -> None:
    assert BOT_NAMES == LEVELS
    assert isinstance(make_bot("medium", random.Random(0)), InferringBot)
    hard = make_bot("hard", random.Random(0))
    assert isinstance(hard, BookBot) and isinstance(hard.fallback, SearchBot)


# --- beliefs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "faces"), [(1, 6), (3, 4), (5, 6)])
def test_hand_table_is_the_multinomial(dice: int, faces: int) -> None:
    counts, prior = hand_table(dice, faces)
    assert (counts[:, 1:].sum(axis=1) == dice).all()
    assert abs(prior.sum() - 1.0) < 1e-12
    # Brute force over ordered rolls.
    tally: dict[tuple[int, ...], int] = {}
    for roll in product(range(1, faces + 1), repeat=dice):
        key = tuple(roll.count(f) for f in range(1, faces + 1))
        tally[key] = tally.get(key, 0) + 1
    for row, chance in zip(counts, prior, strict=True):
        assert abs(chance - tally[tuple(int(c) for c in row[1:])] / faces**dice) < 1e-12


@pytest.mark.parametrize(
    "settings_",
    [
        [],
        ["wild_needs_natural=true"],
        ["aces_wild=false"],
        ["faces=4", "dice_per_player=3", "pass_hands=none"],
    ],
)
def test_beliefs_before_any_bid_are_the_exact_odds(settings_: list[str]) -> None:
    """With nothing bid yet the posterior is the prior, so the chances equal exact odds."""
    rules = rules_from_settings("dudo", settings_)
    game = Game(rules, 3, seed=7)
    view = game.view(game.to_move)
    belief_odds = BeliefOdds(Beliefs(view))
    fair = Odds.from_view(view)
    for face in range(1, rules.faces + 1):
        for quantity in range(0, view.dice_in_play + 2):
            bid = Bid(quantity, face)
            assert belief_odds.at_least(bid) == pytest.approx(fair.at_least(bid), abs=1e-12)
            assert belief_odds.exactly(bid) == pytest.approx(fair.exactly(bid), abs=1e-12)


def test_bids_move_the_posterior_toward_the_bid_face() -> None:
    rules = preset("dudo")
    game = Game.with_hands(rules, [(2, 3, 4, 6, 6), (5, 5, 5, 3, 2)], opener=0)
    game.push(Bid(2, 6))
    game.push(Bid(4, 5))  # player 1 holds three fives and says so
    view = game.view(0)
    beliefs = Beliefs(view)
    weights = beliefs.weights[1]
    assert weights is not None
    counts, prior = hand_table(5, 6)
    fives = counts[:, 5] + counts[:, 1]
    assert float(weights @ fives) > float(prior @ fives) + 0.5  # expects more fives now
    top = likeliest_hands(beliefs, 1, top=1)[0][0]
    assert top.count(5) + top.count(1) >= 2
    # The bid is judged likelier than fair dice make it.
    assert BeliefOdds(beliefs).at_least(Bid(4, 5)) > Odds.from_view(view).at_least(Bid(4, 5))
    # The viewer's own dice are seen: no posterior for them.
    assert beliefs.weights[0] is None


def test_a_model_that_cannot_explain_the_bids_keeps_the_prior() -> None:
    game = Game.with_hands(preset("dudo"), [(2, 2, 2, 2, 2), (3, 3, 3, 3, 3)], opener=0)
    game.push(Bid(9, 3))
    beliefs = Beliefs(game.view(0), BidModel(sharpness=1e6, bid_threshold=2.0))
    weights = beliefs.weights[1]
    assert weights is not None and np.isfinite(weights).all()
    assert abs(weights.sum() - 1.0) < 1e-9


# --- the lookahead --------------------------------------------------------------------------------


def test_hard_calls_a_bid_that_cannot_be_true() -> None:
    game = Game.with_hands(preset("dudo"), [(2, 3, 4, 6, 6), (2, 3, 4, 5, 6)], opener=1)
    game.push(Bid(10, 5))  # all ten dice would have to count: player 0's cannot
    assert LookaheadBot(random.Random(0)).choose(game.view(0)) == Call()


def test_hard_raises_a_bid_it_holds() -> None:
    game = Game.with_hands(preset("dudo"), [(5, 5, 5, 1, 1), (2, 3, 4, 6, 6)], opener=1)
    game.push(Bid(2, 5))  # player 0 alone has five that count
    action = LookaheadBot(random.Random(0)).choose(game.view(0))
    assert isinstance(action, Bid)


def test_lookahead_mixes_by_expected_loss() -> None:
    """Each judged action is weighted exp(-(loss - least) / T); at T = 0 only the least."""
    game = Game.with_hands(preset("dudo"), [(5, 5, 5, 1, 1), (2, 3, 4, 6, 6)], opener=1)
    game.push(Bid(2, 5))
    view = game.view(0)
    mixed = LookaheadBot(random.Random(0), temperature=0.1)
    losses = mixed._losses(view)
    assert losses is not None and set(losses) <= set(view.legal_actions)
    policy = mixed.policy(view)
    assert abs(sum(policy.values()) - 1.0) < 1e-9
    best = min(losses, key=losses.__getitem__)
    assert max(policy, key=policy.__getitem__) == best
    for action, p in policy.items():
        ratio = np.exp((losses[best] - losses[action]) / 0.1)
        assert p / policy[best] == pytest.approx(ratio)
        assert ratio >= 1e-3  # nothing far worse is ever played
    pure = LookaheadBot(random.Random(0), temperature=0.0).policy(view)
    assert pure == {best: 1.0}
    # choose draws from that policy
    drawn = [mixed.choose(view) for _ in range(300)]
    assert set(drawn) <= set(policy)
    share = drawn.count(best) / len(drawn)
    spread = 5 * np.sqrt(policy[best] * (1 - policy[best]) / len(drawn))
    assert abs(share - policy[best]) <= spread


@pytest.mark.parametrize("temperature", [-0.1, float("nan")])
def test_lookahead_temperature_is_checked(temperature: float) -> None:
    with pytest.raises(DudoError, match="temperature"):
        LookaheadBot(random.Random(0), temperature=temperature)


def test_hard_lookahead_is_deterministic_by_default() -> None:
    """Mixing was measured weaker (bench/lookahead_temperature.py): hard's lookahead plays
    the least expected loss alone, the first in legal order on a tie."""
    game = Game.with_hands(preset("liars-dice"), [(5, 5, 5, 1, 1), (2, 3, 4, 6, 6)], opener=1)
    game.push(Bid(2, 5))
    view = game.view(0)
    bot = LookaheadBot(random.Random(0))
    losses = bot._losses(view)
    assert losses is not None
    least = min(losses.values())
    first = next(action for action in view.legal_actions if losses.get(action) == least)
    assert bot.policy(view) == {first: 1.0}
    assert {bot.choose(view) for _ in range(20)} == {first}


def test_hard_plays_the_book_heads_up() -> None:
    """liars-dice has a book for 1v1: the hard player takes its action from it."""
    rules = preset("liars-dice")
    game = Game(rules, 2, seed=3, dice=(1, 1), start_total=10)
    bot = make_bot("hard", random.Random(0))
    assert isinstance(bot, BookBot)
    action = bot.choose(game.view(game.to_move))
    assert action in game.legal_actions()
    assert bot.last_source == "book"


# --- always legal ---------------------------------------------------------------------------------

HOUSE_RULES = [
    ("dudo", []),
    ("dudo", ["cruzado=true"]),
    ("dudo", ["wild_needs_natural=true"]),
    ("dudo", ["oblige_visibility=closed"]),
    ("dudo", ["oblige_visibility=obliger_chooses"]),
    ("dudo-app", []),
    ("perudo", []),
    ("cacho", []),
    ("liars-dice", []),
    ("dudo-legacy", []),
    ("dudo", ["reveal_reroll=true"]),
    ("dudo", ["aces_wild=false"]),
]


@settings(max_examples=24, deadline=None)
@given(
    case=st.sampled_from(HOUSE_RULES),
    players=st.integers(2, 8),
    dice=st.sampled_from((1, 2, 5)),
    seed=st.integers(0, 10_000),
    level=st.sampled_from(("medium", "hard")),
)
def test_medium_and_hard_only_play_legal_actions(
    case: tuple[str, list[str]], players: int, dice: int, seed: int, level: str
) -> None:
    name, settings_ = case
    no_pass = ["pass_hands=none", "pass_allows_spot_on=false"]  # pass hands need five dice
    dice_settings = [f"dice_per_player={dice}", "max_players=8", *(no_pass if dice < 5 else [])]
    rules = rules_from_settings(name, [*settings_, *dice_settings])
    bots = [
        make_bot(level if s % 2 == 0 else "easy", random.Random(seed + s)) for s in range(players)
    ]
    result = play_game(Game(rules, players, seed=seed), bots, max_rounds=200)  # checks legality
    game = result.game
    if result.finished:
        assert game.winner is not None and game.view(None).dice_counts[game.winner] > 0


def test_the_bid_counting_the_beliefs_use_is_the_engines() -> None:
    """A wild_needs_natural count from the beliefs' distribution matches the engine's count
    on a fully known table (everything seen: the distribution is a point mass)."""
    rules = rules_from_settings("dudo", ["wild_needs_natural=true"])
    for hands in ([(1, 1, 2, 3, 4)], [(1, 1, 5, 3, 4)], [(2, 3, 4, 6, 6)]):
        game = Game.with_hands(rules, [*hands, (6, 6, 6, 6, 6)], opener=0)
        view = game.view(0)
        beliefs = Beliefs(view)
        beliefs.weights[1] = None  # pretend player 1's dice are known: they count below
        beliefs.known = (*view.known_dice, 6, 6, 6, 6, 6)
        for face in range(2, 7):
            expected = count_matching([*hands, (6, 6, 6, 6, 6)], face, True, True)
            pmf = beliefs.count_distribution(face)
            assert pmf[expected] == pytest.approx(1.0)


# --- strength -------------------------------------------------------------------------------------


def _score(level: str, other: str, rules_name: str, games: int, dice: int) -> float:
    rules = rules_from_settings(rules_name, [f"dice_per_player={dice}", "pass_hands=none"])
    wins = 0
    for g in range(games):
        mine = g % 2
        bots = [make_bot(level if s == mine else other, random.Random(g * 10 + s)) for s in (0, 1)]
        result = play_game(Game(rules, 2, seed=g), bots)
        wins += result.winner == mine
    return wins / games


def test_hard_beats_easy_heads_up() -> None:
    assert _score("hard", "easy", "dudo", 120, 3) > 0.6


def test_medium_beats_easy_heads_up() -> None:
    assert _score("medium", "easy", "liars-dice", 200, 3) > 0.52
