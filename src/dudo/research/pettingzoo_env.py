"""Dudo as a PettingZoo AEC environment: every seat an agent, one decider at a time.

Agents are ``player_0`` .. ``player_{n-1}`` (engine seats 0..n-1). Each observation is a
dict, as in PettingZoo's classic games: ``observation`` (the float32 vector of
:mod:`dudo.engine.observation`, from the agent's own view) and ``action_mask`` (int8 over
the ids of :mod:`dudo.engine.encoding`; all zeros for an agent that does not decide now).

The decider is the engine's player to move, except under ``cruzado``: before each in-turn
decision while a bid stands, every seat that may call out of turn is polled once, in seat
order, with the mask ``{call, no-call}`` (see :mod:`dudo.research.turns`).

Rewards are zero-sum and come only from the result: an agent knocked out gets
``-1 / (n - 1)`` when it loses its last die and is terminated; the winner gets ``+1`` when
the game ends, and is terminated too (heads-up: +1 / -1). With ``keep_eliminated=True`` an
agent knocked out still gets its reward then, but stays in ``agents``, never deciding, and is
terminated with the others when the game ends: for wrappers and training loops that end an
episode at the first terminated agent (which would cut a game of three or more players short
at its first elimination). ``dice_reward`` (0 by default)
adds shaping: that much per die won, minus that much per die lost, as it happens. A game cut
off at ``max_rounds`` rounds truncates every agent left, with no result reward.

:func:`env` wraps :class:`DudoAECEnv` the way PettingZoo's classic games are wrapped (an
illegal action ends the game with reward -1 for the agent that took it; out-of-range actions
and calls out of order are refused). :func:`raw_env` is the bare environment, whose ``step``
raises :class:`~dudo.engine.IllegalActionError` on an illegal action.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from dudo.bots.match import MAX_ROUNDS
from dudo.engine import Game, Rules
from dudo.engine.encoding import ActionEncoding
from dudo.engine.observation import HISTORY_SLOTS, ObservationLayout
from dudo.research import environment_rules, missing_extra
from dudo.research.text import RENDER_MODES, rendered, view_text
from dudo.research.turns import Turns

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:
    raise missing_extra(error.name or "pettingzoo", "The PettingZoo environment") from error

ObsDict = dict[str, npt.NDArray[Any]]


class DudoAECEnv(AECEnv):  # type: ignore[misc]
    """A game of Dudo for ``players`` agents under ``rules`` (a preset name or ``Rules``)
    with ``settings`` (``OPTION=VALUE`` house rules)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "dudo_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str = "dudo",
        players: int = 4,
        settings: Iterable[str] | str = (),
        *,
        max_rounds: int = MAX_ROUNDS,
        history_slots: int = HISTORY_SLOTS,
        dice_reward: float = 0.0,
        keep_eliminated: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.keep_eliminated = keep_eliminated
        self._out: set[str] = set()  # agents knocked out this game
        self.rules = environment_rules(rules, settings, players, render_mode)
        self.players = players
        self.max_rounds = max_rounds
        self.dice_reward = dice_reward
        self.render_mode = render_mode
        self.encoding = ActionEncoding(self.rules, players)
        self.layout = ObservationLayout(self.rules, players, history_slots=history_slots)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoding.size,), np.int8),
            }
        )
        action_space = spaces.Discrete(self.encoding.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self._seeds = random.Random()
        self.turns: Turns | None = None

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        game = Game(self.rules, self.players, seed=self._seeds.getrandbits(64))
        self.turns = Turns(game, self.encoding, max_rounds=self.max_rounds)
        self._out = set()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        actor = self.turns.actor
        assert actor is not None  # a new game always has a decider
        self.agent_selection = self.possible_agents[actor]

    @property
    def game(self) -> Game:
        if self.turns is None:
            raise RuntimeError("call reset() before using the environment")
        return self.turns.game

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat[agent]
        turns = self.turns
        if turns is None:
            raise RuntimeError("call reset() before using the environment")
        view = turns.game.view(seat)
        if turns.actor == seat:
            mask = self.encoding.mask(view, polled=turns.polling)
        else:
            mask = np.zeros(self.encoding.size, dtype=np.int8)
        return {"observation": self.layout.encode(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        turns = self.turns
        assert turns is not None
        if action is None:
            raise ValueError(f"{agent} is still playing: None is only for agents that are done")
        before = turns.game.counts
        turns.apply(int(action))  # an illegal id raises and changes nothing
        self._cumulative_rewards[agent] = 0.0
        game = turns.game
        self.rewards = dict.fromkeys(self.agents, 0.0)
        loss = -1.0 / (self.players - 1)
        for live in self.agents:
            seat = self._seat[live]
            self.rewards[live] += self.dice_reward * (game.counts[seat] - before[seat])
            if game.counts[seat] == 0 and live not in self._out:
                self._out.add(live)
                self.rewards[live] += loss
                self.terminations[live] = not self.keep_eliminated
        if game.is_over:
            assert game.winner is not None
            winner = self.possible_agents[game.winner]
            self.rewards[winner] += 1.0
            self.terminations = dict.fromkeys(self.agents, True)
        elif turns.capped:
            self.terminations = {a: a in self._out for a in self.agents}
            self.truncations = {a: a not in self._out for a in self.agents}
        actor = turns.actor
        if actor is not None:
            self.agent_selection = self.possible_agents[actor]
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        turns = self.turns
        if turns is None:
            return rendered("the game has not started: call reset()", self.render_mode)
        return rendered(view_text(turns.game.view(turns.actor)), self.render_mode)

    def close(self) -> None:
        pass


def raw_env(
    rules: Rules | str = "dudo",
    players: int = 4,
    settings: Iterable[str] | str = (),
    **kwargs: Any,
) -> DudoAECEnv:
    """The bare environment (see :class:`DudoAECEnv`)."""
    return DudoAECEnv(rules, players, settings, **kwargs)


def env(
    rules: Rules | str = "dudo",
    players: int = 4,
    settings: Iterable[str] | str = (),
    **kwargs: Any,
) -> Any:
    """The environment wrapped like PettingZoo's classic games: an illegal action terminates
    the game with reward -1 for the agent that took it."""
    wrapped = wrappers.TerminateIllegalWrapper(
        raw_env(rules, players, settings, **kwargs), illegal_reward=-1
    )
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
