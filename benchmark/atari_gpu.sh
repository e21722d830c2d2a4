#!/usr/bin/env bash
# ppo_gru_atari.py's throughput recipe for one GPU machine (written for an H100 with 16 cores), Breakout-v5.
#
#   bash benchmark/atari_gpu.sh speed    # steps per second: CleanRL's settings, the recipe, and CleanRL's own script
#   bash benchmark/atari_gpu.sh train    # 10M steps with the recipe, resumable: run it again to continue
#   bash benchmark/atari_gpu.sh test     # the Atari tests on the GPU
#
# The recipe against CleanRL's ppo_atari_lstm.py settings (8 envs x 128 steps, 4 minibatches, 4 epochs), and why:
#   --num-envs 32         an inference of 16 frames (one of the two env groups) costs the GPU about what one of 4
#                         costs, and 32 envs keep envpool's threads (one per core by default) busy; 4x the data per
#                         rollout for about the same number of GPU calls
#   --num-minibatches 8   4 envs (512 frames) per minibatch: twice CleanRL's 256, still well under what one GPU
#                         call fills, with 8 optimiser steps per epoch so that the larger rollout is not fewer steps
#   --update-epochs 4, --learning-rate 2.5e-4, --num-steps 128: CleanRL's, so that only the batch shape changes
#   --env-groups 2        (the default) envpool steps one half of the envs while the GPU infers the other half; on
#                         an H200 one group was faster with TF32 on (3,685 against 3,336 steps/s), on another, in
#                         full float32, two were (4,811 against 4,292); one short run each (README)
# Several ranks need a GPU each (NCCL refuses two ranks on one GPU): on one GPU, one rank.
set -euo pipefail
cd "$(dirname "$0")/.."
RECIPE="--num-envs 32 --num-minibatches 8"
case "${1:-speed}" in
  speed)  # benchmark/atari_gpu_speed.py: each run's log and the table in results/atari_gpu_fp32
    python benchmark/atari_gpu_speed.py --steps "${STEPS:-65536}"
    ;;
  test)  # with the suite's 2 workers: 8 or 12, each with torch's threads on every core, ran past their time limits
    python -m pytest tests/test_atari.py --durations 20
    ;;
  train)
    last=$(ls -t runs/Breakout-v5__recipe__1__*/recipe.pt 2>/dev/null | head -1 || true)
    python ppo_gru_atari.py --env-id Breakout-v5 --seed 1 $RECIPE --exp-name recipe --save-model \
      ${last:+--resume "$last"}
    ;;
esac
