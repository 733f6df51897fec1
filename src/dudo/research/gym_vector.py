"""Dudo as a Gymnasium vector environment on the batched simulator: ``num_envs`` games
stepped together, one learning seat in each.

:class:`DudoVectorEnv` follows the ``gymnasium.vector.VectorEnv`` API over
:class:`dudo.engine.batch.BatchGame`, with the same observation vector, action ids, rewards
and conventions as the single :class:`~dudo.research.gym_env.DudoGymEnv` (one learner per
game; illegal actions end the episode with -1 and ``info["illegal_action"]``; the learner's
last die lost ends it with -1; a win +1; ``max_rounds`` truncates):

- ``opponents`` play every other seat: ``"random"`` (a uniformly random legal action, drawn
  for all games at once) or a batched policy, a callable given the opponents' observations
  (k, size) and action masks (k, actions) of the k games where an opponent is to move, that
  returns k action ids (a frozen copy of the learner for self-play). Our bot levels decide
  one game at a time: use :class:`~dudo.research.gym_env.DudoGymEnv` for them.
- Autoreset is Gymnasium's default, ``NEXT_STEP``: a game whose episode ended is started
  again by the next ``step``, which ignores its action and returns its first observation
  with reward 0.
- ``info`` holds ``action_mask`` (num_envs, actions) int8 (every action marked once an
  episode is over, so a masked sampler always has one), ``dice_counts`` (num_envs, players),
  ``winner`` (-1 while the game is on), each with Gymnasium's ``_key`` flags.
  :meth:`DudoVectorEnv.action_masks` gives the mask as booleans.

:func:`register_vector_env` registers ``dudo/DudoBatch-v0`` for ``gymnasium.make_vec``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from dudo.bots.match import MAX_ROUNDS
from dudo.engine import Rules
from dudo.engine.batch import OVER, BatchGame
from dudo.engine.errors import DudoError
from dudo.engine.observation import HISTORY_SLOTS
from dudo.research import environment_rules, missing_extra

try:
    import gymnasium
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as error:
    raise missing_extra("gymnasium", "The Gymnasium vector environment") from error

VECTOR_ENV_ID = "dudo/DudoBatch-v0"

Observations = npt.NDArray[np.float32]
#: A batched opponent policy: (observations (k, size), masks (k, actions)) -> k action ids.
BatchPolicy = Callable[[Observations, npt.NDArray[np.int8]], npt.ArrayLike]


class DudoVectorEnv(gymnasium.vector.VectorEnv[Observations, npt.NDArray[np.int64], Any]):
    """``num_envs`` games of ``players`` players under ``rules`` (a preset name or ``Rules``,
    with ``settings`` house rules), the learner at ``seat`` in each."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 64,
        rules: Rules | str = "liars-dice",
        players: int = 2,
        settings: Iterable[str] | str = (),
        *,
        seat: int = 0,
        opponents: str | BatchPolicy = "random",
        max_rounds: int = MAX_ROUNDS,
        history_slots: int = HISTORY_SLOTS,
    ) -> None:
        self.rules = environment_rules(rules, settings, players, None)
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise DudoError(f"seat: {seat!r} is not a seat of a {players}-player game")
        if not (opponents == "random" or callable(opponents)):
            raise DudoError(
                f"opponents: {opponents!r} is neither 'random' nor a batched policy (a callable "
                "of the observations and action masks of the games an opponent is to move in)"
            )
        if not isinstance(max_rounds, int) or max_rounds < 1:
            raise DudoError(f"max_rounds: {max_rounds!r} is not a number of rounds (1 or more)")
        self.batch = BatchGame(self.rules, players, num_envs, history_slots=history_slots)
        self.num_envs = num_envs
        self.players = players
        self.seat = seat
        self.opponents = opponents
        self.max_rounds = max_rounds
        size, actions = self.batch.layout.size, self.batch.num_actions
        self.single_observation_space = gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._ended = np.zeros(num_envs, dtype=np.bool_)  # episodes the next step restarts
        self._illegal: dict[int, str] = {}

    # ------------------------------------------------------------------------ the API

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is not None:
            self.batch.rng = np.random.default_rng(seed)
            self.single_action_space.seed(seed)
        self.batch.reset()
        self._ended[:] = False
        self._illegal = {}
        self._play_opponents()
        return self.batch.observe(self.seat), self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        batch, n = self.batch, self.num_envs
        acts = np.asarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape != (n,):
            raise DudoError(f"actions: {acts.size} given for {n} environments")
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        self._illegal = {}
        restart = self._ended.copy()
        if restart.any():
            batch.reset(restart)
        playing = ~restart & (batch.phase != OVER) & (batch.to_move == self.seat)
        legal = batch.is_legal(acts)
        illegal = playing & ~legal
        for i in np.flatnonzero(illegal):
            self._illegal[int(i)] = batch.why_illegal(int(acts[i]))
        batch.step(np.where(playing & legal, acts, -1))
        self._play_opponents()
        over = batch.phase == OVER
        won = over & (batch.winner == self.seat)
        out = batch.counts[:, self.seat] == 0
        rewards[won] = 1.0
        rewards[out | illegal] = -1.0
        terminated[won | out | illegal] = True
        long = ~terminated & (batch.round_number > self.max_rounds)
        truncated[long] = True
        terminated[restart] = False
        truncated[restart] = False
        rewards[restart] = 0.0
        self._ended = terminated | truncated
        return batch.observe(self.seat), rewards, terminated, truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(num_envs, actions): the learner's legal actions (every one once an episode ended)."""
        mask = self.batch.legal_mask() & (self.batch.to_move == self.seat)[:, None]
        return np.asarray(mask | self._ended[:, None] | ~mask.any(axis=1, keepdims=True))

    # ------------------------------------------------------------------------ helpers

    def _play_opponents(self) -> None:
        """Opponents act until the learner is to move or the game is over, in every game."""
        batch = self.batch
        for _ in range(10_000):
            waiting = (batch.phase != OVER) & (batch.to_move != self.seat)
            waiting &= batch.round_number <= self.max_rounds
            waiting &= batch.counts[:, self.seat] > 0
            if not waiting.any():
                return
            mask = batch.legal_mask()
            if self.opponents == "random":
                chosen = batch.random_actions(mask)
            else:
                chosen = np.full(self.num_envs, -1, dtype=np.int64)
                for s in range(self.players):
                    rows = np.flatnonzero(waiting & (batch.to_move == s))
                    if s == self.seat or rows.size == 0:
                        continue
                    chosen[rows] = self._ask_policy(s, rows, mask)
            batch.step(np.where(waiting, chosen, -1))
        raise DudoError("the opponents did not hand the turn back within 10,000 actions")

    def _ask_policy(
        self, seat: int, rows: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.int64]:
        policy = self.opponents
        assert callable(policy)
        obs = self.batch.observe(seat)[rows]
        answer = np.asarray(policy(obs, mask[rows].astype(np.int8)))
        try:
            chosen = answer.astype(np.int64).reshape(rows.size)
        except (TypeError, ValueError):
            raise DudoError(
                f"an opponent policy answered {answer!r}, not {rows.size} action ids"
            ) from None
        everywhere = np.full(self.num_envs, -1, dtype=np.int64)
        everywhere[rows] = chosen
        ok = self.batch.is_legal(everywhere)[rows]
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            raise DudoError(
                f"an opponent policy chose action {int(chosen[bad])} in game {int(rows[bad])}, "
                f"which is not legal now (legal ids: {np.flatnonzero(mask[rows[bad]]).tolist()})"
            )
        return chosen

    def _info(self) -> dict[str, Any]:
        n, everyone = self.num_envs, np.ones(self.num_envs, dtype=np.bool_)
        info: dict[str, Any] = {
            "action_mask": self.action_masks().astype(np.int8),
            "dice_counts": self.batch.counts.copy(),
            "winner": self.batch.winner.copy(),
        }
        if self._illegal:
            flags = np.zeros(n, dtype=np.bool_)
            texts = np.full(n, None, dtype=object)
            for i, text in self._illegal.items():
                flags[i] = True
                texts[i] = text
            info["illegal_action"] = texts
            info["_illegal_action"] = flags
        for key in ("action_mask", "dice_counts", "winner"):
            info[f"_{key}"] = everyone
        return info


def register_vector_env() -> None:
    """Register :data:`VECTOR_ENV_ID` with Gymnasium (idempotent):
    ``gymnasium.make_vec("dudo/DudoBatch-v0", num_envs=4096, rules="liars-dice")``."""
    registry = gymnasium.envs.registration.registry
    if VECTOR_ENV_ID not in registry:
        gymnasium.register(
            id=VECTOR_ENV_ID, vector_entry_point="dudo.research.gym_vector:DudoVectorEnv"
        )
