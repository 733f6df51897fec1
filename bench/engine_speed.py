"""Engine speed: complete random games through the public API, against OpenSpiel.

Run by hand (not a test):  python bench/engine_speed.py [--seconds 1.0] [--repeats 5]

(a) heads-up, single-round ``liars-dice`` with 1 and with 5 dice each, beside OpenSpiel's
    ``liars_dice`` (numdice 1 and 5) driven by the same kind of Python loop; the ratio
    ours/OpenSpiel is the median over repetitions that alternate the two in one run.
(b) full 6-player ``dudo`` games.
(c) the batched simulator (``dudo.engine.batch``): heads-up ``liars-dice`` with 5 dice each,
    whole games of random legal actions (drawn by ``BatchGame.random_actions``), games that
    end started again at once, at N = 1, 64 and 4096 games stepped together; actions/s and
    the ratio to OpenSpiel's actions/s in case (a) with 5 dice. Then 6-player ``dudo`` at
    N = 4096, against case (b).
(d) our OpenSpiel game ``python_dudo`` (``liars-dice``, whole games) driven through pyspiel by
    the same loop as OpenSpiel's native ``liars_dice``: actions/s of each and their ratio.
(e) the floor: case (a)'s loop over :class:`FloorGame`, the least any Python engine with
    ``Game``'s loop (``Game(...)``, ``legal_actions()``, ``push(action)``, ``round_number``,
    ``is_over``) must do for a heads-up round, and nothing else; its ratio to OpenSpiel is the
    most that case (a) could show for any engine written in Python.

OpenSpiel comes from the optional extra:  pip install -e '.[open-spiel]'
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from dudo.engine import CALL, Action, Bid, Game, RandomChance, Rules, preset
from dudo.engine.bids import BidTable, RaiseContext, bid_table

_NORMAL_CONTEXT = RaiseContext.NORMAL

Runner = Callable[[float], tuple[int, int]]


def ours_single_round(rules: Rules) -> Runner:
    """Random legal play until the first round is decided (the first die lost or won)."""

    def run(seconds: float) -> tuple[int, int]:
        rng = random.Random(1)
        chance = RandomChance(rng=rng)
        choice = rng.choice
        games = actions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(100):
                game = Game(rules, 2, chance=chance)
                while game.round_number == 1 and not game.is_over:
                    game.push(choice(game.legal_actions()))
                    actions += 1
                games += 1
        return games, actions

    return run


def ours_full_game(rules: Rules, players: int) -> Runner:
    """Random legal play of whole games, every player (out-of-turn calls included)."""

    def run(seconds: float) -> tuple[int, int]:
        rng = random.Random(2)
        chance = RandomChance(rng=rng)
        choice = rng.choice
        games = actions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            game = Game(rules, players, chance=chance)
            while not game.is_over:
                game.push(choice(game.legal_actions()))
                actions += 1
            games += 1
        return games, actions

    return run


class FloorGame:
    """A heads-up ``liars-dice`` round reduced to what the benchmark loop itself needs: two
    hands dealt from a seeded generator and sorted, the engine's own memoised lists of legal
    bids (the same lists ``Game`` returns), a membership check and the history on each push,
    and the count and loser on the call. No seating, events, chance record, undo, views,
    validation or rule variants: every one of those is more work for a real engine."""

    __slots__ = (
        "bid",
        "dice",
        "hands",
        "history",
        "is_over",
        "loser",
        "round_number",
        "table",
        "to_move",
    )

    def __init__(self, table: BidTable, dice: int, faces: int, rng: random.Random) -> None:
        rand = rng.random
        self.hands = (
            tuple(sorted([int(rand() * faces) + 1 for _ in range(dice)])),
            tuple(sorted([int(rand() * faces) + 1 for _ in range(dice)])),
        )
        self.table, self.dice = table, dice
        self.bid: Bid | None = None
        self.history: list[tuple[int, Action]] = []
        self.round_number, self.to_move, self.is_over, self.loser = 1, 0, False, -1

    def legal_actions(self) -> list[Action]:
        if self.bid is None:
            return [*self.table.opening_tuples[self.dice]]
        return [*self.table.raise_calls[_NORMAL_CONTEXT][self.bid]]

    def push(self, action: Action) -> None:
        if type(action) is Bid:
            legal = (
                self.table.opening_sets[self.dice]
                if self.bid is None
                else self.table.raise_sets[_NORMAL_CONTEXT][self.bid]
            )
            if action not in legal:
                raise ValueError(action)
            self.bid = action
            self.history.append((self.to_move, action))
            self.to_move ^= 1
            return
        bid = self.bid
        assert bid is not None and action is CALL
        a, b = self.hands
        count = a.count(bid.face) + b.count(bid.face)
        if bid.face != 1:
            count += a.count(1) + b.count(1)
        self.loser = 1 - self.to_move if count < bid.quantity else self.to_move
        self.history.append((self.to_move, action))
        self.is_over, self.round_number = True, 2


def floor_single_round(rules: Rules) -> Runner:
    """Case (a)'s loop, over :class:`FloorGame`."""

    # The bid table is the engine's own, looked up once: any engine may keep it per rule set.
    dice, faces = rules.dice_per_player, rules.faces
    table = bid_table(rules, 2 * dice, False)

    def run(seconds: float) -> tuple[int, int]:
        rng = random.Random(1)
        choice = rng.choice
        games = actions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(100):
                game = FloorGame(table, dice, faces, rng)
                while game.round_number == 1 and not game.is_over:
                    game.push(choice(game.legal_actions()))
                    actions += 1
                games += 1
        return games, actions

    return run


def batched_games(rules: Rules, players: int, n: int) -> Runner:
    """Random legal play of ``n`` games stepped together; a game that ends starts again."""
    from dudo.engine.batch import BatchGame

    def run(seconds: float) -> tuple[int, int]:
        batch = BatchGame(rules, players, n, seed=3)
        games = actions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(20):
                over = batch.is_over
                if over.any():
                    games += int(over.sum())
                    batch.reset(over)
                chosen = batch.random_actions()
                batch.step(chosen)
                actions += int((chosen >= 0).sum())
        return games, actions

    return run


def python_dudo(numdice: int) -> Runner | None:
    try:
        from dudo.research.openspiel_game import load_game
    except ImportError:
        return None
    return openspiel_loop(load_game("liars-dice", 2, dice_per_player=numdice))


def openspiel_liars_dice(numdice: int) -> Runner | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return openspiel_loop(pyspiel.load_game("liars_dice", {"numdice": numdice, "players": 2}))


def openspiel_loop(game_type: Any) -> Runner:
    """Random play of whole games of an OpenSpiel game, chance by its outcomes."""

    def run(seconds: float) -> tuple[int, int]:
        rng = random.Random(1)
        choice = rng.choice
        games = actions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(100):
                state = game_type.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(choice(state.chance_outcomes())[0])
                    else:
                        state.apply_action(choice(state.legal_actions()))
                        actions += 1
                games += 1
        return games, actions

    return run


def measure(runner: Runner, seconds: float) -> tuple[float, float]:
    start = time.perf_counter()
    games, actions = runner(seconds)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions (median reported)")
    args = parser.parse_args()

    print(f"{'case':<40} {'games/s':>10} {'actions/s':>11} {'ours/OpenSpiel':>15}")
    for dice in (1, 5):
        rules = preset("liars-dice", dice_per_player=dice)
        ours = ours_single_round(rules)
        theirs = openspiel_liars_dice(dice)
        ours_runs, theirs_runs, ratios = [], [], []
        for _ in range(args.repeats):
            ours_runs.append(measure(ours, args.seconds))
            if theirs is not None:
                theirs_runs.append(measure(theirs, args.seconds))
                ratios.append(ours_runs[-1][0] / theirs_runs[-1][0])
        games = statistics.median(g for g, _ in ours_runs)
        acts = statistics.median(a for _, a in ours_runs)
        ratio = f"{statistics.median(ratios):.2f}" if ratios else "n/a"
        print(
            f"{f'liars-dice 1v1 single round, {dice} dice':<40} {games:>10.0f} {acts:>11.0f} {ratio:>15}"
        )
        if theirs_runs:
            games = statistics.median(g for g, _ in theirs_runs)
            acts = statistics.median(a for _, a in theirs_runs)
            print(f"{f'  OpenSpiel liars_dice, numdice={dice}':<40} {games:>10.0f} {acts:>11.0f}")
        else:
            print("  OpenSpiel not installed: pip install -e '.[open-spiel]'")

    full = ours_full_game(preset("dudo"), 6)
    runs = [measure(full, args.seconds) for _ in range(args.repeats)]
    games = statistics.median(g for g, _ in runs)
    engine_full = statistics.median(a for _, a in runs)
    print(f"{'dudo, 6 players, full games':<40} {games:>10.1f} {engine_full:>11.0f}")

    print(f"\n{'batched simulator':<40} {'games/s':>10} {'actions/s':>11} {'ratio':>15}")
    heads_up = preset("liars-dice")
    theirs = openspiel_liars_dice(5)
    for n in (1, 64, 4096):
        ours = batched_games(heads_up, 2, n)
        ours_runs, ratios = [], []
        for _ in range(args.repeats):
            ours_runs.append(measure(ours, args.seconds))
            if theirs is not None:
                ratios.append(ours_runs[-1][1] / measure(theirs, args.seconds)[1])
        games = statistics.median(g for g, _ in ours_runs)
        acts = statistics.median(a for _, a in ours_runs)
        ratio = f"{statistics.median(ratios):.2f} x OpenSpiel" if ratios else "n/a"
        label = f"liars-dice 1v1, 5 dice, N={n}"
        print(f"{label:<40} {games:>10.0f} {acts:>11.0f} {ratio:>15}")
    batched = batched_games(preset("dudo"), 6, 4096)
    runs = [measure(batched, args.seconds) for _ in range(args.repeats)]
    games = statistics.median(g for g, _ in runs)
    acts = statistics.median(a for _, a in runs)
    ratio = f"{acts / engine_full:.1f} x Game"
    print(f"{'dudo, 6 players, N=4096':<40} {games:>10.0f} {acts:>11.0f} {ratio:>15}")

    print(f"\n{'OpenSpiel games':<40} {'games/s':>10} {'actions/s':>11} {'ratio':>15}")
    for dice in (1, 5):
        ours_game, native = python_dudo(dice), openspiel_liars_dice(dice)
        if ours_game is None or native is None:
            print("  OpenSpiel not installed: pip install -e '.[open-spiel]'")
            break
        ours_runs, ratios = [], []
        for _ in range(args.repeats):
            ours_runs.append(measure(ours_game, args.seconds))
            ratios.append(ours_runs[-1][1] / measure(native, args.seconds)[1])
        games = statistics.median(g for g, _ in ours_runs)
        acts = statistics.median(a for _, a in ours_runs)
        label = f"python_dudo liars-dice, {dice} dice"
        ratio = f"{statistics.median(ratios):.3f} x native"
        print(f"{label:<40} {games:>10.0f} {acts:>11.0f} {ratio:>15}")

    print(
        f"\n{'the floor (any Python engine)':<40} {'games/s':>10} {'actions/s':>11} {'ratio':>15}"
    )
    for dice in (1, 5):
        rules = preset("liars-dice", dice_per_player=dice)
        floor, ours, theirs = (
            floor_single_round(rules),
            ours_single_round(rules),
            openspiel_liars_dice(dice),
        )
        floor_runs, ratios, engine_ratios = [], [], []
        for _ in range(args.repeats):
            floor_runs.append(measure(floor, args.seconds))
            engine_ratios.append(measure(ours, args.seconds)[0] / floor_runs[-1][0])
            if theirs is not None:
                ratios.append(floor_runs[-1][0] / measure(theirs, args.seconds)[0])
        games = statistics.median(g for g, _ in floor_runs)
        acts = statistics.median(a for _, a in floor_runs)
        ratio = f"{statistics.median(ratios):.2f} x OpenSpiel" if ratios else "n/a"
        print(f"{f'floor, single round, {dice} dice':<40} {games:>10.0f} {acts:>11.0f} {ratio:>15}")
        print(
            f"{'  Game / floor (games/s)':<40} {'':>10} {'':>11} {statistics.median(engine_ratios):>15.2f}"
        )


if __name__ == "__main__":
    main()
