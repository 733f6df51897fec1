"""Game records: writing, reading, replaying with every action checked, errors that name the
first bad entry, and ``dudo replay``."""

from __future__ import annotations

import copy
import functools
import io
import json
import os
import random
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from dudo.engine import (
    DOUBT_PASS,
    PASS,
    PRESETS,
    BidMade,
    Called,
    DiceLost,
    DieWon,
    Event,
    Game,
    ObligingRound,
    PassDoubted,
    Passed,
    RecordError,
    RevealBid,
    Revealed,
    RoundCancelled,
    Rules,
    Setup,
    SpotOnClaimed,
    VisibilityChosen,
    preset,
)
from dudo.engine.actions import Bid
from dudo.engine.rules import OPTION_NAMES
from dudo.records import (
    FORMAT,
    V1_OPTIONS,
    VERSION,
    PlayerInfo,
    Record,
    dumps_record,
    game_record,
    loads_record,
    parse_record,
    read_record,
    record_of,
    replay,
    replay_steps,
    write_record,
)
from dudo.terminal.replay import replay_command

DATA = Path(__file__).parent / "data" / "records"
FULL_GAME = DATA / "full_game.json"
ILLEGAL_ACTION = DATA / "illegal_action.json"


# ----------------------------------------------------------------------------- helpers


def play(game: Game, rng: random.Random, limit: int | None = None) -> Game:
    """Random legal play from ``game.all_legal_actions()``: often a call, pass or spot-on,
    otherwise one of the lowest raises (so that games are short and end in many ways)."""
    while not game.is_over and (limit is None or len(game.history) < limit):
        choices = game.all_legal_actions()
        bids = [pa for pa in choices if isinstance(pa[1], Bid | RevealBid)]
        others = [pa for pa in choices if not isinstance(pa[1], Bid | RevealBid)]
        if others and (not bids or rng.random() < 0.5):
            _, action = rng.choice(others)
        else:
            _, action = rng.choice(bids[:8])
        game.push(action)
    return game


def assert_same_game(replayed: Game, original: Game) -> None:
    assert replayed.events == original.events
    assert replayed.history == original.history
    assert replayed.chance_log == original.chance_log
    for viewer in [None, *range(original.players)]:
        assert replayed.view(viewer) == original.view(viewer)


def round_trip(game: Game, **kwargs: Any) -> Game:
    text = dumps_record(record_of(game, **kwargs))
    replayed = replay(loads_record(text))
    assert_same_game(replayed, game)
    return replayed


def fixture_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FULL_GAME.read_text(encoding="utf-8"))
    return data


def error_of(data: Any) -> str:
    """The RecordError message for record data (read and replayed)."""
    with pytest.raises(RecordError) as info:
        replay(parse_record(data))
    return str(info.value)


VARIANTS: dict[str, dict[str, Any]] = {
    "plain": {},
    "cruzado": {"cruzado": True},
    "reveal_reroll": {"reveal_reroll": True},
    "all_three": {"cruzado": True, "reveal_reroll": True, "loss": "difference"},
    "difference_winner_opens_ccw": {
        "loss": "difference",
        "next_opener": "winner",
        "direction": "counterclockwise",
    },
}


def game_configs() -> list[tuple[str, str, int, int]]:
    return [
        (name, variant, players, 17 * i + players)
        for i, name in enumerate(PRESETS)
        for variant in VARIANTS
        for players in (2, 4)
    ]


@functools.cache
def config_game(name: str, variant: str, players: int, seed: int, limit: int | None) -> Game:
    """A random game of a configuration (shared by the tests below: they only read it)."""
    rules = preset(name, **VARIANTS[variant])
    return play(Game(rules, players, seed=seed), random.Random(seed), limit)


# -------------------------------------------------------------------------- round trips


@pytest.mark.parametrize(("name", "variant", "players", "seed"), game_configs())
def test_write_read_replay_gives_the_same_game(
    name: str, variant: str, players: int, seed: int
) -> None:
    game = config_game(name, variant, players, seed, None)
    replayed = round_trip(game, preset=name)
    assert record_of(replayed, preset=name) == record_of(game, preset=name)
    # A game left unfinished part way (as a saved game would be).
    round_trip(config_game(name, variant, players, seed + 1, seed % 25))


def test_round_trips_cover_every_kind_of_event() -> None:
    """The random games above reach every rule feature a record must carry."""
    seen: set[str] = set()
    for name, variant, players, seed in game_configs():
        for e in config_game(name, variant, players, seed, None).events:
            seen.add(type(e).__name__)
            if isinstance(e, Called) and e.out_of_turn:
                seen.add("out-of-turn call")
            if isinstance(e, BidMade) and e.revealed:
                seen.add("reveal and re-roll")
            if isinstance(e, DiceLost) and e.count > 1:
                seen.add("loss of several dice")
    wanted = {
        ObligingRound.__name__,
        VisibilityChosen.__name__,
        Passed.__name__,
        PassDoubted.__name__,
        SpotOnClaimed.__name__,
        RoundCancelled.__name__,
        DieWon.__name__,
        "SeatingRolled",
        "out-of-turn call",
        "reveal and re-roll",
        "loss of several dice",
    }
    assert wanted <= seen


@pytest.mark.parametrize("visibility", ["normal", "closed", "obliger_chooses"])
@pytest.mark.parametrize("seating", ["roll", "random", "fixed"])
def test_obliging_rounds_and_seatings(visibility: str, seating: str) -> None:
    rules = preset("dudo", oblige_visibility=visibility, seating=seating, cruzado=True)
    obliging = 0
    for seed in range(3):
        game = play(Game(rules, 3 + seed % 3, seed=seed), random.Random(seed))
        obliging += sum(isinstance(e, ObligingRound) for e in game.events)
        round_trip(game)
    assert obliging > 0


def test_small_dice_and_faces() -> None:
    rules = preset("liars-dice", faces=4, dice_per_player=2, aces_rank="high")
    for seed in range(10):
        round_trip(play(Game(rules, 2 + seed % 4, seed=seed), random.Random(seed)))


SETUPS: list[dict[str, Any]] = [
    {"order": (2, 0, 1)},
    {"dice": (3, 0, 5)},
    {"dice": (1, 2, 2), "start_total": 15},
    {"obliged": (1,)},
    {"obliger": 2, "obliged": (0,)},
    {"obliger": 1, "dice": (2, 1, 4), "order": (1, 2, 0)},
]


@pytest.mark.parametrize("setup", SETUPS)
def test_setup_is_recorded(setup: dict[str, Any]) -> None:
    for seed in range(4):
        rules = preset("dudo", reveal_reroll=seed % 2 == 1)
        game = play(Game(rules, 3, seed=seed, **setup), random.Random(seed))
        record = record_of(game)
        written = record["setup"]
        for key, value in setup.items():
            assert written[key] == (list(value) if isinstance(value, tuple) else value)
        round_trip(game)


def test_a_fresh_game_has_an_empty_setup() -> None:
    for name in PRESETS:
        game = Game(PRESETS[name], 4, seed=1)
        assert record_of(game)["setup"] == {}
        assert game.setup == replay(game_record(game)).setup


def test_the_setup_is_the_games_own_value() -> None:
    """A record holds the game's Setup whole, and a replay sets its game up with it."""
    game = play(Game(preset("dudo"), 3, seed=2, dice=(2, 1, 4), obliged=(0,)), random.Random(2))
    record = game_record(game)
    assert record.setup is game.setup
    assert loads_record(dumps_record(record.to_dict())).setup == game.setup
    assert replay(record).setup == game.setup


def test_a_record_made_in_code_checks_its_setup() -> None:
    rules = preset("dudo")
    seats = tuple(PlayerInfo(name) for name in ("Ana", "Beto", "Carla"))
    assert Record(rules, seats).setup == Setup(3)
    with pytest.raises(RecordError, match=r"setup\.players: 2, but the record names 3 players"):
        replay(Record(rules, seats, Setup(2)))
    with pytest.raises(RecordError, match=r"setup\.dice\[1\]: 7 dice; a hand holds 0\.\.5"):
        replay(Record(rules, seats, Setup(3, dice=(5, 7, 5))))


def test_game_with_hands() -> None:
    rules = preset("dudo")
    game = Game.with_hands(rules, [(1, 1, 2), (), (3, 4, 5, 6, 6), (2, 2)], opener=2, seed=3)
    record = record_of(game)
    assert record["setup"]["order"] == [2, 3, 0, 1]
    assert record["setup"]["dice"] == [3, 0, 5, 2]
    assert record["chance"][:3] == [
        {"roll": [1, 1, 2]},
        {"roll": [3, 4, 5, 6, 6]},
        {"roll": [2, 2]},
    ]
    round_trip(play(game, random.Random(3)))


def test_undone_actions_are_not_recorded() -> None:
    rules = preset("dudo", reveal_reroll=True, cruzado=True)
    game = play(Game(rules, 4, seed=11), random.Random(11), limit=30)
    for _ in range(12):
        game.pop()
    play(game, random.Random(99))
    round_trip(game)


def test_players_meta_and_preset_are_kept(tmp_path: Path) -> None:
    game = play(Game(preset("perudo"), 3, seed=5), random.Random(5))
    players = [PlayerInfo("Ana"), PlayerInfo("Bot", "bot", "random"), PlayerInfo("[b]Zoé")]
    meta = {"title": "Friday", "tags": ["club", 3], "nested": {"a": None}}
    path = write_record(game, tmp_path / "game.json", players, meta, preset="perudo")
    record = read_record(path)
    assert record.players == tuple(players)
    assert record.meta == meta
    assert record.preset == "perudo"
    assert record.rules == PRESETS["perudo"]
    assert record.result is not None and record.result.winner == game.winner
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["players"][1] == {"name": "Bot", "kind": "bot", "bot": "random"}
    assert data["players"][0] == {"name": "Ana", "kind": "human"}
    assert record.to_dict() == data
    assert write_record(record, tmp_path / "again.json").read_text() == path.read_text()


def test_default_players_and_unfinished_result() -> None:
    game = Game(preset("dudo"), 3, seed=2)
    data = record_of(game)
    assert [p["name"] for p in data["players"]] == ["Player 1", "Player 2", "Player 3"]
    assert data["result"] is None
    assert data["actions"] == []
    assert replay(data).view(0) == game.view(0)


def test_out_of_turn_call_is_recorded_as_the_callers_call() -> None:
    rules = preset("dudo", cruzado=True)
    for seed in range(40):
        game = Game(rules, 4, seed=seed)
        game.push(game.legal_actions()[0])
        caller = next(p for p in range(4) if p not in (game.to_move, game.bidder))
        game.push(game.legal_actions(caller)[0])
        data = record_of(game)
        assert data["actions"][1] == {"player": caller, "action": "call"}
        assert replay(data).history[1][1].by == caller  # type: ignore[union-attr]
        round_trip(game)


def test_replay_steps() -> None:
    record = read_record(FULL_GAME)
    steps = replay_steps(record)
    start = len(steps.game.events)
    assert steps.game.round_number == 1
    events: list[Event] = []
    for position, (index, player, action, step_events) in enumerate(steps):
        assert index == position
        assert (player, action) == (record.actions[index].player, record.actions[index].action)
        events.extend(step_events)
    assert steps.game.events[start:] == events
    assert steps.game.winner == 2


# ---------------------------------------------------------------------- writing to files


def test_write_is_atomic_and_pretty(tmp_path: Path) -> None:
    game = play(Game(preset("dudo"), 3, seed=8), random.Random(8))
    target = tmp_path / "game.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_record(game, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    text = target.read_text(encoding="utf-8")
    assert text == dumps_record(record_of(game))
    assert '    {"player": ' in text and '    {"roll": [' in text
    assert json.loads(text) == record_of(game)


def test_write_problems(tmp_path: Path) -> None:
    game = Game(preset("dudo"), 2, seed=1)
    with pytest.raises(RecordError, match="cannot write"):
        write_record(game, tmp_path / "no" / "such" / "dir.json")
    with pytest.raises(RecordError, match="meta: not JSON data"):
        write_record(game, tmp_path / "a.json", meta={"when": object()})
    with pytest.raises(RecordError, match="players: 3 given for a game of 2 players"):
        record_of(game, [PlayerInfo("a"), PlayerInfo("b"), PlayerInfo("c")])
    assert list(tmp_path.iterdir()) == []


def test_read_from_path_text_and_bytes(tmp_path: Path) -> None:
    text = FULL_GAME.read_text(encoding="utf-8")
    expected = read_record(FULL_GAME)
    assert read_record(str(FULL_GAME)) == expected
    assert read_record(text) == expected
    assert read_record(text.encode()) == expected
    assert read_record(b"\xef\xbb\xbf" + text.encode()) == expected  # a BOM is fine
    with pytest.raises(RecordError, match=r"^cannot read .*missing\.json: No such file"):
        read_record(tmp_path / "missing.json")
    with pytest.raises(RecordError, match=r"^not UTF-8 text"):
        read_record(b"{\xff}")


# ------------------------------------------------------------------------------ fixtures


def test_fixture_full_game_replays() -> None:
    record = read_record(FULL_GAME)
    game = replay(record)
    assert record.names == ("Ana", "Beto", "Carla")
    assert game.winner == 2 and game.round_number == 15 and len(game.history) == 62
    kinds = {type(e) for e in game.events}
    assert {ObligingRound, VisibilityChosen, Passed, PassDoubted, SpotOnClaimed, DieWon} <= kinds
    assert record.to_dict() == fixture_data()
    assert dumps_record(record.to_dict()) == FULL_GAME.read_text(encoding="utf-8")


def test_fixture_illegal_action_names_the_entry() -> None:
    record = read_record(ILLEGAL_ACTION)  # well-formed: the problem shows in the replay
    with pytest.raises(RecordError) as info:
        replay(record)
    assert str(info.value) == (
        "actions[9]: player 0 cannot bid 1x3: 1x3 does not raise 1x4: "
        "at the same quantity the face must go up"
    )


# -------------------------------------------------------------------------------- errors

Edit = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> Any:
        *parents, last = path.split("/")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
        return data

    return edit


def _delete(path: str) -> Edit:
    def edit(data: dict[str, Any]) -> Any:
        *parents, last = path.split("/")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        del target[int(last) if isinstance(target, list) else last]
        return data

    return edit


def _append(path: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> Any:
        data[path].append(value)
        return data

    return edit


ERRORS: list[tuple[Edit, str]] = [
    (lambda d: [d], "not a record: the top level is a list, not an object"),
    (
        _set("format", "chess"),
        "format: 'chess' is not 'dudo-record': this is not a dudo-record file",
    ),
    (_delete("format"), "format: missing: this is not a dudo-record file"),
    (_set("version", 7), "version 7 is not supported (this program reads version 1)"),
    (_set("version", "1"), "version: '1' is not a version number"),
    (_delete("actions"), "actions: missing"),
    (_set("extra", 1), "extra: unknown field; a record holds format, version, preset, rules, "),
    (_set("preset", 3), "preset: 3 is not text"),
    (
        _set("rules/raise_mode", "sideways"),
        "rules.raise_mode: 'sideways' is not valid; use any_face | nondecreasing | index",
    ),
    (_set("rules/raise_mode", "ANY_FACE"), "rules.raise_mode: 'ANY_FACE' is not valid"),
    (_delete("rules/cruzado"), "rules.cruzado: missing (a record holds every rule option)"),
    (_set("rules/colour", "red"), "rules.colour: unknown option"),
    (_set("rules/spot_on", "yes"), "rules.spot_on: 'yes' is not true or false"),
    (_set("rules/faces", 9), "rules.faces: 9 is outside 2..6"),
    (_set("rules/faces", 6.0), "rules.faces: 6.0 is not a whole number"),
    (
        lambda d: _set("rules/wild_needs_natural", True)(_set("rules/aces_wild", False)(d)),
        "rules.wild_needs_natural: needs aces_wild=true",
    ),
    (
        _set("rules/pass_hands", ["full_house", "royal"]),
        "rules.pass_hands[1]: 'royal' is not a pass hand",
    ),
    (_set("rules/max_players", 2), "players: 3 players; these rules allow at most 2"),
    (
        _set("players", [{"name": "Solo", "kind": "human"}]),
        "players: 1 players; these rules need at least 2",
    ),
    (_set("players/1/kind", "alien"), "players[1].kind: 'alien' is not human or bot"),
    (_delete("players/0/name"), "players[0].name: missing"),
    (_set("players/0/bot", "random"), "players[0].bot: only a bot player names a bot"),
    (_set("players/2", "Carla"), "players[2]: 'Carla' is not an object like"),
    (_set("setup", {"order": [0, 0, 1]}), "setup.order: [0, 0, 1] is not an order of players 0..2"),
    (_set("setup", {"dice": [5, 0, 0]}), "setup.dice: at least two players need dice to play"),
    (_set("setup", {"dice": [5, 6, 5]}), "setup.dice[1]: 6 dice; a hand holds 0..5"),
    (_set("setup", {"obliger": 3}), "setup.obliger: 3 is not a player (players are 0..2)"),
    (_set("setup", {"seats": 3}), "setup.seats: unknown field"),
    (_set("chance/3/roll/2", 7), "chance[3].roll[2]: 7 is not a face 1..6"),
    (_set("chance/3", {"roll": [1], "order": [0]}), "chance[3]: holds 'roll', 'order'; a chance"),
    (_set("chance/3", [1, 2]), "chance[3]: a list is not an object like"),
    (
        _set("chance/1", {"roll": [1, 1, 3, 6]}),
        "chance[1]: the game needs a roll of 5 dice to start the game, "
        "but the record has a roll of 4 dice",
    ),
    (
        _set("chance/0", {"order": [2, 0, 1]}),
        "chance[0]: the game needs a roll of 3 dice to start the game, "
        "but the record has a seating order of 3 players",
    ),
    (
        _set("chance/5", {"roll": [1, 2, 3]}),
        "chance[5]: the game needs a roll of 5 dice for actions[1] (spot-on), "
        "but the record has a roll of 3 dice",
    ),
    (
        lambda d: {**d, "chance": d["chance"][:-1]},
        "chance[42]: missing: the game needs a roll of 2 dice for actions[59] (closed), "
        "but the record has only 42 chance outcomes",
    ),
    (_append("chance", {"roll": [4]}), "chance[43]: not used: the game drew only 43 of "),
    (_set("actions/4/player", "x"), "actions[4].player: 'x' is not a player number"),
    (_set("actions/4/player", 7), "actions[4].player: 7 is not a player (players are 0..2)"),
    (_set("actions/4/player", True), "actions[4].player: true is not a player number"),
    (
        _set("actions/0/action", "1 x 3"),
        "actions[0].action: '1 x 3' is not in the record notation; write '1x3'",
    ),
    (_set("actions/0/action", "cinco trenes"), "actions[0].action: 'cinco trenes' is not in"),
    (_set("actions/0/action", "bananas"), "actions[0].action: 'bananas' is not a bid or call"),
    (_set("actions/0/action", "1x7"), "actions[0].action: '1x7': there is no face 7"),
    (_delete("actions/0/action"), "actions[0].action: missing"),
    (_set("actions/0/when", 3), "actions[0].when: unknown field"),
    (_set("actions/0/player", 0), "actions[0]: player 0 cannot bid 1x3: it is player 2's turn"),
    (
        _set("actions/0/action", "call"),
        "actions[0]: player 2 cannot call: player 2 opens the round",
    ),
    (
        _set("actions/10/player", 2),
        "actions[10]: player 2 cannot call: it is player 1's turn; out-of-turn calls need cruzado",
    ),
    (
        _set("actions/0/action", "40x3"),
        "actions[0]: player 2 cannot bid 40x3: 40x3: the quantity must be",
    ),
    (_set("actions/0/action", "1x3 reveal 3"), "actions[0]: player 2 cannot bid 1x3 revealing 3: "),
    (_set("actions/1/action", "open"), "actions[1]: player 0 cannot choose an open round: "),
    (
        _append("actions", {"player": 2, "action": "1x2"}),
        "actions[62]: player 2 cannot bid 1x2: the game is already over (player 2 won)",
    ),
    (
        _set("result", {"winner": 1, "rounds": 15}),
        "result.winner: the record says player 1 won, but the replay ends with player 2 winning",
    ),
    (
        _set("result", {"winner": 2, "rounds": 14}),
        "result.rounds: the record says 14 rounds, but the replay plays 15",
    ),
    (_set("result", None), "result: null, but the replay ends with player 2 winning in round 15"),
    (_set("result", {"winner": 2}), "result.rounds: missing"),
    (_set("result", "Carla"), "result: 'Carla' is not an object like"),
    (_set("meta", []), "meta: [] is not an object"),
]


@pytest.mark.parametrize(("edit", "message"), ERRORS)
def test_errors_name_the_first_bad_entry(edit: Edit, message: str) -> None:
    data = edit(fixture_data())
    assert error_of(data).startswith(message)


def test_result_of_an_unfinished_game() -> None:
    game = play(Game(preset("dudo"), 3, seed=4), random.Random(4), limit=10)
    data = record_of(game)
    data["result"] = {"winner": 1, "rounds": 3}
    assert error_of(data) == (
        "result: the record says player 1 won, but the game is not over after the last action"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{\n  "format": "dudo-record",\n  "version" 1\n}', "not JSON: line 3 column 13: "),
        ("", "not JSON: line 1 column 1: Expecting value"),
        ('{"format": "dudo-record", "format": "x"}', "not JSON: the key 'format' appears twice"),
        ('{"format": NaN}', "not JSON: NaN is not a JSON number"),
        ('{"format": 1e999}', "not JSON: 1e999 is too large a number"),
        ("[" * 100_000, "not JSON"),
        ("{}", "format: missing"),
    ],
)
def test_errors_in_the_json_text(text: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        loads_record(text)
    assert str(info.value).startswith(message)


def test_every_v1_option_is_an_engine_option() -> None:
    assert set(V1_OPTIONS) <= set(OPTION_NAMES)
    assert set(fixture_data()["rules"]) == set(OPTION_NAMES)


def test_a_later_option_missing_from_a_record_takes_its_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Options the engine gains after version 1 are filled from their defaults when a
    record does not name them (simulated: pretend cruzado came later)."""
    import dudo.records._read as reading

    later = tuple(n for n in V1_OPTIONS if n != "cruzado")
    monkeypatch.setattr(reading, "V1_OPTIONS", later)
    data = fixture_data()
    del data["rules"]["cruzado"]
    assert parse_record(data).rules == Rules()


# ------------------------------------------------------------- corrupt records (property)

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            0,
            1,
            2,
            3,
            5,
            6,
            7,
            -1,
            "call",
            "1x1",
            "5x3",
            "spot-on",
            "pass",
            "doubt-pass",
            "open",
            "closed",
            "3x2 reveal 2",
            "roll",
            "order",
            "any_face",
            [],
            {},
            [1, 2],
            [0, 1, 2],
        ]
    ),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=8,
)


def _small_records() -> list[dict[str, Any]]:
    """Short games of several rule sets (the mutations replay them many times)."""
    out = [fixture_data()]
    configs: list[tuple[Rules, int, int]] = [
        (preset("dudo", cruzado=True, reveal_reroll=True, loss="difference"), 3, 1),
        (
            preset("dudo-legacy", dice_per_player=2, pass_hands="none", pass_allows_spot_on=False),
            3,
            2,
        ),
        (preset("liars-dice", dice_per_player=2), 2, 3),
        (preset("cacho", dice_per_player=2, pass_hands="none", cruzado=True), 4, 4),
    ]
    for rules, players, seed in configs:
        game = play(Game(rules, players, seed=seed), random.Random(seed))
        out.append(record_of(game, meta={"seed": seed}))
    return out


BASE_RECORDS = _small_records()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*prefix, index)
            yield from _paths(item, (*prefix, index))


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        data = data[key]
    return data


@st.composite
def mutated_records(draw: st.DrawFn) -> str:
    data = copy.deepcopy(draw(st.sampled_from(BASE_RECORDS)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = list(_paths(data))
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = _parent(data, path)
        op = draw(st.sampled_from(["delete", "replace", "insert", "swap", "nudge"]))
        if op == "delete":
            del parent[path[-1]]
        elif op == "replace":
            parent[path[-1]] = draw(JSON_VALUES)
        elif op == "insert" and isinstance(parent, list):
            parent.insert(path[-1], draw(JSON_VALUES))
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(min_value=0, max_value=len(parent) - 1))
            parent[path[-1]], parent[other] = parent[other], parent[path[-1]]
        elif op == "nudge" and isinstance(parent[path[-1]], int):
            parent[path[-1]] += draw(st.sampled_from([-1, 1, 2]))
    text = dumps_record(data) if isinstance(data, dict) else json.dumps(data)
    if draw(st.booleans()) and draw(st.booleans()):  # a quarter: damage the text itself
        cut = draw(st.integers(min_value=0, max_value=len(text)))
        end = draw(st.integers(min_value=cut, max_value=min(len(text), cut + 3)))
        text = text[:cut] + draw(st.text(max_size=3)) + text[end:]
    return text


def check_outcome(text: str) -> Game | None:
    """Reading and replaying either works or raises RecordError: nothing else."""
    try:
        record = loads_record(text)
        game = replay(record)
    except RecordError as exc:
        assert str(exc)
        return None
    # Whatever replays is a game that records and replays the same way again.
    again = replay(game_record(game, record.players, record.meta, preset=record.preset))
    assert again.events == game.events
    return game


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_corrupt_records_give_only_record_errors(text: str) -> None:
    check_outcome(text)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_replay_command_never_crashes(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(text, encoding="utf-8")
        console = Console(file=io.StringIO(), width=100)
        code = replay_command(path, False, console)
        out = console.file.getvalue()  # type: ignore[attr-defined]
        assert code in (0, 1)
        assert (code == 1) == out.startswith("error: ")


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_arbitrary_input_gives_only_record_errors(raw: bytes | str) -> None:
    with pytest.raises(RecordError):
        record = loads_record(raw)
        replay(record)
        raise RecordError("a valid record from random input")  # pragma: no cover


# -------------------------------------------------------------------------- dudo replay


def run(path: Path, as_json: bool = False, lang: str = "en") -> tuple[int, str]:
    console = Console(file=io.StringIO(), width=100)
    code = replay_command(path, as_json, console, lang)
    return code, console.file.getvalue()  # type: ignore[attr-defined]


def test_replay_command_prints_the_game_round_by_round() -> None:
    code, out = run(FULL_GAME)
    assert code == 0
    assert "Rules: dudo" in out
    assert "Seating roll: Ana 2, Beto 1, Carla 3" in out
    assert "Play order (clockwise): Carla, Ana, Beto" in out
    for number in range(1, 16):
        assert f"Round {number}" in out
    assert out.index("Round 1") < out.index("Round 2") < out.index("Round 15")
    # Round 1: the hands as dealt, the bid, the spot-on, the reveal with the count.
    round_1 = out[out.index("Round 1") : out.index("Round 2")]
    assert "Carla opens the round. Dice: Ana 5, Beto 5, Carla 5 (15 in play)" in round_1
    assert "Ana    1 1 3 5 6" in round_1
    assert "Carla: 1x3 (one three)" in round_1
    assert "Ana: spot on (claims Carla's 1x3 is exact)" in round_1
    assert "Count of threes (aces wild):" in round_1
    assert "Obliging round:" in out
    assert "doubts" in out and "pass" in out
    assert "loses 1 die" in out
    assert "is out of the game" in out
    assert "Winner: Carla" in out
    assert out.rstrip().endswith("Carla wins after 15 rounds and 62 actions.")


def test_replay_command_in_spanish() -> None:
    code, out = run(FULL_GAME, lang="es")
    assert code == 0
    assert "Carla: 1x3 (un tren)" in out
    assert "Ana: calzo" in out
    assert out.startswith("Registro de una partida de Dudo: 3 jugadores\nReglas: ")
    assert out.rstrip().endswith("Carla gana tras 15 rondas y 62 jugadas.")
    assert "Orden de juego (" in out and "Play order" not in out


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_replay_never_speaks_to_a_player_named_you(tmp_path: Path, lang: str) -> None:
    # "You" is the name the terminal gives its player: in a replay it is a name like any
    # other, narrated in the third person, never conjugated as "you".
    data = json.loads(FULL_GAME.read_text(encoding="utf-8"))
    for player in data["players"]:
        if player["name"] == "Carla":
            player["name"] = "You"
    path = tmp_path / "you.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = run(path, lang=lang)
    assert code == 0
    label = {"en": "Player 3 (You)", "es": "Jugador 3 (You)", "it": "Giocatore 3 (You)"}[lang]
    assert label in out
    if lang == "en":
        assert "Player 3 (You) opens the round" in out
    for wrong in ("You loses", "You opens", "You wins", "You is out", "You lose", "You open"):
        assert wrong not in out


def test_replay_command_json() -> None:
    code, out = run(FULL_GAME, as_json=True)
    assert code == 0
    state = json.loads(out)
    assert state["winner"] == 2 and state["winner_name"] == "Carla"
    assert state["rounds"] == 15 and state["actions"] == 62
    assert state["players"] == ["Ana", "Beto", "Carla"]
    assert state["dice"][:2] == [0, 0] and state["dice"][2] > 0
    assert sorted(state["eliminated"]) == [0, 1]
    assert state["over"] is True


def test_replay_command_errors(tmp_path: Path) -> None:
    code, out = run(ILLEGAL_ACTION)
    assert code == 1
    assert out.startswith("error: actions[9]: player 0 cannot bid 1x3: 1x3 does not raise 1x4")
    assert "Traceback" not in out and "Round" not in out
    code, out = run(tmp_path / "nothing.json")
    assert code == 1 and out.startswith("error: cannot read")
    (tmp_path / "bad.json").write_text('{"format": "dudo-record", "version": 7}')
    code, out = run(tmp_path / "bad.json")
    assert (code, out.strip()) == (
        1,
        "error: version 7 is not supported (this program reads version 1)",
    )
    code, out = run(FULL_GAME, lang="xx")
    assert code == 2 and "unknown language" in out


def test_replay_command_error_console() -> None:
    out, err = Console(file=io.StringIO()), Console(file=io.StringIO())
    code = replay_command(ILLEGAL_ACTION, False, out, err_console=err)
    assert code == 1
    assert out.file.getvalue() == ""  # type: ignore[attr-defined]
    assert err.file.getvalue().startswith("error: actions[9]")  # type: ignore[attr-defined]


def _first_game(wanted: Callable[[Event], bool]) -> Game:
    for config in game_configs():
        game = config_game(*config, None)
        if any(wanted(e) for e in game.events):
            return game
    raise AssertionError("no game has the event wanted")  # pragma: no cover


def test_replay_command_shows_reveals_and_out_of_turn_calls(tmp_path: Path) -> None:
    game = _first_game(lambda e: isinstance(e, BidMade) and bool(e.revealed))
    code, out = run(write_record(game, tmp_path / "reveal.json"))
    assert code == 0
    assert "sets aside" in out and "re-rolls" in out
    game = _first_game(lambda e: isinstance(e, Called) and e.out_of_turn)
    code, out = run(write_record(game, tmp_path / "cruzado.json"))
    assert code == 0
    assert "out of turn)" in out
    game = Game.with_hands(preset("dudo"), [(2, 2, 3, 3, 3), (1, 4, 4, 5, 6)], opener=1, seed=2)
    for action in (Bid(2, 4), PASS, DOUBT_PASS):
        game.push(action)
    assert any(isinstance(e, Revealed) and e.pass_hand is not None for e in game.events)
    play(game, random.Random(2))
    code, out = run(write_record(game, tmp_path / "pass.json"))
    assert code == 0
    assert "the pass was good" in out
    game = _first_game(lambda e: isinstance(e, RoundCancelled))
    code, out = run(write_record(game, tmp_path / "cancel.json"))
    assert code == 0
    assert "nobody loses a die and the round is re-dealt" in out


def test_replay_command_unfinished_game(tmp_path: Path) -> None:
    game = play(Game(preset("dudo"), 3, seed=4), random.Random(4), limit=10)
    path = write_record(game, tmp_path / "g.json")
    code, out = run(path)
    assert code == 0
    assert f"The record ends in round {game.round_number}; the game is not finished." in out
    code, out = run(path, as_json=True)
    assert json.loads(out)["winner"] is None


def test_record_type_round_trip() -> None:
    record = read_record(FULL_GAME)
    assert isinstance(record, Record)
    assert parse_record(record.to_dict()) == record


def test_the_example_in_format_md_replays() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "record-format.md").read_text(encoding="utf-8")
    start = doc.index("```json\n") + len("```json\n")
    example = doc[start : doc.index("```", start)]
    record = read_record(example)
    game = replay(record)
    assert (game.winner, game.round_number, record.names) == (1, 3, ("Ana", "Bot"))
    assert dumps_record(record.to_dict()) == example
    assert [e.player for e in game.events if isinstance(e, DiceLost)] == [0, 1, 0]


def test_a_preset_given_in_meta_goes_to_the_top_level() -> None:
    game = Game(preset("cacho"), 3, seed=1)
    data = record_of(game, meta={"preset": "cacho", "table": 4})
    assert data["preset"] == "cacho" and data["meta"] == {"table": 4}
    assert "preset" not in record_of(game)
