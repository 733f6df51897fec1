"""The batched simulator against the engine: for every preset and random house rules, the
same seating, dice and actions give identical legal actions, dice counts, outcomes, rewards
and observation vectors in :class:`BatchGame` and in :class:`Game`, step by step
(docs/rules.md is the rules both follow)."""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dudo.engine import Bid, Game, Rules, Setup, preset
from dudo.engine.batch import BIDDING, CHOOSING, OVER, BatchGame, batch_tables
from dudo.engine.errors import DudoError, IllegalActionError, RulesError
from dudo.engine.rules import OPTIONS, PRESETS, PassHand

#: Options the batched simulator refuses (no preset uses them).
REFUSED = ("cruzado", "reveal_reroll")


class DealtByBatch:
    """The engine's chance source in these tests: the hands the batch dealt, in seat order."""

    def __init__(self) -> None:
        self.hands: deque[tuple[int, ...]] = deque()

    def roll(self, count: int, faces: int) -> tuple[int, ...]:
        hand = self.hands.popleft()
        assert len(hand) == count, f"the engine rolls {count} dice where the batch dealt {hand}"
        return hand

    def order(self, players: int) -> tuple[int, ...]:
        raise AssertionError("the seating is given to the engine as the batch drew it")


def load_deal(batch: BatchGame, i: int, chance: DealtByBatch) -> None:
    for p in range(batch.players):
        if batch.counts[i, p]:
            chance.hands.append(batch.hand(i, p))


def play_both(
    rules: Rules,
    players: int,
    n: int,
    seed: int,
    max_steps: int = 400,
    setup: Setup | None = None,
) -> int:
    """Random legal play of ``n`` games in a batch and in ``n`` engine games, compared at
    every step; returns how many games finished."""
    setup = Setup(players) if setup is None else setup
    batch = BatchGame(rules, n=n, setup=setup, seed=seed)
    encoding, layout = batch.encoding, batch.layout
    chances = [DealtByBatch() for _ in range(n)]
    games = []
    for i in range(n):
        if batch.phase[i] != CHOOSING:  # an obliger's choice comes before the deal
            load_deal(batch, i, chances[i])
        order = tuple(int(p) for p in batch.order[i])
        if setup.order is not None:
            assert order == setup.order
        games.append(Game(rules, chance=chances[i], setup=replace(setup, order=order)))
    for step in range(max_steps):
        mask = batch.legal_mask()
        # Each seat's view of each game, made once a step (the mover's is checked twice).
        views = [[game.view(p) for p in range(players)] for game in games]
        for i, game in enumerate(games):
            where = f"step {step}, game {i}: {game!r}"
            assert tuple(int(c) for c in batch.counts[i]) == game.counts, where
            if game.is_over:
                assert batch.phase[i] == OVER and batch.winner[i] == game.winner, where
                assert not mask[i].any(), where
                continue
            assert batch.winner[i] == -1 and batch.to_move[i] == game.to_move, where
            want = encoding.mask(views[i][game.to_move]).astype(bool)
            assert (mask[i] == want).all(), (
                f"{where}: batch {np.flatnonzero(mask[i]).tolist()}, "
                f"engine {np.flatnonzero(want).tolist()}"
            )
        for p in range(players):
            seen = batch.observe(p)
            for i, seats in enumerate(views):
                want = layout.encode(seats[p])
                wrong = np.flatnonzero(seen[i] != want)
                assert wrong.size == 0, (
                    f"step {step}, game {i}, player {p}: sections "
                    f"{[k for k, (a, b) in layout.sections.items() if any(a <= w < b for w in wrong)]}"
                )
        if batch.is_over.all():
            return n
        actions = batch.random_actions(mask)
        rounds, phases = batch.round_number.copy(), batch.phase.copy()
        rewards = batch.step(actions)
        for i, game in enumerate(games):
            if actions[i] < 0:
                assert not rewards[i].any()
                continue
            new_round = batch.round_number[i] != rounds[i] and batch.phase[i] == BIDDING
            chosen = phases[i] == CHOOSING and batch.phase[i] == BIDDING
            if new_round or chosen:
                load_deal(batch, i, chances[i])
            action = encoding.action(int(actions[i]))
            game.push(action)  # type: ignore[arg-type]
            assert not chances[i].hands, "the engine dealt what the batch dealt"
            if game.is_over:
                expect = np.full(players, -1.0)
                expect[game.winner] = 1.0
                assert (rewards[i] == expect).all()
            else:
                assert not rewards[i].any()
    return int(batch.is_over.sum())


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_preset_plays_as_the_engine(name: str, players: int) -> None:
    rules = preset(name)
    if rules.max_players is not None and players > rules.max_players:
        pytest.skip(f"{name} seats at most {rules.max_players}")
    finished = play_both(rules, players, n=6, seed=players * 101, max_steps=600)
    assert finished == 6, "whole games, to the winner"


def option_values(name: str) -> st.SearchStrategy[Any]:
    """Any valid value of an option, from its description in dudo.engine.rules."""
    option = OPTIONS[name]
    choices = option.choices()
    if choices is not None:
        return st.sampled_from(choices)
    if option.kind is frozenset:
        return st.frozensets(st.sampled_from(list(PassHand)))
    low = option.low if option.low is not None else 0
    high = option.high if option.high is not None else low + 6
    values = st.integers(low, high)
    return st.none() | values if option.none_ok else values


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.data(), st.integers(0, 2**32 - 1))
def test_games_from_any_dice_counts_play_as_the_engine(
    name: str, data: st.DataObject, seed: int
) -> None:
    """Positions set up mid-game: any dice counts (a player with none is out), and the dice
    the game began with."""
    rules = preset(name)
    top = min(6, rules.max_players or 6)
    players = data.draw(st.integers(2, top))
    dice = tuple(data.draw(st.lists(st.integers(0, 5), min_size=players, max_size=players)))
    assume(sum(1 for d in dice if d) >= 2)
    start_total = data.draw(st.integers(sum(dice), players * 5))
    setup = Setup(players, dice=dice, start_total=start_total)
    play_both(rules, players, n=4, seed=seed, max_steps=250, setup=setup)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.data(), st.integers(0, 2**32 - 1))
def test_games_from_any_setup_play_as_the_engine(name: str, data: st.DataObject, seed: int) -> None:
    """A whole Setup given to both: a fixed seating, players obliged already, and round 1
    an obliging round."""
    rules = preset(name)
    top = min(6, rules.max_players or 6)
    players = data.draw(st.integers(2, top))
    dice = tuple(data.draw(st.lists(st.integers(0, 5), min_size=players, max_size=players)))
    assume(sum(1 for d in dice if d) >= 2)
    order = data.draw(st.none() | st.permutations(range(players)).map(tuple))
    obliged = data.draw(st.frozensets(st.integers(0, players - 1)))
    holding = [p for p in range(players) if dice[p]]
    obliger = data.draw(st.none() | st.sampled_from(holding)) if rules.oblige else None
    setup = Setup(players, order, dice, None, obliged, obliger)
    play_both(rules, players, n=4, seed=seed, max_steps=250, setup=setup)


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[Rules, int]:
    base = preset(draw(st.sampled_from(sorted(PRESETS))))
    names = [n for n in OPTIONS if n not in REFUSED]
    changed = draw(st.lists(st.sampled_from(names), max_size=8, unique=True))
    options = {n: draw(option_values(n)) for n in changed}
    try:
        rules = base.with_options(**options)
    except RulesError:
        assume(False)
        raise
    top = rules.max_players if rules.max_players is not None else 6
    assume(rules.min_players <= min(top, 6))
    players = draw(st.integers(rules.min_players, min(top, 6)))
    return rules, players


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(house_rules(), st.integers(0, 2**32 - 1))
def test_random_house_rules_play_as_the_engine(table: tuple[Rules, int], seed: int) -> None:
    rules, players = table
    play_both(rules, players, n=4, seed=seed, max_steps=250)


def test_the_raise_tables_come_from_the_engine() -> None:
    rules = preset("dudo")
    tables = batch_tables(rules, 2)
    assert tables is batch_tables(rules, 2), "shared per rule set"
    encoding = tables.encoding
    standing = encoding.bid_id(Bid(3, 5))  # NORMAL context: row = bid id
    raises = {str(encoding.bid(int(b))) for b in np.flatnonzero(tables.rows[standing])}
    assert "3x6" in raises and "2x1" in raises and "4x2" in raises
    assert "3x4" not in raises and "1x1" not in raises


def test_an_illegal_action_changes_nothing() -> None:
    batch = BatchGame(preset("liars-dice"), 2, 3, seed=5)
    before = {k: np.copy(v) for k, v in vars(batch).items() if isinstance(v, np.ndarray)}
    actions = batch.random_actions()
    actions[1] = batch.encoding.call_id  # nobody has bid yet: no call
    with pytest.raises(IllegalActionError, match=r"game 1: call .* is not legal now"):
        batch.step(actions)
    actions[1] = batch.num_actions + 3
    with pytest.raises(IllegalActionError, match=r"game 1: action id .* is outside"):
        batch.step(actions)
    with pytest.raises(DudoError, match="actions: 2 given for 3 games"):
        batch.step(actions[:2])
    after = {k: v for k, v in vars(batch).items() if isinstance(v, np.ndarray)}
    for name, value in before.items():
        assert (after[name] == value).all(), name


def test_skipped_and_finished_games_do_not_move() -> None:
    batch = BatchGame(preset("liars-dice"), 2, 2, seed=9)
    actions = batch.random_actions()
    actions[0] = -1
    batch.step(actions)
    assert batch.round_length.tolist() == [0, 1]
    while not batch.is_over[1]:
        actions = batch.random_actions()
        actions[0] = -1
        batch.step(actions)
    over = batch.winner[1]
    batch.step(np.array([-1, 0]))  # a game that is over ignores its action
    assert batch.winner[1] == over and batch.phase[1] == OVER
    batch.reset(np.array([False, True]))
    assert batch.phase.tolist() == [BIDDING, BIDDING] and batch.winner[1] == -1
    assert batch.counts[1].tolist() == [5, 5] and batch.round_length[0] == 0


def test_refused_options_and_arguments_say_what_is_wrong() -> None:
    with pytest.raises(DudoError, match="cruzado"):
        BatchGame(preset("dudo", cruzado=True), 3, 4)
    with pytest.raises(DudoError, match="reveal_reroll"):
        BatchGame(preset("dudo", reveal_reroll=True), 3, 4)
    with pytest.raises(DudoError, match="n: 0 is not a number of games"):
        BatchGame(preset("dudo"), 3, 0)
    with pytest.raises(DudoError, match="above max_players=6"):
        BatchGame(preset("perudo"), 7, 4)
    with pytest.raises(DudoError, match="at least two players need dice"):
        BatchGame(preset("perudo"), 3, 4, dice=(0, 0, 3))
    with pytest.raises(DudoError, match="start_total: 5 is below the 6 dice in play"):
        BatchGame(preset("perudo"), 3, 4, dice=(1, 2, 3), start_total=5)
    with pytest.raises(DudoError, match="there is no player 3"):
        BatchGame(preset("dudo"), 3, 4).observe(3)
    with pytest.raises(DudoError, match=r"games: indices must be 0\.\.3"):
        BatchGame(preset("dudo"), 3, 4).reset(np.array([4]))


def test_the_batch_takes_the_games_setup() -> None:
    rules = preset("dudo")
    setup = Setup(3, order=(2, 0, 1), dice=(3, 0, 5), obliged=frozenset({0}))
    batch = BatchGame(rules, n=2, setup=setup, seed=1)
    assert batch.setup is setup and batch.players == 3
    assert batch.order.tolist() == [[2, 0, 1], [2, 0, 1]]
    assert batch.counts.tolist() == [[3, 0, 5], [3, 0, 5]]
    assert batch.obliged.tolist() == [[True, False, False]] * 2
    assert BatchGame(rules, 3, 2, dice=(3, 0, 5)).setup == Setup(3, dice=(3, 0, 5))
    with pytest.raises(DudoError, match="give the setup either whole"):
        BatchGame(rules, 3, 2, setup=Setup(3))
    with pytest.raises(DudoError, match=r"obliger: player 1 has no dice"):
        BatchGame(rules, n=2, setup=Setup(3, dice=(3, 0, 5), obliger=1))


def test_the_same_seed_plays_the_same_games() -> None:
    def run(seed: int) -> list[list[int]]:
        batch = BatchGame(preset("dudo"), 4, 8, seed=seed)
        seen = []
        while not batch.is_over.all():
            actions = batch.random_actions()
            batch.step(actions)
            seen.append(actions.tolist())
        return seen

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_seating_and_dice_are_fair() -> None:
    """Every seat opens equally often, and each face comes up a sixth of the time."""
    batch = BatchGame(preset("dudo"), 3, 30_000, seed=1)
    openers = np.bincount(batch.opener, minlength=3) / batch.n
    assert np.abs(openers - 1 / 3).max() < 0.015
    faces = batch.hands.sum(axis=(0, 1)) / batch.hands.sum()
    assert np.abs(faces - 1 / 6).max() < 0.005
