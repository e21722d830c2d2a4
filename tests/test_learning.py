"""Learning: the scripts reach their scores within a step budget (minutes; run in CI)."""

import pytest
from conftest import load

pytestmark = pytest.mark.learning


def train(name: str, **kwargs) -> dict:
    module = load(name)
    return module.main(module.Args(**{"eval_episodes": 10, **kwargs}))


def test_lstm_solves_cartpole_without_velocities():
    summary = train("ppo_lstm", env_id="CartPoleNoVel-v1", total_timesteps=100_000)
    assert summary["eval_mean_return"] >= 475


def test_lstm_solves_the_memory_task():
    summary = train("ppo_lstm", env_id="CueRecall-v0", total_timesteps=50_000)
    assert summary["eval_mean_return"] == 1.0  # the optimum: every cue recalled


def test_mlp_solves_cartpole():
    assert train("ppo_mlp_cartpole", env_id="CartPole-v1", total_timesteps=100_000)["eval_mean_return"] >= 475


def test_mlp_fails_without_velocities():
    assert train("ppo_mlp_cartpole", env_id="CartPoleNoVel-v1", total_timesteps=100_000)["eval_mean_return"] < 200


def test_mlp_stays_at_chance_on_the_memory_task():
    assert train("ppo_mlp_cartpole", env_id="CueRecall-v0", total_timesteps=50_000, eval_episodes=50)["eval_mean_return"] < 0.5


def test_lstm_continuous_swings_up_the_pendulum_without_velocities():
    summary = train("ppo_lstm_continuous", env_id="PendulumNoVel-v1", total_timesteps=150_000)
    assert summary["eval_mean_return"] >= -250


def test_lstm_continuous_reaches_the_mountain_car_flag_with_correlated_noise():
    # with independent noise (--noise-corr 0) the same run stays at 0: the policy learns to stand still
    summary = train(
        "ppo_lstm_continuous", env_id="MountainCarContinuousNoVel-v0", total_timesteps=40_000,
        noise_corr=0.95, init_logstd=0.0, gamma=0.99,
    )  # fmt: skip
    assert summary["eval_mean_return"] >= 90
