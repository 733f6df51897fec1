"""Solver books: a whole heads-up game solved, written, read back and checked; where books
are looked for; the book shipped with dudo; damaged and foreign books."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from dudo.bots import make_bot
from dudo.bots.book import BookBot
from dudo.engine import Bid, Game, preset
from dudo.solver import Position, SolverError, build_round
from dudo.solver.book import (
    BOOK_FILE,
    PLAY_RECALL,
    Book,
    book_root,
    find_book,
    rules_id,
    shipped_root,
    solve_book,
)
from dudo.solver.evaluate import evaluate
from dudo.solver.game import Budget, GameSolver

RULES = preset("liars-dice", faces=3)
BUDGET = Budget(target=1e-4, every=50)
ALL = [Position((1, 1)), Position((1, 2)), Position((2, 1)), Position((2, 2))]


@pytest.fixture(scope="module")
def book_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("books") / rules_id(RULES)
    lines: list[str] = []
    solve_book(RULES, 2, BUDGET, folder, lines.append)
    assert len(lines) == 4  # one report line per round
    return folder


def copy_of(book_dir: Path, tmp_path: Path) -> Path:
    folder = tmp_path / book_dir.name
    shutil.copytree(book_dir, folder)
    return folder


def edit_json(folder: Path, change: dict[str, object]) -> None:
    path = folder / BOOK_FILE
    data = json.loads(path.read_text())
    data.update(change)
    path.write_text(json.dumps(data))


# --- round trip -------------------------------------------------------------------------------


def test_the_book_holds_the_game_solvers_values(book_dir: Path) -> None:
    book = Book.open(book_dir)
    solver = GameSolver(RULES, BUDGET)
    for start in ALL:
        solver.value(start)
    assert book.values == solver.values  # the same deterministic solve, exactly
    assert set(book.rounds) == set(ALL)
    assert book.starts == tuple(ALL)
    assert book.max_dice == 2 and book.rules == RULES and book.id == book_dir.name
    assert book.min_recall == PLAY_RECALL and book.value_changes == ()  # no spot-on
    for position, entry in book.rounds.items():
        assert (book_dir / entry.file).is_file()
        assert entry.label == position.label()
        assert entry.exploitability is not None and entry.exploitability <= BUDGET.target
        assert entry.value == pytest.approx(book.values[position], abs=1e-6)
        assert entry.iterations > 0 and entry.seconds > 0


def test_policies_evaluate_to_the_stored_numbers(book_dir: Path) -> None:
    book = Book.open(book_dir)
    for position, entry in book.rounds.items():
        round_, strategy = book.policy(position)
        assert not round_.payoff.any() and not round_.outcomes  # rebuilt without payoffs
        full = book.game_round(position)
        assert (round_.nodes, round_.second, round_.signals) == (
            full.nodes,
            full.second,
            full.signals,
        )
        result = evaluate(full, strategy)
        assert result.exploitability == pytest.approx(entry.exploitability, abs=1e-12)
        assert result.value == pytest.approx(entry.value, abs=1e-12)


def test_the_strategy_files_are_marked_as_game_strategies(book_dir: Path) -> None:
    with np.load(book_dir / "round-2v1.npz") as archive:
        meta = json.loads(str(archive["meta"][()]))
        assert set(archive.files) == {"meta", "p0_bid", "p0_call", "p1_bid", "p1_call"}
    assert meta["format"] == "dudo-solver-strategy" and meta["payoff"] == "game"
    assert meta["position"] == Position((2, 1)).to_dict()
    assert meta["rules"] == RULES.to_dict()


def test_values_and_policies_in_any_labelling(book_dir: Path) -> None:
    book = Book.open(book_dir)
    swapped = Position((1, 2), opener=1)  # the 2v1 round, seen from the other seat
    assert book.value(swapped) == book.values[Position((2, 1))]
    assert book.solved(swapped) and book.has_value(swapped)
    first = book.policy(swapped)
    assert first is book.policy(Position((2, 1)))  # loaded once, then cached
    assert first[0].position == Position((2, 1))
    # Liar's dice has no obliging rounds: obliged marks cannot matter and are dropped.
    assert book.value(Position((2, 1), obliged=frozenset({1}))) == book.value(swapped)
    with pytest.raises(SolverError, match="no value for 3v1"):
        book.value(Position((3, 1)))
    with pytest.raises(SolverError, match="no strategy for the round 3v1"):
        book.policy(Position((3, 1)))


def test_a_book_of_some_starts_only(tmp_path: Path) -> None:
    book = solve_book(RULES, 2, BUDGET, tmp_path / "part", starts=[Position((2, 1))])
    # 2v1 leads to 1v1 (either player may open it) or ends the game.
    assert set(book.rounds) == {Position((2, 1)), Position((1, 1))}
    assert not book.solved(Position((2, 2))) and not book.has_value(Position((1, 2)))
    with pytest.raises(SolverError, match="more than max_dice=1"):
        solve_book(RULES, 1, BUDGET, tmp_path / "bad", starts=[Position((2, 1))])
    with pytest.raises(SolverError, match="reveal_reroll=false"):
        solve_book(preset("dudo", reveal_reroll=True), 1, BUDGET, tmp_path / "reroll")


# --- where books live ----------------------------------------------------------------------------


def test_rules_id_is_short_stable_and_ignores_seating() -> None:
    assert rules_id(RULES) == rules_id(preset("liars-dice", faces=3))
    assert len(rules_id(RULES)) == 12 and int(rules_id(RULES), 16) >= 0
    assert rules_id(RULES) != rules_id(preset("liars-dice"))
    assert rules_id(RULES) == rules_id(preset("liars-dice", faces=3, seating="roll", max_players=4))
    assert rules_id(RULES) != rules_id(preset("liars-dice", faces=3, next_opener="winner"))


def test_book_root_follows_dudo_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUDO_HOME", str(tmp_path))
    assert book_root() == tmp_path / "strategies"
    monkeypatch.setenv("DUDO_HOME", "  ")
    assert book_root().name == "strategies" and book_root().parent != tmp_path


def test_find_book_looks_in_the_user_folder_first(
    book_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    shutil.copytree(book_dir, second / book_dir.name)
    found = find_book(RULES, [first, second])
    assert found is not None and found.directory == second / book_dir.name
    shutil.copytree(book_dir, first / book_dir.name)
    found = find_book(RULES, [first, second])
    assert found is not None and found.directory == first / book_dir.name
    assert find_book(RULES, [first]) is find_book(RULES, [first])  # opened once
    assert find_book(preset("liars-dice", faces=4), [first, second]) is None
    monkeypatch.setenv("DUDO_HOME", str(tmp_path / "home"))
    assert find_book(RULES) is None
    shutil.copytree(book_dir, tmp_path / "home" / "strategies" / book_dir.name)
    found = find_book(RULES)
    assert found is not None and found.values == Book.open(book_dir).values


def test_a_broken_book_where_one_is_looked_for_is_an_error(book_dir: Path, tmp_path: Path) -> None:
    folder = copy_of(book_dir, tmp_path)
    edit_json(folder, {"rules": preset("liars-dice", faces=4).to_dict()})
    with pytest.raises(SolverError, match="built for other rules"):
        find_book(RULES, [tmp_path])


def test_the_shipped_book() -> None:
    rules = preset("liars-dice")
    book = find_book(rules, [shipped_root()])
    assert book is not None
    assert book.directory == shipped_root() / rules_id(rules)
    assert book.max_dice == 5
    every = {Position((a, b)) for a in range(1, 6) for b in range(1, 6)}
    assert set(book.rounds) == every
    for position, entry in book.rounds.items():
        if sum(position.dice) <= 3:  # the whole tree, to the target
            assert entry.kind == "tree"
            assert entry.exploitability is not None and entry.exploitability <= 1e-3
        else:
            assert entry.kind == "abstract" and entry.exploitability is None
    total = sum(f.stat().st_size for f in book.directory.iterdir())
    assert total < 45 * 2**20  # the wheel stays well under 60 MB
    # The opener of one die each is slightly behind (cf. -7/258 with aces high); more dice
    # than the other is an advantage, and equal dice are close to even.
    assert -0.05 < book.value(Position((1, 1))) < 0
    for position in every:
        a, b = position.dice
        value = book.value(position)
        assert (value > 0.3) if a > b else (value < -0.3) if a < b else abs(value) < 0.05
    round_, strategy = book.policy(Position((1, 1)))
    assert round_.nodes == 4096 and strategy.sigma_in.shape[0] == 4096


def test_hard_plays_the_shipped_book_at_every_position() -> None:
    rules = preset("liars-dice")
    book = find_book(rules, [shipped_root()])
    assert book is not None and book.min_recall == PLAY_RECALL
    bot = make_bot("hard", random.Random(3))
    assert isinstance(bot, BookBot)
    for a in range(1, 6):
        for b in range(1, 6):
            game = Game(rules, 2, seed=a * 10 + b, dice=[a, b])
            for _ in range(3):  # the opening and two more bids, whoever makes them
                view = game.view(game.to_move)
                action = bot.choose(view)
                assert bot.last_source == "book", (a, b, view.round_actions)
                assert action in view.legal_actions
                if not isinstance(action, Bid):
                    break
                game.push(action)


# --- damaged and foreign books --------------------------------------------------------------------


def test_missing_or_foreign_books_are_clear_errors(book_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(SolverError, match="no such folder"):
        Book.open(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SolverError, match=r"has no book\.json"):
        Book.open(tmp_path / "empty")
    folder = copy_of(book_dir, tmp_path)
    (folder / BOOK_FILE).write_text("{not json")
    with pytest.raises(SolverError, match="is not JSON"):
        Book.open(folder)
    (folder / BOOK_FILE).write_text("[1, 2]")
    with pytest.raises(SolverError, match="not a JSON object"):
        Book.open(folder)
    (folder / BOOK_FILE).write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SolverError, match="cannot be read"):
        Book.open(folder)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "dudo-record"}, "format 'dudo-record', not a dudo solver book"),
        ({"version": 99}, "book version 99"),
        ({"rules": {"faces": "many"}}, "rules are not valid"),
        (
            {"rules": preset("dudo", reveal_reroll=True).to_dict()},
            "cannot be solved.*reveal_reroll=false",
        ),
        ({"max_dice": 9}, "max_dice 9"),
        ({"values": "all"}, "'values' is missing or not a list"),
        ({"values": [{"position": {"dice": [1]}, "value": 0.5}]}, "not a position"),
        ({"starts": [{"dice": [1, 1], "opener": 1}]}, "not a canonical position"),
        ({"values": [{"position": Position((1, 1)).to_dict(), "value": 2}]}, "outside"),
        ({"values": []}, "has no game value"),
    ],
)
def test_bad_book_files_are_named(
    book_dir: Path, tmp_path: Path, change: dict[str, object], message: str
) -> None:
    folder = copy_of(book_dir, tmp_path)
    edit_json(folder, change)
    with pytest.raises(SolverError, match=message) as caught:
        Book.open(folder)
    assert str(folder / BOOK_FILE) in str(caught.value)


def test_bad_round_entries_are_named(book_dir: Path, tmp_path: Path) -> None:
    folder = copy_of(book_dir, tmp_path)
    rounds = json.loads((folder / BOOK_FILE).read_text())["rounds"]
    for file, message in (
        ("../round-1v1.npz", "names no plain .npz file"),
        ("gone.npz", "strategy file gone.npz of 1v1 is missing"),
    ):
        edit_json(folder, {"rounds": [{**rounds[0], "file": file}]})
        with pytest.raises(SolverError, match=message):
            Book.open(folder)
    edit_json(folder, {"rounds": [rounds[0], rounds[0]]})
    with pytest.raises(SolverError, match="listed twice"):
        Book.open(folder)


def test_damaged_strategy_files_are_named_when_loaded(book_dir: Path, tmp_path: Path) -> None:
    folder = copy_of(book_dir, tmp_path)
    (folder / "round-1v1.npz").write_bytes(b"not a zip file")
    shutil.copy(folder / "round-1v2.npz", folder / "round-2v1.npz")  # another round's file
    np.savez(folder / "round-2v2.npz", p0_bid=np.zeros(3))  # no metadata
    book = Book.open(folder)  # strategies are read on demand
    for position, message in (
        (Position((1, 1)), r"round-1v1.npz is not a dudo strategy file \(not a numpy"),
        (Position((2, 1)), r"round-2v1.npz: it holds the round '1v2', not 2v1"),
        (Position((2, 2)), r"round-2v2.npz has no 'meta' entry"),
    ):
        with pytest.raises(SolverError, match=message):
            book.policy(position)


def test_a_strategy_file_that_does_not_fit_is_refused(book_dir: Path, tmp_path: Path) -> None:
    folder = copy_of(book_dir, tmp_path)
    path = folder / "round-1v1.npz"
    with np.load(path) as archive:
        entries = {name: archive[name] for name in archive.files}
    meta = json.loads(str(entries["meta"][()]))
    for change, message in (
        ({"payoff": "round"}, "payoffs are not game values"),
        ({"tree": {**meta["tree"], "nodes": 5}}, "stored tree"),
        ({"signals": [[], []]}, "stored signals differ"),
        ({"rules": preset("liars-dice", faces=4).to_dict()}, "other rules"),
    ):
        np.savez(path, **{**entries, "meta": np.array(json.dumps({**meta, **change}))})
        with pytest.raises(SolverError, match=message):
            Book.open(folder).policy(Position((1, 1)))
    bad = {**entries, "p0_call": np.full_like(entries["p0_call"], 5.0)}
    np.savez(path, **bad)
    with pytest.raises(SolverError, match=r"round-1v1\.npz: .*p0_call"):
        Book.open(folder).policy(Position((1, 1)))


def test_building_a_round_without_payoffs() -> None:
    full = build_round(RULES, Position((2, 1)))
    light = build_round(RULES, Position((2, 1)), payoffs=False)
    assert light.nodes == full.nodes and light.signals == full.signals
    assert np.array_equal(light.parent, full.parent) and np.array_equal(light.bid, full.bid)
    for p in (0, 1):
        assert np.array_equal(light.signal_prob[p], full.signal_prob[p])
    assert full.payoff.any() and not light.payoff.any() and not light.outcomes
