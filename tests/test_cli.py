"""The ``dudo`` command as a user runs it: a real process, real files, input piped in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RECORDS = Path(__file__).parent / "data" / "records"


def run_dudo(
    *args: str, stdin: str = "", home: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if home is not None:
        env["DUDO_HOME"] = str(home)
    env["COLUMNS"] = "100"
    return subprocess.run(
        [sys.executable, "-m", "dudo", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def test_help_lists_every_command() -> None:
    result = run_dudo("--help")
    assert result.returncode == 0
    for command in ("play", "replay", "cup", "rules"):
        assert command in result.stdout


def test_rules_lists_presets_and_options() -> None:
    listing = run_dudo("rules")
    assert listing.returncode == 0
    for name in (
        "dudo",
        "dudo-legacy",
        "dudo-equalize",
        "dudo-app",
        "perudo",
        "cacho",
        "liars-dice",
    ):
        assert name in listing.stdout
    perudo = run_dudo("rules", "perudo")
    assert perudo.returncode == 0
    assert "max_players = 6" in perudo.stdout
    unknown = run_dudo("rules", "yahtzee")
    assert unknown.returncode == 2
    assert "unknown preset 'yahtzee'" in unknown.stdout
    assert "Traceback" not in unknown.stdout + unknown.stderr


def test_replay_prints_rounds_and_winner() -> None:
    result = run_dudo("replay", str(RECORDS / "full_game.json"))
    assert result.returncode == 0, result.stderr
    assert "Round 1" in result.stdout
    assert "wins" in result.stdout.lower()


def test_replay_json_is_the_final_state() -> None:
    result = run_dudo("replay", "--json", str(RECORDS / "full_game.json"))
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["over"] is True
    assert state["winner"] is not None


def test_replay_of_an_illegal_record_names_the_first_bad_entry() -> None:
    result = run_dudo("replay", str(RECORDS / "illegal_action.json"))
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "actions[9]" in output
    assert "Traceback" not in output


def test_replay_of_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    result = run_dudo("replay", str(tmp_path / "nope.json"))
    assert result.returncode != 0
    assert "Traceback" not in result.stdout + result.stderr


def test_cup_keeps_its_dice_between_runs(tmp_path: Path) -> None:
    assert run_dudo("cup", "new", home=tmp_path).returncode == 0
    assert run_dudo("cup", "remove", home=tmp_path).returncode == 0
    status = run_dudo("cup", "status", home=tmp_path)
    assert status.returncode == 0
    assert "4" in status.stdout
    saved = json.loads((tmp_path / "cup.json").read_text())
    assert saved["count"] == 4


def test_cup_interactive_with_piped_input(tmp_path: Path) -> None:
    result = run_dudo("cup", stdin="r\n-\n+\nh\nq\n", home=tmp_path)
    assert result.returncode == 0
    assert "Traceback" not in result.stdout + result.stderr
    assert json.loads((tmp_path / "cup.json").read_text())["count"] == 5


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_play_with_piped_input_to_the_end(tmp_path: Path, lang: str) -> None:
    # Calling at every turn ends the game quickly; piped input that runs out saves the record.
    result = run_dudo(
        "play", "--players", "3", "--seed", "5", "--lang", lang, stdin="dudo\n" * 200, home=tmp_path
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Traceback" not in output
    records = list((tmp_path / "records").glob("*.json"))
    assert len(records) == 1
    replayed = run_dudo("replay", "--json", str(records[0]))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_play_rejects_a_bad_house_rule(tmp_path: Path) -> None:
    result = run_dudo("play", "--set", "spot_on=maybe", home=tmp_path)
    assert result.returncode == 2
    output = result.stdout + result.stderr
    assert "spot_on" in output
    assert "Traceback" not in output


def test_play_mistyped_input_gets_a_new_prompt(tmp_path: Path) -> None:
    result = run_dudo(
        "play", "--players", "2", "--seed", "3", stdin="blah\n5x9\n" + "dudo\n" * 100, home=tmp_path
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Traceback" not in output
    assert "blah" in output
    assert "no face 9" in output


@pytest.mark.parametrize("command", ["solve", "arena"])
def test_the_options_are_the_fields_of_the_commands_config(command: str) -> None:
    """``dudo solve`` and ``dudo arena`` are built from one dataclass each: every field with
    a help is a parameter of that name, shown with its help and default, and the command
    gives the dataclass exactly what was typed (repeatable options as tuples)."""
    import dataclasses

    import typer
    from typer.testing import CliRunner

    from dudo.arena.setup import ArenaConfig
    from dudo.cli import _options_command, app
    from dudo.terminal.solve_options import SolveOptions

    config: type[SolveOptions] | type[ArenaConfig]
    config = SolveOptions if command == "solve" else ArenaConfig
    declared = {f.name: f for f in dataclasses.fields(config) if "help" in f.metadata}
    built = typer.main.get_group(app).commands[command]
    assert [p.name for p in built.params if p.name != "help"] == list(declared)
    for param in built.params:
        if param.name in declared:
            assert getattr(param, "help", None) == declared[param.name].metadata["help"]
    got: list[object] = []

    def keep(options: object) -> int:
        got.append(options)
        return 3

    tiny = typer.Typer()
    tiny.command()(_options_command(config, keep))
    bots = ["easy", "random"] if command == "arena" else []
    result = CliRunner().invoke(tiny, [*bots, "--set", "a=1", "--set", "b=2"])
    assert result.exit_code == 3, result.output
    expected = (
        ArenaConfig(bots=("easy", "random"), settings=("a=1", "b=2"))
        if command == "arena"
        else SolveOptions(settings=("a=1", "b=2"))
    )
    assert got == [expected]
