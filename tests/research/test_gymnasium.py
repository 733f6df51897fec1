"""The Gymnasium environment: Gymnasium's environment checker over presets, house rules and
player counts, the registered id, whole episodes against bots, illegal actions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from dudo.engine import Action, PlayerView
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


def test_info_tells_the_dice_counts_and_the_winner() -> None:
    game_env = DudoGymEnv("perudo", 3, "dice_per_player=2", opponents="random")
    for seed in range(4):
        _, info = game_env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while True:
            game = game_env.game
            assert info["dice_counts"].tolist() == list(game.counts)
            assert info["winner"] == (-1 if game.winner is None else game.winner)
            if done:
                break
            legal = np.flatnonzero(info["action_mask"])
            _, reward, terminated, truncated, info = game_env.step(rng.choice(legal))
            done = terminated or truncated
        if game.is_over:
            assert info["winner"] >= 0 and (reward == 1.0) == (info["winner"] == 0)


class _Watching:
    """A bot object: plays the last legal action and keeps which seats it was shown."""

    name = "watching"

    def __init__(self) -> None:
        self.viewers: set[int | None] = set()

    def choose(self, view: PlayerView) -> Action:
        self.viewers.add(view.viewer)
        return view.legal_actions[-1]


def test_opponents_may_be_bot_objects_and_policies() -> None:
    watching = _Watching()
    seen: list[tuple[tuple[int, ...], int]] = []

    def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((observation.shape, int(mask.sum())))
        return int(np.flatnonzero(mask)[0])

    register_envs()
    game_env = gymnasium.make(
        ENV_ID, rules="perudo", players=3, opponents=[watching, first_legal], render_mode=None
    )
    for seed in range(3):
        reward, _ = _episode(game_env, seed)
        assert reward in (1.0, -1.0)
    assert watching.viewers == {1}, "a bot object is shown only its own seat"
    size = game_env.observation_space.shape
    assert seen and all(shape == size and legal > 0 for shape, legal in seen)


def test_an_opponent_policy_that_answers_an_illegal_id_is_named() -> None:
    game_env = DudoGymEnv("liars-dice", 2, seat=1, opponents=lambda _obs, _mask: 10**6)
    with pytest.raises(DudoError, match=r"opponent policy chose action 1000000, which is not"):
        _, info = game_env.reset(seed=0)  # the policy is asked here if it opens
        game_env.step(np.int64(np.flatnonzero(info["action_mask"])[0]))  # else after this bid
    with pytest.raises(DudoError, match="neither a bot level, a bot"):
        DudoGymEnv("liars-dice", 2, opponents=[42])  # type: ignore[list-item]


def test_action_masks_is_reachable_from_what_gymnasium_make_returns() -> None:
    register_envs()
    game_env = gymnasium.make(ENV_ID, rules="liars-dice", players=2)
    _, info = game_env.reset(seed=3)
    masks = game_env.action_masks()  # type: ignore[attr-defined]
    assert masks.dtype == bool and (masks == info["action_mask"].astype(bool)).all()


def test_a_vector_environment_always_offers_an_action_to_draw() -> None:
    """Under ``make_vec`` the info after an episode's last step is asked for one more action
    (dropped as the environment resets): its mask is never empty, and the infos stack."""
    register_envs()
    vector = gymnasium.make_vec(
        ENV_ID, num_envs=3, rules="liars-dice", players=2, settings="dice_per_player=1"
    )
    _, info = vector.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(120):
        masks = info["action_mask"]
        assert masks.shape[0] == 3 and (masks.sum(axis=1) > 0).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, reward, terminated, _, info = vector.step(actions)
        for i in np.flatnonzero(terminated):
            ended += 1
            assert reward[i] in (1.0, -1.0) and info["winner"][i] in (0, 1)
    assert ended > 10
    vector.close()


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
    with pytest.raises(ValueError, match="render_mode 'rgb_array' is not supported"):
        DudoGymEnv("dudo", 2, render_mode="rgb_array")
    assert DudoGymEnv("dudo", 2).render() is None


def test_human_render_prints_the_seats_picture(capsys: pytest.CaptureFixture[str]) -> None:
    register_envs()
    game_env = gymnasium.make(ENV_ID, rules="perudo", players=3, render_mode="human")
    game_env.reset(seed=4)
    assert game_env.render() is None
    printed = capsys.readouterr().out
    assert "round 1" in printed and "seen by player 0" in printed
