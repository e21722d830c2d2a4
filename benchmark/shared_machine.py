"""ppo_gru_atari.py's training steps per second on this machine, idle and beside one busy process pinned to the last
core, with the update's default threads (the cores less one), with one and with two (the cores of a 2-core machine,
the default before); writes benchmark/results/shared_machine.json.

    python benchmark/shared_machine.py
"""

import glob
import json
import os
import subprocess
import sys
import tempfile

from run import ROOT, commit, machine, save

COMMAND = ["ppo_gru_atari.py", "--env-id", "Breakout-v5", "--total-timesteps", "2048", "--num-envs", "8", "--no-cuda",
           "--eval-episodes", "0"]  # fmt: skip


def steps_per_second(flags: list[str], busy: bool) -> int:
    last = str(max(os.sched_getaffinity(0)))
    neighbour = subprocess.Popen(["taskset", "-c", last, sys.executable, "-c", "while True: pass"]) if busy else None
    try:
        with tempfile.TemporaryDirectory() as folder:
            argv = [sys.executable, os.path.join(ROOT, COMMAND[0]), *COMMAND[1:], *flags]
            subprocess.run(argv, cwd=folder, check=True, capture_output=True)
            (summary,) = glob.glob(os.path.join(folder, "runs", "*", "summary.json"))
            return json.load(open(summary))["sps"]
    finally:
        if neighbour:
            neighbour.kill()


def main() -> None:
    rows, here, where = [], machine(), commit()
    for flags in ([], ["--torch-threads", "1"], ["--torch-threads", "2"]):
        for busy in (False, True):
            sps = steps_per_second(flags, busy)
            rows.append({"contender": COMMAND[0], "env_id": "Breakout-v5", "flags": " ".join(flags), "seed": 1,
                         "machine": here, "commit": where, "command": "python benchmark/shared_machine.py",
                         "busy_neighbour": busy, "sps": sps})  # fmt: skip
            print(f"{' '.join(flags) or 'default threads'}, {'a busy neighbour' if busy else 'idle'}: {sps} steps/s")
    save("shared_machine", rows)


if __name__ == "__main__":
    main()
