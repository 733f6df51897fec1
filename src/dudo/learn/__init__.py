"""The lessons of the tutorial: scripted games on fixed dice, and the coach that checks a
learner's moves with the engine.

A lesson (:class:`Lesson`) is data: the rules it teaches (a preset), the players and their
starting dice, the dice of every round, the bots' scripted moves and the learner's steps.
Each step names what the coach says (a key of the web catalogue) and the one move it asks
for. :func:`attempt` replays the learner's accepted moves on a real :class:`~dudo.engine.Game`
and judges a new one: illegal (the engine's reason, nothing changes), legal but not what the
step asks (the step's own explanation), or right (the lesson moves on and the bots answer).
The lessons themselves are in :mod:`.lessons`.

Pure Python, no I/O: it imports only the engine and the notation.
"""

from dudo.learn.coach import (
    LEARNER,
    Answer,
    LessonError,
    Position,
    Verdict,
    attempt,
    replay,
)
from dudo.learn.lesson import BotMove, Lesson, Step
from dudo.learn.lessons import LESSONS, lesson

__all__ = [
    "LEARNER",
    "LESSONS",
    "Answer",
    "BotMove",
    "Lesson",
    "LessonError",
    "Position",
    "Step",
    "Verdict",
    "attempt",
    "lesson",
    "replay",
]
