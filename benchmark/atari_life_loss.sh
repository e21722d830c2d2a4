#!/usr/bin/env bash
# The life-loss comparison that set ppo_gru_atari.py's default (--no-reset-state-on-life-loss), as run on one
# H100 (16 cores): Breakout-v5, envpool, CleanRL's settings, each run stopped by Ctrl-C after 330-420 s (about
# 350k steps); seed 1 ran two at a time with 6 env threads each, seeds 2-3 four at a time with 3 each.
# Logs: benchmark/results/atari_gpu/*.log; `python benchmark/report.py` reads them.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-benchmark/results/atari_gpu}"
for seed in ${SEEDS:-2 3}; do for flag in no-reset-state-on-life-loss reset-state-on-life-loss; do
  timeout -s INT "${DUR:-420}" python ppo_gru_atari.py --seed "$seed" --"$flag" --exp-name "gru_$flag" --env-threads 3 \
    --total-timesteps 10000000 --eval-episodes 0 > "$OUT/${flag}_$seed.log" 2>&1 &
done; done
wait
