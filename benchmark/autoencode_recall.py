"""How far back a ppo_lstm.py policy recalls on POPGym's AutoencodeEasy: the share of the play phase's steps on which
it names the right card, step by step. The first card to name is the last one shown, which a policy without memory can
name too; each later one was shown two steps further back. The episodes are those of ppo_lstm.py's own evaluation
(its function, the checkpoint's seed), so the first 10 are the evaluation of the run that wrote the checkpoint.

    python ppo_lstm.py --env-id popgym:popgym-AutoencodeEasy-v0 --save-model ...   # writes runs/<run>/ppo_lstm.pt
    python benchmark/autoencode_recall.py --checkpoints runs/*/ppo_lstm.pt --out autoencode_recall.json
"""

import json
import os
import statistics
import sys
from dataclasses import dataclass, field

import gymnasium as gym
import torch
import tyro

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from speed import machine  # noqa: E402

import ppo_lstm  # noqa: E402

ENV_ID = "popgym:popgym-AutoencodeEasy-v0"


@dataclass
class Args:
    checkpoints: list[str] = field(default_factory=list)
    """ppo_lstm.py checkpoints trained on AutoencodeEasy"""
    episodes: int = 200
    """evaluation episodes per checkpoint"""
    out: str = ""
    """results file under benchmark/results (default: none, the table printed only)"""


def recall(path: str, episodes: int) -> dict:
    """One checkpoint's deterministic evaluation over `episodes` episodes: each episode's return, and per step of the
    play phase the share of episodes that named the right card there (POPGym pays +1/52 for it, -1/52 otherwise)."""
    checkpoint = ppo_lstm.load_checkpoint(path, ENV_ID)
    args = ppo_lstm.Args(env_id=ENV_ID, seed=checkpoint["args"]["seed"], eval_episodes=episodes)
    ppo_lstm.take_args_from_checkpoint(args, checkpoint)
    envs = gym.vector.SyncVectorEnv([ppo_lstm.make_env(ENV_ID)])
    agent = ppo_lstm.Agent(envs, args)
    agent.load_state_dict(checkpoint["model"])
    obs_rms = ppo_lstm.RunningMeanStd(envs.single_observation_space.shape, ppo_lstm.check_env(args))
    obs_rms.__dict__.update(checkpoint["obs_rms"])
    paid = []  # per episode, the rewards of its play phase in order

    class Paid(gym.Wrapper):
        def reset(self, **kwargs):
            paid.append([])
            return self.env.reset(**kwargs)

        def step(self, action):
            obs, reward, terminated, truncated, info = self.env.step(action)
            if reward != 0:  # the watch phase pays nothing
                paid[-1].append(reward)
            return obs, reward, terminated, truncated, info

    recorded = "AutoencodeEasy-Paid-v0"  # the env ppo_lstm.evaluate makes, recording what each step paid
    if recorded in gym.registry:
        del gym.registry[recorded]
    gym.register(recorded, entry_point=lambda **kwargs: Paid(gym.make(ENV_ID, **kwargs)))
    args.env_id = recorded
    with torch.no_grad():
        returns = ppo_lstm.evaluate(agent, args, torch.device("cpu"), "recall", obs_rms, masked=False)
    right = [statistics.mean(rewards[k] > 0 for rewards in paid) for k in range(len(paid[0]))]
    return {"checkpoint": path, "seed": args.seed, "episodes": episodes, "returns": returns, "right_by_step": right}


def main(args: Args) -> None:
    torch.set_num_threads(1)
    runs = [recall(path, args.episodes) for path in args.checkpoints]
    for run in runs:
        right = run["right_by_step"]
        print(f"{run['checkpoint']} (seed {run['seed']}): mean return {statistics.mean(run['returns']):.3f}; right by "
              f"step of the play phase: {' '.join(f'{r:.2f}' for r in right[:8])}, steps 9-52 together "
              f"{statistics.mean(right[8:]):.2f}")  # fmt: skip
    if args.out:
        result = {"command": "python benchmark/autoencode_recall.py " + " ".join(sys.argv[1:]), "machine": machine(),
                  "runs": runs}  # fmt: skip
        with open(os.path.join(HERE, "results", args.out), "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(tyro.cli(Args))
