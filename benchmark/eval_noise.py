"""Evaluate trained ppo_lstm_continuous.py checkpoints with a share of the policy's own exploration noise added:
scale 0 is the script's deterministic evaluation (the Gaussian's mean), scale 1 samples the policy as training does
(the noise correlated from step to step as the checkpoint's --noise-corr sets it).
A gap between the two shows a policy that relies on its noise, as on LunarLanderContinuous, whose engines
stay off for actions at or below a threshold, so that noise around a mean just past it throttles them.

    python benchmark/eval_noise.py --checkpoints benchmark/results/continuous/runs/runs/LunarLander*/*.pt

writes benchmark/results/eval_noise.json (about a minute per checkpoint)
"""

import importlib.util
import json
import os
import sys
import types
from dataclasses import dataclass, field

import gymnasium as gym
import numpy as np
import torch
import tyro

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass
class Args:
    checkpoints: list[str]
    """checkpoints written by ppo_lstm_continuous.py --save-model"""
    scales: list[float] = field(default_factory=lambda: [0.0, 0.25, 0.5, 1.0])
    """noise scales: the action is mean + scale * std * noise, the noise N(0, 1) at every step"""
    episodes: int = 20
    """episodes per checkpoint and scale, started as the script's evaluation starts them (the same for every scale)"""
    out: str = os.path.join(ROOT, "benchmark", "results", "eval_noise.json")
    """where the rows go"""


def load_script(name: str = "ppo_lstm_continuous"):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_agent(script, path: str) -> tuple:
    """A checkpoint's run arguments, a fresh env of its task, its agent and its frozen observation statistics."""
    checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    args = script.Args(**{k: v for k, v in checkpoint["args"].items() if k in script.Args.__dataclass_fields__})
    env = gym.make(args.env_id)
    spaces = types.SimpleNamespace(single_observation_space=env.observation_space, single_action_space=env.action_space)
    agent = script.Agent(spaces, args)
    agent.load_state_dict(checkpoint["model"])
    obs_rms = script.RunningMeanStd()
    obs_rms.__dict__.update(checkpoint["obs_rms"])
    return args, env, agent, obs_rms


def evaluate(script, path: str, scales: list[float], episodes: int) -> list[dict]:
    args, env, agent, obs_rms = load_agent(script, path)
    rows = []
    for scale in scales:
        generator = torch.Generator().manual_seed(0)
        returns, lengths, truncations = [], [], 0
        for episode in range(episodes):
            obs, _ = env.reset(seed=args.seed + 100_000 if episode == 0 else None)  # the script's evaluation episodes
            state, start, total, steps, ended = agent.get_initial_state(1), torch.ones(1), 0.0, 0, False
            noise = torch.zeros(1, env.action_space.shape[0])
            while not ended:
                x = torch.as_tensor(obs_rms.normalize(obs) if args.norm_obs else obs, dtype=torch.float32).view(1, -1)
                # the checkpoint's own noise process: each step keeps --noise-corr of the last step's, drawn afresh
                # at an episode's first step
                keep = args.noise_corr if steps else 0.0
                noise = keep * noise + (1 - keep**2) ** 0.5 * torch.randn(1, env.action_space.shape[0], generator=generator)
                with torch.no_grad():
                    action, _, _, _, state = agent.get_action_and_value(x, state, start, noise=scale * noise)
                obs, reward, terminated, truncated, _ = env.step(
                    np.clip(action[0].numpy(), env.action_space.low, env.action_space.high)
                )
                total, steps, ended, start = total + float(reward), steps + 1, terminated or truncated, torch.zeros(1)
            returns.append(total)
            lengths.append(steps)
            truncations += bool(truncated)
        rows.append({"checkpoint": os.path.relpath(path, ROOT), "env_id": args.env_id, "seed": args.seed,
                     "noise_scale": scale, "episodes": episodes, "mean_return": float(np.mean(returns)),
                     "median_return": float(np.median(returns)), "mean_length": float(np.mean(lengths)),
                     "time_limit_episodes": truncations})  # fmt: skip
        print(f"{rows[-1]['checkpoint']}  scale {scale}: mean {np.mean(returns):.1f}  median {np.median(returns):.1f}"
              f"  length {np.mean(lengths):.0f}  time-limit episodes {truncations}/{episodes}")  # fmt: skip
    env.close()
    return rows


def main(args: Args) -> None:
    torch.set_num_threads(1)
    script = load_script()
    rows = [row for path in args.checkpoints for row in evaluate(script, path, args.scales, args.episodes)]
    write_results(args.out, "eval_noise.py", rows=rows)


def write_results(path: str, name: str, **results) -> None:
    """A results file of benchmark/`name`: the command that made it, gymnasium's version, and the results."""
    command = " ".join([f"python benchmark/{name}", *sys.argv[1:]])
    with open(path, "w") as f:
        json.dump({"command": command, "gymnasium": gym.__version__, **results}, f, indent=1)
    print(f"written: {path}")


if __name__ == "__main__":
    main(tyro.cli(Args, args=sys.argv[1:]))
