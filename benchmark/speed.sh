#!/usr/bin/env bash
# Steps per second against sb3-contrib's RecurrentPPO, and fast against per-step training (needs benchmark/requirements.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
python benchmark/speed.py
python benchmark/speed.py --task pendulum
python benchmark/speed.py --task atari --steps 3072
python benchmark/report.py
