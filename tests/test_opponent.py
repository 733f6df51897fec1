"""What an opponent's revealed answers say (``dudo.bots.opponent``), and the book player that
leans toward its fallback as far as they say (``BookBot(exploit=...)``): on the shipped
``liars-dice`` book, with seeded games."""

from __future__ import annotations

import math
import random

import pytest

from dudo.bots import Method, build, make_bot
from dudo.bots.book import EXPLOIT_PRIOR_LOG_ODDS, BookBot, exploit_share
from dudo.bots.match import play_game
from dudo.bots.opponent import Evidence, answer_evidence, book_call_chance
from dudo.bots.search import SearchBot
from dudo.engine import DudoError, Game
from dudo.engine.rules import PRESETS
from dudo.engine.view import PlayerView
from dudo.solver import Position
from dudo.solver.book import Book, find_book

RULES = PRESETS["liars-dice"]


@pytest.fixture(scope="module")
def book() -> Book:
    found = find_book(RULES)
    assert found is not None, "the liars-dice book ships with dudo"
    return found


def exploiting(rng: random.Random, exploit: float = 0.5) -> BookBot:
    bot = build(Method("book", {"exploit": exploit}, fallback=Method("search")), rng)
    assert isinstance(bot, BookBot)
    return bot


def finished_view(opponent: str, seed: int) -> PlayerView:
    """Seat 0's view at the end of a heads-up game of ``hard`` (the book) against
    ``opponent``."""
    rng = random.Random(seed)
    game = Game(RULES, 2, seed=seed)
    play_game(game, [make_bot("hard", rng), make_bot(opponent, rng)])
    return game.view(0)


def test_nothing_is_judged_before_a_reveal(book: Book) -> None:
    game = Game(RULES, 2, seed=1)
    assert answer_evidence(game.view(0), book, 1) == Evidence()
    assert Evidence().log_ratio == 0.0


def test_the_books_call_chances_are_chances(book: Book) -> None:
    position = Position((1, 1))
    round_, _ = book.policy(position)
    for hand, signal in enumerate(round_.signals[1]):
        for bid in range(len(round_.bids)):
            chance = book_call_chance(book, position, [bid], 1, signal)
            assert chance is not None and 0.0 <= chance <= 1.0, (hand, bid)
    assert book_call_chance(book, position, [], 0, round_.signals[0][0]) is None  # no bid yet


@pytest.mark.parametrize(
    ("opponent", "sign"), [("easy", 1), ("caller", 1), ("bluffer", 1), ("hard", -1)]
)
def test_threshold_callers_look_like_one_and_the_book_like_itself(
    book: Book, opponent: str, sign: int
) -> None:
    evidence = [answer_evidence(finished_view(opponent, seed), book, 1) for seed in range(4)]
    answers = sum(e.answers for e in evidence)
    assert answers >= 12, "every game reveals several answers"
    assert sign * sum(e.log_ratio for e in evidence) > 0, [e.log_ratio for e in evidence]


def test_the_weight_follows_the_evidence(book: Book) -> None:
    bot = exploiting(random.Random(0), exploit=0.5)
    fresh = Game(RULES, 2, seed=3)
    before = bot.exploit_weight(fresh.view(0))
    assert before == pytest.approx(0.5 / (1.0 + math.exp(-EXPLOIT_PRIOR_LOG_ODDS)))
    assert before == exploit_share(Evidence(), 0.5)
    against_easy = exploit_share(answer_evidence(finished_view("easy", 1), book, 1), 0.5)
    against_book = exploit_share(answer_evidence(finished_view("hard", 1), book, 1), 0.5)
    assert 0.0 <= against_book < before < against_easy <= 0.5
    assert exploiting(random.Random(0), exploit=0.0).exploit_weight(fresh.view(0)) == 0.0


def test_the_policy_mixes_the_book_and_the_fallback_by_the_weight(book: Book) -> None:
    rng = random.Random(5)
    game = Game(RULES, 2, seed=5)
    bot, plain, fallback = exploiting(rng), BookBot(rng), SearchBot(rng)
    for _ in range(6):
        view = game.view(game.to_move)
        weight = bot.exploit_weight(view)
        mixed = bot.policy(view)
        assert math.isclose(sum(mixed.values()), 1.0, abs_tol=1e-9)
        assert set(mixed) <= set(view.legal_actions)
        expected: dict[object, float] = {}
        for action, p in plain.policy(view).items():
            expected[action] = (1 - weight) * p
        for action, p in fallback.policy(view).items():
            expected[action] = expected.get(action, 0.0) + weight * p
        assert mixed == pytest.approx({a: p for a, p in expected.items() if p > 0})
        game.push(bot.choose(view))
        if game.is_over:
            break


def test_games_against_every_style_stay_legal() -> None:
    for opponent in ("easy", "caller", "bluffer", "medium", "hard"):
        rng = random.Random(7)
        game = Game(RULES, 2, seed=7)
        play_game(game, [exploiting(rng), make_bot(opponent, rng)])  # push refuses illegal moves
        assert game.is_over


def test_an_exploit_weight_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(DudoError, match="between 0 and 1"):
        BookBot(random.Random(0), exploit=1.5)
