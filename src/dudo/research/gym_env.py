"""Dudo as a Gymnasium environment: one learning seat against bots.

The learner sits at ``seat``; every other seat is played by ``opponents``, one for all of them
or one per opponent seat, each of them:

- a bot level (:func:`dudo.bots.make_bot`: ``random``, ``easy``, ...; default ``easy``), a
  new bot each episode, seeded from the episode's seed;
- a bot object (anything with ``choose(view)``, :class:`dudo.bots.Bot`), kept across episodes;
- a policy: a callable given the seat's observation and action mask (the same encodings as
  the learner's) that returns an action id, such as a frozen copy of the learner for
  self-play. It never calls out of turn.

Bots act through :func:`dudo.bots.match.advance`, so a step plays the
learner's action and then every bot action until the learner is to move again or the game
ends. The learner acts only in turn: under ``cruzado`` the bots may call out of turn, the
learner is never polled.

- Observation: the float32 vector of :mod:`dudo.engine.observation` from the learner's view.
- Action: ``Discrete`` over the ids of :mod:`dudo.engine.encoding`; the legal ones are
  ``info["action_mask"]`` (int8), also given by :meth:`DudoGymEnv.action_masks` (the
  method maskable learners such as sb3-contrib's ``MaskablePPO`` look for). Once the
  episode is over the mask marks every action (none is played: a vector environment resets
  instead), so that masked samplers always have one to draw.
- Reward: +1 when the learner wins, -1 when it loses its last die (the episode ends then;
  the bots' game is not played out), 0 otherwise. A game cut off at ``max_rounds`` rounds
  is truncated with reward 0.
- An illegal action ends the episode (``terminated``) with reward -1 and
  ``info["illegal_action"]`` naming what was wrong; the game is not changed. This is the
  usual convention for masked environments (PettingZoo's classic games do the same), and it
  keeps unmasked samplers such as Gymnasium's environment checker safe.

:func:`register_envs` registers the id ``dudo/Dudo-v0`` (``gymnasium.make("dudo/Dudo-v0",
rules="perudo", players=4)``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from dudo.bots import Bot, make_bot
from dudo.bots.match import MAX_ROUNDS, advance
from dudo.engine import Game, PlayerView, Rules
from dudo.engine.actions import Action
from dudo.engine.encoding import ActionEncoding, NoCall
from dudo.engine.errors import DudoError
from dudo.engine.observation import HISTORY_SLOTS, ObservationLayout
from dudo.research import environment_rules, missing_extra
from dudo.research.text import RENDER_MODES, rendered, view_text

try:
    import gymnasium
except ImportError as error:
    raise missing_extra("gymnasium", "The Gymnasium environment") from error

ENV_ID = "dudo/Dudo-v0"

Observation = npt.NDArray[np.float32]
#: A policy opponent: (observation, action mask) of its seat -> an action id.
Policy = Callable[[Observation, npt.NDArray[np.int8]], Any]
#: What may play an opponent seat: a bot level, a bot, or a policy.
Opponent = str | Bot | Policy


class PolicyOpponent:
    """A policy seated as a bot: it sees its seat as the learner sees its own (the observation
    vector and the action mask) and answers an action id."""

    name = "policy"

    def __init__(self, policy: Policy, encoding: ActionEncoding, layout: ObservationLayout):
        self.policy = policy
        self.encoding = encoding
        self.layout = layout

    def choose(self, view: PlayerView) -> Action:
        mask = self.encoding.mask(view)
        chosen = self.policy(self.layout.encode(view), mask)
        try:
            action_id = int(chosen)
        except (TypeError, ValueError):
            raise DudoError(f"an opponent policy answered {chosen!r}, not an action id") from None
        if not (0 <= action_id < mask.size and mask[action_id]):
            raise DudoError(
                f"an opponent policy chose action {action_id}, which is not legal now "
                f"(legal ids: {np.flatnonzero(mask).tolist()})"
            )
        action = self.encoding.action(action_id)
        assert not isinstance(action, NoCall)  # never in the mask in turn
        return action


class DudoGymEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a ``players``-player game under ``rules`` (a preset name or ``Rules``)
    with ``settings`` (``OPTION=VALUE`` house rules), the other seats played by bots."""

    # Gymnasium declares metadata a plain attribute (read from the class by gymnasium.make).
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | str = "dudo",
        players: int = 2,
        settings: Iterable[str] | str = (),
        *,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] = "easy",
        max_rounds: int = MAX_ROUNDS,
        history_slots: int = HISTORY_SLOTS,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = environment_rules(rules, settings, players, render_mode)
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise DudoError(f"seat: {seat!r} is not a seat of a {players}-player game")
        levels: list[Opponent] = (
            list(opponents)
            if isinstance(opponents, Sequence) and not isinstance(opponents, str)
            else [opponents] * (players - 1)
        )
        if len(levels) != players - 1:
            raise DudoError(f"opponents: {len(levels)} bot levels for {players - 1} opponent seats")
        for level in levels:
            if isinstance(level, str):
                make_bot(level, random.Random(0))  # a clear error now for an unknown level
            elif not (hasattr(level, "choose") or callable(level)):
                raise DudoError(
                    f"opponents: {level!r} is neither a bot level, a bot (with choose(view)) "
                    "nor a policy (a callable of the observation and the action mask)"
                )
        self.players = players
        self.seat = seat
        self.levels = levels
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.encoding = ActionEncoding(self.rules, players)
        self.layout = ObservationLayout(self.rules, players, history_slots=history_slots)
        spaces = gymnasium.spaces
        self.observation_space = spaces.Box(0.0, 1.0, (self.layout.size,), np.float32)
        self.action_space = spaces.Discrete(self.encoding.size)
        self._game: Game | None = None
        self._bots: dict[int, Bot] = {}

    @property
    def game(self) -> Game:
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        draw = self.np_random.integers
        self._game = Game(self.rules, self.players, seed=int(draw(2**63)))
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {
            s: self._opponent(level, random.Random(int(draw(2**63))))
            for s, level in zip(others, self.levels, strict=True)
        }
        # Bots seated before the learner open; the learner may even be knocked out first.
        advance(self._game, self._bots, max_rounds=self.max_rounds)
        return self._observe(), self._info()

    def step(self, action: np.int64) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        game = self.game
        if self._done():
            raise RuntimeError("the episode is over: call reset()")
        action_id = int(action)
        view = game.view(self.seat)
        if action_id not in self.encoding.legal_ids(view):
            info = self._info()
            info["illegal_action"] = self._problem(action_id)
            return self._observe(), -1.0, True, False, info
        choice = self.encoding.action(action_id)
        assert not isinstance(choice, NoCall)  # never offered in turn
        game.push(choice)
        advance(game, self._bots, max_rounds=self.max_rounds)
        reward, terminated, truncated = self._result()
        return self._observe(), reward, terminated, truncated, self._info()

    def _opponent(self, level: Opponent, rng: random.Random) -> Bot:
        if isinstance(level, str):
            return make_bot(level, rng)
        if hasattr(level, "choose"):
            return level  # type: ignore[return-value]
        return PolicyOpponent(level, self.encoding, self.layout)

    def _problem(self, action_id: int) -> str:
        try:
            choice = self.encoding.action(action_id)
        except DudoError as error:
            return str(error)
        if not isinstance(choice, NoCall):
            found = self.game.problem(choice)
            if found is not None:
                return f"{choice}: {found}"
        return f"{choice} is not among the legal actions now"

    def _result(self) -> tuple[float, bool, bool]:
        game = self.game
        if game.is_over:
            return (1.0 if game.winner == self.seat else -1.0), True, False
        if game.counts[self.seat] == 0:
            return -1.0, True, False
        if game.round_number > self.max_rounds:
            return 0.0, False, True
        return 0.0, False, False

    def _done(self) -> bool:
        _, terminated, truncated = self._result()
        return terminated or truncated

    def _observe(self) -> Observation:
        return self.layout.encode(self.game.view(self.seat))

    def _info(self) -> dict[str, Any]:
        """The legal actions (``action_mask``), every seat's dice count now (``dice_counts``,
        seat order, dice set aside face up included) and the game's ``winner`` (a seat; -1
        while it is played: a number always, as vector environments stack infos in arrays)."""
        view = self.game.view(self.seat)
        # The learner moves whenever the episode goes on. Once it is over no action is
        # played, but a vector environment asks for one more (which it drops as it resets):
        # every action is marked then, so that a masked sampler has one to draw.
        mask = self.encoding.mask(view) if view.my_turn else np.ones(self.encoding.size, np.int8)
        counts = np.array(view.dice_counts, np.int64)
        winner = -1 if view.winner is None else view.winner
        return {"action_mask": mask, "dice_counts": counts, "winner": winner}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (for maskable learners)."""
        return self._info()["action_mask"].astype(bool)  # type: ignore[no-any-return]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return rendered(view_text(self.game.view(self.seat)), self.render_mode)


def register_envs() -> None:
    """Register :data:`ENV_ID` with Gymnasium (idempotent)."""
    registry = gymnasium.envs.registration.registry
    if ENV_ID not in registry:
        # No order-enforcing or checking wrapper by default: the environment refuses a step
        # before reset itself, and Gymnasium's wrappers hide ``action_masks`` (pass
        # ``disable_env_checker=False`` to ``gymnasium.make`` for the checker).
        gymnasium.register(
            id=ENV_ID,
            entry_point="dudo.research.gym_env:DudoGymEnv",
            order_enforce=False,
            disable_env_checker=True,
        )
