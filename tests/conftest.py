import contextlib
import glob
import importlib
import os
import sys
import threading

import gymnasium as gym
import numpy as np
import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# the vector-observation scripts: everything they share is tested on each of them
DISCRETE_SCRIPTS = ["ppo_mlp_cartpole", "ppo_lstm"]
LSTM_SCRIPTS = ["ppo_lstm", "ppo_lstm_continuous"]
VECTOR_SCRIPTS = [*DISCRETE_SCRIPTS, "ppo_lstm_continuous"]
# small, fast settings: 2 updates of 4 envs x 16 steps; for ppo_gru_atari.py 2 updates of 2 envs x 16 frames
TINY = dict(num_envs=4, num_steps=16, total_timesteps=128, update_epochs=2, eval_episodes=0)
TINY_ATARI = dict(num_envs=2, num_steps=16, total_timesteps=64, update_epochs=2, num_minibatches=2, eval_episodes=0)


def stats_to_the_end(name: str) -> dict:
    """Arguments that keep a script's observation statistics updating at every step of a run, as the MLP's always do
    (ppo_lstm.py freezes them at half of training by default, ppo_lstm_continuous.py at 0.3)."""
    return {"norm_obs_until": 1.0} if name in LSTM_SCRIPTS else {}


def whole_episodes(name: str) -> dict:
    """Arguments that let a script train on the env's whole episodes (ppo_lstm_continuous.py ends them at half the
    env's time limit by default), for the tests that count an env's own episode ends."""
    return {"train_time_limit": 1.0} if name == "ppo_lstm_continuous" else {}


@pytest.fixture(autouse=True)
def _in_tmp_dir(tmp_path, monkeypatch):
    """Every test writes its runs/ and videos/ into its own folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WANDB_MODE", "offline")


def load(name: str):
    return importlib.import_module(name)


def tiny(name: str) -> dict:
    """The tests' small settings for script `name`."""
    return TINY_ATARI if name == "ppo_gru_atari" else TINY


def rollout_steps(name: str) -> int:
    """The steps of one rollout (an update) of script `name` with its tiny settings."""
    return tiny(name)["num_envs"] * tiny(name)["num_steps"]


def run(name: str, **kwargs) -> dict:
    module = load(name)
    return module.main(module.Args(**{**tiny(name), **kwargs}))


def one_line_error(capsys, name: str, alone: bool = False, **kwargs) -> str:
    """Runs script `name` and returns the one line it exits with (exit code 2, no traceback: CONTRACT section 7); with
    `alone`, that line is all it printed, on stdout too."""
    with pytest.raises(SystemExit) as exit_info:
        run(name, **kwargs)
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    err = err.strip()
    assert len(err.splitlines()) == 1, err
    assert not alone or out == "", out
    return err


@contextlib.contextmanager
def tracked():
    """Around a run with --track (WANDB_MODE=offline is set for every test): afterwards the process is as before, so
    that a later run in this worker makes its W&B run in its own folder."""
    import wandb

    try:
        yield
    finally:
        wandb.tensorboard.unpatch()  # sync_tensorboard patches TensorBoard for the whole process
        wandb.teardown()  # wandb keeps the folder of its first run in a process for every later one


def offline_wandb_run() -> str:
    """The folder of the one offline W&B run the test made."""
    (folder,) = glob.glob("wandb/offline-run-*/")
    return folder


def wandb_exit_code() -> int | None:
    """The exit code the test's offline W&B run was finished with; None if it was left unfinished."""
    with open(offline_wandb_run() + "logs/debug.log") as f:
        codes = [line.split("got exitcode: ")[1] for line in f if "got exitcode: " in line]
    return int(codes[-1]) if codes else None


@contextlib.contextmanager
def stopped_in_the_evaluation(capsys, exit_code: int, global_step: int):
    """Around a tracked run with --save-model whose final evaluation is stopped by an error (exit_code 1: a RuntimeError
    "the evaluation broke") or by Ctrl-C (130): the run comes out as it should (the error as raised, or exit code 130),
    after one line that says where it stopped and names the checkpoint of `global_step`, and its W&B run is finished
    with that exit code."""
    raised = pytest.raises(RuntimeError, match="the evaluation broke") if exit_code == 1 else pytest.raises(SystemExit)
    with tracked(), raised as stop:
        yield
    assert exit_code == 1 or stop.value.code == 130
    (line,) = [line for line in capsys.readouterr().err.splitlines() if "in the evaluation" in line]
    what = "stopped by RuntimeError" if exit_code == 1 else "interrupted"
    step = f"global step {global_step}"
    assert line.startswith(f"{what} in the evaluation after {step}; checkpoint at {step}: runs/")
    assert torch.load(line.split(": ")[1], weights_only=False)["global_step"] == global_step
    assert wandb_exit_code() == exit_code


def in_another_thread(function):
    """What `function()` returns when it is called in a thread other than the main one; None if it raised there."""
    results = []
    thread = threading.Thread(target=lambda: results.append(function()))
    thread.start()
    thread.join()
    return results[0] if results else None


def writer_threads() -> int:
    """TensorBoard writers open in this process: each has a thread, which close() ends."""
    return sum(type(thread).__name__ == "_AsyncWriterThread" for thread in threading.enumerate())


def host(x: torch.Tensor) -> torch.Tensor:
    """A detached copy of a tensor on the CPU: what a spy keeps, on whichever device the agent runs (the scripts take
    a GPU where there is one), so that the test compares it with the CPU tensors and arrays of its own."""
    return x.detach().to("cpu", copy=True)


def run_dirs() -> list[str]:
    return sorted(glob.glob("runs/*/"), key=os.path.getmtime)


def scalars(run_dir: str, tag: str) -> list[tuple[int, float]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(run_dir, size_guidance={"scalars": 0})
    acc.Reload()
    return [(e.step, e.value) for e in acc.Scalars(tag)] if tag in acc.Tags()["scalars"] else []


def recorded_frames() -> list[int]:
    """The frames of each video under videos/, in the order of the episodes (or games)."""
    from imageio_ffmpeg import count_frames_and_secs  # decodes the video: the count is exact

    paths = sorted(os.path.join(d, f) for d, _, files in os.walk("videos") for f in files if f.endswith(".mp4"))
    return [count_frames_and_secs(path)[0] for path in paths]


class FiveStepsOfOne(gym.Env):
    """Episodes of exactly 5 steps paying 1 each, random observations. Its constructor takes no render_mode and it
    renders nothing, as third-party envs such as POPGym's; the discounted return follows a known cycle. With `cut`
    it never terminates, and a time limit of 5 steps (FiveStepsOfOneCut-v0) ends its episodes instead."""

    observation_space = gym.spaces.Box(-1.0, 1.0, (3,), np.float32)

    def __init__(self, continuous=False, cut=False):
        self.action_space = gym.spaces.Box(-1.0, 1.0, (1,), np.float32) if continuous else gym.spaces.Discrete(2)
        self.cut = cut

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return self.np_random.uniform(-1, 1, 3).astype(np.float32), {}

    def step(self, action):
        self.t += 1
        return self.np_random.uniform(-1, 1, 3).astype(np.float32), 1.0, self.t == 5 and not self.cut, False, {}


gym.register("FiveStepsOfOne-v0", entry_point=FiveStepsOfOne)
gym.register("FiveStepsOfOneContinuous-v0", entry_point=FiveStepsOfOne, kwargs={"continuous": True})
gym.register("Endless-v0", entry_point=FiveStepsOfOne, kwargs={"cut": True})  # no time limit: it never ends
gym.register("EndlessContinuous-v0", entry_point=FiveStepsOfOne, kwargs={"continuous": True, "cut": True})
gym.register("FiveStepsOfOneCut-v0", entry_point=FiveStepsOfOne, kwargs={"cut": True}, max_episode_steps=5)
gym.register("FiveStepsOfOneCutContinuous-v0", entry_point=FiveStepsOfOne, kwargs={"continuous": True, "cut": True},
             max_episode_steps=5)  # fmt: skip


def env_of(name: str, kind: str) -> str:
    """The registered env `kind` in the action space of script `name`: `{kind}-v0` or `{kind}Continuous-v0`."""
    return f"{kind}Continuous-v0" if name == "ppo_lstm_continuous" else f"{kind}-v0"
