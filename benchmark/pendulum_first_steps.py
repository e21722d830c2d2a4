"""The first steps of PendulumNoVel-v1's evaluation episodes: ppo_lstm_continuous.py's torques beside the best policy's.

    python benchmark/arithmetic.py --of epyc -- python benchmark/pendulum_first_steps.py --seed 10 --tag epyc_arithmetic

Trains ppo_lstm_continuous.py with its defaults (and --flags) on one seed (the same run as that seed's row in a
benchmark with the same arithmetic and flags), evaluates it with every step of the evaluation env recorded, and plays
pendulum_optimal.py's best policy (the velocity seen) from each evaluation start. Where a run falls a whole swing short
of the best, the first steps show where it went another way: the first observation has no velocity, the second gives
it.
"""

import json
import os
import shlex
import sys
import tempfile
from dataclasses import dataclass

import numpy as np
import tyro
from gymnasium.envs.classic_control.pendulum import PendulumEnv
from pendulum_optimal import MAX_TORQUE, Grid, best_values, play
from speed import this_cpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import ppo_lstm_continuous as script  # noqa: E402


@dataclass
class Args:
    seed: int = 10
    """the seed trained and evaluated, with ppo_lstm_continuous.py's defaults"""
    flags: str = ""
    """flags of ppo_lstm_continuous.py on top of its defaults (`--ent-coef 0.01`, say; recorded)"""
    steps: int = 20
    """the first steps of each episode kept"""
    tag: str = ""
    """names the results file: pendulum_first_steps_seedSEED[_TAG].json"""


def recorded_evaluation(args: script.Args) -> tuple[dict, list[list[tuple[float, float, float]]]]:
    """ppo_lstm_continuous.py's run of `args`, and per evaluation episode each step's (angle, velocity, torque), the
    torque as the evaluation sends it to the env (clipped to the env's bounds there)."""
    steps, recording = [], [False]
    env_step, evaluate = PendulumEnv.step, script.evaluate

    def step(env, u):
        if recording[0]:
            steps.append((float(env.state[0]), float(env.state[1]), float(u[0])))
        return env_step(env, u)

    def recorded(*a, **kw):  # only the evaluation's steps, not training's
        recording[0] = True
        try:
            return evaluate(*a, **kw)
        finally:
            recording[0] = False

    PendulumEnv.step, script.evaluate = step, recorded
    try:
        summary = script.main(args)
    finally:
        PendulumEnv.step, script.evaluate = env_step, evaluate
    length = len(steps) // args.eval_episodes
    return summary, [steps[i * length:(i + 1) * length] for i in range(args.eval_episodes)]


def main(args: Args) -> dict:
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:  # the run's folder goes with it
        os.chdir(scratch)
        try:
            run_args = tyro.cli(script.Args, args=["--seed", str(args.seed), *shlex.split(args.flags)])
            summary, episodes = recorded_evaluation(run_args)
        finally:
            os.chdir(here)
    grid = Grid(256, 161)
    best = best_values(grid, np.linspace(-MAX_TORQUE, MAX_TORQUE, 41))
    fine = np.linspace(-MAX_TORQUE, MAX_TORQUE, 401)
    rows = []
    for ours, got in zip(episodes, summary["eval_returns"], strict=True):
        trajectory = []
        best_return = play(grid, lambda step, th, thdot: grid(best[step + 1], th, thdot), ours[0][:2], fine,
                           trajectory=trajectory)
        rows.append({"start": ours[0][:2], "return": got, "best_return": best_return,
                     "ours": ours[:args.steps], "best": trajectory[:args.steps]})  # fmt: skip
    cpu, cpu_id = this_cpu()
    result = {
        "command": shlex.join(["python", "benchmark/pendulum_first_steps.py", *sys.argv[1:]]),
        "machine": {"cpu": cpu, "cpu_id": cpu_id},
        "seed": args.seed,
        "flags": args.flags,
        "eval_returns": summary["eval_returns"],
        "episodes": rows,
    }
    name = f"pendulum_first_steps_seed{args.seed}" + (f"_{args.tag}" if args.tag else "") + ".json"
    with open(os.path.join(ROOT, "benchmark", "results", name), "w") as f:
        json.dump(result, f, indent=1)
    for episode, row in enumerate(rows, 1):
        ours, best = (" ".join(f"{u:+.2f}" for _, _, u in row[who][:8]) for who in ("ours", "best"))
        print(f"episode {episode}: {row['return']:.1f} (best {row['best_return']:.1f}); torques, ours {ours}; best {best}")
    return result


if __name__ == "__main__":
    main(tyro.cli(Args))
