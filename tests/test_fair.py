"""The fair chance source: a pinned test vector of the documented scheme, the same outcomes for
the same secret and seeds (and others for any change), every face and every seating equally
likely (no modulo bias: the uneven tail of the bytes is skipped), and games dealt by it;
``dudo verify`` also replays the record around the dice."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dudo.cli import app as cli
from dudo.engine.chance import ChanceOutcome
from dudo.engine.fair import FairChance, FairSeed, commitment, valid_client_seed, verify
from dudo.engine.game import Game
from dudo.engine.rules import PRESETS
from dudo.records import PlayerInfo, record_of

SECRET = bytes(range(32))
SEEDS = ("00112233445566778899aabbccddeeff", "")


class Bytes(FairChance):
    """The scheme's arithmetic fed with chosen bytes instead of the HMAC stream."""

    def __init__(self, stream: list[int]) -> None:
        super().__init__(SECRET, ())
        self.stream = list(stream)

    def _byte(self) -> int:
        return self.stream.pop(0)


def test_the_pinned_vector() -> None:
    # Worked by hand from the HMAC's first block 84 cc 89 f8 73 7c 75 c2 ...: the order takes
    # 0x84 % 4, 0xcc % 3, 0x89 % 2; the dice 0xf8 % 6 + 1, 0x73 % 6 + 1, ...
    assert commitment(SECRET) == (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    )
    block = hmac.new(SECRET, b"dudo-fair-1|" + SEEDS[0].encode() + b",|0", hashlib.sha256)
    assert block.hexdigest().startswith("84cc89f8737c75c2")
    chance = FairChance(SECRET, SEEDS)
    assert chance.order(4) == (2, 1, 3, 0)
    assert chance.roll(5, 6) == (3, 2, 5, 4, 3)
    assert chance.roll(3, 6) == (4, 3, 4)


def test_same_inputs_same_dice_and_any_change_changes_them() -> None:
    def draw(secret: bytes, seeds: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
        chance = FairChance(secret, seeds)
        return (chance.order(6), *(chance.roll(5, 6) for _ in range(40)))

    first = draw(SECRET, SEEDS)
    assert draw(SECRET, SEEDS) == first
    assert draw(SECRET, (SEEDS[0], "ab" * 8)) != first
    assert draw(SECRET, (SEEDS[1], SEEDS[0])) != first  # the seeds' order counts
    assert draw(bytes(32), SEEDS) != first


def test_every_face_is_equally_likely_the_uneven_tail_is_skipped() -> None:
    for faces in range(2, 7):
        chance = Bytes(list(range(256)))
        values = [chance.below(faces) for _ in range(256 - 256 % faces)]
        # 0..limit-1 give each face equally often; the uneven tail is left, and skipped.
        assert Counter(values) == dict.fromkeys(range(faces), 256 // faces)
        assert chance.stream == list(range(256 - 256 % faces, 256))
        chance.stream.append(faces + 1)
        assert chance.below(faces) == 1
    # A byte in the tail is skipped, the next one used.
    assert Bytes([252, 253, 254, 255, 7]).below(6) == 1


def test_the_real_stream_is_uniform_for_dice_and_seatings() -> None:
    chance = FairChance(SECRET, SEEDS)
    faces = Counter(chance.roll(60_000, 6))
    for face in range(1, 7):
        assert abs(faces[face] - 10_000) < 450, faces  # ~4.9 standard deviations
    orders = Counter(chance.order(3) for _ in range(12_000))
    assert len(orders) == 6
    for count in orders.values():
        assert abs(count - 2_000) < 220, orders


def test_client_seeds_are_checked() -> None:
    assert valid_client_seed("0" * 16) and valid_client_seed("f" * 64)
    for bad in ("0" * 15, "f" * 65, "A" * 16, "g" * 16, 16, None):
        assert not valid_client_seed(bad)
    with pytest.raises(ValueError, match="client seed"):
        FairChance(SECRET, ("XYZ",))


def test_a_game_dealt_by_it_verifies_and_a_changed_die_does_not() -> None:
    fair = FairSeed(SECRET, (*SEEDS, "ab" * 8))
    game = Game(PRESETS["dudo"], 3, chance=fair.chance())
    while not game.is_over:
        game.push(game.legal_actions(game.to_move)[-1])  # the last legal action: a call
    data = fair.to_json(reveal=True)
    assert verify(data, game.chance_log, 6) == []
    changed = list(game.chance_log)
    index = next(i for i, c in enumerate(changed) if c.kind == "roll")
    values = changed[index].values
    changed[index] = ChanceOutcome("roll", (values[0] % 6 + 1, *values[1:]))
    (difference,) = verify(data, changed, 6)
    assert difference.index == index
    assert difference.expected.split()[0] == str(values[0])
    wrong = data | {"secret": "11" * 32}
    differences = verify(wrong, game.chance_log, 6)
    assert differences[0].index is None and differences[0].expected == fair.commitment
    with pytest.raises(ValueError, match="not revealed"):
        verify(data | {"secret": None}, game.chance_log, 6)


def verify_cli(
    record: dict[str, Any], tmp_path: Path, name: str, lang: str = "en"
) -> tuple[int, str]:
    """``dudo verify`` on ``record`` written to a file: its exit code and output."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path), "--lang", lang])
    return result.exit_code, result.output


def test_dudo_verify_replays_the_whole_record(tmp_path: Path) -> None:
    # Fair dice vouch for nothing if the record around them changed: a dropped last roll
    # leaves every remaining outcome fair, another winner touches no outcome at all.
    fair = FairSeed(SECRET, (*SEEDS, "ab" * 8))
    game = Game(PRESETS["dudo"], 3, chance=fair.chance())
    while not game.is_over:
        game.push(game.legal_actions(game.to_move)[-1])
    players = [PlayerInfo("Ana"), PlayerInfo("Bo"), PlayerInfo("Cy")]
    record = record_of(game, players, {"fair": fair.to_json(reveal=True)})
    code, out = verify_cli(record, tmp_path, "whole")
    assert code == 0 and out.startswith("fair:") and out.count("\n") == 1, out
    assert "replaying the actions gives the recorded result" in out

    dropped = json.loads(json.dumps(record))
    last = len(dropped["chance"]) - 1
    dropped["chance"].pop()
    code, out = verify_cli(dropped, tmp_path, "dropped")
    assert code == 1 and out.startswith("NOT consistent: replaying"), out
    assert f"chance[{last}] is missing: the game needs one more" in out, out
    code, out = verify_cli(dropped, tmp_path, "dropped-es", "es")
    assert code == 1 and "NO es coherente" in out and f"falta chance[{last}]" in out, out
    code, out = verify_cli(dropped, tmp_path, "dropped-it", "it")
    assert code == 1 and "NON coerente" in out and f"manca chance[{last}]" in out, out

    winner = game.winner
    assert winner is not None
    other = (winner + 1) % 3
    changed = json.loads(json.dumps(record))
    changed["result"]["winner"] = other
    code, out = verify_cli(changed, tmp_path, "winner")
    assert code == 1 and "NOT fair" not in out, out  # the dice are still the committed ones
    said = f"{players[other].name} (players[{other}])"
    found = f"{players[winner].name} (players[{winner}])"
    assert f"result.winner: the record says {said} won, but the game ends with {found}" in out
    code, out = verify_cli(changed, tmp_path, "winner-es", "es")
    assert code == 1 and f"ganó {said}" in out, out
    code, out = verify_cli(changed, tmp_path, "winner-it", "it")
    assert code == 1 and f"vittoria di {found}" in out, out

    # An action the rules refuse: the engine's words; and both kinds of fault at once.
    illegal = json.loads(json.dumps(record))
    illegal["actions"][0]["action"] = "call"  # the opener must bid
    roll = illegal["chance"][-1]["roll"]
    roll[0] = roll[0] % 6 + 1
    code, out = verify_cli(illegal, tmp_path, "illegal")
    assert code == 1 and out.startswith("NOT fair: 1 difference\n"), out
    assert "NOT consistent" in out and "the replay stops: actions[0]" in out, out
