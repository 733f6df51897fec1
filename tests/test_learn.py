"""The tutorial's lessons on the engine: every lesson plays end to end on its scripted dice
(each bot move and each step legal, in turn, and the lesson reaching its end), each step's
words exist in every language, and the coach judges a move as the engine does: a refused move
gets the engine's own reason and changes nothing, a legal move the step does not ask for gets
the step's explanation and changes nothing, the right one moves the lesson on."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dudo.engine import (
    CALL,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    BidMade,
    Called,
    ObligingRound,
    PassDoubted,
    ReasonCode,
    Revealed,
    SpotOnClaimed,
)
from dudo.learn import LEARNER, LESSONS, Lesson, LessonError, Verdict, attempt, replay

I18N = Path(__file__).resolve().parents[1] / "src" / "dudo" / "web" / "i18n"
CATALOGUES = {
    lang: json.loads((I18N / f"{lang}.json").read_text("utf-8")) for lang in ("en", "es", "it")
}

ALL = pytest.mark.parametrize("lesson", list(LESSONS.values()), ids=list(LESSONS))


def expected(lesson: Lesson) -> list[Action]:
    return [step.expect for step in lesson.steps]


@ALL
def test_every_lesson_plays_to_its_end(lesson: Lesson) -> None:
    game = lesson.new_game()
    assert game.rules == lesson.rules
    for done in range(len(lesson.steps)):
        position = replay(lesson, expected(lesson)[:done])
        assert position.step == done and not position.done
        assert position.game.to_move == LEARNER, f"step {done + 1}: not the learner's turn"
        step = lesson.steps[done]
        assert position.game.problem(step.expect) is None, f"step {done + 1}: {step.expect}"
    end = replay(lesson, expected(lesson))
    assert end.done and end.step == len(lesson.steps)
    assert attempt(lesson, expected(lesson)).say == lesson.end


@ALL
def test_every_lesson_uses_its_scripted_dice(lesson: Lesson) -> None:
    """Every round the script reaches is dealt the dice the lesson lists (the coach's words
    count on them), and the script ends no sooner than its last listed round."""
    game = replay(lesson, expected(lesson)).game
    reveals = [e.hands for e in game.events if isinstance(e, Revealed)]
    assert reveals == [tuple(deal) for deal in lesson.rounds]


@ALL
def test_every_word_of_a_lesson_is_in_every_language(lesson: Lesson) -> None:
    keys = [lesson.title, lesson.end, f"learn.{lesson.name}.summary"]
    for step in lesson.steps:
        keys += [step.say, step.other]
    for lang, words in CATALOGUES.items():
        for key in keys:
            assert key in words, f"{lang}: {key}"
    for step in lesson.steps:
        given = {name for name, _ in step.params}
        for key in (step.say, step.other):
            wanted = set(re.findall(r"\{(\w+)\}", CATALOGUES["en"][key]))
            assert wanted <= given, f"{key} needs {wanted - given}"


def test_the_dudo_lesson_reaches_every_move_its_rules_have() -> None:
    """Bids, a raise over wild aces, a bid on aces, Dudo, an obliging round, Calzo and Paso."""
    game = replay(LESSONS["dudo"], expected(LESSONS["dudo"])).game
    kinds = {type(e) for e in game.events}
    assert {Called, SpotOnClaimed, PassDoubted} <= kinds
    assert any(isinstance(e, ObligingRound) for e in game.events)
    assert any(isinstance(e, BidMade) and e.bid.face == 1 for e in game.events)
    moves = {type(a) for p, a in game.history if p == LEARNER}
    assert {Bid, type(CALL), type(SPOT_ON), type(PASS)} <= moves


def test_the_perudo_lesson_has_no_pass() -> None:
    lesson = LESSONS["perudo"]
    assert not lesson.rules.pass_enabled
    answer = attempt(lesson, expected(lesson)[:3], PASS)
    assert answer.verdict is Verdict.ILLEGAL
    assert answer.reason is not None and answer.reason.code is ReasonCode.PASS_NOT_PLAYED


def test_a_refused_move_gets_the_engine_s_reason_and_changes_nothing() -> None:
    lesson = LESSONS["dudo"]
    moves = expected(lesson)[:3]
    before = replay(lesson, moves)
    # The obliging round: Bruno's face may not change for a player with four dice.
    tried = Bid(3, 6)
    answer = attempt(lesson, moves, tried)
    assert answer.verdict is Verdict.ILLEGAL
    assert answer.reason == before.game.problem(tried)
    assert answer.reason is not None and answer.reason.code is ReasonCode.OBLIGE_SAME_FACE
    assert answer.say == lesson.steps[3].say and answer.note is None
    after = answer.position
    assert after.step == before.step
    assert after.game.history == before.game.history
    assert after.game.events == before.game.events


@pytest.mark.parametrize(
    ("lesson", "moves", "tried", "code"),
    [
        ("dudo", 0, CALL, ReasonCode.OPENER_MUST_BID),
        ("dudo", 1, Bid(3, 3), ReasonCode.FACE_UP),
        ("dudo", 3, SPOT_ON, ReasonCode.SPOT_ON_NOT_IN_OBLIGE),
        ("dudo", 6, CALL, None),  # a call is legal before the pass: "other", not refused
        ("perudo", 0, Bid(2, 1), ReasonCode.OPEN_ACES_NEVER),
        ("perudo", 1, Bid(3, 2), ReasonCode.AFTER_ACES_NEED),
        ("liars-dice", 1, Bid(3, 1), ReasonCode.INDEX_ORDER),
        ("liars-dice", 2, SPOT_ON, ReasonCode.SPOT_ON_NOT_PLAYED),
    ],
)
def test_the_coach_words_the_engine_s_reasons(
    lesson: str, moves: int, tried: Action, code: ReasonCode | None
) -> None:
    one = LESSONS[lesson]
    answer = attempt(one, expected(one)[:moves], tried)
    if code is None:
        assert answer.verdict is Verdict.OTHER and answer.reason is None
    else:
        assert answer.verdict is Verdict.ILLEGAL
        assert answer.reason is not None and answer.reason.code is code


def test_a_legal_move_the_step_does_not_ask_for_is_explained() -> None:
    lesson = LESSONS["dudo"]
    answer = attempt(lesson, [], Bid(3, 3))
    assert answer.verdict is Verdict.OTHER and answer.reason is None
    assert answer.say == lesson.steps[0].say
    assert answer.note == lesson.steps[0].other
    assert answer.position.step == 0 and answer.position.game.history == []


def test_the_right_move_moves_on_and_the_bots_answer() -> None:
    lesson = LESSONS["dudo"]
    answer = attempt(lesson, [], Bid(2, 3))
    assert answer.verdict is Verdict.RIGHT
    assert answer.position.step == 1 and answer.say == lesson.steps[1].say
    game = answer.position.game
    assert [p for p, _ in game.history] == [LEARNER, 1, 2]
    # What is new to the learner starts at their own move.
    new = game.events[answer.position.seen :]
    assert [type(e).__name__ for e in new] == ["BidMade"] * 3


def test_moves_that_are_not_the_lesson_s_are_refused() -> None:
    lesson = LESSONS["dudo"]
    with pytest.raises(LessonError, match=r"moves\[1\]: 5x3 is not the move step 2"):
        replay(lesson, [Bid(2, 3), Bid(5, 3)])
    with pytest.raises(LessonError, match="has 7 steps; 8 moves were given"):
        replay(lesson, [*expected(lesson), CALL])
    with pytest.raises(LessonError, match="is over"):
        attempt(lesson, expected(lesson), CALL)
