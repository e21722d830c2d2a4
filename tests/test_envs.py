"""The registered environments: masked velocities and the memory task."""

import gymnasium as gym
import numpy as np
import pytest
from conftest import DISCRETE_SCRIPTS, load

MASKED = [(name, *case) for name in DISCRETE_SCRIPTS for case in [
    ("CartPoleNoVel-v1", "CartPole-v1", {}, [1, 3]), ("MountainCarNoVel-v0", "MountainCar-v0", {}, [1]),
    ("LunarLanderNoVel-v3", "LunarLander-v3", {}, [2, 3, 5])]] + [
    ("ppo_lstm_continuous", "PendulumNoVel-v1", "Pendulum-v1", {}, [2]),
    ("ppo_lstm_continuous", "MountainCarContinuousNoVel-v0", "MountainCarContinuous-v0", {}, [1]),
    ("ppo_lstm_continuous", "LunarLanderContinuousNoVel-v3", "LunarLander-v3", {"continuous": True}, [2, 3, 5])]  # fmt: skip


@pytest.mark.parametrize("name, env_id, base_id, base_kwargs, zeroed", MASKED)
def test_masked_envs_zero_the_velocities_and_keep_the_shape(name, env_id, base_id, base_kwargs, zeroed):
    load(name)
    masked, full = gym.make(env_id), gym.make(base_id, **base_kwargs)
    assert masked.action_space == full.action_space
    assert masked.observation_space.shape == full.observation_space.shape
    obs, _ = masked.reset(seed=3)
    ref, _ = full.reset(seed=3)
    for _ in range(20):
        kept = [i for i in range(len(ref)) if i not in zeroed]
        assert (obs[zeroed] == 0).all() and np.allclose(obs[kept], ref[kept])
        action = masked.action_space.sample()
        obs, _, terminated, _, _ = masked.step(action)
        ref, *_ = full.step(action)
        if terminated:
            break


def test_cue_recall_needs_memory():
    load("ppo_lstm")
    env = gym.make("CueRecall-v0")
    lengths, queries, rewards = set(), [], []
    for episode in range(40):
        obs, _ = env.reset(seed=episode)
        cue, done, t = int(obs.argmax()), False, 0
        while not done:
            t += 1
            if obs[-1] == 1.0:
                queries.append(obs.copy())
            obs, reward, done, _, _ = env.step(cue)  # always name the cue: optimal play
            rewards.append(reward)
        lengths.add(t)
    assert lengths == {12}  # cue, 10 blank steps, query
    assert all((q == queries[0]).all() for q in queries)  # the query never reveals the cue
    assert sum(rewards) == 40  # remembering the cue scores 1 per episode


def test_frame_stack_pads_with_the_reset_observation_and_puts_the_latest_last():
    """--frame-stack K: the MLP sees the last K observations, oldest first; after a reset the missing ones are the
    reset observation itself, not zeros (a zero frame would read as a cart at rest in the centre)."""
    env = load("ppo_mlp_cartpole").make_env("CartPole-v1", 3)()
    plain = gym.make("CartPole-v1")
    obs, _ = env.reset(seed=5)
    first, _ = plain.reset(seed=5)
    np.testing.assert_array_equal(obs, np.concatenate([first, first, first]))
    obs, *_ = env.step(1)
    second, *_ = plain.step(1)
    np.testing.assert_array_equal(obs, np.concatenate([first, first, second]))
