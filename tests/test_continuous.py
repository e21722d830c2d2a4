"""What continuous actions add in ppo_lstm_continuous.py: clipping at the env boundary, the reward floor,
action spaces of any size."""

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import load, run, run_dirs, scalars

SENT = []  # every action that reached the env below, in order


class RecordedPendulum(gym.Wrapper):
    def __init__(self, render_mode=None):
        super().__init__(gym.make("Pendulum-v1", max_episode_steps=10, render_mode=render_mode))

    def step(self, action):
        SENT.append(np.array(action, copy=True))
        return self.env.step(action)


gym.register("RecordedPendulum-v1", entry_point=RecordedPendulum)


def test_actions_are_clipped_at_the_env_boundary_and_the_sample_is_what_is_learned_from(monkeypatch):
    module = load("ppo_lstm_continuous")
    sampled, replayed = [], []
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, done, action=None, **kwargs):
        result = original(self, obs, state, done, action, **kwargs)
        (sampled if action is None else replayed).append(result[0].detach().clone())
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    SENT.clear()
    # std e^1.5 = 4.5 on a [-2, 2] action space: most samples fall outside it
    run(
        "ppo_lstm_continuous",
        env_id="RecordedPendulum-v1",
        init_logstd=1.5,
        total_timesteps=64,
        num_steps=16,
        num_minibatches=1,
    )  # one minibatch: the first replay holds every sample
    sampled = torch.cat(sampled).numpy()  # (16 * 4, 1), the rollout's steps in order
    sent = np.stack(SENT)
    assert (np.abs(sampled) > 2.0).mean() > 0.3
    assert (np.abs(sent) <= 2.0).all()
    np.testing.assert_array_equal(sent, np.clip(sampled, -2.0, 2.0))
    # the update replays the unclipped samples (whose logprobs were stored: the ratio-1 test covers the rest)
    stored = replayed[0].numpy()
    assert np.abs(stored).max() > 2.0
    np.testing.assert_array_equal(np.sort(stored.ravel()), np.sort(sampled.ravel()))
    assert max(v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")) < 1e-5


def test_evaluation_takes_the_mean_action_clipped():
    # a wide policy (std 4.5): sampled evaluations would differ from each other and leave the bounds
    trained = run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", init_logstd=1.5, save_model=True)
    returns = []
    for _ in range(2):
        SENT.clear()
        checkpoint = trained["checkpoint"]
        summary = run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", eval_checkpoint=checkpoint, eval_episodes=1)
        returns.append(summary["eval_mean_return"])
        assert len(SENT) == 10 and (np.abs(np.stack(SENT)) <= 2.0).all()
    assert returns[0] == returns[1]


def test_reward_floor_raises_training_rewards_but_not_the_logged_return(monkeypatch):
    module = load("ppo_lstm_continuous")
    seen, original = [], module.compute_gae

    def spy(rewards, *args):
        seen.append(rewards.clone())
        return original(rewards, *args)

    monkeypatch.setattr(module, "compute_gae", spy)
    run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", reward_floor=-1.0, norm_reward=False)
    rewards = torch.cat(seen)
    assert rewards.min() == -1.0  # Pendulum pays down to -16.3 per step: the floor is hit and holds
    returns = [v for _, v in scalars(run_dirs()[-1], "charts/episodic_return")]
    assert min(returns) < -10.0  # 10-step episodes floored would never go below -10


@pytest.mark.parametrize("env_id, action_dim", [("LunarLanderContinuousNoVel-v3", 2), ("BipedalWalker-v3", 4)])
def test_multi_dimensional_action_spaces(env_id, action_dim, monkeypatch):
    module = load("ppo_lstm_continuous")
    shapes, original = [], module.Agent.get_action_and_value

    def spy(self, obs, state, done, action=None, **kwargs):
        result = original(self, obs, state, done, action, **kwargs)
        shapes.append((tuple(result[0].shape), tuple(result[1].shape)))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    summary = run("ppo_lstm_continuous", env_id=env_id, reward_floor=-1.0)
    assert summary["global_step"] == 128
    assert shapes[0] == ((4, action_dim), (4,))  # one logprob per env: summed over the action dimensions
