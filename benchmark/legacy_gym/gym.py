"""A stand-in for the old `gym` package (0.23 API) on top of gymnasium 1.x, so that CleanRL's ppo_atari_lstm.py
(cleanrl 1.2.0, written for gym 0.23 and Python < 3.10) runs unchanged in the speed benchmark.

Only what that script touches is here: `make`, the wrappers it names, `spaces`, and a `vector.SyncVectorEnv`
with old gym's semantics (reset returns the observations; step returns obs, reward, done, a tuple of per-env
info dicts, and resets a finished env in the same step). The environment work (ALE, SB3's Atari wrappers,
resizing) is the real one, so the steps per second it gives are CleanRL's own.
"""

from types import SimpleNamespace

import ale_py
import gymnasium
import numpy as np

gymnasium.register_envs(ale_py)
spaces = gymnasium.spaces


def make(env_id: str) -> gymnasium.Env:
    return gymnasium.make(env_id)


class LegacyEnv:
    """The outermost wrapper: reset -> obs, step -> (obs, reward, done, info), and a seed() for the next reset."""

    def __init__(self, env: gymnasium.Env):
        self.env, self.next_seed = env, None
        self.observation_space, self.action_space = env.observation_space, env.action_space

    def seed(self, seed: int) -> None:
        self.next_seed = seed

    def reset(self) -> np.ndarray:
        obs, _ = self.env.reset(seed=self.next_seed)
        self.next_seed = None
        return obs

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated or truncated, info


def frame_stack(env: gymnasium.Env, num_stack: int) -> LegacyEnv:
    return LegacyEnv(gymnasium.wrappers.FrameStackObservation(env, num_stack))


wrappers = SimpleNamespace(
    RecordEpisodeStatistics=gymnasium.wrappers.RecordEpisodeStatistics,
    RecordVideo=gymnasium.wrappers.RecordVideo,
    ResizeObservation=gymnasium.wrappers.ResizeObservation,
    GrayScaleObservation=gymnasium.wrappers.GrayscaleObservation,
    FrameStack=frame_stack,
)


class SyncVectorEnv:
    def __init__(self, env_fns):
        self.envs = [fn() for fn in env_fns]
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space

    def reset(self) -> np.ndarray:
        return np.stack([env.reset() for env in self.envs])

    def step(self, actions):
        results = []
        for env, action in zip(self.envs, actions, strict=True):
            obs, reward, done, info = env.step(action)
            if done:
                info = {**info, "terminal_observation": obs}
                obs = env.reset()
            results.append((obs, reward, done, info))
        obs, rewards, dones, infos = zip(*results, strict=True)
        return np.stack(obs), np.array(rewards), np.array(dones), infos

    def close(self) -> None:
        for env in self.envs:
            env.env.close()


vector = SimpleNamespace(SyncVectorEnv=SyncVectorEnv)
