"""Replaying records: rebuild the Game from the recorded chance, push and check every action."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from dudo.engine.actions import (
    Action,
    Bid,
    Call,
    DoubtPass,
    ObligeChoice,
    Pass,
    RevealBid,
    Spoken,
    SpotOn,
)
from dudo.engine.chance import ChanceKind, ChanceOutcome, ScriptedChance
from dudo.engine.errors import ChanceError, DudoError, RecordError
from dudo.engine.events import Event
from dudo.engine.game import Game
from dudo.engine.rules import Rules
from dudo.records._model import Record
from dudo.records._read import parse_record, setup_path


class ReplayMismatch(RecordError):
    """A record whose chance outcomes or result are not what replaying its actions gives:
    ``code`` names the kind (``chance_missing``, ``chance_unused``, ``result_missing``,
    ``winner``, ``rounds``, ``result_early``) and ``fields`` its numbers, so that a reader
    can word it in its own language; the message says it in English."""

    def __init__(self, message: str, code: str, **fields: int) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields


class ReplayStep(NamedTuple):
    """One replayed action: its position in ``actions``, who acted, the action as pushed (an
    out-of-turn call is ``Call(by=player)``) and the events it caused."""

    position: int
    player: int
    action: Action
    events: tuple[Event, ...]


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _outcome_text(outcome: ChanceOutcome) -> str:
    if outcome.kind == "order":
        return f"a seating order of {len(outcome.values)} players"
    return f"a roll of {_dice(len(outcome.values))}"


class _RecordChance:
    """The record's chance outcomes, through a :class:`ScriptedChance` with no fallback;
    a wrong or missing outcome is a :class:`RecordError` naming the chance entry."""

    def __init__(self, outcomes: Sequence[ChanceOutcome]) -> None:
        self.outcomes = tuple(outcomes)
        self.script = ScriptedChance(self.outcomes)
        self.context = "to start the game"

    @property
    def used(self) -> int:
        return len(self.outcomes) - self.script.remaining

    def _problem(self, index: int, kind: ChanceKind, size: int, exc: ChanceError) -> RecordError:
        need = f"the game needs {_outcome_text(ChanceOutcome(kind, (0,) * size))} {self.context}"
        if index >= len(self.outcomes):
            return ReplayMismatch(
                f"chance[{index}]: missing: {need}, but the record has only "
                f"{len(self.outcomes)} chance outcomes",
                "chance_missing",
                index=index,
                total=len(self.outcomes),
            )
        have = self.outcomes[index]
        if have.kind == kind and len(have.values) == size:  # a bad value (in a hand-made Record)
            return RecordError(f"chance[{index}]: {exc}")
        return RecordError(f"chance[{index}]: {need}, but the record has {_outcome_text(have)}")

    def roll(self, count: int, faces: int) -> tuple[int, ...]:
        index = self.used
        try:
            return self.script.roll(count, faces)
        except ChanceError as exc:
            raise self._problem(index, "roll", count, exc) from None

    def order(self, players: int) -> tuple[int, ...]:
        index = self.used
        try:
            return self.script.order(players)
        except ChanceError as exc:
            raise self._problem(index, "order", players, exc) from None


def _doing(action: Action) -> str:
    """What a player tried, for error messages: "bid 4x3", "call", "doubt the pass"."""
    if isinstance(action, Bid):
        return f"bid {action}"
    if isinstance(action, RevealBid):
        return f"bid {action.bid} revealing {','.join(map(str, action.reveal))}"
    if isinstance(action, Call):
        return "call"
    if isinstance(action, SpotOn):
        return "claim spot-on"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, DoubtPass):
        return "doubt the pass"
    if isinstance(action, ObligeChoice):
        return "choose an open round" if action.open else "choose a closed round"
    if isinstance(action, Spoken):
        return f"have said {action.bid}{' and passed' if action.passed else ''}"
    return f"play {action!r}"  # pragma: no cover - every action kind is named above


def _as_record(record: Record | Mapping[str, Any]) -> Record:
    return record if isinstance(record, Record) else parse_record(record)


class Replay:
    """A record being replayed: iterate it for :class:`ReplayStep` values, one per action;
    ``game`` is the live game (at its start before the first step).

    Creating a Replay builds the game, so a bad setup or start-of-game chance outcome raises
    :class:`RecordError` at once. Each step checks its action; after the last action the
    replay checks that every chance outcome was used and that the stored result agrees.
    """

    def __init__(self, record: Record | Mapping[str, Any]) -> None:
        self.record = record = _as_record(record)
        self._chance = _RecordChance(record.chance)
        setup = record.setup
        # (A record read from JSON is checked already; a Record made in code may not be.)
        if not isinstance(record.rules, Rules):
            raise RecordError(f"rules: {record.rules!r} is not a Rules value")
        if setup.players != len(record.players):
            raise RecordError(
                f"setup.players: {setup.players!r}, but the record names "
                f"{len(record.players)} players"
            )
        problem = setup.problem(record.rules)
        if problem is not None:
            raise RecordError(f"{setup_path(problem[0])}: {problem[1]}")
        self.game = Game(record.rules, chance=self._chance, setup=setup)
        self._next = 0
        self._checked = False

    def __iter__(self) -> Iterator[ReplayStep]:
        actions = self.record.actions
        while self._next < len(actions):
            yield self._step(self._next)
        if not self._checked:
            self._finish()
            self._checked = True

    def _step(self, index: int) -> ReplayStep:
        game = self.game
        entry = self.record.actions[index]
        player, action = entry.player, entry.action
        problem: str | None
        if game.is_over:
            problem = f"the game is already over (player {game.winner} won)"
        else:
            if isinstance(action, Call) and player != game.to_move:
                action = Call(by=player)
            if not isinstance(action, Call | Spoken) and player != game.to_move:
                problem = f"it is player {game.to_move}'s turn"
            else:
                problem = game.problem(action)
        if problem is not None:
            raise RecordError(
                f"actions[{index}]: player {player} cannot {_doing(action)}: {problem}"
            )
        self._chance.context = f"for actions[{index}] ({entry.action})"
        try:
            events = game.push(action)
        except RecordError:
            raise
        except DudoError as exc:  # pragma: no cover - problem() already vetted the action
            raise RecordError(
                f"actions[{index}]: player {player} cannot {_doing(action)}: {exc}"
            ) from None
        self._next = index + 1
        return ReplayStep(index, player, action, events)

    def _finish(self) -> None:
        game, record = self.game, self.record
        used, total = self._chance.used, len(record.chance)
        if used < total:
            raise ReplayMismatch(
                f"chance[{used}]: not used: the game drew only {used} of the record's "
                f"{total} chance outcomes",
                "chance_unused",
                index=used,
                total=total,
            )
        result, winner, rounds = record.result, game.winner, game.round_number
        if winner is not None:
            if result is None:
                raise ReplayMismatch(
                    f"result: null, but the replay ends with player {winner} winning "
                    f"in round {rounds}",
                    "result_missing",
                    replayed=winner,
                    rounds=rounds,
                )
            if result.winner != winner:
                raise ReplayMismatch(
                    f"result.winner: the record says player {result.winner} won, but the "
                    f"replay ends with player {winner} winning",
                    "winner",
                    recorded=result.winner,
                    replayed=winner,
                )
            if result.rounds != rounds:
                raise ReplayMismatch(
                    f"result.rounds: the record says {result.rounds} rounds, but the replay "
                    f"plays {rounds}",
                    "rounds",
                    recorded=result.rounds,
                    replayed=rounds,
                )
        elif result is not None:
            raise ReplayMismatch(
                f"result: the record says player {result.winner} won, but the game is not "
                "over after the last action",
                "result_early",
                recorded=result.winner,
            )


def replay_steps(record: Record | Mapping[str, Any]) -> Replay:
    """Replay ``record`` step by step: ``for index, player, action, events in
    replay_steps(record)``. The returned :class:`Replay` also holds the live ``game``."""
    return Replay(record)


def replay(record: Record | Mapping[str, Any]) -> Game:
    """Rebuild the recorded game, checking every chance outcome, action and the result.

    Returns the game after the last action. Any problem raises :class:`RecordError` naming
    the first bad entry.
    """
    steps = Replay(record)
    for _ in steps:
        pass
    return steps.game
