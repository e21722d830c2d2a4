"""--export-onnx: the acting policy, run by onnxruntime with nothing of this repository, acts as the script's own
evaluation does: the same actions step for step over a real env's episodes (episode starts inside), and the state
it hands back within 1e-5 of the PyTorch policy's."""

import gymnasium as gym
import numpy as np
import onnxruntime
import pytest
import torch
from conftest import load, run

STEPS = 300


def side_by_side(name: str, path: str, checkpoint: str, env_id: str, masked: bool = False) -> int:
    """Acts STEPS steps in a fresh env with the checkpoint's policy as the script's evaluation acts (its prepare(),
    its agent, deterministic) and with the exported model fed the raw observations and its own state back;
    returns the episodes started."""
    module = load(name)
    saved = torch.load(checkpoint, weights_only=False)
    args = module.Args(**saved["args"])
    thunk = module.make_env(env_id, args.frame_stack) if name == "ppo_mlp_cartpole" else module.make_env(env_id)
    agent = module.Agent(gym.vector.SyncVectorEnv([thunk]), args)
    agent.load_state_dict(saved["model"])
    obs_rms = module.RunningMeanStd()
    obs_rms.__dict__.update(saved["obs_rms"])
    session = onnxruntime.InferenceSession(path)
    names = [i.name for i in session.get_inputs()]
    recurrent = "h" in names
    env = thunk()
    obs, info = env.reset(seed=7)
    state = agent.get_initial_state(1) if recurrent else None
    feed_state = {k: np.zeros((1, 1, args.rnn_hidden_size), np.float32) for k in ["h", "c"] if k in names}
    start, episodes, action = 1.0, 1, None
    for _ in range(STEPS):
        mask = module.action_mask(env, info, "cpu") if masked else None
        with torch.no_grad():
            obs_t = module.prepare(obs[None], obs_rms, args, "cpu")
            if recurrent:
                extra = {"action_mask": mask} if name == "ppo_lstm" else {}
                action, *_, state = agent.get_action_and_value(
                    obs_t, state, torch.tensor([start]), deterministic=True, **extra
                )
            else:
                action, *_ = agent.get_action_and_value(obs_t, deterministic=True)
        feed = {"obs": np.asarray(obs, np.float32)[None], **feed_state}
        if recurrent:
            feed["episode_start"] = np.array([start], np.float32)
        if "action_mask" in names:
            feed["action_mask"] = mask.numpy() if masked else np.ones((1, sum(agent.nvec)), bool)
        exported, *new_state = session.run(None, feed)
        if hasattr(agent, "actor_logstd"):  # continuous: the mean, clipped to the bounds, as evaluation sends it
            sent = np.clip(action[0].numpy(), env.action_space.low, env.action_space.high)
            np.testing.assert_allclose(exported[0], sent, atol=1e-5, rtol=0)
        else:
            sent = action[0].numpy() + env.action_space.start
            np.testing.assert_array_equal(exported[0], sent)
        for key, value in zip(feed_state, new_state, strict=True):
            torch.testing.assert_close(torch.tensor(value), state[0 if key == "h" else 1][:1], atol=1e-5, rtol=0)
        feed_state = dict(zip(feed_state, new_state, strict=True))  # fed back at the next step
        obs, _, terminated, truncated, info = env.step(sent)
        start = 0.0
        if terminated or truncated:
            obs, info = env.reset()
            start, episodes = 1.0, episodes + 1
            state = agent.get_initial_state(1) if recurrent else None
    return episodes


CASES = [
    ("ppo_mlp_cartpole", "CartPoleNoVel-v1", {"norm_obs": True}),
    ("ppo_lstm", "CartPoleNoVel-v1", {}),
    ("ppo_lstm", "CartPoleNoVel-v1", {"rnn_type": "gru"}),
    ("ppo_lstm", "MaskedCueRecall-v0", {}),
    ("ppo_lstm_continuous", "PendulumNoVel-v1", {}),
    ("ppo_lstm_continuous", "PendulumNoVel-v1", {"rnn_type": "gru", "shared_lstm": False}),
]


@pytest.mark.parametrize("name, env_id, flags", CASES)
def test_the_exported_policy_acts_as_the_script_does(name, env_id, flags):
    summary = run(name, env_id=env_id, save_model=True, export_onnx="policy.onnx", **flags)
    saved = torch.load(summary["checkpoint"], weights_only=False)
    assert saved["args"]["norm_obs"] and saved["obs_rms"]["count"] > 1  # the statistics it must carry are not trivial
    episodes = side_by_side(name, "policy.onnx", summary["checkpoint"], env_id, masked=env_id.startswith("Masked"))
    assert episodes >= 2  # episode starts inside the run: the state is reset there


@pytest.mark.parametrize("name", ["ppo_lstm", "ppo_lstm_continuous", "ppo_mlp_cartpole"])
def test_a_checkpoint_is_exported_with_eval_checkpoint_alone(name):
    summary = run(name, save_model=True)
    again = run(name, eval_checkpoint=summary["checkpoint"], export_onnx="later.onnx", eval_episodes=0)
    assert again["global_step"] == summary["global_step"]
    session = onnxruntime.InferenceSession("later.onnx")
    assert session.get_inputs()[0].name == "obs" and session.get_outputs()[0].name == "action"


@pytest.mark.parametrize("name", ["ppo_lstm", "ppo_lstm_continuous", "ppo_mlp_cartpole"])
def test_without_onnx_the_flag_is_one_line_before_training(name, capsys, monkeypatch):
    module = load(name)
    monkeypatch.setattr(module.importlib.util, "find_spec", lambda package: None)
    with pytest.raises(SystemExit) as stop:
        run(name, export_onnx="policy.onnx")
    assert stop.value.code == 2 and "needs the onnx package" in capsys.readouterr().err
    assert not (module.os.path.exists("runs"))


@pytest.mark.parametrize("reset_on_life_loss", [False, True])
def test_the_exported_atari_policy_acts_as_the_script_does(reset_on_life_loss):
    """ppo_gru_atari.py: uint8 frames in, the GRU's state carried by the caller, reset where a game starts (and, with
    --reset-state-on-life-loss, where a life is lost, as the script's evaluation does); games cut at 100 steps so that
    several start inside the run."""
    module = load("ppo_gru_atari")
    flags = {"max_episode_steps": 100, "reset_state_on_life_loss": reset_on_life_loss}
    summary = run("ppo_gru_atari", save_model=True, export_onnx="policy.onnx", backend="gymnasium", **flags)
    saved = torch.load(summary["checkpoint"], weights_only=False)
    args = module.Args(**saved["args"])
    env = module.make_envs(args, "gymnasium", 1, seed=3)
    agent = module.Agent(env, args)
    agent.load_state_dict(saved["model"])
    session = onnxruntime.InferenceSession("policy.onnx")
    obs, info = env.reset()
    lives, state, h = info["lives"], agent.get_initial_state(1), np.zeros((1, 1, args.rnn_hidden_size), np.float32)
    start, starts = 1.0, 0
    for _ in range(STEPS):
        with torch.no_grad():
            starts_t = torch.tensor([start])
            action, *_, state = agent.get_action_and_value(torch.as_tensor(obs), state, starts_t, deterministic=True)
        exported, h = session.run(None, {"obs": obs, "h": h, "episode_start": np.array([start], np.float32)})
        np.testing.assert_array_equal(exported, action.numpy())
        torch.testing.assert_close(torch.tensor(h), state, atol=1e-5, rtol=0)
        obs, _, terminated, truncated, info = env.step(action.numpy())
        life_lost, lives = info["lives"] < lives, info["lives"]
        start = float(terminated[0] or truncated[0] or (reset_on_life_loss and life_lost[0]))
        starts += int(start)
    env.close()
    assert starts >= 2
