"""Decision-time search of ``hard`` with three or more players, and the engine entry point it
plays out sampled deals with (``Game.from_view``)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dudo.bots import make_adviser, make_bot
from dudo.bots.book import BookBot
from dudo.bots.match import play_game
from dudo.bots.search import RolloutModel, SearchBot, call_margins
from dudo.engine import CALL, PRESETS, Bid, Call, DudoError, Game, RandomChance, RevealBid
from dudo.engine.rules import Rules, rules_from_settings

# House rules that turn on what no preset plays: revealed dice, out-of-turn calls.
_EXTRAS = ("reveal_reroll=true", "cruzado=true", "loss=difference", "next_opener=winner")


@st.composite
def tables(draw: st.DrawFn, least: int = 2) -> tuple[Rules, int, int]:
    """Rules (a preset, maybe with house rules), a player count and a seed."""
    name = draw(st.sampled_from(sorted(PRESETS)))
    extras = draw(st.lists(st.sampled_from(_EXTRAS), unique=True, max_size=2))
    rules = rules_from_settings(name, extras)
    most = 6 if rules.max_players is None else min(6, rules.max_players)
    players = draw(st.integers(least, most))
    return rules, players, draw(st.integers(0, 2**32))


def _random_position(rules: Rules, players: int, seed: int) -> Game:
    """A game a few random legal actions in (out-of-turn calls included)."""
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    for _ in range(rng.randrange(40)):
        if game.is_over:
            break
        game.push(rng.choice(game.all_legal_actions())[1])
    return game


def _deal(game: Game) -> list[tuple[int, ...]]:
    """The dice under each cup; before an obliging round's choice, some dice to deal."""
    if game.phase == "choose_visibility":
        return [(2,) * n for n in game.counts]
    return list(game.hidden)


# ------------------------------------------------------------------ Game.from_view


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_from_view_with_the_real_dice_is_the_real_game(table: tuple[Rules, int, int]) -> None:
    rules, players, seed = table
    game = _random_position(rules, players, seed)
    if game.is_over:
        return
    for viewer in range(players):
        built = Game.from_view(game.view(viewer), _deal(game), seed=1)
        for seat in range(players):
            assert built.view(seat) == game.view(seat)
        if game.phase == "choose_visibility":
            continue  # the real game deals its own dice after the choice
        # Played on with the same actions and the same later dice, the two stay equal.
        real, twin = game.clone(RandomChance(5)), built.clone(RandomChance(5))
        rng = random.Random(seed)
        for _ in range(20):
            if real.is_over:
                break
            assert twin.all_legal_actions() == real.all_legal_actions()
            action = rng.choice(real.all_legal_actions())[1]
            real.push(action)
            twin.push(action)
            assert twin.view(viewer) == real.view(viewer)


def test_from_view_replays_revealed_and_rerolled_dice() -> None:
    rules = rules_from_settings("dudo", ["reveal_reroll=true"])
    game = Game.with_hands(rules, [(2, 2, 3, 4, 5), (1, 6, 6, 2, 3), (3, 3, 4, 5, 6)], seed=3)
    game.push(Bid(2, 6))
    reveal = next(
        a for a in game.legal_actions() if isinstance(a, RevealBid) and len(a.reveal) == 2
    )
    game.push(reveal)
    assert game.set_aside[1]
    view = game.view(2)
    built = Game.from_view(view, game.hidden)
    assert built.view(1) == game.view(1)
    assert built.hand(1) == game.hand(1)
    # Any hidden dice of the right size will do for players the view does not see.
    other = [game.hidden[0], (5,) * len(game.hidden[1]), game.hidden[2]]
    assert Game.from_view(view, other).hidden[1] == (5,) * len(game.hidden[1])


def test_from_view_refuses_dice_that_do_not_fit_the_view() -> None:
    game = Game.with_hands(PRESETS["dudo"], [(1, 2, 3, 4, 5), (6, 6, 6, 6, 6), (2, 2, 2, 2, 2)])
    view = game.view(0)
    with pytest.raises(DudoError, match="hidden dice"):
        Game.from_view(view, [(1, 2, 3, 4, 5), (6, 6), (2, 2, 2, 2, 2)])
    with pytest.raises(DudoError, match="seen as"):
        Game.from_view(view, [(6, 6, 6, 6, 6), (6, 6, 6, 6, 6), (2, 2, 2, 2, 2)])
    with pytest.raises(DudoError, match="hands given"):
        Game.from_view(view, [(1, 2, 3, 4, 5)])


# ------------------------------------------------------------------------ the search


def _small(seed: int) -> SearchBot:
    # A few deals and a budget that never binds: fast, and the same choice on any machine.
    return SearchBot(random.Random(seed), samples=6, budget=30.0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(least=3))
def test_search_plays_legal_actions_and_its_policy(table: tuple[Rules, int, int]) -> None:
    rules, players, seed = table
    game = _random_position(rules, players, seed)
    bot = _small(seed)
    for _ in range(6):
        if game.is_over:
            break
        for seat in range(players):
            view = game.view(seat)
            if not view.legal_actions:
                continue
            if not view.my_turn:  # a cruzado call out of turn is a yes or no
                assert isinstance(bot.wants_out_of_turn_call(view), bool)
                continue
            action = bot.choose(view)
            assert action in view.legal_actions
            policy = bot.policy(view)
            assert set(policy) <= set(view.legal_actions)
            assert all(p > 0 for p in policy.values())
            assert math.isclose(sum(policy.values()), 1.0)
            assert action in policy
        game.push(bot.choose(game.view(game.to_move)))


def test_search_is_reproducible_with_the_same_generator() -> None:
    def play(seed: int) -> list[object]:
        bots = [_small(seed)] + [make_bot("easy", random.Random(s)) for s in range(3)]
        result = play_game(Game(PRESETS["dudo"], 4, seed=11), bots)
        return [a for _, a in result.game.history]

    assert play(3) == play(3)


def test_search_calls_a_bid_it_can_see_is_impossible() -> None:
    # 20 dice; player 0 holds no six and no ace, so at most 15 sixes can be out.
    game = Game.with_hands(
        PRESETS["dudo"],
        [(2, 2, 3, 3, 4), (6, 6, 1, 5, 5), (6, 4, 4, 2, 3), (5, 5, 5, 2, 2)],
        opener=1,
    )
    for bid in (Bid(14, 6), Bid(15, 6), Bid(16, 6)):
        game.push(bid)
    assert game.to_move == 0
    assert _small(1).choose(game.view(0)) == CALL


def test_search_does_not_call_a_bid_its_own_dice_make_true() -> None:
    # Player 0's own three sixes and two aces (wild) already make five sixes.
    game = Game.with_hands(
        PRESETS["dudo"],
        [(1, 1, 6, 6, 6), (2, 3, 4, 5, 5), (2, 2, 3, 4, 4), (3, 3, 5, 5, 2)],
        opener=1,
    )
    for bid in (Bid(3, 6), Bid(4, 6), Bid(5, 6)):
        game.push(bid)
    assert game.to_move == 0
    choice = _small(2).choose(game.view(0))
    assert not isinstance(choice, Call)
    assert choice in game.legal_actions()


def test_hard_searches_with_three_players_and_looks_ahead_heads_up() -> None:
    bot = make_bot("hard", random.Random(0))
    assert isinstance(bot, BookBot) and isinstance(bot.fallback, SearchBot)
    game = Game(PRESETS["dudo"], 3, seed=4)
    game.push(game.legal_actions()[0])
    bot.choose(game.view(game.to_move))
    assert bot.fallback.last_samples > 0
    heads_up = Game(PRESETS["dudo"], 2, dice=[5, 5], seed=4)
    heads_up.push(heads_up.legal_actions()[0])
    bot.fallback.last_samples = 0
    bot.fallback.choose(heads_up.view(heads_up.to_move))
    assert bot.fallback.last_samples == 0


def test_search_refuses_an_empty_budget() -> None:
    with pytest.raises(DudoError):
        SearchBot(random.Random(0), budget=0.0)


def test_an_adviser_searches_without_a_clock() -> None:
    """Hints and reviews give the same advice for the same view, however busy the machine."""
    adviser = make_adviser("hard", random.Random(1))
    assert isinstance(adviser, BookBot)
    search = adviser.fallback
    assert isinstance(search, SearchBot) and search.budget == math.inf
    game = Game(PRESETS["dudo"], 4, seed=3)
    game.push(game.legal_actions()[2])
    view = game.view(game.to_move)
    first = make_adviser("hard", random.Random("same")).choose(view)
    assert all(make_adviser("hard", random.Random("same")).choose(view) == first for _ in range(3))
    assert type(make_adviser("easy", random.Random(1))) is type(make_bot("easy", random.Random(1)))


def test_call_margins_follow_the_answers_that_reveals_expose() -> None:
    """A player who raised a bid their dice made hopeless is fitted a high call margin (they
    call only absurd bids); one who called a bid their own dice made true, a low one."""
    prior = RolloutModel().call_margin
    rules = PRESETS["dudo"]
    # Player 1 holds no six and no ace, yet raises 11 sixes of 15 dice; player 2 then calls.
    game = Game.with_hands(rules, [(6, 6, 1, 2, 3), (2, 3, 4, 5, 5), (2, 2, 3, 4, 4)], opener=0)
    assert call_margins(game.view(0), RolloutModel()) == [prior] * 3  # nothing revealed yet
    game.push(Bid(11, 6))
    game.push(Bid(12, 6))
    game.push(CALL)
    margins = call_margins(game.view(None), RolloutModel())
    assert margins[1] > prior
    assert margins[0] == prior  # an opening answers nothing
    # Player 1 sees four fives with aces wild and calls three fives.
    game = Game.with_hands(rules, [(2, 3, 4, 6, 6), (5, 5, 1, 1, 2), (2, 2, 3, 4, 4)], opener=0)
    game.push(Bid(3, 5))
    game.push(CALL)
    margins = call_margins(game.view(None), RolloutModel())
    assert margins[1] < prior
    assert margins[2] == prior
