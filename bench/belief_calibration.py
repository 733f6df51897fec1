"""How well the search's beliefs predict whether a bid is true, against a pool of opponents.

Run by hand (not a test):
    python bench/belief_calibration.py [--games 80] [--players 4 6] [--evidence 1 0.5] \
        [--trust-power 1 4] [--bins 1]

``hard`` plays ``--games`` games of ``dudo`` against ``players - 1`` copies of each opponent
of the pool (``easy``, ``medium``, ``caller``, ``bluffer``). At every decision of its search
(three or more players holding dice, a bid standing, outside obliging rounds) the view is
kept with the truth: did the dice make the standing bid? Then the search's beliefs
(:class:`dudo.bots.search.TrustingBeliefs`) give each kept view its chance that the bid is
true, and the table reports the mean log loss (lower is better; 0.693 is a coin) per
opponent and table size, and over the pool, for the beliefs as they are (evidence 1, trust
power 1) and for two variants defined here: every likelihood raised to ``--evidence``
(each bid and pass moves the posterior less) and each player's trust raised to
``--trust-power`` (a player whose bids proved unbacked counts for much less). The same
decisions are scored for every variant. ``--bins`` prints, for evidence 1 and trust power
1, the calibration: predicted chance against the share of bids that were true.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from dudo.bots import make_bot
from dudo.bots.beliefs import BeliefOdds, Beliefs, BidModel, Floats
from dudo.bots.match import play_game
from dudo.bots.search import TrustingBeliefs, bid_trust
from dudo.engine import Game, RandomChance, preset
from dudo.engine.actions import Action, Call
from dudo.engine.view import PlayerView

POOL = ("easy", "medium", "caller", "bluffer")

Kept = list[tuple[PlayerView, bool]]


class Variant(TrustingBeliefs):
    """The search's beliefs with every likelihood raised to ``evidence`` and each trust to
    ``trust_power`` (1 and 1: the beliefs as they are)."""

    def __init__(self, view: PlayerView, evidence: float, trust_power: float) -> None:
        self.evidence = evidence
        self.trust = [t**trust_power for t in bid_trust(view)]
        Beliefs.__init__(self, view, BidModel())

    def _multiply(self, player: int, likelihood: Floats) -> None:
        super()._multiply(player, likelihood**self.evidence)


def collect(opponent: str, players: int, games: int, seed: int) -> Kept:
    """``hard`` in seat 0 against ``players - 1`` copies of ``opponent``: its search's views
    that face a bid it may call, each with whether the bid was true."""
    rules = preset("dudo")
    kept: Kept = []
    for number in range(games):
        rng = random.Random(seed * 1_000_003 + number)
        hard = make_bot("hard", random.Random(rng.random()))
        others = [make_bot(opponent, random.Random(rng.random())) for _ in range(players - 1)]
        game = Game(rules, players, chance=RandomChance(rng=random.Random(rng.random())))
        decide = hard.choose

        def choose(
            view: PlayerView, decide: Callable[[PlayerView], Action] = decide, game: Game = game
        ) -> Action:
            bid = view.standing_bid
            live = sum(1 for dice in view.dice_counts if dice)
            callable_ = any(isinstance(a, Call) for a in view.legal_actions)
            if bid is not None and live >= 3 and not view.obliging and callable_:
                kept.append((view, game.count(bid) >= bid.quantity))
            return decide(view)

        hard.choose = choose  # type: ignore[method-assign]
        play_game(game, [hard, *others])
    return kept


def log_loss(kept: Kept, evidence: float, trust_power: float) -> float:
    total = 0.0
    for view, true in kept:
        assert view.standing_bid is not None
        chance = BeliefOdds(Variant(view, evidence, trust_power)).at_least(view.standing_bid)
        chance = min(max(chance, 1e-4), 1.0 - 1e-4)
        total -= math.log(chance if true else 1.0 - chance)
    return total / len(kept)


def calibration(kept: Kept, bins: int = 10) -> list[tuple[int, float, float]]:
    """Per bin of predicted chance: decisions, mean prediction, share true."""
    table: list[list[float]] = [[0, 0.0, 0.0] for _ in range(bins)]
    for view, true in kept:
        assert view.standing_bid is not None
        chance = BeliefOdds(TrustingBeliefs(view)).at_least(view.standing_bid)
        row = table[min(int(chance * bins), bins - 1)]
        row[0] += 1
        row[1] += chance
        row[2] += true
    return [(int(n), p / n, t / n) for n, p, t in table if n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--evidence", type=float, nargs="+", default=[0.5])
    parser.add_argument("--trust-power", type=float, nargs="+", default=[4.0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bins", action="store_true", help="show the calibration")
    args = parser.parse_args()

    cells = [(opponent, n) for opponent in POOL for n in args.players]
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(collect, o, n, args.games, args.seed) for o, n in cells]
        data = {cell: future.result() for cell, future in zip(cells, futures, strict=True)}

    heads = " | ".join(f"{o} {n}p" for o, n in cells)
    print(f"| beliefs | {heads} | pool |")
    print("|---|" + "---:|" * (len(cells) + 1))
    print("| decisions | " + " | ".join(f"{len(data[c]):,}" for c in cells) + " | |")
    variants = [("as they are", 1.0, 1.0)]
    variants += [(f"evidence {e:g}", e, 1.0) for e in args.evidence]
    variants += [(f"trust power {t:g}", 1.0, t) for t in args.trust_power]
    for label, evidence, power in variants:
        losses = [log_loss(data[c], evidence, power) for c in cells]
        row = " | ".join(f"{x:.3f}" for x in losses)
        print(f"| {label} | {row} | {sum(losses) / len(losses):.3f} |")
    if args.bins:
        for cell in cells:
            print(f"\n{cell[0]}, {cell[1]} players:")
            for n, predicted, true in calibration(data[cell]):
                print(f"  predicted {predicted:.2f}  true {true:.2f}  ({n} decisions)")


if __name__ == "__main__":
    main()
