"""The tables and figures of README.md and docs/, from benchmark/results/*.json alone.

    python benchmark/report.py           # rewrites every <!-- report:NAME --> block and docs/img/*.png
    python benchmark/report.py --check   # exits 1 if a block is not what the results give

A block runs from `<!-- report:NAME -->` to `<!-- /report -->`; NAME is a function of BLOCKS below. Statistics: the
median steps to a threshold counts a run that never got there as the slowest; "first there" counts, seed by seed on
one machine, which contender reached the threshold at fewer steps; p-values are Mann-Whitney's U (steps) and
Fisher's exact test (evaluations at the threshold or more), two-sided; a figure's band is a 95% bootstrap interval of
the mean over runs.
"""

import json
import os
import re
import statistics
import sys
import warnings
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import tyro

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from suites import MATCHED, PEER, THRESHOLDS  # noqa: E402

DOCS = [os.path.join(ROOT, "README.md"), *sorted(os.path.join(ROOT, "docs", f) for f in ("ppo_lstm.md",
        "ppo_lstm_continuous.md", "ppo_mlp_cartpole.md", "ppo_gru_atari.md", "method.md"))]  # fmt: skip
HEADLINE = [("cartpole_novel", "ppo_lstm.py", PEER), ("cartpole_mlp", "ppo_mlp_cartpole.py", "SB3 PPO"),
            ("pendulum_novel", "ppo_lstm_continuous.py", PEER)]  # fmt: skip


@dataclass
class Args:
    check: bool = False
    """only check that every block is what the results give (exit 1 if not); write nothing"""


def rows(suite: str) -> list[dict]:
    with open(os.path.join(HERE, "results", f"{suite}.json")) as f:
        return json.load(f)["rows"]


def of(suite_rows: list[dict], contender: str, env_id: str | None = None) -> list[dict]:
    return [r for r in suite_rows if r["contender"] == contender and env_id in (None, r["env_id"])]


def median_steps(runs: list[dict]) -> str:
    steps = [float("inf") if r["steps_to_threshold"] is None else r["steps_to_threshold"] for r in runs]
    mid, reached = statistics.median(steps), sum(s != float("inf") for s in steps)
    return ("not reached" if mid == float("inf") else f"{mid:,.0f}") + f" ({reached}/{len(runs)})"


def first_there(ours: list[dict], peer: list[dict]) -> tuple[int, int]:
    """Seed by seed on each machine: how often each side reached the threshold at fewer steps."""
    inf = float("inf")
    theirs = {(r["seed"], r["machine"]): r["steps_to_threshold"] or inf for r in peer}
    pairs = [(r["steps_to_threshold"] or inf, theirs[(r["seed"], r["machine"])]) for r in ours
             if (r["seed"], r["machine"]) in theirs]  # fmt: skip
    return sum(a < b for a, b in pairs), sum(b < a for a, b in pairs)


def evaluated(runs: list[dict]) -> list[float]:
    """The final evaluations of the runs that had one (a peer run stopped at its threshold has none)."""
    return [r["eval_mean_return"] for r in runs if r["eval_mean_return"] is not None]


def eval_text(runs: list[dict], threshold: float | None = None) -> str:
    """The evaluations' mean, or with a threshold how many runs evaluated at it or more; '-' where none evaluated."""
    values = evaluated(runs)
    if not values:
        return "-"
    return f"{statistics.mean(values):.1f}" if threshold is None else f"{sum(v >= threshold for v in values)}"


def p_values(ours: list[dict], peer: list[dict], threshold: float) -> tuple[str, str]:
    """Mann-Whitney's U on the steps to the threshold, Fisher's exact test on the evaluations at it or more."""
    from scipy.stats import fisher_exact, mannwhitneyu

    steps = [[r["steps_to_threshold"] or float("inf") for r in runs] for runs in (ours, peer)]
    table = [[sum(v >= threshold for v in evaluated(runs)), sum(v < threshold for v in evaluated(runs))]
             for runs in (ours, peer)]  # fmt: skip
    p_eval = p_text(fisher_exact(table).pvalue) if all(evaluated(runs) for runs in (ours, peer)) else ""
    return p_text(mannwhitneyu(*steps).pvalue), p_eval


def p_text(p: float) -> str:
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def machines(runs: list[dict]) -> int:
    return len({r["machine"] for r in runs})


def headline() -> str:
    lines = ["| task | ours / peer | runs a side | median steps to threshold (reached) | first there | "
             "eval mean | eval >= threshold | figure |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for suite, script, peer in HEADLINE:
        all_rows = rows(suite)
        env_id = all_rows[0]["env_id"]
        ours, theirs, threshold = of(all_rows, script), of(all_rows, peer), THRESHOLDS[env_id]
        won, lost = first_there(ours, theirs)
        p_steps, p_eval = p_values(ours, theirs, threshold)
        lines.append(
            f"| {env_id} ({threshold:g}) | `{script}` / {peer} | {len(ours)} (seeds 1-10, {machines(ours)} CPU models) | "
            f"{median_steps(ours)} / {median_steps(theirs)} ({p_steps}) | {won} / {lost} | "
            f"{eval_text(ours)} / {eval_text(theirs)} | "
            f"{eval_text(ours, threshold)} / {eval_text(theirs, threshold)} {p_eval} | [curves](docs/img/{suite}.png) |"
        )
    return "\n".join(lines)


def by_machine(suite: str) -> str:
    all_rows = rows(suite)
    env_id, script, peer = all_rows[0]["env_id"], *next((s, p) for n, s, p in HEADLINE if n == suite)
    threshold = THRESHOLDS[env_id]
    lines = [f"| machine | median steps to {threshold:g} (reached): ours / peer | eval mean: ours / peer | "
             f"eval >= {threshold:g}: ours / peer | commit | command |", "|---|---|---|---|---|---|"]  # fmt: skip
    for name in sorted({r["machine"] for r in all_rows}):
        ours, theirs = (
            of([r for r in all_rows if r["machine"] == name], script),
            of([r for r in all_rows if r["machine"] == name], peer),
        )
        lines.append(
            f"| {name} | {median_steps(ours)} / {median_steps(theirs)} | {eval_text(ours)} / {eval_text(theirs)} | "
            f"{eval_text(ours, threshold)} / {eval_text(theirs, threshold)} | {ours[0]['commit']} | `{ours[0]['command']}` |"
        )
    return "\n".join(lines)


def popgym_means() -> dict[str, dict[str, float]]:
    """env -> contender -> the evaluation's mean over seeds (the MLP stands in for ours where ours is not the script)."""
    out = defaultdict(dict)
    groups = defaultdict(list)
    for r in rows("popgym_easy"):
        groups[(r["env_id"], r["contender"])].append(r["eval_mean_return"])
    for (env_id, contender), values in groups.items():
        out[env_id.split("-")[1]][contender] = statistics.mean(values)
    return out


def popgym_line() -> str:
    """Above, level (equal to two decimals) or below the peer and the MLP, env by env."""
    means, parts = popgym_means(), []
    for other in (PEER, "ppo_mlp_cartpole.py"):
        counts = [0, 0, 0]
        for env in means.values():
            ours = env.get("ppo_lstm.py", env.get("ppo_lstm_continuous.py"))
            if other in env:
                gap = round(ours, 2) - round(env[other], 2)
                counts[0 if gap > 0 else 1 if gap == 0 else 2] += 1
        parts.append(f"{other}: above on {counts[0]}, level on {counts[1]}, below on {counts[2]}")
    return f"Ours against {parts[0]}; against the MLP ({parts[1].split(': ')[1]})."


def popgym_table() -> str:
    means = popgym_means()
    names = ["ppo_lstm.py", "ppo_mlp_cartpole.py", PEER, "random"]
    lines = ["| env | ours | MLP | " + PEER + " | random |", "|---|---|---|---|---|"]
    for env, by in sorted(means.items()):
        ours = by.get("ppo_lstm.py", by.get("ppo_lstm_continuous.py"))
        cells = [f"{ours:.2f}"] + [f"{by[n]:.2f}" if n in by else "-" for n in names[1:]]
        lines.append(f"| {env.removeprefix('popgym-')} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def minigrid() -> str:
    all_rows = rows("minigrid_memory")
    lines = ["| contender | runs | evaluation episodes solved | mean return |", "|---|---|---|---|"]
    for contender in ("ppo_lstm.py", "ppo_mlp_cartpole.py", "random"):
        runs = of(all_rows, contender)
        solved = sum(sum(v > 0 for v in r["eval_returns"]) for r in runs)
        total = sum(len(r["eval_returns"]) for r in runs)
        mean = statistics.mean(r["eval_mean_return"] for r in runs)
        lines.append(f"| {contender} | {len(runs)} | {solved} of {total} | {mean:.3f} |")
    return "\n".join(lines)


def speed() -> str:
    """Our script against its peer, machine by machine: only runs of one invocation on one machine are compared."""
    lines = ["| env | ours / peer | steps per second: ours / peer | ratio | machine | commit |", "|---|---|---|---|---|---|"]
    pairs = [("CartPoleNoVel-v1", "ppo_lstm.py", MATCHED), ("PendulumNoVel-v1", "ppo_lstm_continuous.py", MATCHED),
             ("Breakout-v5", "ppo_gru_atari.py", "CleanRL ppo_atari_lstm.py")]  # fmt: skip
    all_rows = rows("speed")
    for env_id, ours, peer in pairs:
        for name in sorted({r["machine"] for r in all_rows if r["env_id"] == env_id}):
            here = [r for r in all_rows if r["env_id"] == env_id and r["machine"] == name]
            a, b = (statistics.mean(r["sps"] for r in of(here, who)) for who in (ours, peer))
            lines.append(f"| {env_id} | `{ours}` / {peer} | {a:,.0f} / {b:,.0f} | {a / b:.2f}x | {name} | "
                         f"{of(here, ours)[0]['commit']} |")  # fmt: skip
    return "\n".join(lines)


def atari() -> str:
    lines = ["| run | machine | steps | steps/s | return, last 20 games | eval |", "|---|---|---|---|---|---|"]
    for r in rows("atari"):
        label = r["contender"] + (f" {r['flags']}" if r["flags"] else "")
        ret = r.get("train_last20", "")
        lines.append(f"| {label}, seed {r['seed']} | {r['machine']} | {r['steps']:,} | {r['sps']:,} | {ret} | "
                     f"{r.get('eval_mean_return', '') or ''} |")  # fmt: skip
    return "\n".join(lines)


def learning_tests() -> str:
    lines = ["| script | env | flags | steps | runs | machines | reached the threshold | evaluation, worst / best |",
             "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    groups = defaultdict(list)
    for r in rows("learning_tests"):
        groups[(r["contender"], r["env_id"], r["flags"], r["steps"])].append(r)
    for (contender, env_id, flags, steps), runs in groups.items():
        threshold = THRESHOLDS.get(env_id)
        reached = sum(r["steps_to_threshold"] is not None for r in runs)
        evals = [r["eval_mean_return"] for r in runs]
        lines.append(f"| `{contender}` | {env_id} ({threshold:g}) | `{flags}` | {steps:,} | {len(runs)} | "
                     f"{machines(runs)} | {reached} of {len(runs)} | {min(evals):.1f} / {max(evals):.1f} |")  # fmt: skip
    return "\n".join(lines)


def gru() -> str:
    """--rnn-type gru beside the LSTM, the same seeds and invocation, machine by machine; the steps per second from
    the gru_speed suite (alternating, one run at a time)."""
    lines = ["| script | env (threshold) | cell | runs | median steps to threshold (reached) | eval mean | steps/s | "
             "p (steps) | machine | commit |", "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    all_rows, speed_rows = rows("gru"), rows("gru_speed")
    for contender, env_id in dict.fromkeys((r["contender"], r["env_id"]) for r in all_rows):
        for name in sorted({r["machine"] for r in all_rows if r["env_id"] == env_id}):
            here = [r for r in of(all_rows, contender, env_id) if r["machine"] == name]
            cells = {"LSTM": [r for r in here if not r["flags"]], "GRU": [r for r in here if r["flags"]]}
            p_steps = p_values(cells["GRU"], cells["LSTM"], THRESHOLDS[env_id])[0]
            for cell, runs in cells.items():
                timed = [r["sps"] for r in of(speed_rows, contender, env_id) if r["machine"] == name
                         and bool(r["flags"]) == (cell == "GRU")]  # fmt: skip
                sps = f"{statistics.mean(timed):,.0f}" if timed else "-"
                lines.append(f"| `{contender}` | {env_id} ({THRESHOLDS[env_id]:g}) | {cell} | {len(runs)} | "
                             f"{median_steps(runs)} | {eval_text(runs)} | {sps} | {p_steps if cell == 'GRU' else ''} | "
                             f"{name} | {runs[0]['commit']} |")  # fmt: skip
    return "\n".join(lines)


def onnx_speed() -> str:
    lines = ["| script | batch | PyTorch policy, steps/s | onnxruntime, steps/s | ratio | machine | commit |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows("onnx_speed"):
        lines.append(f"| `{r['contender']}` | {r['batch']} | {r['torch_sps']:,} | {r['onnx_sps']:,} | "
                     f"{r['onnx_sps'] / r['torch_sps']:.2f}x | {r['machine']} | {r['commit']} |")  # fmt: skip
    return "\n".join(lines)


def shared_machine() -> str:
    lines = ["| update threads | idle, steps/s | beside a busy process, steps/s | machine | commit |", "|---|---|---|---|---|"]
    for flags in dict.fromkeys(r["flags"] for r in rows("shared_machine")):
        idle, busy = ([r["sps"] for r in rows("shared_machine") if r["flags"] == flags and r["busy_neighbour"] == b]
                      for b in (False, True))  # fmt: skip
        row = next(r for r in rows("shared_machine") if r["flags"] == flags)
        lines.append(f"| {flags or 'default (the cores less one)'} | {idle[0]} | {busy[0]} | {row['machine']} | "
                     f"{row['commit']} |")  # fmt: skip
    return "\n".join(lines)


BLOCKS = {f.__name__: f for f in (headline, popgym_line, popgym_table, minigrid, speed, atari, learning_tests, gru,
                                  onnx_speed, shared_machine)}  # fmt: skip
BLOCKS |= {f"by_machine_{suite}": (lambda s=suite: by_machine(s)) for suite, _, _ in HEADLINE}


def render(text: str) -> str:
    def fill(match: re.Match) -> str:
        return f"<!-- report:{match[1]} -->\n{BLOCKS[match[1]]()}\n<!-- /report -->"

    return re.sub(r"^<!-- report:(\w+) -->\n.*?^<!-- /report -->$", fill, text, flags=re.S | re.M)


def curve_band(runs: list[dict], points: int = 100) -> tuple:
    """The mean over runs of each run's running mean, on a common grid, with a 95% bootstrap band; up to the step
    where the first run ended, so that a peer whose runs stop at the threshold is not shown by its slowest runs alone."""
    grid = np.linspace(0, min(r["curve"][-1][0] for r in runs), points)
    values = []
    for r in runs:
        x, y = np.array(r["curve"]).T
        values.append(np.where((grid >= x[0]) & (grid <= x[-1]), np.interp(grid, x, y), np.nan))
    values = np.array(values)
    picks = np.random.default_rng(0).integers(0, len(runs), size=(1000, len(runs)))
    with warnings.catch_warnings():  # grid points before any run's first episode are NaN, and stay so
        warnings.simplefilter("ignore", RuntimeWarning)
        boot = np.nanmean(values[picks], axis=1)
        return grid, np.nanmean(values, axis=0), np.nanpercentile(boot, 2.5, axis=0), np.nanpercentile(boot, 97.5, axis=0)


def figure(suite: str, script: str, peer: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    all_rows = rows(suite)
    env_id = all_rows[0]["env_id"]
    fig, ax = plt.subplots(figsize=(4.8, 3.0), dpi=80)
    for name in (script, peer):
        runs = of(all_rows, name)
        grid, mean, low, high = curve_band(runs)
        ax.plot(grid, mean, label=f"{name} ({len(runs)} runs)")
        ax.fill_between(grid, low, high, alpha=0.25)
    ax.axhline(THRESHOLDS[env_id], color="gray", linestyle="--", linewidth=0.8)
    ax.set(title=env_id, xlabel="environment steps", ylabel="return, last 20 episodes")
    ax.legend(fontsize=7)
    fig.tight_layout()
    os.makedirs(os.path.join(ROOT, "docs", "img"), exist_ok=True)
    fig.savefig(os.path.join(ROOT, "docs", "img", f"{suite}.png"))
    plt.close(fig)


def main(args: Args) -> int:
    stale = []
    for path in DOCS:
        text = open(path).read()
        if render(text) != text:
            stale.append(os.path.relpath(path, ROOT))
            if not args.check:
                open(path, "w").write(render(text))
    if args.check:
        print("out of date: " + ", ".join(stale) if stale else "every block is up to date")
        return 1 if stale else 0
    for suite, script, peer in HEADLINE:
        figure(suite, script, peer)
    print("rewrote: " + (", ".join(stale) or "nothing") + "; figures in docs/img/")
    return 0


if __name__ == "__main__":
    sys.exit(main(tyro.cli(Args)))
