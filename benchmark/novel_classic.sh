#!/usr/bin/env bash
# Masked-velocity CartPole and the memory task: LSTM against the MLP baseline, 10 seeds, 100k steps.
set -euo pipefail
cd "$(dirname "$0")/.."
python benchmark/run.py --suite novel_classic --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 \
  --scripts ppo_lstm.py ppo_mlp_cartpole.py "ppo_mlp_cartpole.py --frame-stack 4" --env-ids CartPoleNoVel-v1
# the MLP on the fully observed CartPole-v1: how many steps the same PPO recipe needs when nothing is hidden
python benchmark/run.py --suite novel_classic --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 \
  --scripts ppo_mlp_cartpole.py --env-ids CartPole-v1
python benchmark/run.py --suite novel_classic --seeds 1 2 3 4 5 --workers 2 --extra="--total-timesteps 50000" \
  --scripts ppo_lstm.py ppo_mlp_cartpole.py --env-ids CueRecall-v0
# ppo_lstm.py beside sb3-contrib's RecurrentPPO (the zoo's settings) on CartPoleNoVel-v1, seeds 1-10 (needs benchmark/requirements.txt)
python benchmark/peer_reach.py
python benchmark/plot.py --suite novel_classic
python benchmark/report.py
