"""What continuous actions add in ppo_lstm_continuous.py: clipping at the env boundary, the reward floor,
action spaces of any size, correlated exploration noise."""

from itertools import pairwise

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import host, load, run, run_dirs, scalars

SENT = []  # every action that reached the env below, in order


class RecordedPendulum(gym.Wrapper):
    def __init__(self, render_mode=None):
        super().__init__(gym.make("Pendulum-v1", max_episode_steps=10, render_mode=render_mode))

    def step(self, action):
        SENT.append(np.array(action, copy=True))
        return self.env.step(action)


gym.register("RecordedPendulum-v1", entry_point=RecordedPendulum)


def test_actions_are_clipped_at_the_env_boundary_and_the_sample_is_what_is_learned_from(monkeypatch):
    module = load("ppo_lstm_continuous")
    sampled, replayed = [], []
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, done, action=None, **kwargs):
        result = original(self, obs, state, done, action, **kwargs)
        (sampled if action is None else replayed).append(host(result[0]))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    SENT.clear()
    # std e^1.5 = 4.5 on a [-2, 2] action space: most samples fall outside it
    run(
        "ppo_lstm_continuous",
        env_id="RecordedPendulum-v1",
        init_logstd=1.5,
        total_timesteps=64,
        num_steps=16,
        num_minibatches=1,
    )  # one minibatch: the first replay holds every sample
    sampled = torch.cat(sampled).numpy()  # (16 * 4, 1), the rollout's steps in order
    sent = np.stack(SENT)
    assert (np.abs(sampled) > 2.0).mean() > 0.3
    assert (np.abs(sent) <= 2.0).all()
    np.testing.assert_array_equal(sent, np.clip(sampled, -2.0, 2.0))
    # the update replays the unclipped samples (whose logprobs were stored: the ratio-1 test covers the rest)
    stored = replayed[0].numpy()
    assert np.abs(stored).max() > 2.0
    np.testing.assert_array_equal(np.sort(stored.ravel()), np.sort(sampled.ravel()))
    assert max(v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")) < 1e-5


def test_evaluation_takes_the_mean_action_clipped():
    # a wide policy (std 4.5): sampled evaluations would differ from each other and leave the bounds
    trained = run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", init_logstd=1.5, save_model=True)
    returns = []
    for _ in range(2):
        SENT.clear()
        checkpoint = trained["checkpoint"]
        summary = run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", eval_checkpoint=checkpoint, eval_episodes=1)
        returns.append(summary["eval_mean_return"])
        assert len(SENT) == 10 and (np.abs(np.stack(SENT)) <= 2.0).all()
    assert returns[0] == returns[1]
    # the same policy with its mean moved to about 5, past the bound of 2: the env gets the bound, as the mean action
    # and as samples (--eval-sample) alike
    shifted = torch.load(trained["checkpoint"], weights_only=False)
    shifted["model"]["actor_mean.2.bias"].fill_(5.0)
    path = trained["checkpoint"].replace(".pt", "_shifted.pt")
    torch.save(shifted, path)
    for eval_sample in [False, True]:
        SENT.clear()
        run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", eval_checkpoint=path, eval_episodes=2,
            eval_sample=eval_sample)  # fmt: skip
        sent = np.stack(SENT)
        assert len(sent) == 20 and (np.abs(sent) <= 2.0).all()
        assert (sent == 2.0).mean() > (0.5 if eval_sample else 0.99)  # samples of std 4.5 around 5: most beyond 2


def test_reward_floor_raises_training_rewards_but_not_the_logged_return(monkeypatch):
    module = load("ppo_lstm_continuous")
    seen, original = [], module.compute_gae

    def spy(rewards, *args):
        seen.append(rewards.clone())
        return original(rewards, *args)

    monkeypatch.setattr(module, "compute_gae", spy)
    run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", reward_floor=-1.0, norm_reward=False)
    rewards = torch.cat(seen)
    assert rewards.min() == -1.0  # Pendulum pays down to -16.3 per step: the floor is hit and holds
    returns = [v for _, v in scalars(run_dirs()[-1], "charts/episodic_return")]
    assert min(returns) < -10.0  # 10-step episodes floored would never go below -10


class CountedPendulum(gym.Wrapper):
    """Pendulum-v1 under a time limit of 20 steps declared at registration; STEPS gets each step's count within its
    episode, so a cut episode's last count is its length."""

    def __init__(self):
        super().__init__(gym.make("Pendulum-v1", max_episode_steps=None).unwrapped)

    def reset(self, **kwargs):
        self.t = 0
        return self.env.reset(**kwargs)

    def step(self, action):
        self.t += 1
        STEPS.append(self.t)
        return self.env.step(action)


STEPS = []
gym.register("CountedPendulum-v1", entry_point=CountedPendulum, max_episode_steps=20)


def test_train_time_limit_cuts_training_episodes_bootstraps_the_cut_and_evaluates_whole_episodes(monkeypatch, capsys):
    module = load("ppo_lstm_continuous")
    seen, original_gae, original_evaluate = [], module.compute_gae, module.evaluate

    def spy_gae(rewards, values, terminations, truncations, final_values, *args):
        seen.append((truncations.clone(), final_values.clone()))
        return original_gae(rewards, values, terminations, truncations, final_values, *args)

    def spy_evaluate(*args):
        STEPS.clear()  # from here on, the evaluation's steps only
        return original_evaluate(*args)

    monkeypatch.setattr(module, "compute_gae", spy_gae)
    monkeypatch.setattr(module, "evaluate", spy_evaluate)
    STEPS.clear()
    run("ppo_lstm_continuous", env_id="CountedPendulum-v1", train_time_limit=0.25, eval_episodes=2)
    assert "training episodes end at 5 of the env's 20 steps, bootstrapped" in capsys.readouterr().out
    assert STEPS == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] * 2  # whole episodes
    lengths = [v for _, v in scalars(run_dirs()[-1], "charts/episodic_length")]
    assert lengths == [5.0] * 24  # 4 envs x 32 steps: 6 episodes each, cut at a quarter of 20 steps
    truncations = torch.cat([t for t, _ in seen])
    final_values = torch.cat([v for _, v in seen])
    cut = torch.zeros_like(truncations)
    cut[4::5] = 1  # every env's 5th, 10th, ... step ends a training episode
    assert torch.equal(truncations, cut)
    assert (final_values[cut == 1] != 0).all()  # bootstrapped from the value of the state reached
    assert (final_values[cut == 0] == 0).all()


def test_train_time_limit_leaves_an_env_without_a_declared_limit_whole_and_says_so(capsys):
    run("ppo_lstm_continuous", env_id="FiveStepsOfOneContinuous-v0", train_time_limit=0.5)  # it terminates at 5
    notice = "env 'FiveStepsOfOneContinuous-v0' declares no time limit; --train-time-limit leaves its episodes whole"
    assert notice in capsys.readouterr().out
    assert [v for _, v in scalars(run_dirs()[-1], "charts/episodic_length")] == [5.0] * 24


@pytest.mark.parametrize("env_id, action_dim", [("LunarLanderContinuousNoVel-v3", 2), ("BipedalWalker-v3", 4)])
def test_multi_dimensional_action_spaces(env_id, action_dim, monkeypatch):
    module = load("ppo_lstm_continuous")
    shapes, original = [], module.Agent.get_action_and_value

    def spy(self, obs, state, done, action=None, **kwargs):
        result = original(self, obs, state, done, action, **kwargs)
        shapes.append((tuple(result[0].shape), tuple(result[1].shape)))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    summary = run("ppo_lstm_continuous", env_id=env_id, reward_floor=-1.0)
    assert summary["global_step"] == 128
    assert shapes[0] == ((4, action_dim), (4,))  # one logprob per env: summed over the action dimensions


def test_correlated_noise_is_standard_normal_at_every_step_and_restarts_with_each_episode():
    module = load("ppo_lstm_continuous")
    torch.manual_seed(0)
    n = 100_000
    noise, starts = torch.randn(n, 1), torch.zeros(n)
    starts[: n // 2] = 1.0  # the first half opens an episode at this step

    def corr(a, b):
        return float(np.corrcoef(a.ravel().numpy(), b.ravel().numpy())[0, 1])

    following = module.correlated_noise(noise, starts, 0.9)
    assert abs(float(following.std()) - 1.0) < 0.02
    assert abs(corr(noise[n // 2 :], following[n // 2 :]) - 0.9) < 0.02
    assert abs(corr(noise[: n // 2], following[: n // 2])) < 0.02
    assert abs(corr(noise, module.correlated_noise(noise, torch.zeros(n), 0.0))) < 0.02


def test_rollout_samples_follow_the_correlated_noise_and_keep_their_gaussian_logprob(monkeypatch):
    module = load("ppo_lstm_continuous")
    steps = []
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, done, action=None, **kwargs):
        result = original(self, obs, state, done, action, **kwargs)
        if action is None and not kwargs.get("deterministic"):
            mean = original(self, obs, state, done, deterministic=True)[0]
            steps.append(tuple(map(host, (done, kwargs["noise"], mean, self.actor_logstd.exp(), *result[:2]))))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", noise_corr=0.9, total_timesteps=640, num_steps=160)
    for _, noise, mean, std, action, logprob in steps:
        torch.testing.assert_close(action, mean + std * noise)
        torch.testing.assert_close(logprob, torch.distributions.Normal(mean, std).log_prob(action).sum(1))
    # within an episode (10 steps here) one step's noise carries on into the next; a new episode draws anew
    carried = [(a[1], b[1]) for a, b in pairwise(steps) if not b[0].any()]
    pairs = torch.cat([torch.stack(p, -1).view(-1, 2) for p in carried])
    assert np.corrcoef(pairs.T.numpy())[0, 1] > 0.75
    starts = [(a[1][b[0].bool()], b[1][b[0].bool()]) for a, b in pairwise(steps) if b[0].any()]
    fresh = torch.cat([torch.stack(p, -1).view(-1, 2) for p in starts])
    assert abs(np.corrcoef(fresh.T.numpy())[0, 1]) < 0.5


def test_eval_sample_evaluates_the_policy_as_sampled_and_says_so(monkeypatch):
    """--eval-sample: evaluation acts with mean + std * noise, the noise following --noise-corr as in training (the
    policy as trained); summary.json records the mode. Without it, the mean action, and eval_mode "mean"."""
    module = load("ppo_lstm_continuous")
    trained = run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", init_logstd=1.5, save_model=True)
    assert trained["eval_mode"] == "mean"
    steps = []  # (std, noise, action, mean, deterministic) of every evaluation step
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, done, action=None, deterministic=False, **kwargs):
        result = original(self, obs, state, done, action, deterministic, **kwargs)
        if action is None:
            mean = original(self, obs, state, done, deterministic=True)[0]
            std = self.actor_logstd.exp().detach()
            steps.append((*map(host, (std, kwargs["noise"], result[0], mean)), deterministic))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    summary = run("ppo_lstm_continuous", env_id="RecordedPendulum-v1", eval_checkpoint=trained["checkpoint"],
                  eval_episodes=30, eval_sample=True, noise_corr=0.9)  # fmt: skip
    assert summary["eval_mode"] == "sample" and summary["eval_episodes"] == 30
    assert len(steps) == 300 and not any(step[4] for step in steps)
    for std, noise, action, mean, _ in steps:
        torch.testing.assert_close(action, mean + std * noise)
    # 30 episodes of 10 steps: with 3, a GPU's noise stream gave a correlation of 0.47
    noises = torch.stack([step[1].flatten() for step in steps]).view(30, 10)
    assert np.corrcoef(noises[:, :-1].flatten(), noises[:, 1:].flatten())[0, 1] > 0.5  # correlated within episodes
    assert noises.std() > 0.3


def test_the_entropy_bonus_raises_the_log_std():
    """--ent-coef: the loss subtracts the coefficient times the policy's entropy, whose gradient raises the log-std.
    With a bonus that outweighs the policy gradient, the log-std rises at every update; without one it does not."""
    run("ppo_lstm_continuous", total_timesteps=256, init_logstd=-1.0, ent_coef=1.0)
    pushed = [v for _, v in scalars(run_dirs()[-1], "charts/logstd")]
    run("ppo_lstm_continuous", total_timesteps=256, init_logstd=-1.0, ent_coef=0.0)
    free = [v for _, v in scalars(run_dirs()[-1], "charts/logstd")]
    assert all(b > a for a, b in pairwise([-1.0, *pushed])), pushed
    assert pushed[-1] > free[-1] + 0.01, (pushed, free)


def test_gaussian_is_torchs_normal_bit_for_bit():
    """gaussian() stands in for torch's Normal(mean, std): the same samples from the same seed, and the same
    log-probabilities, entropies and gradients, bit for bit, so that the change left every run's trajectory as it was."""
    gaussian = load("ppo_lstm_continuous").gaussian
    torch.manual_seed(0)
    for action_dim in (1, 4):
        raw_mean, raw_logstd = torch.randn(64, action_dim), torch.randn(64, action_dim) - 0.5
        mean, logstd = raw_mean.clone().requires_grad_(), raw_logstd.clone().requires_grad_()
        ref_mean, ref_logstd = raw_mean.clone().requires_grad_(), raw_logstd.clone().requires_grad_()
        torch.manual_seed(1)
        action, logprob, entropy = gaussian(mean, logstd.exp())
        torch.manual_seed(1)
        ref = torch.distributions.Normal(ref_mean, ref_logstd.exp())
        ref_action = ref.sample()
        assert torch.equal(action, ref_action)
        assert torch.equal(logprob, ref.log_prob(ref_action).sum(1)) and torch.equal(entropy, ref.entropy().sum(1))
        given = torch.randn(64, action_dim) * 2
        _, logprob, entropy = gaussian(mean, logstd.exp(), given)
        ref_logprob, ref_entropy = ref.log_prob(given).sum(1), ref.entropy().sum(1)
        assert torch.equal(logprob, ref_logprob) and torch.equal(entropy, ref_entropy)
        (logprob.sum() + 0.01 * entropy.sum()).backward()
        (ref_logprob.sum() + 0.01 * ref_entropy.sum()).backward()
        assert torch.equal(mean.grad, ref_mean.grad) and torch.equal(logstd.grad, ref_logstd.grad)
