"""The Gymnasium vector environment on the batched simulator: Gymnasium's vector API, its
wrappers and autoreset convention, rewards, masks, and opponents."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics  # noqa: E402

from dudo.engine.errors import DudoError  # noqa: E402
from dudo.research.gym_vector import VECTOR_ENV_ID, DudoVectorEnv, register_vector_env  # noqa: E402


def masked_random(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    scores = rng.random(mask.shape) * mask
    return np.asarray(scores.argmax(axis=1), dtype=np.int64)


def play(env: Any, steps: int, seed: int) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seen, rewards, ends, masks = [obs], [], [], [info["action_mask"]]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(masked_random(info["action_mask"], rng))
        seen.append(obs)
        rewards.append(reward)
        ends.append(terminated | truncated)
        masks.append(info["action_mask"])
    return seen, rewards, ends, masks


def test_make_vec_builds_it_with_gymnasiums_spaces() -> None:
    register_vector_env()
    env = gymnasium.make_vec(VECTOR_ENV_ID, num_envs=16, rules="perudo", players=3)
    assert isinstance(env.unwrapped, DudoVectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=2)
    assert obs.shape == (16, env.single_observation_space.shape[0])
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (16, env.single_action_space.n)
    assert info["action_mask"].dtype == np.int8
    actions = masked_random(info["action_mask"], np.random.default_rng(0))
    assert env.action_space.contains(actions)
    obs, reward, terminated, truncated, info = env.step(actions)
    assert env.observation_space.contains(obs)
    assert reward.shape == terminated.shape == truncated.shape == (16,)
    assert set(info) >= {"action_mask", "_action_mask", "dice_counts", "winner"}


def test_episodes_end_with_the_result_and_restart_on_the_next_step() -> None:
    env = DudoVectorEnv(32, "liars-dice", 2, settings="dice_per_player=2")
    seen, rewards, ends, masks = play(env, 200, seed=4)
    finished = 0
    for t, (reward, ended) in enumerate(zip(rewards, ends, strict=True)):
        assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}
        assert (reward[~ended] == 0).all(), "a result only at an episode's end"
        assert (np.abs(reward[ended]) == 1).all(), "heads-up, every end is a win or a loss"
        assert masks[t + 1][ended].all(), "every action marked once over"
        if t + 1 < len(rewards):
            after = rewards[t + 1][ended]
            assert (after == 0).all() and not ends[t + 1][ended].any(), "restarted, not scored"
            start = seen[t + 2][ended]
            assert (start[:, env.batch.layout.sections["round"][0]] == 0.01).all(), "round 1"
        finished += int(ended.sum())
    assert finished > 100


def test_a_random_learner_wins_about_half_against_random_opponents() -> None:
    env = DudoVectorEnv(256, "liars-dice", 2, settings="dice_per_player=1")
    _, rewards, ends, _ = play(env, 60, seed=8)
    results = np.concatenate([r[e] for r, e in zip(rewards, ends, strict=True)])
    assert results.size > 2000
    assert 0.45 < (results > 0).mean() < 0.55


def test_the_same_seed_gives_the_same_episodes() -> None:
    first = play(DudoVectorEnv(8, "dudo", 3), 80, seed=5)
    second = play(DudoVectorEnv(8, "dudo", 3), 80, seed=5)
    for a, b in zip(first, second, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_gymnasiums_vector_wrappers_accept_it() -> None:
    env = RecordEpisodeStatistics(DudoVectorEnv(16, "liars-dice", 2, settings="dice_per_player=1"))
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(40):
        *_, info = env.step(masked_random(info["action_mask"], rng))
        if "episode" in info:
            done = info["_episode"]
            episodes += int(done.sum())
            assert (np.abs(info["episode"]["r"][done]) == 1).all()
    assert episodes > 20
    listed = DictInfoToList(DudoVectorEnv(4, "perudo", 3))
    _, infos = listed.reset(seed=3)
    assert len(infos) == 4 and "action_mask" in infos[0]


def test_an_illegal_action_ends_that_episode_and_changes_nothing() -> None:
    env = DudoVectorEnv(4, "liars-dice", 2)
    _, info = env.reset(seed=6)
    before = env.batch.round_length.copy()
    actions = masked_random(info["action_mask"], np.random.default_rng(0))
    actions[2] = env.batch.num_actions + 5  # outside the action space
    _, reward, terminated, _, info = env.step(actions)
    assert terminated[2] and reward[2] == -1.0
    assert info["_illegal_action"].tolist() == [False, False, True, False]
    assert "outside" in info["illegal_action"][2]
    assert env.batch.round_length[2] == before[2], "the game was not changed"


def test_a_batched_policy_plays_the_opponents() -> None:
    asked: list[tuple[int, ...]] = []

    def lowest(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
        asked.append(obs.shape)
        assert obs.shape[0] == mask.shape[0] and mask.any(axis=1).all()
        return mask.argmax(axis=1)

    env = DudoVectorEnv(8, "perudo", 4, opponents=lowest)
    play(env, 30, seed=2)
    assert asked and all(shape[0] >= 1 for shape in asked)

    def wrong(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
        return np.full(mask.shape[0], mask.shape[1] + 1)

    with pytest.raises(DudoError, match="an opponent policy chose action"):
        DudoVectorEnv(8, "perudo", 4, seat=3, opponents=wrong).reset(seed=0)


def test_bad_arguments_say_what_is_wrong() -> None:
    with pytest.raises(DudoError, match="seat: 2 is not a seat of a 2-player game"):
        DudoVectorEnv(4, "dudo", 2, seat=2)
    with pytest.raises(DudoError, match="opponents: 'easy' is neither 'random' nor"):
        DudoVectorEnv(4, "dudo", 2, opponents="easy")
    with pytest.raises(DudoError, match="cruzado"):
        DudoVectorEnv(4, "dudo", 3, settings="cruzado=true")
    with pytest.raises(DudoError, match="actions: 3 given for 4 environments"):
        env = DudoVectorEnv(4, "dudo", 2)
        env.reset(seed=0)
        env.step(np.zeros(3, dtype=np.int64))
