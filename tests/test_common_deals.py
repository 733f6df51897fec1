"""``dudo arena --common-deals`` (pairs of games on the same dice, the paired difference and
its interval) and the sparring bots ``caller`` and ``bluffer``."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from dudo.arena import ArenaConfig, ArenaError, plan, run_arena
from dudo.arena.command import arena_command
from dudo.arena.deals import DealChance
from dudo.arena.pairs import pair_seats, paired_result
from dudo.arena.stats import paired_difference, t_quantile_975, wilson_interval
from dudo.bots import BOT_NAMES, SPARRING_BOTS, Bot, OutOfTurnCaller, make_bot
from dudo.bots.match import play_game
from dudo.engine import Bid, Call, Game, PlayerView, RevealBid, Revealed, RoundStarted
from dudo.engine.actions import Action
from dudo.engine.errors import DudoError
from dudo.engine.events import SeatingDecided
from dudo.engine.rules import rules_from_settings
from dudo.probability import Odds
from dudo.records import read_record, replay

NO_PASS = ("pass_hands=none",)  # pass hands need five dice


def common_run(tmp_path: Path, bots: Sequence[str], games: int, **options: Any) -> dict[str, Any]:
    out = tmp_path / "run"
    config = ArenaConfig(
        bots=tuple(bots),
        games=games,
        dice=2,
        workers=1,
        out=out,
        chart=False,
        common_deals=True,
        **{
            "rules": "dudo",
            "settings": NO_PASS if options.get("rules") is None else (),
            "seed": 7,
            **options,
        },
    )
    result = run_arena(config)
    assert result.error is None and not result.interrupted
    summary: dict[str, Any] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return summary


def rounds_of(path: Path) -> tuple[tuple[int, ...], dict[int, tuple[tuple[int, ...], ...]]]:
    """The seating order and, per round, each seat's dice as revealed (replayed from the
    record, so the record is checked too)."""
    game = replay(read_record(path))
    order: tuple[int, ...] = ()
    hands: dict[int, tuple[tuple[int, ...], ...]] = {}
    number = 0
    for event in game.events:
        if isinstance(event, SeatingDecided):
            order = event.order
        elif isinstance(event, RoundStarted):
            number = event.number
        elif isinstance(event, Revealed):
            hands[number] = event.hands
    return order, hands


def is_within(small: Sequence[int], large: Sequence[int]) -> bool:
    rest = list(large)
    for die in small:
        if die not in rest:
            return False
        rest.remove(die)
    return True


# ------------------------------------------------------------------------ common deals


def test_both_games_of_a_pair_get_the_same_dice_seat_by_seat(tmp_path: Path) -> None:
    summary = common_run(tmp_path, ("easy", "medium"), 24)
    games = tmp_path / "run" / "games"
    compared = differing = 0
    for pair in range(1, 13):
        order_1, first = rounds_of(games / f"game-{2 * pair - 1:06d}.json")
        order_2, second = rounds_of(games / f"game-{2 * pair:06d}.json")
        assert order_1 == order_2  # the same seating (rolled under dudo)
        assert first[1] == second[1]  # round 1: identical for every seat
        for number in set(first) & set(second):
            for seat, (a, b) in enumerate(zip(first[number], second[number], strict=True)):
                if len(a) == len(b):
                    assert a == b, (pair, number, seat)
                    compared += 1
                else:  # the seat with fewer dice holds a part of the other's hand
                    small, large = (a, b) if len(a) < len(b) else (b, a)
                    assert is_within(small, large), (pair, number, seat)
                    differing += 1
    assert compared > 40 and differing > 0  # both cases were met
    for entry in summary["games"]:
        pair, which = (entry["game"] + 1) // 2, 2 - entry["game"] % 2
        record = read_record(games / f"game-{entry['game']:06d}.json")
        assert record.meta["pair"] == pair and record.meta["pair_game"] == which


def test_heads_up_pairs_swap_the_seats(tmp_path: Path) -> None:
    summary = common_run(tmp_path, ("easy", "random"), 8, rules="liars-dice")
    seats = [tuple(g["seats"]) for g in summary["games"]]
    assert seats == [("easy", "random"), ("random", "easy")] * 4
    paired = summary["common_deals"]
    assert paired["first"] == "easy" and paired["second"] == "random"
    counted = paired["pairs_counted"]
    assert paired["games_each"] == 2 * counted
    assert paired["first_wins"] + paired["second_wins"] == 2 * counted
    assert sum(paired["pair_scores"].values()) == counted
    assert [p["score"] for p in paired["pair_list"]].count(1) == paired["pair_scores"]["1"]
    assert paired["difference"]["mean"] == pytest.approx(
        (paired["first_wins"] - paired["second_wins"]) / (2 * counted)
    )
    easy = next(r for r in summary["results"] if r["bot"] == "easy")
    assert easy["games"] == 8 and easy["seat_games"] == [4, 4]


def test_with_a_baseline_the_seat_rotates_and_the_opponents_stay(tmp_path: Path) -> None:
    summary = common_run(tmp_path, ("easy", "random"), 8, players=4, baseline="medium")
    seats = [tuple(g["seats"]) for g in summary["games"]]
    for pair in range(4):
        one, two = seats[2 * pair], seats[2 * pair + 1]
        assert one[pair] == "easy" and two[pair] == "medium"
        others = [s for s in range(4) if s != pair]
        assert [one[s] for s in others] == [two[s] for s in others] == ["random"] * 3
    paired = summary["common_deals"]
    assert paired["second"] == "medium" and paired["second_is_baseline"] is True
    assert paired["games_each"] == paired["pairs_counted"]
    by_bot = {r["bot"]: r for r in summary["results"]}
    assert by_bot["easy"]["games"] == by_bot["medium"]["games"] == 4
    assert by_bot["random"]["games"] == 8 and by_bot["random"]["copies"] == 3
    assert by_bot["easy"]["equal_share"] == 0.25


def test_pair_seats_heads_up_and_with_a_baseline() -> None:
    assert [pair_seats(("a", "b"), None, n) for n in (1, 2, 3)] == [
        ("a", "b"),
        ("b", "a"),
        ("a", "b"),
    ]
    table = ("a", "x", "y")
    assert [pair_seats(table, "z", n) for n in range(1, 7)] == [
        ("a", "x", "y"),
        ("z", "x", "y"),
        ("x", "a", "y"),
        ("x", "z", "y"),
        ("x", "y", "a"),
        ("x", "y", "z"),
    ]


def reveal_one(game: Game) -> RevealBid:
    """A legal reveal-and-reroll of the mover that sets one die aside (re-rolls the rest)."""
    return next(a for a in game.legal_actions() if isinstance(a, RevealBid) and len(a.reveal) == 1)


def test_rerolls_and_later_deals_are_keyed_by_round_and_seat() -> None:
    """Two games on one key that draw in a different order: seat 1's re-roll and the next
    round's deal are the same all the same (keyed draws do not drift)."""
    rules = rules_from_settings("liars-dice", ["dice_per_player=3", "reveal_reroll=true"])
    games: list[Game] = []
    rerolls: list[tuple[int, ...]] = []
    for extra_draw in (False, True):
        chance = DealChance("pair-key")
        game = Game(rules, 2, chance=chance, order=(0, 1))
        chance.attach(game)
        assert game.to_move == 0
        game.push(game.legal_actions()[0])  # the lowest opening bid
        if extra_draw:  # game 2 only: seat 0 re-rolls first, a draw game 1 never makes
            game.push(next(a for a in game.legal_actions() if isinstance(a, Bid)))
            game.push(reveal_one(game))
        game.push(reveal_one(game))  # seat 1 re-rolls two dice
        rerolls.append(game.chance_log[-1].values)
        game.push(next(a for a in game.legal_actions() if isinstance(a, Call)))
        games.append(game)
    assert rerolls[0] == rerolls[1]
    assert games[0].round_number == games[1].round_number == 2
    for seat in (0, 1):
        a, b = games[0].hidden[seat], games[1].hidden[seat]
        if len(a) == len(b):
            assert a == b
        else:
            assert is_within(a, b) if len(a) < len(b) else is_within(b, a)
    # A setup draw asked for after the setup is a mistake, said plainly.
    late = DealChance("x")
    late.attach(Game(rules, 2, chance=DealChance("x")))
    with pytest.raises(DudoError, match="seating order asked for after"):
        late.order(2)


def test_paired_statistics_on_known_scores() -> None:
    diff = paired_difference([1, 0, 0, -1, 1, 1, 0, 0])
    assert diff.pairs == 8 and diff.mean == 0.25
    assert diff.sd == pytest.approx(0.5**0.5)
    # half-width t(7) * sd / sqrt(8) = 2.364624... * 0.25
    assert diff.ci_low == pytest.approx(0.25 - 0.591156062898196, abs=1e-12)
    assert diff.ci_high == pytest.approx(0.25 + 0.591156062898196, abs=1e-12)
    assert t_quantile_975(20) == pytest.approx(2.0859634472658364, abs=1e-6)
    assert t_quantile_975(100) == pytest.approx(1.9839715185235518, abs=1e-9)
    assert paired_difference([1, 1, 1]).ci_low == 1.0  # no spread: the mean itself
    assert paired_difference([1, -1]).ci_low == -1.0  # cut to the range of a score
    assert paired_difference([1]).ci_low is None and paired_difference([]).mean is None
    # Heads-up pairs from game results: A wins both, one each, B wins both, unfinished.
    games = [
        (1, ("A", "B"), 0),
        (2, ("B", "A"), 1),
        (3, ("A", "B"), 0),
        (4, ("B", "A"), 0),
        (5, ("A", "B"), 1),
        (6, ("B", "A"), 0),
        (7, ("A", "B"), 0),
        (8, ("B", "A"), None),
    ]
    result = paired_result(("A", "B"), None, games)
    assert (result.pairs, result.counted) == (4, 3)
    assert result.scores == {-1: 1, 0: 1, 1: 1}
    assert (result.first_wins, result.second_wins, result.games_each) == (3, 3, 6)
    assert result.difference.mean == 0.0
    assert result.rate(3) == (0.5, *wilson_interval(3, 6))
    assert result.each == ((1, 0, 1), (2, 0, 0), (3, 0, -1), (4, 0, None))
    listed = result.to_dict()["pair_list"]
    assert listed[0] == {"pair": 1, "games": [1, 2], "seat": 0, "score": 1}


def test_a_bot_against_itself_scores_a_difference_around_zero(tmp_path: Path) -> None:
    # bluffer draws from its generator (seeded per game and seat): the games of a pair differ.
    summary = common_run(tmp_path / "b", ("bluffer", "bluffer"), 80, rules="liars-dice")
    diff = summary["common_deals"]["difference"]
    assert diff["pairs"] >= 38
    low, high = diff["ci95"]
    assert low < 0 < high
    assert high - low < 0.8  # a real interval, not the whole range
    # easy draws no chance in heads-up liar's dice: on the same deals both games of a
    # pair are one game with the seats renamed, so every pair scores 0.
    same = common_run(tmp_path / "e", ("easy", "easy"), 40, rules="liars-dice")
    assert same["common_deals"]["pair_scores"] == {"-1": 0, "0": 20, "1": 0}
    assert same["common_deals"]["difference"]["ci95"] == [0.0, 0.0]


def test_the_command_prints_the_paired_difference(tmp_path: Path) -> None:
    console = Console(file=io.StringIO(), width=100)
    code = arena_command(
        ArenaConfig(
            bots=("easy", "random"),
            games=10,
            rules="liars-dice",
            settings=(),
            players=None,
            dice=2,
            seed=3,
            workers=1,
            out=tmp_path / "out",
            ray_address=None,
            chart=False,
            common_deals=True,
        ),
        console=console,
    )
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert code == 0, text
    assert "Common deals (seats swapped)" in text
    assert "Paired difference easy - random:" in text and "95% CI [" in text


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bots": ("easy", "medium"), "games": 7}, "--games 7: .* give an even number"),
        ({"bots": ("hard", "medium"), "players": 4}, "with 4 players needs --baseline"),
        ({"bots": ("easy", "medium", "random")}, "with 3 players needs --baseline"),
        ({"bots": ("easy", "medium"), "baseline": " "}, "--baseline is empty"),
        ({"bots": ("easy", "medium"), "baseline": "grand"}, "unknown bot 'grand'"),
        (
            {"bots": ("easy", "medium"), "baseline": "easy", "common_deals": False},
            "add --common-deals",
        ),
    ],
)
def test_bad_pairings_are_refused(options: dict[str, Any], message: str) -> None:
    config = ArenaConfig(**{"games": 10, "save": False, "common_deals": True, **options})
    with pytest.raises(DudoError, match=message):
        plan(config)


def test_a_bad_pairing_from_the_command_line_writes_nothing(tmp_path: Path) -> None:
    console = Console(file=io.StringIO(), width=200)
    code = arena_command(
        ArenaConfig(
            bots=("hard", "medium"),
            games=10,
            rules="dudo",
            settings=(),
            players=4,
            dice=None,
            seed=1,
            workers=1,
            out=tmp_path / "out",
            ray_address=None,
            common_deals=True,
        ),
        console=console,
    )
    assert code == 2
    assert "needs --baseline BOT" in console.file.getvalue()  # type: ignore[attr-defined]
    assert not (tmp_path / "out").exists()
    assert isinstance(ArenaError("x"), DudoError)


# ------------------------------------------------------------------------ sparring bots


def test_sparring_bots_are_not_table_levels() -> None:
    assert BOT_NAMES == ("random", "easy", "medium", "hard")
    assert SPARRING_BOTS == ("caller", "bluffer")
    idle = Game.with_hands(rules_from_settings("dudo", []), [[2, 3, 4, 5, 6]] * 2).view(1)
    for name in SPARRING_BOTS:
        bot = make_bot(name, random.Random(0))
        assert bot.name == name and isinstance(bot, OutOfTurnCaller)
        with pytest.raises(DudoError, match="no legal action"):
            bot.choose(idle)  # not to move: nothing to choose from
    with pytest.raises(DudoError, match="caller, bluffer"):
        make_bot("nobody", random.Random(0))


class Watched:
    """A bot whose every decision is kept with the view it was made on."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions: list[tuple[PlayerView, Action]] = []

    def choose(self, view: PlayerView) -> Action:
        action = self.bot.choose(view)
        self.decisions.append((view, action))
        return action


def style(level: str, opponent: str, games: int = 40) -> tuple[float, float]:
    """``level``'s share of answers to a bid that are calls, and share of its bids above
    the count it expects from its own dice, over seeded heads-up games (5 dice)."""
    rules = rules_from_settings("liars-dice", [])
    answers = calls = bids = high = 0
    for seed in range(games):
        watched = Watched(make_bot(level, random.Random(seed)))
        other = make_bot(opponent, random.Random(10_000 + seed))
        seats: list[Bot] = [watched, other] if seed % 2 == 0 else [other, watched]
        play_game(Game(rules, 2, seed=seed), seats)
        for view, action in watched.decisions:
            if view.standing_bid is not None:
                answers += 1
                calls += isinstance(action, Call)
            if isinstance(action, Bid):
                bids += 1
                high += action.quantity > Odds.from_view(view).expected(action.face)
    return calls / answers, high / bids


def test_caller_calls_more_and_bluffer_bids_higher_than_easy() -> None:
    easy_calls, easy_high = style("easy", "medium")
    caller_calls, _ = style("caller", "medium")
    _, bluffer_high = style("bluffer", "medium")
    assert caller_calls > easy_calls + 0.1  # measured: 0.75 against 0.46
    assert bluffer_high > easy_high + 0.15  # measured: 0.80 against 0.33


LEGALITY_RULES = [
    ("dudo", []),
    ("dudo", ["cruzado=true"]),
    ("dudo", ["oblige_visibility=obliger_chooses"]),
    ("perudo", []),
    ("liars-dice", []),
    ("dudo", ["reveal_reroll=true"]),
    ("dudo", ["aces_wild=false"]),
    ("dudo", ["spot_on_reward=cancel", "pass_allows_spot_on=true"]),
]


@settings(max_examples=30, deadline=None)
@given(
    case=st.sampled_from(LEGALITY_RULES),
    players=st.integers(2, 6),
    dice=st.sampled_from((1, 2, 5)),
    seed=st.integers(0, 10_000),
    level=st.sampled_from(SPARRING_BOTS),
    common=st.booleans(),
)
def test_sparring_bots_only_play_legal_actions(
    case: tuple[str, list[str]], players: int, dice: int, seed: int, level: str, common: bool
) -> None:
    name, options = case
    no_pass = ["pass_hands=none", "pass_allows_spot_on=false"]
    rules = rules_from_settings(
        name, [*options, f"dice_per_player={dice}", *(no_pass if dice < 5 else [])]
    )
    others = ("easy", "caller", "bluffer", "medium")
    bots = [
        make_bot(level if s % 2 == 0 else others[(seed + s) % 4], random.Random(seed + s))
        for s in range(players)
    ]
    if common:  # the arena's keyed dice, in every house rule
        chance = DealChance(f"legal:{seed}")
        game = Game(rules, players, chance=chance)
        chance.attach(game)
    else:
        game = Game(rules, players, seed=seed)
    result = play_game(game, bots, max_rounds=200)  # refuses an illegal action
    if result.finished:
        assert game.winner is not None
