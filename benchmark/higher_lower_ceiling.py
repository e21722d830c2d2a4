"""What memory is worth on POPGym's HigherLowerEasy: the best return without memory and with perfect card counting.

    python benchmark/higher_lower_ceiling.py      # writes benchmark/results/higher_lower_ceiling.json

The env deals one 52-card deck; at each of 51 steps the agent, seeing only the rank of the card just dealt, guesses
whether the next card is higher or lower (1/52 for a right guess, -1/52 for a wrong one, 0 for the same rank). A guess
changes nothing later, so the greedy guess is the best at every step:
- "memoryless": seeing the current rank alone, the next card is any of the other 51 alike, 4 per other rank and 3 of its
  own, so the best guess is "higher" below a 7 and "lower" above it (ranks ace, low, to king). Its expected return,
  over a current rank uniform on the 13, is 51/52 * (1/13) * sum_r 4 |12 - 2r| / 51 = 336/676 (MEMORYLESS), which no
  policy without memory beats;
- "counting": the guess that the remaining deck favours, from every card seen this episode: a policy with perfect
  memory, the most that remembering the cards can give.
Both are played in popgym's own env, which checks the arithmetic above.
"""

import json
import os
import statistics
from dataclasses import dataclass

import numpy as np
import tyro
from popgym.envs.higher_lower import HigherLowerEasy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEMORYLESS = 336 / 676


@dataclass
class Args:
    episodes: int = 100_000
    """episodes per policy"""
    seed: int = 0
    """seed of the first episode's deck"""
    out: str = "higher_lower_ceiling.json"
    """results file under benchmark/results ('' writes none)"""


def play(policy: str, episodes: int, seed: int) -> list[float]:
    """The returns of `episodes` episodes of HigherLowerEasy played by the greedy guess of `policy`."""
    env, returns = HigherLowerEasy(), []
    rank, _ = env.reset(seed=seed)
    for _ in range(episodes):
        seen, episode_return, done = np.zeros(13, dtype=int), 0.0, False
        seen[rank] += 1
        while not done:
            if policy == "memoryless":
                higher = rank <= 6  # ranks 0-12 are ace to king: below a 7 more cards are higher, at the 7 a tie
            else:
                remaining = 4 - seen
                higher = remaining[rank + 1 :].sum() >= remaining[:rank].sum()
            rank, reward, done, _, _ = env.step(0 if higher else 1)  # action 0 guesses "higher"
            seen[rank] += 1
            episode_return += reward
        returns.append(episode_return)
        rank, _ = env.reset()
    return returns


def main(args: Args) -> dict:
    result = {"command": "python benchmark/higher_lower_ceiling.py", "episodes": args.episodes, "seed": args.seed,
              "memoryless_expected": MEMORYLESS}  # fmt: skip
    for policy in ("memoryless", "counting"):
        returns = play(policy, args.episodes, args.seed)
        result[policy] = {"mean": statistics.mean(returns), "stderr": statistics.stdev(returns) / len(returns) ** 0.5}
        print(f"{policy}: {result[policy]['mean']:.4f} +- {result[policy]['stderr']:.4f} over {args.episodes} episodes")
    if args.out:
        with open(os.path.join(ROOT, "benchmark", "results", args.out), "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main(tyro.cli(Args))
