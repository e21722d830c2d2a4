"""Started by torchrun from test_atari.py: ppo_gru_atari.py's main on this rank, recording the seed its envs get, the
weights after every update, the values of every rollout, the number of optimiser steps and every tensor the script
all-reduces (before and after), saved as rank{RANK}.pt in the working folder."""

import os
import sys

import torch
import tyro
from torch.optim.optimizer import register_optimizer_step_post_hook

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import ppo_gru_atari as module  # noqa: E402

weights, values, env_seeds = [], [], []
training_state, compute_gae, make_envs = module.training_state, module.compute_gae, module.make_envs


def record_weights(agent, *args):
    weights.append(torch.cat([p.detach().flatten() for p in agent.parameters()]))
    return training_state(agent, *args)


def record_values(rewards, rollout_values, *args):
    values.append(rollout_values.clone())
    return compute_gae(rewards, rollout_values, *args)


def record_seed(args, backend, num_envs, seed, *rest, **kwargs):
    env_seeds.append(seed)
    return make_envs(args, backend, num_envs, seed, *rest, **kwargs)


reductions, all_reduce = [], module.dist.all_reduce


def record_all_reduce(tensor, *args, **kwargs):  # the script's own calls (DistributedDataParallel reduces in C++)
    before = tensor.detach().clone()
    work = all_reduce(tensor, *args, **kwargs)
    reductions.append((before, tensor.detach().clone()))
    return work


optimizer_steps = []
register_optimizer_step_post_hook(lambda *args: optimizer_steps.append(1))
module.training_state, module.compute_gae, module.make_envs = record_weights, record_values, record_seed
module.dist = type("RecordedDist", (), {"__getattr__": lambda self, name: getattr(torch.distributed, name),
                                        "all_reduce": staticmethod(record_all_reduce)})()  # fmt: skip
module.main(tyro.cli(module.Args))
torch.save({"weights": weights, "values": values, "env_seeds": env_seeds, "optimizer_steps": len(optimizer_steps),
            "reductions": reductions}, f"rank{os.environ['RANK']}.pt")  # fmt: skip
