"""ludic.pettingzoo: every built-in game passes PettingZoo's api_test and seed_test."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import ludic
import ludic.pettingzoo as lp
from pettingzoo.test import api_test, seed_test


@pytest.mark.parametrize("name", ludic.builtin_games())
def test_api_and_seed_tests_pass(name):
    api_test(lp.env(name), num_cycles=300, verbose_progress=False)
    seed_test(lambda: lp.env(name), num_cycles=300)


def test_teams_give_one_agent_a_player():
    env = lp.env("kuilichi-chanakua", {"team_size": 2})
    env.reset(seed=3)
    assert len(env.possible_agents) == 4 == len(set(env.possible_agents))
    api_test(env, num_cycles=100, verbose_progress=False)


def test_a_game_to_the_end_rewards_the_winner():
    env = lp.env("pallankuzhi")
    env.reset(seed=1)
    rewards = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == info["legal_moves"]
        env.step(int(rng.choice(legal)))
    assert env.state.is_terminal()
    assert sorted(rewards.values()) == sorted(env.state.returns())
