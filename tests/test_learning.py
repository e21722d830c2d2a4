"""Learning: the scripts reach their scores within a step budget (minutes; run in CI).

The same seed follows a different trajectory on a different CPU, so a single run's score proves nothing by itself:
each test asserts only what its rows (named in its docstring, in benchmark/results/) show on 10 of 10 seeds, on every
CPU model they ran on, at the same budget, with the same metric.
"""

import os
import sys

import pytest
from conftest import ROOT, load, run_dirs, scalars

sys.path.insert(0, os.path.join(ROOT, "benchmark"))
from suites import steps_to_threshold  # noqa: E402  (the benchmark's own metric)

pytestmark = pytest.mark.learning


def train(name: str, **kwargs) -> dict:
    """On the CPU where a GPU is present too: every row a threshold rests on ran on CPUs."""
    module = load(name)
    return module.main(module.Args(**{"eval_episodes": 10, "cuda": False, **kwargs}))


def test_lstm_solves_cartpole_without_velocities():
    """cartpole_novel.json, `ppo_lstm.py` on its defaults at 100k steps, seeds 1-10 on three CPU models:
    the last 20 training episodes averaged 475 on 30 of 30 runs (the latest at 89,400 steps), the evaluation 487.8 at
    worst (the memoryless MLP scores about 40)."""
    summary = train("ppo_lstm", env_id="CartPoleNoVel-v1", total_timesteps=100_000)
    assert steps_to_threshold(scalars(run_dirs()[-1], "charts/episodic_return"), 475) is not None
    assert summary["eval_mean_return"] >= 200


def test_lstm_solves_the_memory_task():
    """learning_tests.json, `ppo_lstm.py` on CueRecall-v0 at 50k steps, 50 evaluation episodes, seeds 1-10
    on three CPU models: 1.0, the optimum, on 30 of 30 runs."""
    summary = train("ppo_lstm", env_id="CueRecall-v0", total_timesteps=50_000, eval_episodes=50)
    assert summary["eval_mean_return"] == 1.0  # the optimum: every cue recalled


def test_lstm_solves_the_masked_memory_task_with_its_masks():
    """learning_tests.json, `ppo_lstm.py` on MaskedCueRecall-v0 at 50k steps, 50 evaluation episodes,
    seeds 1-10 on three CPU models: the last 20 training episodes averaged 1 on 30 of 30 runs and the evaluation was
    1.0 on each, every action taken under the env's masks."""
    summary = train("ppo_lstm", env_id="MaskedCueRecall-v0", total_timesteps=50_000, eval_episodes=50)
    assert steps_to_threshold(scalars(run_dirs()[-1], "charts/episodic_return"), 1.0) is not None
    assert summary["action_masks"] and summary["eval_mean_return"] >= 0.5


def test_mlp_solves_the_fully_observed_cartpole():
    """learning_tests.json, `ppo_mlp_cartpole.py` on CartPole-v1 at 100k steps: evaluation 500 on 10 of 10
    seeds; cartpole_mlp.json: 500 on 30 of 30 runs on three CPU models."""
    assert train("ppo_mlp_cartpole", env_id="CartPole-v1", total_timesteps=100_000)["eval_mean_return"] >= 475


def test_mlp_fails_without_velocities():
    """learning_tests.json, `ppo_mlp_cartpole.py` on CartPoleNoVel-v1 at 100k steps: evaluation 42.9 at best
    over 10 seeds."""
    assert train("ppo_mlp_cartpole", env_id="CartPoleNoVel-v1", total_timesteps=100_000)["eval_mean_return"] < 100


def test_mlp_stays_at_chance_on_the_memory_task():
    """learning_tests.json, `ppo_mlp_cartpole.py` on CueRecall-v0 at 50k steps, 50 evaluation episodes: 0.2
    at best over 10 seeds."""
    summary = train("ppo_mlp_cartpole", env_id="CueRecall-v0", total_timesteps=50_000, eval_episodes=50)
    assert summary["eval_mean_return"] < 0.5


def test_lstm_continuous_swings_up_the_pendulum_without_velocities():
    """learning_tests.json, `ppo_lstm_continuous.py` on its defaults on PendulumNoVel-v1 at 150k steps,
    seeds 1-10 on three CPU models: the last 20 training episodes (of 100 steps) averaged -200 on 30 of 30 runs, the
    evaluation -244.4 at worst (a policy that never swings up scores about -1200). The test asks for -200 in training
    and -400 in evaluation."""
    summary = train("ppo_lstm_continuous", env_id="PendulumNoVel-v1", total_timesteps=150_000)
    assert steps_to_threshold(scalars(run_dirs()[-1], "charts/episodic_return"), -200) is not None
    assert summary["eval_mean_return"] >= -400


def test_lstm_continuous_reaches_the_mountain_car_flag_with_correlated_noise():
    """learning_tests.json, `ppo_lstm_continuous.py` on MountainCarContinuousNoVel-v0 at 100k steps with
    the flags below, seeds 1-10 on three CPU models: the last 20 training episodes averaged 90 on 30 of 30 runs (the
    latest at 38,968 steps). The evaluation at the end held 89.9 or more on 29 of them, but one seed held 94 for 50k
    steps and then never reached the flag again (-99.7), so the test asserts the reach only. An episode that never
    reaches the flag scores 0 or less: with independent noise the policy learns to stand still."""
    train(
        "ppo_lstm_continuous",
        env_id="MountainCarContinuousNoVel-v0",
        total_timesteps=100_000,
        noise_corr=0.95,
        init_logstd=0.0,
        gamma=0.99,
        ent_coef=0.0,
        norm_obs_until=1.0,  # the settings its rows ran with
        shared_lstm=False,
        train_time_limit=1.0,
    )
    assert steps_to_threshold(scalars(run_dirs()[-1], "charts/episodic_return"), 90) is not None
