"""ppo_lstm.py's action spaces beyond Discrete: MultiDiscrete (a categorical head per dimension) and action masks
(an env's action_masks() or info["action_mask"]), in the rollout, the replay and evaluation."""

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import load, one_line_error, run, run_dirs, scalars, writer_threads
from gymnasium import spaces


class MaskedSteps(gym.Env):
    """Every step allows a random subset of the actions (at least one per dimension) and raises on any other; the
    observation is a Discrete(3) (one-hot for the Agent). Episodes last 6 steps and pay 1 for the lowest valid action.
    `masks` says how the env tells its mask: "info", "method" (action_masks()), or "none": every action is valid."""

    def __init__(self, multi: bool = False, masks: str = "info"):
        self.action_space = spaces.MultiDiscrete([3, 4]) if multi else spaces.Discrete(5)
        self.observation_space = spaces.Discrete(3)
        self.nvec = [3, 4] if multi else [5]
        self.masks = masks

    def new_mask(self) -> np.ndarray:
        parts = []
        for n in self.nvec:
            part = self.np_random.random(n) < (0.5 if self.masks != "none" else 2.0)
            part[self.np_random.integers(n)] = True
            parts.append(part)
        self.mask = np.concatenate(parts)
        return {"action_mask": self.mask.copy()} if self.masks == "info" else {}

    def action_masks(self) -> np.ndarray:
        if self.masks != "method":
            raise AttributeError("action_masks")
        return self.mask.copy()

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return int(self.np_random.integers(3)), self.new_mask()

    def step(self, action):
        action = np.atleast_1d(action)
        offsets = np.cumsum([0] + self.nvec[:-1])
        if not self.mask[offsets + action].all():
            raise AssertionError(f"invalid action {action} under mask {self.mask}")
        lowest = [np.flatnonzero(self.mask[o : o + n])[0] for o, n in zip(offsets, self.nvec, strict=True)]
        reward = float((action == lowest).all())
        self.t += 1
        return int(self.np_random.integers(3)), reward, self.t == 6, False, self.new_mask()


for multi in (False, True):
    for masks in ("info", "method", "none"):
        gym.register(f"Masked{'Multi' if multi else ''}-{masks}-v0", entry_point=MaskedSteps,
                     kwargs={"multi": multi, "masks": masks})  # fmt: skip


class MisshapenMask(MaskedSteps):
    """Discrete(5) actions, but an info["action_mask"] of 6 entries."""

    def new_mask(self) -> dict:
        return {"action_mask": np.append(super().new_mask()["action_mask"], True)}


gym.register("MisshapenMask-v0", entry_point=MisshapenMask)


class NoActionAllowed(MaskedSteps):
    """A MultiDiscrete([3, 4]) env whose mask, from the `at`-th mask it gives on, allows no action of the second
    dimension (0: at reset already)."""

    def __init__(self, at: int = 0, **kwargs):
        super().__init__(multi=True, masks="info")
        self.at, self.given = at, 0

    def new_mask(self) -> dict:
        self.given += 1
        info = super().new_mask()
        if self.given > self.at:
            self.mask[3:] = False
            info["action_mask"] = self.mask.copy()
        return info


gym.register("NoActionAllowed-v0", entry_point=NoActionAllowed)
gym.register("NoActionAllowedLater-v0", entry_point=NoActionAllowed, kwargs={"at": 20})

RUN = dict(num_envs=4, num_steps=16, total_timesteps=128, update_epochs=2, num_minibatches=2, eval_episodes=3)


def test_a_mask_of_another_size_than_the_logits_is_one_line(capsys):
    writers = writer_threads()
    err = one_line_error(capsys, "ppo_lstm", env_id="MisshapenMask-v0", **RUN)
    assert err == "ppo_lstm.py: error: the env's action mask has 6 entries per env, not 5 (one per action)"
    assert writer_threads() == writers  # the run's writer, made before the first mask came, is closed


@pytest.mark.parametrize("env_id", ["Masked-info-v0", "Masked-method-v0", "MaskedMulti-info-v0", "MaskedMulti-method-v0"])
def test_no_invalid_action_ever_reaches_the_env_and_the_replay_masks_as_the_rollout(env_id):
    """Training and evaluation run through an env that raises on an invalid action; the replay of the masked
    rollout gives ratio 1 (the masked logprobs of the sampled actions are recomputed exactly)."""
    summary = run("ppo_lstm", env_id=env_id, **RUN)
    assert summary["action_masks"] and summary["eval_episodes"] == 3
    errors = [v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")]
    assert len(errors) == 2 and max(errors) < 1e-5


@pytest.mark.parametrize("env_id", ["Masked-info-v0", "MaskedMulti-method-v0"])
def test_eval_sample_draws_each_evaluation_action_from_the_masked_policy_and_says_so(env_id, monkeypatch):
    """--eval-sample: evaluation draws its actions from the policy, masked as in training (the env raises on an
    invalid one), instead of taking the most likely; summary.json records the mode. Without it, the most likely action
    and eval_mode "mean"."""
    module = load("ppo_lstm")
    trained = run("ppo_lstm", env_id=env_id, save_model=True, **RUN)
    assert trained["eval_mode"] == "mean"
    steps = []  # (action, the most likely action, deterministic) of every evaluation step
    original = module.Agent.get_action_and_value

    def spy(self, obs, state, episode_starts, action=None, deterministic=False, **kwargs):
        result = original(self, obs, state, episode_starts, action, deterministic, **kwargs)
        if action is None and obs.shape[0] == 1:  # evaluation: one env
            likeliest = original(self, obs, state, episode_starts, deterministic=True, **kwargs)[0]
            steps.append((result[0], likeliest, deterministic))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    summary = run("ppo_lstm", env_id=env_id, eval_checkpoint=trained["checkpoint"], **{**RUN, "eval_episodes": 10},
                  eval_sample=True)  # fmt: skip
    assert summary["eval_mode"] == "sample" and summary["eval_episodes"] == 10 and summary["action_masks"]
    assert len(steps) == 60 and not any(step[2] for step in steps)
    differ = sum(not torch.equal(action, likeliest) for action, likeliest, _ in steps)
    assert 10 < differ < 60  # a near-uniform policy over the valid actions: often not the likeliest, sometimes it
    steps.clear()
    assert run("ppo_lstm", env_id=env_id, eval_checkpoint=trained["checkpoint"], **RUN)["eval_mode"] == "mean"
    assert len(steps) == 18 and all(step[2] and torch.equal(step[0], step[1]) for step in steps)


@pytest.mark.parametrize("env_id", ["Masked-info-v0", "MaskedMulti-method-v0"])
def test_without_masks_the_env_gets_invalid_actions(env_id):
    """--no-action-masks turns the masks off: the same env then receives an invalid action (so the test above is not
    passing by luck)."""
    with pytest.raises(AssertionError, match="invalid action"):
        run("ppo_lstm", env_id=env_id, action_masks=False, **RUN)


@pytest.mark.parametrize("env_id", ["MaskedMulti-none-v0", "Space-discrete-v0"])
def test_multidiscrete_actions_and_discrete_observations_replay_with_ratio_one(env_id):
    import test_spaces  # noqa: F401  registers Space-discrete-v0 (Discrete observations)

    summary = run("ppo_lstm", env_id=env_id, **{**RUN, "eval_episodes": 1})
    assert not summary["action_masks"]
    errors = [v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")]
    assert len(errors) == 2 and max(errors) < 1e-5


def make_agent(multi: bool):
    module = load("ppo_lstm")
    torch.manual_seed(0)
    envs = gym.vector.SyncVectorEnv([lambda: module.FlatObservation(MaskedSteps(multi))])
    return module.Agent(envs, module.Args())


def test_multidiscrete_logprob_and_entropy_are_the_sums_over_the_heads():
    agent = make_agent(multi=True)
    obs, state = torch.eye(3)[torch.tensor([0, 1, 2, 1])], agent.get_initial_state(4)
    mask = torch.tensor([[1, 0, 1, 0, 1, 1, 0], [1, 1, 1, 1, 1, 1, 1], [0, 0, 1, 1, 0, 0, 0], [1, 1, 0, 0, 0, 0, 1]]).bool()
    with torch.no_grad():
        action, logprob, entropy, _, _ = agent.get_action_and_value(obs, state, torch.ones(4), action_mask=mask)
        logits = agent.actor(agent.unroll([agent.lstm], obs, tuple(s[:1] for s in state), torch.ones(4))[0][0])
    assert action.shape == (4, 2)
    heads = [torch.distributions.Categorical(logits=part.masked_fill(~m, -1e8))
             for part, m in zip(logits.split([3, 4], -1), mask.split([3, 4], -1), strict=True)]  # fmt: skip
    torch.testing.assert_close(logprob, heads[0].log_prob(action[:, 0]) + heads[1].log_prob(action[:, 1]))
    torch.testing.assert_close(entropy, heads[0].entropy() + heads[1].entropy())
    first, second = mask.split([3, 4], -1)
    assert first.gather(1, action[:, :1]).all() and second.gather(1, action[:, 1:]).all()  # sampled valid actions
    with torch.no_grad():  # deterministic: the most probable valid action of each head
        best, *_ = agent.get_action_and_value(obs, state, torch.ones(4), deterministic=True, action_mask=mask)
    assert best.tolist() == [[h.probs[i].argmax().item() for h in heads] for i in range(4)]


@pytest.mark.parametrize("multi", [False, True])
def test_masked_sequence_matches_masked_steps(multi):
    """The training update's call over T steps, with a mask per step, gives what T single masked steps give."""
    agent = make_agent(multi)
    T, N = 7, 3
    g = torch.Generator().manual_seed(2)
    obs = torch.eye(3)[torch.randint(0, 3, (T * N,), generator=g)]
    width = 7 if multi else 5
    mask = torch.rand(T * N, width, generator=g) < 0.6
    mask[:, 0] = True
    if multi:
        mask[:, 3] = True
    starts = (torch.rand(T * N, generator=g) < 0.2).float()
    state = agent.get_initial_state(N)  # the critic's previous action: none (zeros)
    with torch.no_grad():
        action, *_ = agent.get_action_and_value(obs, state, starts, action_mask=mask)  # sampled under the masks
        _, logprob, entropy, _, _ = agent.get_action_and_value(obs, state, starts, action, action_mask=mask)
        steps = []
        for t in range(T):
            rows = slice(t * N, (t + 1) * N)
            _, lp, _, _, state = agent.get_action_and_value(
                obs[rows], state, starts[rows], action[rows], action_mask=mask[rows]
            )
            steps.append(lp)
    torch.testing.assert_close(logprob, torch.cat(steps), atol=1e-5, rtol=0)
    assert torch.isfinite(entropy).all() and torch.isfinite(logprob).all()


def test_masked_cue_recall_allows_the_cue_and_one_other_at_the_query():
    load("ppo_lstm")  # registers MaskedCueRecall-v0
    env = gym.make("MaskedCueRecall-v0")
    others = set()
    for episode in range(40):
        obs, info = env.reset(seed=episode)
        cue = int(obs[:4].argmax())
        for _ in range(11):
            assert info["action_mask"].all()  # any action at the cue and during the delay
            obs, _, _, _, info = env.step(0)
        assert obs[-1] == 1.0 and info["action_mask"].sum() == 2 and info["action_mask"][cue]  # the query
        others.add(int(np.flatnonzero(info["action_mask"] & (np.arange(4) != cue))[0]) - cue)
        _, reward, terminated, _, _ = env.step(cue)
        assert reward == 1.0 and terminated
    assert len({o % 4 for o in others}) == 3  # the other valid cue is drawn among all three


class ShiftedActions(gym.Env):
    """Discrete(3, start=-1): raises unless the action is -1, 0 or 1; pays 1 for 1."""

    observation_space = spaces.Box(-1.0, 1.0, (2,), np.float32)
    action_space = spaces.Discrete(3, start=-1)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return np.zeros(2, np.float32), {}

    def step(self, action):
        assert int(action) in (-1, 0, 1), action
        self.t += 1
        return np.zeros(2, np.float32), float(action == 1), self.t == 5, False, {}


gym.register("ShiftedActions-v0", entry_point=ShiftedActions)


@pytest.mark.parametrize("name, env_id", [("ppo_mlp_cartpole", "MaskedMulti-none-v0"),
                                           ("ppo_mlp_cartpole", "ShiftedActions-v0"), ("ppo_lstm", "ShiftedActions-v0")])
def test_multidiscrete_actions_and_discrete_starts(name, env_id):
    """The MLP baseline trains and evaluates on a MultiDiscrete([3, 4]) env (one head per dimension; the env raises
    on anything outside its ranges), and it and ppo_lstm.py on Discrete(3, start=-1) (the env raises unless it gets
    -1, 0 or 1), with the replay reproducing the rollout."""
    summary = run(name, env_id=env_id, **RUN)
    assert summary["global_step"] == 128 and summary["eval_episodes"] == 3
    errors = [v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")]
    assert len(errors) == 2 and max(errors) < 1e-5


def test_mlp_multidiscrete_logprob_and_entropy_are_the_sums_over_the_heads():
    module = load("ppo_mlp_cartpole")
    torch.manual_seed(0)
    envs = gym.vector.SyncVectorEnv([lambda: module.FlatObservation(MaskedSteps(multi=True, masks="none"))])
    agent = module.Agent(envs, module.Args())
    obs = torch.eye(3)[torch.tensor([0, 1, 2, 1])]
    with torch.no_grad():
        action, logprob, entropy, _ = agent.get_action_and_value(obs)
        best, *_ = agent.get_action_and_value(obs, deterministic=True)
        heads = [torch.distributions.Categorical(logits=part) for part in agent.actor(obs).split([3, 4], -1)]
    assert action.shape == (4, 2)
    torch.testing.assert_close(logprob, heads[0].log_prob(action[:, 0]) + heads[1].log_prob(action[:, 1]))
    torch.testing.assert_close(entropy, heads[0].entropy() + heads[1].entropy())
    assert best.tolist() == [[h.probs[i].argmax().item() for h in heads] for i in range(4)]


@pytest.mark.parametrize("name", ["ppo_lstm", "ppo_mlp_cartpole", "ppo_gru_atari"])
def test_categorical_is_torchs_categorical_bit_for_bit(name):
    """Each script's categorical() stands in for torch's Categorical(logits=...): the same samples from the same
    seed, and the same log-probabilities, entropies and gradients, bit for bit (masked logits included), so that
    the change left every run's trajectory as it was."""
    categorical = load(name).categorical
    torch.manual_seed(0)
    for num_actions in (2, 5, 18):
        raw = torch.randn(64, num_actions) * 3
        raw[::3, : num_actions // 2] = -1e8  # masked actions, as the Agent masks them
        logits, ref_logits = raw.clone().requires_grad_(), raw.clone().requires_grad_()
        torch.manual_seed(1)
        action, logprob, entropy = categorical(logits)
        torch.manual_seed(1)
        ref = torch.distributions.Categorical(logits=ref_logits)
        ref_action = ref.sample()
        assert torch.equal(action, ref_action) and len(set(action.tolist())) > 1
        assert torch.equal(logprob, ref.log_prob(ref_action)) and torch.equal(entropy, ref.entropy())
        given = torch.randint(0, num_actions, (64,))
        _, logprob, entropy = categorical(logits, given)
        assert torch.equal(logprob, ref.log_prob(given)) and torch.equal(entropy, ref.entropy())
        (logprob.sum() + 0.1 * entropy.sum()).backward()
        (ref.log_prob(given).sum() + 0.1 * ref.entropy().sum()).backward()
        assert torch.equal(logits.grad, ref_logits.grad)
        best, _, _ = categorical(logits, deterministic=True)
        assert torch.equal(best, ref.probs.argmax(-1))


@pytest.mark.parametrize("env_id, when", [("NoActionAllowed-v0", "at reset"), ("NoActionAllowedLater-v0", "at global step")])
def test_a_mask_that_allows_no_action_stops_the_run_in_one_line(capsys, env_id, when):
    """A policy cannot act under a mask that allows nothing (the masked logits would all be equal, and an invalid
    action drawn): the run stops with one line, at reset or in the rollout, where it came."""
    writers = writer_threads()
    err = one_line_error(capsys, "ppo_lstm", env_id=env_id, **RUN)
    assert err.startswith(f"ppo_lstm.py: error: the env's action mask allows no action {when}")
    assert writer_threads() == writers
