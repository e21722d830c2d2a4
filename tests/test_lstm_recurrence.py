"""The recurrent core of the LSTM scripts: one call over T steps (the training unroll) equals T calls of one step
(the acting path) with the state carried, for an LSTM and a GRU. The per-step reference lives here."""

import gymnasium as gym
import pytest
import torch
from conftest import LSTM_SCRIPTS, load, rollout_steps, run

T, N = 12, 3
# episode starts (time-major, (T, N)): env 0 starts one at t=0 and t=5, env 1 at t=7 and t=8 (a one-step
# episode), env 2 never (its whole sequence continues the carried state)
STARTS = torch.zeros(T, N)
STARTS[0, 0] = STARTS[5, 0] = STARTS[7, 1] = STARTS[8, 1] = 1.0
RNN_TYPES = ["lstm", "gru"]


def make_agent(name: str = "ppo_lstm", **kwargs):
    module = load(name)
    torch.manual_seed(0)
    envs = gym.vector.SyncVectorEnv([lambda: gym.make(module.Args.env_id)])
    return module.Agent(envs, module.Args(**kwargs))


def random_inputs(agent):
    g = torch.Generator().manual_seed(1)
    obs_dim = agent.lstm.input_size
    obs = torch.randn(T * N, obs_dim, generator=g)  # time-major: all N envs at t=0, then t=1, ...; observations alone
    state = tuple(torch.randn(s.shape, generator=g) for s in agent.get_initial_state(N))  # non-zero: it must be used
    if hasattr(agent, "actor_logstd"):  # continuous: (T * N, action_dim) samples
        actions = torch.randn(T * N, agent.actor_logstd.shape[1], generator=g)
    else:
        actions = torch.randint(0, 2, (T * N,), generator=g)
    return obs, state, actions


def stepwise(agent, obs, state, done, actions, prev_action=None):
    """The reference: T calls of one step, the state carried."""
    logprobs, values = [], []
    for t in range(len(obs) // N):
        rows = slice(t * N, (t + 1) * N)
        extra = {} if prev_action is None else {"prev_action": prev_action[rows]}
        _, logprob, _, value, state = agent.get_action_and_value(obs[rows], state, done[rows], actions[rows], **extra)
        logprobs.append(logprob)
        values.append(value)
    return torch.cat(logprobs), torch.cat(values), state


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
@pytest.mark.parametrize("rnn_type", RNN_TYPES)
@pytest.mark.parametrize("shared_lstm", [False, True])
def test_sequence_logprobs_match_stepwise(name, rnn_type, shared_lstm):
    agent = make_agent(name, rnn_type=rnn_type, shared_lstm=shared_lstm)
    assert_one_call_matches_single_steps(agent, *random_inputs(agent))


def assert_one_call_matches_single_steps(agent, obs, state, actions, prev_action=None):
    """The training update's call over T steps of N envs (episodes starting at STARTS) gives the logprobs and values
    of T calls of one step, the state carried (to 1e-5); `prev_action`, where given, is what ppo_lstm.py's critic
    reads beside the observation. get_value runs the same recurrence."""
    done = STARTS.reshape(-1)
    extra = {} if prev_action is None else {"prev_action": prev_action}
    with torch.no_grad():
        _, logprob, _, value, new_state = agent.get_action_and_value(obs, state, done, actions, **extra)
        ref_logprob, ref_value, _ = stepwise(agent, obs, state, done, actions, prev_action)
        torch.testing.assert_close(agent.get_value(obs, state, done, **extra), ref_value, atol=1e-5, rtol=0)
    torch.testing.assert_close(logprob, ref_logprob, atol=1e-5, rtol=0)
    torch.testing.assert_close(value, ref_value, atol=1e-5, rtol=0)
    assert new_state is None  # the training unroll returns no state: padding runs past a short piece's end


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
@pytest.mark.parametrize("rnn_type", RNN_TYPES)
def test_the_training_unroll_and_the_per_step_path_agree_with_gradients(name, rnn_type):
    """The unroll's gradients are those of T single steps."""
    grads = []
    for one_call in (True, False):
        agent = make_agent(name, rnn_type=rnn_type)
        obs, state, actions = random_inputs(agent)
        if one_call:
            _, logprob, _, value, _ = agent.get_action_and_value(obs, state, STARTS.reshape(-1), actions)
        else:
            logprob, value, _ = stepwise(agent, obs, state, STARTS.reshape(-1), actions)
        (logprob.sum() + value.sum()).backward()
        grads.append(torch.cat([p.grad.flatten() for p in agent.parameters()]))
    torch.testing.assert_close(grads[0], grads[1], atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
@pytest.mark.parametrize("rnn_type", RNN_TYPES)
@pytest.mark.parametrize("one_call", [True, False])
def test_state_resets_where_an_episode_starts_and_nowhere_else(name, rnn_type, one_call):
    """On the training unroll (one call) and on the acting path (single steps) alike."""
    agent = make_agent(name, rnn_type=rnn_type)
    obs, state, actions = random_inputs(agent)
    done = STARTS.reshape(-1)
    with torch.no_grad():
        if one_call:
            _, logprob, _, value, _ = agent.get_action_and_value(obs, state, done, actions)
        else:
            logprob, value, _ = stepwise(agent, obs, state, done, actions)
        # env 0's episode from t=5 on must equal a fresh run from zeros over those steps alone
        rows = [t * N for t in range(5, T)]
        zero = tuple(s[:, :1] * 0 for s in state)
        _, fresh, _, _, _ = agent.get_action_and_value(obs[rows], zero, torch.zeros(len(rows)), actions[rows])
        torch.testing.assert_close(logprob[rows], fresh, atol=1e-5, rtol=0)
        # env 2 has no start: its steps depend on the carried state (a state fed as zeros would differ)
        rows = [t * N + 2 for t in range(T)]
        _, _, _, from_zero, _ = agent.get_action_and_value(obs[rows], zero, torch.zeros(T), actions[rows])
        assert (value[rows] - from_zero).abs().max() > 1e-3


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
@pytest.mark.parametrize("rnn_type", RNN_TYPES)
def test_no_reset_when_reset_state_on_done_is_off(name, rnn_type):
    agent = make_agent(name, rnn_type=rnn_type, reset_state_on_done=False)
    obs, state, actions = random_inputs(agent)
    with torch.no_grad():
        _, with_starts, _, _, _ = agent.get_action_and_value(obs, state, STARTS.reshape(-1), actions)
        _, without, _, _, _ = agent.get_action_and_value(obs, state, torch.zeros(T * N), actions)
        stepped, _, _ = stepwise(agent, obs, state, STARTS.reshape(-1), actions)
    torch.testing.assert_close(with_starts, without)
    torch.testing.assert_close(stepped, without, atol=1e-5, rtol=0)


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_time_major_order_is_respected(name):
    """Feeding the same data env-major instead of time-major must change the result (the reshape is not a no-op)."""
    agent = make_agent(name)
    obs, state, actions = random_inputs(agent)
    env_major = obs.view(T, N, -1).transpose(0, 1).reshape(T * N, -1)
    with torch.no_grad():
        _, _, _, a, _ = agent.get_action_and_value(obs, state, torch.zeros(T * N), actions)
        _, _, _, b, _ = agent.get_action_and_value(env_major, state, torch.zeros(T * N), actions)
    assert (a - b).abs().max() > 1e-3


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_initial_state_is_zeros_of_the_documented_shape(name):
    """(h, c) for an LSTM and (h,) for a GRU, each (num_rnns, N, hidden): one RNN shared, or the critic's own."""
    for rnn_type, size in [("lstm", 2), ("gru", 1)]:
        for shared, num_rnns in [(True, 1), (False, 2)]:
            state = make_agent(name, rnn_type=rnn_type, shared_lstm=shared, rnn_hidden_size=16).get_initial_state(5)
            assert len(state) == size and all(s.shape == (num_rnns, 5, 16) and not s.any() for s in state)


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_gru_means_every_recurrent_layer_is_a_gru(name):
    agent = make_agent(name, rnn_type="gru", shared_lstm=False)
    assert isinstance(agent.lstm, torch.nn.GRU) and isinstance(agent.critic_lstm, torch.nn.GRU)
    assert not any(isinstance(m, torch.nn.LSTM) for m in agent.modules())


@pytest.mark.parametrize("name", LSTM_SCRIPTS)
def test_a_gru_checkpoint_resumes_and_evaluates_as_a_gru(name, capsys):
    """The checkpoint records --rnn-type: evaluated or resumed without the flag, it stays a GRU."""
    trained = run(name, rnn_type="gru", save_model=True, eval_episodes=2)
    saved = torch.load(trained["checkpoint"], weights_only=False)
    assert saved["args"]["rnn_type"] == "gru" and saved["model"]["lstm.weight_hh_l0"].shape[0] == 3 * 64  # 3 gates
    capsys.readouterr()
    evaluated = run(name, eval_checkpoint=trained["checkpoint"], eval_episodes=2)
    assert "rnn_type = gru, as the checkpoint was trained" in capsys.readouterr().out
    assert evaluated["eval_returns"] == trained["eval_returns"]
    total = trained["global_step"] + rollout_steps(name)
    resumed = run(name, resume=trained["checkpoint"], total_timesteps=total, save_model=True)
    assert resumed["global_step"] == total
    assert torch.load(resumed["checkpoint"], weights_only=False)["args"]["rnn_type"] == "gru"
