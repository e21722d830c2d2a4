"""CONTRACT section 7: bad input gets one clear line on stderr and exit code 2, before any training."""

import os
import signal
import subprocess
import sys
import time
from functools import partial

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import DISCRETE_SCRIPTS, LSTM_SCRIPTS, ROOT, VECTOR_SCRIPTS, run


def one_line_error(capsys, name: str, **kwargs) -> str:
    with pytest.raises(SystemExit) as exit_info:
        run(name, **kwargs)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
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


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
@pytest.mark.parametrize("kwargs, says", [({"seq_len": 32}, "larger than --num-steps"), ({"seq_len": 5}, "must divide")])
def test_inconsistent_sequence_length_fails(capsys, name, kwargs, says):
    assert says in one_line_error(capsys, name, **kwargs)
    assert not os.path.exists("runs")


# per script: its own env ids, a masked id to misspell, and a plain id of its kind
OWN = {"ppo_mlp_cartpole": ("CartPoleNoVel-v1", "CueRecall-v0"), "ppo_lstm": ("CartPoleNoVel-v1", "CueRecall-v0"),
       "ppo_lstm_continuous": ("PendulumNoVel-v1", "LunarLanderContinuousNoVel-v3")}  # fmt: skip
PLAIN = {"ppo_mlp_cartpole": "CartPole-v1", "ppo_lstm": "CartPole-v1", "ppo_lstm_continuous": "Pendulum-v1"}


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_unknown_env_id_names_close_matches_and_own_ids(capsys, name):
    masked, other_own = OWN[name]
    typo = masked.replace("NoVel", "NoVell")
    err = one_line_error(capsys, name, env_id=typo)
    assert f"'{typo}'" in err and masked in err and other_own in err


@pytest.mark.parametrize("name", DISCRETE_SCRIPTS)
def test_continuous_actions_point_to_the_continuous_script(capsys, name):
    assert "ppo_lstm_continuous.py" in one_line_error(capsys, name, env_id="Pendulum-v1")


@pytest.mark.parametrize("corr", [1.0, -0.1])
def test_noise_correlation_outside_its_range_fails(capsys, corr):
    assert "--noise-corr must be in [0, 1)" in one_line_error(capsys, "ppo_lstm_continuous", noise_corr=corr)


def test_discrete_actions_point_to_the_discrete_script(capsys):
    assert "use ppo_lstm.py" in one_line_error(capsys, "ppo_lstm_continuous", env_id="CartPole-v1")


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_bad_checkpoints_are_named(capsys, name, tmp_path):
    assert "does not exist" in one_line_error(capsys, name, eval_checkpoint="missing.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    assert "corrupt" in one_line_error(capsys, name, eval_checkpoint="junk.pt")
    torch.save({"script": "other.py", "env_id": "CartPole-v1"}, tmp_path / "other.pt")
    assert "not written by" in one_line_error(capsys, name, eval_checkpoint="other.pt")
    saved = run(name, env_id=OWN[name][0], save_model=True)["checkpoint"]
    capsys.readouterr()
    assert f"is for env '{OWN[name][0]}'" in one_line_error(capsys, name, env_id=PLAIN[name], resume=saved)


class NanRewardEnv(gym.Env):
    observation_space = gym.spaces.Box(-1.0, 1.0, (2,), np.float32)

    def __init__(self, continuous=False, render_mode=None):
        self.action_space = gym.spaces.Box(-1.0, 1.0, (1,), np.float32) if continuous else gym.spaces.Discrete(2)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return np.zeros(2, np.float32), {}

    def step(self, action):
        return np.zeros(2, np.float32), float("nan"), False, False, {}


gym.register("NanReward-v0", entry_point=NanRewardEnv, max_episode_steps=50)
gym.register("NanRewardContinuous-v0", entry_point=partial(NanRewardEnv, True), max_episode_steps=50)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_non_finite_loss_stops_and_keeps_the_last_good_checkpoint(capsys, name):
    env_id = "NanRewardContinuous-v0" if name == "ppo_lstm_continuous" else "NanReward-v0"
    err = one_line_error(capsys, name, env_id=env_id, norm_reward=False, save_model=True)
    assert "non-finite loss at update 1" in err
    path = err.split("last good checkpoint: ")[1]
    weights = torch.load(path, weights_only=False)["model"]
    assert all(torch.isfinite(w).all() for w in weights.values())


def cli(name: str, *flags: str, **popen) -> subprocess.Popen:
    # unbuffered, so that progress lines arrive as printed; SIGINT back to its default, since a pytest-xdist
    # worker ignores it and a child inheriting that would never see Ctrl-C
    return subprocess.Popen(
        [sys.executable, os.path.join(ROOT, f"{name}.py"), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **popen,
    )


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_command_line_error_has_no_traceback(name):
    out, err = cli(name, "--env-id", "NoSuchEnv-v0").communicate(timeout=60)
    assert err.startswith(f"{name}.py: error: unknown env id 'NoSuchEnv-v0'") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_import_has_no_side_effects():
    code = "import ppo_lstm, ppo_lstm_continuous, ppo_mlp_cartpole, os; print(sorted(os.listdir('.')))"
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
