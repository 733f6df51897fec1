"""Abstract rounds in books: a solved abstraction stored, read back, valued on sampled deals,
and played by the solver bot wherever a real round's bids reach one of its nodes."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from dudo.bots.book import BookBot
from dudo.engine import Bid, Game, preset
from dudo.exploit import BotQuery, book_strategy, exact_from_strategy
from dudo.solver import Position, Round, SolverError, build_round
from dudo.solver.abstract_strategy import (
    AbstractStrategy,
    from_profile,
    lift_strategy,
    sample_value,
)
from dudo.solver.abstraction import (
    WHOLE,
    AbstractSolver,
    abstract_size,
    build_abstract_round,
    lift,
)
from dudo.solver.book import Book, solve_book
from dudo.solver.evaluate import evaluate
from dudo.solver.exploit import ExactResult, exact_exploitability
from dudo.solver.game import Abstraction, Budget

RULES = preset("liars-dice", faces=3, dice_per_player=2)
SMALL = Abstraction(whole_tree_dice=2, budget=20_000, iterations=40, samples=4000)


def _solved(position: Position, recall: int, window: int | None = None) -> AbstractStrategy:
    graph = build_abstract_round(RULES, position, recall, window=window)
    solver = AbstractSolver(graph)
    for _ in range(40):
        solver.step()
    return from_profile(graph, solver.average())


def test_every_row_of_a_stored_strategy_is_a_distribution(tmp_path: Path) -> None:
    strategy = _solved(Position((2, 1)), 2, window=3)
    path = tmp_path / "round.npz"
    strategy.save(path)
    loaded, meta = AbstractStrategy.load(path)
    assert meta["format"] == "dudo-abstract-strategy" and meta["recall"] == 2
    for name in ("keys", "edge_start", "edge_bid", "edge_target", "edge_prob", "call_prob"):
        assert np.array_equal(getattr(loaded, name), getattr(strategy, name)), name
    assert loaded.signals == strategy.signals and loaded.bids == strategy.bids
    for node in range(loaded.nodes):
        player = int(loaded.key_actor[node])
        history = tuple(int(b) for b in loaded.keys[node] if b >= 0)
        if not loaded.key_flags[node] & WHOLE:
            continue  # reached by longer histories; the whole ones are enough here
        for hand in range(len(loaded.signals[player])):
            options = loaded.options(history, hand)
            assert options is not None
            assert sum(p for _, p in options) == pytest.approx(1.0)
            assert all(p >= 0 for _, p in options)
            assert any(b is None for b, _ in options) == (node > 0)


def test_a_damaged_or_foreign_file_is_refused(tmp_path: Path) -> None:
    strategy = _solved(Position((1, 1)), 2)
    path = tmp_path / "round.npz"
    strategy.call_prob[:] = 0
    strategy.edge_prob[:] = 0
    strategy.save(path)
    with pytest.raises(SolverError, match="no action"):
        AbstractStrategy.load(path)
    text = tmp_path / "notes.npz"
    text.write_text("hello")
    with pytest.raises(SolverError, match="not a dudo abstract strategy file"):
        AbstractStrategy.load(text)


def test_the_sampled_value_is_the_exact_value_of_the_strategy() -> None:
    position = Position((1, 1))
    round_ = build_round(RULES, position)
    graph = build_abstract_round(RULES, position, recall=len(round_.bids))
    solver = AbstractSolver(graph)
    for _ in range(60):
        solver.step()
    exact = evaluate(round_, lift(graph, solver.average(), round_)).value
    mean, error = sample_value(from_profile(graph, solver.average()), graph, 60_000, seed=3)
    assert 0 < error < 0.01
    # The stored strategy drops probabilities under 0.2% and rounds the rest to 1/255.
    assert mean == pytest.approx(exact, abs=4 * error + 0.01)


def test_a_book_solves_big_rounds_under_the_abstraction_and_the_bot_plays_them(
    tmp_path: Path,
) -> None:
    book = solve_book(RULES, 2, Budget(target=1e-3), tmp_path, abstraction=SMALL)
    kinds = {position.label(): entry.kind for position, entry in book.rounds.items()}
    assert kinds == {"1v1": "tree", "2v1": "abstract", "1v2": "abstract", "2v2": "abstract"}
    reopened = Book.open(tmp_path)
    assert reopened.values == book.values
    for position, entry in reopened.rounds.items():
        assert entry.value == pytest.approx(reopened.values[position], abs=1e-6)
        if entry.kind == "abstract":
            assert entry.exploitability is None
            assert reopened.abstract(position).position == position
    # The opener of 2 dice against 1 is well ahead; of 1 against 2 well behind.
    assert reopened.value(Position((2, 1))) > 0.3 > -0.3 > reopened.value(Position((1, 2)))
    bot = BookBot(random.Random(5), book=reopened, min_recall=2)
    sources: dict[str, int] = {}
    for seed in range(12):
        game = Game(RULES, 2, seed=seed)
        while not game.is_over:
            view = game.view(game.to_move)
            policy = bot.policy(view)
            assert sum(policy.values()) == pytest.approx(1.0)
            assert set(policy) <= set(view.legal_actions)
            action = bot.choose(view)
            assert action in view.legal_actions
            sources[bot.last_source] = sources.get(bot.last_source, 0) + 1
            game.push(action)
    assert sources.get("book", 0) > 0


def test_a_raise_past_the_window_leaves_the_bot_to_its_fallback(tmp_path: Path) -> None:
    rules = preset("liars-dice", faces=4, dice_per_player=2)
    narrow = Abstraction(
        whole_tree_dice=3, least_recall=2, most_recall=2, window=2, iterations=10, samples=1000
    )
    book = solve_book(rules, 2, Budget(target=1e-2), tmp_path, abstraction=narrow)
    assert book.kind(Position((2, 2))) == "abstract"
    strategy = book.abstract(Position((2, 2)))
    bot = BookBot(random.Random(1), book=book, min_recall=2)
    game = Game(rules, 2, seed=1)
    opener = game.to_move
    game.push(strategy.bids[0])
    view = game.view(game.to_move)
    bot.choose(view)
    assert bot.last_source == "book"
    game.push(strategy.bids[len(strategy.bids) - 2])  # far past the 2 lowest raises
    assert game.to_move == opener
    bot.choose(game.view(game.to_move))
    assert bot.last_source == "fallback"
    assert isinstance(strategy.bids[0], Bid)


def test_the_recall_is_the_most_that_fits_the_budget() -> None:
    position = Position((2, 2))
    sizes = {k: abstract_size(RULES, position, k)[1] for k in range(1, 6)}
    assert all(sizes[k] < sizes[k + 1] for k in range(1, 5))
    hands = 6  # two dice of three faces
    for k in (2, 3, 4):
        fits = Abstraction(budget=sizes[k] * hands, most_recall=5)
        assert fits.shape(RULES, position) == (k, None)
    assert Abstraction(budget=1).shape(RULES, position) == (2, None)  # never below least


def test_the_lifted_stored_strategy_is_what_the_bot_plays_and_evaluates_as_sampled() -> None:
    position = Position((2, 1))
    round_ = build_round(RULES, position)
    strategy = _solved(position, 2)
    lifted = lift_strategy(strategy, round_)
    for node in (0, 1, 7, round_.nodes // 3, round_.nodes - 1):
        player = int(round_.actor[node])
        for hand in range(round_.hands(player)):
            options = strategy.options(round_.history(node), hand)
            assert options is not None
            want = dict(options)
            for child in round_.children(node):
                bid = int(round_.bid[child])
                assert lifted.sigma_in[child, hand] == pytest.approx(want[bid], abs=1e-6)
            if node > 0:
                assert lifted.sigma_call[node, hand] == pytest.approx(want[None], abs=1e-6)
    graph = build_abstract_round(RULES, position, 2)
    mean, error = sample_value(strategy, graph, 40_000, seed=1)
    assert evaluate(round_, lifted).value == pytest.approx(mean, abs=4 * error)
    windowed = _solved(position, 2, window=1)
    with pytest.raises(SolverError, match="no abstract"):
        lift_strategy(windowed, round_)


def _from_the_book_and_from_the_bot(round_: Round, bot: BookBot) -> ExactResult:
    """The exploitability measured from the book's strategy, checked against asking the bot
    at every information set (the same best responses)."""
    strategy = book_strategy(bot, round_)
    assert strategy is not None
    query = BotQuery(round_, bot)
    fast = exact_from_strategy(round_, strategy, query)
    slow = exact_exploitability(round_, (query, query))
    assert fast.best_response == pytest.approx(slow.best_response, abs=1e-5)
    return fast


def test_exploitability_from_the_book_equals_asking_the_bot_everywhere(tmp_path: Path) -> None:
    book = solve_book(RULES, 2, Budget(target=1e-3), tmp_path, abstraction=SMALL)
    position = Position((2, 2))
    round_ = build_round(RULES, position, book.continuation)
    bot = BookBot(random.Random(0), book=book, min_recall=2)
    fast = _from_the_book_and_from_the_bot(round_, bot)
    assert 0 < fast.exploitability < 0.5


def test_a_whole_tree_round_of_the_book_is_measured_from_its_strategy(tmp_path: Path) -> None:
    book = solve_book(RULES, 1, Budget(target=1e-3), tmp_path)
    round_ = build_round(RULES, Position((1, 1)), book.continuation)
    bot = BookBot(random.Random(0), book=book)
    fast = _from_the_book_and_from_the_bot(round_, bot)
    assert fast.exploitability <= 1e-3 + 1e-6
