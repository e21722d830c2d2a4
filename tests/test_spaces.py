"""Observation spaces beyond a vector: every script flattens Box, Discrete, MultiDiscrete, MultiBinary, Tuple and Dict
observations into the documented vector, leaves a Dict's text out, and normalises only the Box entries."""

import json
from collections import OrderedDict

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import VECTOR_SCRIPTS, env_of, load, one_line_error, run, run_dirs
from gymnasium import spaces


class MissionLike(spaces.Space):
    """A space of strings that is not gymnasium's Text, as MiniGrid's MissionSpace."""

    def __init__(self):
        super().__init__(dtype=str)

    def sample(self, mask=None, probability=None):
        return "go to the key"

    def contains(self, x):
        return isinstance(x, str)


# (space, observation, its vector): one-hots where the documentation puts them
CASES = {
    "box_2d": (spaces.Box(-1, 1, (2, 2)), np.array([[0.1, 0.2], [0.3, 0.4]]), [0.1, 0.2, 0.3, 0.4]),
    "discrete": (spaces.Discrete(4), 2, [0, 0, 1, 0]),
    "discrete_start": (spaces.Discrete(3, start=-1), 1, [0, 0, 1]),
    "multidiscrete": (spaces.MultiDiscrete([2, 3]), np.array([1, 2]), [0, 1, 0, 0, 1]),
    "multibinary": (spaces.MultiBinary(3), np.array([1, 0, 1]), [1, 0, 1]),
    "tuple": (spaces.Tuple((spaces.Discrete(2), spaces.Box(0, 1, (1,)))), (1, np.array([0.5])), [0, 1, 0.5]),
    "dict": (spaces.Dict({"b": spaces.Discrete(2), "a": spaces.Box(0, 1, (2,))}), {"b": 0, "a": np.array([0.25, 0.75])},
             [0.25, 0.75, 1, 0]),  # a Dict's parts in its (sorted) key order
    "dict_with_text": (spaces.Dict({"view": spaces.MultiBinary(2), "mission": spaces.Text(10)}),
                       {"view": np.array([0, 1]), "mission": "go"}, [0, 1]),
    # an OrderedDict keeps its own key order, in gymnasium's flatten and ours, with a text part left out or not
    "ordered_dict": (spaces.Dict(OrderedDict([("b", spaces.Discrete(2)), ("a", spaces.Box(0, 1, (2,)))])),
                     {"b": 0, "a": np.array([0.25, 0.75])}, [1, 0, 0.25, 0.75]),
    "ordered_dict_with_text": (spaces.Dict(OrderedDict([("view", spaces.MultiBinary(2)), ("mission", spaces.Text(10)),
                                                        ("direction", spaces.Discrete(2))])),
                               {"view": np.array([1, 1]), "mission": "go", "direction": 0}, [1, 1, 1, 0]),
    "dict_with_mission": (spaces.Dict({"view": spaces.MultiBinary(2), "mission": MissionLike()}),
                          {"view": np.array([1, 0]), "mission": "go"}, [1, 0]),
}  # fmt: skip
TEXT_KINDS = {"dict_with_text", "ordered_dict_with_text", "dict_with_mission"}
BOX_ENTRIES = {"box_2d": [1, 1, 1, 1], "discrete": [0] * 4, "discrete_start": [0] * 3, "multidiscrete": [0] * 5,
               "multibinary": [0] * 3, "tuple": [0, 0, 1], "dict": [1, 1, 0, 0], "dict_with_text": [0, 0],
               "ordered_dict": [0, 0, 1, 1], "ordered_dict_with_text": [0, 0, 0, 0], "dict_with_mission": [0, 0]}  # fmt: skip


class OneSpaceEnv(gym.Env):
    """Observations of a given space, sampled; episodes of 5 steps paying 1; any action space."""

    def __init__(self, space: str | spaces.Space = "discrete", continuous: bool = False):
        self.observation_space = CASES[space][0] if isinstance(space, str) else space
        self.action_space = spaces.Box(-1.0, 1.0, (1,), np.float32) if continuous else spaces.Discrete(2)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.observation_space.seed(int(self.np_random.integers(1 << 30)))
        self.t = 0
        return self.observation_space.sample(), {}

    def step(self, action):
        self.t += 1
        return self.observation_space.sample(), 1.0, self.t == 5, False, {}


for kind in CASES:
    gym.register(f"Space-{kind}-v0", entry_point=OneSpaceEnv, kwargs={"space": kind})
    gym.register(f"Space-{kind}Continuous-v0", entry_point=OneSpaceEnv, kwargs={"space": kind, "continuous": True})
graph = spaces.Graph(spaces.Box(0, 1, (2,)), None)  # nodes and edges vary in number: no fixed-size vector
gym.register("Space-graph-v0", entry_point=OneSpaceEnv, kwargs={"space": graph})
gym.register("Space-graphContinuous-v0", entry_point=OneSpaceEnv, kwargs={"space": graph, "continuous": True})


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("kind", list(CASES))
def test_each_space_flattens_to_the_documented_vector(name, kind):
    module = load(name)
    space, observation, vector = CASES[kind]
    env = module.FlatObservation(OneSpaceEnv(kind))
    np.testing.assert_allclose(env.observation(observation), vector)
    if kind not in TEXT_KINDS:  # gymnasium's own flatten, where it applies, gives the same vector
        np.testing.assert_allclose(spaces.flatten(space, observation), vector)
    assert env.observation_space.shape == (len(vector),)
    assert env.box_entries.tolist() == [bool(b) for b in BOX_ENTRIES[kind]]


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
@pytest.mark.parametrize("kind", list(CASES))
def test_a_two_update_run_on_each_space_writes_its_summary(name, kind, capsys):
    env_id = f"Space-{kind}Continuous-v0" if name == "ppo_lstm_continuous" else f"Space-{kind}-v0"
    summary = run(name, env_id=env_id, eval_episodes=2)
    assert summary["global_step"] == 128 and summary["eval_episodes"] == 2
    assert json.load(open(run_dirs()[-1] + "summary.json"))["global_step"] == 128
    said = capsys.readouterr().out
    assert ("text parts ['mission'] are left out" in said) == (kind in TEXT_KINDS)


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_normalisation_touches_only_the_box_entries(name):
    """A Tuple of a Discrete and a Box: the one-hot stays 0 and 1 through --norm-obs, the Box entry is normalised and
    clipped to [-10, 10]."""
    module = load(name)
    rms = module.RunningMeanStd((3,), np.array([False, False, True]))
    batch = np.array([[0, 1, 10.0], [1, 0, 20.0], [0, 1, 30.0]])
    rms.update(batch)
    normalised = rms.normalize(batch)
    np.testing.assert_array_equal(normalised[:, :2], batch[:, :2])
    assert abs(normalised[:, 2].mean()) < 1e-3 and abs(normalised[:, 2].std() - 1) < 1e-3
    far = rms.normalize(np.array([[0, 1, 1e6], [1, 0, -1e6]]))
    np.testing.assert_array_equal(far, [[0, 1, 10.0], [1, 0, -10.0]])


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_a_space_with_no_vector_is_one_line(name, capsys):
    env_id = "Space-graphContinuous-v0" if name == "ppo_lstm_continuous" else "Space-graph-v0"
    err = one_line_error(capsys, name, alone=True, env_id=env_id)
    assert "cannot make a vector of the observations" in err and "Graph" in err


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_an_env_of_actions_the_script_does_not_take_is_answered_in_one_line_alone(name, capsys):
    """No notice comes before the error: not the one of a Dict's text parts left out, nor ppo_lstm_continuous.py's of an
    env that declares no time limit for --train-time-limit (test_errors.py has the one of an env with a time limit)."""
    env_id = "Space-dict_with_text-v0" if name == "ppo_lstm_continuous" else "Space-dict_with_textContinuous-v0"
    err = one_line_error(capsys, name, alone=True, env_id=env_id)
    assert "actions, not" in err and "use ppo_lstm" in err


def check_tuple_inputs(name: str, monkeypatch, frames: int = 1, **kwargs) -> None:
    """Trains script `name` with --norm-obs on Tuple(Discrete(2), Box(0, 1)) observations (stacked `frames` deep) and
    checks every input the Agent was given, frame by frame: the one-hot at exactly 0 and 1, the Box entry normalised
    (negative values appear, which the raw entry in [0, 1] never has)."""
    module = load(name)
    seen, original = [], module.Agent.get_action_and_value

    def spy(self, obs, *args, **kwargs):
        seen.append(obs.clone())
        return original(self, obs, *args, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    run(name, env_id=env_of(name, "Space-tuple"), norm_obs=True, **kwargs)
    # the observation's entries: ppo_lstm.py's critic reads the previous action's one-hot after them
    inputs = torch.cat([s.reshape(-1, s.shape[-1])[:, : 3 * frames] for s in seen])
    for frame in range(0, 3 * frames, 3):
        one_hot = inputs[:, frame : frame + 2]
        assert set(one_hot.unique().tolist()) == {0.0, 1.0} and (one_hot.sum(1) == 1).all()
        assert (inputs[:, frame + 2] < 0).any()


@pytest.mark.parametrize("name", VECTOR_SCRIPTS)
def test_the_agent_sees_one_hots_as_they_are_and_the_box_normalised(name, monkeypatch):
    check_tuple_inputs(name, monkeypatch)


def test_stacked_frames_keep_each_frames_one_hots_and_normalise_each_frames_box(monkeypatch):
    """ppo_mlp_cartpole.py with --frame-stack 2: the input is two frames of (one-hot, Box entry) one after the other,
    and --norm-obs touches the Box entry of each frame, not the one-hots."""
    check_tuple_inputs("ppo_mlp_cartpole", monkeypatch, frames=2, frame_stack=2)
