#!/usr/bin/env bash
# ppo_lstm_continuous.py on PendulumNoVel-v1, seeds 1-10, with an entropy bonus of 0.01 (--ent-coef 0.01) and
# without it (the defaults before), in one run on one machine: at 150k steps (its default budget) and at 100k (the
# peer comparison's budget); then the same two on MountainCarContinuousNoVel-v0 with the flags of its learning test.
# On tuning seeds 11-26 the bonus kept the policy exploring after the swing-up was found: without it the log-std falls
# to about -1.4 by 150k and the evaluation at 150k came out below the one at 100k.
# The rows ran before --final-gamma and --norm-obs-until were added; --final-gamma None (the discount constant at
# --gamma), --norm-obs-until 1 --no-shared-lstm (the observation statistics updated to the end) and --no-shared-lstm (the critic's
# own LSTM, the default before 2026-11-29) and --train-time-limit 1 (whole training episodes, the default before
# 2026-11-30) run them as they ran.
set -euo pipefail
cd "$(dirname "$0")/.."
SUITE="${SUITE:-ent_coef}"
python benchmark/run.py --suite "$SUITE" --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 --extra="--final-gamma None --norm-obs-until 1 --no-shared-lstm --train-time-limit 1" \
  --scripts "ppo_lstm_continuous.py --ent-coef 0" "ppo_lstm_continuous.py --ent-coef 0.01" --env-ids PendulumNoVel-v1
python benchmark/run.py --suite "${SUITE}_100k" --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 --extra="--total-timesteps 100000 --final-gamma None --norm-obs-until 1 --no-shared-lstm --train-time-limit 1" \
  --scripts "ppo_lstm_continuous.py --ent-coef 0" "ppo_lstm_continuous.py --ent-coef 0.01" --env-ids PendulumNoVel-v1
python benchmark/run.py --suite "$SUITE" --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 \
  --extra="--total-timesteps 100000 --noise-corr 0.95 --init-logstd 0 --gamma 0.99 --norm-obs-until 1 --no-shared-lstm --train-time-limit 1" \
  --scripts "ppo_lstm_continuous.py --ent-coef 0" "ppo_lstm_continuous.py --ent-coef 0.01" --env-ids MountainCarContinuousNoVel-v0
python benchmark/plot.py --suite "$SUITE"
python benchmark/plot.py --suite "${SUITE}_100k"
python benchmark/report.py
