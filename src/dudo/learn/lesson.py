"""A lesson as data: its rules, players, the dice of every round, and its script of the
bots' moves and the learner's steps."""

from __future__ import annotations

from dataclasses import dataclass, field

from dudo.engine import Action, Game, RandomChance, Rules, ScriptedChance, Setup, preset


@dataclass(frozen=True, slots=True)
class Step:
    """One move the learner is asked for.

    ``say`` is the catalogue key of what the coach says before it (its placeholders filled
    from ``params``: bids in the notation, ``5x3``, which a client draws as bids); ``expect``
    the move asked for; ``other`` the key of why this lesson wants ``expect`` when the learner
    tries another legal move."""

    say: str
    expect: Action
    other: str
    params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot's scripted move: ``player`` plays ``action`` (the replay checks it is their turn)."""

    player: int
    action: Action


@dataclass(frozen=True, slots=True)
class Lesson:
    """A scripted game. Player 0 is the learner and opens the first round; players 1, 2, ...
    are the bots named in ``bots``, seated clockwise in number order. ``dice`` are the players'
    dice at the start (a lesson may begin mid-game, with ``start_total`` the dice that game
    began with); ``rounds`` lists each round's hands, player by player. ``script`` runs in
    order; once its last step is played the coach says ``end``."""

    name: str
    preset: str
    bots: tuple[str, ...]
    dice: tuple[int, ...]
    start_total: int
    rounds: tuple[tuple[tuple[int, ...], ...], ...]
    script: tuple[Step | BotMove, ...]
    title: str
    end: str
    steps: tuple[Step, ...] = field(init=False)

    def __post_init__(self) -> None:
        steps = tuple(entry for entry in self.script if isinstance(entry, Step))
        object.__setattr__(self, "steps", steps)

    @property
    def rules(self) -> Rules:
        return preset(self.preset)

    def new_game(self) -> Game:
        """The lesson's game at its start: fixed seats, the scripted dice round by round
        (then dice from a fixed seed, should a game go past the script)."""
        hands = [hand for deal in self.rounds for hand in deal if hand]
        setup = Setup(
            len(self.dice),
            order=tuple(range(len(self.dice))),
            dice=self.dice,
            start_total=self.start_total,
        )
        chance = ScriptedChance(hands, then=RandomChance(0))
        return Game(self.rules, chance=chance, setup=setup)
