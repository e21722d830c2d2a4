#!/usr/bin/env bash
# ppo_gru_atari.py on Breakout, Pong and BeamRider: 10M steps each, sized for a GPU (about 2.5 hours per run on
# one H100 with 8 envs). On a CPU, pass a smaller budget and fewer runs; the CPU curve in the README came from
#   SUITE=atari_cpu STEPS=250000 SEEDS=1 ENV_IDS=Breakout-v5 EVAL=5 bash benchmark/atari.sh   (about 40 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
SUITE="${SUITE:-atari}"
python benchmark/run.py --suite "$SUITE" --seeds ${SEEDS:-1 2 3} --workers "${WORKERS:-1}" \
  --extra="--total-timesteps ${STEPS:-10000000} --eval-episodes ${EVAL:-10}" \
  --scripts ppo_gru_atari.py --env-ids ${ENV_IDS:-Breakout-v5 Pong-v5 BeamRider-v5}
python benchmark/plot.py --suite "$SUITE"
