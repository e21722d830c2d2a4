"""Learning: the scripts reach their scores within a step budget (minutes; run in CI).

The same seed follows a different trajectory on a different CPU, so a single run's score proves nothing by itself:
each test asserts only what its benchmark row (named in its docstring, in the README's results) shows on 10 of 10
seeds at the same budget, with the same metric.
"""

import os
import sys

import pytest
from conftest import ROOT, load, run_dirs, scalars

sys.path.insert(0, os.path.join(ROOT, "benchmark"))
from plot import steps_to_threshold  # noqa: E402  (the benchmark's own metric)

pytestmark = pytest.mark.learning


def train(name: str, **kwargs) -> dict:
    """On the CPU where a GPU is present too: every row a threshold rests on ran on CPUs."""
    module = load(name)
    return module.main(module.Args(**{"eval_episodes": 10, "cuda": False, **kwargs}))


def test_lstm_solves_cartpole_without_velocities():
    """The defaults' rows (since 2026-11-30: the critic reads the previous action, the entropy bonus 0.01, the GAE
    lambda 0.9) on CartPoleNoVel-v1 at 99,840 steps, seeds 1-10, with three CPU models' arithmetic
    (benchmark/arithmetic.py): peer_reach_epyc_r64_cpal.json (the AMD EPYC of family 26 model 2),
    peer_reach_xeon16_arithmetic_r64_cpal.json (the Intel Xeon) and peer_reach_epyc_avx2_arithmetic_r64_cpal.json (the
    AMD EPYC with AVX2), run with those values as flags: the last 20 training episodes averaged 475 on 10/10 seeds on
    each (the latest at 63,336, 89,400 and 61,128 steps) and the final evaluation was 487.8 at worst (the memoryless MLP
    scores about 50). On the tuning seeds 11-30 of the same three (tuning_cartpolenovel_r64_cpal_xeon_arithmetic,
    tuning_cartpolenovel_r64_cpal_epyc_arithmetic, tuning_cartpolenovel_r64_cpa3_epyc_avx2_arithmetic) 60 of 60
    reached 475, the evaluation 351.0 at worst. With the defaults before (`--ent-coef 0 --gae-lambda 0.8
    --no-critic-prev-action`: peer_reach_epyc_r64.json, peer_reach_xeon16_arithmetic_r64.json,
    peer_reach_epyc_avx2_arithmetic_r64.json) 10/10 on each as well, the evaluation 500 on each."""
    summary = train("ppo_lstm", env_id="CartPoleNoVel-v1", total_timesteps=100_000)
    assert steps_to_threshold(scalars(run_dirs()[-1], "charts/episodic_return"), 475) is not None
    assert summary["eval_mean_return"] >= 200


def test_lstm_solves_the_memory_task():
    """Rows `ppo_lstm__critic_prev_action__ent_coef_0.01__gae_lambda_0.9 | CueRecall-v0 | 10 | 49,664` (the defaults
    since 2026-11-30, run as flags, 50 evaluation episodes) of learning_tests_r64_cpal_epyc_arithmetic,
    learning_tests_r64_cpal_xeon_arithmetic and learning_tests_r64_cpal_epyc_avx2_arithmetic (the AMD EPYC of family 26
    model 2's, the Intel Xeon's and the AVX2 AMD EPYC's arithmetic, benchmark/arithmetic.py): 1.0 on 10/10 seeds on
    each, the last 20 training episodes at 1 by 8,160 steps at the latest. With the defaults before, 1.0 on 10/10 on
    each as well (learning_tests_r64_epyc, learning_tests_r64_xeon_arithmetic, learning_tests_r64_epyc_avx2_arithmetic)."""
    summary = train("ppo_lstm", env_id="CueRecall-v0", total_timesteps=50_000, eval_episodes=50)
    assert summary["eval_mean_return"] == 1.0  # the optimum: every cue recalled


def test_lstm_solves_the_masked_memory_task_with_its_masks():
    """Rows `ppo_lstm__critic_prev_action__ent_coef_0.01__gae_lambda_0.9 | MaskedCueRecall-v0 | 10 | 49,664` (the
    defaults since 2026-11-30, run as flags, 50 evaluation episodes) of learning_tests_r64_cpal_epyc_arithmetic,
    learning_tests_r64_cpal_xeon_arithmetic and learning_tests_r64_cpal_epyc_avx2_arithmetic: the last 20 training
    episodes averaged 1 on 10/10 seeds on each (the latest at 13,728 steps) and the evaluation was 1.0 on 10/10, every
    action taken under the env's masks. With the defaults before (learning_tests_r64_epyc and the two arithmetics'
    learning_tests_r64 suites): the same, the latest at 9,600 steps; without the masks, 32-step rollouts then (row
    `ppo_lstm__no_action_masks` of learning_tests): -0.4 at worst."""
    summary = train("ppo_lstm", env_id="MaskedCueRecall-v0", total_timesteps=50_000, eval_episodes=50)
    assert steps_to_threshold(scalars(run_dirs()[-1], "charts/episodic_return"), 1.0) is not None
    assert summary["action_masks"] and summary["eval_mean_return"] >= 0.5


def test_mlp_solves_the_fully_observed_cartpole():
    """Row `ppo_mlp_cartpole | CartPole-v1 | 10 | 99,840` (mlp_minibatches, two minibatches, the default now, on an
    AMD EPYC): evaluation 500 on 10/10 seeds. With one minibatch, the default before, the rows in mlp_cartpole and
    learning_tests_second_cpu held the same on each CPU."""
    assert train("ppo_mlp_cartpole", env_id="CartPole-v1", total_timesteps=100_000)["eval_mean_return"] >= 475


def test_mlp_fails_without_velocities():
    """Row `ppo_mlp_cartpole | CartPoleNoVel-v1 | 10 | 99,840` (mlp_minibatches, the defaults now, AMD EPYC):
    evaluation 42.9 at best over 10 seeds; with one minibatch, the default before, the rows in mlp_cartpole and
    learning_tests_second_cpu: 51.4 and 47.5 at best."""
    assert train("ppo_mlp_cartpole", env_id="CartPoleNoVel-v1", total_timesteps=100_000)["eval_mean_return"] < 100


def test_mlp_stays_at_chance_on_the_memory_task():
    """Row `ppo_mlp_cartpole | CueRecall-v0 | 10 | 49,920` (mlp_minibatches, the defaults now, AMD EPYC, 50 evaluation
    episodes): 0.2 at best; with one minibatch, the default before, the rows in learning_tests and
    learning_tests_second_cpu: 0.2 at best on each CPU."""
    summary = train("ppo_mlp_cartpole", env_id="CueRecall-v0", total_timesteps=50_000, eval_episodes=50)
    assert summary["eval_mean_return"] < 0.5


def test_lstm_continuous_swings_up_the_pendulum_without_velocities():
    """Rows `ppo_lstm_continuous__ent_coef_0.02 | PendulumNoVel-v1 | 10 | 149,504`, the defaults now (the entropy
    coefficient 0.02 since 2026-12-01), seeds 1-10 with the arithmetic of each of three CPU models: the AMD EPYC of
    family 26 model 2 (AVX-512, family 25 model 17 computing as it; pendulum_ent_coef_002_epyc_arithmetic), the Intel
    Xeon of family 6 model 207 (pendulum_ent_coef_002_xeon_arithmetic) and the AMD EPYC of family 25 model 1 (AVX2;
    pendulum_ent_coef_002_epyc_avx2_arithmetic): the last 20 training episodes (of 100 steps) averaged -200 on 30/30
    runs (the latest at 102,400 steps) and -150 on 30/30 (at 124,000); the evaluation over the first 10 episodes
    -244.4 at worst (a policy that never swings up scores about -1200). On tuning seeds 11-50 with the first arithmetic
    (tuning_pendulum_more_f26_arithmetic) all 40 runs reached -200 (the latest at 92,800 steps), the evaluation over
    the first 10 episodes -271.3 at worst. The test asks for -200 and an evaluation of -400, which hold on all 70 runs.
    With the entropy coefficient 0.01, the default before (pendulum_train_time_limit_*), all 30 runs reached -200 in
    training, the evaluation -233.4 at worst; with whole training episodes before that (pendulum_shared_*,
    tuning_pendulum_shared_*), all 80 runs reached -200, the evaluation -392.9 at worst; with the critic's own LSTM
    before that, 69 of 70 reached -200, the evaluation -310.9 at worst."""
    summary = train("ppo_lstm_continuous", env_id="PendulumNoVel-v1", total_timesteps=150_000)
    assert steps_to_threshold(scalars(run_dirs()[-1], "charts/episodic_return"), -200) is not None
    assert summary["eval_mean_return"] >= -400


def test_lstm_continuous_reaches_the_mountain_car_flag_with_correlated_noise():
    """Row `ppo_lstm_continuous__ent_coef_0 | MountainCarContinuousNoVel-v0 | 10 | 99,328` (ent_coef on an Intel Xeon
    and ent_coef_epyc on an AMD EPYC, these flags with the entropy coefficient 0) and the rows
    `ppo_lstm_continuous__noise_corr_0.95__init_logstd_0__gamma_0.99` (learning_tests, learning_tests_second_cpu and
    learning_tests_third_cpu, the last on an AMD EPYC of another generation): the last 20 training episodes averaged
    90 or more on 10/10 seeds on each CPU (the latest at 38,968 steps; at 40k steps only 8/10 had found the flag in an
    older row). The evaluation at the end held 89.9 or more on 10/10 seeds on the first two CPUs, but on the third,
    seed 6 held 94 for 50k steps and then never reached the flag again (-99.7): the test asserts the reach only. With
    the default's entropy bonus of 0.01 one seed of 10 on the AMD EPYC evaluated at 12.9 (row
    `ppo_lstm_continuous__ent_coef_0.01`), so the test sets 0. An episode that never reaches the flag scores 0 or
    less: with independent noise (--noise-corr 0) the policy learns to stand still and the mean stays near 0. The
    test keeps the critic's own LSTM, the observation statistics updated to the end and whole training episodes, as
    all these rows ran (the defaults before 2026-11-29, 2026-11-28 and 2026-11-30); with the statistics frozen at 0.3 of
    training (ppo_lstm_continuous.py's default now) seeds 1-10 reached the flag as with them updated, every run the
    same up to 30,000 steps (mountaincar_norm_obs_until_f25m17, with the arithmetic of the third CPU), but on another
    CPU a seed found it at 38,968 steps, after the statistics would have stopped."""
    train(
        "ppo_lstm_continuous",
        env_id="MountainCarContinuousNoVel-v0",
        total_timesteps=100_000,
        noise_corr=0.95,
        init_logstd=0.0,
        gamma=0.99,
        ent_coef=0.0,
        norm_obs_until=1.0,  # as its rows ran: the statistics updated to the end, the default before
        shared_lstm=False,  # as its rows ran: the critic's own LSTM, the default before
        train_time_limit=1.0,  # as its rows ran: whole training episodes, the default before 2026-11-30
    )
    assert steps_to_threshold(scalars(run_dirs()[-1], "charts/episodic_return"), 90) is not None
