#!/usr/bin/env bash
# ppo_lstm_continuous.py on the masked-velocity continuous-control envs (defaults: 150k steps).
# BipedalWalker-v3 with the reward floor runs only when asked: BIPEDAL=1 bash benchmark/continuous.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# Every row passes the settings of then that differ from the defaults of now, so that these commands give the
# committed rows: the entropy coefficient 0 (0.01 since benchmark/ent_coef.sh's tuning, 0.02 since 2026-12-01), the observation statistics
# updated to the end (--norm-obs-until 1 --no-shared-lstm; 0.3 since 2026-11-28) and, on PendulumNoVel-v1, the discount constant
# (--final-gamma None; rising to 0.98 since then), and the critic's own LSTM (--no-shared-lstm; one LSTM for actor
# and critic since 2026-11-29), and whole training episodes (--train-time-limit 1; half the env's time limit since
# 2026-11-30). The defaults of now have their PendulumNoVel-v1 rows in pendulum_ent_coef_002_epyc_arithmetic,
# pendulum_ent_coef_002_xeon_arithmetic and pendulum_ent_coef_002_epyc_avx2_arithmetic.
python benchmark/run.py --suite continuous --seeds 1 2 3 4 5 6 7 8 9 10 --workers 2 \
  --extra="--ent-coef 0 --final-gamma None --norm-obs-until 1 --no-shared-lstm --train-time-limit 1" --scripts ppo_lstm_continuous.py --env-ids PendulumNoVel-v1
python benchmark/run.py --suite continuous --seeds 1 2 3 --workers 2 --extra="--total-timesteps 300000 --ent-coef 0 --noise-corr 0.95 --init-logstd 0 --gamma 0.99 --norm-obs-until 1 --no-shared-lstm --train-time-limit 1" \
  --scripts ppo_lstm_continuous.py --env-ids MountainCarContinuousNoVel-v0
# LunarLander and BipedalWalker pass the clip range they ran with (0.2, the default until PendulumNoVel-v1's tuning
# set 0.1), so that these commands give the committed rows.
# LunarLander, rl-baselines3-zoo's batch shape (16 envs x 1024 steps, 4 epochs) with 256-step minibatches;
# 3M steps take about 25 min per seed on one CPU core. The checkpoints are evaluated again with noise added
# (benchmark/eval_noise.py): the deterministic evaluation is far below the stochastic policy there.
python benchmark/run.py --suite continuous --seeds 1 2 --workers 2 \
  --extra="--total-timesteps 3000000 --ent-coef 0 --num-envs 16 --num-steps 1024 --gamma 0.999 --gae-lambda 0.98 --update-epochs 4 --learning-rate 3e-4 --clip-coef 0.2 --seq-len 32 --num-minibatches 64 --init-logstd -1 --noise-corr 0 --norm-obs-until 1 --no-shared-lstm --train-time-limit 1 --save-model" \
  --scripts ppo_lstm_continuous.py --env-ids LunarLanderContinuousNoVel-v3
# the same with the log-std held on a schedule (--final-logstd): from -1 down to -3 (or -2) at 3M steps, so that the
# policy at the end acts as its mean does
python benchmark/run.py --suite continuous --seeds 1 2 --workers 2 \
  --extra="--total-timesteps 3000000 --ent-coef 0 --num-envs 16 --num-steps 1024 --gamma 0.999 --gae-lambda 0.98 --update-epochs 4 --learning-rate 3e-4 --clip-coef 0.2 --seq-len 32 --num-minibatches 64 --init-logstd -1 --noise-corr 0 --norm-obs-until 1 --no-shared-lstm --train-time-limit 1 --save-model" \
  --scripts "ppo_lstm_continuous.py --final-logstd -3" "ppo_lstm_continuous.py --final-logstd -2" --env-ids LunarLanderContinuousNoVel-v3
# the same with slow exploration noise (--noise-corr 0.95: each step's noise keeps 95% of the last one's): noise that
# changes every step throttles the engine for the policy as trained, noise that drifts does not, so the mean itself
# has to land (the extra flags come after the script's, so they leave --noise-corr to it)
python benchmark/run.py --suite continuous --seeds 1 2 --workers 2 \
  --extra="--total-timesteps 3000000 --ent-coef 0 --num-envs 16 --num-steps 1024 --gamma 0.999 --gae-lambda 0.98 --update-epochs 4 --learning-rate 3e-4 --clip-coef 0.2 --seq-len 32 --num-minibatches 64 --init-logstd -1 --norm-obs-until 1 --no-shared-lstm --train-time-limit 1 --save-model" \
  --scripts "ppo_lstm_continuous.py --noise-corr 0.95" --env-ids LunarLanderContinuousNoVel-v3
# each seed's checkpoint evaluated again with a share of its noise added: the rows with independent noise, then the
# rows with --noise-corr 0.95
python benchmark/eval_noise.py --checkpoints benchmark/results/continuous/runs/runs/LunarLanderContinuousNoVel-v3__ppo_lstm_continuous__[12]__*/*.pt
python benchmark/eval_noise.py --out benchmark/results/eval_noise_corr.json \
  --checkpoints benchmark/results/continuous/runs/runs/LunarLanderContinuousNoVel-v3__ppo_lstm_continuous__noise_corr_0.95__*/*.pt
# BipedalWalker-v3 with the reward floor, 16 envs x 1024 steps, 10 epochs of 32 minibatches (16 chunks of 32 steps
# each): 5M steps take about 95 min on one CPU core, so it runs only when asked (BIPEDAL=1), and for one seed
if [ "${BIPEDAL:-0}" = 1 ]; then
  python benchmark/run.py --suite continuous --seeds 1 --workers 1 \
    --extra="--total-timesteps 5000000 --ent-coef 0 --num-envs 16 --num-steps 1024 --gamma 0.99 --gae-lambda 0.95 --update-epochs 10 --learning-rate 3e-4 --clip-coef 0.2 --seq-len 32 --num-minibatches 32 --reward-floor -1 --noise-corr 0 --norm-obs-until 1 --no-shared-lstm --train-time-limit 1 --save-model" \
    --scripts ppo_lstm_continuous.py --env-ids BipedalWalker-v3
fi
python benchmark/plot.py --suite continuous
