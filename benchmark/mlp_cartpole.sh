#!/usr/bin/env bash
# ppo_mlp_cartpole.py, the non-recurrent baseline, 10 seeds at 100k steps. On the fully observed CartPole-v1: its
# defaults (rl-baselines3-zoo's PPO recipe for CartPole-v1, with what the zoo leaves to SB3's defaults: no
# normalisation, no value clipping) beside the normalised, value-clipped variant it defaulted to before. On
# CartPoleNoVel-v1: the memoryless MLP, and the MLP with the last 4 observations stacked, in both settings.
# The recorded rows ran with one minibatch, the default before benchmark/mlp_minibatches.sh (two since): to run
# them again as they ran, add --num-minibatches 1 to each of our commands below.
set -euo pipefail
cd "$(dirname "$0")/.."
python benchmark/run.py --suite mlp_cartpole --seeds 1 2 3 4 5 6 7 8 9 10 --workers "${WORKERS:-2}" --env-ids CartPole-v1 \
  --scripts ppo_mlp_cartpole.py "ppo_mlp_cartpole.py --norm-obs --norm-reward --clip-vloss"
python benchmark/run.py --suite mlp_cartpole --seeds 1 2 3 4 5 6 7 8 9 10 --workers "${WORKERS:-2}" --env-ids CartPoleNoVel-v1 \
  --scripts ppo_mlp_cartpole.py "ppo_mlp_cartpole.py --frame-stack 4" "ppo_mlp_cartpole.py --frame-stack 4 --norm-obs --norm-reward --clip-vloss"
# SB3's PPO with the zoo's CartPole-v1 recipe beside ours, seed by seed (needs benchmark/requirements.txt); the flags
# spell out what are now the defaults, as the recorded run had them
python benchmark/peer_reach.py --task mlp --ours-flags="--no-norm-obs --no-norm-reward --no-clip-vloss"  # = the defaults, as run
python benchmark/plot.py --suite mlp_cartpole
