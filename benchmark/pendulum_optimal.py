"""The best returns any policy can get on the evaluation episodes of PendulumNoVel-v1, and what the discount costs.

    python benchmark/pendulum_optimal.py      # writes benchmark/results/pendulum_optimal.json

ppo_lstm_continuous.py evaluates a seed on 10 episodes whose start states (angle, velocity) are fixed by the seed. This
solves Pendulum-v1's own dynamics by dynamic programming on a grid of (angle, velocity) and, from each of those start
states, plays the greedy policy of two value functions in the real env:
- "best": the 200-step undiscounted value, the return the evaluation counts: no policy does better, up to the grid;
  it sees the velocity, which PendulumNoVel-v1 hides, so a policy that must infer it can only do worse;
- "blind first step": "best" after a first torque chosen from the angle alone, the one with the best return in
  expectation over the velocities an episode starts with: PendulumNoVel-v1's first observation shows no velocity, and
  from the second on two angles give it (Pendulum-v1 moves the angle by the new velocity times dt), so this is what a
  policy that must infer the velocity can expect to get;
- "gamma G": the infinite-horizon value discounted by G, the objective PPO maximises with --gamma G: its greedy policy
  is what a perfect learner with that discount would act, scored by the undiscounted return of the evaluation.
"""

import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field

import gymnasium as gym
import numpy as np
import tyro
from speed import this_cpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
G, DT, MAX_SPEED, MAX_TORQUE, HORIZON = 10.0, 0.05, 8.0, 2.0, 200  # Pendulum-v1's constants and time limit
START_SPEED = 1.0  # Pendulum-v1's reset draws the velocity uniformly from [-START_SPEED, START_SPEED]


@dataclass
class Args:
    seeds: list[int] = field(default_factory=lambda: list(range(1, 21)))
    """seeds whose evaluation episodes are solved (1-10 are reported, 11 and up tune)"""
    episodes: int = 10
    """evaluation episodes per seed (ppo_lstm_continuous.py's default --eval-episodes)"""
    gammas: list[float] = field(default_factory=lambda: [0.9, 0.95, 0.98, 0.99])
    """discounts whose optimal policies are scored"""
    angles: int = 256
    """grid points over the angle [-pi, pi)"""
    speeds: int = 161
    """grid points over the velocity [-8, 8]"""
    torques: int = 41
    """torques the dynamic programme chooses from; the greedy policy chooses from ten times as many"""
    start_speeds: int = 201
    """start velocities over which the blind first torque's expected return is averaged"""
    out: str = os.path.join(ROOT, "benchmark", "results", "pendulum_optimal.json")
    """where the results go"""


def angle_normalize(th: np.ndarray) -> np.ndarray:
    return (th + np.pi) % (2 * np.pi) - np.pi


def dynamics(th: np.ndarray, thdot: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pendulum-v1's step (m = l = 1): the next angle and velocity, and the cost of this step (minus its reward)."""
    cost = angle_normalize(th) ** 2 + 0.1 * thdot**2 + 0.001 * u**2
    thdot = np.clip(thdot + (3 * G / 2 * np.sin(th) + 3.0 * u) * DT, -MAX_SPEED, MAX_SPEED)
    return th + thdot * DT, thdot, cost


class Grid:
    """A value function on a periodic angle axis x a clipped velocity axis, read by bilinear interpolation."""

    def __init__(self, angles: int, speeds: int):
        self.angles, self.speeds = angles, speeds
        th = np.linspace(-np.pi, np.pi, angles, endpoint=False)
        thdot = np.linspace(-MAX_SPEED, MAX_SPEED, speeds)
        self.th, self.thdot = np.meshgrid(th, thdot, indexing="ij")  # (angles, speeds) each

    def __call__(self, values: np.ndarray, th: np.ndarray, thdot: np.ndarray) -> np.ndarray:
        x = (angle_normalize(th) + np.pi) / (2 * np.pi) * self.angles
        i = np.floor(x).astype(int)
        fx = x - i
        i %= self.angles
        i_next = (i + 1) % self.angles  # the angle axis wraps around
        y = (thdot + MAX_SPEED) / (2 * MAX_SPEED) * (self.speeds - 1)
        j = np.clip(np.floor(y).astype(int), 0, self.speeds - 2)
        fy = y - j
        return (values[i, j] * (1 - fx) * (1 - fy) + values[i_next, j] * fx * (1 - fy)
                + values[i, j + 1] * (1 - fx) * fy + values[i_next, j + 1] * fx * fy)  # fmt: skip


def best_values(grid: Grid, torques: np.ndarray) -> list[np.ndarray]:
    """Backward induction over the time limit: entry k is the best undiscounted return with HORIZON - k steps to go."""
    th, thdot, cost = dynamics(grid.th[None], grid.thdot[None], torques[:, None, None])  # (torques, angles, speeds)
    values = [np.zeros(grid.th.shape)]
    for _ in range(HORIZON):
        values.append((grid(values[-1], th, thdot) - cost).max(0))
    return values[::-1]


def discounted_values(grid: Grid, torques: np.ndarray, gamma: float, tol: float = 1e-4) -> np.ndarray:
    """Value iteration for the infinite-horizon return discounted by gamma."""
    th, thdot, cost = dynamics(grid.th[None], grid.thdot[None], torques[:, None, None])
    values = np.zeros(grid.th.shape)
    while True:
        new = (gamma * grid(values, th, thdot) - cost).max(0)
        if np.abs(new - values).max() < tol:
            return new
        values = new


def start_states(seed: int, episodes: int) -> list[tuple[float, float]]:
    """The start states of ppo_lstm_continuous.py's evaluation for this seed: the env seeded once, then reset."""
    env = gym.make("Pendulum-v1")
    states = []
    for episode in range(episodes):
        env.reset(seed=seed + 100_000 if episode == 0 else None)
        states.append(tuple(float(x) for x in env.unwrapped.state))
    env.close()
    return states


def blind_first_torque(grid: Grid, values: np.ndarray, th: float, torques: np.ndarray, speeds: int) -> float:
    """The first torque with the best cost plus value of the next state (`values`, with HORIZON - 1 steps to go) on
    average over the start velocities, from the angle `th` alone."""
    thdot = np.linspace(-START_SPEED, START_SPEED, speeds)
    next_th, next_thdot, cost = dynamics(th, thdot[None, :], torques[:, None])  # (torques, speeds)
    return float(torques[np.argmax((grid(values, next_th, next_thdot) - cost).mean(1))])


def play(grid: Grid, value_after, state: tuple[float, float], torques: np.ndarray, first_torque: float | None = None,
         trajectory: list | None = None) -> float:
    """One episode in the real Pendulum-v1 from `state`, each torque the one with the best cost plus value of the next
    state (`value_after(step, th, thdot)`), the first one `first_torque` if given; the env's undiscounted return. Each
    step's (angle, velocity, torque) goes into `trajectory` if given."""
    env = gym.make("Pendulum-v1")
    env.reset()
    env.unwrapped.state = np.array(state)
    episode_return = 0.0
    for step in range(HORIZON):
        th, thdot = env.unwrapped.state
        next_th, next_thdot, cost = dynamics(th, thdot, torques)
        torque = torques[np.argmax(value_after(step, next_th, next_thdot) - cost)]
        if step == 0 and first_torque is not None:
            torque = first_torque
        if trajectory is not None:
            trajectory.append((float(th), float(thdot), float(torque)))
        _, reward, terminated, truncated, _ = env.step(np.array([torque], dtype=np.float32))
        episode_return += float(reward)
    assert truncated and not terminated  # the time limit ends every episode after HORIZON steps
    env.close()
    return episode_return


def main(args: Args) -> dict:
    begin = time.time()
    grid = Grid(args.angles, args.speeds)
    torques = np.linspace(-MAX_TORQUE, MAX_TORQUE, args.torques)
    fine = np.linspace(-MAX_TORQUE, MAX_TORQUE, 10 * (args.torques - 1) + 1)  # the greedy policy's choice
    best = best_values(grid, torques)
    policies = {"best": lambda step, th, thdot: grid(best[step + 1], th, thdot)}
    for gamma in args.gammas:
        values = discounted_values(grid, torques, gamma)
        policies[f"gamma {gamma:g}"] = lambda step, th, thdot, values=values, gamma=gamma: gamma * grid(values, th, thdot)
    starts = {seed: start_states(seed, args.episodes) for seed in args.seeds}
    returns = {name: {seed: [play(grid, policy, s, fine) for s in starts[seed]] for seed in args.seeds}
               for name, policy in policies.items()}  # fmt: skip
    blind = {seed: [play(grid, policies["best"], s, fine, blind_first_torque(grid, best[1], s[0], fine, args.start_speeds))
                    for s in starts[seed]]
             for seed in args.seeds}  # fmt: skip
    returns = {"best": returns.pop("best"), "blind first step": blind, **returns}
    cpu, cpu_id = this_cpu()
    result = {
        "command": " ".join(["python benchmark/pendulum_optimal.py", *sys.argv[1:]]),
        "machine": {"cpu": cpu, "cpu_id": cpu_id, "python": platform.python_version(), "numpy": np.__version__},
        "grid": {"angles": args.angles, "speeds": args.speeds, "torques": args.torques, "greedy_torques": len(fine),
                 "start_speeds": args.start_speeds},
        "seconds": round(time.time() - begin, 1),
        "start_states": {str(seed): starts[seed] for seed in args.seeds},
        "returns": {name: {str(seed): rets for seed, rets in per_seed.items()} for name, per_seed in returns.items()},
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    for name, per_seed in returns.items():
        means = [float(np.mean(rets)) for rets in per_seed.values()]
        print(f"{name:12s} " + " ".join(f"{m:7.1f}" for m in means))
    return result


if __name__ == "__main__":
    main(tyro.cli(Args))
