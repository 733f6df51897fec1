"""Paired games on common deals (``dudo arena --common-deals``): who sits where in the two
games of a pair, and the paired comparison they give (:class:`PairedResult`).

Games 2p-1 and 2p form pair p and play on the same dice (:mod:`dudo.arena.deals`). The
*first* bot of the lineup is compared with a *second* one in one seat, the pair's seat:

- heads-up without a baseline (``dudo arena A B --common-deals``): game 2p-1 seats A, B and
  game 2p seats B, A. The pair's seat is 0: A holds it in the first game, B in the second;
- with ``--baseline X`` (any number of players, e.g. ``hard medium --players 4
  --common-deals --baseline medium``): the pair's seat s = (p - 1) mod players rotates over
  pairs; the other seats hold the rest of the lineup in order, the same in both games, and
  seat s holds the first bot in game 2p-1 and X in game 2p.

A pair's score is (the first bot won its game) - (the second bot won its game), so -1, 0 or
+1; heads-up that is A's wins over the two games minus 1. The mean score is the first bot's
win rate minus the second's on the same deals. Pairs with an unfinished game are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dudo.arena.stats import PairedDifference, paired_difference, wilson_interval

PAIRING_NOTE = (
    "Games 2p-1 and 2p (pair p) play on the same dice: every draw is keyed by the pair and "
    "by what it is for (setup, round, seat, re-roll), so each seat gets the same dice in "
    "each round of both games as far as its dice count allows. The pair's seat holds the "
    "first bot in one game and the second in the other (heads-up: the seats swap). A "
    "pair's score is first won - second won; its mean is the paired difference of their "
    "win rates, with a Student t 95% interval over pairs."
)


def pair_of(number: int) -> tuple[int, int]:
    """(pair, game of the pair: 1 or 2) of game ``number`` (1, 2, ...)."""
    return (number + 1) // 2, 2 - number % 2


def pair_seat(number: int, players: int, baseline: str | None) -> int:
    """The seat the two bots compared take in game ``number``'s pair."""
    return 0 if baseline is None else (pair_of(number)[0] - 1) % players


def pair_seats(lineup: Sequence[str], baseline: str | None, number: int) -> tuple[str, ...]:
    """The bot of each seat in game ``number`` (see the module's documentation)."""
    pair, which = pair_of(number)
    if baseline is None:
        first, second = lineup[0], lineup[1]
        return (first, second) if which == 1 else (second, first)
    seat = (pair - 1) % len(lineup)
    others = list(lineup[1:])
    return (*others[:seat], lineup[0] if which == 1 else baseline, *others[seat:])


def deal_key(seed: int, number: int) -> str:
    """The chance key shared by the two games of game ``number``'s pair."""
    return f"dudo-arena-pair:{seed}:{pair_of(number)[0]}"


@dataclass(frozen=True, slots=True)
class PairedResult:
    """The paired comparison of a common-deals run.

    ``first``/``second``: the bots compared (heads-up: A and B; else the candidate and the
    baseline). ``first_wins``/``second_wins`` count their wins in the ``counted`` pairs
    (heads-up over both games of each pair, so out of 2 × counted games; else over the
    pair's game they sit in, out of ``counted``). ``scores`` counts pair scores -1, 0, +1;
    ``each`` lists every pair as (pair, its seat, score or None when not counted).
    """

    first: str
    second: str
    baseline: bool
    pairs: int
    counted: int
    first_wins: int
    second_wins: int
    games_each: int
    scores: dict[int, int]
    difference: PairedDifference
    each: tuple[tuple[int, int, int | None], ...] = ()

    def rate(self, wins: int) -> tuple[float | None, float, float]:
        """A win rate out of ``games_each`` with its Wilson interval."""
        low, high = wilson_interval(wins, self.games_each)
        return (wins / self.games_each if self.games_each else None), low, high

    def to_dict(self) -> dict[str, Any]:
        first, second = self.rate(self.first_wins), self.rate(self.second_wins)
        return {
            "first": self.first,
            "second": self.second,
            "second_is_baseline": self.baseline,
            "pairs": self.pairs,
            "pairs_counted": self.counted,
            "first_wins": self.first_wins,
            "second_wins": self.second_wins,
            "games_each": self.games_each,
            "first_win_rate": first[0],
            "first_win_rate_ci95": [first[1], first[2]],
            "second_win_rate": second[0],
            "second_win_rate_ci95": [second[1], second[2]],
            "pair_scores": {str(k): v for k, v in sorted(self.scores.items())},
            "difference": self.difference.to_dict(),
            "pairing": PAIRING_NOTE,
            "pair_list": [
                {"pair": pair, "games": [2 * pair - 1, 2 * pair], "seat": seat, "score": score}
                for pair, seat, score in self.each
            ],
        }


def paired_result(
    lineup: Sequence[str],
    baseline: str | None,
    games: Sequence[tuple[int, tuple[str, ...], int | None]],
) -> PairedResult:
    """The paired comparison of ``games``: (number, bot of each seat, winning seat or None
    when unfinished) of a common-deals run with this ``lineup`` and ``baseline``."""
    first = lineup[0]
    second = baseline if baseline is not None else lineup[1]
    by_pair: dict[int, dict[int, tuple[tuple[str, ...], int | None]]] = {}
    for number, seats, winner in games:
        pair, which = pair_of(number)
        by_pair.setdefault(pair, {})[which] = (seats, winner)
    scores: list[int] = []
    each: list[tuple[int, int, int | None]] = []
    first_wins = second_wins = 0
    players = len(lineup)
    for pair in sorted(by_pair):
        both = by_pair[pair]
        seat = pair_seat(2 * pair, players, baseline)
        if 1 not in both or 2 not in both or both[1][1] is None or both[2][1] is None:
            each.append((pair, seat, None))
            continue  # an unfinished (or unplayed) game: the pair says nothing
        won_first = both[1][1] == seat
        won_second = both[2][1] == seat
        scores.append(int(won_first) - int(won_second))
        each.append((pair, seat, scores[-1]))
        if baseline is None:  # heads-up: both bots play both games
            first_wins += int(won_first) + int(not won_second)
            second_wins += int(won_second) + int(not won_first)
        else:
            first_wins += int(won_first)
            second_wins += int(won_second)
    counted = len(scores)
    return PairedResult(
        first=first,
        second=second,
        baseline=baseline is not None,
        pairs=len(by_pair),
        counted=counted,
        first_wins=first_wins,
        second_wins=second_wins,
        games_each=2 * counted if baseline is None else counted,
        scores={s: scores.count(s) for s in (-1, 0, 1)},
        difference=paired_difference([float(s) for s in scores]),
        each=tuple(each),
    )
