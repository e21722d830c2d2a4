"""How often a zero-mean Gaussian policy reaches MountainCarContinuous-v0's flag by exploration alone,
with independent noise and with AR(1) noise (ppo_lstm_continuous.py --noise-corr): the case for the flag.

python benchmark/noise_reach.py    # writes benchmark/results/noise_reach.json (seconds)
"""

import json
import os

import gymnasium as gym
import numpy as np

EPISODES = 30
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "noise_reach.json")


def reach_rate(corr: float, std: float, rng: np.random.Generator) -> float:
    env = gym.make("MountainCarContinuous-v0")
    reached = 0
    for episode in range(EPISODES):
        env.reset(seed=episode)
        noise, ended, terminated = rng.standard_normal(), False, False
        while not ended:
            noise = corr * noise + np.sqrt(1.0 - corr**2) * rng.standard_normal()
            _, _, terminated, truncated, _ = env.step(np.array([np.clip(std * noise, -1.0, 1.0)], dtype=np.float32))
            ended = terminated or truncated
        reached += terminated  # the only way this env terminates is at the flag
    env.close()
    return reached / EPISODES


def main() -> None:
    rng = np.random.default_rng(0)
    rows = [
        {"noise_corr": corr, "std": std, "episodes": EPISODES, "reached": reach_rate(corr, std, rng)}
        for corr in [0.0, 0.9, 0.95, 0.99]
        for std in [0.6, 1.0]
    ]
    for row in rows:
        print(f"noise_corr {row['noise_corr']:<5} std {row['std']}: flag reached in {row['reached']:.0%} of episodes")
    with open(OUT, "w") as f:
        json.dump({"command": "python benchmark/noise_reach.py", "gymnasium": gym.__version__, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
