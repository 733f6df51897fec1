"""The PettingZoo AEC environment: PettingZoo's own API test over presets, house rules and
2 to 8 players, whole games with masks, zero-sum results, cruzado polls, illegal actions."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test

from dudo.engine import Bid, Eliminated, IllegalActionError
from dudo.engine.errors import DudoError
from dudo.research.pettingzoo_env import DudoAECEnv, env, raw_env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's advice on dict spaces


@pytest.mark.parametrize(
    ("rules", "players", "settings"),
    [
        ("dudo", 2, ""),
        ("dudo", 4, "cruzado=true reveal_reroll=true"),
        ("perudo", 6, "spot_on_reward=cancel"),
        ("cacho", 3, "loss=difference"),
        ("liars-dice", 8, "dice_per_player=2"),
        ("dudo-legacy", 5, "direction=counterclockwise next_opener=winner"),
    ],
)
def test_pettingzoo_api_test(rules: str, players: int, settings: str) -> None:
    api_test(env(rules, players, settings), num_cycles=300)


def _play(game_env: DudoAECEnv, seed: int) -> tuple[dict[str, float], list[str], int]:
    """Play a whole game with random legal actions: each agent's total reward, the order in
    which agents finished, and how many out-of-turn polls there were."""
    game_env.reset(seed=seed)
    totals = dict.fromkeys(game_env.possible_agents, 0.0)
    finished: list[str] = []
    polls = 0
    rng = np.random.default_rng(seed)
    for agent in game_env.agent_iter():
        observation, reward, terminated, truncated, _ = game_env.last()
        totals[agent] += reward
        if terminated or truncated:
            finished.append(agent)
            game_env.step(None)
            continue
        mask = observation["action_mask"]
        turns = game_env.turns
        assert turns is not None
        if turns.polling:
            polls += 1
            assert np.flatnonzero(mask).tolist() == [
                game_env.encoding.call_id,
                game_env.encoding.no_call_id,
            ]
        # Only the agent that decides has legal actions.
        for other in game_env.agents:
            if other != agent:
                assert not game_env.observe(other)["action_mask"].any()
        game_env.step(int(rng.choice(np.flatnonzero(mask))))
    return totals, finished, polls


@pytest.mark.parametrize(("players", "settings"), [(2, ""), (4, "cruzado=true")])
def test_a_whole_game_is_zero_sum_and_the_winner_finishes_last(players: int, settings: str) -> None:
    game_env = raw_env("dudo", players, settings)
    totals, finished, polls = _play(game_env, seed=7)
    game = game_env.game
    assert game.is_over and game.winner is not None
    winner = f"player_{game.winner}"
    assert totals[winner] == 1.0
    assert all(totals[a] == pytest.approx(-1 / (players - 1)) for a in totals if a != winner)
    assert sum(totals.values()) == pytest.approx(0.0)
    assert sorted(finished) == sorted(game_env.possible_agents) and not game_env.agents
    # Agents knocked out before the last round leave in the order they lost their last
    # die; the last loser and the winner leave together at the end.
    out_order = [f"player_{e.player}" for e in game.events if isinstance(e, Eliminated)]
    assert finished[: players - 2] == out_order[: players - 2]
    assert set(finished[-2:]) == {winner, out_order[-1]}
    assert (polls > 0) == ("cruzado" in settings)


def test_keep_eliminated_keeps_every_agent_until_the_game_ends() -> None:
    """A knocked-out agent gets its loss at once, but is not terminated (nor removed) before
    the game is over: a loop that ends an episode at the first terminated agent plays the
    whole game."""
    game_env = raw_env("perudo", 4, "dice_per_player=2", keep_eliminated=True)
    game_env.reset(seed=11)
    rng = np.random.default_rng(11)
    totals = dict.fromkeys(game_env.possible_agents, 0.0)
    knocked_out_at: dict[str, int] = {}
    steps = 0
    for agent in game_env.agent_iter():
        observation, reward, terminated, truncated, _ = game_env.last()
        totals[agent] += reward
        if terminated or truncated:
            assert game_env.game.is_over, "terminated only once the game is over"
            game_env.step(None)
            continue
        assert game_env.agents == game_env.possible_agents
        game_env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
        for other in game_env.possible_agents:
            if game_env.rewards[other] < 0 and other not in knocked_out_at:
                knocked_out_at[other] = steps
                assert game_env.terminations[other] == game_env.game.is_over
                assert game_env.game.counts[int(other[-1])] == 0
    game = game_env.game
    assert game.is_over and game.winner is not None
    assert len(knocked_out_at) == 3 and sorted(knocked_out_at.values())[0] < steps
    assert totals[f"player_{game.winner}"] == 1.0
    assert sum(totals.values()) == pytest.approx(0.0)


def test_keep_eliminated_passes_pettingzoos_api_test() -> None:
    api_test(env("perudo", 4, keep_eliminated=True), num_cycles=300)


def test_dice_reward_shapes_each_die_won_or_lost() -> None:
    game_env = raw_env("liars-dice", 2, "dice_per_player=2", dice_reward=0.25)
    totals, _, _ = _play(game_env, seed=3)
    winner = game_env.game.winner
    assert winner is not None
    # The loser lost both dice (-0.5), the winner kept what it had.
    loser = f"player_{1 - winner}"
    assert totals[loser] == pytest.approx(-1.0 - 0.5)


def test_the_round_cap_truncates_everyone_left() -> None:
    game_env = raw_env("dudo", 3, max_rounds=1)
    game_env.reset(seed=1)
    rng = np.random.default_rng(1)
    truncated_agents = set()
    for agent in game_env.agent_iter():
        observation, _, terminated, truncated, _ = game_env.last()
        if truncated:
            truncated_agents.add(agent)
        if terminated or truncated:
            game_env.step(None)
        else:
            game_env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert truncated_agents == {"player_0", "player_1", "player_2"}
    assert game_env.game.winner is None


def test_illegal_actions() -> None:
    bare = raw_env("dudo", 3)
    bare.reset(seed=0)
    with pytest.raises(IllegalActionError, match="must bid"):
        bare.step(bare.encoding.call_id)  # nothing to call at the opening
    wrapped = env("dudo", 3)
    wrapped.reset(seed=0)
    agent = wrapped.agent_selection
    wrapped.step(wrapped.unwrapped.encoding.call_id)
    assert wrapped.terminations[agent] and wrapped.rewards[agent] == -1


def test_render_and_setup_errors() -> None:
    game_env = raw_env("perudo", 3, render_mode="ansi")
    game_env.reset(seed=2)
    text = game_env.render()
    assert text is not None and "round 1" in text and "(you" in text
    game_env.step(game_env.encoding.id(Bid(1, 2)))
    text = game_env.render()
    assert text is not None and "standing bid: 1x2" in text
    assert raw_env("dudo", 2).render() is None
    with pytest.raises(DudoError, match="max_players=6"):
        raw_env("perudo", 7)
    with pytest.raises(ValueError, match="render_mode 'rgb_array' is not supported"):
        raw_env("dudo", 2, render_mode="rgb_array")


@pytest.mark.parametrize(("rules", "players"), [("dudo", 2), ("perudo", 4), ("liars-dice", 3)])
def test_pettingzoo_render_test(rules: str, players: int) -> None:
    """PettingZoo's own render test, over every render mode the environment declares."""
    render_test(lambda render_mode: env(rules, players, render_mode=render_mode))


def test_human_render_prints_the_acting_players_picture(capsys: pytest.CaptureFixture[str]) -> None:
    game_env = raw_env("perudo", 3, render_mode="human")
    assert game_env.render() is None
    assert "call reset()" in capsys.readouterr().out
    game_env.reset(seed=2)
    assert game_env.render() is None
    printed = capsys.readouterr().out
    assert "round 1" in printed and "(you" in printed
