#!/usr/bin/env bash
# ppo_lstm_continuous.py on the masked-velocity continuous-control envs (defaults: 150k steps).
# BipedalWalker-v3 with the reward floor runs only when asked: BIPEDAL=1 bash benchmark/continuous.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python benchmark/run.py --suite continuous --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 \
  --scripts ppo_lstm_continuous.py --env-ids PendulumNoVel-v1
python benchmark/run.py --suite continuous --seeds 1 2 3 --workers 2 --extra="--total-timesteps 300000 --noise-corr 0.95 --init-logstd 0 --gamma 0.99" \
  --scripts ppo_lstm_continuous.py --env-ids MountainCarContinuousNoVel-v0
# LunarLander: 3M steps take about an hour per seed on one CPU core, so one seed
python benchmark/run.py --suite continuous --seeds 1 --workers 1 \
  --extra="--total-timesteps 3000000 --gamma 0.99 --learning-rate 3e-4 --init-logstd 0" \
  --scripts ppo_lstm_continuous.py --env-ids LunarLanderContinuousNoVel-v3
if [ "${BIPEDAL:-0}" = 1 ]; then
  python benchmark/run.py --suite continuous --seeds 1 2 3 --workers 2 \
    --extra="--total-timesteps 5000000 --gamma 0.99 --reward-floor -1" --scripts ppo_lstm_continuous.py --env-ids BipedalWalker-v3
fi
python benchmark/plot.py --suite continuous
