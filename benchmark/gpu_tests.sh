#!/usr/bin/env bash
# The test suite on a machine with a GPU, where the scripts train on it: every test but the benchmark's own and the
# learning tests (those train on the CPU, as their rows did). Extra arguments go to pytest.
#
#   bash benchmark/gpu_tests.sh                        # 14 workers, one torch thread each
#   WORKERS=6 bash benchmark/gpu_tests.sh -k lstm
#
# One torch thread per worker: 12 workers with torch's threads on each of 16 cores ran past 400 s without finishing
# (results/gpu_tests/pytest_h200_run1.txt); with one thread, 14 workers took 77 s.
set -euo pipefail
cd "$(dirname "$0")/.."
OMP_NUM_THREADS=1 python -m pytest tests -n "${WORKERS:-14}" -p no:cacheprovider \
  --ignore tests/test_benchmark.py --ignore tests/test_learning.py -rf --durations 15 "$@"
