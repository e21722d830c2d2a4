"""Sample efficiency beside the reference peer, in the same run, on the same seeds: the first step at which the mean
of the last 20 training episodes reaches 475, seed by seed, on this machine. `--task lstm` (the default):
ppo_lstm.py and sb3-contrib's RecurrentPPO with the settings of rl-baselines3-zoo's published agent, on
CartPoleNoVel-v1; `--task mlp`: ppo_mlp_cartpole.py and SB3's PPO with the zoo's recipe, on CartPole-v1;
`--task pendulum`: ppo_lstm_continuous.py and RecurrentPPO with the zoo's PendulumNoVel-v1 agent (gSDE), with the steps
to a last-20 mean of -200. On CartPoleNoVel-v1 and PendulumNoVel-v1 both run to --stop-at steps and are evaluated
deterministically over 10 episodes at the end; each run's training curve is kept and drawn, ours beside the peer.

python benchmark/peer_reach.py                 # writes benchmark/results/peer_reach.json (about 5 min per seed)
python benchmark/peer_reach.py --task mlp      # writes benchmark/results/peer_reach_mlp.json
python benchmark/peer_reach.py --task pendulum # writes benchmark/results/peer_reach_pendulum.json (about 10 min a seed)
python benchmark/peer_reach.py --task pendulum --tag xeon  # the same, into peer_reach_pendulum_xeon.json
python benchmark/peer_reach.py --workers 2      # two runs at a time (a run's steps and returns are the same)

The zoo's `normalize: true` is VecNormalize with its defaults: observations AND rewards normalised during
training, with the algorithm's gamma (the zoo passes it on). A run stops at --stop-at steps (by default the zoo's
whole budget of 100k), and on CartPole-v1 once it has reached the threshold; the schedules always span 100k steps, so
the steps before the stop are the ones a full run takes. A seed already in the results file (same --stop-at
and settings, measured on the same CPU model) is not run again; of ours only a row measured with every setting our
script takes now (a default changed since is measured again).
"""

import json
import multiprocessing
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

import torch
import tyro
from sb3_contrib import RecurrentPPO
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecNormalize

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import plot  # noqa: E402
import run as runner  # noqa: E402
from speed import machine  # noqa: E402

import ppo_lstm  # noqa: E402, F401  (registers CartPoleNoVel-v1)
import ppo_lstm_continuous  # noqa: E402, F401  (registers PendulumNoVel-v1)

# the zoo's `normalize: true`: VecNormalize's defaults normalise rewards as well as observations, and the zoo sets its
# gamma to the algorithm's
VEC_NORMALIZE = dict(norm_obs=True, norm_reward=True, gamma=0.98)
# what each choice of --settings runs; `zoo` is left exactly as the zoo published it, `matched` changes only what
# ppo_lstm.py's defaults set differently (tanh, lr and clip range held constant)
SETTINGS = {
    "zoo": dict(activation_fn=torch.nn.ReLU, learning_rate=lambda progress: 1e-3 * progress,
                clip_range=lambda progress: 0.2 * progress),
    "matched": dict(activation_fn=torch.nn.Tanh, learning_rate=1e-3, clip_range=0.2),
}  # fmt: skip


@dataclass
class Args:
    seeds: list[int] = field(default_factory=lambda: list(range(1, 11)))
    """one run per seed"""
    stop_at: int = 100_000
    """a run that has not reached the threshold by this many steps is stopped and counted as not reached"""
    task: str = "lstm"
    """`lstm`: ppo_lstm.py beside RecurrentPPO on CartPoleNoVel-v1; `mlp`: ppo_mlp_cartpole.py beside PPO on CartPole-v1;
    `pendulum`: ppo_lstm_continuous.py beside RecurrentPPO with gSDE on PendulumNoVel-v1"""
    ours_flags: str = ""
    """flags added to our script's command line (recorded in the results)"""
    settings: str = "zoo"
    """`zoo`: the settings of rl-baselines3-zoo's published CartPoleNoVel-v1 agent (results/peer_reach.json);
    `matched`: the same with ppo_lstm.py's activation and constant schedules
    (results/peer_reach_matched.json)"""
    tag: str = ""
    """added to the results file's name (`--tag xeon`: results/peer_reach_pendulum_xeon.json for --task pendulum)"""
    workers: int = 1
    """runs at once, each in a process of its own with one torch thread (a run's steps and returns do not depend on it;
    its seconds do)"""


# per task: the env, our script, the peer's name in the results, the peer's VecNormalize (None: not wrapped), and
# whether the peer's run stops once it reaches the threshold; where it does not, both are evaluated at the end
# (CartPoleNoVel-v1's and PendulumNoVel-v1's targets include the evaluation at 100k)
TASKS = {
    "lstm": dict(env_id="CartPoleNoVel-v1", script="ppo_lstm.py", peer="sb3-contrib", vec_normalize=VEC_NORMALIZE,
                 early_stop=False),
    "mlp": dict(env_id="CartPole-v1", script="ppo_mlp_cartpole.py", peer="sb3", vec_normalize=None, early_stop=True),
    "pendulum": dict(env_id="PendulumNoVel-v1", script="ppo_lstm_continuous.py", peer="sb3-contrib",
                     vec_normalize=dict(norm_obs=True, norm_reward=True, gamma=0.9), early_stop=False),
}  # fmt: skip


def out_path(args: Args) -> str:
    name = (
        "peer_reach"
        + ("" if args.task == "lstm" else f"_{args.task}")
        + ("" if args.settings == "zoo" else f"_{args.settings}")
        + (f"_{args.tag}" if args.tag else "")
    )
    return os.path.join(HERE, "results", f"{name}.json")


class StopAtThreshold(BaseCallback):
    """Records (step, return) of every finished training episode; ends the run at the threshold (when `early_stop`)
    or the cap."""

    def __init__(self, stop_at: int, threshold: float, early_stop: bool = True):
        super().__init__()
        self.stop_at, self.threshold, self.early_stop, self.curve, self.reached = stop_at, threshold, early_stop, [], None

    def _on_step(self) -> bool:
        finished = [(self.num_timesteps, info["episode"]["r"]) for info in self.locals["infos"] if "episode" in info]
        if finished:  # the running mean moves only when an episode ends
            self.curve += finished
            self.reached = plot.steps_to_threshold(self.curve, self.threshold)
        return (self.reached is None or not self.early_stop) and self.num_timesteps < self.stop_at


def run(seed: int, stop_at: int, settings: str, task: str = "lstm") -> dict:
    return learn(make_model(seed, settings, task), stop_at, task)


def make_model(seed: int, settings: str, task: str = "lstm"):
    """The peer of `task`, untrained, on its vector env: the zoo's published agent."""
    if task == "mlp":  # the zoo's PPO recipe for CartPole-v1: no normalisation, SB3's default MlpPolicy
        return PPO("MlpPolicy", make_vec_env("CartPole-v1", n_envs=8, seed=seed), n_steps=32, batch_size=256, n_epochs=20,
                   gamma=0.98, gae_lambda=0.8, ent_coef=0.0, learning_rate=lambda progress: 1e-3 * progress,
                   clip_range=lambda progress: 0.2 * progress, seed=seed, device="cpu")  # fmt: skip
    if task == "pendulum":  # rl_zoo3 2.9.2's PendulumNoVel-v1 entry (hyperparams/ppo_lstm.yml, as its train.py prints
        # it): gSDE resampled every 4 steps, 4 envs x 1024 steps, VecNormalize with gamma 0.9, LSTMs of 64
        env = VecNormalize(make_vec_env("PendulumNoVel-v1", n_envs=4, seed=seed), gamma=0.9)
        return RecurrentPPO("MlpLstmPolicy", env, n_steps=1024, gae_lambda=0.95, gamma=0.9, n_epochs=10, ent_coef=0.0,
                            learning_rate=1e-3, clip_range=0.2, use_sde=True, sde_sample_freq=4, seed=seed, device="cpu",
                            policy_kwargs=dict(ortho_init=False, activation_fn=torch.nn.ReLU, lstm_hidden_size=64,
                                               enable_critic_lstm=True, net_arch=dict(pi=[64], vf=[64])))  # fmt: skip
    # what both settings share, from the zoo's published agent (its model card): VecNormalize as above, no
    # orthogonal init, an LSTM of 64 for the actor and one for the critic, one 64-unit layer per head
    chosen = SETTINGS[settings]
    env = VecNormalize(make_vec_env("CartPoleNoVel-v1", n_envs=8, seed=seed), **VEC_NORMALIZE)
    return RecurrentPPO(
        "MlpLstmPolicy", env, n_steps=32, batch_size=256, n_epochs=20, gamma=0.98, gae_lambda=0.8, ent_coef=0.0,
        learning_rate=chosen["learning_rate"], clip_range=chosen["clip_range"], seed=seed, device="cpu",
        policy_kwargs=dict(ortho_init=False, activation_fn=chosen["activation_fn"], lstm_hidden_size=64,
                           enable_critic_lstm=True, net_arch=dict(pi=[64], vf=[64])),
    )  # fmt: skip


def learn(model, stop_at: int, task: str = "lstm") -> dict:
    env_id, early_stop = TASKS[task]["env_id"], TASKS[task]["early_stop"]
    callback, start = StopAtThreshold(stop_at, plot.THRESHOLDS[env_id], early_stop), time.time()
    model.learn(100_000, callback=callback)
    last20 = statistics.mean(value for _, value in callback.curve[-20:])
    result = {"seed": model.seed, "steps_to_threshold": callback.reached, "steps_run": model.num_timesteps,
              "episodes": len(callback.curve), "last20_mean_at_stop": round(last20, 1),
              "seconds": round(time.time() - start, 1), "curve": [(int(t), float(r)) for t, r in callback.curve]}  # fmt: skip
    if not early_stop:  # the deterministic evaluation at the end, 10 episodes on a fresh env, as our scripts do
        from stable_baselines3.common.evaluation import evaluate_policy

        eval_env = make_vec_env(env_id, n_envs=1, seed=model.seed + 100_000)
        if isinstance(model.get_env(), VecNormalize):  # the training statistics, frozen; the raw rewards counted
            eval_env = VecNormalize(eval_env, training=False, norm_reward=False, gamma=model.gamma)
            eval_env.obs_rms = model.get_env().obs_rms.copy()
        returns, _ = evaluate_policy(model, eval_env, n_eval_episodes=10, deterministic=True, return_episode_rewards=True)
        result["eval_mean_return"] = round(statistics.mean(returns), 1)
        result["eval_returns"] = [float(r) for r in returns]
    return result


def run_ours(seed: int, task: str = "lstm", flags: str = "", stop_at: int = 100_000) -> dict:
    """Our script with its defaults and any --ours-flags for --stop-at steps, one process, one torch thread, as the peer
    runs."""
    start = time.time()
    with tempfile.TemporaryDirectory() as cwd:
        argv = [sys.executable, os.path.join(os.path.dirname(HERE), TASKS[task]["script"]), "--env-id",
                TASKS[task]["env_id"], "--seed", str(seed), "--total-timesteps", str(stop_at), *flags.split()]  # fmt: skip
        subprocess.run(argv, cwd=cwd, check=True, capture_output=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
        (run_dir,) = [os.path.join(cwd, "runs", d) for d in os.listdir(os.path.join(cwd, "runs"))]
        curve = [(step, value) for step, tag, value in runner.read_scalars(run_dir) if tag == "charts/episodic_return"]
        with open(os.path.join(run_dir, "summary.json")) as f:
            summary = json.load(f)
    return {"seed": seed, "steps_to_threshold": plot.steps_to_threshold(curve, plot.THRESHOLDS[TASKS[task]["env_id"]]),
            "steps_run": summary["global_step"], "episodes": len(curve),
            "eval_mean_return": summary["eval_mean_return"], "seconds": round(time.time() - start, 1),
            "curve": [(int(t), float(r)) for t, r in curve]}  # fmt: skip


def reusable(before: dict, args: Args) -> bool:
    """Whether the rows of a results file can stand beside new ones: the same cap, normalisation and flags, measured
    on the same CPU model (a seed follows another trajectory on another CPU, and its speed differs): the same name
    and, as two CPUs may share a name, the same family, model, stepping and vector instructions (a file that did not
    record them is not reused)."""
    task, now = TASKS[args.task], machine()
    return (before["stop_at"], before.get("vec_normalize"), before.get("ours_flags", ""),
            before.get("early_stop", task["early_stop"]), before["machine"]["cpu"], before["machine"].get("cpu_id")) == (
        args.stop_at, task["vec_normalize"], args.ours_flags, task["early_stop"], now["cpu"], now["cpu_id"])  # fmt: skip


def ours_settings(args: Args) -> dict:
    """Every setting our script runs with here, as its own Args parse its command line (its defaults of now, then
    --ours-flags), but the seed; recorded in the results file."""
    task = TASKS[args.task]
    return runner.script_settings(task["script"], ["--env-id", task["env_id"], "--total-timesteps", str(args.stop_at),
                                                   *args.ours_flags.split()])  # fmt: skip


def reused_rows(before: dict, args: Args) -> dict:
    """(script, seed) -> row: the rows of a results file that a run now keeps. None unless reusable(); of ours only
    those measured with the settings our script takes now (rows of a file that did not record them are run again)."""
    if not reusable(before, args):
        return {}
    ours_alike = before.get("ours_settings") == ours_settings(args)
    return {(row["script"], row["seed"]): row for row in before["runs"]
            if row["script"] == TASKS[args.task]["peer"] or ours_alike}  # fmt: skip


def measure(script: str, seed: int, args: Args) -> dict:
    """One run of the peer or of our script, in a worker process."""
    torch.set_num_threads(1)
    if script == TASKS[args.task]["peer"]:
        return run(seed, args.stop_at, args.settings, args.task)
    return run_ours(seed, args.task, args.ours_flags, args.stop_at)


def main(args: Args) -> None:
    done = {}  # seeds measured before with the same settings on this CPU are not run again (an interrupted run resumes)
    task = TASKS[args.task]
    if os.path.exists(out_path(args)):
        with open(out_path(args)) as f:
            done = reused_rows(json.load(f), args)
    jobs = [(script, seed) for seed in args.seeds for script in [task["peer"], task["script"]] if (script, seed) not in done]
    # fresh processes (spawn): a forked copy of a process that has run torch may hang
    with ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        running = {pool.submit(measure, script, seed, args): (script, seed) for script, seed in jobs}
        for finished in as_completed(running):
            script, seed = running[finished]
            done[(script, seed)] = {"script": script, **finished.result()}
            write(sorted(done.values(), key=lambda row: (row["seed"], row["script"])), args)  # keeps what it measured
            print({k: v for k, v in done[(script, seed)].items() if k != "curve"}, flush=True)
    rows = [done[(script, seed)] for seed in args.seeds for script in [task["peer"], task["script"]]]
    write(rows, args)
    plot_rows(rows, task["env_id"], out_path(args).replace(".json", ".png"))
    print(
        f"median steps to last-20 mean >= {plot.THRESHOLDS[task['env_id']]:.0f}: {task['peer']} {median_steps(rows[::2])}, "
        f"{task['script']} {median_steps(rows[1::2])}  -> {out_path(args)}"
    )


def plot_rows(rows: list[dict], env_id: str, path: str) -> None:
    """Ours and the peer on one plot: the last-20 training mean over the seeds whose curve was recorded, with its 95%
    bootstrap band, up to the step where the first of those runs stopped."""
    runs = [{"env_id": env_id, "variant": row["script"], "global_step": row["curve"][-1][0],
             "run": f"{row['script']}/{row['seed']}"} for row in rows if row.get("curve")]  # fmt: skip
    if runs:
        curves = {f"{row['script']}/{row['seed']}": row["curve"] for row in rows if row.get("curve")}
        plot.plot_curves(runs, curves, path)


def median_steps(rows: list[dict]) -> float | None:
    # a seed that did not reach counts as above every seed that did (it would need more than it ran)
    median = statistics.median(row["steps_to_threshold"] or float("inf") for row in rows)
    return None if median == float("inf") else median


def write(rows: list[dict], args: Args) -> None:
    task = TASKS[args.task]
    peer = [row for row in rows if row["script"] == task["peer"]]
    ours = [row for row in rows if row["script"] == task["script"]]
    result = {
        "command": "python benchmark/peer_reach.py " + shlex.join(sys.argv[1:]),  # --ours-flags="..." stays one argument
        "machine": machine(),
        "env_id": task["env_id"],
        "peer": "SB3 PPO" if args.task == "mlp" else "sb3-contrib RecurrentPPO",
        "settings": args.settings,
        "vec_normalize": task["vec_normalize"],
        "ours_flags": args.ours_flags,
        "ours_settings": ours_settings(args),
        "threshold": plot.THRESHOLDS[task["env_id"]],
        "eval_mean_over_seeds": {name: round(statistics.mean(r["eval_mean_return"] for r in group), 1)
                                 for name, group in [(task["peer"], peer), (task["script"], ours)]
                                 if group and all(r.get("eval_mean_return") is not None for r in group)},
        "stop_at": args.stop_at,
        "early_stop": task["early_stop"],
        "median_steps_to_threshold": median_steps(peer) if peer else None,
        "ours_median_steps_to_threshold": median_steps(ours) if ours else None,
        "runs": rows,
    }
    with open(out_path(args), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(tyro.cli(Args))
