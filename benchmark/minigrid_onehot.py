"""MiniGrid-MemoryS7-v0 seen through minigrid's own OneHotPartialObsWrapper: each cell of the 7x7 view as the one-hots
of its object, colour and state (7x7x20 entries of 0 or 1) instead of three integer codes (7x7x3). The env, its
rewards and its episodes are MiniGrid-MemoryS7-v0's; only the observation differs.

    python ppo_lstm.py --env-id benchmark.minigrid_onehot:MiniGrid-MemoryS7-OneHot-v0    # from the repository root

Why: with the integer codes, a key (5) and a ball (6) differ by one unit of one input among 151, and ppo_lstm.py
learned no better than walking to a random object; the one-hots make each object its own input.
"""

import gymnasium as gym
from minigrid.envs import MemoryEnv
from minigrid.wrappers import OneHotPartialObsWrapper


def make_memory_s7_one_hot(**kwargs) -> gym.Env:
    return OneHotPartialObsWrapper(MemoryEnv(**{"size": 7, **kwargs}))  # size 7: MiniGrid-MemoryS7-v0's own kwargs


gym.register("MiniGrid-MemoryS7-OneHot-v0", entry_point=make_memory_s7_one_hot)
