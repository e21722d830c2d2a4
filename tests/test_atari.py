"""ppo_gru_atari.py on CPU: both backends, the GRU's recurrence, and short real runs (seconds each)."""

import itertools
import json
import os
import signal
import subprocess
import sys
import types

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import (
    in_another_thread,
    load,
    recorded_frames,
    run_dirs,
    scalars,
    stopped_in_the_evaluation,
    tracked,
    wandb_exit_code,
    writer_threads,
)
from conftest import one_line_error as one_line_error_of_script
from conftest import run as run_script

BACKENDS = ["envpool", "gymnasium"]


def atari():
    return load("ppo_gru_atari")


def run(**kwargs) -> dict:
    return run_script("ppo_gru_atari", **kwargs)


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


def test_gru_sequence_matches_stepwise():
    """One call over T steps (the training unroll) gives what T calls of one step give, the state carried."""
    agent = make_agent()
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
@pytest.mark.parametrize("seq_len", [0, 8])
def test_atari_first_minibatch_ratio_is_one(backend, seq_len):
    summary = run(backend=backend, seq_len=seq_len)
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


@pytest.mark.parametrize("cap, frames", [(1_000, 51), (20, 20)])
def test_atari_capture_video_records_a_frame_per_agent_step_up_to_a_cap(monkeypatch, cap, frames):
    """--capture-video keeps one frame per agent step (the reset's and one per step of a 50-step game: 51, not the
    emulator's 201) and at most VIDEO_MAX_FRAMES a game, so that a game played to the time limit cannot exhaust
    memory (one recorded from every emulator frame, uncapped, reached 10.8 GB)."""
    monkeypatch.setattr(atari(), "VIDEO_MAX_FRAMES", cap)
    run(backend="envpool", eval_episodes=2, max_episode_steps=50, capture_video=True)
    got = recorded_frames()
    assert len(got) == 2 and all(frames - 1 <= k <= frames for k in got)  # the encoder may drop a last frame


def test_atari_ctrl_c_in_a_recorded_game_stops_it_at_once(monkeypatch, capsys):
    """Ctrl-C in the second recorded game ends the run (exit 130, one line) without encoding the game cut short: the
    first game's video is there, no other."""
    module = atari()
    step = module.RecordGames.step

    def interrupted(self, action):
        if self.game == 1 and len(self.frames) == 10:
            raise KeyboardInterrupt
        return step(self, action)

    monkeypatch.setattr(module.RecordGames, "step", interrupted)
    with pytest.raises(SystemExit) as stop:
        run(backend="envpool", eval_episodes=2, max_episode_steps=50, capture_video=True)
    assert stop.value.code == 130
    assert [line for line in capsys.readouterr().err.splitlines() if "in the evaluation" in line] != []
    assert recorded_frames() in ([51], [50])  # the first game alone


def one_line_error(capsys, **kwargs) -> str:
    return one_line_error_of_script(capsys, "ppo_gru_atari", **kwargs)


@pytest.mark.parametrize(
    "kwargs, says",
    [({"env_id": "Breakuot-v5"}, "close matches: ['Breakout-v5'"), ({"env_id": "CartPole-v1"}, "use ppo_lstm.py"),
     ({"backend": "jax"}, "--backend must be"), ({"num_minibatches": 3}, "minibatches"),
     ({"seq_len": 32}, "larger than --num-steps"), ({"seq_len": 5}, "must divide"), ({"learning_rate": 0.0}, "positive"),
     ({"num_envs": 1, "num_minibatches": 16, "seq_len": 1}, "a minibatch of one step")],
)  # fmt: skip
def test_atari_errors_are_one_line_before_any_env(capsys, kwargs, says):
    assert says in one_line_error(capsys, **kwargs)
    assert not os.path.exists("runs")


def test_more_ranks_than_gpus_on_a_node_is_one_line_before_any_env(capsys, monkeypatch):
    """Rank r takes GPU r and NCCL refuses two ranks on one GPU, so torchrun with more ranks per node than GPUs stops
    with one line (found on a one-GPU machine), unless the ranks run on CPU."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    for key, value in {"RANK": "1", "WORLD_SIZE": "2", "LOCAL_RANK": "1", "LOCAL_WORLD_SIZE": "2"}.items():
        monkeypatch.setenv(key, value)
    assert "2 ranks on this node but 1 GPU(s)" in one_line_error(capsys)
    assert not os.path.exists("runs")


class ScriptedGames:
    """A stand-in for make_envs' vector env: every game lasts 8 steps and pays +5 at step 3 and -2 at step 6 (a score
    of 3, clipped to +1 and -1 for training); a life is lost at step 4; even envs end the game at step 8, odd envs are
    cut there by the time limit (with a final frame). Frames name their env and step: pixel (0, 0) is the env, (0, 1)
    the step within the game. The envs form `groups` as EnvpoolSameStep's do; with `shuffle` every group's step comes
    back with its rows in a new order, as an asynchronous env pool may return them. With `rising` an env's k-th game
    (from 0) pays k more at step 3, so it scores 3 + k."""

    def __init__(self, num_envs: int, nan_reward: bool = False, groups: int = 1, shuffle: bool = False, rising=False):
        self.num_envs, self.nan_reward, self.shuffle, self.rising = num_envs, nan_reward, shuffle, rising
        self.games = np.zeros(num_envs, dtype=int)  # games each env has ended
        self.single_observation_space = gym.spaces.Box(0, 255, (1, 84, 84), np.uint8)
        self.single_action_space = gym.spaces.Discrete(4)
        self.groups = np.array_split(np.arange(num_envs), groups)
        self.t = np.zeros(num_envs, dtype=int)
        self.sent = {}  # group -> the env ids its last actions were sent to
        self.rng = np.random.default_rng(0)

    def frames(self, ids: np.ndarray) -> np.ndarray:
        obs = np.stack([np.random.default_rng([i, self.t[i]]).integers(0, 256, (1, 84, 84), dtype=np.uint8) for i in ids])
        obs[:, 0, 0, 0] = ids
        obs[:, 0, 0, 1] = self.t[ids]
        return obs

    def lives(self, ids: np.ndarray) -> np.ndarray:
        return np.where(self.t[ids] >= 4, 2, 3)

    def reset(self, seed=None):
        self.t[:] = 0
        ids = np.arange(self.num_envs)
        return self.frames(ids), {"lives": self.lives(ids)}

    def advance(self, ids: np.ndarray):
        self.t[ids] += 1
        t = self.t[ids]
        reward = np.select([t == 3, t == 6], [5.0 + self.rising * self.games[ids], -2.0], 0.0)
        if self.nan_reward:
            reward[:] = np.nan
        over = t == 8
        terminated = over & (ids % 2 == 0)
        truncated = over & ~terminated
        info = {"lives": self.lives(ids), "env_id": ids}
        if over.any():
            info["final_obs"] = self.frames(ids)
            self.t[ids[over]] = 0
            self.games[ids[over]] += 1
            info["lives"] = self.lives(ids)
        return self.frames(ids), reward, terminated, truncated, info

    def send(self, actions, env_ids):
        group = next(g for g, ids in enumerate(self.groups) if env_ids[0] in ids)
        assert sorted(env_ids) == list(self.groups[group]) and group not in self.sent, "one step of a whole group"
        self.sent[group] = env_ids

    def recv(self, group):
        self.sent.pop(group)
        ids = self.rng.permutation(self.groups[group]) if self.shuffle else self.groups[group]
        return self.advance(ids)

    def step(self, actions):
        return self.advance(np.arange(self.num_envs))

    def close(self):
        pass


def scripted(monkeypatch, nan_reward: bool = False, shuffle: bool = False, rising: bool = False):
    module = atari()

    def make_envs(args, backend, num_envs, seed, video_dir=None, groups=1, threads=1):
        return ScriptedGames(num_envs, nan_reward, groups, shuffle, rising)

    monkeypatch.setattr(module, "make_envs", make_envs)
    return module


def capture_gae(module, monkeypatch) -> list[dict]:
    calls, original = [], module.compute_gae

    def spy(rewards, values, terminations, truncations, final_values, *rest):
        calls.append({"rewards": rewards.clone(), "terminations": terminations.clone(),
                      "truncations": truncations.clone(), "final_values": final_values.clone()})  # fmt: skip
        return original(rewards, values, terminations, truncations, final_values, *rest)

    monkeypatch.setattr(module, "compute_gae", spy)
    return calls


def test_atari_logs_unclipped_scores_and_trains_on_clipped_rewards(monkeypatch):
    """Every scripted game scores 3 in 8 steps: that is what is logged for each game (its length too), while training
    sees the rewards clipped to +1 and -1."""
    module = scripted(monkeypatch)
    calls = capture_gae(module, monkeypatch)
    summary = run(num_steps=16, total_timesteps=64)
    assert [v for _, v in scalars(run_dirs()[-1], "charts/episodic_return")] == [3.0] * 8  # 4 games x 2 envs
    assert [v for _, v in scalars(run_dirs()[-1], "charts/episodic_length")] == [8.0] * 8
    assert summary["train_return_last20"] == 3.0
    rewards = torch.cat([c["rewards"] for c in calls])[:, 0]
    assert rewards[[2, 10]].tolist() == [1.0, 1.0] and rewards[[5, 13]].tolist() == [-1.0, -1.0]
    assert rewards.abs().sum() == 8  # nothing else is paid


def test_atari_summary_reports_the_last_20_games_and_the_evaluation_as_played(monkeypatch):
    """Each env's k-th game scores 3 + k: 12 games in each of 2 envs are logged with their own scores, summary.json's
    last-20 mean is that of the last 20 logged (not of the last 10), and its evaluation figures are those of the 3
    evaluation games, which score 3, 4 and 5 on a fresh env."""
    scripted(monkeypatch, rising=True)
    summary = run(num_steps=16, total_timesteps=192, eval_episodes=3)
    returns = [v for _, v in scalars(run_dirs()[-1], "charts/episodic_return")]
    assert sorted(returns) == sorted(3.0 + k for k in range(12) for _ in range(2))
    assert summary["train_return_last20"] == pytest.approx(np.mean(returns[-20:]))
    assert summary["train_return_last20"] != pytest.approx(np.mean(returns[-10:]))
    assert summary["eval_returns"] == [3.0, 4.0, 5.0]
    assert summary["eval_mean_return"] == pytest.approx(4.0)
    assert summary["eval_std_return"] == pytest.approx(np.std([3.0, 4.0, 5.0]))


def test_atari_a_long_evaluation_says_how_far_it_is(monkeypatch, capsys):
    """As for the vector scripts: past 10 s of evaluation, a line per game (ten games of an untrained agent took
    7.5 minutes with no line); a clock that runs 20 s a call makes every game long."""
    module, clock = scripted(monkeypatch, rising=True), itertools.count(1_000_000, 20)
    monkeypatch.setattr(module, "time", types.SimpleNamespace(time=lambda: next(clock)))  # the script's clock alone
    run(num_steps=16, total_timesteps=192, eval_episodes=3)
    out = capsys.readouterr().out
    assert all(f"evaluation game {k}/3: score {2.0 + k}" in out for k in (1, 2, 3))


@pytest.mark.parametrize("episodic_life, reset_on_life_loss", [(True, False), (False, False), (True, True)])
def test_atari_life_loss_ends_the_episode_for_gae_and_for_the_state_only_as_asked(
    monkeypatch, episodic_life, reset_on_life_loss
):
    module = scripted(monkeypatch)
    calls = capture_gae(module, monkeypatch)
    starts = []  # the episode starts the rollout gives the Agent for env 0, step by step
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, episode_starts, action=None, **kwargs):
        if action is None and (obs[:, 0, 0, 0] == 0).any():  # the group holding env 0
            starts.append(episode_starts[obs[:, 0, 0, 0] == 0].clone())
        return original(self, obs, state, episode_starts, action, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run(num_steps=16, total_timesteps=32, num_minibatches=1, episodic_life=episodic_life,
        reset_state_on_life_loss=reset_on_life_loss)  # fmt: skip
    game_over = [7, 15]  # 0-based steps that end a game
    life_loss = [3, 11]
    ends = torch.nonzero(calls[0]["terminations"][:, 0] + calls[0]["truncations"][:, 0]).flatten().tolist()
    assert ends == sorted(game_over + (life_loss if episodic_life else []))
    opened = torch.nonzero(torch.cat(starts)).flatten().tolist()
    assert opened == sorted([0, 8] + ([4, 12] if reset_on_life_loss else []))


def test_atari_time_limit_cut_is_bootstrapped_with_the_games_own_state(monkeypatch):
    """Odd envs are cut at step 8: GAE sees the cut as a truncation, and its final value is the critic's on the final
    frame, reached by replaying the game from a zero state; even envs terminate there and get none."""
    module = scripted(monkeypatch)
    calls = capture_gae(module, monkeypatch)
    frames, checked = {}, []  # env -> the frames the rollout acted on; (value used, value replayed) per cut
    act, value = module.Agent.get_action_and_value, module.Agent.get_value

    def spy_act(self, obs, state, episode_starts, action=None, **kwargs):
        if action is None:
            for frame in obs:
                frames.setdefault(int(frame[0, 0, 0]), []).append(frame.clone())
        return act(self, obs, state, episode_starts, action, **kwargs)

    def spy_value(self, obs, state, episode_starts):
        result = value(self, obs, state, episode_starts)
        for row, frame in enumerate(obs):
            env = int(frame[0, 0, 0])
            if frame[0, 0, 1] == 8 and len(frames[env]) == 8:  # the final frame of env's first game, before the next
                game = torch.stack(frames[env] + [frame])
                starts = torch.zeros(len(game), device=obs.device)
                starts[0] = 1.0
                checked.append((env, result[row].item(), value(self, game, self.get_initial_state(1), starts)[-1].item()))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy_act)
    monkeypatch.setattr(module.Agent, "get_value", spy_value)
    run(num_envs=4, num_steps=16, total_timesteps=64, num_minibatches=1)
    assert [env for env, _, _ in checked] == [1, 3]  # the odd envs, in each group
    for _, used, replayed in checked:
        assert used == pytest.approx(replayed, abs=1e-5)
    final_values = calls[0]["final_values"]
    assert (final_values[[7, 15]][:, [1, 3]] != 0).all()  # the cut envs
    assert (final_values[:, [0, 2]] == 0).all() and (final_values[[0, 1, 2, 3, 4, 5, 6, 8], :] == 0).all()
    expected_cuts = torch.zeros(16, 4)  # (step, env)
    expected_cuts[[7, 15], 1] = expected_cuts[[7, 15], 3] = 1.0
    assert torch.equal(calls[0]["truncations"].cpu(), expected_cuts)
    assert torch.equal(calls[0]["terminations"][[7, 15]].cpu(), torch.tensor([[1.0, 0.0, 1.0, 0.0]] * 2))


@pytest.mark.parametrize("reset_state_on_done", [True, False])
def test_atari_evaluation_starts_every_game_from_a_zero_state(monkeypatch, reset_state_on_done):
    module = scripted(monkeypatch)
    first_states = []  # the state the Agent gets on the first step of each evaluation game
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, episode_starts, action=None, deterministic=False, **kwargs):
        if deterministic and obs[0, 0, 0, 1] == 0:
            first_states.append(state.clone())
        return original(self, obs, state, episode_starts, action, deterministic, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    summary = run(eval_episodes=3, reset_state_on_done=reset_state_on_done)
    assert summary["eval_mean_return"] == 3.0 and len(first_states) == 3
    assert all(not s.any() for s in first_states)


@pytest.mark.parametrize("reset_state_on_life_loss", [True, False])
def test_atari_evaluation_resets_the_state_at_a_life_loss_only_when_told(monkeypatch, reset_state_on_life_loss):
    """Every scripted game loses a life on its step to frame 4: the evaluation marks that frame as an episode start
    (the Agent zeroes its state there) with --reset-state-on-life-loss, and carries the state through it without."""
    module = scripted(monkeypatch)
    starts = {}  # a frame's step within its game -> the episode_starts the evaluation gave with it
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, episode_starts, action=None, deterministic=False, **kwargs):
        if deterministic:
            starts.setdefault(int(obs[0, 0, 0, 1]), set()).add(float(episode_starts[0]))
        return original(self, obs, state, episode_starts, action, deterministic, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run(eval_episodes=2, reset_state_on_life_loss=reset_state_on_life_loss)
    assert sorted(starts) == list(range(8))
    assert starts[0] == {1.0} and starts[4] == {float(reset_state_on_life_loss)}
    assert all(starts[t] == {0.0} for t in (1, 2, 3, 5, 6, 7))


def test_atari_same_seed_gives_identical_runs_and_another_seed_does_not():
    results = []
    for seed in (1, 1, 2):
        run(seed=seed, max_episode_steps=20)
        run_dir = run_dirs()[-1]
        results.append((scalars(run_dir, "losses/value_loss"), scalars(run_dir, "charts/episodic_length")))
    assert results[0] == results[1]
    assert results[0][0] != results[2][0]


def test_atari_bad_checkpoints_are_named(capsys, tmp_path):
    assert "does not exist" in one_line_error(capsys, eval_checkpoint="missing.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    assert "corrupt" in one_line_error(capsys, eval_checkpoint="junk.pt")
    torch.save({"script": "ppo_lstm.py", "env_id": "Breakout-v5"}, tmp_path / "other.pt")
    assert "not written by ppo_gru_atari.py" in one_line_error(capsys, eval_checkpoint="other.pt")
    saved = run(save_model=True)["checkpoint"]
    capsys.readouterr()
    assert "is for env 'Breakout-v5'" in one_line_error(capsys, env_id="Pong-v5", resume=saved)


def test_atari_non_finite_loss_stops_and_keeps_the_last_good_checkpoint(capsys, monkeypatch):
    scripted(monkeypatch, nan_reward=True)
    err = one_line_error(capsys, save_model=True)
    assert "non-finite loss at update 1" in err and "(global step 0)" in err
    saved = torch.load(err.split("): ")[1], weights_only=False)
    assert saved["global_step"] == 0 and all(torch.isfinite(w).all() for w in saved["model"].values())


def test_atari_non_finite_stop_closes_the_envs_the_writer_and_the_wandb_run(capsys, monkeypatch):
    """As for the vector scripts (test_errors.py): a run that stops on a non-finite loss leaves nothing open, its
    SIGTERM handler included."""
    scripted(monkeypatch, nan_reward=True)
    closed = []
    monkeypatch.setattr(ScriptedGames, "close", lambda self: closed.append(self))
    writers, sigterm = writer_threads(), signal.getsignal(signal.SIGTERM)
    with tracked(), pytest.raises(SystemExit) as stop:  # W&B writes to stderr too: not one line
        run(track=True)
    assert stop.value.code == 2 and "non-finite loss at update 1" in capsys.readouterr().err
    assert len(closed) == 1 and writer_threads() == writers
    assert wandb_exit_code() == 2
    assert signal.getsignal(signal.SIGTERM) is sigterm  # the training loop's SIGTERM handler is gone with it


def test_atari_error_in_the_loop_is_raised_after_the_run_keeps_its_last_update_and_closes_what_it_opened(capsys,
                                                                                                     monkeypatch):
    """As for the vector scripts (test_errors.py): an exception raised by the envs in the second rollout comes out as
    it was raised, after the run has kept the last completed update, said so, and closed what it opened (its SIGTERM
    handler included), its W&B run finished with the exit code 1."""
    scripted(monkeypatch)
    closed, advance = [], ScriptedGames.advance

    def breaks(self, ids):  # a group's step: 2 groups of one env, so 32 a rollout
        self.steps = getattr(self, "steps", 0) + 1
        if self.steps > 40:
            raise RuntimeError("the env broke")
        return advance(self, ids)

    monkeypatch.setattr(ScriptedGames, "advance", breaks)
    monkeypatch.setattr(ScriptedGames, "close", lambda self: closed.append(self))
    writers, sigterm = writer_threads(), signal.getsignal(signal.SIGTERM)
    with tracked(), pytest.raises(RuntimeError, match="the env broke"):
        run(track=True, save_model=True)
    (line,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("stopped by RuntimeError")]
    assert line.startswith("stopped by RuntimeError at global step 42; checkpoint at global step 32: runs/")
    assert torch.load(line.split(": ")[1], weights_only=False)["global_step"] == 32
    assert len(closed) == 1 and writer_threads() == writers and signal.getsignal(signal.SIGTERM) is sigterm
    assert wandb_exit_code() == 1


@pytest.mark.parametrize("stop, exit_code", [(RuntimeError("the evaluation broke"), 1), (KeyboardInterrupt(), 130)])
def test_atari_error_or_ctrl_c_in_the_evaluation_ends_the_run_as_in_the_loop(capsys, monkeypatch, stop, exit_code):
    """As for the vector scripts (test_errors.py): Ctrl-C or an error raised by the evaluation's env (on its third step)
    ends the run as in the loop: the checkpoint kept, one line, the evaluation's env closed as well as the writer, and
    the W&B run finished with the exit code 1 (the error then comes out as it was raised) or 130."""
    module, closed = atari(), []

    class StopsInEvaluation(ScriptedGames):
        def step(self, actions):
            if self.t[0] == 2:
                raise stop
            return super().step(actions)

        def close(self):
            closed.append(self)

    def make_envs(args, backend, num_envs, seed, video_dir=None, groups=1, threads=1):
        games = StopsInEvaluation if seed == args.seed + 100_000 else ScriptedGames  # the evaluation's seed
        return games(num_envs, groups=groups)

    monkeypatch.setattr(module, "make_envs", make_envs)
    writers = writer_threads()
    with stopped_in_the_evaluation(capsys, exit_code, global_step=64):
        run(track=True, save_model=True, eval_episodes=2)
    assert len(closed) == 1 and writer_threads() == writers


def test_atari_run_in_another_thread_trains_and_leaves_sigterm_as_it_was(monkeypatch):
    """As for the vector scripts (test_errors.py): Python sets signal handlers in the main thread only, and a run in a
    thread of its own trains and ends as in the main thread, with SIGTERM left as it was."""
    scripted(monkeypatch)
    before = signal.getsignal(signal.SIGTERM)
    summary = in_another_thread(run)
    assert summary is not None and summary["global_step"] == 64
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_atari_ctrl_c_or_sigterm_saves_the_last_completed_update(stop):
    """Ctrl-C, and the SIGTERM with which `timeout` and torchrun stop a run, both save the last completed update."""
    import signal

    from test_errors import interrupt

    flags = ["--save-model", "--num-envs", "2", "--num-steps", "16", "--num-minibatches", "1", "--eval-episodes", "0"]
    out, err, code = interrupt("ppo_gru_atari", "--total-timesteps", "1000000", *flags, after="update 3/",
                               stop=getattr(signal, stop))  # fmt: skip
    assert code == 130, err
    saved = torch.load(err.strip().split(": ")[-1], weights_only=False)
    progress = [int(line.split("global_step ")[1].split()[0]) for line in out.splitlines() if line.startswith("update ")]
    assert saved["global_step"] % 32 == 0 and saved["global_step"] >= progress[-1]
    total = saved["global_step"] + 64
    resumed = run(resume=err.strip().split(": ")[-1], num_envs=2, num_steps=16, num_minibatches=1, total_timesteps=total)
    assert resumed["global_step"] == total


def test_atari_checkpoint_resumes_identically_whatever_layout_it_was_written_in():
    """A CUDA run saves its weights and Adam moments contiguous; on CPU the network trains channels-last with fused
    Adam. Resumed on CPU, a contiguous checkpoint and a channels-last one must give the same next update."""
    saved = run(save_model=True)["checkpoint"]
    checkpoint = torch.load(saved, weights_only=False)
    layouts = {}
    for layout in (torch.contiguous_format, torch.channels_last):

        def to(x, layout=layout):
            return x.to(memory_format=layout) if torch.is_tensor(x) and x.dim() == 4 else x

        variant = {**checkpoint, "model": {k: to(v) for k, v in checkpoint["model"].items()},
                   "optimizer": {**checkpoint["optimizer"], "state": {
                       i: {k: to(v) for k, v in s.items()} for i, s in checkpoint["optimizer"]["state"].items()}}}  # fmt: skip
        path = f"{layout}.pt".replace("torch.", "")
        torch.save(variant, path)
        resumed = run(resume=path, save_model=True, total_timesteps=96)
        layouts[layout] = torch.load(resumed["checkpoint"], weights_only=False)["model"]
    contiguous, channels_last = layouts.values()
    for key in contiguous:
        torch.testing.assert_close(contiguous[key], channels_last[key], rtol=0, atol=0)


def torchrun(*flags: str, timeout: int = 300) -> subprocess.CompletedProcess:
    worker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torchrun_worker.py")
    return subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2", worker,
                           "--no-cuda", *flags], capture_output=True, text=True, timeout=timeout)  # fmt: skip


def test_two_gloo_ranks_train_one_model_and_rank_0_alone_writes():
    """torchrun with two CPU ranks: each steps its own envs (seeded by rank, so their rollouts differ), gradients are
    averaged, so the weights are the same on both after every update; global_step counts both ranks' steps; rank 0
    alone writes the run folder; its checkpoint resumes in one plain process."""
    out = torchrun("--num-envs", "2", "--num-steps", "16", "--num-minibatches", "2", "--update-epochs", "2",
                   "--total-timesteps", "192", "--eval-episodes", "1", "--max-episode-steps", "100", "--save-model")
    assert out.returncode == 0, out.stderr[-3000:]
    ranks = [torch.load(f"rank{r}.pt") for r in (0, 1)]
    assert len(ranks[0]["weights"]) == len(ranks[1]["weights"]) == 4  # before training, then after each of 3 updates
    for rank_0, rank_1 in zip(*(r["weights"] for r in ranks), strict=True):
        torch.testing.assert_close(rank_0, rank_1, rtol=0, atol=0)
    assert not torch.equal(ranks[0]["weights"][0], ranks[0]["weights"][-1])  # and they did train
    assert not torch.equal(ranks[0]["values"][0], ranks[1]["values"][0])  # on different games
    assert ranks[0]["env_seeds"][0] == 1 and ranks[1]["env_seeds"] == [1 + 2]  # rank 1's envs after rank 0's
    assert out.stdout.count("update 3/3") == 1 and out.stdout.count("summary: ") == 1
    (run_dir,) = run_dirs()
    assert len([f for f in os.listdir(run_dir) if f.startswith("events")]) == 1
    summary = json.load(open(os.path.join(run_dir, "summary.json")))
    assert summary["global_step"] == 3 * 2 * 2 * 16 and summary["world_size"] == 2 and summary["eval_episodes"] == 1
    resumed = run(resume=summary["checkpoint"], num_envs=2, num_steps=16, total_timesteps=256)
    assert resumed["global_step"] == 256 and resumed["world_size"] == 1


@pytest.mark.parametrize("groups", [1, 2, 3])
def test_the_state_follows_its_env_whatever_order_the_envs_come_back_in(monkeypatch, groups):
    """Envs step in groups whose rows come back shuffled: every env gets, with its frame, the state the Agent returned
    for that env on its previous step; the stored rollout keeps each env in its own column, its steps in order; and the
    replay reproduces the rollout (first-minibatch ratio 1)."""
    module = scripted(monkeypatch, shuffle=True)
    act, calls = module.Agent.get_action_and_value, {"rollout": 0, "checked": 0}
    last_state, replayed = {}, []  # env -> the state the Agent returned for it; the update's frames, per call

    def spy(self, obs, state, episode_starts, action=None, deterministic=False):
        result = act(self, obs, state, episode_starts, action, deterministic)
        if action is None:
            calls["rollout"] += 1
            for row, env in enumerate(obs[:, 0, 0, 0].tolist()):
                if env in last_state:
                    torch.testing.assert_close(state[0, row], last_state[env], rtol=0, atol=0)
                    calls["checked"] += 1
                last_state[env] = result[4][0, row].clone()
        else:
            replayed.append(obs[:, 0, 0, :2].clone())
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run(num_envs=6, num_steps=16, total_timesteps=192, num_minibatches=3, env_groups=groups)
    assert calls["rollout"] == 2 * 16 * groups and calls["checked"] == 2 * 16 * 6 - 6
    frames = replayed[0].view(16, 2, 2)  # (T, sequences, [env, step in game]): two whole env rollouts
    assert (frames[:, :, 0] == frames[:1, :, 0]).all()  # one env per column
    assert ((frames[1:, :, 1] - frames[:-1, :, 1]) % 8 == 1).all()  # its steps in order
    errors = [v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")]
    assert len(errors) == 2 and max(errors) < 1e-5


def test_one_env_thread_and_the_default_thread_count_give_the_same_run():
    """envpool's thread count changes how fast the envs step, never what they return."""
    results = []
    for threads in (1, None, 4):
        run(env_threads=threads, torch_threads=1, num_envs=4, max_episode_steps=30, total_timesteps=128)
        run_dir = run_dirs()[-1]
        results.append((scalars(run_dir, "charts/episodic_return"), scalars(run_dir, "losses/value_loss")))
    assert len(results[0][0]) >= 4  # several games ended
    assert results[0] == results[1] == results[2]


def test_amp_runs_the_cnn_in_bfloat16_and_the_gru_in_float32():
    """--amp: the CNN's features come out in bfloat16, the GRU takes and gives float32, and the replay still matches
    the rollout to bfloat16 precision (both run the same bfloat16 CNN)."""
    module = atari()
    dtypes = set()
    original = module.Agent.__init__

    def init(self, envs, args):
        original(self, envs, args)
        self.network.register_forward_hook(lambda m, i, o: dtypes.add(("cnn", o.dtype)))
        self.gru.register_forward_hook(lambda m, i, o: dtypes.update({("gru in", i[0].dtype), ("gru out", o[0].dtype)}))

    module.Agent.__init__ = init
    try:
        run(amp=True)
    finally:
        module.Agent.__init__ = original
    assert dtypes == {("cnn", torch.bfloat16), ("gru in", torch.float32), ("gru out", torch.float32)}
    errors = [v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")]
    assert len(errors) == 2 and max(errors) < 1e-2


def test_env_groups_seed_each_env_as_one_pool_would():
    """Env i starts the same game (seed + i, the no-op start included) whether the envs form one group or several."""
    module = atari()
    firsts = []
    for groups in (1, 2, 4):
        envs = module.make_envs(module.Args(), "envpool", 4, seed=1, groups=groups)
        assert [ids.tolist() for ids in envs.groups] == [ids.tolist() for ids in np.array_split(np.arange(4), groups)]
        assert len(envs.pools) == groups
        obs, _ = envs.reset()
        frames = []
        for _ in range(30):  # a few steps with FIRE, so that the no-op starts show in the frames
            obs, *_ = envs.step(np.ones(4, dtype=np.int64))
            frames.append(obs)
        firsts.append(np.stack(frames))
        envs.close()
    np.testing.assert_array_equal(firsts[0], firsts[1])
    np.testing.assert_array_equal(firsts[0], firsts[2])
    assert not all(np.array_equal(firsts[0][:, 0], firsts[0][:, i]) for i in range(1, 4))  # the envs differ


def test_envpool_rows_that_come_back_in_any_order_keep_their_env(monkeypatch):
    """EnvpoolSameStep names each row by its env id and resets the finished envs in their own rows, whatever order the
    pool returns its rows in: a pool that reverses them gives the same games, env by env, as one that does not."""
    import envpool

    module, make = atari(), envpool.make

    class Reversed:  # a real pool whose recv and reset give their rows last env first
        def __init__(self, *args, **kwargs):
            self.pool = make(*args, **kwargs)
            self.observation_space, self.action_space = self.pool.observation_space, self.pool.action_space

        def reversed(self, result):
            *arrays, info = result
            rows = len(info["env_id"])
            info = {k: v[::-1].copy() if isinstance(v, np.ndarray) and len(v) == rows else v for k, v in info.items()}
            return *(a[::-1].copy() for a in arrays), info

        def reset(self, env_ids=None):
            return self.reversed(self.pool.reset(env_ids))

        def send(self, actions, env_ids):
            self.pool.send(actions, env_ids)

        def recv(self):
            return self.reversed(self.pool.recv())

        def close(self):
            self.pool.close()

    games = []
    for pool in (make, Reversed):
        monkeypatch.setattr(envpool, "make", pool)
        # SpaceInvaders: its invaders move during the no-op starts, so every env's first frame differs
        envs = module.make_envs(module.Args(env_id="SpaceInvaders-v5", max_episode_steps=5), "envpool", 6, seed=1, groups=2)
        steps = [envs.reset()]
        for _ in range(12):  # cuts at steps 5 and 10 reset every env
            steps.append(envs.step(np.arange(6) % 4))
        envs.close()
        games.append(steps)
    first_frames = games[0][0][0][:, 0]
    assert len({frame.tobytes() for frame in first_frames}) > 1
    for ordered, reversed_ in zip(*games, strict=True):
        for a, b in zip(ordered, reversed_, strict=True):
            if isinstance(a, dict):
                assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
            else:
                np.testing.assert_array_equal(a, b)


def test_two_ranks_stop_their_epochs_together_at_the_target_kl():
    """--target-kl stops the epochs once the KL, averaged over the ranks, passes it: every rank takes the same number
    of optimiser steps (a rank stopping alone would leave the other waiting in an all-reduce), and the target did stop
    some update early."""
    out = torchrun("--num-envs", "2", "--num-steps", "16", "--num-minibatches", "2", "--update-epochs", "8",
                   "--total-timesteps", "256", "--eval-episodes", "0", "--learning-rate", "0.003", "--target-kl", "0.002",
                   timeout=120)  # a rank left waiting in a collective would hang: the timeout fails the test
    assert out.returncode == 0, out.stderr[-3000:]
    ranks = [torch.load(f"rank{r}.pt") for r in (0, 1)]
    steps = [r["optimizer_steps"] for r in ranks]
    assert steps[0] == steps[1] < 4 * 8 * 2  # 4 updates of at most 8 epochs of 2 minibatches
    # the script's all-reduces: each epoch's KL (a number), then once per update the non-finite flags (two)
    kinds = [before.shape for before, _ in ranks[0]["reductions"]]
    assert kinds == [before.shape for before, _ in ranks[1]["reductions"]] and kinds.count((2,)) == 4
    updates, epochs = [], []
    for (kl_0, total), (kl_1, _) in zip(ranks[0]["reductions"], ranks[1]["reductions"], strict=True):
        if kl_0.shape == (2,):
            updates, epochs = updates + [epochs], []
        else:
            torch.testing.assert_close(total, kl_0 + kl_1)  # a sum: the script divides it by the ranks
            epochs.append(float(total) / 2)
    assert sum(map(len, updates)) * 2 == steps[0]
    for kls in updates:  # an update stops at the first epoch whose KL, the mean over the ranks, passes the target
        assert all(kl <= 0.002 for kl in kls[:-1]) and (kls[-1] > 0.002 or len(kls) == 8), kls
    assert any(len(kls) < 8 for kls in updates)
