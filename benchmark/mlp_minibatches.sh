#!/usr/bin/env bash
# ppo_mlp_cartpole.py with two minibatches per epoch (its default since this run) on the rows its learning tests rest
# on, 10 seeds: CartPole-v1 at 100k steps beside one minibatch (the zoo's, the default before), CartPoleNoVel-v1 at
# 100k (memoryless, and with the last 4 observations stacked) and CueRecall-v0 at 50k (50 evaluation episodes).
# SUITE names the results folder (default: mlp_minibatches). SB3's PPO beside the default, seed by seed:
#   python benchmark/peer_reach.py --task mlp --tag TAG --workers 2 --ours-flags="--num-minibatches 2"
set -euo pipefail
cd "$(dirname "$0")/.."
SUITE="${SUITE:-mlp_minibatches}"
run() { python benchmark/run.py --suite "$SUITE" --seeds 1 2 3 4 5 6 7 8 9 10 --workers "${WORKERS:-2}" "$@"; }
run --env-ids CartPole-v1 --scripts ppo_mlp_cartpole.py "ppo_mlp_cartpole.py --num-minibatches 1"
run --env-ids CartPoleNoVel-v1 --scripts ppo_mlp_cartpole.py "ppo_mlp_cartpole.py --frame-stack 4"
run --extra="--total-timesteps 50000 --eval-episodes 50" --scripts ppo_mlp_cartpole.py --env-ids CueRecall-v0
python benchmark/plot.py --suite "$SUITE"
