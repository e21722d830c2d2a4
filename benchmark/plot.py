"""Learning curves (PNG) and the results table (markdown) of one suite, from the CSV files that run.py collects.

    python benchmark/plot.py --suite novel_classic   # writes results/novel_classic/curves.png and table.md

Curves: x = env steps; y = the mean return of the last 20 training episodes of each run, resampled on a common
grid; the line is the mean over seeds and the band its 95% bootstrap confidence interval (scipy.stats.bootstrap,
percentile method). Table: final evaluation mean +- std over seeds, seeds reaching the threshold, median steps
until the last-20 training mean first reaches it, SPS and wall time.
"""

import csv
import os
import statistics
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import tyro

RESULTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmark", "results")
# the score that counts as solved, per env (the targets of the issues; None: no threshold)
THRESHOLDS = {"CartPoleNoVel-v1": 475, "CartPole-v1": 475, "CueRecall-v0": 1.0, "MaskedCueRecall-v0": 1.0,
              "PendulumNoVel-v1": -200, "MountainCarContinuousNoVel-v0": 90, "LunarLanderContinuousNoVel-v3": 200,
              "BipedalWalker-v3": 250}  # fmt: skip
WINDOW = 20  # training episodes in the running mean


@dataclass
class Args:
    suite: str
    """name of the suite's folder under the results folder"""
    results_dir: str = RESULTS
    """where the suites' folders are"""
    points: int = 50
    """grid points of each learning curve"""


def load(suite_dir: str) -> tuple[list[dict], dict[str, list[tuple[int, float]]]]:
    """runs.csv rows, and each run's training episode returns as (step, return), in step order."""
    with open(os.path.join(suite_dir, "runs.csv")) as f:
        runs = list(csv.DictReader(f))
    curves = defaultdict(list)
    with open(os.path.join(suite_dir, "curves.csv")) as f:
        for row in csv.DictReader(f):
            if row["tag"] == "charts/episodic_return":
                curves[row["run"]].append((int(row["step"]), float(row["value"])))
    return runs, {run: sorted(points) for run, points in curves.items()}


def steps_to_threshold(curve: list[tuple[int, float]], threshold: float, window: int = WINDOW) -> int | None:
    """First step at which the mean of the last `window` training episodes reaches the threshold."""
    returns = []
    for step, value in sorted(curve):
        returns = (returns + [value])[-window:]
        if len(returns) == window and statistics.mean(returns) >= threshold:
            return step
    return None


def median_steps_text(steps: list[int | None]) -> str:
    """'31,508 (10/10 reached)': the median of each run's steps to a threshold, a run that never reached it counted as
    the slowest, and how many reached it."""
    mid = statistics.median(float("inf") if s is None else s for s in steps)
    reached = sum(s is not None for s in steps)
    return ("not reached" if mid == float("inf") else f"{mid:,.0f}") + f" ({reached}/{len(steps)} reached)"


def running_mean_on_grid(curve: list[tuple[int, float]], grid: np.ndarray, window: int = WINDOW) -> np.ndarray:
    """At each grid step, the mean of the last `window` episodes finished by then (nan before the first)."""
    steps = np.array([s for s, _ in curve])
    values = np.array([v for _, v in curve])
    out = np.full(len(grid), np.nan)
    for i, step in enumerate(grid):
        done = np.searchsorted(steps, step, side="right")
        if done:
            out[i] = values[max(0, done - window) : done].mean()
    return out


def mean_and_ci(samples: np.ndarray) -> tuple[float, float, float]:
    """Mean over seeds and its 95% percentile-bootstrap interval (the mean alone for a single seed)."""
    from scipy.stats import bootstrap

    samples = samples[~np.isnan(samples)]
    if len(samples) < 2 or np.ptp(samples) == 0:
        return (float(samples.mean()),) * 3 if len(samples) else (np.nan,) * 3
    ci = bootstrap((samples,), np.mean, confidence_level=0.95, method="percentile", n_resamples=2000, random_state=0)
    return float(samples.mean()), float(ci.confidence_interval.low), float(ci.confidence_interval.high)


def groups_of(runs: list[dict]) -> dict[tuple[str, str], list[dict]]:
    groups = defaultdict(list)
    for run in runs:
        groups[(run["env_id"], run["variant"])].append(run)
    return dict(sorted(groups.items()))


def markdown_table(runs: list[dict], curves: dict[str, list[tuple[int, float]]]) -> str:
    lines = ["| script | env | seeds | steps | eval return (mean +- std over seeds) | seeds >= threshold | "
             "median steps to last-20 mean >= threshold | SPS | wall time |", "|---" * 9 + "|"]  # fmt: skip
    for (env_id, variant), group in groups_of(runs).items():
        evals = [float(r["eval_mean_return"]) for r in group]
        threshold = THRESHOLDS.get(env_id)
        solved, median = "-", "-"
        if threshold is not None:
            solved = f"{sum(e >= threshold for e in evals)}/{len(evals)} (>= {threshold:g})"
            median = median_steps_text([steps_to_threshold(curves.get(r["run"], []), threshold) for r in group])
        spread = statistics.stdev(evals) if len(evals) > 1 else 0.0
        sps = statistics.mean(float(r["sps"]) for r in group)
        wall = statistics.mean(float(r["wall_time_s"]) for r in group) / 60
        lines.append(f"| {variant} | {env_id} | {len(group)} | {int(group[0]['global_step']):,} | "
                     f"{statistics.mean(evals):.1f} +- {spread:.1f} | {solved} | {median} | {sps:.0f} | "
                     f"{wall:.1f} min |")  # fmt: skip
    return "\n".join(lines)


def plot_curves(runs: list[dict], curves: dict[str, list[tuple[int, float]]], path: str, points: int = 50) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    envs = sorted({r["env_id"] for r in runs})
    fig, axes = plt.subplots(1, len(envs), figsize=(5 * len(envs), 3.6), squeeze=False)
    for ax, env_id in zip(axes[0], envs, strict=True):
        for (env, variant), group in groups_of(runs).items():
            if env != env_id:
                continue
            grid = np.linspace(0, min(int(r["global_step"]) for r in group), points)[1:]
            per_seed = np.stack([running_mean_on_grid(curves.get(r["run"], []), grid) for r in group])  # (seeds, points)
            mean, low, high = np.array([mean_and_ci(per_seed[:, i]) for i in range(len(grid))]).T
            ax.plot(grid, mean, label=f"{variant} ({len(group)} seed{'s' if len(group) > 1 else ''})")
            ax.fill_between(grid, low, high, alpha=0.25)
        if THRESHOLDS.get(env_id) is not None:
            ax.axhline(THRESHOLDS[env_id], color="gray", linestyle="--", linewidth=0.8)
        ax.set(title=env_id, xlabel="env steps", ylabel=f"return (last {WINDOW} episodes)")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x / 1e3:g}k"))
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(args: Args) -> str:
    suite_dir = os.path.join(args.results_dir, args.suite)
    runs, curves = load(suite_dir)
    plot_curves(runs, curves, os.path.join(suite_dir, "curves.png"), args.points)
    table = markdown_table(runs, curves)
    with open(os.path.join(suite_dir, "table.md"), "w") as f:
        f.write(table + "\n")
    print(table)
    print(f"wrote {os.path.join(suite_dir, 'curves.png')} and table.md")
    return table


if __name__ == "__main__":
    main(tyro.cli(Args))
