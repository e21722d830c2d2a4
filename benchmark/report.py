"""Turn the collected results into the README's results section (between its results markers).

python benchmark/report.py            # rewrites the section in README.md from benchmark/results/
"""

import csv
import json
import os
import statistics
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "benchmark", "results")
START, END = "<!-- results:start -->", "<!-- results:end -->"
THRESHOLDS = {"CartPoleNoVel-v1": 475, "CartPole-v1": 475, "CueRecall-v0": 1.0}


def steps_to_threshold(curve: list[tuple[int, float]], threshold: float, window: int = 20) -> int | None:
    """First step at which the mean of the last `window` training episodes reaches the threshold."""
    returns = []
    for step, value in sorted(curve):
        returns = (returns + [value])[-window:]
        if len(returns) == window and statistics.mean(returns) >= threshold:
            return step
    return None


def suite_table(suite: str) -> str:
    with open(os.path.join(RESULTS, suite, "runs.csv")) as f:
        runs = list(csv.DictReader(f))
    curves = defaultdict(list)
    with open(os.path.join(RESULTS, suite, "curves.csv")) as f:
        for row in csv.DictReader(f):
            if row["tag"] == "charts/episodic_return":
                curves[row["run"]].append((int(row["step"]), float(row["value"])))
    groups = defaultdict(list)
    for run in runs:
        groups[(run["variant"], run["env_id"])].append(run)
    lines = ["| script | env | seeds | steps | eval return (mean +- std over seeds) | seeds >= threshold | "
             "median steps to last-20 mean >= threshold | SPS |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for (variant, env_id), group in sorted(groups.items()):
        evals = [float(r["eval_mean_return"]) for r in group]
        threshold = THRESHOLDS.get(env_id)
        solved = f"{sum(e >= threshold for e in evals)}/{len(evals)} (>= {threshold})" if threshold is not None else "-"
        reached = [steps_to_threshold(curves[r["run"]], threshold) for r in group] if threshold is not None else []
        hit = sum(step is not None for step in reached)
        median = statistics.median([float("inf") if step is None else step for step in reached]) if reached else None
        median = "-" if median is None else "not reached" if median == float("inf") else f"{median:,.0f}"
        median += f" ({hit}/{len(reached)} reached)" if reached else ""
        spread = statistics.stdev(evals) if len(evals) > 1 else 0.0
        sps = statistics.mean(float(r["sps"]) for r in group)
        lines.append(f"| {variant} | {env_id} | {len(group)} | {int(group[0]['global_step']):,} | "
                     f"{statistics.mean(evals):.1f} +- {spread:.1f} | {solved} | {median} | {sps:.0f} |")  # fmt: skip
    return "\n".join(lines)


def speed_tables() -> str:
    with open(os.path.join(RESULTS, "speed", "speed.json")) as f:
        speed = json.load(f)
    m = speed["machine"]
    lines = [f"Machine: {m['cpu']}, {m['cores']} cores, torch {m['torch']}, Python {m['python']}, one torch thread per run. "
             f"Command: `{speed['command'].strip()}`.", "",
             "| contender | mean SPS | ratio to sb3-contrib |", "|---|---|---|"]  # fmt: skip
    for name, sps in speed["sps_mean"].items():
        lines.append(f"| {name} | {sps:.0f} | {speed['ratio_vs_sb3'][name]:.2f}x |")
    lines += ["", "| update phase, 8 envs x 128 steps | fast path | per-step path | speed-up |", "|---|---|---|---|"]
    for u in speed["update_phase_ms"]:
        lines.append(f"| mean episode length {u['mean_episode_length']} | {u['fast_ms']} ms | {u['per_step_ms']} ms | "
                     f"{u['speedup']:.1f}x |")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parts = []
    if os.path.exists(os.path.join(RESULTS, "novel_classic", "runs.csv")):
        parts += ["### Masked-velocity and memory tasks (`benchmark/novel_classic.sh`)", "", suite_table("novel_classic"), "",
                  "SPS here was measured with other runs sharing the machine; "
                  "the speed table is the controlled figure.", ""]  # fmt: skip
    if os.path.exists(os.path.join(RESULTS, "speed", "speed.json")):
        parts += ["### Speed (`benchmark/speed.sh`)", "", speed_tables(), ""]
    readme_path = os.path.join(ROOT, "README.md")
    with open(readme_path) as f:
        readme = f.read()
    head, rest = readme.split(START)
    tail = rest.split(END)[1]
    with open(readme_path, "w") as f:
        f.write(head + START + "\n" + "\n".join(parts) + END + tail)
    print("\n".join(parts))


if __name__ == "__main__":
    main()
