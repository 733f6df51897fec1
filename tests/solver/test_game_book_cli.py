"""A round of a whole game from the command line: `dudo solve-game --start` writes a book
of the smaller positions, and `dudo solve --game-book` solves a bigger round paying their
game values, with checkpoints that resume (how 2 dice each is solved over several runs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dudo.engine import preset
from dudo.solver import Position
from dudo.solver.game import Budget, GameSolver
from dudo.solver.store import load_checkpoint, load_strategy

TINY = ("--set", "faces=3")


def run_dudo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dudo", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
        timeout=180,
        check=False,
    )


def test_a_round_paid_from_a_book_equals_the_whole_game(tmp_path: Path) -> None:
    book = tmp_path / "book"
    made = run_dudo(
        "solve-game",
        *TINY,
        "--start",
        "2v1",
        "--start",
        "1v2",
        "--target",
        "1e-6",
        "--out",
        str(book),
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    common = (
        "solve",
        *TINY,
        "--dice",
        "2",
        "2",
        "--game-book",
        str(book),
        "--no-plot",
        "--out",
        str(tmp_path / "2v2.npz"),
        "--checkpoint",
        str(tmp_path / "2v2.ckpt"),
        "--eval-every",
        "50",
    )
    first = run_dudo(*common, "--iterations", "100", cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    resumed = run_dudo(*common, "--iterations", "600", "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    round_, _, meta = load_strategy(tmp_path / "2v2.npz")
    assert meta["payoff"] == "game" and meta["iterations"] == 600
    _, state, _ = load_checkpoint(tmp_path / "2v2.ckpt")
    assert int(state["iteration"]) == 600

    whole = GameSolver(preset("liars-dice", faces=3), Budget(target=1e-6, every=100))
    expected = whole.value(Position((2, 2)))
    assert meta["value"] == pytest.approx(expected, abs=2 * meta["exploitability"] + 2e-6)
    # The book's values were solved to 1e-6, so the 2v2 round's payoffs agree that closely.
    assert np.allclose(round_.payoff, whole.rounds[Position((2, 2))].round.payoff, atol=1e-5)


def test_a_book_for_other_rules_is_refused(tmp_path: Path) -> None:
    book = tmp_path / "book"
    assert (
        run_dudo(
            "solve-game", *TINY, "--max-dice", "1", "--out", str(book), cwd=tmp_path
        ).returncode
        == 0
    )
    refused = run_dudo(
        "solve", "--set", "faces=4", "--dice", "2", "1", "--game-book", str(book), cwd=tmp_path
    )
    assert refused.returncode == 2
    assert "other rules" in refused.stdout + refused.stderr
    assert not list(tmp_path.glob("*.npz"))
