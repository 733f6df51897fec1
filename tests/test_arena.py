"""``dudo arena``: games between bots in worker processes or on a local Ray cluster, with
seats rotated, every record written and replayable, and the numbers of the summary."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import ipaddress
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from dudo.arena import (
    ArenaConfig,
    ArenaError,
    latency_stats,
    lineup,
    plan,
    rate_games,
    seats_of_game,
    wilson_interval,
)
from dudo.arena.command import arena_command
from dudo.engine.errors import DudoError
from dudo.records import read_record, replay

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# A heads-up run and a four-player run, small and fast (two dice each).
HEADS_UP = ("random", "easy", "--games", "24", "--rules", "liars-dice", "--dice", "2")
# Under dudo, two dice need pass hands off (they need five dice).
FOUR = ("random", "easy", "--players", "4", "--games", "16", "--rules", "dudo", "--dice", "2")
FOUR_HOUSE_RULES = ("--set", "pass_hands=none")


def run_arena_cli(
    *args: str, home: Path, timeout: float = 120, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["DUDO_HOME"] = str(home)
    env["COLUMNS"] = "100"
    env.update(extra_env or {})
    return subprocess.run(
        [sys.executable, "-m", "dudo", "arena", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def load_summary(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return data


def check_run(out: Path, games: int, players: int, chart: bool = True) -> dict[str, Any]:
    """What every complete run must hold: records that replay to the summary's results,
    consistent counts, a PNG chart (unless ``chart`` is False). Returns the summary."""
    summary = load_summary(out)
    assert summary["games_played"] == games == summary["games_requested"]
    assert summary["interrupted"] is False and summary["error"] is None
    records = sorted((out / "games").glob("game-*.json"))
    assert len(records) == games
    for entry, path in zip(summary["games"], records, strict=True):
        assert path.name == f"game-{entry['game']:06d}.json"
        record = read_record(path)
        game = replay(record)
        assert game.winner == entry["winner"]
        assert [p.bot for p in record.players] == entry["seats"]
        if entry["finished"]:
            assert sorted(entry["ranks"]) == list(range(1, players + 1))
            assert entry["ranks"][entry["winner"]] == 1
    finished = summary["games_finished"]
    assert finished == games - len(summary["unfinished_games"])
    results = summary["results"]
    assert sum(r["wins"] for r in results) == finished
    assert sum(r["copies"] for r in results) == players
    for r in results:
        assert r["games"] == games and r["finished"] == finished
        assert math.isclose(r["win_rate"], r["wins"] / finished)
        low, high = r["win_rate_ci95"]
        assert (low, high) == pytest.approx(wilson_interval(r["wins"], finished))
        assert low <= r["win_rate"] <= high
        assert r["equal_share"] == r["copies"] / players
        assert sum(r["seat_wins"]) == r["wins"]
        assert r["latency_seconds"]["decisions"] > 0
        assert 0 < r["latency_seconds"]["p50"] <= r["latency_seconds"]["p99"]
        rating = r["rating"]
        assert math.isclose(rating["ordinal"], rating["mu"] - 3 * rating["sigma"])
    if chart:
        assert (out / "results.png").read_bytes().startswith(PNG_SIGNATURE)
    else:
        assert not (out / "results.png").exists()
    return summary


@pytest.fixture(scope="module")
def heads_up_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The heads-up run on two local worker processes (shared with the Ray test)."""
    home = tmp_path_factory.mktemp("home")
    out = home / "heads-up"
    result = run_arena_cli(*HEADS_UP, "--workers", "2", "--seed", "5", "--out", str(out), home=home)
    assert result.returncode == 0, result.stdout + result.stderr
    return out, result.stdout


# ------------------------------------------------------------------------ statistics


def test_wilson_interval_known_values() -> None:
    # The 95% Wilson score interval as statistics packages give it.
    assert wilson_interval(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    assert wilson_interval(50, 100) == pytest.approx((0.403832, 0.596168), abs=1e-6)
    # Newcombe (1998), Statistics in Medicine 17:857, table I (method 3, four decimals).
    for wins, games, interval in (
        (81, 263, (0.2553, 0.3662)),
        (15, 148, (0.0624, 0.1605)),
        (0, 20, (0.0, 0.1611)),
        (1, 29, (0.0061, 0.1718)),
    ):
        assert wilson_interval(wins, games) == pytest.approx(interval, abs=5e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="not a count"):
        wilson_interval(3, 2)


def test_latency_stats() -> None:
    stats = latency_stats(i / 1000 for i in range(1, 101))
    assert stats.decisions == 100
    assert stats.p50 == pytest.approx(0.0505)
    assert stats.p99 == pytest.approx(0.09901)
    assert stats.mean == pytest.approx(0.0505)
    assert stats.max == pytest.approx(0.1)
    empty = latency_stats([])
    assert empty.decisions == 0 and empty.p50 is None and empty.p99 is None


def test_ratings_follow_results_and_pool_copies() -> None:
    ratings = rate_games(["a", "b"], [(("a", "b"), (1, 2))] * 20)
    assert ratings["a"].mu > 25 > ratings["b"].mu
    assert ratings["a"].sigma < 25 / 3
    # Copies of one bot finishing anywhere among themselves leave it where it was.
    alone = rate_games(["x"], [(("x", "x", "x"), (1, 2, 3))])
    assert alone["x"].mu == pytest.approx(25, abs=0.2)


# ------------------------------------------------------------------------ the lineup


def test_lineup_fills_the_table_with_the_other_bots() -> None:
    assert lineup(["hard", "easy"], 4) == ("hard", "easy", "easy", "easy")
    assert lineup(["a", "b", "c"], 4) == ("a", "b", "c", "b")
    assert lineup(["a", "b"], 2) == ("a", "b")
    assert lineup(["easy"], 3) == ("easy", "easy", "easy")
    with pytest.raises(ArenaError, match="3 bots for 2 players"):
        lineup(["a", "b", "c"], 2)
    # Rotation: over each block of `players` games every entry sits in every seat once.
    table = ("hard", "easy", "easy", "easy")
    assert [seats_of_game(table, n).index("hard") for n in range(1, 9)] == [0, 1, 2, 3] * 2


def test_plan_rejects_bad_input_before_writing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    for config, message in (
        (ArenaConfig(bots=("easy", "nobody"), out=out), "unknown bot 'nobody'"),
        (ArenaConfig(bots=("easy",), players=1, out=out), "at least 2 players"),
        (ArenaConfig(bots=("easy", "random"), games=0, out=out), "--games: 0"),
        (ArenaConfig(bots=("easy", "random"), dice=9, out=out), "dice_per_player: 9"),
        (ArenaConfig(bots=("easy", "random"), dice=2, out=out), "add --set pass_hands=none"),
        (ArenaConfig(bots=("easy", "random"), rules="yahtzee", out=out), "unknown preset"),
        (
            ArenaConfig(bots=("easy", "random"), rules="perudo", players=7, out=out),
            "max_players",
        ),
        (ArenaConfig(bots=("easy", "random"), bot_timeout=0, out=out), "--bot-timeout: 0 "),
        (ArenaConfig(bots=("easy", "random"), bot_timeout=-2.5, out=out), "--bot-timeout"),
    ):
        with pytest.raises(DudoError, match=message):
            plan(config)
    assert not out.exists()
    out.mkdir()
    (out / "old.txt").write_text("kept", encoding="utf-8")
    with pytest.raises(ArenaError, match="already holds files"):
        plan(ArenaConfig(bots=("easy", "random"), out=out))
    assert [p.name for p in out.iterdir()] == ["old.txt"]


# ------------------------------------------------------------------------ the command


def test_games_at_the_round_cap_are_reported_unfinished(tmp_path: Path) -> None:
    """In-process (one worker), through the command's own function: a two-round cap stops
    every five-dice game; they are reported, recorded, and counted for nobody."""
    out = tmp_path / "capped"
    screen = io.StringIO()
    code = arena_command(
        ArenaConfig(
            bots=("easy", "random"),
            games=4,
            rules="dudo",
            settings=(),
            players=None,
            dice=None,
            seed=11,
            workers=1,
            out=out,
            ray_address=None,
            max_rounds=2,
        ),
        console=Console(file=screen, width=100),
    )
    assert code == 0
    assert (
        "Unfinished (stopped at 2 rounds, not counted): 4 games (1, 2, 3, 4)" in screen.getvalue()
    )
    summary = load_summary(out)
    assert summary["unfinished_games"] == [1, 2, 3, 4] and summary["games_finished"] == 0
    for r in summary["results"]:
        assert r["wins"] == 0 and r["win_rate"] is None and r["win_rate_ci95"] == [0.0, 1.0]
        assert r["rating"]["mu"] == 25.0
    for path in sorted((out / "games").iterdir()):
        record = read_record(path)
        assert record.result is None and record.meta["status"] == "stopped at the round cap"
        assert replay(record).round_number == 3  # two rounds played, the third begun
    assert (out / "results.png").read_bytes().startswith(PNG_SIGNATURE)


def test_without_matplotlib_the_run_skips_the_chart_with_a_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """matplotlib is the ``plots`` extra: when it cannot be imported (a None in sys.modules
    makes ``import matplotlib`` fail), the games, records and summary are all there, exit 0,
    and one line says what to install instead of a chart."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "no-plots"
    screen = io.StringIO()
    code = arena_command(
        ArenaConfig(
            bots=("easy", "random"),
            games=2,
            rules="liars-dice",
            settings=(),
            players=None,
            dice=1,
            seed=4,
            workers=1,
            out=out,
            ray_address=None,
        ),
        console=Console(file=screen, width=200),
    )
    assert code == 0
    check_run(out, games=2, players=2, chart=False)
    text = screen.getvalue()
    assert "No chart: it needs matplotlib, pip install 'dudo[plots]'" in text
    assert "Chart:" not in text and "Summary:" in text


def test_heads_up_run(heads_up_run: tuple[Path, str]) -> None:
    out, stdout = heads_up_run
    summary = check_run(out, games=24, players=2)
    assert summary["lineup"] == ["random", "easy"]
    assert summary["seed"] == 5 and summary["preset"] == "liars-dice"
    assert summary["rules"]["dice_per_player"] == 2
    for r in summary["results"]:
        assert r["seat_games"] == [12, 12]
    # Each pair of games shares its dice: the same deal with the seats swapped.
    first, second = (
        read_record(out / "games" / "game-000001.json"),
        read_record(out / "games" / "game-000002.json"),
    )
    assert first.chance[:2] == second.chance[:2]
    assert [p.bot for p in first.players] == ["random", "easy"]
    assert [p.bot for p in second.players] == ["easy", "random"]
    for word in ("random", "easy", "win rate", "summary.json", "results.png"):
        assert word in stdout


def test_four_players_one_bot_against_three_copies(tmp_path: Path) -> None:
    out = tmp_path / "four"
    result = run_arena_cli(
        *FOUR, *FOUR_HOUSE_RULES, "--workers", "2", "--seed", "3", "--out", str(out), home=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    summary = check_run(out, games=16, players=4)
    assert summary["lineup"] == ["random", "easy", "easy", "easy"]
    by_bot = {r["bot"]: r for r in summary["results"]}
    assert by_bot["random"]["copies"] == 1 and by_bot["easy"]["copies"] == 3
    assert by_bot["random"]["seat_games"] == [4, 4, 4, 4]
    assert by_bot["easy"]["seat_games"] == [12, 12, 12, 12]
    assert by_bot["random"]["equal_share"] == 0.25


def _arena_with_outside_bot(
    bots: list[str],
    out: Path,
    *,
    games: int,
    seed: int,
    screen: io.StringIO | None = None,
    **more: Any,
) -> int:
    """A small in-process heads-up run of one-die liars-dice, as the tests of outside bots
    play it (more options in ``more``)."""
    return arena_command(
        ArenaConfig(
            bots=tuple(bots),
            games=games,
            rules="liars-dice",
            settings=(),
            players=None,
            dice=1,
            seed=seed,
            workers=1,
            out=out,
            ray_address=None,
            chart=False,
            **more,
        ),
        console=Console(file=screen if screen is not None else io.StringIO(), width=300),
    )


#: An outside bot that answers hello at once and then takes a second over every decision.
SLOW_BOT = """
import json, sys, time
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "quit":
        break
    if request["type"] == "hello":
        answer = {"id": request["id"], "protocol": 1, "name": "slow"}
    else:
        time.sleep(1.0)
        answer = {"id": request["id"], "action": request["view"]["legal_actions"][-1]}
    print(json.dumps(answer), flush=True)
"""


def test_the_bot_timeout_stops_a_game_whose_outside_bot_is_late(tmp_path: Path) -> None:
    script = tmp_path / "slow_bot.py"
    script.write_text(SLOW_BOT, encoding="utf-8")
    screen = io.StringIO()
    code = _arena_with_outside_bot(
        [f"cmd:{sys.executable} {script}", "random"],
        tmp_path / "late",
        games=1,
        seed=3,
        screen=screen,
        bot_timeout=0.25,
    )
    shown = " ".join(screen.getvalue().split())
    assert code == 1, shown
    assert "the warm-up game" in shown and "did not answer choose #2 within 0.25 s" in shown


#: An outside bot that calls itself "first-action" and plays the first legal action at once.
FIRST_ACTION_BOT = """
import json, sys
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "quit":
        break
    if request["type"] == "hello":
        answer = {"id": request["id"], "protocol": 1, "name": "first-action"}
    else:
        answer = {"id": request["id"], "action": request["view"]["legal_actions"][0]}
    print(json.dumps(answer), flush=True)
"""


def test_results_and_records_name_an_outside_bot_as_it_names_itself(tmp_path: Path) -> None:
    script = tmp_path / "first_action.py"
    script.write_text(FIRST_ACTION_BOT, encoding="utf-8")
    spec = f"cmd:{sys.executable} {script}"
    out = tmp_path / "named"
    screen = io.StringIO()
    code = _arena_with_outside_bot([spec, "random", spec], out, games=2, seed=5, screen=screen)
    assert code == 0, screen.getvalue()
    assert f"first-action ({spec})" in screen.getvalue()
    summary = load_summary(out)
    assert [(r["bot"], r["name"]) for r in summary["results"]] == [
        (spec, "first-action"),
        ("random", "random"),
    ]
    for path in sorted((out / "games").iterdir()):
        players = read_record(path).players
        by_bot = sorted((p.bot, p.name) for p in players)
        assert by_bot == sorted(
            [(spec, "first-action 1"), (spec, "first-action 2"), ("random", "random")]
        )


#: Counts its starts in the file named by $STARTS, then plays the first legal action.
COUNTED_BOT = FIRST_ACTION_BOT.replace(
    "import json, sys\n",
    "import json, os, sys\nopen(os.environ['STARTS'], 'a').write('started\\n')\n",
)


def test_an_outside_program_plays_many_games_in_one_session(tmp_path: Path) -> None:
    """A program is started once for a chunk of games (and the warm-up game), not once a
    game: one that loads a model pays for it once."""
    script = tmp_path / "counted.py"
    script.write_text(COUNTED_BOT, encoding="utf-8")
    starts = tmp_path / "starts.txt"
    bots = [f"cmd:STARTS={starts} {sys.executable} {script}", "random"]
    code = _arena_with_outside_bot(bots, tmp_path / "sessions", games=16, seed=9)
    assert code == 0
    started = starts.read_text(encoding="utf-8").count("started")
    # One start to check the lineup, then one for each chunk of games (eight chunks of two
    # games on one worker, the first with the warm-up game), where a start a game made 18.
    assert started <= 9, f"{started} starts for 16 games and a warm-up game"


def test_bad_input_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    cases = {
        "unknown bot 'superhuman'": ("easy", "superhuman"),
        "3 bots for 2 players": ("easy", "random", "easy", "--players", "2"),
        "spot_on='maybe' is not valid": ("easy", "random", "--set", "spot_on=maybe"),
        "cannot reach the Ray cluster": ("easy", "random", "--ray", f"127.0.0.1:{free_port()}"),
    }
    env = dict(os.environ, DUDO_HOME=str(tmp_path), COLUMNS="100")
    # Started together: each is a whole interpreter start-up, mostly waiting on imports.
    processes = {
        message: subprocess.Popen(
            [sys.executable, "-m", "dudo", "arena", *args, "--games", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for message, args in cases.items()
    }
    for message, process in processes.items():
        stdout, stderr = process.communicate(timeout=120)
        assert process.returncode == 2, stdout + stderr
        assert f"error: {message}" in " ".join(stdout.split())
        assert "Traceback" not in stdout + stderr
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_keeps_the_games_played(tmp_path: Path) -> None:
    """Ctrl-C stops the run; the records written and the summary agree. No --out: the run
    goes to a new folder under $DUDO_HOME/arena."""
    env = dict(os.environ, DUDO_HOME=str(tmp_path), COLUMNS="100")
    args = ["random", "random", "--games", "20000", "--workers", "2", "--no-chart"]
    process = subprocess.Popen(
        [sys.executable, "-m", "dudo", "arena", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(list(tmp_path.glob("arena/*/games/*"))) < 20:
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stdout + stderr
    assert "Interrupted" in stdout
    (out,) = (tmp_path / "arena").iterdir()
    summary = load_summary(out)
    assert summary["interrupted"] is True
    played = summary["games_played"]
    assert 20 <= played < 20000
    records = sorted((out / "games").glob("game-*.json"))
    assert [path.name for path in records] == [
        f"game-{g['game']:06d}.json" for g in summary["games"]
    ]
    assert sum(r["wins"] for r in summary["results"]) == summary["games_finished"]
    assert not (out / "results.png").exists()


# ------------------------------------------------------------------------ Ray


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def listening_addresses(group: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """The addresses the processes of process group ``group`` listen on (TCP, from /proc)."""
    sockets: set[str] = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if int(stat.read_text().rpartition(")")[2].split()[2]) != group:
                continue
            for fd in (stat.parent / "fd").iterdir():
                with contextlib.suppress(OSError):
                    target = os.readlink(fd)
                    if target.startswith("socket:["):
                        sockets.add(target[8:-1])
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] != "0A" or fields[9] not in sockets:  # 0A: LISTEN
                continue
            raw = bytes.fromhex(fields[1].partition(":")[0])  # 32-bit words, little-endian
            words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
            found.append(ipaddress.ip_address(words))
    return found


def is_loopback(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


@contextlib.contextmanager
def local_ray_head(env: dict[str, str]) -> Iterator[int]:
    """A one-CPU Ray head on this machine, every port on 127.0.0.1; yields the GCS port."""
    port = free_port()
    temp = tempfile.mkdtemp(prefix="dudo-ray-")  # short: Ray's socket paths must stay short
    command = [
        sys.executable, "-m", "ray.scripts.scripts", "start", "--head",
        "--node-ip-address=127.0.0.1", f"--port={port}", "--num-cpus=1",
        "--include-dashboard=false", "--include-log-monitor=false", "--no-monitor",
        "--object-store-memory=100000000",
        "--disable-usage-stats", f"--temp-dir={temp}",
        f"--dashboard-agent-listen-port={free_port()}",
        f"--dashboard-agent-grpc-port={free_port()}",
        f"--metrics-export-port={free_port()}",
        f"--runtime-env-agent-port={free_port()}",
    ]  # fmt: skip
    if importlib.util.find_spec("grpc") is not None:
        # Ray's client server starts only where its extra (ray[client]) is installed.
        command.append(f"--ray-client-server-port={free_port()}")
    # Its own session: every Ray process it starts shares the process group we stop.
    starter = subprocess.Popen(
        command,
        env=env,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = starter.communicate(timeout=90)
        assert starter.returncode == 0, f"ray start failed:\n{output}"
        yield port
        # Every port of the cluster was on the loopback interface only.
        addresses = listening_addresses(starter.pid)
        assert addresses and all(is_loopback(a) for a in addresses), addresses
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(starter.pid, signal.SIGTERM)
            time.sleep(0.5)
            os.killpg(starter.pid, signal.SIGKILL)
        subprocess.run(["rm", "-rf", temp], check=False)


def test_ray_cluster_plays_the_same_games(heads_up_run: tuple[Path, str], tmp_path: Path) -> None:
    local_out, _ = heads_up_run
    # On Linux Ray swaps 127.0.0.1 for the machine's outward address unless told it runs
    # a single-machine cluster: then every Ray process listens on 127.0.0.1 only.
    env = dict(os.environ, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0")
    with local_ray_head(env) as port:
        out = tmp_path / "on-ray"
        result = run_arena_cli(
            *HEADS_UP, "--seed", "5", "--ray", f"127.0.0.1:{port}", "--out", str(out), "--no-chart",
            home=tmp_path, extra_env={"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"},
        )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    summary = check_run(out, games=24, players=2, chart=False)
    local = load_summary(local_out)
    assert summary["ray_address"] == f"127.0.0.1:{port}"
    assert summary["games"] == local["games"]
    for on_ray, here in zip(summary["results"], local["results"], strict=True):
        for key in ("bot", "wins", "seat_games", "seat_wins", "rating", "mean_place"):
            assert on_ray[key] == here[key]
    for name in ("game-000001.json", "game-000024.json"):
        assert (
            read_record(out / "games" / name).actions
            == read_record(local_out / "games" / name).actions
        )
