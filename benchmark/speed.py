"""Steps per second of ppo_lstm.py against sb3-contrib's RecurrentPPO, and of its fast against its per-step
recurrent training path; every figure of one invocation comes from the same run on the same machine.

    python benchmark/speed.py            # writes benchmark/results/speed/speed.json and prints a table
    python benchmark/speed.py --task atari --steps 4096    # ppo_gru_atari.py against CleanRL's ppo_atari_lstm.py
    python benchmark/speed.py --task pendulum --minibatches 2    # both contenders with 2 minibatches per epoch
    python benchmark/speed.py --task pendulum --seq-len 32    # ours on 32-step sequences too, beside the others

Matched settings: the peer collects and trains as our script's defaults do (CartPoleNoVel-v1: rl-baselines3-zoo's
recipe with 8 envs x 64 steps in two minibatches, 20 epochs, and beside it the zoo's own 8 x 32 steps in one batch),
LSTM hidden 64 with a separate critic LSTM, observation and reward normalisation; one torch thread each,
one process at a time.
"""

import importlib
import json
import os
import platform
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass

import tyro
from arithmetic import RECORD

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

SB3 = """
import sys, time, torch
sys.path.insert(0, {root!r})
import {module}  # registers {env_id}
from sb3_contrib import RecurrentPPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecNormalize
torch.set_num_threads(1)
env = VecNormalize(make_vec_env("{env_id}", n_envs=8, seed={seed}), gamma={gamma})
model = RecurrentPPO("MlpLstmPolicy", env, gamma={gamma}, learning_rate=1e-3, ent_coef=0.0, seed={seed},
    device="cpu", {settings}, policy_kwargs=dict(lstm_hidden_size=64, ortho_init=False, enable_critic_lstm=True,
    net_arch=dict(pi=[64], vf=[64]){policy_settings}))
start = time.time()
model.learn({steps})
print("SPS", {steps} / (time.time() - start))
"""
# the settings of each task, matched to ppo_lstm.py's and ppo_lstm_continuous.py's defaults (main adds the rollout's
# steps per env and the batch size, as many minibatches as ours); `zoo_settings`: the zoo's own rollouts, one batch of
# 8 x 32 steps
SB3_SETTINGS = {
    "cartpole": dict(module="ppo_lstm", env_id="CartPoleNoVel-v1", gamma=0.98, policy_settings="",
                     settings="n_epochs=20, gae_lambda=0.9",
                     zoo_settings="batch_size=256, n_steps=32, n_epochs=20, gae_lambda=0.8"),
    "pendulum": dict(module="ppo_lstm_continuous", env_id="PendulumNoVel-v1", gamma=0.9,
                     policy_settings=", log_std_init=-0.5", settings="n_epochs=10, gae_lambda=0.95"),
}  # fmt: skip

OURS = """
import sys, io, contextlib
sys.path.insert(0, {root!r})
import ppo_lstm
args = ppo_lstm.Args(seed={seed}, total_timesteps={steps}, eval_episodes=0, cuda=False{flags})
with contextlib.redirect_stdout(io.StringIO()):
    summary = ppo_lstm.main(args)
print("SPS", summary["sps"])
"""


@dataclass
class Args:
    steps: int = 20_480
    """environment steps per measured run"""
    seeds: tuple[int, ...] = (1, 2)
    """each seed is one run of each contender"""
    update_repeats: int = 10
    """repeats of the update-phase timing"""
    task: str = "cartpole"
    """`cartpole`: ppo_lstm.py on CartPoleNoVel-v1 (speed.json); `pendulum`: ppo_lstm_continuous.py on
    PendulumNoVel-v1 with its defaults matched (8 envs, 128 steps, 4 minibatches, 10 epochs; speed_pendulum.json);
    `atari`: ppo_gru_atari.py against CleanRL's ppo_atari_lstm.py on Breakout (speed_atari.json)"""
    minibatches: int = 0
    """the minibatches of each update: 0 for our script's default; N for `--num-minibatches N` in ours and a batch of
    1/N of the same rollout in the matched peer (the zoo's rollouts keep their one batch)"""
    num_steps: int = 0
    """the steps per env of each rollout: 0 for our script's default; N for `--num-steps N` in ours and `n_steps=N` in
    the matched peer (its batch split into as many minibatches as ours)"""
    seq_len: int = 0
    """when N > 0, ours with `--seq-len N` (truncated backpropagation through N steps) as well, beside ours as it is;
    the peer has no such setting (it trains over each env's whole rollout) and runs as without it"""
    tag: str = ""
    """added to the results file's name (`--tag xeon`: results/speed/speed_xeon.json), one file per machine"""


def measure(code: str, threads: int | None = 1) -> float:
    """SPS of one run of `code`; `threads` caps torch's threads, None leaves the contender its own thread defaults."""
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)} if threads else dict(os.environ)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd="/tmp", check=True)
    return float(out.stdout.split("SPS")[-1])


def cleanrl_atari_lstm(steps: int, seed: int) -> float:
    """CleanRL's ppo_atari_lstm.py from the cleanrl 1.2.0 wheel (fetched from PyPI; it declares Python < 3.10, so
    only the file is taken), run unchanged on its defaults (BreakoutNoFrameskip-v4, 8 envs, 128 steps, 4
    minibatches, 4 epochs, torch's default thread count) over gymnasium through benchmark/legacy_gym; its last
    printed SPS."""
    cache = os.path.join(ROOT, "benchmark", ".cache")
    script = os.path.join(cache, "cleanrl", "ppo_atari_lstm.py")
    if not os.path.exists(script):
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--python-version",
                        "3.9", "-d", cache, "cleanrl==1.2.0"], check=True, capture_output=True)  # fmt: skip
        with zipfile.ZipFile(os.path.join(cache, "cleanrl-1.2.0-py3-none-any.whl")) as wheel:
            wheel.extract("cleanrl/ppo_atari_lstm.py", cache)
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "benchmark", "legacy_gym")}
    argv = [sys.executable, script, "--seed", str(seed), "--total-timesteps", str(steps), "--cuda", "False"]
    out = subprocess.run(argv, capture_output=True, text=True, env=env, cwd="/tmp", check=True)
    return float(out.stdout.split("SPS:")[-1])


def update_phase_ms(fast: bool, num_steps: int, episode_length: int, repeats: int) -> float:
    """One PPO update's forward and backward passes (8 envs x num_steps, 1 minibatch) with episode starts at a
    given mean spacing, through ppo_lstm.Agent's fast or per-step path, called as the training update calls it."""
    import gymnasium as gym
    import torch

    import ppo_lstm

    torch.set_num_threads(1)
    torch.manual_seed(0)
    envs = gym.vector.SyncVectorEnv([lambda: gym.make("CartPoleNoVel-v1")])
    agent = ppo_lstm.Agent(envs, ppo_lstm.Args(fast_rnn=fast))
    obs, starts = torch.randn(num_steps * 8, 4), (torch.rand(num_steps * 8) < 1 / episode_length).float()
    state, actions = agent.get_initial_state(8), torch.randint(0, 2, (num_steps * 8,))
    obs = agent.inputs(obs, actions.roll(8), starts)  # what it reads: the observation, then (time-major) the previous action

    def update():
        _, logprob, _, value, _ = agent.get_action_and_value(obs, state, starts, actions, need_state=False)
        (logprob.sum() + value.sum()).backward()

    update()
    begin = time.perf_counter()
    for _ in range(repeats):
        update()
    return (time.perf_counter() - begin) / repeats * 1000


def cpu_identity(cpuinfo: str) -> tuple[str, str]:
    """The model name of the first CPU in a /proc/cpuinfo text, and what tells apart two CPUs of one name (a cloud
    machine may report only "AMD EPYC"): family, model, stepping and the widest vector instructions, which decide
    the kernels torch runs and so each seed's trajectory."""
    fields = {}
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    flags = fields.get("flags", "").split()
    vector = next((v for v in ("avx512f", "avx2", "avx") if v in flags), "no avx").replace("avx512f", "avx512")
    family = f"family {fields.get('cpu family', '?')} model {fields.get('model', '?')} stepping {fields.get('stepping', '?')}"
    return fields.get("model name", "?"), f"{family}, {vector}"


def this_cpu() -> tuple[str, str]:
    """cpu_identity() of the machine this runs on, and the CPU model whose arithmetic it runs with when
    benchmark/arithmetic.py set one."""
    with open("/proc/cpuinfo") as f:
        cpu, cpu_id = cpu_identity(f.read())
    other = os.environ.get(RECORD)
    return cpu, cpu_id + (f"; with the arithmetic of {other}" if other else "")


def out_path(args: Args) -> str:
    name = "speed" + ("" if args.task == "cartpole" else f"_{args.task}") + (f"_{args.tag}" if args.tag else "")
    return os.path.join(ROOT, "benchmark", "results", "speed", f"{name}.json")


def machine() -> dict:
    import torch

    cpu, cpu_id = this_cpu()
    return {"cpu": cpu, "cpu_id": cpu_id, "cores": os.cpu_count(), "torch": torch.__version__,
            "python": platform.python_version(), "threads": 1}  # fmt: skip


def main(args: Args) -> None:
    result = {"machine": machine(), "command": "python benchmark/speed.py " + " ".join(sys.argv[1:]), "runs": []}
    baseline = "sb3-contrib RecurrentPPO"
    if args.task == "atari":
        baseline, atari = "CleanRL ppo_atari_lstm.py", OURS.replace("ppo_lstm", "ppo_gru_atari")
        contenders = {
            baseline: None,
            "ppo_gru_atari.py": atari.replace("{flags}", ""),
            "ppo_gru_atari.py --env-groups 1 (no overlap)": atari.replace("{flags}", ", env_groups=1"),
            "ppo_gru_atari.py --env-threads 1 --env-groups 1 --torch-threads 1 (the defaults before)": atari.replace(
                "{flags}", ", env_threads=1, env_groups=1, torch_threads=1"
            ),
            "ppo_gru_atari.py --backend gymnasium": atari.replace("{flags}", ", backend='gymnasium'"),
        }
        result["machine"]["threads"] = "each contender's own defaults, except where its flags say"
    else:
        script = SB3_SETTINGS[args.task]["module"]
        ours = OURS.replace("ppo_lstm", script)
        defaults = importlib.import_module(script).Args()  # the rollout the matched peer's batch divides
        minibatches, num_steps = args.minibatches or defaults.num_minibatches, args.num_steps or defaults.num_steps
        batch = defaults.num_envs * num_steps // minibatches
        chosen = [(key, value) for key, value in [("num_minibatches", args.minibatches), ("num_steps", args.num_steps)]
                  if value]  # fmt: skip
        flags = "".join(f", {key}={value}" for key, value in chosen)
        name = f"{script}.py" + "".join(f" --{key.replace('_', '-')} {value}" for key, value in chosen)
        contenders = {
            baseline: SB3.replace(
                "{settings}", f"batch_size={batch}, n_steps={num_steps}, {SB3_SETTINGS[args.task]['settings']}"
            ),
            name: ours.replace("{flags}", flags),
            # and the other layout of the critic: its own LSTM or the actor's, whichever the script's default is not
            f"{name} --{'no-' * defaults.shared_lstm}shared-lstm": ours.replace(
                "{flags}", f"{flags}, shared_lstm={not defaults.shared_lstm}"),
        }
        if args.seq_len:  # beside ours as it is: the peer has nothing to match
            contenders[f"{name} --seq-len {args.seq_len}"] = ours.replace("{flags}", f"{flags}, seq_len={args.seq_len}")
        if "zoo_settings" in SB3_SETTINGS[args.task]:  # the peer as the zoo runs it too, where our rollouts differ
            contenders["sb3-contrib RecurrentPPO, the zoo's rollouts"] = SB3.replace(
                "{settings}", SB3_SETTINGS[args.task]["zoo_settings"])
    task_settings = SB3_SETTINGS.get(args.task, {})  # only the sb3-contrib template has these fields
    for seed in args.seeds:
        for name, code in contenders.items():
            if code is None:
                sps = cleanrl_atari_lstm(args.steps, seed)
            else:
                code = code.format(root=ROOT, seed=seed, steps=args.steps, **task_settings)
                sps = measure(code, threads=None if args.task == "atari" else 1)
            result["runs"].append({"contender": name, "seed": seed, "steps": args.steps, "sps": round(sps, 1)})
            print(f"{name:28s} seed {seed}: {sps:7.1f} steps/s", flush=True)
    mean = {name: sum(r["sps"] for r in result["runs"] if r["contender"] == name) / len(args.seeds) for name in contenders}
    result["sps_mean"] = {k: round(v, 1) for k, v in mean.items()}
    result["ratio_vs_sb3" if baseline.startswith("sb3") else "ratio_vs_cleanrl"] = {
        k: round(v / mean[baseline], 2) for k, v in mean.items()
    }
    result["update_phase_ms"] = []
    for episode_length in (20, 200) if args.task == "cartpole" else ():
        fast, slow = (update_phase_ms(f, 128, episode_length, args.update_repeats) for f in (True, False))
        result["update_phase_ms"].append({"num_steps": 128, "mean_episode_length": episode_length, "fast_ms": round(fast, 1),
                                          "per_step_ms": round(slow, 1), "speedup": round(slow / fast, 2)})  # fmt: skip
    os.makedirs(os.path.dirname(out_path(args)), exist_ok=True)
    with open(out_path(args), "w") as f:
        json.dump(result, f, indent=2)
    print(json.dumps({k: v for k, v in result.items() if k.startswith("ratio") or k == "update_phase_ms"}, indent=2))


if __name__ == "__main__":
    main(tyro.cli(Args))
