#!/usr/bin/env bash
# ppo_mlp_cartpole.py on the fully observed CartPole-v1, 10 seeds at 100k steps: its defaults beside the settings that
# rl-baselines3-zoo's PPO recipe for CartPole-v1 leaves to SB3's defaults (no observation or reward normalisation, no
# value clipping); the same batch shape, epochs, gamma, lambda and annealed learning rate and clip range in both.
set -euo pipefail
cd "$(dirname "$0")/.."
python benchmark/run.py --suite mlp_cartpole --seeds 1 2 3 4 5 6 7 8 9 10 --workers "${WORKERS:-2}" --env-ids CartPole-v1 \
  --scripts ppo_mlp_cartpole.py "ppo_mlp_cartpole.py --no-norm-obs --no-norm-reward --no-clip-vloss"
python benchmark/plot.py --suite mlp_cartpole
