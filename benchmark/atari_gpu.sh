#!/usr/bin/env bash
# ppo_gru_atari.py's throughput recipe for one GPU machine (written for an H100 with 16 cores), Breakout-v5.
#
#   bash benchmark/atari_gpu.sh speed    # 5 short runs: steps per second of CleanRL's settings, the recipe, 2 ranks
#   bash benchmark/atari_gpu.sh train    # 10M steps with the recipe, resumable: run it again to continue
#
# The recipe against CleanRL's ppo_atari_lstm.py settings (8 envs x 128 steps, 4 minibatches, 4 epochs), and why:
#   --num-envs 32         an inference of 16 frames (one of the two env groups) costs the GPU about what one of 4
#                         costs, and 32 envs keep envpool's threads (one per core by default) busy; 4x the data per
#                         rollout for about the same number of GPU calls
#   --num-minibatches 8   4 envs (512 frames) per minibatch: twice CleanRL's 256, still well under what one GPU
#                         call fills, with 8 optimiser steps per epoch so that the larger rollout is not fewer steps
#   --update-epochs 4, --learning-rate 2.5e-4, --num-steps 128: CleanRL's, so that only the batch shape changes
#   --env-groups 2        (the default) envpool steps one half of the envs while the GPU infers the other half
# Not measured yet: no GPU was available when it was written. The figures to fill in are the steps per second of
# the three speed runs and the 10M-step evaluation against CleanRL's 128.9 +- 31.1.
set -euo pipefail
cd "$(dirname "$0")/.."
RECIPE="--num-envs 32 --num-minibatches 8"
OUT=benchmark/results/atari_gpu_scale
mkdir -p "$OUT"
case "${1:-speed}" in
  speed)
    for flags in "" "$RECIPE" "$RECIPE --env-groups 1" "$RECIPE --amp"; do
      python ppo_gru_atari.py --env-id Breakout-v5 --total-timesteps 409600 --eval-episodes 0 $flags \
        --exp-name "speed$(echo "$flags" | tr -d ' -')" | tail -1
    done
    # two ranks sharing the one GPU, 16 envs each: the same 32 envs in all, the gradients averaged over the ranks
    torchrun --standalone --nproc-per-node 2 ppo_gru_atari.py --env-id Breakout-v5 --total-timesteps 409600 \
      --eval-episodes 0 --num-envs 16 --num-minibatches 8 --exp-name speed_2ranks | tail -1
    mkdir -p "$OUT/runs" && cp -r runs/Breakout-v5__speed* "$OUT/runs/"
    ;;
  train)
    last=$(ls -t runs/Breakout-v5__recipe__1__*/recipe.pt 2>/dev/null | head -1 || true)
    python ppo_gru_atari.py --env-id Breakout-v5 --seed 1 $RECIPE --exp-name recipe --save-model \
      ${last:+--resume "$last"}
    ;;
esac
