#!/usr/bin/env bash
# ppo_lstm.py on CartPoleNoVel-v1 at 100k steps, seeds 1-10, with the observation statistics updated to the end
# (--norm-obs-until 1, the default before) and frozen halfway through training (--norm-obs-until 0.5, the default
# since), in one run on one machine; then the same two on the memory
# tasks of the learning tests at 50k steps. Late in a run the statistics still move (the cart wanders further once
# episodes last 500 steps) while the learning rate and clip range anneal towards 0, and a policy that had reached 500
# can lose it: evaluated with the statistics of 10k-20k steps before the end, the final weights of the runs that ended
# low (seeds 4 and 8 on an Intel Xeon, and tuning seed 11) scored 500 again.
set -euo pipefail
cd "$(dirname "$0")/.."
SUITE="${SUITE:-norm_obs_until}"
python benchmark/run.py --suite "$SUITE" --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 \
  --scripts "ppo_lstm.py --norm-obs-until 1" "ppo_lstm.py --norm-obs-until 0.5" --env-ids CartPoleNoVel-v1
# the memory tasks of the learning tests, at their budgets: does freezing cost anything there?
python benchmark/run.py --suite "$SUITE" --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 --extra="--total-timesteps 50000 --eval-episodes 50" \
  --scripts "ppo_lstm.py --norm-obs-until 1" "ppo_lstm.py --norm-obs-until 0.5" --env-ids CueRecall-v0 MaskedCueRecall-v0
python benchmark/plot.py --suite "$SUITE"
python benchmark/report.py
