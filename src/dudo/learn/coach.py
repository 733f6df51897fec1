"""The coach: replays a learner's moves on the engine and judges the next one.

Nothing is kept between two questions: the learner's accepted moves are replayed each time,
with the bots' scripted moves between them, so the engine checks every step of the lesson."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from dudo.engine import Action, DudoError, Game, Reason
from dudo.learn.lesson import BotMove, Lesson

#: The learner's player number in every lesson.
LEARNER = 0


class LessonError(DudoError):
    """Moves that are not this lesson's (too many, or not the moves its steps asked for), or a
    lesson whose script does not play: nothing is judged."""


class Verdict(StrEnum):
    RIGHT = "right"  # the move asked for: the lesson moves on
    ILLEGAL = "illegal"  # the engine refuses it (its reason is given)
    OTHER = "other"  # legal, but not what this step teaches


@dataclass(frozen=True, slots=True)
class Position:
    """The ``lesson`` after the learner's ``step`` accepted moves and the bots' answers.
    ``seen`` is where, in ``game.events``, the learner's last move began (what is new to
    them since)."""

    lesson: Lesson
    game: Game
    step: int
    seen: int

    @property
    def done(self) -> bool:
        return self.game.is_over or self.step >= len(self.lesson.steps)


@dataclass(frozen=True, slots=True)
class Answer:
    """What the coach says: the ``verdict`` on the move tried (None when none was), the
    engine's ``reason`` for an illegal one, the key of the coach's words for the step now
    and their parameters, the key of why the step wants another move (``note``, for a
    verdict of :attr:`Verdict.OTHER`), and the lesson's position after it."""

    verdict: Verdict | None
    reason: Reason | None
    say: str
    params: tuple[tuple[str, str], ...]
    position: Position
    note: str | None = None


def replay(lesson: Lesson, moves: Sequence[Action]) -> Position:
    """The lesson after the learner's ``moves``, each the one its step asked for; the bots'
    moves up to the learner's next step are played too."""
    steps = lesson.steps
    if len(moves) > len(steps):
        raise LessonError(
            f"the lesson {lesson.name!r} has {len(steps)} steps; {len(moves)} moves were given"
        )
    game = lesson.new_game()
    done = 0
    seen = 0
    for entry in lesson.script:
        if isinstance(entry, BotMove):
            _push(game, entry.player, entry.action, lesson)
            continue
        if done == len(moves):
            break
        move = moves[done]
        if move != entry.expect:
            raise LessonError(
                f"moves[{done}]: {move} is not the move step {done + 1} of the lesson "
                f"{lesson.name!r} asks for ({entry.expect})"
            )
        seen = len(game.events)
        _push(game, LEARNER, move, lesson)
        done += 1
    return Position(lesson, game, done, seen)


def _push(game: Game, player: int, action: Action, lesson: Lesson) -> None:
    if game.to_move != player:
        raise LessonError(
            f"the lesson {lesson.name!r} is broken: {action} is scripted for player {player}, "
            f"but it is player {game.to_move}'s turn"
        )
    why = game.problem(action)
    if why is not None:
        raise LessonError(f"the lesson {lesson.name!r} is broken: {action}: {why}")
    game.push(action)


def attempt(lesson: Lesson, moves: Sequence[Action], tried: Action | None = None) -> Answer:
    """The coach's answer to the learner trying ``tried`` after ``moves`` (None: where the
    lesson stands, what the coach says there)."""
    position = replay(lesson, moves)
    if tried is None:
        return _standing(lesson, position, None)
    if position.done:
        raise LessonError(f"the lesson {lesson.name!r} is over: there is no move to try")
    step = lesson.steps[position.step]
    why = position.game.problem(tried)
    if why is not None:
        return Answer(Verdict.ILLEGAL, why, step.say, step.params, position)
    if tried != step.expect:
        return Answer(Verdict.OTHER, None, step.say, step.params, position, step.other)
    return _standing(lesson, replay(lesson, [*moves, tried]), Verdict.RIGHT)


def _standing(lesson: Lesson, position: Position, verdict: Verdict | None) -> Answer:
    if position.done:
        return Answer(verdict, None, lesson.end, (), position)
    step = lesson.steps[position.step]
    return Answer(verdict, None, step.say, step.params, position)
