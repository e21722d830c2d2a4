#!/usr/bin/env bash
# ppo_gru_atari.py on Breakout, Pong and BeamRider: 10M steps each, sized for a GPU (about 2.5 hours per run on
# one H100 with 8 envs). On a CPU, pass a smaller budget: STEPS=250000 bash benchmark/atari.sh
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS="${STEPS:-10000000}"
python benchmark/run.py --suite atari --seeds 1 2 3 --workers "${WORKERS:-1}" --extra="--total-timesteps $STEPS" \
  --scripts ppo_gru_atari.py --env-ids Breakout-v5 Pong-v5 BeamRider-v5
python benchmark/plot.py --suite atari
