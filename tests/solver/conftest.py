"""Fixtures shared by the solver tests: the tutorial round (one die each, liars-dice with
aces high) and one discounted CFR run on it, whose average strategy several tests read at
different iterations."""

from __future__ import annotations

import pytest

from dudo.engine import preset
from dudo.solver import Position, Round, build_round

from .shared_runs import DcfrRun


@pytest.fixture(scope="session")
def tutorial_round() -> Round:
    return build_round(preset("liars-dice", aces_rank="high"), Position((1, 1)))


@pytest.fixture(scope="session")
def dcfr_run(tutorial_round: Round) -> DcfrRun:
    return DcfrRun(tutorial_round)
