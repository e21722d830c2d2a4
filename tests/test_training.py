"""The training loop of the vector-observation scripts: replay, GAE, autoreset, determinism, checkpoints."""

import dataclasses
import glob
import json
import os
import shutil

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import (
    LSTM_SCRIPTS,
    VECTOR_SCRIPTS,
    env_of,
    host,
    load,
    offline_wandb_run,
    recorded_frames,
    rollout_steps,
    run,
    run_dirs,
    scalars,
    stats_to_the_end,
    tiny,
    tracked,
    whole_episodes,
)

ALL_SCRIPTS = [*VECTOR_SCRIPTS, "ppo_gru_atari"]

gym.register("ShortCartPole-v1", entry_point="gymnasium.envs.classic_control:CartPoleEnv", max_episode_steps=6)
gym.register("ShortPendulum-v1", entry_point="gymnasium.envs.classic_control:PendulumEnv", max_episode_steps=6)
gym.register("Pendulum12-v1", entry_point="gymnasium.envs.classic_control:PendulumEnv", max_episode_steps=12)
# per script: an env whose episodes all last 12 steps, and one cut by a time limit after 6 steps
FIXED_LENGTH_ENV = {"ppo_mlp_cartpole": "CueRecall-v0", "ppo_lstm": "CueRecall-v0", "ppo_lstm_continuous": "Pendulum12-v1"}
SHORT_ENV = {"ppo_mlp_cartpole": "ShortCartPole-v1", "ppo_lstm": "ShortCartPole-v1", "ppo_lstm_continuous": "ShortPendulum-v1"}


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
@pytest.mark.parametrize("shared_lstm", [False, True])
@pytest.mark.parametrize("seq_len", [0, 8])
def test_first_minibatch_ratio_is_one(name, seq_len, shared_lstm):
    """Training replays each sequence from its stored state: the first minibatch sees the rollout's own logprobs."""
    run(name, seq_len=seq_len, shared_lstm=shared_lstm, num_minibatches=2)
    errors = [v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")]
    assert len(errors) == 2
    assert max(errors) < 1e-5


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_minibatches_hold_whole_sequences_of_fixed_size(name, monkeypatch):
    """With --seq-len 8 every minibatch has the same number of sequences, whatever the episode boundaries."""
    module = load(name)
    sizes = []
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, done, action=None, **kwargs):
        if action is not None:
            sizes.append((obs.shape[0], state[0].shape[1]))
        return original(self, obs, state, done, action, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run(name, env_id=SHORT_ENV[name], seq_len=8, num_minibatches=4)  # 4 envs x 16 steps = 8 sequences of 8: 4 x 2
    assert set(sizes) == {(16, 2)}


@pytest.mark.parametrize("name", [*VECTOR_SCRIPTS, "ppo_gru_atari"])
def test_gae_matches_hand_computed_reference(name):
    compute_gae = load(name).compute_gae
    gamma, lam = 0.9, 0.8
    # one env, 5 steps: step 1 terminates as the time limit cuts it (a final value given there must not count), step 3
    # is cut by the time limit (its final obs is worth 2.0)
    rewards = torch.tensor([[1.0], [2.0], [0.5], [1.0], [3.0]])
    values = torch.tensor([[0.5], [1.0], [0.2], [0.4], [0.6]])
    terminations = torch.tensor([[0.0], [1.0], [0.0], [0.0], [0.0]])
    truncations = torch.tensor([[0.0], [1.0], [0.0], [1.0], [0.0]])
    final_values = torch.tensor([[0.0], [5.0], [0.0], [2.0], [0.0]])
    next_value = torch.tensor([0.7])
    advantages, returns = compute_gae(rewards, values, terminations, truncations, final_values, next_value, gamma, lam)
    d4 = 3.0 + gamma * 0.7 - 0.6
    d3 = 1.0 + gamma * 2.0 - 0.4  # bootstrapped from the final obs, and the trace stops there
    d2 = 0.5 + gamma * 0.4 - 0.2
    d1 = 2.0 - 1.0  # terminated: no bootstrap
    d0 = 1.0 + gamma * 1.0 - 0.5
    expected = [d0 + gamma * lam * d1, d1, d2 + gamma * lam * d3, d3, d4]
    torch.testing.assert_close(advantages.flatten(), torch.tensor(expected))
    torch.testing.assert_close(returns, advantages + values)


def capture_gae_inputs(module, monkeypatch) -> list[dict]:
    calls, original = [], module.compute_gae

    def spy(rewards, values, terminations, truncations, final_values, next_value, gamma, gae_lambda):
        calls.append(
            {"terminations": terminations.clone(), "truncations": truncations.clone(), "final_values": final_values.clone()}
        )
        return original(rewards, values, terminations, truncations, final_values, next_value, gamma, gae_lambda)

    monkeypatch.setattr(module, "compute_gae", spy)
    return calls


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_no_autoreset_transition_is_stored(name, monkeypatch):
    """Episodes of these envs last exactly 12 steps: stored episodes must too (a dummy step would make 13)."""
    calls = capture_gae_inputs(load(name), monkeypatch)
    run(name, env_id=FIXED_LENGTH_ENV[name], num_steps=24, total_timesteps=4 * 24 * 2, **whole_episodes(name))
    ends = torch.cat([c["terminations"] + c["truncations"] for c in calls])  # (2 * 24, N), the rollouts in order
    for env in range(ends.shape[1]):
        assert torch.nonzero(ends[:, env]).flatten().tolist() == [11, 23, 35, 47]


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_truncation_is_bootstrapped_from_the_final_observation(name, monkeypatch):
    calls = capture_gae_inputs(load(name), monkeypatch)
    run(name, env_id=SHORT_ENV[name])
    truncations = torch.cat([c["truncations"] for c in calls])
    terminations = torch.cat([c["terminations"] for c in calls])
    final_values = torch.cat([c["final_values"] for c in calls])
    cut = (truncations == 1) & (terminations == 0)
    assert cut.sum() > 0
    assert (final_values[cut] != 0).all()  # the critic's value of the final obs, not a zero
    assert (final_values[~cut] == 0).all()


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_truncation_is_bootstrapped_with_the_episodes_own_state(name, monkeypatch):
    """A cut episode's final observation is valued with the state the episode reached: the same value as replaying
    the whole episode and its final observation from a zero state (a zeroed or reset state would differ)."""
    module = load(name)
    history, checked = [], []  # (obs, episode_starts, previous actions) of every rollout step; (used, replayed value)
    act, value = module.Agent.get_action_and_value, module.Agent.get_value

    def spy_act(self, obs, state, episode_starts, action=None, **kwargs):
        if action is None and not kwargs.get("deterministic"):
            history.append((obs.clone(), episode_starts.clone(), kwargs.get("prev_action")))
        return act(self, obs, state, episode_starts, action, **kwargs)

    def spy_value(self, obs, state, episode_starts, *prev_action):  # ppo_lstm.py's critic reads the previous action
        result = value(self, obs, state, episode_starts, *prev_action)
        if len(history) % 16 and len(obs) == 4:  # every env cut at once, inside a rollout (not its last value)
            t = len(history) - 1
            for i in range(4):
                start = max(k for k in range(t + 1) if history[k][1][i] == 1)
                if start // 16 != t // 16:  # begun under the weights of an earlier update: not replayable now
                    continue
                episode = torch.stack([history[k][0][i] for k in range(start, t + 1)] + [obs[i]])
                starts = torch.zeros(len(episode), device=obs.device)
                starts[0] = 1.0
                before = [torch.stack([history[k][2][i] for k in range(start, t + 1)] + [p[i]]) for p in prev_action]
                replayed = value(self, episode, self.get_initial_state(1), starts, *before)[-1]
                checked.append((result[i].item(), replayed.item()))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy_act)
    monkeypatch.setattr(module.Agent, "get_value", spy_value)
    run(name, env_id=SHORT_ENV[name])
    assert len(checked) >= 12  # 4 envs cut at steps 6 and 12 of the first rollout, and at 2 of the second
    for used, replayed in checked:
        assert used == pytest.approx(replayed, abs=1e-5)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("kind", ["FiveStepsOfOne", "FiveStepsOfOneCut"])
def test_reward_scaling_divides_by_the_deviation_of_a_return_restarted_with_each_episode(name, kind, monkeypatch):
    """Rewards of 1 in episodes of 5 steps, ended by the env or cut by a time limit: the return statistics see 1,
    1 + g, ... and 1 again after each episode, and each stored reward is 1 over the standard deviation of all the
    returns seen up to its step (from the second step on, where the statistics' prior no longer counts)."""
    module = load(name)
    fed = record_return_statistics(module, monkeypatch)  # (N,) discounted returns, one per step
    gae_calls = record_calls(module, "compute_gae", monkeypatch)
    gamma = 0.9
    constant = {"final_gamma": None} if name == "ppo_lstm_continuous" else {}  # its discount would rise to 0.98
    run(name, env_id=env_of(name, kind), gamma=gamma, norm_reward=True, **constant, **whole_episodes(name))
    expected = [sum(gamma**j for j in range(t % 5 + 1)) for t in range(len(fed))]  # 1, 1 + g, ..., then 1 again
    np.testing.assert_allclose(np.stack(fed), np.tile(np.array(expected)[:, None], (1, 4)), rtol=1e-12)
    deviations = [np.std(expected[: t + 1]) for t in range(len(fed))]
    stored = torch.cat([arguments[0] for arguments, _ in gae_calls])  # the rewards GAE was given
    np.testing.assert_allclose(stored[1:].numpy(), 1 / np.tile(np.array(deviations[1:])[:, None], (1, 4)),
                               rtol=1e-3)  # fmt: skip


@pytest.mark.parametrize("name", ["ppo_lstm_continuous"])
def test_final_gamma_anneals_the_discount_of_the_advantages_and_the_reward_scale_by_global_step(name, monkeypatch):
    """--final-gamma: each update's advantages and the return that reward scaling tracks are discounted by a gamma
    linear in the global step from --gamma to --final-gamma at --total-timesteps; a resumed run continues the schedule.
    With --final-gamma None, or a --gamma at or above it, every update uses --gamma."""
    module = load(name)
    gae_calls = record_calls(module, "compute_gae", monkeypatch)
    tracked = record_return_statistics(module, monkeypatch)  # what reward scaling saw

    def used():  # the discount of each compute_gae call since the last clear
        return [arguments[6] for arguments, _ in gae_calls]

    flags = dict(env_id=env_of(name, "FiveStepsOfOne"), gamma=0.9, final_gamma=0.98, norm_reward=True)
    run(name, total_timesteps=256, **flags)
    expected = [0.9, 0.92, 0.94, 0.96]  # update k starts at global step 64 * (k - 1) of 256
    np.testing.assert_allclose(used(), expected, rtol=1e-9)
    np.testing.assert_allclose([v for _, v in scalars(run_dirs()[-1], "charts/gamma")], expected, rtol=1e-6)
    x = np.array(tracked).reshape(4, 16, 4)  # (update, step, env)
    for k, gamma in enumerate(expected):  # within an episode x_t = gamma * x_(t-1) + 1; a first step has x = 1
        previous, now = x[k, :-1], x[k, 1:]
        going_on = now != 1.0
        assert going_on.sum() > 30 and (~going_on).sum() > 0
        np.testing.assert_allclose((now[going_on] - 1.0) / previous[going_on], gamma, rtol=1e-6)
    half = run(name, total_timesteps=128, save_model=True, **flags)
    gae_calls.clear()
    run(name, resume=half["checkpoint"], total_timesteps=256, **flags)
    np.testing.assert_allclose(used(), expected[2:], rtol=1e-9)
    for constant in [dict(final_gamma=None), dict(gamma=0.99)]:
        gae_calls.clear()
        run(name, total_timesteps=256, **{**flags, **constant})
        assert used() == [constant.get("gamma", 0.9)] * 4


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_episode_starts_are_stored_and_replayed_where_episodes_begin(name, monkeypatch):
    """Episodes of 12 steps in rollouts of 24: both the rollout and the replay see starts at steps 0 and 12 of every
    env, and nowhere else (a rollout that never stored them would still replay with ratio 1)."""
    module = load(name)
    rollout, replay = [], []
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, episode_starts, action=None, **kwargs):
        if action is None and not kwargs.get("deterministic"):
            rollout.append(host(episode_starts))
        elif action is not None:
            replay.append(host(episode_starts).view(24, -1))  # one minibatch of whole rollouts, time-major
        return original(self, obs, state, episode_starts, action, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run(name, env_id=FIXED_LENGTH_ENV[name], num_steps=24, total_timesteps=4 * 24 * 2, num_minibatches=1, seq_len=0,
        **whole_episodes(name))
    expected = torch.zeros(24, 4)
    expected[[0, 12]] = 1.0
    torch.testing.assert_close(torch.stack(rollout), torch.cat([expected, expected]))
    assert len(replay) == 2 * 2  # 2 updates x 2 epochs
    for starts in replay:
        torch.testing.assert_close(starts, expected)


# per script: an env whose episodes end at different times, so that returns and losses depend on the seed
VARIED_ENV = {
    "ppo_mlp_cartpole": "CartPoleNoVel-v1",
    "ppo_lstm": "CartPoleNoVel-v1",
    "ppo_lstm_continuous": "ShortPendulum-v1",
}


@pytest.mark.parametrize("name", [*VECTOR_SCRIPTS, "ppo_gru_atari"])
def test_runs_started_in_the_same_second_get_their_own_folders(name, monkeypatch):
    """Two runs of one seed started in the same second (a benchmark starting runs side by side) never share a folder:
    the folder is claimed when its name is chosen, not later by the first file written into it."""
    module = load(name)
    monkeypatch.setattr(module.time, "time", lambda: 1000.0)
    names = [module.make_run_dir(module.Args(seed=1))[0] for _ in range(3)]
    assert len(set(names)) == 3
    assert sorted(os.listdir("runs")) == sorted(names)


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_the_seed_sets_the_initial_weights(name, monkeypatch):
    """The same seed builds the same network, another seed another (the envs' seeding alone would make two seeds'
    runs differ too)."""
    module = load(name)
    init, weights = module.Agent.__init__, []

    def spy(self, *args, **kwargs):
        init(self, *args, **kwargs)
        weights.append(torch.cat([p.detach().flatten() for p in self.parameters()]))  # cat copies

    monkeypatch.setattr(module.Agent, "__init__", spy)
    for seed in (1, 1, 2):
        run(name, seed=seed)
    assert len(weights) == 3 and torch.equal(weights[0], weights[1]) and not torch.equal(weights[0], weights[2])


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_learning_rate_anneals_to_zero_over_the_whole_rollouts_that_fit(name):
    """Training runs whole rollouts: with --total-timesteps 150 and rollouts of 64 steps, two updates, and the
    learning rate falls as if the run were 128 steps long (by half at the second update), not 150."""
    batch = rollout_steps(name)
    run(name, total_timesteps=2 * batch + batch // 3, learning_rate=1e-3)
    assert [v for _, v in scalars(run_dirs()[-1], "charts/learning_rate")] == pytest.approx([1e-3, 0.5e-3])


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_same_seed_gives_identical_runs_and_another_seed_does_not(name):
    results = []
    for seed in (1, 1, 2):
        run(name, env_id=VARIED_ENV[name], seed=seed, torch_deterministic=True, total_timesteps=256)
        run_dir = run_dirs()[-1]
        results.append((scalars(run_dir, "charts/episodic_return"), scalars(run_dir, "losses/value_loss")))
    returns = [v for _, v in results[0][0]]
    assert len(returns) > 5 and len(set(returns)) > 1  # episodes that differ: a comparison that can fail
    assert results[0] == results[1]
    assert results[0][0] != results[2][0] and results[0][1] != results[2][1]


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_each_epoch_visits_every_minibatch_sample_once_in_a_new_order(name, monkeypatch):
    """The update's epochs each take the whole rollout once (whole sequences, for the LSTM scripts), in an order drawn
    afresh per epoch: the rollout's rows every epoch, not in the same order every epoch."""
    module = load(name)
    act, acted, minibatches = module.Agent.get_action_and_value, [], []

    def spy(self, obs, *args, **kwargs):  # the rollout acts on a row per env, the update on minibatches of more
        (minibatches if obs.shape[0] > tiny(name)["num_envs"] else acted).append(obs.clone())
        return act(self, obs, *args, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run(name, update_epochs=3, total_timesteps=rollout_steps(name))  # one update
    per_epoch = tiny(name).get("num_minibatches", module.Args().num_minibatches)
    assert len(minibatches) == 3 * per_epoch
    epochs = [torch.cat(minibatches[e * per_epoch : (e + 1) * per_epoch]) for e in range(3)]
    rows = [sorted(map(tuple, x.flatten(1).tolist())) for x in (torch.cat(acted), *epochs)]
    assert len(rows[0]) == rollout_steps(name) and rows[0] == rows[1] == rows[2] == rows[3]
    assert not torch.equal(epochs[0], epochs[1]) or not torch.equal(epochs[0], epochs[2])


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_clipfrac_is_the_share_of_ratios_outside_the_clip_range_in_use(name, monkeypatch):
    """losses/clipfrac: the share of an update's ratios further than its clip coefficient (the one the loss used,
    annealed or not) from 1, averaged over its minibatches."""
    module = load(name)
    calls = record_calls(module, "ppo_loss", monkeypatch)
    annealed = {"anneal_clip": True} if "anneal_clip" in {f.name for f in dataclasses.fields(module.Args)} else {}
    run(name, clip_coef=0.02, learning_rate=1e-2, **annealed)
    # one share per minibatch, of the ratios and clip coefficient ppo_loss was given
    shares = [((arguments[0] - 1.0).abs() > arguments[6]).float().mean().item() for arguments, _ in calls]
    logged = [v for _, v in scalars(run_dirs()[-1], "losses/clipfrac")]
    per_update = len(shares) // len(logged)
    expected = [np.mean(shares[u * per_update : (u + 1) * per_update]) for u in range(len(logged))]
    assert any(0.0 < share < 1.0 for share in expected)  # some ratios inside the range and some outside
    assert logged == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_logged_losses_are_those_of_each_updates_last_minibatch(name, monkeypatch):
    """losses/policy_loss, losses/value_loss and losses/entropy: what ppo_loss returned for the last minibatch of each
    update, each under its own name."""
    calls = record_calls(load(name), "ppo_loss", monkeypatch)
    run(name)
    returned = [[part.item() for part in result[1:]] for _, result in calls]  # pg_loss, v_loss, entropy_loss
    logged = [[v for _, v in scalars(run_dirs()[-1], f"losses/{tag}")] for tag in ("policy_loss", "value_loss", "entropy")]
    per_update = len(returned) // len(logged[0])
    last = [returned[(u + 1) * per_update - 1] for u in range(len(logged[0]))]
    assert len(set(map(tuple, last))) == len(last) and all(len(set(parts)) == 3 for parts in last)  # nothing alike
    for update, parts in enumerate(last):
        assert [tag[update] for tag in logged] == pytest.approx(parts, rel=1e-6)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_evaluation_plays_a_fixed_set_of_distinct_episodes_set_by_the_seed(name, monkeypatch):
    """The evaluation env is seeded once, at its first reset, with the run's seed + 100,000: its episodes start apart,
    and they are the episodes that a fresh env seeded so plays, so every evaluation of a seed plays the same ones."""
    module = load(name)
    make_env, made = module.make_env, []  # made: (make_env's arguments, [(seed, first observation) per reset])

    class RecordResets(gym.Wrapper):
        def __init__(self, env, resets):
            super().__init__(env)
            self.resets = resets

        def reset(self, *, seed=None, options=None):
            obs, info = super().reset(seed=seed, options=options)
            self.resets.append((seed, np.array(obs, copy=True)))
            return obs, info

    def recording_make_env(*args, **kwargs):
        thunk, resets = make_env(*args, **kwargs), []
        made.append(((args, kwargs), resets))
        return lambda: RecordResets(thunk(), resets)

    monkeypatch.setattr(module, "make_env", recording_make_env)
    run(name, seed=7, eval_episodes=3)
    (args, kwargs), resets = made[-1]  # the evaluation's env, made after training's
    assert [seed for seed, _ in resets] == [100_007, None, None]
    starts = [obs for _, obs in resets]
    assert not any(np.array_equal(a, b) for i, a in enumerate(starts) for b in starts[i + 1 :])
    fresh = make_env(*args, **kwargs)()
    expected = [fresh.reset(seed=100_007)[0], fresh.reset()[0], fresh.reset()[0]]
    for start, first in zip(starts, expected, strict=True):
        np.testing.assert_array_equal(start, first)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_save_then_evaluate_and_resume(name):
    trained = run(name, save_model=True, eval_episodes=3)
    assert trained["global_step"] == 128 and os.path.isfile(trained["checkpoint"])
    with open(os.path.join(os.path.dirname(trained["checkpoint"]), "summary.json")) as f:
        assert json.load(f) == trained

    evaluated = run(name, eval_checkpoint=trained["checkpoint"], eval_episodes=3)
    assert evaluated["eval_mean_return"] == trained["eval_mean_return"]
    assert evaluated["global_step"] == trained["global_step"]
    saved = torch.load(trained["checkpoint"], weights_only=False)
    assert saved["global_step"] == 128 and saved["iteration"] == 2


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_resume_continues_optimizer_statistics_and_schedule(name):
    """Two updates, saved, then two more on resume: the learning rate follows the uninterrupted run's schedule, Adam
    keeps counting its steps, and the observation statistics (ppo_lstm.py's updated to the end, as the other scripts'
    are; its --norm-obs-until has tests of its own) and reward scaling's return statistics keep their counts."""
    to_the_end = {**stats_to_the_end(name), "norm_obs": True, "norm_reward": True}
    full = run(name, save_model=True, total_timesteps=256, **to_the_end)["checkpoint"]
    full = torch.load(full, weights_only=False)
    full_lr = scalars(run_dirs()[-1], "charts/learning_rate")
    half = run(name, save_model=True, total_timesteps=128, **to_the_end)["checkpoint"]
    resumed = run(name, resume=half, save_model=True, total_timesteps=256, **to_the_end)["checkpoint"]
    resumed = torch.load(resumed, weights_only=False)
    assert scalars(run_dirs()[-1], "charts/learning_rate") == full_lr[2:]
    assert resumed["global_step"] == 256 and resumed["iteration"] == 4
    steps = [s["step"].item() for s in resumed["optimizer"]["state"].values()]
    assert steps == [s["step"].item() for s in full["optimizer"]["state"].values()]
    saved = torch.load(half, weights_only=False)
    assert resumed["obs_rms"]["count"] == pytest.approx(saved["obs_rms"]["count"] + 4 + 128)  # the reset, 32 steps
    assert resumed["return_rms"]["count"] == pytest.approx(saved["return_rms"]["count"] + 128)  # and reward scaling's


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
@pytest.mark.parametrize("until, steps_counted", [(0.5, 31), (0.25, 15), (1.0, 64)])
def test_observation_statistics_stop_updating_at_the_given_fraction_of_training(name, until, steps_counted):
    """--norm-obs-until 0.5 of 256 steps (4 envs x 16, 4 updates): the statistics take the reset and each step before
    global step 128, then stay frozen; 1 (ppo_lstm_continuous.py's default before) takes every step to the end."""
    saved = run(name, save_model=True, total_timesteps=256, norm_obs_until=until)["checkpoint"]
    obs_rms = torch.load(saved, weights_only=False)["obs_rms"]
    assert obs_rms["count"] == pytest.approx(1e-4 + 4 + 4 * steps_counted)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_observation_statistics_take_each_step_once_and_not_the_final_frames_of_cut_episodes(name):
    """Episodes cut by a time limit every 6 steps: the statistics take the reset and each step's observations (4 envs x
    32 steps), not the final observation of a cut episode, which only its bootstrap value sees."""
    saved = run(name, env_id=SHORT_ENV[name], save_model=True, norm_obs=True, **stats_to_the_end(name))["checkpoint"]
    assert torch.load(saved, weights_only=False)["obs_rms"]["count"] == pytest.approx(1e-4 + 4 + 4 * 32)


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_frozen_observation_statistics_stay_frozen_on_resume(name):
    """Frozen from global step 64 of a 128-step run, then resumed to 256 and told to freeze at 64 of 256: the
    statistics stay as the checkpoint has them."""
    half = run(name, save_model=True, total_timesteps=128, norm_obs_until=0.5)["checkpoint"]
    before = torch.load(half, weights_only=False)["obs_rms"]
    resumed = run(name, resume=half, save_model=True, total_timesteps=256, norm_obs_until=0.25)["checkpoint"]
    after = torch.load(resumed, weights_only=False)["obs_rms"]
    assert before["count"] == pytest.approx(1e-4 + 4 + 4 * 15)  # the reset and the steps before global step 64
    np.testing.assert_array_equal(after["mean"], before["mean"])
    assert after["count"] == before["count"]


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("anneal_clip", [True, False])
def test_clip_range_anneals_with_the_learning_rate_unless_told_not_to(name, anneal_clip):
    """--anneal-clip (ppo_lstm.py's and the MLP's default) takes the clip range down with the learning rate, from the
    global step; --no-anneal-clip holds it; a resumed run carries on with the uninterrupted run's schedule."""
    run(name, total_timesteps=256, anneal_clip=anneal_clip, clip_coef=0.3)
    lr, clip = (scalars(run_dirs()[-1], tag) for tag in ("charts/learning_rate", "charts/clip_coef"))
    lr0 = load(name).Args.learning_rate
    assert [s for s, _ in clip] == [s for s, _ in lr] == [64, 128, 192, 256]
    expected = [0.3 * v / lr0 for _, v in lr] if anneal_clip else [0.3] * 4
    np.testing.assert_allclose([v for _, v in clip], expected, rtol=1e-6)
    assert (clip[-1][1] < clip[0][1]) == anneal_clip
    half = run(name, total_timesteps=128, anneal_clip=anneal_clip, clip_coef=0.3, save_model=True)["checkpoint"]
    run(name, resume=half, total_timesteps=256, anneal_clip=anneal_clip, clip_coef=0.3)
    assert scalars(run_dirs()[-1], "charts/clip_coef") == clip[2:]


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("num_envs, total, steps", [(8, 384, [256, 384]), (2, 256, [160, 192, 224, 256])])
def test_resume_with_another_batch_continues_by_global_step(name, num_envs, total, steps):
    """A checkpoint of 128 steps (4 envs x 16) resumed with 8 or 2 envs trains up to --total-timesteps exactly, its
    learning rate falling with the global step from where the checkpoint left it."""
    saved = run(name, save_model=True, num_minibatches=2)["checkpoint"]
    summary = run(name, resume=saved, num_envs=num_envs, total_timesteps=total, num_minibatches=2)
    assert summary["global_step"] == total
    lr = scalars(run_dirs()[-1], "charts/learning_rate")
    batch = num_envs * 16
    lr0 = load(name).Args.learning_rate
    assert [s for s, _ in lr] == steps
    np.testing.assert_allclose([v for _, v in lr], [lr0 * (1 - (s - batch) / total) for s in steps], rtol=1e-6)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_checkpoint_decides_the_normalisation_not_the_command_line(name, monkeypatch):
    """Trained without normalisation, a checkpoint is evaluated and resumed without it, whatever the command line says."""
    module = load(name)
    saved = run(name, save_model=True, norm_obs=False, norm_reward=False)["checkpoint"]
    calls = []
    monkeypatch.setattr(module.RunningMeanStd, "normalize", lambda self, x: calls.append("normalize") or x)
    monkeypatch.setattr(module.RunningMeanStd, "update", lambda self, x: calls.append("update"))
    run(name, eval_checkpoint=saved, eval_episodes=2, norm_obs=True, norm_reward=True)
    run(name, resume=saved, total_timesteps=192, norm_obs=True, norm_reward=True)
    assert calls == []


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_saved_normalisation_is_used_frozen_in_evaluation_and_restored_on_resume(name, monkeypatch):
    module = load(name)
    to_the_end = {**stats_to_the_end(name), "norm_obs": True, "norm_reward": True}  # the MLP's are off by default
    trained = run(name, save_model=True, **to_the_end)
    saved = torch.load(trained["checkpoint"], weights_only=False)
    assert saved["obs_rms"]["count"] > 100 and saved["return_rms"]["count"] > 100

    seen = []  # the statistics that evaluate() normalises with, before and after it ran
    raw, inputs = [], []  # each evaluation step's observation as the env gave it, and as the agent got it
    original = module.evaluate

    def spy(agent, args, device, run_name, obs_rms, *rest):
        before = {k: np.copy(v) for k, v in vars(obs_rms).items()}
        normalize, act = obs_rms.normalize, agent.get_action_and_value
        obs_rms.normalize = lambda x: raw.append(np.copy(x)) or normalize(x)
        agent.get_action_and_value = lambda obs, *a, **k: inputs.append(host(obs)) or act(obs, *a, **k)
        returns = original(agent, args, device, run_name, obs_rms, *rest)
        del obs_rms.normalize, agent.get_action_and_value
        seen.append((before, {k: np.copy(v) for k, v in vars(obs_rms).items()}))
        return returns

    monkeypatch.setattr(module, "evaluate", spy)
    run(name, eval_checkpoint=trained["checkpoint"], eval_episodes=2)
    before, after = seen[0]
    for key in ["mean", "var", "count"]:
        np.testing.assert_array_equal(before[key], saved["obs_rms"][key])  # exactly the checkpoint's
        np.testing.assert_array_equal(after[key], before[key])  # and untouched by the evaluation episodes
    # the agent acts on every step's observation normalised with those statistics, not on the raw one
    assert len(raw) == len(inputs) > 0
    for obs, given in zip(raw, inputs, strict=True):  # the observation's entries (ppo_lstm.py's previous action after)
        expected = (obs - saved["obs_rms"]["mean"]) / np.sqrt(saved["obs_rms"]["var"] + 1e-8)
        np.testing.assert_allclose(given.view(-1)[: obs.size].numpy(), np.clip(expected, -10, 10).reshape(-1), rtol=1e-5,
                                   atol=1e-6)  # fmt: skip
    assert not np.allclose(inputs[0].view(-1)[: raw[0].size].numpy(), raw[0], atol=1e-3)  # the statistics change it

    updates = []  # resuming starts from the saved statistics and goes on updating them
    monkeypatch.setattr(module.RunningMeanStd, "update", lambda self, x: updates.append(self.count))
    run(name, resume=trained["checkpoint"], total_timesteps=256, **to_the_end)
    assert updates[0] == saved["obs_rms"]["count"]  # the first update is of the reset observations


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_capture_video_records_each_evaluation_episode_up_to_a_cap(name, monkeypatch):
    """A video per evaluation episode, cut at VIDEO_MAX_FRAMES so that memory stays bounded whatever the episode's
    length (the recorder keeps every frame until the video is written)."""
    run(name, eval_episodes=2, capture_video=True)
    uncut = recorded_frames()
    assert len(uncut) == 2 and min(uncut) > 5
    shutil.rmtree("videos")
    monkeypatch.setattr(load(name), "VIDEO_MAX_FRAMES", 5)
    run(name, eval_episodes=2, capture_video=True)
    assert recorded_frames() in ([5, 5], [4, 4])  # the encoder may drop a last frame


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_track_mirrors_the_tensorboard_scalars_in_an_offline_wandb_run(name):
    """CONTRACT section 5: the W&B run mirrors the TensorBoard scalars (wandb.init must come before the writer:
    sync_tensorboard mirrors only the writers made after it)."""
    with tracked():
        run(name, track=True, eval_episodes=1)
    with open(glob.glob(offline_wandb_run() + "run-*.wandb")[0], "rb") as f:
        records = f.read()  # the scalars mirrored from TensorBoard lie under their keys
    keys = ["charts/SPS", "charts/learning_rate", "losses/value_loss", "losses/approx_kl", "eval/mean_return"]
    assert [key for key in keys if key.encode() not in records] == []


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_rollout_carries_the_state_from_step_to_step_and_across_rollouts(name, monkeypatch):
    """The state each rollout step starts from is exactly the state the step before returned, across the boundary
    between rollouts too (resetting happens inside the Agent, where an episode starts, and nowhere else)."""
    module = load(name)
    handed_over = []  # (state given to a rollout step, state it returned)
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, episode_starts, action=None, **kwargs):
        result = original(self, obs, state, episode_starts, action, **kwargs)
        if action is None and not kwargs.get("deterministic"):
            handed_over.append((tuple(s.clone() for s in state), tuple(s.clone() for s in result[4])))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run(name, env_id=VARIED_ENV[name], total_timesteps=192)  # 3 rollouts of 16 steps
    assert len(handed_over) == 48
    for (_, returned), (given, _) in zip(handed_over, handed_over[1:], strict=False):
        for r, g in zip(returned, given, strict=True):
            torch.testing.assert_close(g, r, rtol=0, atol=0)
    assert all(s.abs().max() > 0 for s in handed_over[16][0])  # the second rollout opens on a carried, non-zero state


class CountingEnv(gym.Env):
    """Observes how many steps its episode has run ([t, 0, 0]); never terminates (a time limit cuts it)."""

    observation_space = gym.spaces.Box(0.0, 1e3, (3,), np.float32)

    def __init__(self, continuous=False):
        self.action_space = gym.spaces.Box(-1.0, 1.0, (1,), np.float32) if continuous else gym.spaces.Discrete(2)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return np.zeros(3, np.float32), {}

    def step(self, action):
        self.t += 1
        return np.array([self.t, 0, 0], np.float32), 1.0, False, False, {}


gym.register("Counting-v0", entry_point=CountingEnv, max_episode_steps=6)
gym.register("CountingContinuous-v0", entry_point=CountingEnv, kwargs={"continuous": True}, max_episode_steps=6)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_time_limit_bootstrap_values_the_final_observation_not_the_next_episodes_first(name, monkeypatch):
    module = load(name)
    valued = []  # the observations get_value is asked about inside the rollouts
    original = module.Agent.get_value

    def spy(self, obs, *args):
        valued.append(obs.clone())
        return original(self, obs, *args)

    monkeypatch.setattr(module.Agent, "get_value", spy)
    run(name, env_id=env_of(name, "Counting"), norm_obs=False, **whole_episodes(name))
    cuts = [obs for obs in valued if (obs[:, 0] != 0).any() and (obs[:, 0] == 6).all()]
    assert len(cuts) == 5  # every env cut at once at steps 6, 12, ..., 30 of its 32: each final obs says 6
    assert len(valued) == len(cuts) + 2  # and the value after each rollout


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_evaluation_starts_every_episode_from_a_zero_state(name, monkeypatch):
    module = load(name)
    first_states = []  # the state given on the first step of each evaluation episode
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, episode_starts, action=None, deterministic=False, **kwargs):
        if deterministic and episode_starts.all():
            first_states.append(tuple(s.clone() for s in state))
        return original(self, obs, state, episode_starts, action, deterministic, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run(name, env_id=SHORT_ENV[name], eval_episodes=3, reset_state_on_done=False)
    assert len(first_states) == 3 and all(not s.any() for state in first_states for s in state)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_rollout_end_is_bootstrapped_from_the_next_step_value(name, monkeypatch):
    """With a learning rate too small to move a weight, the value that bootstraps the end of one rollout is the value
    the next rollout computes for its first step: same observation, same carried state."""
    module = load(name)
    seen = []  # (values, next_value) of every update
    original = module.compute_gae

    def spy(rewards, values, terminations, truncations, final_values, next_value, *rest):
        seen.append((values.clone(), next_value.clone()))
        return original(rewards, values, terminations, truncations, final_values, next_value, *rest)

    monkeypatch.setattr(module, "compute_gae", spy)
    run(name, env_id=VARIED_ENV[name], learning_rate=1e-30, total_timesteps=192)
    assert len(seen) == 3
    for (_, next_value), (values, _) in zip(seen, seen[1:], strict=False):
        assert next_value.abs().max() > 0
        torch.testing.assert_close(next_value, values[0], rtol=0, atol=1e-6)


@pytest.mark.parametrize("name", ["ppo_mlp_cartpole", "ppo_lstm"])
def test_deterministic_action_is_the_most_probable_one(name):
    """What evaluation takes: the argmax of the policy, never a sample (the continuous script's mean is tested in
    test_continuous.py)."""
    module = load(name)
    torch.manual_seed(0)
    envs = gym.vector.SyncVectorEnv([lambda: gym.make("CueRecall-v0")] * 64)
    agent = module.Agent(envs, module.Args())
    with torch.no_grad():
        for layer in agent.modules():  # sharpen the policy so that a sample would often differ from the argmax
            if isinstance(layer, torch.nn.Linear):
                layer.weight.normal_()
        obs = torch.randn(64, 3) * 5
        recurrent = (agent.get_initial_state(64), torch.ones(64)) if name == "ppo_lstm" else ()
        chosen = agent.get_action_and_value(obs, *recurrent, deterministic=True)[0]
        logprobs = torch.stack([agent.get_action_and_value(obs, *recurrent, torch.full((64,), a))[1] for a in (0, 1)])
    assert (chosen == logprobs.argmax(0)).all() and 5 < chosen.sum() < 59  # both actions are chosen somewhere


@pytest.mark.parametrize("name", ALL_SCRIPTS)
@pytest.mark.parametrize("norm_adv", [False, True])
def test_ppo_loss_is_the_clipped_objective_worked_by_hand(name, norm_adv):
    """Five samples, clip range 0.2, each in another case of the clipped surrogate and of the clipped value loss.
    Per sample, surrogate max(-A r, -A clip(r)) and value loss max((v - R)^2, (v_old + clip(v - v_old) - R)^2):
      r 0.5, A +1: -0.5 (not -0.8)      v 0.6 from 0.1, R 1.0: max(0.16, 0.49) = 0.49 (the clipped value, 0.3)
      r 1.0, A -1:  1.0                  v -0.5 from 0.1, R 1.0: max(2.25, 1.21) = 2.25 (the clipped value, -0.1)
      r 1.5, A +1: -1.2 (not -1.5)      v 0.2 from 0.1, R 0.0: max(0.04, 0.04) = 0.04 (within the range)
      r 1.1, A -1:  1.1                  v 1.0 from 0.1, R 0.0: max(1.0, 0.09) = 1.0 (the clipped value, 0.3)
      r 0.5, A -1:  0.8 (not 0.5)       v 0.1 from 0.1, R 0.4: max(0.09, 0.09) = 0.09
    so the surrogate averages 0.24 and the value loss is 0.5 * 3.87 / 5 = 0.387 (without --clip-vloss 0.5 * 3.54 / 5
    = 0.354); with entropies 1..5 (mean 3), ent_coef 0.01 and vf_coef 0.5 the loss is 0.24 - 0.03 + 0.1935. With
    --norm-adv the advantages, mean -0.2 and standard deviation sqrt(1.2), are first normalised over the minibatch."""
    module = load(name)
    ratio = torch.tensor([0.5, 1.0, 1.5, 1.1, 0.5])
    advantages = torch.tensor([1.0, -1.0, 1.0, -1.0, -1.0])
    newvalue = torch.tensor([0.6, -0.5, 0.2, 1.0, 0.1])
    values = torch.full((5,), 0.1)
    returns = torch.tensor([1.0, 1.0, 0.0, 0.0, 0.4])
    entropy = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    args = module.Args(norm_adv=norm_adv, clip_vloss=True, ent_coef=0.01, vf_coef=0.5)
    loss, pg_loss, v_loss, entropy_loss = module.ppo_loss(ratio, advantages, newvalue, values, returns, entropy, 0.2, args)
    if norm_adv:  # the same objective of the advantages normalised by hand
        normalised = (advantages + 0.2) / np.sqrt(1.2)
        unnormalised_args = dataclasses.replace(args, norm_adv=False)
        expected = module.ppo_loss(ratio, normalised, newvalue, values, returns, entropy, 0.2, unnormalised_args)[1]
        assert pg_loss.item() == pytest.approx(expected.item(), abs=1e-6)
        assert pg_loss.item() != pytest.approx(0.24, abs=1e-3)  # normalising changed it
        return
    assert pg_loss.item() == pytest.approx(0.24, abs=1e-6)
    assert v_loss.item() == pytest.approx(0.387, abs=1e-6)
    assert entropy_loss.item() == pytest.approx(3.0)
    assert loss.item() == pytest.approx(0.24 - 0.03 + 0.5 * 0.387, abs=1e-6)
    args.clip_vloss = False
    assert module.ppo_loss(ratio, advantages, newvalue, values, returns, entropy, 0.2, args)[2].item() == pytest.approx(
        0.354, abs=1e-6
    )


def record_calls(module, function: str, monkeypatch) -> list[tuple]:
    """Every call of module.<function> during a run: (its positional arguments, what it returned), tensors copied to
    the CPU."""
    calls, original = [], getattr(module, function)

    def copy(x):
        return tuple(map(copy, x)) if isinstance(x, tuple) else host(x) if torch.is_tensor(x) else x

    def spy(*arguments):
        result = original(*arguments)
        calls.append((copy(arguments), copy(result)))
        return result

    monkeypatch.setattr(module, function, spy)
    return calls


def record_return_statistics(module, monkeypatch) -> list[np.ndarray]:
    """What reward scaling's return statistics are updated with during a run, a copy per update (the observation
    statistics, also a RunningMeanStd, are left out)."""
    fed, original = [], module.RunningMeanStd.update

    def spy(self, x):
        if self.mean.shape == ():
            fed.append(np.array(x, copy=True))
        return original(self, x)

    monkeypatch.setattr(module.RunningMeanStd, "update", spy)
    return fed


def spy_on_optimizer_steps(monkeypatch) -> list[float]:
    """The total norm of the gradients that each Adam step is given, one entry per step."""
    norms, original = [], torch.optim.Adam.step

    def step(self, *args, **kwargs):
        grads = [p.grad for group in self.param_groups for p in group["params"] if p.grad is not None]
        norms.append(torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads])).item())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(torch.optim.Adam, "step", step)
    return norms


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_every_step_gets_the_gradients_clipped_to_max_grad_norm(name, monkeypatch):
    """The gradients of these tiny runs are far above 1e-4 in norm: each of the 8 steps (2 updates x 2 epochs x 2
    minibatches) gets them scaled to exactly --max-grad-norm."""
    norms = spy_on_optimizer_steps(monkeypatch)
    run(name, num_minibatches=2, max_grad_norm=1e-4)
    assert len(norms) == 8
    assert all(abs(norm / 1e-4 - 1) < 1e-3 for norm in norms)


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_every_step_is_given_the_gradient_of_its_own_minibatch_alone(name, monkeypatch):
    """Each of the 8 Adam steps gets the gradient of the loss just computed, on its own minibatch, clipped as
    clip_grad_norm_ clips, and nothing left over from the minibatches before it (a missing zero_grad would add theirs:
    the clipping above would hide that, as it rescales whatever sum it is given)."""
    losses, given, backward, step = [], [], torch.Tensor.backward, torch.optim.Adam.step

    def spy_backward(self, *args, **kwargs):
        losses.append(self)
        return backward(self, *args, **kwargs, retain_graph=True)  # kept, to differentiate the loss alone at the step

    def spy_step(self, *args, **kwargs):
        params = [p for group in self.param_groups for p in group["params"] if p.requires_grad]
        own = [g for g in torch.autograd.grad(losses[-1], params, allow_unused=True) if g is not None]
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in own]))
        scale = torch.clamp(0.5 / (total + 1e-6), max=1.0)
        given.append(([p.grad for p in params if p.grad is not None], [g * scale for g in own]))
        return step(self, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "backward", spy_backward)
    monkeypatch.setattr(torch.optim.Adam, "step", spy_step)
    run(name, num_minibatches=2, max_grad_norm=0.5)
    assert len(given) == 8
    for grads, expected in given:
        assert len(grads) == len(expected)
        for grad, own in zip(grads, expected, strict=True):
            torch.testing.assert_close(grad, own, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_target_kl_ends_the_update_after_the_epoch_that_passes_it(name, monkeypatch):
    """With --target-kl an update stops after the first epoch whose last minibatch's approximate KL is above it. That
    minibatch follows a step at a learning rate of 0.01, so its KL is well above 1e-6: 2 steps per update instead of
    the 8 of 4 epochs x 2 minibatches."""
    norms = spy_on_optimizer_steps(monkeypatch)
    run(name, num_minibatches=2, update_epochs=4, learning_rate=0.01, target_kl=1e-6)
    assert len(norms) == 2 * 2
    norms.clear()
    run(name, num_minibatches=2, update_epochs=4, learning_rate=0.01)
    assert len(norms) == 2 * 8


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_logged_kl_estimates_are_those_of_the_ratios(name, monkeypatch):
    """losses/old_approx_kl is mean(-log r) and losses/approx_kl mean((r - 1) - log r) over the ratios r of the last
    minibatch of each update (as the PPO loss was given them), over 8 updates at a learning rate of 0.01, where the
    policy moves."""
    calls = record_calls(load(name), "ppo_loss", monkeypatch)
    run(name, num_minibatches=2, update_epochs=4, learning_rate=0.01, total_timesteps=8 * rollout_steps(name))
    old = [value for _, value in scalars(run_dirs()[-1], "losses/old_approx_kl")]
    new = [value for _, value in scalars(run_dirs()[-1], "losses/approx_kl")]
    last = [arguments[0].double() for arguments, _ in calls[2 * 4 - 1 :: 2 * 4]]  # the last of 2 x 4 minibatches
    assert len(old) == len(new) == len(last) == 8
    assert old == pytest.approx([(-r.log()).mean().item() for r in last], rel=1e-4, abs=1e-6)
    assert new == pytest.approx([((r - 1) - r.log()).mean().item() for r in last], rel=1e-4, abs=1e-6)
    assert max(new) > 1e-4


@pytest.mark.parametrize("name", ALL_SCRIPTS)
def test_logged_explained_variance_is_that_of_the_critic_on_the_returns(name, monkeypatch):
    """losses/explained_variance of each update is 1 - Var(returns - values) / Var(returns) over that update's
    rollout, computed here from what GAE was given and gave back."""
    calls = record_calls(load(name), "compute_gae", monkeypatch)
    run(name)
    logged = [value for _, value in scalars(run_dirs()[-1], "losses/explained_variance")]
    assert len(logged) == len(calls) == 2
    for value, (arguments, (_, returns)) in zip(logged, calls, strict=True):
        values, returns = arguments[1].flatten().numpy(), returns.flatten().numpy()
        assert value == pytest.approx(1 - np.var(returns - values) / np.var(returns), rel=1e-4, abs=1e-5)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_summary_and_logs_report_each_episode_and_the_evaluation_as_run(name):
    """Episodes of different lengths (CartPole-v1 under a fresh policy; Pendulum cut at 6 steps): each logged
    episodic length is that episode's own (CartPole pays 1 per step, so it equals the return), summary.json's
    train_return_last20 is the mean of the last 20 logged returns, and its evaluation figures are those of its
    eval_returns."""
    env_id = "ShortPendulum-v1" if name == "ppo_lstm_continuous" else "CartPole-v1"
    summary = run(name, env_id=env_id, total_timesteps=640, eval_episodes=3, **whole_episodes(name))
    returns = [value for _, value in scalars(run_dirs()[-1], "charts/episodic_return")]
    lengths = [value for _, value in scalars(run_dirs()[-1], "charts/episodic_length")]
    assert len(returns) == len(lengths) > 20
    assert lengths == ([6] * len(lengths) if name == "ppo_lstm_continuous" else returns)
    assert summary["train_return_last20"] == pytest.approx(np.mean(returns[-20:]), rel=1e-6)
    assert summary["train_return_last20"] != pytest.approx(np.mean(returns[-10:]), rel=1e-6)
    assert len(summary["eval_returns"]) == summary["eval_episodes"] == 3
    assert summary["eval_mean_return"] == pytest.approx(np.mean(summary["eval_returns"]))
    assert summary["eval_std_return"] == pytest.approx(np.std(summary["eval_returns"]))
    assert [value for _, value in scalars(run_dirs()[-1], "eval/mean_return")] == pytest.approx([summary["eval_mean_return"]])


@pytest.mark.parametrize("name", [*VECTOR_SCRIPTS, "ppo_gru_atari"])
def test_float32_stays_float32_on_a_gpu(name):
    """cuDNN's TF32 default (convolutions and RNNs on recent GPUs) put ppo_gru_atari.py's first-minibatch ratio up to
    1.25e-4 off 1 on an H200 (benchmark/results/atari_gpu_scale/speed.json at the tag history-2026-12-01), past the
    contract's 1e-5: every script turns TF32 off, whatever it was before (--amp is the opt-in for lower precision)."""
    backends = (torch.backends.cudnn.conv, torch.backends.cudnn.rnn, torch.backends.cuda.matmul)
    before = [b.fp32_precision for b in backends]
    try:
        for backend in backends:
            backend.fp32_precision = "tf32"
        run(name)
        assert [b.fp32_precision for b in backends] == ["ieee"] * 3
    finally:
        for backend, value in zip(backends, before, strict=True):
            backend.fp32_precision = value


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_the_lstms_start_orthogonal_with_zero_biases_and_the_heads_have_one_tanh_layer_of_64(name):
    """Each LSTM (the actor's and the critic's own) starts with orthogonal weights and zero biases; each head is one
    tanh layer of 64, then its output layer."""
    module = load(name)
    space = gym.spaces.Discrete(2) if name == "ppo_lstm" else gym.spaces.Box(-1, 1, (2,))
    envs = type("Envs", (), {"single_observation_space": gym.spaces.Box(-1, 1, (3,)), "single_action_space": space})
    agent = module.Agent(envs, module.Args(rnn_hidden_size=8, shared_lstm=False))
    for lstm in (agent.lstm, agent.critic_lstm):
        w = lstm.weight_hh_l0.detach()  # (4 * 8, 8): orthonormal columns
        assert torch.allclose(w.T @ w, torch.eye(8), atol=1e-5) and lstm.bias_ih_l0.abs().max() == 0
    head = agent.actor if name == "ppo_lstm" else agent.actor_mean
    linear = [(layer.in_features, layer.out_features) for layer in head if isinstance(layer, torch.nn.Linear)]
    assert linear == [(8, 64), (64, 2)] and sum(isinstance(layer, torch.nn.Tanh) for layer in head) == 1


@pytest.mark.parametrize("name", [*LSTM_SCRIPTS, "ppo_gru_atari"])
def test_checkpoint_decides_the_recurrent_network_s_shape(name):
    """Trained with an LSTM (GRU) of 16 units, and ppo_lstm*.py with one LSTM shared by actor and critic, a checkpoint
    is evaluated and resumed with that network whatever the command line says (here: the defaults)."""
    trained = {"rnn_hidden_size": 16} if name == "ppo_gru_atari" else {"rnn_hidden_size": 16, "shared_lstm": True}
    short = {"max_episode_steps": 20} if name == "ppo_gru_atari" else {}  # Breakout games end soon
    saved = run(name, save_model=True, **trained, **short)["checkpoint"]
    assert run(name, eval_checkpoint=saved, eval_episodes=1, **short)["eval_episodes"] == 1
    resumed = run(name, resume=saved, save_model=True, total_timesteps=3 * rollout_steps(name), **short)
    args = torch.load(resumed["checkpoint"], weights_only=False)["args"]
    assert {key: args[key] for key in trained} == trained


def test_checkpoint_decides_the_mlps_frame_stack():
    """Trained with --frame-stack 2, a checkpoint is evaluated and resumed on stacks of 2 whatever the command line says
    (its input layer takes two observations)."""
    saved = run("ppo_mlp_cartpole", save_model=True, frame_stack=2)["checkpoint"]
    assert run("ppo_mlp_cartpole", eval_checkpoint=saved, eval_episodes=2)["eval_episodes"] == 2
    resumed = run("ppo_mlp_cartpole", resume=saved, total_timesteps=192, frame_stack=3, save_model=True)
    assert resumed["global_step"] == 192
    assert torch.load(resumed["checkpoint"], weights_only=False)["args"]["frame_stack"] == 2
