"""The JSON-lines bot protocol: views to JSON and back exactly, ``dudo bot-server`` as a real
process, and external programs playing whole games through :class:`ExternalBot`."""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import random
import re
import shlex
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dudo.bots import make_bot
from dudo.bots.external import ExternalBot, ExternalBotError, split_command
from dudo.bots.match import play_game
from dudo.bots.protocol import (
    PROTOCOL_VERSION,
    VIEW_FIELDS,
    ProtocolError,
    dumps,
    loads_message,
    parse_request,
    view_from_json,
    view_to_json,
)
from dudo.engine import (
    Bid,
    Call,
    Called,
    DoubtPass,
    DudoError,
    Game,
    ObligeChoice,
    Pass,
    PlayerView,
    PublicPart,
    RevealBid,
    Rules,
    SpotOn,
    ViewerPart,
    preset,
)
from dudo.engine.events import EVENT_TYPES

PROTOCOL_DOC = Path(__file__).parents[1] / "docs" / "bot-protocol.md"
README = Path(__file__).parents[1] / "README.md"

# Presets and house rules whose views differ in shape: obliging rounds (open, closed,
# chosen), cruzado, pass, reveal_reroll, spot-on (gain and cancel), research dice.
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("dudo", {}, 4),
    ("dudo", {"cruzado": True}, 4),
    ("dudo", {"reveal_reroll": True}, 3),
    ("dudo", {"loss": "difference", "next_opener": "winner", "direction": "counterclockwise"}, 3),
    ("dudo", {"seating": "fixed", "oblige_visibility": "closed"}, 2),
    ("dudo-legacy", {}, 3),
    ("dudo-equalize", {"cruzado": True}, 3),
    ("dudo-app", {}, 3),
    ("perudo", {}, 5),
    ("cacho", {}, 4),
    ("liars-dice", {}, 2),
    ("liars-dice", {"faces": 4, "dice_per_player": 2}, 3),
]


def _rules(name: str, options: dict[str, Any]) -> Rules:
    return preset(name, **options)


def random_game(rules: Rules, players: int, seed: int, max_steps: int = 400) -> Iterator[Game]:
    """A game played by uniformly random actions (out-of-turn calls included), yielded
    before every action and once at the end."""
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(max_steps):
        yield game
        if game.is_over:
            return
        _, action = rng.choice(game.all_legal_actions())
        game.push(action)
    yield game


def round_trip(view: PlayerView) -> PlayerView:
    """Through JSON text and back, as the view travels on the wire."""
    line = dumps(view_to_json(view))
    assert "\n" not in line
    return view_from_json(loads_message(line))


def _kinds(view: PlayerView) -> set[str]:
    """What a view shows, for the coverage check of the round-trip sweep."""
    seen = {type(e).__name__ for e in view.events}
    actions = [*view.legal_actions, *(a for _, a in view.round_actions)]
    seen |= {type(a).__name__ for a in actions}
    seen |= {"out-of-turn call" for a in actions if isinstance(a, Call) and a.by is not None}
    seen.add(f"phase {view.phase}")
    seen.add(f"visibility {view.visibility}")
    if view.my_dice is None and view.viewer is not None and view.dice_counts[view.viewer]:
        seen.add("own dice hidden")
    if any(hand for p, hand in enumerate(view.seen_dice) if p != view.viewer and hand):
        seen.add("other dice seen")
    return seen


# ------------------------------------------------------------------ views to JSON and back


def test_view_fields_are_every_field_of_player_view() -> None:
    assert tuple(f.name for f in dataclasses.fields(PlayerView)) == VIEW_FIELDS


def test_a_view_is_its_public_part_and_its_viewers_part() -> None:
    """Every field of a view is in exactly one of the two parts a server builds it from."""
    public, own = set(PublicPart._fields), set(ViewerPart._fields)
    assert not public & own
    assert public | own == set(VIEW_FIELDS)


def test_views_round_trip_exactly_in_every_kind_of_game() -> None:
    """Every view showing something no view read back so far showed, one seat in turn
    every fourth step, and every seat (and the spectator) at the end, in a game of each kind."""
    covered: set[str] = set()
    for number, (name, options, players) in enumerate(CONFIGS):
        rules = _rules(name, options)
        for step, game in enumerate(random_game(rules, players, 100 * number)):
            sampled = (step // 4) % players if step % 4 == 0 else -1
            for viewer in [None, *range(players)]:
                view = game.view(viewer)
                kinds = _kinds(view)
                if game.is_over or viewer == sampled or not kinds <= covered:
                    assert round_trip(view) == view
                    covered |= kinds
    expected = {t.__name__ for t in EVENT_TYPES}
    expected |= {t.__name__ for t in (Bid, RevealBid, Call, SpotOn, Pass, DoubtPass, ObligeChoice)}
    expected |= {"out-of-turn call", "own dice hidden", "other dice seen"}
    expected |= {f"phase {p}" for p in ("choose_visibility", "bidding", "over")}
    expected |= {f"visibility {v}" for v in ("normal", "closed", "open", None)}
    assert expected <= covered, f"not covered: {sorted(expected - covered)}"


@settings(max_examples=30, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32),
    stop=st.integers(0, 300),
    viewer_pick=st.integers(0, 5),
)
def test_a_view_read_back_equals_the_view(
    config: tuple[str, dict[str, Any], int], seed: int, stop: int, viewer_pick: int
) -> None:
    name, options, players = config
    games = random_game(_rules(name, options), players, seed)
    game = next(games)
    for _ in range(stop):
        game = next(games, game)
    viewer = None if viewer_pick >= players else viewer_pick
    view = game.view(viewer)
    back = round_trip(view)
    assert back == view
    assert view_to_json(back) == view_to_json(view)


def _sample_view(players: int = 3) -> dict[str, Any]:
    game = Game(preset("dudo"), players, seed=1)
    game.push(game.legal_actions()[3])
    mover = game.to_move
    assert mover is not None
    return view_to_json(game.view(mover))


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    """Set (or, with value ..., delete) ``data`` at a path like ``events.1.bid``."""
    *parents, last = path.split(".")
    target: Any = data
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    key_or_index: Any = int(last) if isinstance(target, list) else last
    if value is ...:
        del target[key_or_index]
    else:
        target[key_or_index] = value


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("rules", ..., "view.rules: missing"),
        ("extra", 1, "view.extra: unknown field"),
        ("rules.faces", 9, "view.rules.faces: 9 is outside 2..6"),
        ("rules.raise_mode", "upwards", "view.rules.raise_mode: 'upwards' is not valid"),
        ("players", True, "view.players: true is not a number of players"),
        ("viewer", 7, "view.viewer: 7 is not a player (players are 0..2)"),
        ("order", [0, 0, 1], "view.order: [0, 0, 1] is not an order of players 0..2"),
        ("dice_counts.1", "x", "view.dice_counts[1]: 'x' is not a whole number"),
        ("dice_counts", [5, 5], "view.dice_counts: 2 entries for 3 players"),
        ("obliged", [1, 1], "view.obliged: [1, 1] names a player twice"),
        ("phase", "lunch", "view.phase: 'lunch' is not valid; use choose_visibility"),
        ("visibility", "foggy", "view.visibility: 'foggy' is not valid"),
        ("standing_bid", "call", "view.standing_bid: 'call' is not a bid"),
        ("my_dice", [7], "view.my_dice[0]: 7 is not a face 1..6"),
        ("seen_dice", None, "view.seen_dice: null is not a list"),
        ("legal_actions.0", "five trains", "is not in the canonical notation; write '5x3'"),
        ("legal_actions.0", "banana", "view.legal_actions[0]:"),
        ("round_actions.0.by", 0, "view.round_actions[0].by: only a call names its caller"),
        ("events.0.type", "Nope", "view.events[0].type: 'Nope' is not an event type"),
        ("events.0.rolls.1", [1], "view.events[0].rolls[1]: holds 1 values, not 2"),
        ("events.3.bid", 5, "view.events[3].bid: 5 is not a bid like '5x3'"),
        ("events.3.rerolled", ..., "view.events[3].rerolled: missing"),
        ("events.3.colour", "red", "view.events[3].colour: unknown field"),
        ("winner", "me", "view.winner: 'me' is not a player number"),
    ],
)
def test_a_bad_view_is_refused_naming_the_bad_value(path: str, value: Any, message: str) -> None:
    data = _sample_view()
    assert data["events"][0]["type"] == "SeatingRolled"
    assert data["events"][3]["type"] == "BidMade"
    _set(data, path, value)
    with pytest.raises(ProtocolError) as caught:
        view_from_json(data)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[1, 2]", "a message is a JSON object, not a list"),
        ('{"type": "hello", "id": 1, "id": 2, "protocol": 1}', "the key 'id' appears twice"),
        ('{"type": "choose", "id": NaN, "view": {}}', "NaN is not a JSON number"),
        ("{'type': 'hello'}", "not JSON: column 2"),
    ],
)
def test_a_line_that_is_not_a_message_is_refused(line: str, message: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(message)):
        loads_message(line)


@pytest.mark.parametrize(
    ("request_data", "message"),
    [
        ({"id": 1}, "type: missing"),
        ({"type": 3, "id": 1}, "type: 3 is not a request type"),
        ({"type": "hello", "protocol": 1}, "id: missing"),
        ({"type": "hello", "id": "one", "protocol": 1}, "id: 'one' is not a whole number"),
        ({"type": "hello", "id": 1}, "protocol: missing"),
        ({"type": "choose", "id": 1}, "view: missing"),
        ({"type": "quit", "id": 1, "now": True}, "now: unknown field"),
    ],
)
def test_a_bad_request_is_refused(request_data: dict[str, Any], message: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(message)):
        parse_request(request_data)


# ------------------------------------------------------------------- dudo bot-server


def bot_server(level: str = "easy", seed: int | None = None) -> list[str]:
    command = [sys.executable, "-m", "dudo", "bot-server", "--bot", level]
    return command if seed is None else [*command, "--seed", str(seed)]


def test_bot_server_answers_every_request_and_survives_bad_ones() -> None:
    view = _sample_view()
    spectator = {**view, "viewer": None}
    cruzado = Game(preset("dudo", cruzado=True), 3, seed=4)
    cruzado.push(cruzado.legal_actions()[0])
    bystander = next(p for p in range(3) if p != cruzado.to_move)
    lines = [
        {"type": "hello", "id": 1, "protocol": PROTOCOL_VERSION},
        "this is not json",
        {"type": "dance", "id": 3},
        {"type": "choose", "id": 4, "view": {**view, "dice_counts": [5, "x", 5]}},
        {"type": "hello", "id": 5, "protocol": 99},
        {"type": "out_of_turn", "id": 6, "view": view},
        {"type": "choose", "id": 7, "view": spectator},
        {"type": "choose", "id": 8, "view": {**view, "legal_actions": []}},
        "",
        {"type": "choose", "id": 9, "view": view},
        {"type": "out_of_turn", "id": 10, "view": view_to_json(cruzado.view(bystander))},
        {"type": "quit"},
        {"type": "hello", "id": 11, "protocol": PROTOCOL_VERSION},  # after quit: unread
    ]
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    result = subprocess.run(
        bot_server("easy", 3), input=text, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, None, 3, 4, 5, 6, 7, 8, 9, 10]
    assert answers[0] == {"id": 1, "protocol": PROTOCOL_VERSION, "name": "easy"}
    errors = [a["error"] for a in answers[1:8]]
    assert errors[0].startswith("not JSON")
    assert "'dance' is not a request type" in errors[1]
    assert "view.dice_counts[1]: 'x' is not a whole number" in errors[2]
    assert "version 99 is not supported" in errors[3]
    assert "out_of_turn is for a player who is not to move" in errors[4]
    assert "spectator" in errors[5]
    assert "nothing to choose" in errors[6]
    assert answers[8]["action"] in view["legal_actions"]
    assert isinstance(answers[9]["call"], bool)
    assert "Traceback" not in result.stderr


def test_bot_server_with_an_unknown_level_exits_with_code_2() -> None:
    result = subprocess.run(
        bot_server("grandmaster"), input="", capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert "unknown bot 'grandmaster'" in result.stderr
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------- external bots in games


def test_bot_server_plays_exactly_like_the_same_bot_in_process() -> None:
    """An external seat gets its views through JSON and a process, and plays the very moves
    the same bot (same level, same seed) makes in process: the view it reads is the view the
    engine gave. One bot-server plays three games in a row, as one in-process bot does."""
    games = [(preset("dudo"), 4), (preset("perudo"), 3), (preset("dudo", cruzado=True), 3)]
    seed = 12
    local = make_bot("easy", random.Random(seed))
    with ExternalBot(bot_server("easy", seed)) as external:
        assert external.name == "easy"
        for number, (rules, players) in enumerate(games):
            histories = []
            for first in (local, external):
                others = [make_bot("easy", random.Random(seed + s)) for s in range(1, players)]
                result = play_game(Game(rules, players, seed=seed + number), [first, *others])
                assert result.finished
                histories.append(result.game.history)
            assert histories[0] == histories[1]
            assert any(player == 0 for player, _ in histories[1])


SCRIPT_BOT = textwrap.dedent(
    """
    # A bot that knows nothing of dudo's code: it speaks the protocol with the standard library.
    import json, random, sys

    rng = random.Random(7)
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] == "quit":
            break
        if request["type"] == "hello":
            answer = {"protocol": 1, "name": "script"}
        elif request["type"] == "choose":
            legal = request["view"]["legal_actions"]
            answer = {"action": "call" if "call" in legal and rng.random() < 0.3 else legal[0]}
        else:
            answer = {"call": rng.random() < 0.2}
        answer["id"] = request["id"]
        sys.stdout.write(json.dumps(answer) + "\\n")
        sys.stdout.flush()
    """
)


def _script(tmp_path: Path, name: str, source: str) -> list[str]:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return [sys.executable, str(path)]


def test_a_program_in_plain_python_plays_games(tmp_path: Path) -> None:
    with ExternalBot(_script(tmp_path, "script_bot", SCRIPT_BOT)) as script:
        assert script.name == "script"
        for rules in (preset("dudo"), preset("dudo", cruzado=True)):
            bots = [
                script,
                make_bot("easy", random.Random(1)),
                make_bot("random", random.Random(2)),
            ]
            result = play_game(Game(rules, 3, seed=5), bots)
            assert result.finished
            assert any(player == 0 for player, _ in result.game.history)
    # Under cruzado it was asked out of turn, and called (it does one time in five).
    calls = [e for e in result.game.events if isinstance(e, Called) and e.out_of_turn]
    assert any(e.player == 0 for e in calls)


def test_the_example_bot_of_the_protocol_document_plays(tmp_path: Path) -> None:
    source = re.search(r"```python\n(.*?)```", PROTOCOL_DOC.read_text(encoding="utf-8"), re.S)
    assert source is not None
    command = shlex.join(_script(tmp_path, "first_action", source.group(1)))
    bot = make_bot(f"cmd:{command}", random.Random())
    assert isinstance(bot, ExternalBot)
    with bot:
        assert bot.name == "first-action"
        result = play_game(
            Game(preset("perudo"), 2, seed=3), [bot, make_bot("easy", random.Random(4))]
        )
    assert result.finished


# --------------------------------------------------------------------- failing programs

HELLO = (
    "import json, sys, time\n"
    "request = json.loads(sys.stdin.readline())\n"
    "print(json.dumps({'id': request['id'], 'protocol': 1, 'name': 'broken'}), flush=True)\n"
)

#: Says hello with a name made of two environment variables, then waits for quit.
HELLO_NAMED_BY_ENVIRONMENT = (
    "import json, os, sys\n"
    "request = json.loads(sys.stdin.readline())\n"
    "name = os.environ['BOT_NAME'] + ' ' + os.environ['OTHER']\n"
    "print(json.dumps({'id': request['id'], 'protocol': 1, 'name': name}), flush=True)\n"
    "sys.stdin.readline()\n"
)


def _view_to_choose() -> PlayerView:
    game = Game(preset("dudo"), 3, seed=2)
    mover = game.to_move
    assert mover is not None
    return game.view(mover)


@pytest.mark.parametrize(
    ("after_hello", "message"),
    [
        (
            "request = json.loads(sys.stdin.readline())\n"
            "print(json.dumps({'id': request['id'], 'action': '99x6'}), flush=True)\n",
            "answered choose #2 with '99x6', which is not legal now (legal: 1x2, ",
        ),
        (
            "request = json.loads(sys.stdin.readline())\n"
            "print(json.dumps({'id': request['id'], 'action': 'sing'}), flush=True)\n",
            "answered choose #2 with 'sing', which is not an action",
        ),
        (
            "sys.stdin.readline()\nprint('thinking...', flush=True)\n",
            "answered choose #2 with 'thinking...': not JSON",
        ),
        (
            "sys.stdin.readline()\nprint(json.dumps({'id': 41, 'action': 'call'}), flush=True)\n",
            "answered id 41 to choose #2",
        ),
        (
            "request = json.loads(sys.stdin.readline())\n"
            "print(json.dumps({'id': request['id'], 'move': '2x2'}), flush=True)\n",
            'answered choose #2 without "action"',
        ),
        (
            "request = json.loads(sys.stdin.readline())\n"
            "print(json.dumps({'id': request['id'], 'error': 'no idea'}), flush=True)\n",
            "refused choose #2: no idea",
        ),
        (
            "sys.stdin.readline()\nsys.stderr.write('out of luck\\n')\nsys.exit(3)\n",
            "exited without answering choose #2 (exit code 3); its last error output: out of luck",
        ),
        ("sys.stdin.readline()\ntime.sleep(30)\n", "did not answer choose #2 within 0.5 s"),
    ],
)
def test_a_failing_program_raises_a_clear_error(
    tmp_path: Path, after_hello: str, message: str
) -> None:
    bot = ExternalBot(_script(tmp_path, "broken", HELLO + after_hello), timeout=0.5)
    assert bot.name == "broken"
    start = time.monotonic()
    with pytest.raises(ExternalBotError) as caught:
        bot.choose(_view_to_choose())
    assert time.monotonic() - start < 10
    assert message in str(caught.value)
    assert "external bot 'broken'" in str(caught.value)
    assert bot.closed  # the program was stopped
    with pytest.raises(ExternalBotError, match=re.escape(message)):
        bot.choose(_view_to_choose())  # and the bot stays failed


def test_an_answer_that_is_not_a_boolean_call_is_refused(tmp_path: Path) -> None:
    source = HELLO + (
        "request = json.loads(sys.stdin.readline())\n"
        "print(json.dumps({'id': request['id'], 'call': 'yes'}), flush=True)\n"
    )
    with ExternalBot(_script(tmp_path, "yes", source)) as bot:
        game = Game(preset("dudo", cruzado=True), 3, seed=4)
        game.push(game.legal_actions()[0])
        bystander = next(p for p in range(3) if p != game.to_move)
        with pytest.raises(ExternalBotError, match="with \"call\": 'yes', not true or false"):
            bot.wants_out_of_turn_call(game.view(bystander))


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("import sys\nsys.exit(0)\n", "hello #1 (exit code 0)"),
        (
            "import json, sys\nr = json.loads(sys.stdin.readline())\n"
            "print(json.dumps({'id': r['id'], 'protocol': 7, 'name': 'x'}), flush=True)\n",
            "speaks protocol 7; this driver speaks 1",
        ),
        (
            "import json, sys\nr = json.loads(sys.stdin.readline())\n"
            "print(json.dumps({'id': r['id'], 'protocol': 1}), flush=True)\n",
            'answered hello without a name: "name" is None',
        ),
    ],
)
def test_a_program_that_fails_the_hello_is_refused(
    tmp_path: Path, source: str, message: str
) -> None:
    with pytest.raises(ExternalBotError, match=re.escape(message)):
        ExternalBot(_script(tmp_path, "hello", source))


def test_a_program_that_cannot_start_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-bot"
    with pytest.raises(ExternalBotError, match=r"cannot start external bot .*no-such-bot"):
        ExternalBot([str(missing)])
    with pytest.raises(ExternalBotError, match="needs a command"):
        ExternalBot([])


def test_make_bot_builds_external_bots_from_cmd_specs(tmp_path: Path) -> None:
    with pytest.raises(DudoError, match="cmd: needs a command"):
        make_bot("cmd:  ", random.Random())
    with pytest.raises(DudoError, match="cannot split"):
        make_bot("cmd:python3 'unclosed", random.Random())
    with pytest.raises(DudoError, match="cannot start external bot"):
        make_bot(f"cmd:{tmp_path / 'nothing-here'}", random.Random())
    with pytest.raises(DudoError, match="or cmd:COMMAND"):
        make_bot("grandmaster", random.Random())


def test_a_cmd_spec_may_set_environment_variables_before_the_program(tmp_path: Path) -> None:
    """``cmd:NAME=value ... program args`` as a shell would run it: the settings go into the
    program's environment, on top of ours."""
    source = HELLO_NAMED_BY_ENVIRONMENT
    script = shlex.join(_script(tmp_path, "env_bot", source))
    bot = make_bot(f"cmd:BOT_NAME='from env' OTHER=1 {script}", random.Random())
    assert isinstance(bot, ExternalBot)
    with bot:
        assert bot.name == "from env 1"
    assert split_command("A=1 B= python3 -c 'x=1' C=2") == (
        ["python3", "-c", "x=1", "C=2"],
        {"A": "1", "B": ""},
    )


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_no_program_outlives_its_bot(tmp_path: Path) -> None:
    command = _script(tmp_path, "script_bot", SCRIPT_BOT)
    closed = ExternalBot(command)
    closed.close()
    closed.close()  # closing twice is harmless
    assert closed.closed and not _running(closed.pid)
    with pytest.raises(ExternalBotError, match="is closed"):
        closed.choose(_view_to_choose())

    forgotten = ExternalBot(command)
    pid = forgotten.pid
    assert _running(pid)
    del forgotten
    gc.collect()
    assert not _running(pid)


# ---------------------------------------------------------------------- documentation


def test_the_protocol_document_describes_every_field_and_event() -> None:
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    for name in VIEW_FIELDS:
        assert f"| `{name}` |" in text, name
    for event_type in EVENT_TYPES:
        assert f"| `{event_type.__name__}` |" in text, event_type.__name__
    for option in preset("dudo").to_dict():
        assert f"`{option}`" in text, option
    assert f"version {PROTOCOL_VERSION}" in text


def test_the_protocol_document_examples_are_valid() -> None:
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    assert blocks
    view = view_from_json(json.loads(blocks[0]))
    assert view.viewer == 0 and str(view.standing_bid) == "1x4"
    session = re.search(r"```text\n(> \{.*?)```", text, re.S)
    assert session is not None
    for line in session.group(1).splitlines():
        json.loads(line[2:].replace("{…}", "{}"))  # every line of the session is JSON


def test_the_readme_points_to_the_protocol() -> None:
    readme = README.read_text(encoding="utf-8")
    assert "`dudo bot-server`" in readme
    assert "docs/bot-protocol.md" in readme
    bots = (README.parent / "docs" / "bots.md").read_text(encoding="utf-8")
    assert "`dudo bot-server`" in bots
    assert "(bot-protocol.md)" in bots
