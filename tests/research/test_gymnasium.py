"""The Gymnasium environment: Gymnasium's environment checker over presets, house rules and
player counts, the registered id, whole episodes against bots, illegal actions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from dudo.engine.errors import DudoError
from dudo.research.gym_env import ENV_ID, DudoGymEnv, register_envs

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # the checker's render advice


@pytest.mark.parametrize(
    ("rules", "players", "settings", "opponents"),
    [
        ("dudo", 2, "", "easy"),
        ("dudo", 4, "cruzado=true reveal_reroll=true", "random"),
        ("perudo", 6, "", "easy"),
        ("cacho", 8, "loss=difference", "random"),
        ("liars-dice", 3, "dice_per_player=2", "easy"),
    ],
)
def test_gymnasium_check_env(rules: str, players: int, settings: str, opponents: str) -> None:
    game_env = DudoGymEnv(rules, players, settings, opponents=opponents, render_mode="ansi")
    check_env(game_env.unwrapped)


def _episode(game_env: gymnasium.Env[np.ndarray, np.int64], seed: int) -> tuple[float, int]:
    observation, info = game_env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, reward, done = 0, 0.0, False
    while not done:
        assert game_env.observation_space.contains(observation)
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size > 0
        observation, got, terminated, truncated, info = game_env.step(rng.choice(legal))
        reward = float(got)
        done = terminated or truncated
        steps += 1
    return reward, steps


def test_the_registered_id_plays_whole_episodes() -> None:
    register_envs()
    register_envs()  # a second call changes nothing
    game_env = gymnasium.make(ENV_ID, rules="perudo", players=3, opponents="random")
    results = [_episode(game_env, seed) for seed in range(6)]
    assert all(reward in (1.0, -1.0) for reward, _ in results)
    assert any(reward == -1.0 for reward, _ in results)  # random play loses to random bots too
    # The same seed gives the same episode.
    assert _episode(game_env, 4) == results[4]


def test_win_and_loss_rewards_follow_the_game() -> None:
    game_env = DudoGymEnv("liars-dice", 2, "dice_per_player=1", opponents="random")
    seen = set()
    for seed in range(12):
        reward, _ = _episode(game_env, seed)
        game = game_env.game
        assert game.is_over
        assert reward == (1.0 if game.winner == game_env.seat else -1.0)
        seen.add(reward)
    assert seen == {1.0, -1.0}


def test_the_learner_is_done_when_knocked_out() -> None:
    game_env = DudoGymEnv("dudo", 4, "dice_per_player=1 pass_hands=none", opponents="easy")
    for seed in range(10):
        reward, _ = _episode(game_env, seed)
        game = game_env.game
        if reward == -1.0:
            assert game.counts[game_env.seat] == 0
        else:
            assert game.winner == game_env.seat
        with pytest.raises(RuntimeError, match="reset"):
            game_env.step(np.int64(0))


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    game_env = DudoGymEnv("dudo", 3, seat=2)
    _, info = game_env.reset(seed=1)
    history = list(game_env.game.history)
    choose_open = np.int64(game_env.encoding.open_id)
    assert not info["action_mask"][choose_open]
    _, reward, terminated, truncated, info = game_env.step(choose_open)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "no open or closed choice" in info["illegal_action"]
    assert game_env.game.history == history  # the game is unchanged
    assert game_env.action_masks().dtype == np.bool_


def test_setup_errors() -> None:
    with pytest.raises(DudoError, match="seat"):
        DudoGymEnv("dudo", 2, seat=2)
    with pytest.raises(DudoError, match="unknown bot"):
        DudoGymEnv("dudo", 2, opponents="grandmaster")
    with pytest.raises(DudoError, match="2 bot levels for 1"):
        DudoGymEnv("dudo", 2, opponents=["easy", "random"])
    with pytest.raises(ValueError, match="render_mode"):
        DudoGymEnv("dudo", 2, render_mode="rgb_array")
    assert DudoGymEnv("dudo", 2).render() is None
