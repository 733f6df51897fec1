"""The tutorial over HTTP, stateless: the lessons, and the coach's answer to a learner's
move. Each answer replays the learner's accepted moves on the engine (:mod:`dudo.learn`), so
the server keeps nothing between two requests."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from dudo.engine import Action, NotationError
from dudo.learn import LEARNER, LESSONS, Answer, Lesson, LessonError, Verdict, attempt, lesson
from dudo.notation import parse_action
from dudo.server.errors import ErrorCode, Refused, reason_json
from dudo.server.wire import event_json, view_json

router = APIRouter()

#: The most moves a request may list (each lesson takes fewer: it says how many it takes).
MOST_MOVES = 100


class TutorialMove(BaseModel):
    # The examples are quoted by the errors that say what a body should look like.
    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        json_schema_extra={"examples": [{"moves": ["2x3"], "try": "4x3"}]},
    )
    #: The learner's moves the coach accepted so far, in the notation ("2x3", "call").
    moves: list[str] = Field(default_factory=list, max_length=MOST_MOVES)
    #: The move to judge now (None: where the lesson stands).
    tried: str | None = Field(default=None, alias="try", max_length=40)


@router.get("/api/tutorial")
async def lessons() -> dict[str, Any]:
    return {"lessons": [_summary(one) for one in LESSONS.values()]}


@router.post("/api/tutorial/{name}")
async def coach(name: str, body: TutorialMove) -> dict[str, Any]:
    found = lesson_named(name)
    steps = len(found.steps)
    if len(body.moves) > steps:
        raise Refused(
            ErrorCode.INVALID_REQUEST,
            f"moves: the lesson {name!r} has {steps} steps, so at most {steps} moves; "
            f"{len(body.moves)} were given",
            400,
        )
    moves = [_read(text, f"moves[{i}]") for i, text in enumerate(body.moves)]
    tried = None if body.tried is None else _read(body.tried, "try")
    try:
        answer = attempt(found, moves, tried)
    except LessonError as exc:
        raise Refused(ErrorCode.INVALID_REQUEST, str(exc), 400) from None
    return _answer_json(found, answer)


def lesson_named(name: str) -> Lesson:
    """The lesson called ``name``; a 404 if there is none."""
    found = lesson(name)
    if found is None:
        raise Refused(
            ErrorCode.NOT_FOUND,
            f"there is no lesson {name[:40]!r}; lessons are: {', '.join(LESSONS)}",
            404,
            lesson=name,
        )
    return found


def _read(text: str, where: str) -> Action:
    try:
        return parse_action(text)
    except NotationError as exc:
        raise Refused(ErrorCode.INVALID_REQUEST, f"{where}: {exc}", 400) from None


def _summary(one: Lesson) -> dict[str, Any]:
    rules = one.rules
    # The calls these rules have (a lesson shows no button for a move its game lacks).
    calls = ["call"]
    if rules.spot_on:
        calls.append("spot-on")
    if rules.pass_enabled:
        calls += ["pass", "doubt-pass"]
    return {
        "name": one.name,
        "preset": one.preset,
        "title": one.title,
        "steps": len(one.steps),
        "bots": list(one.bots),
        "calls": calls,
    }


def _answer_json(one: Lesson, answer: Answer) -> dict[str, Any]:
    position = answer.position
    game = position.game
    accepted = [str(a) for p, a in game.history if p == LEARNER]
    # What is new to the learner: their move and the bots' answers, unless nothing changed.
    unchanged = answer.verdict in (Verdict.ILLEGAL, Verdict.OTHER)
    new = [] if unchanged else game.events[position.seen :]
    first = len(game.events) - len(new)
    names = ["", *one.bots]
    return {
        **_summary(one),
        "step": position.step,
        "done": position.done,
        "verdict": None if answer.verdict is None else str(answer.verdict),
        "reason": None if answer.reason is None else reason_json(answer.reason),
        "coach": {"key": answer.say, "params": dict(answer.params)},
        "note": answer.note,
        "moves": accepted,
        "learner": LEARNER,
        "view": view_json(game.view(LEARNER), names, list(range(game.players)), len(game.history)),
        "events": [event_json(first + i, e, game.rules) for i, e in enumerate(new)],
    }
