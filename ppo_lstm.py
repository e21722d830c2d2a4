# PPO + LSTM for discrete actions and vector observations, one self-contained file.
# python ppo_lstm.py --env-id CartPoleNoVel-v1
import copy
import difflib
import importlib.util
import json
import os
import random
import signal
import sys
import threading
import time
import warnings
from dataclasses import asdict, dataclass
from functools import partial
from typing import Literal

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import tyro
from torch.utils.tensorboard import SummaryWriter

SCRIPT = "ppo_lstm.py"
VIDEO_MAX_FRAMES = 1_000  # an episode's video is cut there, so memory stays bounded


@dataclass
class Args:
    exp_name: str = "ppo_lstm"
    """the name of this experiment"""
    seed: int = 1
    """seed of the experiment"""
    torch_deterministic: bool = True
    """if toggled, `torch.backends.cudnn.deterministic=True` and deterministic algorithms"""
    cuda: bool = True
    """if toggled, cuda will be used when available"""
    track: bool = False
    """if toggled, the run is mirrored to Weights and Biases (works with WANDB_MODE=offline)"""
    wandb_project_name: str = "recurrent-ppo"
    """the wandb project name"""
    wandb_entity: str | None = None
    """the entity (team) of the wandb project"""
    capture_video: bool = False
    """if toggled, videos of the evaluation episodes are saved under `videos/{run_name}` (at most
    1,000 frames an episode)"""
    save_model: bool = False
    """if toggled, a checkpoint is written to `runs/{run_name}/{exp_name}.pt` (on Ctrl-C too)"""
    resume: str | None = None
    """path of a checkpoint to continue training from"""
    eval_checkpoint: str | None = None
    """path of a checkpoint to evaluate only (no training)"""
    eval_episodes: int = 10
    """episodes of the final evaluation (0 skips it)"""
    eval_max_steps: int = 10_000
    """evaluation episodes end at this many steps where the env declares no time limit"""
    eval_sample: bool = False
    """evaluate with actions drawn from the policy (masked) instead of its most likely ones"""
    export_onnx: str | None = None
    """write the acting policy to this ONNX file after training (or with --eval-checkpoint alone)"""

    # Algorithm specific arguments
    env_id: str = "CartPoleNoVel-v1"
    """the id of the environment (`module:EnvId` imports the module first)"""
    total_timesteps: int = 100_000
    """total timesteps of the experiment"""
    learning_rate: float = 5e-4
    """the learning rate of the optimizer"""
    num_envs: int = 8
    """the number of parallel game environments"""
    num_steps: int = 64
    """the number of steps to run in each environment per policy rollout"""
    anneal_lr: bool = True
    """toggle learning rate annealing"""
    gamma: float = 0.98
    """the discount factor gamma"""
    gae_lambda: float = 0.9
    """the lambda for the general advantage estimation"""
    num_minibatches: int = 2
    """the number of mini-batches"""
    update_epochs: int = 20
    """the K epochs to update the policy"""
    norm_adv: bool = True
    """toggles advantages normalization"""
    clip_coef: float = 0.2
    """the surrogate clipping coefficient"""
    anneal_clip: bool = True
    """anneal the clipping coefficients to 0 with the learning rate (steadies the late updates)"""
    clip_vloss: bool = True
    """toggles whether or not to use a clipped loss for the value function"""
    ent_coef: float = 0.01
    """coefficient of the entropy"""
    vf_coef: float = 0.5
    """coefficient of the value function"""
    max_grad_norm: float = 0.5
    """the maximum norm for the gradient clipping"""
    target_kl: float | None = None
    """the target KL divergence threshold"""
    norm_obs: bool = True
    """normalise observations with running statistics (frozen in evaluation)"""
    norm_obs_until: float = 0.5
    """the observation statistics freeze at this fraction of --total-timesteps (1: never)"""
    norm_reward: bool = True
    """scale rewards by the running standard deviation of the discounted return"""

    # Recurrence
    rnn_type: Literal["lstm", "gru"] = "lstm"
    """the recurrent layer of the actor and of the critic"""
    rnn_hidden_size: int = 64
    """width of the recurrent state"""
    seq_len: int = 0
    """truncated-BPTT length; 0: each env's whole rollout is one sequence (minibatching by env)"""
    reset_state_on_done: bool = True
    """zero the recurrent state where a new episode starts"""
    shared_lstm: bool = False
    """the critic reads the actor's LSTM (as CleanRL) instead of its own (as sb3-contrib)"""
    critic_prev_action: bool = True
    """the critic's own LSTM also reads the previous action, one-hot (off with --shared-lstm)"""
    action_masks: bool = True
    """use the env's action masks (`action_masks()` or info["action_mask"]) where it has them"""


def fail(message: str) -> None:
    """One line for the user, exit code 2, no traceback."""
    print(f"{SCRIPT}: error: {message}", file=sys.stderr)
    raise SystemExit(2)


class NonFinite(Exception):
    """A non-finite observation, loss or weight: the run stops and keeps its last good update."""


class EnvMistake(Exception):
    """What an env gives that breaks its own spaces (an observation of another shape, a mask that
    allows no action): the run stops."""


# Environments: masked-velocity ids (as rl-baselines3-zoo) and a memory task of our own
NOVEL_ENVS = {  # id -> (base id, its kwargs, observation mask: 0 where an entry is a velocity)
    "CartPoleNoVel-v1": ("CartPole-v1", {}, [1, 0, 1, 0]),
    "MountainCarNoVel-v0": ("MountainCar-v0", {}, [1, 0]),
    "LunarLanderNoVel-v3": ("LunarLander-v3", {}, [1, 1, 0, 0, 1, 0, 1, 1]),
}


def make_masked_env(base_id: str, base_kwargs: dict, mask: list[int], **kwargs) -> gym.Env:
    env = gym.make(base_id, **base_kwargs, **kwargs)
    keep = np.array(mask, dtype=np.float32)
    return gym.wrappers.TransformObservation(env, lambda obs: obs * keep, env.observation_space)


class CueRecallEnv(gym.Env):
    """The first observation shows one of `num_cues` cues, `delay` blank steps follow, then a query
    pays +1 for the action naming the cue and -1 otherwise, and the episode ends. A memoryless
    policy scores at most (2 - num_cues) / num_cues on average; remembering the cue scores 1.
    `masked`: info["action_mask"] allows every action but at the query, where it allows the cue and
    one other, drawn afresh (a memoryless policy then scores 0, whatever the number of cues)."""

    metadata = {"render_modes": []}

    def __init__(self, num_cues=2, delay=10, masked=False, render_mode=None):
        self.num_cues, self.delay, self.masked = num_cues, delay, masked
        # the cue's one-hot, then the query flag
        self.observation_space = gym.spaces.Box(0.0, 1.0, (num_cues + 1,), np.float32)
        self.action_space = gym.spaces.Discrete(num_cues)

    def info(self) -> dict:
        if not self.masked:
            return {}
        mask = np.ones(self.num_cues, dtype=bool)
        if self.t == self.delay + 1:  # the query: the cue and one other
            mask[:] = False
            mask[self.cue] = True
            mask[(self.cue + 1 + self.np_random.integers(self.num_cues - 1)) % self.num_cues] = True
        return {"action_mask": mask}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.cue, self.t = int(self.np_random.integers(self.num_cues)), 0
        obs = np.zeros(self.num_cues + 1, np.float32)
        obs[self.cue] = 1.0
        return obs, self.info()

    def step(self, action):
        self.t += 1
        obs = np.zeros(self.num_cues + 1, np.float32)
        if self.t <= self.delay + 1:  # blank observations 1..delay, then the query
            obs[-1] = float(self.t == self.delay + 1)
            return obs, 0.0, False, False, self.info()
        return obs, 1.0 if int(action) == self.cue else -1.0, True, False, self.info()


for _id, (_base, _kwargs, _mask) in NOVEL_ENVS.items():
    gym.register(_id, entry_point=partial(make_masked_env, _base, _kwargs, _mask))
gym.register("CueRecall-v0", entry_point=CueRecallEnv)
gym.register("MaskedCueRecall-v0", entry_point=CueRecallEnv, kwargs={"num_cues": 4, "masked": True})
OWN_ENV_IDS = [*NOVEL_ENVS, "CueRecall-v0", "MaskedCueRecall-v0"]


class FlatObservation(gym.ObservationWrapper):
    """Observations as one vector in gymnasium's flatten order (Box parts flattened, Discrete ones
    one-hot, a Tuple's or Dict's parts one after another); a Dict's text parts are left out. An
    observation of another shape than its space's stops the run (EnvMistake)."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        space = env.observation_space
        self.keys = None
        if isinstance(space, gym.spaces.Dict):
            self.keys = [key for key, part in space.spaces.items() if not is_text(part)]
            space = gym.spaces.Dict([(key, space[key]) for key in self.keys])  # keeps the order
        self.parts = space
        self.box_entries = box_entries(space)  # (flatdim,) True where a Box part lies (normalised)
        self.observation_space = gym.spaces.flatten_space(space)

    def observation(self, obs):
        if self.keys is not None:
            obs = {key: obs[key] for key in self.keys}
        shape = np.shape(obs) if isinstance(self.parts, gym.spaces.Box) else None
        flat = gym.spaces.flatten(self.parts, obs)
        if flat.shape != self.observation_space.shape or shape not in (None, self.parts.shape):
            what = f"shape {shape}" if shape else f"{flat.size} entries"
            raise EnvMistake(f"the env gave an observation of {what} for its space {self.parts}")
        return flat


def box_entries(space: gym.spaces.Space) -> np.ndarray:
    """Which flattened entries come from Box parts; ValueError for a space with no fixed vector."""
    if isinstance(space, gym.spaces.Box):
        return np.ones(gym.spaces.flatdim(space), dtype=bool)
    if isinstance(space, gym.spaces.Discrete | gym.spaces.MultiDiscrete | gym.spaces.MultiBinary):
        return np.zeros(gym.spaces.flatdim(space), dtype=bool)
    if isinstance(space, gym.spaces.Tuple | gym.spaces.Dict):
        parts = space.spaces.values() if isinstance(space, gym.spaces.Dict) else space.spaces
        return np.concatenate([box_entries(part) for part in parts])
    raise ValueError(f"{space} has no fixed-size vector form")


def is_text(space: gym.spaces.Space) -> bool:  # gymnasium's Text, MiniGrid's MissionSpace
    return space.dtype is not None and np.dtype(space.dtype).kind == "U"


def make_env(env_id: str, render_mode: str | None = None, flatten: bool = True):
    def thunk():
        # render_mode only when something renders: third-party envs may not take the argument
        env = gym.make(env_id, render_mode=render_mode) if render_mode else gym.make(env_id)
        return FlatObservation(env) if flatten else env

    return thunk


def check_env(args: Args) -> np.ndarray:
    """Make one env as training (and the evaluation's video) will and answer any problem in one
    line; returns which entries of the flattened observation come from Box parts."""
    env_id = args.env_id
    module, _, name = env_id.rpartition(":")  # `module:EnvId`: gym.make imports the module
    if not name or (":" in env_id and not module):
        fail(f"env id '{env_id}' is malformed: give EnvId, or MODULE:EnvId to import MODULE first")
    try:
        env = make_env(env_id, "rgb_array" if args.capture_video else None, flatten=False)()
    except gym.error.DependencyNotInstalled as error:
        fail(f"env '{env_id}' needs a package that is not installed: {str(error).splitlines()[0]}")
    except gym.error.DeprecatedEnv as error:  # gymnasium's line names the version to use
        fail(f"env id '{env_id}' is deprecated: {error}")
    except gym.error.UnregisteredEnv:
        # with the module named, each close match is given as an id to pass as it is
        matches = difflib.get_close_matches(name, list(gym.registry), n=3)
        close = [f"{module}:{m}" if module else m for m in matches] or "none"
        hint = "; an id that a package registers when imported is named with it: MODULE:EnvId"
        own = f"this script's own ids: {OWN_ENV_IDS}"
        fail(f"unknown env id '{env_id}'; close matches: {close}; {own}" + ("" if module else hint))
    except ModuleNotFoundError as error:
        missing = (error.__cause__ or error).name  # gym.make re-raises the import error as its own
        own = module and missing and module.startswith(missing)
        what = f"module '{module}' of" if own else "a module needed by"
        fail(f"cannot import {what} env '{env_id}': No module named '{missing}'")
    except TypeError as error:
        if args.capture_video:
            fail(f"--capture-video: env '{env_id}' takes no render_mode ({error})")
        fail(f"env '{env_id}' cannot be made as gym.make('{env_id}'): {error}")
    except gym.error.Error as error:  # a malformed id, say: gymnasium's own line
        fail(f"env id '{env_id}': {error}")
    modes = env.metadata.get("render_modes")
    if args.capture_video and "rgb_array" not in (modes or []):
        fail(f"--capture-video: env '{env_id}' cannot render frames (its render modes: {modes})")
    obs_space, act_space = env.observation_space, env.action_space
    try:
        entries = FlatObservation(env).box_entries
    except ValueError as error:
        fail(f"{SCRIPT} cannot make a vector of the observations: {error}; it takes Box, Discrete, "
             "MultiDiscrete, MultiBinary, and Tuple or Dict of these")
    env.close()
    image = isinstance(obs_space, gym.spaces.Box) and len(obs_space.shape) == 3
    if image and np.prod(obs_space.shape) > 4096:
        fail(f"{SCRIPT} takes vector observations, not images such as {obs_space}; "
             "ppo_gru_atari.py takes Atari games")
    discrete = isinstance(act_space, gym.spaces.Discrete | gym.spaces.MultiDiscrete)
    if not discrete or len(act_space.shape) > 1:
        fail(f"{SCRIPT} handles Discrete and 1-D MultiDiscrete actions, not {act_space}; "
             "use ppo_lstm_continuous.py")
    # notices come after every check, so that an env this script cannot take gets one line alone
    parts = obs_space.items() if isinstance(obs_space, gym.spaces.Dict) else []
    text = [key for key, part in parts if is_text(part)]
    if text:
        print(f"{SCRIPT}: the observation's text parts {text} are left out")
    return entries


def check_args(args: Args) -> None:
    """Inconsistent arguments get one line before anything is built."""
    sizes = ["total_timesteps", "num_envs", "num_steps", "num_minibatches", "update_epochs"]
    for name in sizes + ["eval_max_steps", "rnn_hidden_size", "learning_rate"]:
        if not getattr(args, name) > 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    for name in ["gamma", "gae_lambda", "norm_obs_until"]:
        if not 0.0 <= getattr(args, name) <= 1.0:
            fail(f"--{name.replace('_', '-')} must be from 0 to 1, got {getattr(args, name)}")
    for name in ["clip_coef", "max_grad_norm", "target_kl"]:
        if getattr(args, name) is not None and not getattr(args, name) > 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    if args.seq_len < 0 or args.eval_episodes < 0:
        fail("--seq-len and --eval-episodes must not be negative")
    if args.seq_len > args.num_steps:
        fail(f"--seq-len {args.seq_len} is larger than --num-steps {args.num_steps}")
    seq_len = args.seq_len or args.num_steps
    if args.num_steps % seq_len:
        fail(f"--seq-len {seq_len} must divide --num-steps {args.num_steps}")
    num_seqs, num_mbs = args.num_envs * (args.num_steps // seq_len), args.num_minibatches
    if num_seqs % num_mbs:
        fail(f"{num_seqs} sequences of {seq_len} steps do not split into {num_mbs} minibatches")
    if args.norm_adv and num_seqs // num_mbs * seq_len == 1:
        fail("a minibatch of one step cannot normalise its advantages: fewer minibatches or --no-norm-adv")
    batch_size = args.num_envs * args.num_steps
    if args.export_onnx and importlib.util.find_spec("onnx") is None:
        fail("--export-onnx needs the onnx package (and onnxruntime to run the model): pip install onnx")
    if args.total_timesteps < batch_size and not args.eval_checkpoint:
        fail(f"--total-timesteps {args.total_timesteps} is less than one rollout ({batch_size})")


def load_checkpoint(args: Args) -> dict | None:
    """The checkpoint of --resume or --eval-checkpoint, checked; what it decides (the network's
    shape, the observation pipeline) overrides the command line."""
    path = args.resume or args.eval_checkpoint
    if path is None:
        return None
    if not os.path.isfile(path):
        what = "is a directory, not a checkpoint file" if os.path.isdir(path) else "does not exist"
        fail(f"checkpoint '{path}' {what}")
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as error:  # noqa: BLE001 - any unreadable file is reported the same way
        fail(f"checkpoint '{path}' is corrupt or not a checkpoint ({type(error).__name__})")
    if not isinstance(checkpoint, dict) or checkpoint.get("script") != SCRIPT:
        fail(f"checkpoint '{path}' was not written by {SCRIPT}")
    if checkpoint["env_id"] != args.env_id:
        fail(f"checkpoint '{path}' is for env '{checkpoint['env_id']}', not '{args.env_id}'")
    if args.resume and checkpoint["global_step"] > args.total_timesteps:
        step, total = checkpoint["global_step"], args.total_timesteps
        fail(f"--total-timesteps {total} is below the checkpoint's global step {step}: nothing to train")
    network = ["rnn_type", "rnn_hidden_size", "shared_lstm", "critic_prev_action"]
    older = {"critic_prev_action": False}  # a checkpoint from before the key was trained so
    for key in network + ["norm_obs", "norm_reward"]:
        value = checkpoint["args"].get(key, older.get(key, getattr(Args(), key)))
        if getattr(args, key) != value:
            print(f"{key} = {value}, as the checkpoint was trained")
            setattr(args, key, value)
    return checkpoint


class RunningMeanStd:
    """Running mean and variance over batches (the parallel algorithm of Chan et al.)."""

    def __init__(self, shape: tuple = (), normalized: np.ndarray | None = None):
        self.mean, self.var, self.count = np.zeros(shape), np.ones(shape), 1e-4
        # the entries normalize() changes
        self.normalized = np.ones(shape, dtype=bool) if normalized is None else normalized

    def update(self, x: np.ndarray) -> None:
        delta, n = x.mean(0) - self.mean, x.shape[0]
        total = self.count + n
        self.mean = self.mean + delta * n / total
        m2 = self.var * self.count + x.var(0) * n + delta**2 * self.count * n / total
        self.var = m2 / total
        self.count = total

    def normalize(self, x: np.ndarray) -> np.ndarray:
        scaled = np.clip((x - self.mean) / np.sqrt(self.var + 1e-8), -10.0, 10.0)
        return np.where(self.normalized, scaled, x)


def layer_init(layer: nn.Module, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Module:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


def rnn_cell(rnn: nn.LSTM | nn.GRU, x: torch.Tensor, state: tuple) -> tuple:
    """One step of a one-layer LSTM or GRU as a fused cell: on CPU a third of a call to it."""
    weights = (rnn.weight_ih_l0, rnn.weight_hh_l0, rnn.bias_ih_l0, rnn.bias_hh_l0)
    if isinstance(rnn, nn.GRU):
        return (torch.gru_cell(x, state[0], *weights),)
    return torch.lstm_cell(x, state, *weights)


class Agent(nn.Module):
    """An LSTM (or GRU) over the observations, another for the critic unless --shared-lstm, then
    one tanh layer of 64 per head. The state is (h, c) for an LSTM and (h,) for a GRU, each
    (num_rnns, N, hidden): slice 0 is the actor's, slice 1 the critic's."""

    def __init__(self, envs: gym.vector.VectorEnv, args: Args):
        super().__init__()
        obs_dim, hidden = envs.single_observation_space.shape[0], args.rnn_hidden_size
        space = envs.single_action_space
        # a categorical head per action dimension: Discrete(n) is MultiDiscrete([n]), squeezed
        self.discrete = isinstance(space, gym.spaces.Discrete)
        self.nvec = [int(space.n)] if self.discrete else space.nvec.tolist()
        num_logits = sum(self.nvec)
        # the critic's RNN reads the observation, then (--critic-prev-action) the previous action
        reads_prev_action = args.critic_prev_action and not args.shared_lstm
        self.prev_action_size = num_logits if reads_prev_action else 0
        rnn = nn.GRU if args.rnn_type == "gru" else nn.LSTM
        self.lstm = rnn(obs_dim, hidden)
        critic_inputs = obs_dim + self.prev_action_size
        self.critic_lstm = None if args.shared_lstm else rnn(critic_inputs, hidden)
        for rnn in filter(None, [self.lstm, self.critic_lstm]):
            for name, param in rnn.named_parameters():
                if "bias" in name:
                    nn.init.constant_(param, 0)
                else:
                    nn.init.orthogonal_(param, 1.0)
        self.actor = nn.Sequential(
            layer_init(nn.Linear(hidden, 64)), nn.Tanh(), layer_init(nn.Linear(64, num_logits), 0.01)
        )
        self.critic = nn.Sequential(
            layer_init(nn.Linear(hidden, 64)), nn.Tanh(), layer_init(nn.Linear(64, 1), std=1.0)
        )
        self.reset_state_on_done = args.reset_state_on_done

    def inputs(self, obs, prev_action, episode_starts):
        """The observation, then with --critic-prev-action the previous action's one-hot (zeros
        where an episode starts, or with no `prev_action`). An RNN reads its first input_size."""
        if not self.prev_action_size:
            return obs
        one_hot = obs.new_zeros(obs.shape[0], self.prev_action_size)
        if prev_action is not None:
            parts = zip(prev_action.view(obs.shape[0], -1).unbind(-1), self.nvec, strict=True)
            one_hot = torch.cat([nn.functional.one_hot(a, n) for a, n in parts], -1)
            one_hot = one_hot.to(obs.dtype) * (1.0 - episode_starts).view(-1, 1)
        return torch.cat([obs, one_hot], -1)

    def get_initial_state(self, num_envs: int) -> tuple:
        num_rnns = 1 if self.critic_lstm is None else 2
        zeros = self.lstm.weight_hh_l0.new_zeros(num_rnns, num_envs, self.lstm.hidden_size)
        return (zeros, zeros.clone()) if isinstance(self.lstm, nn.LSTM) else (zeros,)

    def unroll(self, rnns: list, x: torch.Tensor, state: tuple, episode_starts: torch.Tensor):
        """x (T * N, inputs), time-major -> a hidden (T * N, hidden) per RNN (rnns[i] from slice i
        of the state), and the new state. T = 1 (acting): a fused cell per RNN. T > 1 (the training
        update): every env's sequence is cut where an episode starts and the pieces run right-padded
        in one call per RNN; padding runs past a short piece's end, so no state comes back."""
        N = state[0].shape[1]
        T = x.shape[0] // N
        x = x.view(T, N, -1)  # (T * N, inputs) -> (T, N, inputs)
        starts = episode_starts.view(T, N) if self.reset_state_on_done else x.new_zeros(T, N)
        keep = (1.0 - starts[0]).view(1, -1, 1)  # zeroed before an episode's first step
        state = tuple(s * keep for s in state)
        if T == 1:
            steps = [rnn_cell(rnn, x[0, :, : rnn.input_size], [s[i] for s in state])
                     for i, rnn in enumerate(rnns)]
            state = tuple(torch.stack(parts) for parts in zip(*steps, strict=True))
            return list(state[0]), state
        piece_begins = starts.bool().T.clone()  # (T, N) -> (N, T): env-major, each piece contiguous
        piece_begins[:, 0] = True
        piece_begins = piece_begins.reshape(-1)
        piece = piece_begins.cumsum(0) - 1  # (N * T,) the piece of every step
        first = piece_begins.nonzero().squeeze(1)  # (P,) each piece's first step
        pos = torch.arange(N * T, device=x.device) - first[piece]  # the step's index in its piece
        padded = x.new_zeros(int(pos.max()) + 1, len(first), x.shape[2])  # (max_len, P, inputs)
        padded[pos, piece] = x.transpose(0, 1).reshape(N * T, -1)
        # a piece opening an episode starts from zeros, each env's first from the carried state
        env_first = piece[torch.arange(N, device=x.device) * T]
        starts_from = [x.new_zeros(len(rnns), len(first), s.shape[2]) for s in state]
        for s0, s in zip(starts_from, state, strict=True):
            s0[:, env_first] = s
        outputs = []
        for i, rnn in enumerate(rnns):
            hx = tuple(s0[i : i + 1] for s0 in starts_from)
            out = rnn(padded[..., : rnn.input_size], hx if len(hx) == 2 else hx[0])[0]
            outputs.append(out[pos, piece].view(N, T, -1).transpose(0, 1).reshape(T * N, -1))
        return outputs, None

    def get_value(self, obs, state, episode_starts, prev_action=None):
        rnn = self.lstm if self.critic_lstm is None else self.critic_lstm  # its own, or the shared
        x = self.inputs(obs, prev_action, episode_starts)
        hiddens, _ = self.unroll([rnn], x, tuple(s[-1:] for s in state), episode_starts)
        return self.critic(hiddens[0])

    def get_action_and_value(self, obs, state, episode_starts, action=None, deterministic=False,
                             prev_action=None, action_mask=None):
        rnns = [self.lstm] if self.critic_lstm is None else [self.lstm, self.critic_lstm]
        x = self.inputs(obs, prev_action, episode_starts)
        hiddens, new_state = self.unroll(rnns, x, state, episode_starts)
        logits = self.actor(hiddens[0])
        if action_mask is not None:  # probability 0; a finite logit keeps the entropy finite
            logits = logits.masked_fill(~action_mask, -1e8)
        given = [None] * len(self.nvec) if action is None else action.view(len(obs), -1).unbind(-1)
        parts = zip(logits.split(self.nvec, -1), given, strict=True)
        heads = [categorical(part, a, deterministic) for part, a in parts]
        action = torch.stack([head[0] for head in heads], dim=-1)  # (B, D)
        logprob = torch.stack([head[1] for head in heads]).sum(0)  # the joint: the heads' sums
        entropy = torch.stack([head[2] for head in heads]).sum(0)
        action = action.squeeze(-1) if self.discrete else action
        return action, logprob, entropy, self.critic(hiddens[-1]), new_state


def categorical(logits: torch.Tensor, action=None, deterministic: bool = False) -> tuple:
    """The action (sampled, the most likely, or the one given), its logprob and the entropy of a
    categorical over the last dim: torch's Categorical bit for bit, samples included, without its
    per-call overhead (a fifth of the agent's time in the rollout on CPU)."""
    logp = logits - logits.logsumexp(-1, keepdim=True)
    probs = logp.softmax(-1)
    if action is None:
        action = logits.argmax(-1) if deterministic else torch.multinomial(probs, 1, True)[..., 0]
    return action, logp.gather(-1, action.long().unsqueeze(-1)).squeeze(-1), -(logp * probs).sum(-1)


def compute_gae(rewards, values, terminations, truncations, final_values, next_value, gamma, lam):
    """Advantages and returns of (T, N) tensors. A step ends an episode when terminated or
    truncated; a truncated step is bootstrapped from its final observation's value."""
    advantages = torch.zeros_like(rewards)
    lastgaelam = 0.0
    for t in reversed(range(rewards.shape[0])):
        ended = torch.maximum(terminations[t], truncations[t])
        following = next_value if t == rewards.shape[0] - 1 else values[t + 1]
        bootstrap = torch.where(ended.bool(), final_values[t] * (1.0 - terminations[t]), following)
        delta = rewards[t] + gamma * bootstrap - values[t]
        lastgaelam = delta + gamma * lam * (1.0 - ended) * lastgaelam
        advantages[t] = lastgaelam
    return advantages, advantages + values


def ppo_loss(ratio, advantages, newvalue, values, returns, entropy, clip_coef, args: Args) -> tuple:
    """A minibatch's PPO objective to minimise, from 1-D tensors: loss, pg_loss, v_loss, entropy."""
    if args.norm_adv:
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()
    if args.clip_vloss:
        v_loss_unclipped = (newvalue - returns) ** 2
        v_clipped = values + torch.clamp(newvalue - values, -clip_coef, clip_coef)
        v_loss = 0.5 * torch.max(v_loss_unclipped, (v_clipped - returns) ** 2).mean()
    else:
        v_loss = 0.5 * ((newvalue - returns) ** 2).mean()
    entropy_loss = entropy.mean()
    loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef
    return loss, pg_loss, v_loss, entropy_loss


def action_mask(env, info: dict, device: torch.device) -> torch.Tensor:
    """The valid actions, (envs, logits) bool: info["action_mask"] or the env's action_masks() (as
    sb3-contrib's MaskablePPO); a MultiDiscrete's dimensions one after another."""
    vector = isinstance(env, gym.vector.VectorEnv)
    if "action_mask" in info:
        mask = np.asarray(info["action_mask"], dtype=bool)
    elif vector:
        mask = np.stack(env.call("action_masks")).astype(bool)
    else:
        mask = np.asarray(env.get_wrapper_attr("action_masks")(), dtype=bool)
    mask = mask.reshape(env.num_envs if vector else 1, -1)
    space = env.single_action_space if vector else env.action_space
    nvec = [int(space.n)] if isinstance(space, gym.spaces.Discrete) else space.nvec.tolist()
    heads = np.split(mask, np.cumsum(nvec)[:-1], axis=1) if mask.shape[1] == sum(nvec) else []
    if not all(head.any(1).all() for head in heads):
        raise EnvMistake("the env's action mask allows no action")
    return torch.as_tensor(mask, device=device)


def first_action_mask(envs, infos: dict, args: Args, num_logits: int, device):
    """The masks at reset; None where the env gives none (or with --no-action-masks)."""
    if not args.action_masks:
        return None
    try:
        mask = action_mask(envs, infos, device)
    except AttributeError:  # neither info["action_mask"] nor action_masks()
        return None
    except EnvMistake as mistake:
        envs.close()
        fail(f"{mistake} at reset")
    if mask.shape[1] != num_logits:
        envs.close()
        fail(f"the env's action mask has {mask.shape[1]} entries per env, not {num_logits} (one per action)")
    return mask


def prepare(obs: np.ndarray, obs_rms: RunningMeanStd, args: Args, device, update=False):
    """Raw observations -> the agent's input, in the rollout and the evaluation alike: checked
    finite, then normalised with the running statistics (updated where `update`)."""
    if not np.isfinite(obs).all():
        raise NonFinite("observation")
    if args.norm_obs:
        if update:
            obs_rms.update(obs)
        obs = obs_rms.normalize(obs)
    return torch.as_tensor(obs, dtype=torch.float32, device=device)


def evaluate(agent: Agent, args: Args, device, run_name: str, obs_rms, masked: bool) -> list:
    """Full episodes on a fresh env, the state carried within an episode and reset between them;
    the most likely action (or one drawn); the training's observation statistics, frozen."""
    if not args.eval_episodes:  # --eval-episodes 0: no env is made
        return []
    env = make_env(args.env_id, "rgb_array" if args.capture_video else None)()
    if env.spec is None or env.spec.max_episode_steps is None:  # an endless env must not hang
        env = gym.wrappers.TimeLimit(env, args.eval_max_steps)
        print(f"{SCRIPT}: env '{args.env_id}' declares no time limit: evaluation episodes end at "
              f"{args.eval_max_steps} steps (--eval-max-steps)")
    if args.capture_video:
        every_episode = lambda episode: True  # noqa: E731
        cap = VIDEO_MAX_FRAMES - 1  # the recorder stops one frame past it
        env = gym.wrappers.RecordVideo(env, f"videos/{run_name}", every_episode, video_length=cap)
    returns, start = [], time.time()
    with env:  # closed however the evaluation ends, Ctrl-C included (and with it the video)
        for episode in range(args.eval_episodes):
            # seeded once: a fixed set of episodes
            obs, info = env.reset(seed=args.seed + 100_000 if episode == 0 else None)
            state, episode_start = agent.get_initial_state(1), torch.ones(1, device=device)
            episode_return, ended, action = 0.0, False, None
            while not ended:
                with torch.inference_mode():
                    obs_t = prepare(obs[None], obs_rms, args, device)
                    mask = action_mask(env, info, device) if masked else None
                    action, _, _, _, state = agent.get_action_and_value(
                        obs_t, state, episode_start, deterministic=not args.eval_sample,
                        prev_action=action, action_mask=mask,
                    )
                env_action = action[0].cpu().numpy() + env.action_space.start
                obs, reward, terminated, truncated, info = env.step(env_action)
                episode_return += float(reward)
                ended = terminated or truncated
                episode_start = torch.zeros(1, device=device)
            returns.append(episode_return)
            if time.time() - start > 10:  # a long evaluation says how far it is
                done = f"{episode + 1}/{args.eval_episodes}"
                print(f"evaluation episode {done}: return {episode_return:.1f}")
    return returns


class Policy(nn.Module):
    """The acting policy alone, one step of N envs, as --export-onnx writes it: the observation
    normalised with the frozen statistics, the actor's RNN zeroed where an episode starts, the
    most likely allowed action with the space's start added, as evaluation sends it to the env."""

    def __init__(self, agent: Agent, obs_rms: RunningMeanStd, norm_obs: bool, start):
        super().__init__()
        self.agent, self.norm_obs = agent, norm_obs
        self.register_buffer("mean", torch.tensor(obs_rms.mean, dtype=torch.float32))
        self.register_buffer("std", torch.tensor(np.sqrt(obs_rms.var + 1e-8), dtype=torch.float32))
        self.register_buffer("normalized", torch.tensor(obs_rms.normalized))
        self.register_buffer("start", torch.tensor(start))

    def forward(self, obs, state, episode_start, action_mask):
        if self.norm_obs:
            scaled = ((obs - self.mean) / self.std).clamp(-10.0, 10.0)
            obs = torch.where(self.normalized, scaled, obs)
        hiddens, state = self.agent.unroll([self.agent.lstm], obs, state, episode_start)
        logits = self.agent.actor(hiddens[0]).masked_fill(~action_mask, -1e8)
        action = torch.stack([part.argmax(-1) for part in logits.split(self.agent.nvec, -1)], -1)
        return (action.squeeze(-1) if self.agent.discrete else action) + self.start, state


def export_onnx(agent: Agent, obs_rms: RunningMeanStd, args: Args, envs) -> None:
    """Inputs obs (N, obs_dim), h and c (1, N, hidden; h alone for a GRU), episode_start (N,) and
    action_mask (N, logits); outputs action and h_out, c_out, the state to feed back."""
    space = envs.single_action_space
    policy = Policy(copy.deepcopy(agent).cpu(), obs_rms, args.norm_obs, space.start).eval()
    state = tuple(s[:1] for s in policy.agent.get_initial_state(2))  # the actor's
    names = ["h", "c"][: len(state)]
    inputs, outputs = ["obs", *names, "episode_start", "action_mask"], ["action", *(f"{k}_out" for k in names)]
    example = (torch.zeros(2, agent.lstm.input_size), state, torch.ones(2),
               torch.ones(2, sum(agent.nvec), dtype=torch.bool))
    batch = {name: {1 if name[0] in "hc" else 0: "N"} for name in inputs + outputs}  # any N envs
    with warnings.catch_warnings():  # the tracer's notes on the one-step branch it records
        warnings.simplefilter("ignore")
        torch.onnx.export(policy, example, args.export_onnx, dynamo=False, dynamic_axes=batch,
                          input_names=inputs, output_names=outputs)
    print(f"policy exported to {args.export_onnx} (inputs {inputs}, outputs {outputs})")


def make_run_dir(args: Args) -> tuple[str, str]:
    prefix = f"{args.env_id.replace(':', '_')}__{args.exp_name}__{args.seed}"
    stamp = int(time.time())
    while True:  # claimed atomically: two runs started in the same second must not share a folder
        run_name = f"{prefix}__{stamp}"
        try:
            os.makedirs(os.path.join("runs", run_name))
            return run_name, os.path.join("runs", run_name)
        except FileExistsError:
            stamp += 1


def start_logging(args: Args, run_name: str, run_dir: str) -> SummaryWriter:
    if args.track:  # first: sync_tensorboard mirrors the writers made after wandb.init alone
        import wandb

        wandb.init(project=args.wandb_project_name, entity=args.wandb_entity, sync_tensorboard=True,
                   config=vars(args), name=run_name)
    # its thread wakes every 5 s: Ctrl-C in its queue can lose a wake-up, and close() waits for one
    writer = SummaryWriter(run_dir, flush_secs=5)
    table = "\n".join(f"|{key}|{value}|" for key, value in vars(args).items())
    writer.add_text("hyperparameters", f"|param|value|\n|-|-|\n{table}")
    return writer


def training_state(agent, optimizer, obs_rms, return_rms, args: Args, global_step, iteration):
    """What a checkpoint holds, copied after every completed update, so that a stop saves the last
    good weights with their global step; None without --save-model (the copy costs about 1 ms)."""
    if not args.save_model:
        return None
    state = {"script": SCRIPT, "env_id": args.env_id, "args": asdict(args)}
    state.update(model=agent.state_dict(), optimizer=optimizer.state_dict(), obs_rms=vars(obs_rms))
    state.update(return_rms=vars(return_rms), global_step=global_step, iteration=iteration)
    return copy.deepcopy(state)


def restore(checkpoint: dict | None, agent, optimizer, obs_rms, return_rms) -> tuple[int, int]:
    """Loads a checkpoint's weights, optimizer and statistics; returns its step and update."""
    if checkpoint is None:
        return 0, 0
    try:
        agent.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
    except (KeyError, RuntimeError, ValueError) as error:  # weights missing, or of other shapes
        why = "; ".join(line.strip() for line in str(error).splitlines()[:2])
        fail(f"the checkpoint's weights do not fit the network its args describe: {why}")
    obs_rms.__dict__.update(checkpoint["obs_rms"])
    return_rms.__dict__.update(checkpoint["return_rms"])
    return checkpoint["global_step"], checkpoint["iteration"]


def save(state: dict | None, run_dir: str, args: Args) -> str | None:
    if state is None:
        return None
    path = os.path.join(run_dir, f"{args.exp_name}.pt")
    torch.save(state, path)
    return path


def stop_as_ctrl_c(signum, frame):
    raise KeyboardInterrupt


def on_sigterm(handler):
    """Sets SIGTERM's handler and returns the one before; Python sets handlers in the main thread
    only, so a run in another thread leaves SIGTERM as it is."""
    if threading.current_thread() is threading.main_thread():
        return signal.signal(signal.SIGTERM, handler)
    return signal.getsignal(signal.SIGTERM)


def close_run(writer: SummaryWriter, envs, args: Args, sigterm_handler, exit_code: int) -> None:
    on_sigterm(sigterm_handler)
    writer.close()
    envs.close()
    if args.track:
        import wandb

        wandb.finish(exit_code=exit_code)


def exit_code(stop: BaseException) -> int:
    one_line = isinstance(stop, NonFinite | EnvMistake)  # exit code 2, as bad input
    return 130 if isinstance(stop, KeyboardInterrupt) else 2 if one_line else 1


def say_why_stopped(stop: BaseException, where: str, iteration: int, last_good, path) -> None:
    """One line; a non-finite value or an env mistake exits with 2, Ctrl-C or SIGTERM with 130."""
    step = last_good["global_step"] if last_good else None
    if isinstance(stop, NonFinite):
        kept = f"; checkpoint of the last good weights (global step {step}): {path}" if path else ""
        fail(f"non-finite {stop} at update {iteration}" + kept)
    kept = f"; checkpoint at global step {step}: {path}" if path else ""
    if isinstance(stop, EnvMistake):
        fail(f"{stop} {where}" + kept)
    interrupted = isinstance(stop, KeyboardInterrupt)
    what = "interrupted" if interrupted else f"stopped by {type(stop).__name__}"
    print(f"{what} {where}" + kept, file=sys.stderr)
    if interrupted:
        raise SystemExit(130) from None


def first_reset(envs: gym.vector.VectorEnv, seed: int):
    """An env that fails at its first reset stops the run before anything is written."""
    try:
        return envs.reset(seed=seed)
    except (KeyboardInterrupt, Exception) as stop:
        envs.close()
        say_why_stopped(stop, "at the first reset", 0, None, None)
        raise


def to_seqs(x: torch.Tensor, seq_len: int) -> torch.Tensor:
    """(T, N, ...) -> (seq_len, S, ...), S = T / seq_len * N: sequence k * N + n is env n's k-th."""
    num_envs, rest = x.shape[1], x.shape[2:]
    return x.view(-1, seq_len, num_envs, *rest).transpose(0, 1).reshape(seq_len, -1, *rest)


def take(x: torch.Tensor, seqs: torch.Tensor) -> torch.Tensor:
    """(seq_len, S, ...) -> (seq_len * M, ...) for M sequences, time-major as the Agent expects."""
    return x[:, seqs].reshape(-1, *x.shape[2:])


def seed_and_device(args: Args) -> torch.device:
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = args.torch_deterministic
    # float32 stays float32 on a GPU: TF32 convolutions and RNNs put the replay's ratio 1e-4 off 1
    torch.backends.cudnn.conv.fp32_precision = torch.backends.cudnn.rnn.fp32_precision = "ieee"
    torch.backends.cuda.matmul.fp32_precision = "ieee"
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(1)  # more threads fight the env loop for the cores: small RNNs slow
    return device


def write_summary(args: Args, run_dir: str, global_step, trained, train_time, recent_returns,
                  eval_returns, checkpoint_path, masked) -> dict:
    summary = {
        "script": SCRIPT,
        "env_id": args.env_id,
        "seed": args.seed,
        "global_step": global_step,
        "wall_time_s": round(train_time, 2),
        "sps": int(trained / train_time) if trained else None,
        "train_return_last20": float(np.mean(recent_returns)) if recent_returns else None,
        "eval_mean_return": float(np.mean(eval_returns)) if eval_returns else None,
        "eval_std_return": float(np.std(eval_returns)) if eval_returns else None,
        "eval_episodes": len(eval_returns),
        "eval_returns": [float(r) for r in eval_returns],
        "eval_mode": "sample" if args.eval_sample else "mean",
        "checkpoint": checkpoint_path,
        "resumed_from": args.resume,  # wall_time_s and sps are then this piece's
        "action_masks": masked,
    }
    with open(os.path.join(run_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    if eval_returns:
        mean, std = np.mean(eval_returns), np.std(eval_returns)
        print(f"eval: {mean:.2f} +- {std:.2f} over {len(eval_returns)} episodes")
    print(f"summary: {os.path.join(run_dir, 'summary.json')}  (tensorboard --logdir runs)")
    return summary


def main(args: Args) -> dict:
    check_args(args)
    checkpoint = load_checkpoint(args)
    box_parts = check_env(args)
    seq_len = args.seq_len or args.num_steps
    batch_size = args.num_envs * args.num_steps
    # whole rollouts up to total_timesteps by global step: a resumed run may change the batch
    schedule_steps = args.total_timesteps // batch_size * batch_size
    device = seed_and_device(args)

    # Environments: same-step autoreset, so no dummy transition follows an episode's end
    thunks = [make_env(args.env_id) for _ in range(args.num_envs)]
    envs = gym.vector.SyncVectorEnv(thunks, autoreset_mode=gym.vector.AutoresetMode.SAME_STEP)
    agent = Agent(envs, args).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)
    # observation normalisation touches the entries of Box parts: one-hots stay 0 and 1
    obs_rms = RunningMeanStd(envs.single_observation_space.shape, box_parts)
    return_rms = RunningMeanStd()
    global_step, iteration = restore(checkpoint, agent, optimizer, obs_rms, return_rms)
    next_obs, infos = first_reset(envs, args.seed)
    envs.action_space.seed(args.seed)
    # masks are stored with each step: the replay masks what the rollout masked
    next_action_mask = first_action_mask(envs, infos, args, sum(agent.nvec), device)
    masked = next_action_mask is not None
    num_updates = 0 if args.eval_checkpoint else (args.total_timesteps - global_step) // batch_size
    first_iteration, last_iteration = iteration + 1, iteration + num_updates
    run_name, run_dir = make_run_dir(args)
    writer = start_logging(args, run_name, run_dir)

    # Rollout storage, (T, N, ...): episode_starts[t] is 1 where obs[t] is an episode's first
    steps_envs = (args.num_steps, args.num_envs)
    obs = torch.zeros(steps_envs + envs.single_observation_space.shape, device=device)
    actions = torch.zeros(steps_envs + envs.single_action_space.shape, dtype=torch.long).to(device)
    prev_actions = torch.zeros_like(actions)  # the action before each step: what the critic reads
    zeros = torch.zeros((7,) + steps_envs, device=device)  # seven (T, N) slices of one tensor
    episode_starts, logprobs, rewards, values, terminations, truncations, final_values = zeros
    action_masks = torch.ones(steps_envs + (sum(agent.nvec),), dtype=torch.bool, device=device)
    state = agent.get_initial_state(args.num_envs)
    # each sequence's first state, so that training replays it from where the rollout was
    seq_states = [torch.zeros((args.num_steps // seq_len,) + s.shape, device=device) for s in state]
    stats_until = args.norm_obs_until * args.total_timesteps if args.norm_obs_until < 1 else np.inf

    last_good = training_state(agent, optimizer, obs_rms, return_rms, args, global_step, iteration)
    next_episode_starts = torch.ones(args.num_envs, device=device)
    next_prev_action = torch.zeros_like(actions[0])  # none yet: every env starts an episode
    episode_return, episode_length = np.zeros(args.num_envs), np.zeros(args.num_envs, dtype=int)
    discounted_return = np.zeros(args.num_envs)  # reward scaling divides by its deviation
    recent_returns, start_time, start_step = [], time.time(), global_step
    previous_handler = on_sigterm(stop_as_ctrl_c)  # SIGTERM (`timeout`, a scheduler) is Ctrl-C
    where = "at global step"
    try:
        update_stats = not args.eval_checkpoint and global_step < stats_until  # else as saved
        next_obs = prepare(next_obs, obs_rms, args, device, update_stats)
        for iteration in range(first_iteration, last_iteration + 1):
            # the schedules follow the global step: a resumed run continues them where it left off
            frac = 1.0 - global_step / schedule_steps
            if args.anneal_lr:
                optimizer.param_groups[0]["lr"] = frac * args.learning_rate
            clip_coef = frac * args.clip_coef if args.anneal_clip else args.clip_coef

            final_values.zero_()  # only the steps cut by a time limit get one below
            episodes = []  # (global step, return, length) of each episode ending in this rollout
            for step in range(args.num_steps):
                global_step += args.num_envs
                if step % seq_len == 0:  # a sequence starts: keep the state it starts from
                    for seq_state, s in zip(seq_states, state, strict=True):
                        seq_state[step // seq_len] = s
                obs[step] = next_obs
                episode_starts[step] = next_episode_starts
                prev_actions[step] = next_prev_action
                if masked:
                    action_masks[step] = next_action_mask
                with torch.inference_mode():  # no autograd bookkeeping: a fifth of a step on CPU
                    action, logprob, _, value, state = agent.get_action_and_value(
                        next_obs, state, next_episode_starts, prev_action=next_prev_action,
                        action_mask=next_action_mask,
                    )
                values[step] = value.flatten()
                actions[step] = action
                logprobs[step] = logprob

                env_action = action.cpu().numpy() + envs.single_action_space.start  # Discrete start
                next_obs_np, reward, terminated, truncated, infos = envs.step(env_action)
                ended = terminated | truncated
                if args.norm_reward:
                    discounted_return = discounted_return * args.gamma + reward
                    return_rms.update(discounted_return)
                    discounted_return[ended] = 0.0  # the next episode's return starts from nothing
                scale = np.sqrt(return_rms.var + 1e-8) if args.norm_reward else 1.0
                rewards[step] = torch.as_tensor(reward / scale, dtype=torch.float32, device=device)
                terminations[step] = torch.as_tensor(terminated, device=device)
                truncations[step] = torch.as_tensor(truncated, device=device)
                cut = np.flatnonzero(truncated & ~terminated)
                if len(cut):  # a time-limit cut: bootstrapped from its final obs, in its own state
                    final_obs = prepare(np.stack(infos["final_obs"][cut]), obs_rms, args, device)
                    cut_state = tuple(s[:, cut] for s in state)
                    no_starts = torch.zeros(len(cut), device=device)
                    with torch.inference_mode():  # after the episode's last action
                        final_value = agent.get_value(final_obs, cut_state, no_starts, action[cut])
                    final_values[step, cut] = final_value.flatten()
                next_episode_starts = torch.as_tensor(ended, dtype=torch.float32, device=device)
                next_obs = prepare(next_obs_np, obs_rms, args, device, global_step < stats_until)
                next_prev_action = action
                if masked:  # an env that ended has reset: its mask is the new episode's
                    next_action_mask = action_mask(envs, infos, device)

                episode_return += reward
                episode_length += 1
                for i in np.flatnonzero(ended):
                    recent_returns = (recent_returns + [episode_return[i]])[-20:]
                    episodes.append((global_step, episode_return[i], episode_length[i]))
                    episode_return[i], episode_length[i] = 0.0, 0

            with torch.inference_mode():
                next_value = agent.get_value(next_obs, state, next_episode_starts, next_prev_action)
            advantages, returns = compute_gae(
                rewards, values, terminations, truncations, final_values, next_value.flatten(),
                args.gamma, args.gae_lambda,
            )

            # Sequences: (T, N, ...) -> (seq_len, S, ...), each env's rollout cut into seq_len steps
            b_obs, b_starts, b_actions, b_prev_actions, b_logprobs, b_advantages, b_returns = (
                to_seqs(x, seq_len)
                for x in (obs, episode_starts, actions, prev_actions, logprobs, advantages, returns)
            )
            b_values, b_masks = to_seqs(values, seq_len), to_seqs(action_masks, seq_len)
            # (K, num_rnns, N, hidden) -> (num_rnns, K * N, hidden), in the same sequence order
            b_states = [s.transpose(0, 1).reshape(s.shape[1], -1, s.shape[3]) for s in seq_states]
            num_seqs, mb_seqs = b_obs.shape[1], b_obs.shape[1] // args.num_minibatches
            clipfracs, first_ratio_error = [], None
            for _ in range(args.update_epochs):
                order = torch.randperm(num_seqs, device=device)
                for begin in range(0, num_seqs, mb_seqs):
                    mb = order[begin : begin + mb_seqs]
                    _, newlogprob, entropy, newvalue, _ = agent.get_action_and_value(
                        take(b_obs, mb), tuple(s[:, mb] for s in b_states), take(b_starts, mb),
                        take(b_actions, mb), prev_action=take(b_prev_actions, mb),
                        action_mask=take(b_masks, mb) if masked else None,
                    )
                    logratio = newlogprob - take(b_logprobs, mb)
                    ratio = logratio.exp()
                    with torch.no_grad():
                        old_approx_kl = (-logratio).mean()
                        approx_kl = ((ratio - 1) - logratio).mean()
                        clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]
                        if first_ratio_error is None:  # the replay reproduces the rollout: ratio 1
                            first_ratio_error = (ratio - 1.0).abs().max().item()
                    loss, pg_loss, v_loss, entropy_loss = ppo_loss(
                        ratio, take(b_advantages, mb), newvalue.view(-1), take(b_values, mb),
                        take(b_returns, mb), entropy, clip_coef, args,
                    )
                    if not torch.isfinite(loss):
                        raise NonFinite("loss")
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                    optimizer.step()

                if args.target_kl is not None and approx_kl > args.target_kl:
                    break
            if not torch.stack([p.isfinite().all() for p in agent.parameters()]).all():
                raise NonFinite("weights")
            last_good = training_state(agent, optimizer, obs_rms, return_rms, args, global_step, iteration)
            for at, episodic_return, length in episodes:  # logged with the update they lead to, once kept
                writer.add_scalar("charts/episodic_return", episodic_return, at)
                writer.add_scalar("charts/episodic_length", length, at)

            y_pred, y_true = b_values.flatten().cpu().numpy(), b_returns.flatten().cpu().numpy()
            var_y = np.var(y_true)
            sps = int((global_step - start_step) / (time.time() - start_time))
            explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
            scalars = {"charts/learning_rate": optimizer.param_groups[0]["lr"], "charts/SPS": sps,
                       "charts/clip_coef": clip_coef, "losses/value_loss": v_loss.item(),
                       "losses/policy_loss": pg_loss.item(), "losses/entropy": entropy_loss.item(),
                       "losses/old_approx_kl": old_approx_kl.item(), "losses/approx_kl": approx_kl.item(),
                       "losses/clipfrac": np.mean(clipfracs), "losses/explained_variance": explained_var,
                       "losses/first_ratio_error": first_ratio_error}
            for key, value in scalars.items():
                writer.add_scalar(key, value, global_step)
            recent = f"{np.mean(recent_returns):.1f}" if recent_returns else "n/a"
            print(f"update {iteration}/{last_iteration}  global_step {global_step}  SPS {sps}  return {recent}")

        train_time = time.time() - start_time
        checkpoint_path = save(last_good, run_dir, args)
        if args.export_onnx:
            export_onnx(agent, obs_rms, args, envs)
        where = "in the evaluation after global step"
        eval_returns = evaluate(agent, args, device, run_name, obs_rms, masked)
    except (KeyboardInterrupt, Exception) as stop:  # Ctrl-C, SIGTERM, a non-finite value, an error
        path = save(last_good, run_dir, args)
        close_run(writer, envs, args, previous_handler, exit_code(stop))
        say_why_stopped(stop, f"{where} {global_step}", iteration, last_good, path)
        raise  # an error as it came, its traceback after the line above
    if eval_returns:
        writer.add_scalar("eval/mean_return", np.mean(eval_returns), global_step)
    close_run(writer, envs, args, previous_handler, 0)
    trained = global_step - start_step
    return write_summary(args, run_dir, global_step, trained, train_time, recent_returns, eval_returns,
                         checkpoint_path, masked)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stop_as_ctrl_c)  # from the first moment, SIGTERM is Ctrl-C
    try:
        main(tyro.cli(Args))
    except KeyboardInterrupt:  # while the run starts (main answers it once training has begun)
        print(f"{SCRIPT}: interrupted before training began: nothing to keep", file=sys.stderr)
        raise SystemExit(130) from None
