"""``dudo solve`` and ``dudo evaluate`` as a user runs them: real processes, real files.

A short solve of the tutorial round (1v1 liars-dice, aces high, worth -7/258 to the opener)
writes a compact strategy file and a plot; ``dudo evaluate`` gives back the same numbers;
a run interrupted with Ctrl-C and resumed from its checkpoint ends with exactly the arrays
of an uninterrupted run; bad options and bad files end with one error line, exit code 2 and
no file written (checked in-process, with Typer's runner, to keep them quick).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dudo.cli import app
from dudo.solver.evaluate import evaluate
from dudo.solver.store import STRATEGY_FORMAT, load_strategy

TUTORIAL_VALUE = float(Fraction(-7, 258))
TUTORIAL = ("--set", "aces_rank=high")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
RESULT_LINES = ("value for the opener", "exploitability", "value bounds", "best responses")


def dudo_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "dudo", *args]


def dudo_env() -> dict[str, str]:
    return {**os.environ, "COLUMNS": "100"}


def run_dudo(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        dudo_command(*args),
        cwd=cwd,
        capture_output=True,
        text=True,
        env=dudo_env(),
        timeout=timeout,
        check=False,
    )


def results(output: str) -> dict[str, str]:
    """The result lines of ``solve`` / ``evaluate``: name -> the text after the colon."""
    found = {}
    for line in output.splitlines():
        name, _, rest = line.partition(":")
        if name.strip() in RESULT_LINES:
            found[name.strip()] = rest.strip()
    return found


def npz_arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files if name != "meta"}


def npz_meta(path: Path) -> dict[str, object]:
    with np.load(path, allow_pickle=False) as archive:
        meta = json.loads(str(archive["meta"][()]))
    assert isinstance(meta, dict)
    return meta


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A short solve in an empty folder, with the default file names."""
    folder = tmp_path_factory.mktemp("solve")
    result = run_dudo("solve", *TUTORIAL, "--iterations", "400", cwd=folder)
    assert result.returncode == 0, result.stdout + result.stderr
    return folder, result.stdout


def test_solve_writes_the_strategy_and_a_plot(solved: tuple[Path, str]) -> None:
    folder, output = solved
    assert sorted(p.name for p in folder.iterdir()) == [
        "liars-dice-aces_rank-high-1v1.npz",
        "liars-dice-aces_rank-high-1v1.png",
    ]
    plot = folder / "liars-dice-aces_rank-high-1v1.png"
    assert plot.stat().st_size > 1000
    assert plot.read_bytes().startswith(PNG_MAGIC)
    shown = results(output)
    assert set(shown) == set(RESULT_LINES), output
    value, exploitability = float(shown["value for the opener"]), float(shown["exploitability"])
    assert abs(value - TUTORIAL_VALUE) < 1e-3
    assert 0 <= exploitability < 1e-3
    low, high = (float(x) for x in shown["value bounds"].strip("[]").split(","))
    assert low <= TUTORIAL_VALUE <= high
    assert "iterations: 400 (dcfr)" in output


def test_the_strategy_file_is_compact_and_self_describing(solved: tuple[Path, str]) -> None:
    path = solved[0] / "liars-dice-aces_rank-high-1v1.npz"
    meta = npz_meta(path)
    assert meta["format"] == STRATEGY_FORMAT
    assert meta["version"] == 1
    assert meta["algorithm"] == "dcfr"
    assert meta["iterations"] == 400
    assert meta["position"] == {
        "dice": [1, 1],
        "opener": 0,
        "obliged": [],
        "obliging": False,
        "visibility": None,
    }
    rules = meta["rules"]
    assert isinstance(rules, dict) and rules["aces_rank"] == "high"
    history = meta["history"]
    assert isinstance(history, dict)
    assert history["iteration"][-1] == 400
    assert len(history["exploitability"]) == len(history["seconds"]) == 16  # every 25
    # Only the meaningful columns, in float32: the 4096-node tree, 6 hands each.
    arrays = npz_arrays(path)
    assert {name: a.shape for name, a in arrays.items()} == {
        "p0_bid": (2048, 6),
        "p0_call": (2047, 6),
        "p1_bid": (2047, 6),
        "p1_call": (2048, 6),
    }
    assert all(a.dtype == np.float32 for a in arrays.values())
    assert path.stat().st_size < 100_000
    # Loading rebuilds the round, and evaluating gives the saved numbers.
    round_, strategy, loaded = load_strategy(path)
    assert round_.nodes == 4096
    again = evaluate(round_, strategy)
    assert abs(again.value - float(str(loaded["value"]))) < 1e-6
    assert abs(again.exploitability - float(str(loaded["exploitability"]))) < 1e-6


def test_evaluate_prints_the_same_numbers_and_plots_the_history(
    solved: tuple[Path, str], tmp_path: Path
) -> None:
    folder, output = solved
    plot = tmp_path / "history.png"
    result = run_dudo(
        "evaluate", str(folder / "liars-dice-aces_rank-high-1v1.npz"), "--plot", str(plot),
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert results(result.stdout) == results(output)
    assert "warning" not in result.stdout
    assert plot.read_bytes().startswith(PNG_MAGIC)


def test_interrupted_and_resumed_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    # A long run, checkpointing after every iteration, stopped with Ctrl-C.
    checkpoint = tmp_path / "a.ckpt"
    process = subprocess.Popen(
        dudo_command(
            "solve", *TUTORIAL, "--iterations", "1000000", "--checkpoint", str(checkpoint),
            "--checkpoint-every", "0", "--out", "a.npz", "--no-plot",
        ),
        cwd=tmp_path,
        env=dudo_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not checkpoint.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, output
    assert "interrupted" in output
    stopped_at = npz_meta(checkpoint)["iterations"]
    assert isinstance(stopped_at, int) and stopped_at > 0
    assert npz_meta(tmp_path / "a.npz")["iterations"] == stopped_at

    goal = str(stopped_at + 37)
    resumed = run_dudo(
        "solve", *TUTORIAL, "--iterations", goal, "--checkpoint", str(checkpoint), "--resume",
        "--out", "a.npz", "--no-plot", cwd=tmp_path,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"resuming at iteration {stopped_at}" in resumed.stdout
    straight = run_dudo(
        "solve", *TUTORIAL, "--iterations", goal, "--checkpoint", "b.ckpt", "--out", "b.npz",
        "--no-plot", cwd=tmp_path,
    )  # fmt: skip
    assert straight.returncode == 0, straight.stdout + straight.stderr

    for a, b in ((checkpoint, tmp_path / "b.ckpt"), (tmp_path / "a.npz", tmp_path / "b.npz")):
        first, second = npz_arrays(a), npz_arrays(b)
        assert first.keys() == second.keys()
        for name in first:
            assert np.array_equal(first[name], second[name]), (a.name, name)
    assert results(resumed.stdout) == results(straight.stdout)
    # The resumed history goes on from the checkpoint's.
    history = npz_meta(tmp_path / "a.npz")["history"]
    assert isinstance(history, dict)
    assert history["iteration"][-1] == stopped_at + 37


def test_resume_refuses_a_checkpoint_of_other_rules(tmp_path: Path) -> None:
    made = run_dudo(
        "solve", *TUTORIAL, "--iterations", "5", "--checkpoint", "c.ckpt", "--no-plot",
        cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    other = run_dudo(
        "solve", "--iterations", "10", "--checkpoint", "c.ckpt", "--resume", cwd=tmp_path
    )
    assert other.returncode == 2
    assert "aces_rank=low (checkpoint: high)" in other.stdout
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("solve", "--rules", "yahtzee"), "unknown preset 'yahtzee'"),
        (("solve", "--set", "spot_on=maybe"), "spot_on='maybe' is not valid"),
        (
            ("solve", "--set", "spot_on=true", "--set", "spot_on_threshold=none"),
            "add --set spot_on=false",
        ),
        (("solve", "--dice", "0", "1"), "player 0 has 0 dice"),
        (("solve", "--algorithm", "cfr"), "unknown algorithm 'cfr'"),
        (("solve", "--plot", "convergence.jpg"), "unknown file type '.jpg'"),
        (("evaluate", "corrupt.npz"), "corrupt.npz is not a dudo strategy file"),
        (("evaluate", "foreign.npz"), "foreign.npz has no 'meta' entry"),
    ],
)
def test_bad_input_is_one_error_line_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], message: str
) -> None:
    # In-process (Typer's runner), in an otherwise empty folder: nothing may appear in it.
    (tmp_path / "corrupt.npz").write_bytes(b"PK\x03\x04 this is not a zip archive")
    np.savez(tmp_path / "foreign.npz", x=np.zeros(3))
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, list(args))
    output = result.output.strip()
    assert result.exit_code == 2, output
    assert re.fullmatch(r"error: [^\n]+", output), output
    assert message in output
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before


def test_without_matplotlib_the_plot_is_refused_or_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """matplotlib is the ``plots`` extra (a None in sys.modules makes its import fail): an
    asked-for ``--plot`` is refused before any work, naming what to install; the default
    plot is left out with a note, and the strategy is still solved and written."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.chdir(tmp_path)
    asked = CliRunner().invoke(app, ["solve", *TUTORIAL, "--iterations", "5", "--plot", "p.png"])
    assert asked.exit_code == 2, asked.output
    assert "pip install 'dudo[plots]'" in asked.output
    assert list(tmp_path.iterdir()) == []
    default = CliRunner().invoke(app, ["solve", *TUTORIAL, "--iterations", "5", "--out", "s.npz"])
    assert default.exit_code == 0, default.output
    assert "no plot: plots need matplotlib: pip install 'dudo[plots]'" in default.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.npz"]
    evaluated = CliRunner().invoke(app, ["evaluate", "s.npz", "--plot", "h.png"])
    assert evaluated.exit_code == 2, evaluated.output
    assert "pip install 'dudo[plots]'" in evaluated.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.npz"]
