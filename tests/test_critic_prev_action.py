"""ppo_lstm.py --critic-prev-action: the critic's LSTM also reads the action taken before each step (one-hot, zeros at
an episode's first step), the actor's LSTM the observation alone; the rollout keeps what the agent read, so that the
replay, the bootstrap of a cut episode and evaluation read the same."""

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import load, run, run_dirs, scalars
from gymnasium import spaces
from test_lstm_recurrence import STARTS, N, T, assert_one_call_matches_single_steps, stepwise


class RandomEnds(gym.Env):
    """Random observations; each step ends the episode with probability 0.25, by termination or by a cut (truncated)
    at random, so that the envs of a vector start their episodes at different steps. Discrete(3) actions, or with
    `multi` MultiDiscrete([3, 4])."""

    observation_space = spaces.Box(-1.0, 1.0, (3,), np.float32)

    def __init__(self, multi: bool = False):
        self.action_space = spaces.MultiDiscrete([3, 4]) if multi else spaces.Discrete(3)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return self.np_random.uniform(-1, 1, 3).astype(np.float32), {}

    def step(self, action):
        ends, cut = self.np_random.random() < 0.25, self.np_random.random() < 0.5
        obs = self.np_random.uniform(-1, 1, 3).astype(np.float32)
        return obs, float(np.sum(action)), ends and not cut, ends and cut, {}


gym.register("RandomEnds-v0", entry_point=RandomEnds)
gym.register("RandomEndsMulti-v0", entry_point=RandomEnds, kwargs={"multi": True})
FLAG = dict(critic_prev_action=True)


def agent_for(env_id: str, **kwargs):
    module = load("ppo_lstm")
    torch.manual_seed(0)
    envs = gym.vector.SyncVectorEnv([lambda: gym.make(env_id)])
    return module.Agent(envs, module.Args(**kwargs))


def one_hot(action, sizes) -> torch.Tensor:
    """The documented one-hot, built entry by entry: a dimension's entries after the previous dimensions'."""
    action = np.atleast_1d(np.asarray(action))
    vector = torch.zeros(sum(sizes))
    for i, (a, offset) in enumerate(zip(action, np.cumsum([0, *sizes[:-1]]), strict=True)):
        assert 0 <= a < sizes[i]
        vector[offset + a] = 1.0
    return vector


@pytest.mark.parametrize("env_id, sizes", [("RandomEnds-v0", [3]), ("RandomEndsMulti-v0", [3, 4])])
def test_the_inputs_are_the_observation_then_the_previous_actions_one_hot(env_id, sizes):
    agent = agent_for(env_id, **FLAG)
    obs = torch.tensor([[0.5, -0.5, 0.25], [1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
    actions = torch.tensor([[2, 3], [0, 1], [1, 0]])[:, : len(sizes)].squeeze(-1)
    starts = torch.tensor([0.0, 1.0, 0.0])  # the second env's step opens an episode: no previous action there
    inputs = agent.inputs(obs, actions, starts)
    expected = [torch.cat([obs[0], one_hot(actions[0], sizes)]), torch.cat([obs[1], torch.zeros(sum(sizes))]),
                torch.cat([obs[2], one_hot(actions[2], sizes)])]  # fmt: skip
    torch.testing.assert_close(inputs, torch.stack(expected), atol=0, rtol=0)
    torch.testing.assert_close(agent.inputs(obs, None, torch.zeros(3)), torch.cat([obs, torch.zeros(3, sum(sizes))], 1))
    assert agent.critic_lstm.input_size == 3 + sum(sizes) and agent.lstm.input_size == 3
    off = agent_for(env_id, critic_prev_action=False)
    assert off.inputs(obs, actions, starts) is obs  # without the flag the agent reads the observation


def random_inputs(agent, generator_seed: int = 1):
    """Observations, a start state, actions and the previous actions, time-major over T steps of N envs."""
    g = torch.Generator().manual_seed(generator_seed)
    obs, prev_action = torch.randn(T * N, 3, generator=g), torch.randint(0, 3, (T * N,), generator=g)
    h, c = agent.get_initial_state(N)
    state = (torch.randn(h.shape, generator=g), torch.randn(c.shape, generator=g))
    return obs, state, torch.randint(0, 3, (T * N,)), prev_action


def test_one_call_over_the_sequence_matches_single_steps():
    """The recurrence's proof (test_lstm_recurrence.py) with the previous action in the critic's input: the training
    update's call and the rollout's give what T calls of one step give, the state carried."""
    agent = agent_for("RandomEnds-v0", **FLAG)
    obs, state, actions, prev_action = random_inputs(agent)
    assert_one_call_matches_single_steps(agent, obs, state, actions, prev_action)


@pytest.mark.parametrize("one_call", [True, False])
def test_the_actor_reads_the_observation_alone_and_the_critic_the_previous_action_too(one_call):
    """On the training unroll (one call over T steps) and on the acting path (T single steps) alike."""
    agent = agent_for("RandomEnds-v0", **FLAG)
    obs, state, actions, prev_action = random_inputs(agent)
    other = (prev_action + 1) % 3  # every previous action another one
    done = STARTS.reshape(-1)
    with torch.no_grad():
        if one_call:
            seen = [agent.get_action_and_value(obs, state, done, actions, prev_action=previous)[1:4:2]
                    for previous in (prev_action, other)]
        else:
            seen = [stepwise(agent, obs, state, done, actions, previous)[:2] for previous in (prev_action, other)]
        (logprob, value), (logprob_other, value_other) = seen
    torch.testing.assert_close(logprob, logprob_other, atol=0, rtol=0)
    assert (value - value_other).abs().max() > 1e-3


def record_rollout(module, monkeypatch) -> tuple[list, list, list]:
    """Spies on the agent: (inputs, episode starts, actions, new state) of every rollout step, (inputs, the actions
    of the envs valued) of every bootstrap of a cut episode, and (inputs, starts, action, new state) of evaluation's
    steps."""
    steps, cuts, evaluation = [], [], []
    act, value = module.Agent.get_action_and_value, module.Agent.get_value

    def spy_act(self, obs, state, episode_starts, action=None, **kwargs):
        result = act(self, obs, state, episode_starts, action, **kwargs)
        if action is None:  # what the agent read: the observation, then the previous action's one-hot
            record = (self.inputs(obs, kwargs.get("prev_action"), episode_starts), episode_starts.clone(), result[0],
                      result[4])  # fmt: skip
            (evaluation if kwargs.get("deterministic") else steps).append(record)
        return result

    def spy_value(self, obs, state, episode_starts, prev_action=None):
        if episode_starts.sum() == 0 and len(obs) < 4:  # the bootstrap of the envs cut at the step just taken
            _, _, actions, (h, _) = steps[-1]  # which envs: the columns of the state they reached
            envs = [next(i for i in range(h.shape[1]) if torch.equal(h[:, i], state[0][:, j])) for j in range(len(obs))]
            cuts.append((self.inputs(obs, prev_action, episode_starts), actions[envs]))
        return value(self, obs, state, episode_starts, prev_action)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy_act)
    monkeypatch.setattr(module.Agent, "get_value", spy_value)
    return steps, cuts, evaluation


@pytest.mark.parametrize("env_id, sizes", [("RandomEnds-v0", [3]), ("RandomEndsMulti-v0", [3, 4])])
def test_the_rollout_feeds_the_action_just_taken_and_zeros_where_an_episode_starts(env_id, sizes, monkeypatch):
    """Every step's input ends with the one-hot of the action the same env took one step before, zeros at the
    first step of an episode (and of the run); a cut episode's final observation is valued after its last action;
    evaluation feeds its own previous action the same way."""
    module = load("ppo_lstm")
    steps, cuts, evaluation = record_rollout(module, monkeypatch)
    run("ppo_lstm", env_id=env_id, eval_episodes=3, **FLAG)
    k = sum(sizes)
    assert len(steps) == 32 and all(obs.shape == (4, 3 + k) for obs, *_ in steps)
    starts = torch.stack([s for _, s, *_ in steps])
    assert starts[0].all() and starts[1:].sum() >= 8 and not starts[1:].all()  # episodes of different lengths
    for t, (obs, episode_starts, *_) in enumerate(steps):
        for i in range(4):
            expected = torch.zeros(k) if episode_starts[i] else one_hot(steps[t - 1][2][i].numpy(), sizes)
            torch.testing.assert_close(obs[i, 3:], expected, atol=0, rtol=0)
    assert len(cuts) >= 3
    for obs, actions in cuts:
        for row, action in zip(obs, actions, strict=True):
            torch.testing.assert_close(row[3:], one_hot(action.numpy(), sizes), atol=0, rtol=0)
    assert len(evaluation) >= 3
    for t, (obs, episode_start, *_) in enumerate(evaluation):
        expected = torch.zeros(k) if episode_start[0] else one_hot(evaluation[t - 1][2][0].numpy(), sizes)
        torch.testing.assert_close(obs[0, 3:], expected, atol=0, rtol=0)
    assert sum(int(s[0]) for _, s, *_ in evaluation) == 3  # each of the 3 episodes opened with zeros


def test_the_replay_gives_the_critic_the_previous_actions_it_read_in_the_rollout(monkeypatch):
    """The update's first minibatch values each step as the rollout did: the critic is replayed with the previous
    actions it read. A replay that left them out would still give a ratio of 1 (the actor reads the observation
    alone), so the values are compared, env by env and step by step."""
    module = load("ppo_lstm")
    rollout, replay = [], []  # (obs, values) of every rollout step; of the update's first call
    act = module.Agent.get_action_and_value

    def spy(self, obs, state, episode_starts, action=None, **kwargs):
        result = act(self, obs, state, episode_starts, action, **kwargs)
        if action is None and not kwargs.get("deterministic"):
            rollout.append((obs.clone(), result[3].flatten().clone()))
        elif action is not None and not replay:  # the update's first call
            replay.append((obs.detach().clone(), result[3].detach().flatten().clone()))
        return result

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run("ppo_lstm", env_id="RandomEnds-v0", num_minibatches=1, update_epochs=1, eval_episodes=0, **FLAG)
    obs, values = replay[0]  # time-major over the 4 envs, in the minibatch's order
    steps = len(obs) // 4
    first = rollout[:steps]
    for j in range(4):
        (env,) = [e for e in range(4) if torch.equal(first[0][0][e], obs[j])]
        for t in range(steps):
            assert values[t * 4 + j].item() == pytest.approx(first[t][1][env].item(), abs=1e-5)


@pytest.mark.parametrize("seq_len", [0, 8])
def test_first_minibatch_ratio_is_one(seq_len):
    run("ppo_lstm", env_id="RandomEndsMulti-v0", seq_len=seq_len, num_minibatches=2, **FLAG)
    errors = [v for _, v in scalars(run_dirs()[-1], "losses/first_ratio_error")]
    assert len(errors) == 2 and max(errors) < 1e-5


@pytest.mark.parametrize("trained_with", [True, False])
def test_a_checkpoint_keeps_what_its_critic_reads(capsys, trained_with):
    """Evaluating a checkpoint with the other value on the command line: the network is the checkpoint's (the critic
    reads the previous action or not, as trained) and the evaluation is the one the run itself made."""
    trained = run("ppo_lstm", env_id="RandomEnds-v0", save_model=True, eval_episodes=3, critic_prev_action=trained_with)
    capsys.readouterr()
    again = run("ppo_lstm", env_id="RandomEnds-v0", eval_checkpoint=trained["checkpoint"], eval_episodes=3,
                critic_prev_action=not trained_with)  # fmt: skip
    assert f"critic_prev_action = {trained_with}, as the checkpoint was trained" in capsys.readouterr().out
    assert again["eval_returns"] == trained["eval_returns"]


def test_a_checkpoint_from_before_the_flag_was_trained_without_it(capsys, tmp_path):
    """A checkpoint written before the flag existed has no such key in its args: its critic did not read the previous
    action, whatever the default is now."""
    trained = run("ppo_lstm", env_id="RandomEnds-v0", save_model=True, eval_episodes=3, critic_prev_action=False)
    checkpoint = torch.load(trained["checkpoint"], weights_only=False)
    del checkpoint["args"]["critic_prev_action"]
    torch.save(checkpoint, tmp_path / "before.pt")
    capsys.readouterr()
    again = run("ppo_lstm", env_id="RandomEnds-v0", eval_checkpoint=str(tmp_path / "before.pt"), eval_episodes=3)
    assert "critic_prev_action = False, as the checkpoint was trained" in capsys.readouterr().out
    assert again["eval_returns"] == trained["eval_returns"]


def test_with_the_shared_lstm_it_is_off():
    """--shared-lstm leaves the critic no LSTM of its own: the flag, on by default, is off there, and the one LSTM
    reads the observation alone."""
    agent = agent_for("RandomEnds-v0", shared_lstm=True, **FLAG)
    obs = torch.randn(N, 3)
    assert agent.critic_lstm is None and agent.lstm.input_size == 3 and agent.prev_action_size == 0
    assert torch.equal(agent.inputs(obs, torch.ones(N, dtype=torch.long), torch.zeros(N)), obs)
