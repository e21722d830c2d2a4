"""CONTRACT section 7: bad input gets one clear line on stderr and exit code 2, before any training."""

import ast
import itertools
import os
import signal
import subprocess
import sys
import time
import types
from functools import partial

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import (
    DISCRETE_SCRIPTS,
    LSTM_SCRIPTS,
    ROOT,
    VECTOR_SCRIPTS,
    FiveStepsOfOne,
    env_of,
    in_another_thread,
    load,
    one_line_error,
    rollout_steps,
    run,
    run_dirs,
    scalars,
    stats_to_the_end,
    stopped_in_the_evaluation,
    tracked,
    wandb_exit_code,
    writer_threads,
)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize(
    "kwargs, says",
    [
        ({"num_minibatches": 3}, "minibatches"),
        ({"num_envs": 0}, "--num-envs must be positive"),
        ({"total_timesteps": -5}, "--total-timesteps must be positive"),
        ({"total_timesteps": 10}, "less than one rollout"),
        ({"learning_rate": 0.0}, "--learning-rate must be positive"),
        ({"learning_rate": -1e-3}, "--learning-rate must be positive"),
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


@pytest.mark.parametrize("name", ["ppo_lstm", "ppo_lstm_continuous"])
@pytest.mark.parametrize("until", [1.5, -0.1])
def test_observation_statistics_freeze_point_outside_its_range_fails(capsys, name, until):
    err = one_line_error(capsys, name, norm_obs_until=until)
    assert "--norm-obs-until is a fraction" in err or "--norm-obs-until must be from 0 to 1" in err


def test_discrete_actions_point_to_the_discrete_script(capsys):
    assert "use ppo_lstm.py" in one_line_error(capsys, "ppo_lstm_continuous", alone=True, env_id="CartPole-v1")


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


# a minibatch of a single step: its advantages have no standard deviation to normalise by
ONE_STEP_MINIBATCH = {"ppo_mlp_cartpole": {"num_minibatches": 64}, "ppo_lstm": {"num_minibatches": 64, "seq_len": 1},
                      "ppo_lstm_continuous": {"num_minibatches": 64, "seq_len": 1}}  # fmt: skip


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_one_step_minibatch_with_advantage_normalisation_is_an_argument_error(capsys, name):
    assert "a minibatch of one step" in one_line_error(capsys, name, **ONE_STEP_MINIBATCH[name])
    assert not os.path.exists("runs")


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_image_observations_point_to_the_atari_script(capsys, name):
    """CarRacing-v3 sees 96x96 pixels and acts with a Box: no vector script takes it, so none may point to another."""
    err = one_line_error(capsys, name, alone=True, env_id="CarRacing-v3")
    assert "not images" in err and "ppo_gru_atari.py" in err and "ppo_lstm" not in err.split(";")[1]
    assert not os.path.exists("runs")


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_missing_dependency_is_one_line_before_training(capsys, name):
    """HalfCheetah-v5 is registered by gymnasium but needs mujoco, which the requirements leave out."""
    assert "needs a package that is not installed" in one_line_error(capsys, name, env_id="HalfCheetah-v5")
    assert not os.path.exists("runs")


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_env_without_render_mode_trains_and_evaluates(name):
    summary = run(name, env_id=env_of(name, "FiveStepsOfOne"), eval_episodes=2)
    assert summary["global_step"] == 128 and summary["eval_mean_return"] == 5.0


class SilentEnv(FiveStepsOfOne):
    """Takes a render_mode, as gymnasium's own envs do, but lists no render modes (as CueRecall-v0)."""

    def __init__(self, continuous=False, render_mode=None):
        super().__init__(continuous)


gym.register("Silent-v0", entry_point=SilentEnv)
gym.register("SilentContinuous-v0", entry_point=partial(SilentEnv, True))


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("kind", ["FiveStepsOfOne", "Silent"])
def test_capture_video_on_an_env_that_cannot_render_fails_before_training(capsys, name, kind):
    env_id = env_of(name, kind)
    err = one_line_error(capsys, name, env_id=env_id, capture_video=True, eval_episodes=1)
    assert err.startswith(f"{name}.py: error: --capture-video: env '{env_id}'")
    assert not os.path.exists("runs")


MODULE = """import gymnasium as gym
gym.register("OnlyByPrefix-v0", entry_point="gymnasium.envs.classic_control:{}", max_episode_steps=20)
"""


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_module_prefix_imports_the_module_in_a_fresh_interpreter(name, tmp_path):
    """`module:EnvId`: the env exists only once its module is imported, which only the prefix does."""
    env_class = "PendulumEnv" if name == "ppo_lstm_continuous" else "CartPoleEnv"
    (tmp_path / "prefix_only_envs.py").write_text(MODULE.format(env_class))
    tiny = ["--total-timesteps", "128", "--num-envs", "4", "--num-steps", "16", "--eval-episodes", "1"]
    proc = cli(
        name, "--env-id", "prefix_only_envs:OnlyByPrefix-v0", *tiny, cwd=tmp_path, extra_env={"PYTHONPATH": on_path(tmp_path)}
    )
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "summary: runs/prefix_only_envs_OnlyByPrefix-v0__" in out


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_module_prefix_of_a_registered_id_and_a_missing_module(capsys, name):
    plain = PLAIN[name]
    assert run(name, env_id=f"gymnasium:{plain}")["global_step"] == 128
    err = one_line_error(capsys, name, env_id=f"no_such_module_anywhere:{plain}")
    assert "cannot import module 'no_such_module_anywhere'" in err


class NanRewardEnv(gym.Env):
    """Rewards (or observations, with nan_obs) turn NaN after `clean_steps` steps of an episode; with breaks, the env
    raises there instead; with wrong_shape, its observations have 3 entries there (its space says 2), from the reset
    on where clean_steps is negative."""

    observation_space = gym.spaces.Box(-1.0, 1.0, (2,), np.float32)

    def __init__(self, continuous=False, clean_steps=0, nan_obs=False, breaks=False, wrong_shape=False, render_mode=None):
        self.action_space = gym.spaces.Box(-1.0, 1.0, (1,), np.float32) if continuous else gym.spaces.Discrete(2)
        self.clean_steps, self.nan_obs, self.breaks, self.t = clean_steps, nan_obs, breaks, 0
        self.wrong_shape = wrong_shape

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if self.breaks and self.clean_steps < 0:
            raise RuntimeError("the env broke at reset")
        size = 3 if self.wrong_shape and self.clean_steps < 0 else 2
        return self.np_random.uniform(-1, 1, size).astype(np.float32), {}

    def step(self, action):
        self.t += 1
        obs = self.np_random.uniform(-1, 1, 2).astype(np.float32)
        if self.t <= self.clean_steps:
            return obs, float(self.np_random.uniform()), False, False, {}
        if self.breaks:
            raise RuntimeError("the env broke")
        if self.wrong_shape:
            return np.zeros(3, np.float32), 0.0, False, False, {}
        if self.nan_obs:
            return np.full(2, np.nan, np.float32), 0.0, False, False, {}
        return obs, float("nan"), False, False, {}


for _kind, _continuous in [("", False), ("Continuous", True)]:
    gym.register(f"NanReward{_kind}-v0", entry_point=partial(NanRewardEnv, _continuous), max_episode_steps=50)
    # clean for 20 steps per env: the first NaN arrives in the second rollout of 16 steps
    gym.register(f"NanLater{_kind}-v0", entry_point=partial(NanRewardEnv, _continuous, 20), max_episode_steps=500)
    gym.register(f"NeverNan{_kind}-v0", entry_point=partial(NanRewardEnv, _continuous, 10**9), max_episode_steps=500)
    gym.register(f"NanObs{_kind}-v0", entry_point=partial(NanRewardEnv, _continuous, 20, True), max_episode_steps=500)
    gym.register(f"BreaksLater{_kind}-v0", entry_point=partial(NanRewardEnv, _continuous, 20, breaks=True),
                 max_episode_steps=500)  # fmt: skip
    gym.register(f"BreaksAtReset{_kind}-v0", entry_point=partial(NanRewardEnv, _continuous, -1, breaks=True))
    for _clean in [20, -1]:
        gym.register(f"WrongShape{_clean}{_kind}-v0", entry_point=partial(NanRewardEnv, _continuous, _clean, wrong_shape=True),
                     max_episode_steps=500)  # fmt: skip


class StopsInEvaluation(NanRewardEnv):
    """Clean in training; in the evaluation (an env reset with the scripts' evaluation seed, 100,000 above the run's),
    its third step raises `stop`. Each env records itself in `closed` when it is closed."""

    closed = []

    def __init__(self, continuous, stop, render_mode=None):
        super().__init__(continuous, clean_steps=10**9)
        self.stop, self.evaluating = stop, False

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.evaluating, self.t = seed >= 100_000, 0
        return super().reset(seed=seed)

    def step(self, action):
        if self.evaluating and self.t == 2:
            raise self.stop
        return super().step(action)

    def close(self):
        StopsInEvaluation.closed.append(self)


class NanInEvaluation(StopsInEvaluation):
    """Clean in training; in the evaluation its observations turn NaN from the third step on."""

    def __init__(self, continuous, render_mode=None):
        super().__init__(continuous, stop=None)

    def step(self, action):
        obs, reward, terminated, truncated, info = NanRewardEnv.step(self, action)
        if self.evaluating and self.t >= 3:
            obs = np.full(2, np.nan, np.float32)
        return obs, reward, terminated, truncated, info


EVALUATION_STOPS = {"BreaksInEvaluation": RuntimeError("the evaluation broke"), "CtrlCInEvaluation": KeyboardInterrupt()}
for _kind, _continuous in [("", False), ("Continuous", True)]:
    for _name, _stop in EVALUATION_STOPS.items():
        gym.register(f"{_name}{_kind}-v0", entry_point=partial(StopsInEvaluation, _continuous, _stop), max_episode_steps=50)
    gym.register(f"NanInEvaluation{_kind}-v0", entry_point=partial(NanInEvaluation, _continuous), max_episode_steps=50)


def kept_checkpoint(err: str) -> tuple[int, dict]:
    """The global step the error message gives for the kept checkpoint, and that checkpoint."""
    step = int(err.split("(global step ")[1].split(")")[0])
    return step, torch.load(err.split("): ")[1], weights_only=False)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_non_finite_loss_from_the_first_update_keeps_the_initial_weights(capsys, name):
    err = one_line_error(capsys, name, env_id=env_of(name, "NanReward"), norm_reward=False, save_model=True)
    assert "non-finite loss at update 1" in err
    step, saved = kept_checkpoint(err)
    assert step == saved["global_step"] == 0 and saved["iteration"] == 0
    assert all(torch.isfinite(w).all() for w in saved["model"].values())


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_non_finite_loss_later_keeps_the_weights_of_the_last_completed_update(capsys, name):
    to_the_end = stats_to_the_end(name)  # so that the shorter run below updates the statistics at the same steps
    err = one_line_error(capsys, name, env_id=env_of(name, "NanLater"), norm_reward=False, save_model=True, **to_the_end)
    assert "non-finite loss at update 2" in err
    step, saved = kept_checkpoint(err)
    assert step == saved["global_step"] == 64 and saved["iteration"] == 1  # not the 128 steps of the broken rollout
    # the same run without the NaN, stopped after one update, leaves exactly these weights
    clean = torch.load(run(name, env_id=env_of(name, "NeverNan"), norm_reward=False, save_model=True,
                           total_timesteps=64, **to_the_end)["checkpoint"], weights_only=False)  # fmt: skip
    for key, weight in clean["model"].items():
        torch.testing.assert_close(saved["model"][key], weight, rtol=0, atol=0)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_an_env_that_raises_at_the_first_reset_stops_the_run_before_anything_is_written(capsys, name, monkeypatch):
    """The error comes out as the env raised it, after one line that says where; the envs are closed and no run folder
    is left half made."""
    closed = env_closes(monkeypatch)
    with pytest.raises(RuntimeError, match="the env broke at reset"):
        run(name, env_id=env_of(name, "BreaksAtReset"), save_model=True)
    assert "stopped by RuntimeError at the first reset" in capsys.readouterr().err.splitlines()
    assert len(closed) == 1 and not os.path.exists("runs")


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_an_observation_of_another_shape_than_its_space_stops_the_run_in_one_line(capsys, name):
    """An env that breaks its own observation space (3 entries where it declares 2) stops the run with one line, exit
    code 2, at the first reset before anything is written, or in the loop with the last completed update kept (before:
    a traceback from inside the vector env)."""
    space = "an observation of shape (3,) for its space Box(-1.0, 1.0, (2,), float32)"
    err = one_line_error(capsys, name, env_id=env_of(name, "WrongShape-1"), save_model=True)
    assert err == f"{name}.py: error: the env gave {space} at the first reset"
    assert not os.path.exists("runs")
    err = one_line_error(capsys, name, env_id=env_of(name, "WrongShape20"), save_model=True, norm_reward=False)
    assert f"the env gave {space} at global step 84; checkpoint at global step 64: runs/" in err
    assert torch.load(err.split(": ")[-1], weights_only=False)["global_step"] == 64


def env_closes(monkeypatch) -> list:
    """Every SyncVectorEnv closed from here on, one entry per close()."""
    closed, close = [], gym.vector.SyncVectorEnv.close
    monkeypatch.setattr(gym.vector.SyncVectorEnv, "close", lambda self, **kwargs: closed.append(self) or close(self))
    return closed


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_a_non_finite_stop_closes_the_envs_the_writer_and_the_wandb_run(capsys, name, monkeypatch):
    """A run that stops on a non-finite loss leaves nothing open behind it, in a process that goes on (a sweep that
    calls main) as at its exit: its envs are closed, its TensorBoard writer is closed (its thread ends), and its W&B
    run is finished with the exit code 2 (left open, the run's log ends at its last scalar)."""
    closed = env_closes(monkeypatch)
    writers = writer_threads()
    with tracked(), pytest.raises(SystemExit) as stop:  # W&B writes to stderr too: not one line
        run(name, env_id=env_of(name, "NanLater"), norm_reward=False, track=True)
    assert stop.value.code == 2 and "non-finite loss at update 2" in capsys.readouterr().err
    assert len(closed) == 1 and writer_threads() == writers
    assert wandb_exit_code() == 2


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_an_error_in_the_loop_is_raised_after_the_run_keeps_its_last_update_and_closes_what_it_opened(capsys, name,
                                                                                                        monkeypatch):
    """An exception raised inside the training loop (here by the env, in the second rollout) comes out as it was
    raised, after the run has done what Ctrl-C does: kept the last completed update (with --save-model), said so in
    one line, closed its envs and its writer, and finished its W&B run, with the exit code 1."""
    closed = env_closes(monkeypatch)
    writers, sigterm = writer_threads(), signal.getsignal(signal.SIGTERM)
    with tracked(), pytest.raises(RuntimeError, match="the env broke"):
        run(name, env_id=env_of(name, "BreaksLater"), norm_reward=False, track=True, save_model=True)
    (line,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("stopped by RuntimeError")]
    assert line.startswith("stopped by RuntimeError at global step 84; checkpoint at global step 64: runs/")
    assert torch.load(line.split(": ")[1], weights_only=False)["global_step"] == 64
    assert len(closed) == 1 and writer_threads() == writers
    assert signal.getsignal(signal.SIGTERM) is sigterm  # the training loop's SIGTERM handler is gone with it
    assert wandb_exit_code() == 1


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("stops, exit_code", [("BreaksInEvaluation", 1), ("CtrlCInEvaluation", 130)])
def test_an_error_or_ctrl_c_in_the_evaluation_ends_the_run_as_in_the_loop(capsys, name, stops, exit_code):
    """Ctrl-C or an error in the final evaluation (here the env's, on its third step) ends the run as it would in the
    training loop: the checkpoint kept, one line that says so, the evaluation's env closed as well as the writer, and
    the W&B run finished with the exit code 1 (the error then comes out as it was raised) or 130 (Ctrl-C's exit)."""
    StopsInEvaluation.closed.clear()
    writers, sigterm = writer_threads(), signal.getsignal(signal.SIGTERM)
    with stopped_in_the_evaluation(capsys, exit_code, global_step=128):
        run(name, env_id=env_of(name, stops), norm_reward=False, track=True, save_model=True, eval_episodes=2)
    assert [env.evaluating for env in StopsInEvaluation.closed].count(True) == 1
    assert writer_threads() == writers and signal.getsignal(signal.SIGTERM) is sigterm


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_a_non_finite_observation_in_the_evaluation_stops_with_one_line(capsys, name):
    """Observations that turn NaN only in the evaluation stop the run there with one line and exit code 2, as in
    training, instead of an evaluation that acts on NaN (an argmax of NaN logits, a NaN torque) and reports a score."""
    err = one_line_error(capsys, name, env_id=env_of(name, "NanInEvaluation"), eval_episodes=2)
    assert "non-finite observation" in err


@pytest.mark.parametrize("name", [*VECTOR_SCRIPTS, "ppo_gru_atari"])
@pytest.mark.parametrize(
    "flags",
    [dict(gamma=1.5), dict(gamma=-1.0), dict(gae_lambda=2.0), dict(clip_coef=-1.0), dict(max_grad_norm=0.0),
     dict(target_kl=-1.0)],
)  # fmt: skip
def test_a_value_outside_its_range_is_answered_in_one_line(capsys, name, flags):
    """A discount or lambda outside [0, 1], a clip range, gradient norm or target KL that is not positive: one line
    naming the flag, before anything is built, instead of a run that trains on it."""
    ((key, value),) = flags.items()
    assert f"--{key.replace('_', '-')} must be" in one_line_error(capsys, name, alone=True, **flags)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_resuming_below_the_checkpoints_step_is_answered_in_one_line(capsys, name):
    """--resume with --total-timesteps below the checkpoint's global step would run no update and say nothing."""
    saved = run(name, save_model=True)["checkpoint"]
    capsys.readouterr()
    err = one_line_error(capsys, name, resume=saved, total_timesteps=64)
    assert "--total-timesteps 64 is below the checkpoint's global step 128" in err


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_a_directory_as_the_checkpoint_and_a_deprecated_id_are_named_as_such(capsys, name, tmp_path):
    assert "is a directory" in one_line_error(capsys, name, eval_checkpoint=str(tmp_path))
    err = one_line_error(capsys, name, env_id="Taxi-v3")
    assert "is deprecated" in err and "Taxi-v4" in err  # gymnasium's own advice, not "unknown"


class NeedsAnArgument(gym.Env):
    """An env whose constructor takes a required argument that gym.make does not give."""

    observation_space, action_space = gym.spaces.Box(-1.0, 1.0, (2,), np.float32), gym.spaces.Discrete(2)

    def __init__(self, size, render_mode=None):
        self.size = size


gym.register("NeedsAnArgument-v0", entry_point=NeedsAnArgument)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("env_id", ["CartPole v1", ":", "mymodule:", ":CartPole-v1", "NeedsAnArgument-v0"])
def test_a_malformed_id_or_an_env_that_cannot_be_made_is_answered_in_one_line(capsys, name, env_id):
    err = one_line_error(capsys, name, alone=True, env_id=env_id)
    assert f"env id '{env_id}'" in err or f"env '{env_id}' cannot be made" in err


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_diverging_learning_rate_keeps_weights_from_before_the_divergence(capsys, name):
    """--learning-rate 1e30: the first Adam step throws every weight to about 1e30; what is kept is labelled with
    the global step it reached and holds the weights that step had, not the diverged ones."""
    err = one_line_error(capsys, name, env_id=PLAIN[name], learning_rate=1e30, save_model=True)
    assert "non-finite" in err and "at update 1" in err
    step, saved = kept_checkpoint(err)
    assert step == saved["global_step"] == 0
    assert max(w.abs().max().item() for w in saved["model"].values()) < 10.0


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_non_finite_observation_stops_with_one_line_and_a_checkpoint(capsys, name):
    err = one_line_error(capsys, name, env_id=env_of(name, "NanObs"), save_model=True)
    assert "non-finite observation at update 2" in err
    step, saved = kept_checkpoint(err)
    assert step == saved["global_step"] == 64


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_non_finite_weights_stop_with_one_line(capsys, name, monkeypatch):
    """An optimizer step that leaves a NaN weight (and no non-finite loss: one minibatch, one epoch)."""
    module = load(name)

    class PoisonedAdam(module.optim.Adam):
        def step(self, closure=None):
            super().step(closure)
            with torch.no_grad():
                self.param_groups[0]["params"][0].view(-1)[0] = float("nan")

    monkeypatch.setattr(module.optim, "Adam", PoisonedAdam)
    err = one_line_error(capsys, name, update_epochs=1, num_minibatches=1, save_model=True)
    assert "non-finite weights at update 1" in err
    step, saved = kept_checkpoint(err)
    assert step == saved["global_step"] == 0
    assert all(torch.isfinite(w).all() for w in saved["model"].values())


def on_path(folder) -> str:
    """PYTHONPATH with `folder` first, keeping what the environment already has there."""
    return os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))


def cli(name: str, *flags: str, extra_env: dict | None = None, **popen) -> subprocess.Popen:
    # unbuffered, so that progress lines arrive as printed; SIGINT back to its default, since a pytest-xdist
    # worker ignores it and a child inheriting that would never see Ctrl-C
    return subprocess.Popen(
        [sys.executable, os.path.join(ROOT, f"{name}.py"), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(extra_env or {})},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **popen,
    )


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_command_line_error_has_no_traceback(name):
    out, err = cli(name, "--env-id", "NoSuchEnv-v0").communicate(timeout=60)
    assert err.startswith(f"{name}.py: error: unknown env id 'NoSuchEnv-v0'") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert err.strip().endswith("; an id that a package registers when imported is named with it: MODULE:EnvId")


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_an_unknown_id_of_a_named_module_is_answered_with_ids_that_work(capsys, name):
    # conftest registers FiveStepsOfOne-v0 when imported: misspelt with the module named, each close match comes back
    # with the module in front, ready to pass as it is, and the hint to name a module is left out
    right = env_of(name, "FiveStepsOfOne")
    err = one_line_error(capsys, name, env_id="conftest:" + right.replace("Of", "0f"))
    close = ast.literal_eval(err.split("close matches: ")[1].split("; ")[0])  # the printed list
    assert close[0] == "conftest:" + right and all(c.startswith("conftest:") for c in close)
    assert "MODULE:EnvId" not in err
    assert run(name, env_id=close[0])["env_id"] == close[0]


def test_import_has_no_side_effects():
    code = "import ppo_lstm, ppo_lstm_continuous, ppo_mlp_cartpole, os; print(sorted(os.listdir('.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=os.getcwd(),
                         env={**os.environ, "PYTHONPATH": on_path(ROOT)}, check=True).stdout  # fmt: skip
    assert out.strip() == "[]"


def interrupt(name: str, *flags: str, after: str = "update 2/", extra_env: dict | None = None,
              stop: int = signal.SIGINT) -> tuple[str, str, int]:  # fmt: skip
    """Start a CLI run, send Ctrl-C (or `stop`) once a progress line starting with `after` is printed; (stdout, stderr,
    code)."""
    proc = cli(name, *flags, extra_env=extra_env)
    lines, deadline = [], time.time() + 120
    while time.time() < deadline:
        lines.append(proc.stdout.readline())
        if lines[-1].startswith(after):
            break
    proc.send_signal(stop)
    out, err = proc.communicate(timeout=60)
    return "".join(lines) + out, err, proc.returncode


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_ctrl_c_saves_the_last_completed_update_which_resumes_to_the_exact_budget(name, stop):
    """The checkpoint holds the last completed update and its global step (a multiple of the 2 x 64-step batch), not
    the steps of the rollout that Ctrl-C cut short; resuming from it ends exactly at --total-timesteps. SIGTERM, with
    which `timeout` and cluster schedulers stop a run, does the same."""
    flags = ["--save-model", "--num-envs", "2", "--num-steps", "64", "--num-minibatches", "1", "--eval-episodes", "0"]
    out, err, code = interrupt(name, "--total-timesteps", "1000000", *flags, stop=getattr(signal, stop))
    assert code == 130, err
    path = err.strip().split(": ")[-1]
    saved = torch.load(path, weights_only=False)
    progress = [int(line.split("global_step ")[1].split()[0]) for line in out.splitlines() if line.startswith("update ")]
    interrupted_at = int(err.split("interrupted at global step ")[1].split(";")[0])
    assert saved["global_step"] % 128 == 0 and progress[-1] <= saved["global_step"] <= interrupted_at
    assert saved["iteration"] == saved["global_step"] // 128
    assert f"checkpoint at global step {saved['global_step']}" in err
    total = saved["global_step"] + 2 * 128
    resumed = run(name, resume=path, num_envs=2, num_steps=64, num_minibatches=1, total_timesteps=total)
    assert resumed["global_step"] == total


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_sigterm_stops_as_ctrl_c_while_the_run_trains_and_evaluates(name, monkeypatch):
    """While the training loop and the final evaluation run, SIGTERM is Ctrl-C (the CLI test above sends it; `timeout`
    may land in the evaluation); after the run, in a process that goes on (a sweep that calls main), it does again
    what it did before the run."""
    module, handlers = load(name), []

    def spy(function):  # the SIGTERM handler whenever `function` is called
        def call(*args, **kwargs):
            handlers.append((function.__name__, signal.getsignal(signal.SIGTERM)))
            return function(*args, **kwargs)

        return call

    monkeypatch.setattr(module, "compute_gae", spy(module.compute_gae))  # once per update, in the loop
    monkeypatch.setattr(module, "evaluate", spy(module.evaluate))
    before = signal.getsignal(signal.SIGTERM)
    run(name, eval_episodes=1)
    in_loop = ("compute_gae", module.stop_as_ctrl_c)
    in_evaluation = ("evaluate", module.stop_as_ctrl_c)
    assert handlers == [in_loop, in_loop, in_evaluation] and signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_a_run_in_another_thread_trains_and_leaves_sigterm_as_it_was(name):
    """Python sets signal handlers in the main thread only: a run that a sweep agent, say, starts in a thread of its own
    trains and ends as in the main thread, with SIGTERM left as it was."""
    before = signal.getsignal(signal.SIGTERM)
    summary = in_another_thread(lambda: run(name))
    assert summary is not None and summary["global_step"] == 128
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("during", ["rollout", "update"])
def test_ctrl_c_mid_update_keeps_the_last_completed_one(capsys, name, during, monkeypatch):
    """Ctrl-C (a KeyboardInterrupt raised at a chosen point) in the third rollout, or in the third update's first
    optimizer step: the checkpoint is the second update's, labelled with its 128 steps."""
    module = load(name)
    if during == "rollout":
        original, calls = gym.vector.SyncVectorEnv.step, []

        def step(self, actions):  # 16 vector steps per rollout: the 37th is inside the third
            calls.append(1)
            if len(calls) == 37:
                raise KeyboardInterrupt
            return original(self, actions)

        monkeypatch.setattr(gym.vector.SyncVectorEnv, "step", step)
    else:

        class InterruptedAdam(module.optim.Adam):
            calls = 0

            def step(self, closure=None):  # 2 epochs of 1 minibatch per update: the 5th step opens the third
                InterruptedAdam.calls += 1
                if InterruptedAdam.calls == 5:
                    raise KeyboardInterrupt
                return super().step(closure)

        monkeypatch.setattr(module.optim, "Adam", InterruptedAdam)
    with pytest.raises(SystemExit) as exit_info:
        run(name, save_model=True, total_timesteps=512, num_minibatches=1, env_id=env_of(name, "FiveStepsOfOne"))
    assert exit_info.value.code == 130
    err = capsys.readouterr().err
    saved = torch.load(err.strip().split(": ")[-1], weights_only=False)
    assert saved["global_step"] == 128 and saved["iteration"] == 2
    assert "checkpoint at global step 128" in err
    # the logs stop where the checkpoint does: the episodes of the rollout whose update was lost are not logged,
    # so a resumed run logs them afresh, once
    (run_dir,) = run_dirs()
    logged = [step for step, _ in scalars(run_dir, "charts/episodic_return")]
    assert logged and max(logged) <= 128


def test_ctrl_c_finishes_the_wandb_run():
    out, err, code = interrupt("ppo_lstm", "--track", "--total-timesteps", "1000000", "--eval-episodes", "0",
                               extra_env={"WANDB_MODE": "offline"})  # fmt: skip
    assert code == 130, err
    (run_dir,) = [d for d in os.listdir("wandb") if d.startswith("offline-run-")]
    with open(os.path.join("wandb", run_dir, "logs", "debug.log")) as f:
        assert "finishing run" in f.read()  # left unfinished, the run's log ends at its last scalar


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_the_evaluation_of_an_endless_env_ends_at_eval_max_steps_and_says_so(name, capsys):
    """An env with no time limit whose episodes never end (the policy's fault or the env's) ends each evaluation
    episode at --eval-max-steps instead of running forever."""
    summary = run(name, env_id=env_of(name, "Endless"), eval_episodes=2, eval_max_steps=50)
    assert summary["eval_returns"] == [50.0, 50.0]  # one a step
    assert "declares no time limit: evaluation episodes end at 50 steps (--eval-max-steps)" in capsys.readouterr().out


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_a_long_evaluation_says_how_far_it_is(name, capsys, monkeypatch):
    """Past 10 s of evaluation, a line per episode; a clock that runs 20 s a call makes every episode long."""
    module, clock = load(name), itertools.count(1_000_000, 20)
    monkeypatch.setattr(module, "time", types.SimpleNamespace(time=lambda: next(clock)))  # the script's clock alone
    run(name, env_id=env_of(name, "FiveStepsOfOne"), eval_episodes=3)
    out = capsys.readouterr().out
    assert all(f"evaluation episode {k}/3: return 5.0" in out for k in (1, 2, 3))


@pytest.mark.parametrize("name", [*VECTOR_SCRIPTS, "ppo_gru_atari"])
@pytest.mark.parametrize("damage", ["no weights", "other shapes"])
def test_a_checkpoint_whose_weights_do_not_fit_is_answered_in_one_line(capsys, name, damage, tmp_path):
    trained = run(name, save_model=True)
    checkpoint = torch.load(trained["checkpoint"], weights_only=False)
    if damage == "no weights":
        del checkpoint["model"]
    else:  # a layer of another shape than the checkpoint's args make
        key = next(k for k, v in checkpoint["model"].items() if k.endswith("weight") and v.dim() == 2)
        checkpoint["model"][key] = torch.zeros(3, 3)
    torch.save(checkpoint, tmp_path / "damaged.pt")
    capsys.readouterr()
    for flags in ({"eval_checkpoint": str(tmp_path / "damaged.pt")}, {"resume": str(tmp_path / "damaged.pt")}):
        err = one_line_error(capsys, name, **flags, total_timesteps=trained["global_step"] + rollout_steps(name))
        assert "the checkpoint's weights do not fit the network its args describe" in err


# a module env whose constructor announces itself and then takes its time: a signal lands while the run starts
SLOW_START = "import time, gymnasium as gym\n" \
    "class Slow(gym.Env):\n" \
    "    def __init__(self, **kwargs):\n" \
    "        print('constructing', flush=True)\n" \
    "        time.sleep(60)\n" \
    "gym.register('SlowStart-v0', entry_point=Slow)\n"


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_signal_while_the_run_starts_ends_it_in_one_line(name, stop, tmp_path):
    (tmp_path / "slowstart.py").write_text(SLOW_START)
    proc = cli(name, "--env-id", "slowstart:SlowStart-v0", extra_env={"PYTHONPATH": on_path(tmp_path)})
    deadline = time.time() + 120
    while time.time() < deadline and proc.stdout.readline().strip() != "constructing":
        pass
    proc.send_signal(getattr(signal, stop))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip() == f"{name}.py: interrupted before training began: nothing to keep"


@pytest.mark.parametrize("name", [*VECTOR_SCRIPTS, "ppo_gru_atari"])
def test_a_resumed_run_says_which_checkpoint_it_resumed_from(name):
    first = run(name, save_model=True)
    assert first["resumed_from"] is None
    total = first["global_step"] + rollout_steps(name)
    resumed = run(name, resume=first["checkpoint"], total_timesteps=total)
    assert resumed["resumed_from"] == first["checkpoint"] and resumed["global_step"] == total
