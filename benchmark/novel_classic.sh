#!/usr/bin/env bash
# Masked-velocity CartPole and the memory task with the LSTM, 10 seeds at 100k steps (5 at 50k on CueRecall-v0); the
# MLP baseline's rows are in benchmark/mlp_cartpole.sh and benchmark/learning_tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
python benchmark/run.py --suite novel_classic --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 \
  --scripts ppo_lstm.py --env-ids CartPoleNoVel-v1
python benchmark/run.py --suite novel_classic --seeds 1 2 3 4 5 --workers 2 --extra="--total-timesteps 50000" \
  --scripts ppo_lstm.py --env-ids CueRecall-v0
# ppo_lstm.py beside sb3-contrib's RecurrentPPO (the zoo's settings) on CartPoleNoVel-v1, seeds 1-10 (needs benchmark/requirements.txt)
python benchmark/peer_reach.py
python benchmark/plot.py --suite novel_classic
python benchmark/report.py
