"""CONTRACT section 7: bad input gets one clear line on stderr and exit code 2, before any training."""

import os
import signal
import subprocess
import sys
import time

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import DISCRETE_SCRIPTS, ROOT, run


def one_line_error(capsys, name: str, **kwargs) -> str:
    with pytest.raises(SystemExit) as exit_info:
        run(name, **kwargs)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("name", DISCRETE_SCRIPTS)
@pytest.mark.parametrize(
    "kwargs, says",
    [
        ({"num_minibatches": 3}, "minibatches"),
        ({"num_envs": 0}, "--num-envs must be positive"),
        ({"total_timesteps": -5}, "--total-timesteps must be positive"),
        ({"total_timesteps": 10}, "less than one rollout"),
    ],
)
def test_inconsistent_arguments_fail_before_any_env_is_built(capsys, name, kwargs, says):
    assert says in one_line_error(capsys, name, **kwargs)
    assert not os.path.exists("runs")


@pytest.mark.parametrize("kwargs, says", [({"seq_len": 32}, "larger than --num-steps"), ({"seq_len": 5}, "must divide")])
def test_inconsistent_sequence_length_fails(capsys, kwargs, says):
    assert says in one_line_error(capsys, "ppo_lstm", **kwargs)
    assert not os.path.exists("runs")


@pytest.mark.parametrize("name", DISCRETE_SCRIPTS)
def test_unknown_env_id_names_close_matches_and_own_ids(capsys, name):
    err = one_line_error(capsys, name, env_id="CartPoleNoVell-v1")
    assert "'CartPoleNoVell-v1'" in err and "CartPoleNoVel-v1" in err and "CueRecall-v0" in err


@pytest.mark.parametrize("name", DISCRETE_SCRIPTS)
def test_continuous_actions_point_to_the_continuous_script(capsys, name):
    assert "ppo_lstm_continuous.py" in one_line_error(capsys, name, env_id="Pendulum-v1")


@pytest.mark.parametrize("name", DISCRETE_SCRIPTS)
def test_bad_checkpoints_are_named(capsys, name, tmp_path):
    assert "does not exist" in one_line_error(capsys, name, eval_checkpoint="missing.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    assert "corrupt" in one_line_error(capsys, name, eval_checkpoint="junk.pt")
    torch.save({"script": "other.py", "env_id": "CartPole-v1"}, tmp_path / "other.pt")
    assert "not written by" in one_line_error(capsys, name, eval_checkpoint="other.pt")
    saved = run(name, env_id="CueRecall-v0", save_model=True)["checkpoint"]
    capsys.readouterr()
    assert "is for env 'CueRecall-v0'" in one_line_error(capsys, name, env_id="CartPole-v1", resume=saved)


class NanRewardEnv(gym.Env):
    observation_space = gym.spaces.Box(-1.0, 1.0, (2,), np.float32)
    action_space = gym.spaces.Discrete(2)

    def __init__(self, render_mode=None):
        pass

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return np.zeros(2, np.float32), {}

    def step(self, action):
        return np.zeros(2, np.float32), float("nan"), False, False, {}


gym.register("NanReward-v0", entry_point=NanRewardEnv, max_episode_steps=50)


@pytest.mark.parametrize("name", DISCRETE_SCRIPTS)
def test_non_finite_loss_stops_and_keeps_the_last_good_checkpoint(capsys, name):
    err = one_line_error(capsys, name, env_id="NanReward-v0", norm_reward=False, save_model=True)
    assert "non-finite loss at update 1" in err
    path = err.split("last good checkpoint: ")[1]
    weights = torch.load(path, weights_only=False)["model"]
    assert all(torch.isfinite(w).all() for w in weights.values())


def cli(name: str, *flags: str, **popen) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, os.path.join(ROOT, f"{name}.py"), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


@pytest.mark.parametrize("name", DISCRETE_SCRIPTS)
def test_command_line_error_has_no_traceback(name):
    out, err = cli(name, "--env-id", "NoSuchEnv-v0").communicate(timeout=60)
    assert err.startswith(f"{name}.py: error: unknown env id 'NoSuchEnv-v0'") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_import_has_no_side_effects():
    code = "import ppo_lstm, ppo_mlp_cartpole, os; print(sorted(os.listdir('.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=os.getcwd(),
                         env={**os.environ, "PYTHONPATH": ROOT}, check=True).stdout  # fmt: skip
    assert out.strip() == "[]"


def test_ctrl_c_flushes_and_saves_a_checkpoint():
    proc = cli("ppo_lstm", "--save-model", "--total-timesteps", "1000000", "--num-envs", "2", "--eval-episodes", "0")
    deadline = time.time() + 60
    while time.time() < deadline and not proc.stdout.readline().startswith("update 2/"):
        pass
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "checkpoint:" in err
    path = err.strip().split("checkpoint: ")[1]
    assert torch.load(path, weights_only=False)["global_step"] >= 128
