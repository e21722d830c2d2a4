"""ppo_gru_atari.py on CPU: both backends, the GRU's recurrence, and short real runs (seconds each)."""

import os

import numpy as np
import pytest
import torch
from conftest import load, run_dirs, scalars

BACKENDS = ["envpool", "gymnasium"]
TINY_ATARI = dict(num_envs=2, num_steps=16, total_timesteps=64, update_epochs=2, num_minibatches=2, eval_episodes=0)


def atari():
    return load("ppo_gru_atari")


def run(**kwargs) -> dict:
    module = atari()
    return module.main(module.Args(**{**TINY_ATARI, **kwargs}))


@pytest.mark.parametrize("backend", BACKENDS)
def test_backend_frames_and_a_game_over(backend):
    """Holding FIRE in Breakout loses all five lives: the game-over step says terminated, carries the final
    frame, and the observation beside it is already the new game's first, with the lives restored."""
    module = atari()
    envs = module.make_envs(module.Args(), backend, 2, seed=1)
    obs, info = envs.reset()
    assert obs.shape == (2, 1, 84, 84) and obs.dtype == np.uint8
    lives, losses = info["lives"].copy(), 0
    for _ in range(400):
        obs, reward, terminated, truncated, info = envs.step(np.ones(2, dtype=np.int64))
        assert obs.shape == (2, 1, 84, 84) and obs.dtype == np.uint8
        losses += int((info["lives"] < lives)[0])
        lives = info["lives"].copy()
        if terminated[0]:
            break
    assert terminated[0] and not truncated[0] and losses == 4  # the fifth life ends the game
    assert (info["lives"] == 5).all()
    assert not np.array_equal(info["final_obs"][0], obs[0])
    envs.close()


def test_backends_agree_on_frames_and_game_length():
    module = atari()
    frames, lengths = [], []
    for backend in BACKENDS:
        envs = module.make_envs(module.Args(), backend, 1, seed=1)
        obs, _ = envs.reset()
        frames.append(obs)
        for t in range(1, 400):
            _, _, terminated, _, _ = envs.step(np.ones(1, dtype=np.int64))
            if terminated[0]:
                lengths.append(t)
                break
        envs.close()
    np.testing.assert_array_equal(frames[0], frames[1])  # same preprocessing, pixel for pixel
    assert lengths[0] == lengths[1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_time_limit_cuts_without_a_dummy_step(backend):
    """With a 10-step limit every game is cut at steps 10, 20, 30: a next-step reset would give 10, 21, 32."""
    module = atari()
    envs = module.make_envs(module.Args(max_episode_steps=10), backend, 2, seed=1)
    envs.reset()
    cuts = []
    for t in range(1, 31):
        obs, _, terminated, truncated, info = envs.step(np.zeros(2, dtype=np.int64))
        if truncated[0]:
            cuts.append(t)
            assert "final_obs" in info
    assert cuts == [10, 20, 30]
    envs.close()


def make_agent(**kwargs):
    module = atari()
    torch.manual_seed(0)
    envs = module.make_envs(module.Args(), "envpool", 1, seed=1)
    agent = module.Agent(envs, module.Args(rnn_hidden_size=16, **kwargs))
    envs.close()
    return agent


T, N = 6, 3
STARTS = torch.zeros(T, N)
STARTS[0, 0] = STARTS[3, 0] = STARTS[4, 1] = STARTS[5, 1] = 1.0  # env 2 never starts: it continues its state


def inputs():
    g = torch.Generator().manual_seed(1)
    obs = torch.randint(0, 256, (T * N, 1, 84, 84), generator=g, dtype=torch.uint8)  # time-major
    state = torch.randn(1, N, 16, generator=g)
    return obs, state, torch.randint(0, 4, (T * N,), generator=g)


@pytest.mark.parametrize("fast_rnn", [True, False])
def test_gru_sequence_matches_stepwise(fast_rnn):
    agent = make_agent(fast_rnn=fast_rnn)
    obs, state, actions = inputs()
    done = STARTS.reshape(-1)
    with torch.no_grad():
        _, logprob, _, value, h = agent.get_action_and_value(obs, state, done, actions)
        ref_logprob, ref_value, ref_h = [], [], state
        for t in range(T):
            rows = slice(t * N, (t + 1) * N)
            _, lp, _, v, ref_h = agent.get_action_and_value(obs[rows], ref_h, done[rows], actions[rows])
            ref_logprob.append(lp)
            ref_value.append(v)
    torch.testing.assert_close(logprob, torch.cat(ref_logprob), atol=1e-5, rtol=0)
    torch.testing.assert_close(value, torch.cat(ref_value), atol=1e-5, rtol=0)
    torch.testing.assert_close(h, ref_h, atol=1e-5, rtol=0)
    # the carried state is used (env 2 has no start), and a start really resets (env 0 from t=3 equals a fresh run)
    with torch.no_grad():
        _, _, _, from_zero, _ = agent.get_action_and_value(obs, state * 0, done, actions)
        rows = [t * N for t in range(3, T)]
        _, fresh, _, _, _ = agent.get_action_and_value(obs[rows], state[:, :1] * 0, torch.zeros(len(rows)), actions[rows])
    assert (value.view(T, N)[:, 2] - from_zero.view(T, N)[:, 2]).abs().max() > 1e-4
    torch.testing.assert_close(logprob[rows], fresh, atol=1e-5, rtol=0)


def test_gru_time_major_order_is_respected():
    agent = make_agent()
    obs, state, actions = inputs()
    env_major = obs.view(T, N, 1, 84, 84).transpose(0, 1).reshape(T * N, 1, 84, 84)
    with torch.no_grad():
        _, _, _, a, _ = agent.get_action_and_value(obs, state, torch.zeros(T * N), actions)
        _, _, _, b, _ = agent.get_action_and_value(env_major, state, torch.zeros(T * N), actions)
    assert (a - b).abs().max() > 1e-4


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seq_len, fast_rnn", [(0, True), (8, True), (8, False)])
def test_atari_first_minibatch_ratio_is_one(backend, seq_len, fast_rnn):
    summary = run(backend=backend, seq_len=seq_len, fast_rnn=fast_rnn)
    assert summary["backend"] == backend and summary["global_step"] == 64
    errors = [v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")]
    assert len(errors) == 2 and max(errors) < 1e-5


def test_atari_life_loss_resets_the_state_only_when_asked(monkeypatch):
    module = atari()
    seen = []  # the episode starts that each training update replays
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, done, action=None, **kwargs):
        if action is not None:
            seen.append(done.clone())
        return original(self, obs, state, done, action, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    counts = []
    for flag in (False, True):
        seen.clear()
        run(reset_state_on_life_loss=flag, num_envs=1, num_minibatches=1, num_steps=256, total_timesteps=512,
            update_epochs=1, max_episode_steps=10_000)  # fmt: skip
        counts.append(sum(int(s.sum()) for s in seen))
    assert counts[1] > counts[0]  # a random Breakout player loses lives well before its game ends


@pytest.mark.parametrize("backend", BACKENDS)
def test_atari_save_evaluate_resume(backend):
    trained = run(backend=backend, save_model=True, eval_episodes=1, max_episode_steps=200)
    assert os.path.isfile(trained["checkpoint"]) and trained["eval_episodes"] == 1
    evaluated = run(backend=backend, eval_checkpoint=trained["checkpoint"], eval_episodes=1, max_episode_steps=200)
    assert evaluated["eval_mean_return"] == trained["eval_mean_return"]
    resumed = run(backend=backend, resume=trained["checkpoint"], total_timesteps=128)
    assert resumed["global_step"] == 128


def test_atari_capture_video():
    run(backend="envpool", eval_episodes=1, max_episode_steps=50, capture_video=True)
    videos = [f for _, _, files in os.walk("videos") for f in files if f.endswith(".mp4")]
    assert len(videos) == 1


@pytest.mark.parametrize(
    "kwargs, says",
    [({"env_id": "Breakuot-v5"}, "close matches: ['Breakout-v5'"), ({"env_id": "CartPole-v1"}, "use ppo_lstm.py"),
     ({"backend": "jax"}, "--backend must be"), ({"num_minibatches": 3}, "minibatches")],
)  # fmt: skip
def test_atari_errors_are_one_line(capsys, kwargs, says):
    with pytest.raises(SystemExit) as exit_info:
        run(**kwargs)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err
    assert not os.path.exists("runs")
