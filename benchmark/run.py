"""Run a suite of benchmark/suites.py and write its compact results file, benchmark/results/SUITE.json.

    python benchmark/run.py cartpole_novel                  # seeds 1-10, two runs at a time
    python benchmark/run.py popgym_easy --seeds 1 --workers 1

Each run is a fresh process with one torch thread: our scripts as a user runs them (their own folder, their TensorBoard
curve and summary.json), a peer through its library. A row records the command that reproduces it, the commit, the
machine, the steps to the suite's threshold, the evaluation, the steps per second and the training curve (the
running mean of the last 20 episodes, at most 100 points). A row already in the file with the same contender, env,
flags, budget, seed, settings and machine is kept, so an interrupted suite resumes; a default changed since, or
another CPU model, runs again (a seed follows another trajectory on another CPU model). A change to a script that
keeps its training step for step (docs/method.md says how that is checked) brings the rows' digests up to date.
"""

import hashlib
import json
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass

import tyro

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from suites import SUITES, THRESHOLDS, WINDOW, Entry, steps_to_threshold  # noqa: E402

RESULTS = os.path.join(HERE, "results")
CURVE_POINTS = 100


@dataclass
class Args:
    suite: tyro.conf.Positional[str]
    """a suite of benchmark/suites.py"""
    seeds: list[int] | None = None
    """seeds to run (default: the suite's)"""
    contenders: list[str] | None = None
    """run only these contenders (default: all of the suite's)"""
    workers: int = 2
    """runs at a time"""
    dry_run: bool = False
    """print what would run and stop"""


def machine() -> str:
    """The CPU's name with its family, model and vector width (two CPUs of one name may compute differently), and the
    core count."""
    info = {}
    if os.path.exists("/proc/cpuinfo"):
        for line in open("/proc/cpuinfo").read().split("\n\n")[0].splitlines():
            key, _, value = line.partition(":")
            info[key.strip()] = value.strip()
    name = info.get("model name", platform.processor() or platform.machine())
    width = "avx512" if "avx512f" in info.get("flags", "") else "avx2" if "avx2" in info.get("flags", "") else "other"
    ident = f"family {info.get('cpu family', '?')} model {info.get('model', '?')} stepping {info.get('stepping', '?')}"
    return f"{name} ({ident}, {width}), {os.cpu_count()} cores"


def commit() -> str:
    def git(*argv: str) -> str:
        return subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    # the results files the runner itself writes do not make the tree dirty
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)benchmark/results")
    return git("rev-parse", "--short", "HEAD") + ("-dirty" if changed else "")


def settings(entry: Entry) -> str | None:
    """A digest of every setting our script runs with (its defaults of now, then the flags): a row of other defaults
    is not taken for one of these. None for a peer."""
    if not entry.contender.endswith(".py"):
        return None
    sys.path.insert(0, ROOT)
    module = __import__(entry.contender.removesuffix(".py"))
    parsed = tyro.cli(module.Args, args=["--env-id", entry.env_id, *entry.flags.split()])
    return hashlib.sha256(json.dumps(asdict(parsed), sort_keys=True, default=str).encode()).hexdigest()[:12]


def running_mean(curve: list[tuple[int, float]], points: int = CURVE_POINTS) -> list[list[float]]:
    """(step, mean of the last WINDOW episodes) after each episode, subsampled to at most `points`, the last kept."""
    means, recent = [], []
    for step, value in sorted(curve):
        recent = (recent + [value])[-WINDOW:]
        means.append([int(step), round(statistics.mean(recent), 4)])
    if len(means) <= points:
        return means
    return [means[round(i * (len(means) - 1) / (points - 1))] for i in range(points)]


def run_ours(entry: Entry, seed: int) -> dict:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    argv = [entry.contender, "--env-id", entry.env_id, "--seed", str(seed), "--total-timesteps", str(entry.steps),
            "--eval-episodes", str(entry.eval_episodes), *entry.flags.split()]  # fmt: skip
    command = "python " + " ".join(argv)
    with tempfile.TemporaryDirectory() as cwd:
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": ROOT}  # ROOT: env ids like benchmark.module:Id
        subprocess.run([sys.executable, os.path.join(ROOT, argv[0]), *argv[1:]], cwd=cwd, check=True, capture_output=True,
                       env=env)  # fmt: skip
        (run_dir,) = [os.path.join(cwd, "runs", name) for name in os.listdir(os.path.join(cwd, "runs"))]
        events = EventAccumulator(run_dir, size_guidance={"scalars": 0})
        events.Reload()
        curve = [(e.step, e.value) for e in events.Scalars("charts/episodic_return")]
        summary = json.load(open(os.path.join(run_dir, "summary.json")))
    return {"command": command, "curve": curve,
            "steps": summary["global_step"], "eval_returns": summary["eval_returns"], "sps": summary["sps"]}  # fmt: skip


def zoo_model(name: str, env_id: str, seed: int) -> tuple:
    """The peer with rl-baselines3-zoo's published settings for the env, or its own defaults where the zoo has none
    (8 envs, as ours, reading the same flattened observation); and what makes one env of the kind it trains on."""
    import gymnasium as gym
    import torch
    from sb3_contrib import RecurrentPPO
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import VecNormalize

    sys.path.insert(0, ROOT)
    import ppo_lstm  # registers CartPoleNoVel-v1, flattens observations as ours do
    import ppo_lstm_continuous  # noqa: F401  (registers PendulumNoVel-v1)

    def linear(start: float):
        return lambda progress: start * progress

    if name == "SB3 PPO":  # the zoo's CartPole-v1 recipe: no normalisation, SB3's default MlpPolicy
        return PPO("MlpPolicy", make_vec_env(env_id, n_envs=8, seed=seed), n_steps=32, batch_size=256, n_epochs=20,
                   gamma=0.98, gae_lambda=0.8, ent_coef=0.0, learning_rate=linear(1e-3), clip_range=linear(0.2),
                   seed=seed, device="cpu"), env_id  # fmt: skip
    lstm = dict(ortho_init=False, activation_fn=torch.nn.ReLU, lstm_hidden_size=64, enable_critic_lstm=True,
                net_arch=dict(pi=[64], vf=[64]))  # fmt: skip
    if name.endswith(", matched"):  # our script's rollout, minibatches, epochs, discount and lambda; its tanh
        ours = __import__("ppo_lstm" if env_id == "CartPoleNoVel-v1" else "ppo_lstm_continuous").Args()
        batch = ours.num_envs * ours.num_steps // ours.num_minibatches
        extra = {} if env_id == "CartPoleNoVel-v1" else dict(log_std_init=ours.init_logstd)
        env = VecNormalize(make_vec_env(env_id, n_envs=ours.num_envs, seed=seed), gamma=ours.gamma)
        return RecurrentPPO(
            "MlpLstmPolicy",
            env,
            n_steps=ours.num_steps,
            batch_size=batch,
            n_epochs=ours.update_epochs,
            gamma=ours.gamma,
            gae_lambda=ours.gae_lambda,
            learning_rate=1e-3,
            ent_coef=0.0,
            seed=seed,
            device="cpu",
            policy_kwargs={**lstm, "activation_fn": torch.nn.Tanh, **extra},
        ), env_id
    if env_id == "CartPoleNoVel-v1":  # the zoo's agent; its `normalize: true` is VecNormalize's defaults, zoo gamma
        env = VecNormalize(make_vec_env(env_id, n_envs=8, seed=seed), gamma=0.98)
        return RecurrentPPO("MlpLstmPolicy", env, n_steps=32, batch_size=256, n_epochs=20, gamma=0.98, gae_lambda=0.8,
                            ent_coef=0.0, learning_rate=linear(1e-3), clip_range=linear(0.2), seed=seed, device="cpu",
                            policy_kwargs=lstm), env_id  # fmt: skip
    if env_id == "PendulumNoVel-v1":  # the zoo's agent: gSDE resampled every 4 steps, 4 envs x 1024 steps
        env = VecNormalize(make_vec_env(env_id, n_envs=4, seed=seed), gamma=0.9)
        return RecurrentPPO("MlpLstmPolicy", env, n_steps=1024, gae_lambda=0.95, gamma=0.9, n_epochs=10, ent_coef=0.0,
                            learning_rate=1e-3, clip_range=0.2, use_sde=True, sde_sample_freq=4, seed=seed, device="cpu",
                            policy_kwargs=lstm), env_id  # fmt: skip
    flat = lambda: ppo_lstm.FlatObservation(gym.make(env_id))  # noqa: E731
    return RecurrentPPO("MlpLstmPolicy", make_vec_env(flat, n_envs=8, seed=seed), seed=seed, device="cpu"), flat


def run_peer(entry: Entry, seed: int) -> dict:
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.evaluation import evaluate_policy
    from stable_baselines3.common.vec_env import VecNormalize

    class Episodes(BaseCallback):
        def __init__(self):
            super().__init__()
            self.curve = []

        def _on_step(self) -> bool:
            self.curve += [(self.num_timesteps, float(i["episode"]["r"])) for i in self.locals["infos"] if "episode" in i]
            return True

    (model, one_env), episodes, start = zoo_model(entry.contender, entry.env_id, seed), Episodes(), time.time()
    model.learn(entry.steps, callback=episodes)
    sps = round(model.num_timesteps / (time.time() - start))
    eval_env = make_vec_env(one_env, n_envs=1, seed=seed + 100_000)
    if isinstance(model.get_env(), VecNormalize):  # the training statistics, frozen; the raw rewards counted
        eval_env = VecNormalize(eval_env, training=False, norm_reward=False, gamma=model.gamma)
        eval_env.obs_rms = model.get_env().obs_rms.copy()
    returns = []
    if entry.eval_episodes:
        returns, _ = evaluate_policy(model, eval_env, entry.eval_episodes, deterministic=True, return_episode_rewards=True)
    return {"command": None, "curve": episodes.curve, "steps": model.num_timesteps,
            "eval_returns": [float(r) for r in returns], "sps": sps}  # fmt: skip


def run_random(entry: Entry, seed: int, episodes: int = 100) -> dict:
    import gymnasium as gym

    sys.path.insert(0, ROOT)
    env = gym.make(entry.env_id)
    env.action_space.seed(seed)
    returns = []
    for episode in range(episodes):
        env.reset(seed=seed + 100_000 if episode == 0 else None)
        total, ended = 0.0, False
        while not ended:
            _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            total, ended = total + float(reward), terminated or truncated
        returns.append(total)
    return {"command": None, "curve": [], "steps": 0, "eval_returns": returns, "sps": None}


def measure(suite: str, entry: Entry, seed: int) -> dict:
    """One run, in a worker process of its own; the row it leaves."""
    import torch

    torch.set_num_threads(1)
    run = run_ours if entry.contender.endswith(".py") else run_random if entry.contender == "random" else run_peer
    out = run(entry, seed)
    threshold = THRESHOLDS.get(entry.env_id)
    return {
        **asdict(entry),
        "seed": seed,
        "settings": settings(entry),
        "command": out["command"] or f"python benchmark/run.py {suite} --seeds {seed} --contenders '{entry.contender}'",
        "commit": commit(),
        "machine": machine(),
        "steps_run": out["steps"],
        "steps_to_threshold": None if threshold is None else steps_to_threshold(out["curve"], threshold),
        "eval_mean_return": round(statistics.mean(out["eval_returns"]), 4) if out["eval_returns"] else None,
        "eval_returns": [round(r, 4) for r in out["eval_returns"]],
        "train_last20": round(statistics.mean(v for _, v in out["curve"][-WINDOW:]), 4) if out["curve"] else None,
        "sps": out["sps"],
        "curve": running_mean(out["curve"]),
    }


def key(row: dict) -> tuple:
    return tuple(row[k] for k in ("contender", "env_id", "flags", "steps", "seed", "settings", "machine"))


def load(suite: str) -> list[dict]:
    path = os.path.join(RESULTS, f"{suite}.json")
    return json.load(open(path))["rows"] if os.path.exists(path) else []


def save(suite: str, rows: list[dict]) -> None:
    rows = sorted(rows, key=lambda r: (r["env_id"], r["contender"], r["flags"], r["seed"], r["machine"]))
    with open(os.path.join(RESULTS, f"{suite}.json"), "w") as f:
        f.write(f'{{"suite": {json.dumps(suite)}, "rows": [\n')  # one row a line: diffs stay readable
        f.write(",\n".join(json.dumps(row, separators=(",", ":")) for row in rows))
        f.write("\n]}\n")


def main(args: Args) -> None:
    suite = SUITES[args.suite]
    rows, here = load(args.suite), machine()
    done = {key(row) for row in rows}
    jobs = [(entry, seed) for entry in suite.entries for seed in (args.seeds or suite.seeds)
            if not args.contenders or entry.contender in args.contenders]  # fmt: skip
    jobs = [(e, s) for e, s in jobs if key({**asdict(e), "seed": s, "settings": settings(e), "machine": here}) not in done]
    print(f"{args.suite}: {len(jobs)} runs to do on {here}")
    if args.dry_run:
        for entry, seed in jobs:
            print(f"  {entry.contender} {entry.env_id} {entry.flags} seed {seed}")
        return
    # fresh processes (spawn): a forked copy of a process that has run torch may hang
    with ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        running = {pool.submit(measure, args.suite, entry, seed): (entry, seed) for entry, seed in jobs}
        for finished in as_completed(running):
            row = finished.result()
            rows.append(row)
            save(args.suite, rows)  # after every run: an interrupted suite keeps what it measured
            print(f"  {row['contender']} {row['env_id']} seed {row['seed']}: eval {row['eval_mean_return']}, "
                  f"to threshold {row['steps_to_threshold']}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main(tyro.cli(Args))
