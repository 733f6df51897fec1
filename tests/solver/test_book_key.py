"""Which book serves which rules: a game of fewer dice each meets the positions of the book
solved for five where dice never rise (the shipped ``liars-dice`` book serves 1 to 4 dice
each), and nowhere a hand's size or the start total changes what a position is."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from dudo.bots import make_bot, policy_of
from dudo.bots.book import BookBot
from dudo.engine import Bid, Game, Rules, preset
from dudo.engine.rules import PRESETS
from dudo.solver import Position, build_round
from dudo.solver.book import Book, find_book, rules_id, shipped_root, solve_book
from dudo.solver.book_key import book_id, book_rules, hand_matters, start_fits
from dudo.solver.game import Abstraction, Budget

LIARS = preset("liars-dice")
#: Spot-on heads-up, a right claim winning a die, while more than half the dice are in play.
SPOT = preset("dudo", faces=3, dice_per_player=2, pass_hands="none", oblige=False)


def tiny_book(rules: Rules, root: Path, max_dice: int = 1) -> Book:
    """A book of ``rules`` in ``root`` under its own name (spot-on rounds abstract)."""
    abstraction = Abstraction(whole_tree_dice=1, iterations=50, samples=5_000)
    folder = root / rules_id(rules)
    return solve_book(rules, max_dice, Budget(target=1e-3), folder, abstraction=abstraction)


def test_the_hand_matters_only_where_dice_can_rise_or_spot_on_counts_the_start() -> None:
    # Heads-up spot-on with a gain (dudo, dudo-legacy, dudo-equalize); everywhere else a
    # position's dice counts say all, whatever hand the game began with.
    assert {name for name, rules in PRESETS.items() if hand_matters(rules)} == {
        "dudo",
        "dudo-legacy",
        "dudo-equalize",
    }
    for name in ("dudo-app", "perudo", "cacho", "liars-dice"):
        rules = PRESETS[name].with_options(pass_hands="none", pass_allows_spot_on=False)
        assert book_id(rules.with_options(dice_per_player=2)) == book_id(rules), name
    assert book_rules(LIARS.with_options(dice_per_player=3)) == LIARS
    spot = SPOT.with_options(dice_per_player=5)
    assert book_id(SPOT) == rules_id(SPOT) != book_id(spot)
    assert hand_matters(SPOT.with_options(spot_on_threshold="none"))  # the gain's cap
    assert hand_matters(SPOT.with_options(spot_on_reward="cancel"))  # the start total
    assert not hand_matters(SPOT.with_options(spot_on_reward="cancel", spot_on_threshold="none"))
    assert not hand_matters(SPOT.with_options(spot_on_min_players=3))


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_liars_dice_with_fewer_dice_finds_the_shipped_book(
    dice: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUDO_HOME", str(tmp_path))  # no user books
    book = find_book(LIARS.with_options(dice_per_player=dice))
    assert book is not None and book.directory == shipped_root() / rules_id(LIARS)


def test_a_smaller_hand_builds_the_books_own_rounds() -> None:
    book = find_book(LIARS, [shipped_root()])
    assert book is not None
    for dice in (2, 3):
        rules = LIARS.with_options(dice_per_player=dice)
        for position in (Position((1, 1)), Position((2, 1)), Position((1, 2))):
            mine = build_round(rules, position, payoffs=False)
            theirs, _ = book.policy(position)
            assert mine.bids == theirs.bids and mine.signals == theirs.signals
            assert np.array_equal(mine.parent, theirs.parent)


@pytest.mark.parametrize("dice", [2, 3, 4])
def test_hard_plays_the_shipped_book_with_fewer_dice(dice: int) -> None:
    rules = LIARS.with_options(dice_per_player=dice)
    bot = make_bot("hard", random.Random(dice))
    assert isinstance(bot, BookBot)
    for a in range(1, dice + 1):
        for b in range(1, dice + 1):
            game = Game(rules, 2, seed=a * 10 + b, dice=[a, b])
            for _ in range(3):  # the opening and two more bids, whoever makes them
                view = game.view(game.to_move)
                action = bot.choose(view)
                assert bot.last_source == "book", (dice, a, b, view.round_actions)
                if not isinstance(action, Bid):
                    break
                game.push(action)
    # A whole game: only a raise past an abstract round's window goes to the lookahead.
    sources: Counter[str] = Counter()
    game = Game(rules, 2, seed=dice)
    while not game.is_over:
        game.push(bot.choose(game.view(game.to_move)))
        sources[bot.last_source] += 1
    assert sources["book"] > 0 and sources["fallback"] <= sources["book"] // 10


def test_hard_opens_with_the_books_frequencies_with_two_dice() -> None:
    book = find_book(LIARS, [shipped_root()])
    assert book is not None
    round_, strategy = book.policy(Position((2, 1)))
    rules = LIARS.with_options(dice_per_player=2)
    game = Game.with_hands(rules, [(3, 6), (2,)], opener=0)
    view = game.view(0)
    hand = round_.signals[0].index((view.my_dice, (view.seen_dice[0], view.seen_dice[1])))
    expected = {
        round_.bids[int(round_.bid[c])]: float(strategy.sigma_in[c, hand])
        for c in round_.children(0)
        if strategy.sigma_in[c, hand] > 0
    }
    policy = policy_of(make_bot("hard", random.Random(0)), view)
    assert policy.keys() == expected.keys()
    assert all(policy[a] == pytest.approx(p) for a, p in expected.items())


def test_where_the_hand_matters_a_book_for_another_hand_is_not_used(tmp_path: Path) -> None:
    five = SPOT.with_options(dice_per_player=5)
    book = tiny_book(five, tmp_path)
    assert find_book(five, [tmp_path]) is not None
    for dice in (2, 3):
        assert find_book(SPOT.with_options(dice_per_player=dice), [tmp_path]) is None
    # Given the book outright, the bot still leaves a table of other hands to its fallback.
    bot = BookBot(random.Random(0), book=book, min_recall=1)
    for rules, source in ((five, "book"), (SPOT, "fallback")):
        game = Game(rules, 2, seed=1, dice=[1, 1], start_total=2 * rules.dice_per_player)
        bot.choose(game.view(game.to_move))
        assert bot.last_source == source, rules.dice_per_player
    # Without spot-on heads-up the hand is free again: the same kind of book serves 2 dice.
    free = five.with_options(spot_on_min_players=3)
    tiny_book(free, tmp_path)
    assert find_book(free.with_options(dice_per_player=2), [tmp_path]) is not None


def test_a_game_begun_with_more_players_uses_the_book_where_its_start_changes_nothing(
    tmp_path: Path,
) -> None:
    # Solved as a game begun with 2 + 2 dice: spot-on from 3 dice in play. Begun with 2 + 2
    # + 2, spot-on needs 4: the 2v1 round differs, the 1v1 round (no spot-on either way,
    # and so no die to win back) does not.
    book = tiny_book(SPOT, tmp_path, max_dice=2)
    assert start_fits(SPOT, 6, 2) and not start_fits(SPOT, 6, 3)
    assert not start_fits(SPOT, 6, 4) and start_fits(SPOT, 4, 3)
    bot = BookBot(random.Random(0), book=book, min_recall=1)
    cases = [((1,), (1,), 6, "book"), ((1, 2), (3,), 6, "fallback"), ((1, 2), (3,), 4, "book")]
    for first, second, start, source in cases:
        game = Game.with_hands(SPOT, [first, (), second], opener=0, start_total=start)
        bot.choose(game.view(0))
        assert bot.last_source == source, (first, second, start)
