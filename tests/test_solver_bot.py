"""The solver bot: plays a solver book's strategy in the heads-up rounds the book covers, in any
seating, and like the easy bot everywhere else; always legal, and stronger than easy."""

from __future__ import annotations

import json
import logging
import math
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from dudo.bots import BOT_NAMES, Bot, OutOfTurnCaller, make_bot, out_of_turn_call
from dudo.bots.book import BookBot
from dudo.bots.probability import ProbabilityBot
from dudo.engine import CALL, CLOSED, OPEN, Action, Bid, Game, Phase, Rules, preset
from dudo.solver import Position
from dudo.solver.book import Book, find_book, rules_id, solve_book
from dudo.solver.game import Budget
from dudo.solver.position import start_game
from dudo.solver.round import Round, hands_of

TINY = preset("liars-dice", faces=3, dice_per_player=2)
OBLIGE = preset("dudo", faces=3, dice_per_player=2, spot_on=False, pass_hands="none")
NO_BOOK = (
    preset(
        "dudo",
        faces=3,
        dice_per_player=2,
        spot_on=False,
        pass_hands="none",
        oblige_visibility="closed",
    ),
    preset("dudo"),
    preset("dudo", cruzado=True, dice_per_player=3, pass_hands="none"),
)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with books for TINY and OBLIGE (whole games: two dice each)."""
    folder = tmp_path_factory.mktemp("home")
    for rules in (TINY, OBLIGE):
        solve_book(rules, 2, Budget(target=1e-3, every=50), folder / "strategies" / rules_id(rules))
    return folder


@pytest.fixture
def books(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DUDO_HOME", str(home))
    return home


def book_of(home: Path, rules: Rules) -> Book:
    return Book.open(home / "strategies" / rules_id(rules))


# --- driving games -----------------------------------------------------------------------------


def play(rules: Rules, bots: Sequence[Bot], seed: int, sources: Counter[str] | None = None) -> Game:
    """A whole game between ``bots``, checking that every choice is legal and that the solver
    bots use their book only when two players are left (counted in ``sources``)."""
    game = Game(rules, len(bots), seed=seed)
    for _ in range(5000):
        if game.is_over:
            return game
        if rules.cruzado and game.bid is not None:
            called = False
            for seat, bot in enumerate(bots):
                if seat != game.to_move and (call := out_of_turn_call(bot, game.view(seat))):
                    game.push(call)
                    called = True
                    break
            if called:
                continue
        seat = game.to_move
        view = game.view(seat)
        bot = bots[seat]
        action = bot.choose(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        if isinstance(bot, BookBot):
            if bot.last_source == "book":
                assert sum(1 for c in view.dice_counts if c) == 2
            if sources is not None:
                sources[bot.last_source] += 1
        game.push(action)
    raise AssertionError(f"game not over: {game!r}")


def table(players: int, solver_seats: Sequence[int], seed: int) -> list[Bot]:
    return [
        BookBot(random.Random(seed * 10 + s))
        if s in solver_seats
        else ProbabilityBot(random.Random(seed * 10 + s))
        for s in range(players)
    ]


# --- the registry --------------------------------------------------------------------------------


def test_make_bot_builds_the_solver_level_as_hard() -> None:
    assert BOT_NAMES[-1] == "hard"  # weakest first
    bot = make_bot(" Solver ", random.Random(0))  # the old name of the book player
    assert isinstance(bot, BookBot) and bot.name == "hard"
    assert isinstance(bot, OutOfTurnCaller)


# --- always legal --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "book"),
    [
        (TINY, 2, True),
        (TINY, 4, True),
        (OBLIGE, 2, True),
        (OBLIGE, 3, True),
        (NO_BOOK[0], 2, False),
        (NO_BOOK[1], 2, False),
        (NO_BOOK[1], 4, False),
        (NO_BOOK[2], 3, False),
    ],
)
def test_games_are_legal_and_the_book_is_used_where_it_exists(
    books: Path, rules: Rules, players: int, book: bool
) -> None:
    sources: Counter[str] = Counter()
    games = 40 if sum(rules.dice_per_player for _ in range(players)) <= 8 else 6
    for seed in range(games):
        solver_seats = [seed % players, (seed + 2) % players] if players > 2 else [seed % 2]
        play(rules, table(players, solver_seats, seed), seed, sources)
    if book:
        assert sources["book"] > 0
    else:
        assert sources["book"] == 0 and sources["fallback"] > 0
    if players > 2:
        assert sources["fallback"] > 0  # before the table is down to two players


def test_heads_up_liars_dice_uses_the_shipped_book(books: Path) -> None:
    rules = preset("liars-dice")
    sources: Counter[str] = Counter()
    for seed in range(3):
        play(rules, table(2, [seed % 2], seed), seed, sources)
    # Every position up to 5v5 is in the book; the lookahead only answers a raise past an
    # abstract round's window of bids.
    assert sources["book"] > 0 and sources["fallback"] <= sources["book"] // 10


def test_a_solver_only_table(books: Path) -> None:
    for seed in range(10):
        play(TINY, table(3, [0, 1, 2], seed), seed)


def test_same_seeds_same_game(books: Path) -> None:
    first = play(OBLIGE, table(2, [0], 5), 5)
    again = play(OBLIGE, table(2, [0], 5), 5)
    assert first.history == again.history


# --- following the strategy ------------------------------------------------------------------------


#: Tables to play a canonical position at: (seats, (the opener's seat, the other's seat)).
FRAMES = ((2, (0, 1)), (2, (1, 0)), (4, (3, 1)), (5, (2, 4)))


def distribution(round_: Round, book: Book, node: int, hand: int) -> dict[Action, float]:
    _, strategy = book.policy(round_.position)
    out: dict[Action, float] = {
        round_.bids[int(round_.bid[c])]: float(strategy.sigma_in[c, hand])
        for c in round_.children(node)
    }
    if node > 0:
        out[CALL] = float(strategy.sigma_call[node, hand])
    return out


def walk(
    book: Book,
    position: Position,
    hands: tuple[tuple[int, ...], tuple[int, ...]],
    seats: int,
    where: tuple[int, int],
    rng: random.Random,
) -> int:
    """Play one round of ``position`` twice in step: in the solver's own frame (the
    reference: its signals and nodes) and at a table of ``seats`` where the opener sits at
    ``where[0]``, the solver bot choosing there. Returns how many pure choices were checked."""
    rules = book.rules
    round_, _ = book.policy(position)
    reference = start_game(rules, position, hands)
    table_hands: list[tuple[int, ...]] = [()] * seats
    table_hands[where[0]], table_hands[where[1]] = hands
    game = Game.with_hands(
        rules,
        table_hands,
        opener=where[0],
        obliged=[where[p] for p in position.obliged],
        obliger=where[0] if position.obliging else None,
        seed=0,
    )
    if game.phase is Phase.CHOOSE_VISIBILITY:
        game.push(OPEN if position.visibility == "open" else CLOSED)
    checked = 0
    history: list[int] = []
    while True:
        player = len(history) % 2
        node = round_.node_of(tuple(history))
        assert node is not None
        seen = reference.view(player)
        hand = round_.signals[player].index((seen.my_dice, seen.seen_dice))
        expected = distribution(round_, book, node, hand)
        bot = BookBot(rng, book=book)
        view = game.view(where[player])
        action = bot.choose(view)
        assert bot.last_source == "book"
        assert expected[action] > 0
        best, p = max(expected.items(), key=lambda ap: ap[1])
        if p >= 1 - 1e-6:
            assert action == best
            checked += 1
        if action == CALL:
            return checked
        assert isinstance(action, Bid)
        reference.push(action)
        game.push(action)
        history.append(round_.bids.index(action))


@pytest.mark.parametrize("rules", [TINY, OBLIGE], ids=["liars-dice", "dudo-obliging"])
def test_the_bot_follows_the_books_strategy_in_any_seating(home: Path, rules: Rules) -> None:
    book = book_of(home, rules)
    rng = random.Random(1)
    checked = 0
    for position in book.rounds:
        deals = [
            (a, b)
            for a in hands_of(rules, position.dice[0])[0]
            for b in hands_of(rules, position.dice[1])[0]
        ]
        for seats, where in FRAMES:
            for a, b in rng.sample(deals, min(len(deals), 6)):
                checked += walk(book, position, (a, b), seats, where, rng)
    assert checked > 50


def test_mixed_choices_come_with_the_books_frequencies(home: Path) -> None:
    book = book_of(home, TINY)
    position = Position((2, 1))
    round_, _ = book.policy(position)
    found = next(
        (node, hand, expected)
        for node in range(round_.nodes)
        for hand in range(round_.hands(int(round_.actor[node])))
        if 0.9 > max((expected := distribution(round_, book, node, hand)).values()) > 0
    )
    node, hand, expected = found
    player = int(round_.actor[node])
    hands = [(1,) * position.dice[0], (1,) * position.dice[1]]
    signal = round_.signals[player][hand]
    assert isinstance(signal, tuple) and isinstance(signal[0], tuple)
    hands[player] = signal[0]  # the actor's own dice
    game = start_game(TINY, position, hands)
    for b in round_.history(node):
        game.push(round_.bids[b])
    view = game.view(player)
    bot = BookBot(random.Random(7), book=book)
    draws = 2000
    counts = Counter(bot.choose(view) for _ in range(draws))
    assert len(counts) > 1
    for action, p in expected.items():
        spread = 5 * math.sqrt(p * (1 - p) / draws) + 1e-9
        assert abs(counts[action] / draws - p) <= spread, (action, p, counts[action])


def test_the_obliger_chooses_the_round_worth_more(home: Path) -> None:
    book = book_of(home, OBLIGE)
    chosen = [p for p in book.values if p.obliging and p.visibility is None]
    assert chosen
    for position in chosen:
        worth = {
            choice: book.value(Position(position.dice, 0, position.obliged, True, name))
            for choice, name in ((OPEN, "open"), (CLOSED, "closed"))
        }
        best = OPEN if worth[OPEN] >= worth[CLOSED] else CLOSED
        for seats, (opener, other) in FRAMES:
            hands: list[tuple[int, ...]] = [()] * seats
            hands[opener] = (1,) * position.dice[0]
            hands[other] = (1,) * position.dice[1]
            game = Game.with_hands(
                OBLIGE,
                hands,
                opener=opener,
                obliged=[(opener, other)[p] for p in position.obliged],
                obliger=opener,
            )
            assert game.phase is Phase.CHOOSE_VISIBILITY
            bot = BookBot(random.Random(0), book=book)
            assert bot.choose(game.view(opener)) == best
            assert bot.last_source == "book"
    # The 1v2 obliging round is worth more closed: unlike easy, the solver closes it.
    assert any(
        book.value(Position(p.dice, 0, p.obliged, True, "closed"))
        > book.value(Position(p.dice, 0, p.obliged, True, "open"))
        for p in chosen
    )


# --- falling back ----------------------------------------------------------------------------------


def test_without_a_book_it_plays_exactly_like_easy(books: Path) -> None:
    for rules in NO_BOOK:
        assert find_book(rules) is None
        for seed in range(4):
            game = Game(rules, 3, seed=seed)
            while not game.is_over:
                view = game.view(game.to_move)
                solver, easy = BookBot(random.Random(seed)), ProbabilityBot(random.Random(seed))
                action = solver.choose(view)
                assert action == easy.choose(view) and solver.last_source == "fallback"
                for seat in range(3):
                    other = game.view(seat)
                    if seat != game.to_move and other.legal_actions:
                        assert solver.wants_out_of_turn_call(other) == (
                            easy.wants_out_of_turn_call(other)
                        )
                game.push(action)


def test_a_damaged_book_falls_back_without_stopping_the_game(
    home: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "damaged"
    source = home / "strategies" / rules_id(TINY)
    folder.mkdir()
    for file in source.iterdir():
        (folder / file.name).write_bytes(file.read_bytes())
    for file in folder.glob("round-*.npz"):
        file.write_bytes(b"garbage")
    book = Book.open(folder)
    with caplog.at_level(logging.WARNING, logger="dudo.bots.book"):
        for seed in range(5):
            bots: list[Bot] = [
                BookBot(random.Random(seed), book=book),
                ProbabilityBot(random.Random(seed)),
            ]
            sources: Counter[str] = Counter()
            play(TINY, bots, seed, sources)
            assert sources["book"] == 0
    assert "falling back" in caplog.text and "round-" in caplog.text


def test_a_book_whose_tree_does_not_match_the_table_is_not_used(home: Path) -> None:
    # The dudo book at a liar's dice table: same positions, other bids (any-face raises).
    wrong = book_of(home, OBLIGE)
    sources: Counter[str] = Counter()
    for seed in range(10):
        bots: list[Bot] = [
            BookBot(random.Random(seed), book=wrong),
            ProbabilityBot(random.Random(seed)),
        ]
        play(TINY, bots, seed, sources)
    assert sources["fallback"] > 0


# --- strength --------------------------------------------------------------------------------------


def test_it_beats_easy_heads_up(home: Path) -> None:
    """Each seed is played twice, the solver in either seat (same dice sequence), so luck
    mostly cancels within a pair. Measured: the solver wins ~56.5% of the games, with a
    standard error of ~1.3 points over 800 pairs; the test asks for 2 standard errors above
    50% (a perturbation would have to cost it ~3 standard errors to fail it)."""
    book = book_of(home, TINY)
    pairs = []
    for seed in range(800):
        won = 0
        for seat in (0, 1):
            bots: list[Bot] = [ProbabilityBot(random.Random(seed)) for _ in range(2)]
            bots[seat] = BookBot(random.Random(seed), book=book)
            won += play(TINY, bots, seed).winner == seat
        pairs.append(won / 2)
    mean = sum(pairs) / len(pairs)
    spread = math.sqrt(sum((x - mean) ** 2 for x in pairs) / (len(pairs) - 1) / len(pairs))
    assert mean - 2 * spread > 0.5, (mean, spread)


# --- the terminal game ----------------------------------------------------------------------------


def test_dudo_play_with_solver_bots(home: Path, tmp_path: Path) -> None:
    env = {**os.environ, "DUDO_HOME": str(home), "COLUMNS": "100"}
    args = ["--players", "2", "--rules", "liars-dice", "--set", "faces=3"]
    args += ["--set", "dice_per_player=2", "--bots", "solver", "--seed", "3"]
    result = subprocess.run(
        [sys.executable, "-m", "dudo", "play", *args, "--record-dir", str(tmp_path)],
        input="1x2\ncall\n" * 60,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Traceback" not in output and "Winner" in output
    records = list(tmp_path.glob("*.json"))
    assert len(records) == 1
    record = json.loads(records[0].read_text())
    assert any(p.get("bot") == "hard" for p in record["players"])
