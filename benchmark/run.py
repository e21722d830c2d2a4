"""Run every (script, env, seed) combination as its own process and collect the results as CSV.

    python benchmark/run.py --suite novel_classic --scripts ppo_lstm.py --env-ids CartPoleNoVel-v1 --seeds 1 2 3

Each run writes into benchmark/results/<suite>/runs/, with the settings it ran with (its script's Args as parsed from
its command line: the defaults of the time, then the flags) in a settings.json beside its summary.json. A finished
run with the settings its command gives now is skipped, so an interrupted benchmark resumes; one with other settings
(a default changed since) or none recorded is moved to <suite>/stale_runs/ and runs again. The collected files are
results/<suite>/runs.csv (one row per run, its settings among the columns) and results/<suite>/curves.csv (long
format: run, step, tag, value).
"""

import csv
import functools
import glob
import importlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field

import tyro
from speed import machine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CURVE_TAGS = ["charts/episodic_return", "charts/SPS", "eval/mean_return"]


@dataclass
class Args:
    suite: str
    """name of the results folder under benchmark/results/"""
    scripts: list[str]
    """scripts to run, e.g. ppo_lstm.py (a script may carry flags: 'ppo_mlp_cartpole.py --frame-stack 4')"""
    env_ids: list[str]
    """environment ids"""
    seeds: list[int] = field(default_factory=lambda: [1, 2, 3, 4, 5])
    """seeds"""
    extra: str = ""
    """flags added to every command"""
    workers: int = 2
    """runs at a time (each gets one torch thread)"""
    dry_run: bool = False
    """print the commands without running them"""
    results_dir: str = os.path.join(ROOT, "benchmark", "results")
    """where the suite's folder goes"""


@functools.cache
def _settings_json(script: str, argv: tuple[str, ...]) -> str:
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    parsed = tyro.cli(importlib.import_module(script.removesuffix(".py")).Args, args=list(argv))
    return json.dumps({key: value for key, value in asdict(parsed).items() if key != "seed"}, sort_keys=True)


def script_settings(script: str, argv: list[str]) -> dict:
    """Every setting one of our scripts runs with given these arguments, as its own Args parse them (its defaults of
    now, then the arguments), but the seed: what a results row records, so that a row measured under other defaults
    is not taken for one of the defaults of now."""
    return json.loads(_settings_json(script, tuple(argv)))


def variant_name(script: str) -> str:
    """'ppo_mlp_cartpole.py --frame-stack 4' -> 'ppo_mlp_cartpole__frame_stack_4': a file-name-safe variant name"""
    return script.replace(".py", "").replace(" --", "__").replace(" ", "_").replace("-", "_")


def run_label(script: str, env_id: str, seed: int) -> str:
    return f"{variant_name(script)}__{env_id.replace(':', '_')}__{seed}"


def commands(args: Args) -> list[tuple[str, list[str]]]:
    """(label, argv) of every run, in a fixed order."""
    out = []
    for script in args.scripts:
        for env_id in args.env_ids:
            for seed in args.seeds:
                label = run_label(script, env_id, seed)
                argv = [
                    sys.executable,
                    *script.split(),
                    "--env-id",
                    env_id,
                    "--seed",
                    str(seed),
                    "--exp-name",
                    variant_name(script),
                ]
                out.append((label, argv + args.extra.split()))
    return out


def finished(suite_dir: str, label: str) -> str | None:
    """The folder of the label's finished run (its summary.json written), if there is one."""
    variant, env_id, seed = label.rsplit("__", 2)  # the script writes runs/{env_id}__{exp_name}__{seed}__{unix_time}
    found = glob.glob(os.path.join(suite_dir, "runs", "runs", f"{env_id}__{variant}__{seed}__*", "summary.json"))
    return os.path.dirname(found[0]) if found else None


def recorded_settings(run_dir: str) -> dict | None:
    """The settings a finished run recorded beside its summary.json; None for a run from before they were recorded."""
    path = pathlib.Path(run_dir, "settings.json")
    return json.loads(path.read_text()) if path.exists() else None


def launch(suite_dir: str, label: str, argv: list[str], settings: dict) -> int:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    argv = [argv[0], os.path.join(ROOT, argv[1]), *argv[2:]]
    os.makedirs(os.path.join(suite_dir, "logs"), exist_ok=True)
    with open(os.path.join(suite_dir, "logs", f"{label}.log"), "w") as log:
        code = subprocess.call(argv, cwd=os.path.join(suite_dir, "runs"), stdout=log, stderr=subprocess.STDOUT, env=env)
    if code == 0 and (run_dir := finished(suite_dir, label)):
        with open(os.path.join(run_dir, "settings.json"), "w") as f:
            json.dump(settings, f, indent=2, sort_keys=True)
    return code


def read_scalars(run_dir: str) -> list[tuple[int, str, float]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(run_dir, size_guidance={"scalars": 0})
    acc.Reload()
    return [(e.step, tag, e.value) for tag in CURVE_TAGS if tag in acc.Tags()["scalars"] for e in acc.Scalars(tag)]


def read_csv(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def collect(suite_dir: str) -> None:
    """Write runs.csv and curves.csv from every finished run in the suite's folder, whichever invocation ran it
    (a suite script calls the runner once per table row group; each call rewrites the whole suite's files). The run
    folders are not committed: a run already in the files whose folder is not here (a fresh clone) keeps its rows.
    A run found in its folder gets this machine's CPU (the folders stay on the machine that ran them): a seed takes
    another trajectory on another CPU model, so a suite finished on two machines says which row came from which."""
    m = machine()
    rows, curves, seen, cpu = [], [], set(), f"{m['cpu']} ({m['cpu_id']})"
    for path in sorted(glob.glob(os.path.join(suite_dir, "runs", "runs", "*", "summary.json"))):
        env_id, rest = os.path.basename(os.path.dirname(path)).split("__", 1)  # {env_id}__{variant}__{seed}__{time}
        variant, seed, _ = rest.rsplit("__", 2)
        label = f"{variant}__{env_id}__{seed}"
        if label in seen:  # a run repeated after its first copy finished: keep the first
            continue
        seen.add(label)
        with open(path) as f:
            summary = json.load(f)
        run_dir = os.path.dirname(path)
        settings = recorded_settings(run_dir)
        rows.append({"run": label, "variant": variant, **summary, "cpu": cpu,
                     "settings": "" if settings is None else json.dumps(settings, sort_keys=True)})  # fmt: skip
        curves += [(label, step, tag, value) for step, tag, value in read_scalars(run_dir)]
    kept = [row for row in read_csv(os.path.join(suite_dir, "runs.csv")) if row["run"] not in seen]
    rows = sorted(kept + rows, key=lambda row: row["run"])
    curves = sorted([(r["run"], int(r["step"]), r["tag"], float(r["value"]))
                     for r in read_csv(os.path.join(suite_dir, "curves.csv")) if r["run"] not in seen] + curves)  # fmt: skip
    if not rows:
        return
    with open(os.path.join(suite_dir, "runs.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(dict.fromkeys(key for row in rows for key in row)))
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(suite_dir, "curves.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["run", "step", "tag", "value"])
        writer.writerows(curves)


def main(args: Args) -> None:
    suite_dir = os.path.join(args.results_dir, args.suite)
    os.makedirs(os.path.join(suite_dir, "runs"), exist_ok=True)
    todo, stale, every_run = [], [], commands(args)
    for label, argv in every_run:
        settings, run_dir = script_settings(argv[1], argv[2:]), finished(suite_dir, label)
        if run_dir is None or recorded_settings(run_dir) != settings:
            todo.append((label, argv, settings))
            stale += [run_dir] if run_dir else []
    print(f"{len(todo)} runs to do, {len(every_run) - len(todo)} already finished")
    if stale:
        print(f"{len(stale)} of the runs to do finished before with other settings or none recorded: their folders move "
              f"to {os.path.join(suite_dir, 'stale_runs')} as the runs start")  # fmt: skip
    if args.dry_run:
        print("\n".join(" ".join(argv) for _, argv, _ in todo))
        return
    if stale:
        os.makedirs(os.path.join(suite_dir, "stale_runs"), exist_ok=True)
    for run_dir in stale:  # kept aside, out of the collected files
        shutil.move(run_dir, os.path.join(suite_dir, "stale_runs", os.path.basename(run_dir)))
    start = time.time()
    with ThreadPoolExecutor(args.workers) as pool:
        for (label, _, _), code in zip(todo, pool.map(lambda job: launch(suite_dir, *job), todo), strict=True):
            print(f"{label}: {'ok' if code == 0 else f'exit {code}'} ({time.time() - start:.0f}s)", flush=True)
    collect(suite_dir)
    print(f"results: {os.path.join(suite_dir, 'runs.csv')}")


if __name__ == "__main__":
    main(tyro.cli(Args))
