"""Steps per second of ppo_gru_atari.py on one GPU machine, Breakout, beside CleanRL's ppo_atari_lstm.py run on the
same GPU in the same invocation (results/atari_gpu_fp32/speed.json; `bash benchmark/atari_gpu.sh speed` runs it; the runs
of before TF32 was turned off are in results/atari_gpu_scale).

    python benchmark/atari_gpu_speed.py --steps 65536

Each contender's log is kept under results/atari_gpu_fp32/logs, and our runs' folders under events/ with their
largest first-minibatch ratio error in the table (the replay of the rollout: 0 up to float32 rounding). Both scripts
print a cumulative steps-per-second figure after every update; the table gives it at the end of the run and, from the
same lines, the rate over the second half of the updates alone, which leaves out the start (CUDA context, cuDNN's
first calls, env creation).
CleanRL's file is the cleanrl 1.2.0 wheel's, which benchmark/speed.py fetches (`--task atari`); where it is not there,
its row is left out and the output says so.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

import speed
import tyro

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "benchmark", "results", "atari_gpu_fp32")
CLEANRL = os.path.join(ROOT, "benchmark", ".cache", "cleanrl", "ppo_atari_lstm.py")
RECIPE = ["--num-envs", "32", "--num-minibatches", "8"]
OURS = {  # name: flags of ppo_gru_atari.py
    "ppo_gru_atari.py, CleanRL's settings (8 envs, 4 minibatches)": [],
    "ppo_gru_atari.py, the recipe (32 envs, 8 minibatches)": RECIPE,
    "ppo_gru_atari.py, the recipe, --env-groups 1 (no overlap)": [*RECIPE, "--env-groups", "1"],
    "ppo_gru_atari.py, the recipe, --amp": [*RECIPE, "--amp"],
}
CLEANRL_NAME = "CleanRL ppo_atari_lstm.py (8 envs, 4 minibatches, cuda)"
CLEANRL_BATCH = 8 * 128  # its defaults: 8 envs x 128 steps per update


@dataclass
class Args:
    steps: int = 65_536
    """environment steps per run of ppo_gru_atari.py (CleanRL's runs half as many: its envs step one at a time)"""
    seed: int = 1


def progress(log: str) -> list[tuple[int, float]]:
    """(global step, seconds since the start) after every update, from the cumulative steps per second that
    ppo_gru_atari.py (`update i/n  global_step S  SPS X`) or CleanRL (`SPS: X`, one line per update of 1,024 steps)
    print."""
    ours = re.findall(r"global_step (\d+)\s+SPS (\d+)", log)
    pairs = [(int(s), int(x)) for s, x in ours] or [
        ((k + 1) * CLEANRL_BATCH, int(x)) for k, x in enumerate(re.findall(r"^SPS: (\d+)", log, re.M))
    ]
    return [(step, step / sps) for step, sps in pairs if sps > 0]


def rates(log: str) -> dict:
    """The cumulative rate at the last update and the rate over the second half of the updates."""
    points = progress(log)
    if len(points) < 2:
        return {"updates": len(points)}
    (s0, t0), (s1, t1) = points[(len(points) - 1) // 2], points[-1]
    return {"updates": len(points), "global_step": s1, "sps": round(s1 / t1), "sps_second_half": round((s1 - s0) / (t1 - t0))}


def first_ratio_error_max(run_dir: str) -> float:
    """The largest first-minibatch ratio error (|ratio - 1| before any optimiser step of an update) a run logged."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(run_dir, size_guidance={"scalars": 0})
    events.Reload()
    return max(e.value for e in events.Scalars("losses/first_ratio_error"))


def keep_run(name: str) -> dict:
    """Copies the latest run folder of `--exp-name name` (events and summary.json) to results/atari_gpu_fp32/events/name
    and returns its largest first-minibatch ratio error."""
    run_dir = max(glob.glob(os.path.join(ROOT, "runs", f"Breakout-v5__{name}__*")), key=os.path.getmtime)  # this run's
    shutil.copytree(run_dir, os.path.join(OUT, "events", name), dirs_exist_ok=True)
    return {"first_ratio_error_max": float(f"{first_ratio_error_max(run_dir):.3g}")}


def run(argv: list[str], log_name: str, env: dict | None = None) -> str:
    out = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env)
    os.makedirs(os.path.join(OUT, "logs"), exist_ok=True)
    with open(os.path.join(OUT, "logs", log_name), "w") as f:
        f.write(out.stdout + out.stderr)
    if out.returncode != 0:
        print(f"{log_name}: exit code {out.returncode}\n{out.stderr[-2000:]}", flush=True)
    return out.stdout


def machine() -> dict:
    """speed.py's record of the machine (CPU model and what tells CPUs of one name apart), with the GPU."""
    import torch

    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    return {"gpu": gpu, **speed.machine(), "cores": len(os.sched_getaffinity(0)), "threads": "each script's own defaults"}


def main(args: Args) -> None:
    result = {"machine": machine(), "command": "python benchmark/atari_gpu_speed.py " + " ".join(sys.argv[1:]), "runs": []}
    common = ["--env-id", "Breakout-v5", "--seed", str(args.seed), "--total-timesteps", str(args.steps)]
    common += ["--eval-episodes", "0"]
    for i, (name, flags) in enumerate(OURS.items()):
        stdout = run([sys.executable, "ppo_gru_atari.py", *common, *flags, "--exp-name", f"speed{i}"], f"ours_{i}.log")
        result["runs"].append({"contender": name, "flags": " ".join(flags), **rates(stdout), **keep_run(f"speed{i}")})
        print(result["runs"][-1], flush=True)
    if os.path.exists(CLEANRL):
        path = [os.path.join(ROOT, "benchmark", "legacy_gym"), os.environ.get("PYTHONPATH", "")]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, path))}
        argv = [sys.executable, CLEANRL, "--seed", str(args.seed), "--total-timesteps", str(args.steps // 2), "--cuda", "True"]
        result["runs"].append({"contender": CLEANRL_NAME, "flags": "", **rates(run(argv, "cleanrl.log", env))})
        print(result["runs"][-1], flush=True)
    else:
        print(f"CleanRL's file is not at {CLEANRL} (python benchmark/speed.py --task atari fetches it): row left out")
    with open(os.path.join(OUT, "speed.json"), "w") as f:
        json.dump(result, f, indent=2)


if __name__ == "__main__":
    main(tyro.cli(Args))
