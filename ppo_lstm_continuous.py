# PPO + LSTM for continuous actions and vector observations, one self-contained file.
# python ppo_lstm_continuous.py --env-id PendulumNoVel-v1
import copy
import difflib
import json
import math
import os
import random
import signal
import sys
import threading
import time
from dataclasses import asdict, dataclass
from functools import partial

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import tyro
from torch.utils.tensorboard import SummaryWriter

SCRIPT = "ppo_lstm_continuous.py"


@dataclass
class Args:
    exp_name: str = "ppo_lstm_continuous"
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
    """if toggled, videos of the evaluation episodes are saved under `videos/{run_name}`"""
    save_model: bool = False
    """if toggled, a checkpoint is written to `runs/{run_name}/{exp_name}.pt` at the end (and on Ctrl-C)"""
    resume: str | None = None
    """path of a checkpoint to continue training from"""
    eval_checkpoint: str | None = None
    """path of a checkpoint to evaluate only (no training)"""
    eval_episodes: int = 10
    """episodes of the final evaluation (0 skips it)"""
    eval_sample: bool = False
    """evaluate the policy as sampled (with the exploration noise of --noise-corr) instead of its mean action"""

    # Algorithm specific arguments
    env_id: str = "PendulumNoVel-v1"
    """the id of the environment (`module:EnvId` imports the module first)"""
    total_timesteps: int = 150_000
    """total timesteps of the experiment"""
    learning_rate: float = 2e-3
    """the learning rate of the optimizer"""
    num_envs: int = 8
    """the number of parallel game environments"""
    num_steps: int = 128
    """the number of steps to run in each environment per policy rollout"""
    anneal_lr: bool = True
    """toggle learning rate annealing"""
    gamma: float = 0.9
    """the discount factor gamma"""
    final_gamma: float | None = 0.98
    """the discount rises linearly in the global step from --gamma to this at --total-timesteps (a --gamma at or above
    it stays as given; None: --gamma throughout)"""
    gae_lambda: float = 0.95
    """the lambda for the general advantage estimation"""
    num_minibatches: int = 4
    """the number of mini-batches"""
    update_epochs: int = 10
    """the K epochs to update the policy"""
    norm_adv: bool = True
    """toggles advantages normalization"""
    clip_coef: float = 0.1
    """the surrogate clipping coefficient (the value clip's too)"""
    anneal_clip: bool = False
    """anneal the clipping coefficient to 0 with the learning rate (steadies the late updates)"""
    clip_vloss: bool = True
    """toggles whether or not to use a clipped loss for the value function"""
    ent_coef: float = 0.02
    """coefficient of the entropy (keeps the log-std from collapsing once the pendulum is swung up)"""
    vf_coef: float = 0.5
    """coefficient of the value function"""
    max_grad_norm: float = 0.5
    """the maximum norm for the gradient clipping"""
    target_kl: float | None = None
    """the target KL divergence threshold"""
    train_time_limit: float = 0.5
    """training episodes end at this fraction of the env's time limit (a truncation, bootstrapped from the value of
    the state reached, so the return learned is the same), for twice the episode starts per step at 0.5; evaluation
    plays whole episodes (1: the env's own limit)"""
    norm_obs: bool = True
    """normalise observations with running statistics (saved in the checkpoint, frozen in evaluation)"""
    # a policy whose inputs are still being rescaled once its learning rate has annealed can lose what it learned
    norm_obs_until: float = 0.3
    """the observation statistics stop updating at this fraction of --total-timesteps (1: never)"""
    norm_reward: bool = True
    """scale rewards by the running standard deviation of the discounted return"""
    reward_floor: float | None = None
    """raise training rewards below this value to it (off by default; -1 lets BipedalWalker-v3 learn to walk)"""
    init_logstd: float = -0.5
    """initial log standard deviation of the Gaussian policy"""
    noise_corr: float = 0.5
    """correlation of the exploration noise between consecutive steps of an episode (0: drawn anew each step;
    0.95 lets MountainCarContinuousNoVel-v0 find the flag); the Gaussian and its logprob stay as they are"""

    # Recurrence
    rnn_hidden_size: int = 64
    """width of the LSTM state"""
    seq_len: int = 0
    """truncated-BPTT length; 0 means each env's whole rollout is one sequence (minibatching by env)"""
    reset_state_on_done: bool = True
    """zero the recurrent state where a new episode starts"""
    shared_lstm: bool = True
    """the critic reads the actor's LSTM (as CleanRL; on PendulumNoVel-v1 it learned as well as with its own and made a
    third more steps per second) instead of having its own (as sb3-contrib; --no-shared-lstm)"""


def fail(message: str) -> None:
    """One line for the user, exit code 2, no traceback."""
    print(f"{SCRIPT}: error: {message}", file=sys.stderr)
    raise SystemExit(2)


class NonFinite(Exception):
    """A non-finite observation, loss or weight: the run stops with one line and keeps its last good update."""


# Environments: masked-velocity ids, as rl-baselines3-zoo (velocity entries zeroed, shape kept)
NOVEL_ENVS = {  # id -> (base id, make kwargs, observation mask: 0 where an entry is a velocity)
    "PendulumNoVel-v1": ("Pendulum-v1", {}, [1, 1, 0]),
    "MountainCarContinuousNoVel-v0": ("MountainCarContinuous-v0", {}, [1, 0]),
    "LunarLanderContinuousNoVel-v3": ("LunarLander-v3", {"continuous": True}, [1, 1, 0, 0, 1, 0, 1, 1]),
}


def make_masked_env(base_id: str, base_kwargs: dict, mask: list[int], **kwargs) -> gym.Env:
    env = gym.make(base_id, **base_kwargs, **kwargs)
    keep = np.array(mask, dtype=np.float32)
    return gym.wrappers.TransformObservation(env, lambda obs: obs * keep, env.observation_space)


for _id, (_base, _kwargs, _mask) in NOVEL_ENVS.items():
    gym.register(_id, entry_point=partial(make_masked_env, _base, _kwargs, _mask))
OWN_ENV_IDS = list(NOVEL_ENVS)


class FlatObservation(gym.ObservationWrapper):
    """Observations as one vector in gymnasium's flatten order: Box parts flattened, Discrete parts one-hot,
    MultiDiscrete parts concatenated one-hots, MultiBinary parts as they are, the parts of a Tuple or Dict one after
    another (a Dict's in its key order). A Dict's text parts (MiniGrid's mission) are left out."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        space = env.observation_space
        self.keys = None
        if isinstance(space, gym.spaces.Dict):
            self.keys = [key for key, part in space.spaces.items() if not is_text(part)]
            space = gym.spaces.Dict([(key, space[key]) for key in self.keys])  # a sequence keeps the order as it is
        self.parts = space
        self.box_entries = box_entries(space)  # (flatdim,) True where a Box part lies: only those are normalised
        self.observation_space = gym.spaces.flatten_space(space)

    def observation(self, obs):
        if self.keys is not None:
            obs = {key: obs[key] for key in self.keys}
        return gym.spaces.flatten(self.parts, obs)


def box_entries(space: gym.spaces.Space) -> np.ndarray:
    """Which entries of the flattened observation come from Box parts; ValueError for a space with no fixed vector."""
    if isinstance(space, gym.spaces.Box):
        return np.ones(gym.spaces.flatdim(space), dtype=bool)
    if isinstance(space, gym.spaces.Discrete | gym.spaces.MultiDiscrete | gym.spaces.MultiBinary):
        return np.zeros(gym.spaces.flatdim(space), dtype=bool)
    if isinstance(space, gym.spaces.Tuple | gym.spaces.Dict):
        parts = space.spaces.values() if isinstance(space, gym.spaces.Dict) else space.spaces
        return np.concatenate([box_entries(part) for part in parts])
    raise ValueError(f"{space} has no fixed-size vector form")


def is_vector(space: gym.spaces.Space) -> bool:
    return isinstance(space, gym.spaces.Box) and len(space.shape) == 1


def is_text(space: gym.spaces.Space) -> bool:  # gymnasium's Text, MiniGrid's MissionSpace: spaces of strings
    return space.dtype is not None and np.dtype(space.dtype).kind == "U"


def cut_length(env: gym.Env, time_limit: float) -> int | None:
    """The length of the training episodes under --train-time-limit; None where they stay whole (the fraction 1, or
    an env that declares no time limit)."""
    limit = env.spec.max_episode_steps if env.spec else None
    return max(1, round(time_limit * limit)) if time_limit < 1 and limit else None


def make_env(env_id: str, render_mode: str | None = None, flatten: bool = True, time_limit: float = 1.0):
    def thunk():
        # render_mode is passed only when something renders: third-party envs may not take the argument
        env = gym.make(env_id, render_mode=render_mode) if render_mode else gym.make(env_id)
        cut = cut_length(env, time_limit)
        env = FlatObservation(env) if flatten and not is_vector(env.observation_space) else env
        return env if cut is None else gym.wrappers.TimeLimit(env, cut)  # outside the env's own, it ends them first

    return thunk


def check_env(args: Args) -> np.ndarray:
    """Make one env as training (and, with --capture-video, evaluation) will, and answer any problem in one line;
    returns which entries of the flattened observation come from Box parts."""
    module, _, name = args.env_id.rpartition(":")  # `module:EnvId`: gym.make imports the module, so any id it takes works
    if not name or (":" in args.env_id and not module):
        fail(f"env id '{args.env_id}' is malformed: give EnvId, or MODULE:EnvId to import MODULE first")
    try:
        env = make_env(args.env_id, "rgb_array" if args.capture_video else None, flatten=False)()
    except gym.error.DependencyNotInstalled as error:
        fail(f"env '{args.env_id}' needs a package that is not installed: {str(error).splitlines()[0]}")
    except gym.error.DeprecatedEnv as error:  # gymnasium's line names the version to use
        fail(f"env id '{args.env_id}' is deprecated: {error}")
    except gym.error.UnregisteredEnv:
        # with the module named, each close match is given as an id to pass as it is
        close = [f"{module}:{m}" if module else m for m in difflib.get_close_matches(name, list(gym.registry), n=3)]
        elsewhere = "" if module else "; an id that a package registers when imported is named with it: MODULE:EnvId"
        fail(f"unknown env id '{args.env_id}'; close matches: {close or 'none'}; this script's own ids: {OWN_ENV_IDS}"
             + elsewhere)  # fmt: skip
    except ModuleNotFoundError as error:
        missing = (error.__cause__ or error).name  # gym.make re-raises the prefix's import error with its own message
        what = f"module '{module}' of" if module and missing and module.startswith(missing) else "a module needed by"
        fail(f"cannot import {what} env '{args.env_id}': No module named '{missing}'")
    except TypeError as error:
        if args.capture_video:
            fail(f"--capture-video: env '{args.env_id}' takes no render_mode ({error})")
        fail(f"env '{args.env_id}' cannot be made as gym.make('{args.env_id}'): {error}")
    except gym.error.Error as error:  # a malformed id, say: gymnasium's own line
        fail(f"env id '{args.env_id}': {error}")
    if args.capture_video and "rgb_array" not in env.metadata.get("render_modes", []):
        modes = env.metadata.get("render_modes")
        fail(f"--capture-video: env '{args.env_id}' cannot render frames (its render modes: {modes})")
    obs_space, act_space = env.observation_space, env.action_space
    try:
        entries = np.ones(obs_space.shape[0], dtype=bool) if is_vector(obs_space) else FlatObservation(env).box_entries
    except ValueError as error:
        fail(f"{SCRIPT} cannot make a vector of the observations: {error}; it takes Box, Discrete, MultiDiscrete, "
             f"MultiBinary, and Tuple or Dict of these")  # fmt: skip
    env.close()
    if len(entries) > 4096 and isinstance(obs_space, gym.spaces.Box) and len(obs_space.shape) == 3:
        fail(f"{SCRIPT} takes vector observations, not images such as {obs_space}; ppo_gru_atari.py takes Atari games")
    if not isinstance(act_space, gym.spaces.Box) or len(act_space.shape) != 1:
        fail(f"{SCRIPT} handles 1-D Box actions, not {act_space}; use ppo_lstm.py for Discrete actions")
    # notices come after every check, so that an env this script cannot take is answered in one line alone
    text = [key for key, part in obs_space.items() if is_text(part)] if isinstance(obs_space, gym.spaces.Dict) else []
    if text:
        print(f"{SCRIPT}: the observation's text parts {text} are left out (a policy reads numbers)")
    cut = cut_length(env, args.train_time_limit)
    if args.train_time_limit < 1 and not args.eval_checkpoint:  # a checkpoint's evaluation alone trains nothing
        print(f"{SCRIPT}: env '{args.env_id}' declares no time limit; --train-time-limit leaves its episodes whole"
              if cut is None else f"{SCRIPT}: training episodes end at {cut} of the env's {env.spec.max_episode_steps} "
              f"steps, bootstrapped (--train-time-limit {args.train_time_limit}; 1 plays them whole); evaluation plays "
              "them whole")  # fmt: skip
    return entries


class RunningMeanStd:
    """Running mean and variance over batches (the parallel algorithm of Chan et al.)."""

    def __init__(self, shape: tuple = (), normalized: np.ndarray | None = None):
        self.mean, self.var, self.count = np.zeros(shape), np.ones(shape), 1e-4
        self.normalized = np.ones(shape, dtype=bool) if normalized is None else normalized  # what normalize() changes

    def update(self, x: np.ndarray) -> None:
        delta, n = x.mean(0) - self.mean, x.shape[0]
        total = self.count + n
        self.mean = self.mean + delta * n / total
        self.var = (self.var * self.count + x.var(0) * n + delta**2 * self.count * n / total) / total
        self.count = total

    def normalize(self, x: np.ndarray) -> np.ndarray:
        return np.where(self.normalized, np.clip((x - self.mean) / np.sqrt(self.var + 1e-8), -10.0, 10.0), x)


def layer_init(layer: nn.Module, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Module:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    """LSTM over raw observations, then MLP heads; the policy is a Gaussian with a state-independent
    log-std. The state is an (h, c) tuple, each shaped (num_lstms, N, hidden): slice 0 belongs to the
    actor's LSTM, slice 1 (unless shared) to the critic's."""

    def __init__(self, envs: gym.vector.VectorEnv, args: Args):
        super().__init__()
        obs_dim, hidden = envs.single_observation_space.shape[0], args.rnn_hidden_size
        self.lstm = nn.LSTM(obs_dim, hidden)
        self.critic_lstm = None if args.shared_lstm else nn.LSTM(obs_dim, hidden)
        for lstm in filter(None, [self.lstm, self.critic_lstm]):
            for name, param in lstm.named_parameters():
                if "bias" in name:
                    nn.init.constant_(param, 0)
                elif "weight" in name:
                    nn.init.orthogonal_(param, 1.0)
        action_dim = envs.single_action_space.shape[0]
        self.actor_mean = nn.Sequential(
            layer_init(nn.Linear(hidden, 64)), nn.Tanh(), layer_init(nn.Linear(64, action_dim), std=0.01)
        )
        self.actor_logstd = nn.Parameter(torch.full((1, action_dim), args.init_logstd))  # one learned log-std per action
        self.critic = nn.Sequential(layer_init(nn.Linear(hidden, 64)), nn.Tanh(), layer_init(nn.Linear(64, 1), std=1.0))
        self.reset_state_on_done = args.reset_state_on_done

    def get_initial_state(self, num_envs: int) -> tuple[torch.Tensor, torch.Tensor]:
        num_lstms = 1 if self.critic_lstm is None else 2
        zeros = torch.zeros(num_lstms, num_envs, self.lstm.hidden_size, device=self.lstm.weight_hh_l0.device)
        return zeros, zeros.clone()

    def _unroll_stepwise(self, lstms, x, state, episode_starts):
        # reference path: one step at a time, each LSTM a fused cell (on CPU a third of a one-step nn.LSTM call), the
        # state ((num_lstms, N, hidden) each) zeroed before each episode's first step
        h, c = state
        outputs = []
        for t in range(x.shape[0]):
            keep = (1.0 - episode_starts[t]).view(1, -1, 1)
            h, c = h * keep, c * keep
            cells = [torch.lstm_cell(x[t], (h[i], c[i]), lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0,
                                     lstm.bias_hh_l0) for i, lstm in enumerate(lstms)]  # fmt: skip
            h, c = torch.stack([cell[0] for cell in cells]), torch.stack([cell[1] for cell in cells])
            outputs.append(h)
        return torch.stack(outputs, 1), (h, c)  # (num_lstms, T, N, hidden), the final state

    def _unroll_padded(self, lstms, x, state, episode_starts):
        # fast path: cut every env's sequence where an episode starts and run all the pieces, right-padded,
        # in one fused call per LSTM (one call costs about as much as a few steps on CPU); the LSTMs share the
        # layout. A piece that opens an episode starts from zeros, each env's first piece from its carried state.
        # Padding runs on past a short piece's end, so no final state is returned: this path serves the training
        # update only
        T, B = episode_starts.shape
        piece_begins = episode_starts.bool().T.clone()  # (T, B) -> (B, T): env-major, each piece contiguous
        piece_begins[:, 0] = True
        piece_begins = piece_begins.reshape(-1)
        piece = piece_begins.cumsum(0) - 1  # (B * T,) piece id of every step
        first = piece_begins.nonzero().squeeze(1)  # (P,) flat index of each piece's first step
        pos = torch.arange(B * T, device=x.device) - first[piece]  # step index inside its piece
        padded = x.new_zeros(int(pos.max()) + 1, len(first), x.shape[2])  # (max_len, P, obs_dim)
        padded[pos, piece] = x.transpose(0, 1).reshape(B * T, -1)
        env_first = piece[torch.arange(B, device=x.device) * T]
        keep = (1.0 - episode_starts[0]).view(1, -1, 1)
        h0 = x.new_zeros(len(lstms), len(first), state[0].shape[2])
        c0 = h0.clone()
        h0[:, env_first] = state[0] * keep
        c0[:, env_first] = state[1] * keep
        outputs = [lstm(padded, (h0[i : i + 1], c0[i : i + 1]))[0] for i, lstm in enumerate(lstms)]
        return [out[pos, piece].view(B, T, -1).transpose(0, 1) for out in outputs]  # (T, B, hidden) each

    def _unroll(self, lstms, obs, state, episode_starts, need_state=True):
        # obs (T * N, obs_dim) time-major -> one hidden (T * N, hidden) per LSTM, lstms[i] starting from slice i of
        # the state; episode_starts marks each episode's first step
        N = state[0].shape[1]
        x = obs.view(-1, N, obs.shape[-1])
        episode_starts = episode_starts.view(-1, N)
        if self.reset_state_on_done and x.shape[0] > 1 and not need_state:
            outputs, new_state = self._unroll_padded(lstms, x, state, episode_starts), None
        elif self.reset_state_on_done:
            outputs, new_state = self._unroll_stepwise(lstms, x, state, episode_starts)
        else:  # the state runs on across episode starts
            runs = [lstm(x, (state[0][i : i + 1], state[1][i : i + 1])) for i, lstm in enumerate(lstms)]
            outputs = [out for out, _ in runs]
            new_state = torch.cat([h for _, (h, _) in runs]), torch.cat([c for _, (_, c) in runs])
        return [out.reshape(-1, out.shape[-1]) for out in outputs], new_state if need_state else None

    def get_value(self, obs, state, episode_starts):
        critic_lstm = self.lstm if self.critic_lstm is None else self.critic_lstm  # its own, or the shared one
        critic_state = (state[0][-1:], state[1][-1:])
        return self.critic(self._unroll([critic_lstm], obs, critic_state, episode_starts, False)[0][0])

    def get_action_and_value(self, obs, state, episode_starts, action=None, deterministic=False, need_state=True, noise=None):
        # need_state=False (the training update) returns None for the new state and lets T > 1 steps take the fast path;
        # noise (N, action_dim), standard normal, sets the sample instead of a fresh draw: mean + std * noise
        lstms = [self.lstm] if self.critic_lstm is None else [self.lstm, self.critic_lstm]
        hiddens, new_state = self._unroll(lstms, obs, state, episode_starts, need_state)
        hidden, critic_hidden = hiddens[0], hiddens[-1]
        action_mean = self.actor_mean(hidden)
        std = self.actor_logstd.expand_as(action_mean).exp()
        if action is None and deterministic:
            action = action_mean
        elif action is None and noise is not None:  # unclipped: the env boundary clips, the logprob is of the sample
            action = action_mean + std * noise
        action, logprob, entropy = gaussian(action_mean, std, action)
        return action, logprob, entropy, self.critic(critic_hidden), new_state


def gaussian(mean: torch.Tensor, std: torch.Tensor, action: torch.Tensor | None = None) -> tuple:
    """The action (sampled, or the one given), its log-probability and the entropy of a diagonal Gaussian, both summed
    over the action dims: torch's Normal(mean, std) bit for bit, samples included, without its per-call overhead (2%
    of a PendulumNoVel-v1 run on CPU). The training loop reports non-finite values, so nothing is validated here."""
    if action is None:
        with torch.no_grad():
            action = torch.normal(mean, std)
    # std.log() taken twice, as Normal takes it: one shared log would sum the gradients in another order
    logprob = -((action - mean) ** 2) / (2 * std**2) - std.log() - math.log(math.sqrt(2 * math.pi))
    entropy = 0.5 + 0.5 * math.log(2 * math.pi) + std.log()
    return action, logprob.sum(1), entropy.sum(1)


def correlated_noise(noise: torch.Tensor, episode_starts: torch.Tensor, corr: float) -> torch.Tensor:
    """The next step's exploration noise, (N, action_dim): an AR(1) process whose every step is N(0, 1), so that
    each sample still comes from the policy's Gaussian; it is drawn afresh where an episode starts."""
    if corr == 0.0:  # independent noise: the same draw without the arithmetic
        return torch.randn_like(noise)
    keep = corr * (1.0 - episode_starts).view(-1, 1)
    return keep * noise + torch.sqrt(1.0 - keep**2) * torch.randn_like(noise)


def compute_gae(rewards, values, terminations, truncations, final_values, next_value, gamma, gae_lambda):
    """Advantages for (T, N) tensors. Step t ends an episode when terminated or truncated; a
    truncated step is bootstrapped from the value of its final observation, a terminated one is not."""
    advantages = torch.zeros_like(rewards)
    lastgaelam = 0.0
    for t in reversed(range(rewards.shape[0])):
        ended = torch.maximum(terminations[t], truncations[t])
        following = next_value if t == rewards.shape[0] - 1 else values[t + 1]
        bootstrap = torch.where(ended.bool(), final_values[t] * (1.0 - terminations[t]), following)
        delta = rewards[t] + gamma * bootstrap - values[t]
        lastgaelam = delta + gamma * gae_lambda * (1.0 - ended) * lastgaelam
        advantages[t] = lastgaelam
    return advantages, advantages + values


def ppo_loss(ratio, advantages, newvalue, values, returns, entropy, clip_coef: float, args: Args) -> tuple:
    """One minibatch's PPO objective, to minimise, from 1-D tensors of its samples: the clipped surrogate of the
    advantages (normalised over the minibatch with --norm-adv), the value loss (with --clip-vloss the worse of the
    new value and the new value kept within clip_coef of the rollout's `values`) and the entropy bonus.
    Returns (loss, pg_loss, v_loss, entropy_loss)."""
    if args.norm_adv:
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()

    if args.clip_vloss:
        v_loss_unclipped = (newvalue - returns) ** 2
        v_clipped = values + torch.clamp(newvalue - values, -clip_coef, clip_coef)
        v_loss_max = torch.max(v_loss_unclipped, (v_clipped - returns) ** 2)
        v_loss = 0.5 * v_loss_max.mean()
    else:
        v_loss = 0.5 * ((newvalue - returns) ** 2).mean()

    entropy_loss = entropy.mean()
    loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef
    return loss, pg_loss, v_loss, entropy_loss


def prepare(obs: np.ndarray, obs_rms: RunningMeanStd, args: Args, device, update: bool = False) -> torch.Tensor:
    """Raw env observations -> the agent's input, for the rollout and the evaluation alike: checked finite, then
    normalised with the running statistics (updated where `update`, frozen elsewhere)."""
    if not np.isfinite(obs).all():
        raise NonFinite("observation")
    if args.norm_obs:
        if update:
            obs_rms.update(obs)
        obs = obs_rms.normalize(obs)
    return torch.as_tensor(obs, dtype=torch.float32, device=device)


def evaluate(agent: Agent, args: Args, device: torch.device, run_name: str, obs_rms: RunningMeanStd) -> list[float]:
    """Full episodes on a fresh env, the mean action (or, with --eval-sample, a sample drawn as in training), the
    state carried within and reset between episodes; observations are normalised with the training statistics, frozen."""
    env = make_env(args.env_id, "rgb_array" if args.capture_video else None)()
    if args.capture_video:
        env = gym.wrappers.RecordVideo(env, f"videos/{run_name}", episode_trigger=lambda e: True, disable_logger=True)
    returns = []
    with env:  # closed however the evaluation ends, an error or Ctrl-C included (and with it the video)
        for episode in range(args.eval_episodes):
            obs, _ = env.reset(seed=args.seed + 100_000 if episode == 0 else None)  # seeded once: a fixed set of episodes
            state = agent.get_initial_state(1)  # zeros: every episode starts afresh
            episode_start = torch.ones(1, device=device)
            noise = torch.zeros((1,) + env.action_space.shape, device=device)
            episode_return, ended = 0.0, False
            while not ended:
                if args.eval_sample:  # the exploration noise of training, drawn afresh with each episode
                    noise = correlated_noise(noise, episode_start, args.noise_corr)
                with torch.inference_mode():
                    obs_t = prepare(obs[None], obs_rms, args, device)
                    action, _, _, _, state = agent.get_action_and_value(
                        obs_t, state, episode_start, deterministic=not args.eval_sample, noise=noise
                    )
                action = np.clip(action[0].cpu().numpy(), env.action_space.low, env.action_space.high)
                obs, reward, terminated, truncated, _ = env.step(action)
                episode_return += float(reward)
                ended = terminated or truncated
                episode_start = torch.zeros(1, device=device)
            returns.append(episode_return)
    return returns


def check_args(args: Args) -> None:
    for name in ["total_timesteps", "num_envs", "num_steps", "num_minibatches", "update_epochs", "rnn_hidden_size"]:
        if getattr(args, name) <= 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    if not args.learning_rate > 0:
        fail(f"--learning-rate must be positive, got {args.learning_rate}")
    for name in ["gamma", "final_gamma", "gae_lambda"]:
        value = getattr(args, name)
        if value is not None and not 0.0 <= value <= 1.0:
            fail(f"--{name.replace('_', '-')} must be from 0 to 1, got {value}")
    for name in ["clip_coef", "max_grad_norm", "target_kl"]:
        value = getattr(args, name)
        if value is not None and not value > 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {value}")
    if not 0.0 <= args.norm_obs_until <= 1.0:
        fail(f"--norm-obs-until is a fraction of --total-timesteps, from 0 to 1, got {args.norm_obs_until}")
    if not 0.0 < args.train_time_limit <= 1.0:
        fail(f"--train-time-limit is a fraction of the env's time limit, above 0 and at most 1, got {args.train_time_limit}")
    if not 0.0 <= args.noise_corr < 1.0:
        fail(f"--noise-corr must be in [0, 1), got {args.noise_corr}")
    if args.seq_len < 0 or args.eval_episodes < 0:
        fail("--seq-len and --eval-episodes must not be negative")
    if args.seq_len > args.num_steps:
        fail(f"--seq-len {args.seq_len} is larger than --num-steps {args.num_steps}")
    seq_len = args.seq_len or args.num_steps
    if args.num_steps % seq_len:
        fail(f"--seq-len {seq_len} must divide --num-steps {args.num_steps}")
    num_sequences = args.num_envs * (args.num_steps // seq_len)
    if num_sequences % args.num_minibatches:
        fail(f"{num_sequences} sequences of {seq_len} steps do not split into {args.num_minibatches} minibatches")
    if args.norm_adv and num_sequences // args.num_minibatches * seq_len == 1:
        fail("a minibatch of one step cannot normalise its advantages: use fewer minibatches or --no-norm-adv")
    if args.total_timesteps < args.num_envs * args.num_steps and not args.eval_checkpoint:
        fail(f"--total-timesteps {args.total_timesteps} is less than one rollout ({args.num_envs * args.num_steps})")


def load_checkpoint(path: str, env_id: str) -> dict:
    if os.path.isdir(path):
        fail(f"checkpoint '{path}' is a directory, not a checkpoint file")
    if not os.path.isfile(path):
        fail(f"checkpoint '{path}' does not exist")
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as error:  # noqa: BLE001 - any unreadable file is reported the same way
        fail(f"checkpoint '{path}' is corrupt or not a checkpoint ({type(error).__name__})")
    if not isinstance(checkpoint, dict) or checkpoint.get("script") != SCRIPT:
        fail(f"checkpoint '{path}' was not written by {SCRIPT}")
    if checkpoint["env_id"] != env_id:
        fail(f"checkpoint '{path}' is for env '{checkpoint['env_id']}', not '{env_id}'")
    return checkpoint


# what a checkpoint decides, whatever the command line says: the network's shape and the observation pipeline
CHECKPOINT_ARGS = ["rnn_hidden_size", "shared_lstm", "norm_obs", "norm_reward"]


def take_args_from_checkpoint(args: Args, checkpoint: dict) -> None:
    for key in CHECKPOINT_ARGS:
        value = checkpoint["args"][key]
        if getattr(args, key) != value:
            print(f"{key} = {value}, as the checkpoint was trained")
            setattr(args, key, value)


def stop_as_ctrl_c(signum, frame):
    raise KeyboardInterrupt


def on_sigterm(handler) -> None:
    """Sets SIGTERM's handler where Python allows it, in the main thread; a run in another thread (a sweep agent's, say)
    leaves SIGTERM as it is."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)


def make_run_dir(args: Args) -> tuple[str, str]:
    prefix = f"{args.env_id.replace(':', '_')}__{args.exp_name}__{args.seed}"
    stamp = int(time.time())
    while True:  # the folder is claimed here, atomically: two runs started in the same second must not share one
        run_name = f"{prefix}__{stamp}"
        try:
            os.makedirs(os.path.join("runs", run_name))
            return run_name, os.path.join("runs", run_name)
        except FileExistsError:
            stamp += 1


def training_state(agent, optimizer, obs_rms, return_rms, args: Args, global_step: int, iteration: int) -> dict | None:
    """Everything a checkpoint holds, copied: taken after every completed update, so that Ctrl-C or a non-finite
    value saves the last good weights with the global step they reached, never a half-done update. None without
    --save-model, as nothing would write it (the copy took about 1 ms per update of ppo_lstm.py on CPU)."""
    if not args.save_model:
        return None
    return copy.deepcopy({"script": SCRIPT, "env_id": args.env_id, "args": asdict(args), "model": agent.state_dict(),
                          "optimizer": optimizer.state_dict(), "obs_rms": vars(obs_rms), "return_rms": vars(return_rms),
                          "global_step": global_step, "iteration": iteration})  # fmt: skip


def save(state: dict | None, run_dir: str, args: Args) -> str | None:
    if state is None:
        return None
    path = os.path.join(run_dir, f"{args.exp_name}.pt")
    torch.save(state, path)
    return path


def close_run(writer: SummaryWriter, envs: gym.vector.VectorEnv, args: Args, sigterm_handler, exit_code: int) -> None:
    """Closes what a stopped run opened, its logs whole."""
    on_sigterm(sigterm_handler)
    writer.close()
    envs.close()
    if args.track:
        import wandb

        wandb.finish(exit_code=exit_code)


def to_seqs(x: torch.Tensor, seq_len: int) -> torch.Tensor:
    """(T, N, ...) -> (seq_len, S, ...) with S = T / seq_len * N: sequence k * N + n is env n's k-th piece."""
    num_envs, rest = x.shape[1], x.shape[2:]
    return x.view(-1, seq_len, num_envs, *rest).transpose(0, 1).reshape(seq_len, -1, *rest)


def take(x: torch.Tensor, seqs: torch.Tensor) -> torch.Tensor:
    """(seq_len, S, ...) -> (seq_len * M, ...) for M sequences, time-major as the Agent expects."""
    return x[:, seqs].reshape(-1, *x.shape[2:])


def main(args: Args) -> dict:
    check_args(args)
    checkpoint_file = args.resume or args.eval_checkpoint
    checkpoint = load_checkpoint(checkpoint_file, args.env_id) if checkpoint_file else None
    if checkpoint is not None:
        take_args_from_checkpoint(args, checkpoint)
    if args.resume and checkpoint["global_step"] > args.total_timesteps:
        step = checkpoint["global_step"]
        fail(f"--total-timesteps {args.total_timesteps} is below the checkpoint's global step {step}: nothing to train")
    box_parts = check_env(args)
    seq_len = args.seq_len or args.num_steps
    batch_size = args.num_envs * args.num_steps
    # training runs whole rollouts up to total_timesteps, counted by global step, so a resumed run may change the batch
    schedule_steps = args.total_timesteps // batch_size * batch_size
    rising_gamma = args.final_gamma is not None and args.final_gamma > args.gamma  # never lowers the discount given
    run_name, run_dir = make_run_dir(args)

    # Seeding
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = args.torch_deterministic
    # float32 stays float32 on a GPU: cuDNN's TF32 default for convolutions and RNNs put the replay's ratio 1e-4 off 1
    torch.backends.cudnn.conv.fp32_precision = torch.backends.cudnn.rnn.fp32_precision = "ieee"
    torch.backends.cuda.matmul.fp32_precision = "ieee"
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(1)  # more threads fight the env loop for 2 cores and slow small LSTMs down

    # Environments: same-step autoreset, so no dummy transition follows an episode's end
    envs = gym.vector.SyncVectorEnv(
        [make_env(args.env_id, time_limit=args.train_time_limit) for _ in range(args.num_envs)],
        autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
    )
    agent = Agent(envs, args).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)  # one kernel for all params
    # observation normalisation touches the entries that come from Box parts: one-hots stay 0 and 1
    obs_rms, return_rms = RunningMeanStd(envs.single_observation_space.shape, box_parts), RunningMeanStd()
    global_step, iteration = 0, 0
    if checkpoint is not None:
        agent.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        obs_rms.__dict__.update(checkpoint["obs_rms"])
        return_rms.__dict__.update(checkpoint["return_rms"])
        global_step, iteration = checkpoint["global_step"], checkpoint["iteration"]
    num_updates = 0 if args.eval_checkpoint else max(0, (args.total_timesteps - global_step) // batch_size)
    first_iteration, last_iteration = iteration + 1, iteration + num_updates

    # wandb.init first: sync_tensorboard mirrors the scalars of the writers made after it, and of no other
    if args.track:
        import wandb

        wandb.init(
            project=args.wandb_project_name, entity=args.wandb_entity, sync_tensorboard=True, config=vars(args), name=run_name
        )
    # its thread wakes every 5 s: a Ctrl-C landing inside its queue can lose a wake-up, and close() waits for one
    writer = SummaryWriter(run_dir, flush_secs=5)
    writer.add_text("hyperparameters", "|param|value|\n|-|-|\n" + "\n".join(f"|{k}|{v}|" for k, v in vars(args).items()))

    previous_handler = signal.getsignal(signal.SIGTERM)  # the run stops on SIGTERM as on Ctrl-C (below)

    # Rollout storage, (T, N, ...); episode_starts[t] marks obs[t] as the first of an episode
    obs = torch.zeros((args.num_steps, args.num_envs) + envs.single_observation_space.shape, device=device)
    episode_starts = torch.zeros((args.num_steps, args.num_envs), device=device)
    actions = torch.zeros((args.num_steps, args.num_envs) + envs.single_action_space.shape, device=device)
    logprobs = torch.zeros((args.num_steps, args.num_envs), device=device)
    rewards = torch.zeros((args.num_steps, args.num_envs), device=device)
    values = torch.zeros((args.num_steps, args.num_envs), device=device)
    terminations = torch.zeros((args.num_steps, args.num_envs), device=device)
    truncations = torch.zeros((args.num_steps, args.num_envs), device=device)
    final_values = torch.zeros((args.num_steps, args.num_envs), device=device)
    state = agent.get_initial_state(args.num_envs)
    # the state at the first step of every sequence, so that training replays each from where the rollout was
    seq_states = [torch.zeros((args.num_steps // seq_len,) + s.shape, device=device) for s in state]

    # the global step from which the observation statistics stay as they are (never with --norm-obs-until 1)
    obs_stats_until = args.norm_obs_until * args.total_timesteps if args.norm_obs_until < 1.0 else float("inf")

    last_good = training_state(agent, optimizer, obs_rms, return_rms, args, global_step, iteration)
    next_obs, _ = envs.reset(seed=args.seed)
    envs.action_space.seed(args.seed)
    next_episode_starts = torch.ones(args.num_envs, device=device)
    noise = torch.zeros((args.num_envs,) + envs.single_action_space.shape, device=device)
    episode_return = np.zeros(args.num_envs)
    episode_length = np.zeros(args.num_envs, dtype=int)
    discounted_return = np.zeros(args.num_envs)  # what reward scaling divides by the deviation of
    recent_returns = []
    start_time, start_step = time.time(), global_step
    # SIGTERM (`timeout`, cluster schedulers) stops the run as Ctrl-C does: a long run goes in resumable pieces
    on_sigterm(stop_as_ctrl_c)
    where = "at global step"
    try:
        # evaluating a checkpoint leaves its statistics as saved
        next_obs = prepare(next_obs, obs_rms, args, device, not args.eval_checkpoint and global_step < obs_stats_until)
        for iteration in range(first_iteration, last_iteration + 1):
            # the schedules follow the global step, so that a resumed run continues them wherever it left off
            frac = 1.0 - global_step / schedule_steps
            if args.anneal_lr:
                optimizer.param_groups[0]["lr"] = frac * args.learning_rate
            clip_coef = frac * args.clip_coef if args.anneal_clip else args.clip_coef
            gamma = args.final_gamma + frac * (args.gamma - args.final_gamma) if rising_gamma else args.gamma

            final_values.zero_()  # only the steps cut by a time limit get one below
            for step in range(args.num_steps):
                global_step += args.num_envs
                if step % seq_len == 0:
                    seq_states[0][step // seq_len] = state[0]
                    seq_states[1][step // seq_len] = state[1]
                obs[step] = next_obs
                episode_starts[step] = next_episode_starts
                noise = correlated_noise(noise, next_episode_starts, args.noise_corr)
                with torch.inference_mode():  # no_grad without autograd's bookkeeping: a fifth of the agent's step on CPU
                    action, logprob, _, value, state = agent.get_action_and_value(
                        next_obs, state, next_episode_starts, noise=noise
                    )
                values[step] = value.flatten()
                actions[step] = action
                logprobs[step] = logprob

                # the env gets the action clipped to its bounds; the buffer keeps the sample, whose logprob was taken
                env_action = np.clip(action.cpu().numpy(), envs.single_action_space.low, envs.single_action_space.high)
                next_obs_np, reward, terminated, truncated, infos = envs.step(env_action)
                episode_return += reward  # the env's own return is what is logged, before any floor or scaling
                if args.reward_floor is not None:
                    reward = np.maximum(reward, args.reward_floor)
                ended = terminated | truncated
                if args.norm_reward:
                    discounted_return = discounted_return * gamma + reward
                    return_rms.update(discounted_return)
                    discounted_return[ended] = 0.0  # the next episode's return starts from nothing
                scale = np.sqrt(return_rms.var + 1e-8) if args.norm_reward else 1.0
                rewards[step] = torch.as_tensor(reward / scale, dtype=torch.float32, device=device)
                terminations[step] = torch.as_tensor(terminated, device=device)
                truncations[step] = torch.as_tensor(truncated, device=device)
                truncated_envs = np.flatnonzero(truncated & ~terminated)
                if len(truncated_envs):  # bootstrap a time-limit cut from its final obs, seen with the episode's own state
                    final_obs = prepare(np.stack(infos["final_obs"][truncated_envs]), obs_rms, args, device)
                    final_state = (state[0][:, truncated_envs], state[1][:, truncated_envs])
                    no_starts = torch.zeros(len(truncated_envs), device=device)
                    with torch.inference_mode():
                        final_values[step, truncated_envs] = agent.get_value(final_obs, final_state, no_starts).flatten()
                next_obs = prepare(next_obs_np, obs_rms, args, device, update=global_step < obs_stats_until)
                next_episode_starts = torch.as_tensor(ended, dtype=torch.float32, device=device)

                episode_length += 1
                for i in np.flatnonzero(ended):
                    recent_returns = (recent_returns + [episode_return[i]])[-20:]
                    writer.add_scalar("charts/episodic_return", episode_return[i], global_step)
                    writer.add_scalar("charts/episodic_length", episode_length[i], global_step)
                    episode_return[i] = 0.0
                    episode_length[i] = 0

            with torch.inference_mode():
                next_value = agent.get_value(next_obs, state, next_episode_starts).flatten()
            advantages, returns = compute_gae(
                rewards, values, terminations, truncations, final_values, next_value, gamma, args.gae_lambda
            )

            # Sequences: (T, N, ...) -> (seq_len, S, ...), each env's rollout cut into pieces of seq_len steps
            stored = (obs, episode_starts, actions, logprobs, advantages, returns, values)
            b_obs, b_episode_starts, b_actions, b_logprobs, b_advantages, b_returns, b_values = (
                to_seqs(x, seq_len) for x in stored
            )
            # (K, num_lstms, N, hidden) -> (num_lstms, K * N, hidden), in the same sequence order
            b_states = [s.transpose(0, 1).reshape(s.shape[1], -1, s.shape[3]) for s in seq_states]
            num_seqs = b_obs.shape[1]
            seqs_per_minibatch = num_seqs // args.num_minibatches
            clipfracs, first_ratio_error = [], None
            for _ in range(args.update_epochs):
                order = torch.randperm(num_seqs, device=device)
                for begin in range(0, num_seqs, seqs_per_minibatch):
                    mb = order[begin : begin + seqs_per_minibatch]
                    mb_state = (b_states[0][:, mb], b_states[1][:, mb])
                    _, newlogprob, entropy, newvalue, _ = agent.get_action_and_value(
                        take(b_obs, mb), mb_state, take(b_episode_starts, mb), take(b_actions, mb), need_state=False
                    )
                    logratio = newlogprob - take(b_logprobs, mb)
                    ratio = logratio.exp()
                    with torch.no_grad():
                        old_approx_kl = (-logratio).mean()
                        approx_kl = ((ratio - 1) - logratio).mean()
                        clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]
                        if first_ratio_error is None:  # the replay must reproduce the rollout: ratio 1 here
                            first_ratio_error = (ratio - 1.0).abs().max().item()

                    loss, pg_loss, v_loss, entropy_loss = ppo_loss(
                        ratio, take(b_advantages, mb), newvalue.view(-1), take(b_values, mb), take(b_returns, mb), entropy,
                        clip_coef, args,
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

            y_pred, y_true = b_values.flatten().cpu().numpy(), b_returns.flatten().cpu().numpy()
            var_y = np.var(y_true)
            sps = int((global_step - start_step) / (time.time() - start_time))
            scalars = {
                "charts/learning_rate": optimizer.param_groups[0]["lr"],
                "charts/clip_coef": clip_coef,
                "charts/gamma": gamma,
                "charts/logstd": agent.actor_logstd.mean().item(),
                "charts/SPS": sps,
                "losses/value_loss": v_loss.item(),
                "losses/policy_loss": pg_loss.item(),
                "losses/entropy": entropy_loss.item(),
                "losses/old_approx_kl": old_approx_kl.item(),
                "losses/approx_kl": approx_kl.item(),
                "losses/clipfrac": np.mean(clipfracs),
                "losses/explained_variance": np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y,
                "losses/first_ratio_error": first_ratio_error,
            }
            for key, value in scalars.items():
                writer.add_scalar(key, value, global_step)
            recent = f"{np.mean(recent_returns):.1f}" if recent_returns else "n/a"
            print(f"update {iteration}/{last_iteration}  global_step {global_step}  SPS {sps}  return(last20) {recent}")

        envs.close()
        train_time = time.time() - start_time
        checkpoint_path = save(last_good, run_dir, args)
        where = "in the evaluation after global step"
        eval_returns = evaluate(agent, args, device, run_name, obs_rms) if args.eval_episodes > 0 else []
    except (KeyboardInterrupt, Exception) as stop:  # Ctrl-C or SIGTERM, a non-finite value, an error (the env's, say)
        path = save(last_good, run_dir, args)
        code = 130 if isinstance(stop, KeyboardInterrupt) else 2 if isinstance(stop, NonFinite) else 1
        close_run(writer, envs, args, previous_handler, code)
        step = last_good["global_step"] if last_good else None
        if isinstance(stop, NonFinite):
            kept = f"; checkpoint of the last good weights (global step {step}): {path}" if path else ""
            fail(f"non-finite {stop} at update {iteration}" + kept)
        kept = f"; checkpoint at global step {step}: {path}" if path else ""
        what = "interrupted" if code == 130 else f"stopped by {type(stop).__name__}"
        print(f"{what} {where} {global_step}" + kept, file=sys.stderr)
        if code == 130:
            raise SystemExit(130) from None
        raise  # as it came, its traceback after the line above
    on_sigterm(previous_handler)
    if eval_returns:
        writer.add_scalar("eval/mean_return", np.mean(eval_returns), global_step)
    trained = global_step - start_step
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
        "checkpoint": checkpoint_path,
        "eval_mode": "sample" if args.eval_sample else "mean",
    }
    with open(os.path.join(run_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    writer.close()
    if args.track:
        wandb.finish()
    if eval_returns:
        print(f"eval: {np.mean(eval_returns):.2f} +- {np.std(eval_returns):.2f} over {len(eval_returns)} episodes")
    print(f"summary: {os.path.join(run_dir, 'summary.json')}  (tensorboard --logdir runs)")
    return summary


if __name__ == "__main__":
    main(tyro.cli(Args))
