"""The tutorial over HTTP, against a real server: ``GET /api/tutorial`` lists the lessons,
``POST /api/tutorial/{lesson}`` replays the learner's accepted moves on the engine and judges
the one tried (the learner's view, the coach's words, the verdict and what is new), and every
bad request is refused with a clear message and a code, changing nothing (the server keeps no
state). The pages ``/tutorial`` and ``/tutorial/{lesson}`` answer, and the table page links to
the tutorial."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from dudo.learn import LESSONS

from .conftest import LiveServer, api

DUDO_MOVES = [str(step.expect) for step in LESSONS["dudo"].steps]


@pytest.fixture
def http(shared_server: LiveServer) -> Iterator[httpx.Client]:
    with api(shared_server) as client:
        yield client


def coach(http: httpx.Client, lesson: str, body: Any, status: int = 200) -> dict[str, Any]:
    answer = http.post(f"/api/tutorial/{lesson}", json=body)
    assert answer.status_code == status, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_the_lessons_are_listed(http: httpx.Client) -> None:
    lessons = http.get("/api/tutorial").json()["lessons"]
    assert [one["name"] for one in lessons] == list(LESSONS)
    dudo, perudo, liars = lessons
    assert dudo == {
        "name": "dudo",
        "preset": "dudo",
        "title": "learn.dudo.title",
        "steps": 7,
        "bots": ["Ana", "Bruno"],
        "calls": ["call", "spot-on", "pass", "doubt-pass"],
    }
    assert perudo["calls"] == ["call", "spot-on"]  # Perudo has no pass
    assert liars["calls"] == ["call"]  # nor Liar's Dice spot-on


def test_the_start_of_a_lesson(http: httpx.Client) -> None:
    answer = coach(http, "dudo", {})
    assert answer["step"] == 0 and not answer["done"] and answer["verdict"] is None
    assert answer["coach"] == {"key": "learn.dudo.open", "params": {"bid": "2x3"}}
    assert answer["moves"] == [] and answer["learner"] == 0
    view = answer["view"]
    assert view["my_dice"] == [1, 3, 3, 5]
    assert view["seen_dice"] == [[1, 3, 3, 5], None, None]  # the bots' dice stay hidden
    assert view["dice_counts"] == [4, 5, 2]
    assert view["to_move"] == 0 and view["names"] == ["", "Ana", "Bruno"]
    assert [1, 3] in view["legal_bids"]


def test_a_right_move_moves_on_and_the_bots_answer(http: httpx.Client) -> None:
    answer = coach(http, "dudo", {"moves": [], "try": "2x3"})
    assert answer["verdict"] == "right" and answer["step"] == 1
    assert answer["moves"] == ["2x3"]
    assert answer["coach"]["key"] == "learn.dudo.raise"
    assert answer["view"]["round_actions"] == [[0, "2x3"], [1, "2x4"], [2, "3x4"]]
    assert [(e["type"], e["player"]) for e in answer["events"]] == [
        ("BidMade", 0),
        ("BidMade", 1),
        ("BidMade", 2),
    ]


def test_a_call_shows_every_hand_with_the_dice_that_counted(http: httpx.Client) -> None:
    answer = coach(http, "dudo", {"moves": DUDO_MOVES[:2], "try": "dudo"})
    assert answer["verdict"] == "right"
    revealed = next(e for e in answer["events"] if e["type"] == "Revealed")
    assert revealed["count"] == 4 and revealed["bid"] == "5x3"
    assert revealed["counted"][0] == [True, True, True, False]  # the ace is wild
    lost = next(e for e in answer["events"] if e["type"] == "DiceLost")
    assert lost["player"] == 2 and lost["remaining"] == 1
    # Bruno obliges in an open round: the learner sees the others' dice, not their own.
    view = answer["view"]
    assert view["obliging"] and view["visibility"] == "open"
    assert view["my_dice"] is None and view["seen_dice"][1] == [1, 2, 5, 5, 6]


def test_a_refused_move_gets_the_engine_s_reason(http: httpx.Client) -> None:
    before = coach(http, "dudo", {"moves": DUDO_MOVES[:3]})
    answer = coach(http, "dudo", {"moves": DUDO_MOVES[:3], "try": "3x6"})
    assert answer["verdict"] == "illegal"
    assert answer["reason"]["code"] == "oblige_same_face"
    assert answer["coach"] == before["coach"] and answer["events"] == []
    assert answer["view"] == before["view"] and answer["moves"] == DUDO_MOVES[:3]


def test_a_legal_move_the_step_does_not_ask_for(http: httpx.Client) -> None:
    answer = coach(http, "dudo", {"moves": [], "try": "3x3"})
    assert answer["verdict"] == "other" and answer["reason"] is None
    assert answer["note"] == "learn.dudo.open_other"
    assert answer["step"] == 0 and answer["moves"] == [] and answer["events"] == []


def test_the_end_of_a_lesson(http: httpx.Client) -> None:
    answer = coach(http, "dudo", {"moves": DUDO_MOVES[:-1], "try": "paso"})
    assert answer["verdict"] == "right" and answer["done"]
    assert answer["coach"]["key"] == "learn.dudo.end" and answer["moves"] == DUDO_MOVES
    assert any(e["type"] == "PassDoubted" for e in answer["events"])


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"moves": [*DUDO_MOVES, "call"]}, 400, "has 7 steps, so at most 7 moves; 8 were given"),
        ({"moves": ["2x3", "5x3"]}, 400, "moves[1]: 5x3 is not the move step 2"),
        ({"moves": ["2x3", "nonsense"]}, 400, "moves[1]: "),
        ({"moves": [], "try": "seven of nothing"}, 400, "try: "),
        ({"moves": DUDO_MOVES, "try": "call"}, 400, "is over: there is no move to try"),
        ({"moves": "2x3"}, 422, "moves"),
        ({"moves": ["2x3"] * 101}, 422, "moves"),
        ({"moves": [], "tries": "2x3"}, 422, "tries"),
    ],
)
def test_bad_requests_are_refused_clearly(
    http: httpx.Client, body: Any, status: int, says: str
) -> None:
    answer = coach(http, "dudo", body, status)
    assert says in answer["detail"], answer["detail"]
    assert answer["code"] == "invalid_request"


def test_an_unknown_lesson(http: httpx.Client) -> None:
    answer = coach(http, "chess", {}, 404)
    assert answer["code"] == "not_found" and "no lesson 'chess'" in answer["detail"]
    assert http.get("/tutorial/chess").status_code == 404


def test_the_pages(http: httpx.Client) -> None:
    for path in ("/tutorial", "/tutorial/dudo", "/tutorial/perudo"):
        page = http.get(path)
        assert page.status_code == 200 and '<main id="learn-main"' in page.text, path
    # One tap from a table: the table page's top bar links to the tutorial.
    table = http.get("/t/ABCDE").text
    assert 'id="learn-link"' in table and 'href="/tutorial"' in table
