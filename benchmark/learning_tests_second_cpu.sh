#!/usr/bin/env bash
# Every row a learning test rests on, run again on another CPU model (the same seed follows a different trajectory
# on a different CPU, so a row measured on one machine alone can hide a seed that fails elsewhere). The tests in
# tests/test_learning.py assert only what holds on all 20 runs: these 10 seeds and the rows' own 10.
# SUITE names the results folder (default: learning_tests_second_cpu).
set -euo pipefail
cd "$(dirname "$0")/.."
SUITE="${SUITE:-learning_tests_second_cpu}"
WORKERS="${WORKERS:-2}"
run() { python benchmark/run.py --suite "$SUITE" --seeds 1 2 3 4 5 6 7 8 9 10 --workers "$WORKERS" "$@"; }
run --scripts ppo_lstm.py --env-ids CartPoleNoVel-v1                                          # novel_classic
run --scripts ppo_mlp_cartpole.py --env-ids CartPole-v1 CartPoleNoVel-v1                     # mlp_minibatches
# ppo_lstm_continuous.py's default --ent-coef 0.02 named, so that its rows are told apart from the rows named
# ppo_lstm_continuous, ppo_lstm_continuous__shared_lstm and ppo_lstm_continuous__train_time_limit_0.5 in the suites of
# this script run before 2026-11-28, 2026-11-29, 2026-11-30 and 2026-12-01 (the statistics updated to the end, the
# critic's own LSTM, whole training episodes, the entropy coefficient 0.01 then)
run --scripts "ppo_lstm_continuous.py --ent-coef 0.02" --env-ids PendulumNoVel-v1   # pendulum_ent_coef_002_*
run --extra="--total-timesteps 50000 --eval-episodes 50" --scripts ppo_lstm.py ppo_mlp_cartpole.py \
  --env-ids CueRecall-v0                                                                      # learning_tests
run --extra="--total-timesteps 50000 --eval-episodes 50" --scripts ppo_lstm.py --env-ids MaskedCueRecall-v0
run --extra="--total-timesteps 100000 --ent-coef 0 --norm-obs-until 1 --no-shared-lstm --train-time-limit 1" \
  --scripts "ppo_lstm_continuous.py --noise-corr 0.95 --init-logstd 0 --gamma 0.99" --env-ids MountainCarContinuousNoVel-v0
python benchmark/plot.py --suite "$SUITE"
python benchmark/report.py
