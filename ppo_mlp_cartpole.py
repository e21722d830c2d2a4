# PPO with an MLP policy for discrete actions and vector observations: the non-recurrent baseline.
# python ppo_mlp_cartpole.py --env-id CartPoleNoVel-v1   (a memoryless policy fails there; --frame-stack 4 helps)
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
from dataclasses import asdict, dataclass
from functools import partial

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import tyro
from torch.utils.tensorboard import SummaryWriter

SCRIPT = "ppo_mlp_cartpole.py"
VIDEO_MAX_FRAMES = 1_000  # an episode's video is cut there, so memory stays bounded


@dataclass
class Args:
    exp_name: str = "ppo_mlp_cartpole"
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
    export_onnx: str | None = None
    """write the acting policy to this ONNX file after training (or with --eval-checkpoint alone)"""

    # Algorithm specific arguments
    env_id: str = "CartPole-v1"
    """the id of the environment (`module:EnvId` imports the module first)"""
    total_timesteps: int = 100_000
    """total timesteps of the experiment"""
    learning_rate: float = 1e-3
    """the learning rate of the optimizer"""
    num_envs: int = 8
    """the number of parallel game environments"""
    num_steps: int = 32
    """the number of steps to run in each environment per policy rollout"""
    anneal_lr: bool = True
    """toggle learning rate annealing"""
    gamma: float = 0.98
    """the discount factor gamma"""
    gae_lambda: float = 0.8
    """the lambda for the general advantage estimation"""
    num_minibatches: int = 2
    """the number of mini-batches (2, not the zoo's 1: sooner to 475 on CartPole-v1)"""
    update_epochs: int = 20
    """the K epochs to update the policy"""
    norm_adv: bool = True
    """toggles advantages normalization"""
    clip_coef: float = 0.2
    """the surrogate clipping coefficient"""
    anneal_clip: bool = True
    """anneal the clipping coefficients to 0 with the learning rate (steadies the late updates)"""
    clip_vloss: bool = False
    """toggles whether or not to use a clipped loss for the value function (off, as the zoo)"""
    ent_coef: float = 0.0
    """coefficient of the entropy"""
    vf_coef: float = 0.5
    """coefficient of the value function"""
    max_grad_norm: float = 0.5
    """the maximum norm for the gradient clipping"""
    target_kl: float | None = None
    """the target KL divergence threshold"""
    norm_obs: bool = False
    """normalise observations with running statistics (frozen in evaluation); off, as the zoo"""
    norm_reward: bool = False
    """scale rewards by the running deviation of the discounted return; off, as the zoo"""

    # Observations
    frame_stack: int = 1
    """stack the last K observations (the non-recurrent remedy for hidden velocities); 1: none"""


def fail(message: str) -> None:
    """One line for the user, exit code 2, no traceback."""
    print(f"{SCRIPT}: error: {message}", file=sys.stderr)
    raise SystemExit(2)


class NonFinite(Exception):
    """A non-finite observation, loss or weight: the run stops and keeps its last good update."""


class EnvMistake(Exception):
    """What an env gives that breaks its own spaces (an observation of another shape): the run
    stops."""


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
    policy scores at most (2 - num_cues) / num_cues on average; remembering the cue scores 1."""

    metadata = {"render_modes": []}

    def __init__(self, num_cues=2, delay=10, render_mode=None):
        self.num_cues, self.delay = num_cues, delay
        # the cue's one-hot, then the query flag
        self.observation_space = gym.spaces.Box(0.0, 1.0, (num_cues + 1,), np.float32)
        self.action_space = gym.spaces.Discrete(num_cues)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.cue, self.t = int(self.np_random.integers(self.num_cues)), 0
        obs = np.zeros(self.num_cues + 1, np.float32)
        obs[self.cue] = 1.0
        return obs, {}

    def step(self, action):
        self.t += 1
        obs = np.zeros(self.num_cues + 1, np.float32)
        if self.t <= self.delay + 1:  # blank observations 1..delay, then the query
            obs[-1] = float(self.t == self.delay + 1)
            return obs, 0.0, False, False, {}
        return obs, 1.0 if int(action) == self.cue else -1.0, True, False, {}


for _id, (_base, _kwargs, _mask) in NOVEL_ENVS.items():
    gym.register(_id, entry_point=partial(make_masked_env, _base, _kwargs, _mask))
gym.register("CueRecall-v0", entry_point=CueRecallEnv)
OWN_ENV_IDS = [*NOVEL_ENVS, "CueRecall-v0"]


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


def make_env(env_id: str, frame_stack: int, render_mode: str | None = None, flatten: bool = True):
    def thunk():
        # render_mode only when something renders: third-party envs may not take the argument
        env = gym.make(env_id, render_mode=render_mode) if render_mode else gym.make(env_id)
        if not flatten:
            return env
        env = FlatObservation(env)
        if frame_stack > 1:  # (K, obs_dim) -> (K * obs_dim,), padded with the reset observation
            env = gym.wrappers.FlattenObservation(gym.wrappers.FrameStackObservation(env, frame_stack))
        return env

    return thunk


def check_env(args: Args) -> np.ndarray:
    """Make one env as training (and the evaluation's video) will and answer any problem in one
    line; returns which entries of the flattened observation come from Box parts."""
    env_id = args.env_id
    module, _, name = env_id.rpartition(":")  # `module:EnvId`: gym.make imports the module
    if not name or (":" in env_id and not module):
        fail(f"env id '{env_id}' is malformed: give EnvId, or MODULE:EnvId to import MODULE first")
    try:
        env = make_env(env_id, args.frame_stack, "rgb_array" if args.capture_video else None, False)()
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
    for name in sizes + ["eval_max_steps", "frame_stack", "learning_rate"]:
        if not getattr(args, name) > 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    for name in ["gamma", "gae_lambda"]:
        if not 0.0 <= getattr(args, name) <= 1.0:
            fail(f"--{name.replace('_', '-')} must be from 0 to 1, got {getattr(args, name)}")
    for name in ["clip_coef", "max_grad_norm", "target_kl"]:
        if getattr(args, name) is not None and not getattr(args, name) > 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    if args.eval_episodes < 0:
        fail("--eval-episodes must not be negative")
    num_mbs = args.num_minibatches
    if (args.num_envs * args.num_steps) % num_mbs:
        fail(f"a batch of {args.num_envs * args.num_steps} steps does not split into {num_mbs} minibatches")
    if args.norm_adv and args.num_envs * args.num_steps // num_mbs == 1:
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
    for key in ["frame_stack", "norm_obs", "norm_reward"]:
        if getattr(args, key) != checkpoint["args"][key]:
            print(f"{key} = {checkpoint['args'][key]}, as the checkpoint was trained")
            setattr(args, key, checkpoint["args"][key])
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


class Agent(nn.Module):
    """Separate MLP actor and critic over the (possibly frame-stacked) observation."""

    def __init__(self, envs: gym.vector.VectorEnv, args: Args):
        super().__init__()
        obs_dim = envs.single_observation_space.shape[0]
        space = envs.single_action_space
        # a categorical head per action dimension: Discrete(n) is MultiDiscrete([n]), squeezed
        self.discrete = isinstance(space, gym.spaces.Discrete)
        self.nvec = [int(space.n)] if self.discrete else space.nvec.tolist()
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, sum(self.nvec)), std=0.01),
        )
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 1), std=1.0),
        )

    def get_value(self, obs):
        return self.critic(obs)

    def get_action_and_value(self, obs, action=None, deterministic=False):
        logits = self.actor(obs)
        given = [None] * len(self.nvec) if action is None else action.view(len(obs), -1).unbind(-1)
        parts = zip(logits.split(self.nvec, -1), given, strict=True)
        heads = [categorical(part, a, deterministic) for part, a in parts]
        action = torch.stack([head[0] for head in heads], dim=-1)  # (B, D)
        logprob = torch.stack([head[1] for head in heads]).sum(0)  # the joint: the heads' sums
        entropy = torch.stack([head[2] for head in heads]).sum(0)
        action = action.squeeze(-1) if self.discrete else action
        return action, logprob, entropy, self.critic(obs)


def categorical(logits: torch.Tensor, action=None, deterministic: bool = False) -> tuple:
    """The action (sampled, the most likely, or the one given), its logprob and the entropy of a
    categorical over the last dim: torch's Categorical bit for bit, samples included, without its
    per-call overhead."""
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


def evaluate(agent: Agent, args: Args, device, run_name: str, obs_rms) -> list:
    """Full episodes on a fresh env, deterministic actions, the observation statistics frozen."""
    if not args.eval_episodes:  # --eval-episodes 0: no env is made
        return []
    env = make_env(args.env_id, args.frame_stack, "rgb_array" if args.capture_video else None)()
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
            obs, _ = env.reset(seed=args.seed + 100_000 if episode == 0 else None)
            episode_return, ended = 0.0, False
            while not ended:
                with torch.inference_mode():
                    obs_t = prepare(obs[None], obs_rms, args, device)
                    action, _, _, _ = agent.get_action_and_value(obs_t, deterministic=True)
                env_action = action[0].cpu().numpy() + env.action_space.start
                obs, reward, terminated, truncated, _ = env.step(env_action)
                episode_return += float(reward)
                ended = terminated or truncated
            returns.append(episode_return)
            if time.time() - start > 10:  # a long evaluation says how far it is
                done = f"{episode + 1}/{args.eval_episodes}"
                print(f"evaluation episode {done}: return {episode_return:.1f}")
    return returns


class Policy(nn.Module):
    """The acting policy alone, as --export-onnx writes it: the observation normalised with the
    frozen statistics, the most likely action with the space's start added, as evaluation sends it."""

    def __init__(self, agent: Agent, obs_rms: RunningMeanStd, norm_obs: bool, start):
        super().__init__()
        self.agent, self.norm_obs = agent, norm_obs
        self.register_buffer("mean", torch.tensor(obs_rms.mean, dtype=torch.float32))
        self.register_buffer("std", torch.tensor(np.sqrt(obs_rms.var + 1e-8), dtype=torch.float32))
        self.register_buffer("normalized", torch.tensor(obs_rms.normalized))
        self.register_buffer("start", torch.tensor(start))

    def forward(self, obs):
        if self.norm_obs:
            scaled = ((obs - self.mean) / self.std).clamp(-10.0, 10.0)
            obs = torch.where(self.normalized, scaled, obs)
        logits = self.agent.actor(obs)
        action = torch.stack([part.argmax(-1) for part in logits.split(self.agent.nvec, -1)], -1)
        return (action.squeeze(-1) if self.agent.discrete else action) + self.start


def export_onnx(agent: Agent, obs_rms: RunningMeanStd, args: Args, envs) -> None:
    """Input obs (N, obs_dim), the frame stack's, if any, flattened; output action."""
    space = envs.single_action_space
    policy = Policy(copy.deepcopy(agent).cpu(), obs_rms, args.norm_obs, space.start).eval()
    example = torch.zeros(2, envs.single_observation_space.shape[0])
    batch = {"obs": {0: "N"}, "action": {0: "N"}}  # any number of envs
    torch.onnx.export(policy, (example,), args.export_onnx, dynamo=False, dynamic_axes=batch,
                      input_names=["obs"], output_names=["action"])
    print(f"policy exported to {args.export_onnx} (input obs, output action)")


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


def seed_and_device(args: Args) -> torch.device:
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = args.torch_deterministic
    # float32 stays float32 on a GPU: TF32 would put the replay's ratio past 1e-5 off 1
    torch.backends.cudnn.conv.fp32_precision = torch.backends.cudnn.rnn.fp32_precision = "ieee"
    torch.backends.cuda.matmul.fp32_precision = "ieee"
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(1)  # more threads fight the env loop for the cores: small nets slow
    return device


def write_summary(args: Args, run_dir: str, global_step, trained, train_time, recent_returns,
                  eval_returns, checkpoint_path) -> dict:
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
        "resumed_from": args.resume,  # wall_time_s and sps are then this piece's
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
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    # whole rollouts up to total_timesteps by global step: a resumed run may change the batch
    schedule_steps = args.total_timesteps // batch_size * batch_size
    device = seed_and_device(args)

    # Environments: same-step autoreset, so no dummy transition follows an episode's end
    thunks = [make_env(args.env_id, args.frame_stack) for _ in range(args.num_envs)]
    envs = gym.vector.SyncVectorEnv(thunks, autoreset_mode=gym.vector.AutoresetMode.SAME_STEP)
    agent = Agent(envs, args).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    # observation normalisation touches the entries of Box parts: one-hots stay 0 and 1
    obs_rms = RunningMeanStd(envs.single_observation_space.shape, np.tile(box_parts, args.frame_stack))
    return_rms = RunningMeanStd()
    global_step, iteration = restore(checkpoint, agent, optimizer, obs_rms, return_rms)
    next_obs, _ = first_reset(envs, args.seed)
    envs.action_space.seed(args.seed)
    num_updates = 0 if args.eval_checkpoint else (args.total_timesteps - global_step) // batch_size
    first_iteration, last_iteration = iteration + 1, iteration + num_updates
    run_name, run_dir = make_run_dir(args)
    writer = start_logging(args, run_name, run_dir)

    # Rollout storage, (T, N, ...)
    steps_envs = (args.num_steps, args.num_envs)
    obs = torch.zeros(steps_envs + envs.single_observation_space.shape, device=device)
    actions = torch.zeros(steps_envs + envs.single_action_space.shape, dtype=torch.long).to(device)
    zeros = torch.zeros((6,) + steps_envs, device=device)  # six (T, N) slices of one tensor
    logprobs, rewards, values, terminations, truncations, final_values = zeros

    last_good = training_state(agent, optimizer, obs_rms, return_rms, args, global_step, iteration)
    episode_return, episode_length = np.zeros(args.num_envs), np.zeros(args.num_envs, dtype=int)
    discounted_return = np.zeros(args.num_envs)  # reward scaling divides by its deviation
    recent_returns, start_time, start_step = [], time.time(), global_step
    previous_handler = on_sigterm(stop_as_ctrl_c)  # SIGTERM (`timeout`, a scheduler) is Ctrl-C
    where = "at global step"
    try:
        next_obs = prepare(next_obs, obs_rms, args, device, update=not args.eval_checkpoint)
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
                obs[step] = next_obs
                with torch.inference_mode():
                    action, logprob, _, value = agent.get_action_and_value(next_obs)
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
                if len(cut):  # a time-limit cut: bootstrapped from its final obs
                    final_obs = prepare(np.stack(infos["final_obs"][cut]), obs_rms, args, device)
                    with torch.inference_mode():
                        final_value = agent.get_value(final_obs)
                    final_values[step, cut] = final_value.flatten()
                next_obs = prepare(next_obs_np, obs_rms, args, device, update=True)

                episode_return += reward
                episode_length += 1
                for i in np.flatnonzero(ended):
                    recent_returns = (recent_returns + [episode_return[i]])[-20:]
                    episodes.append((global_step, episode_return[i], episode_length[i]))
                    episode_return[i], episode_length[i] = 0.0, 0

            with torch.inference_mode():
                next_value = agent.get_value(next_obs)
            advantages, returns = compute_gae(
                rewards, values, terminations, truncations, final_values, next_value.flatten(),
                args.gamma, args.gae_lambda,
            )

            # (T, N, ...) -> (T * N, ...): without recurrence every step is its own sample
            b_obs, b_actions, b_logprobs, b_advantages, b_returns, b_values = (
                x.reshape(-1, *x.shape[2:]) for x in (obs, actions, logprobs, advantages, returns, values)
            )
            clipfracs, first_ratio_error = [], None
            for _ in range(args.update_epochs):
                order = torch.randperm(batch_size, device=device)
                for begin in range(0, batch_size, minibatch_size):
                    mb = order[begin : begin + minibatch_size]
                    _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions[mb])
                    logratio = newlogprob - b_logprobs[mb]
                    ratio = logratio.exp()
                    with torch.no_grad():
                        old_approx_kl = (-logratio).mean()
                        approx_kl = ((ratio - 1) - logratio).mean()
                        clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]
                        if first_ratio_error is None:  # the replay reproduces the rollout: ratio 1
                            first_ratio_error = (ratio - 1.0).abs().max().item()
                    loss, pg_loss, v_loss, entropy_loss = ppo_loss(
                        ratio, b_advantages[mb], newvalue.view(-1), b_values[mb], b_returns[mb], entropy,
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
        eval_returns = evaluate(agent, args, device, run_name, obs_rms)
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
                         checkpoint_path)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stop_as_ctrl_c)  # from the first moment, SIGTERM is Ctrl-C
    try:
        main(tyro.cli(Args))
    except KeyboardInterrupt:  # while the run starts (main answers it once training has begun)
        print(f"{SCRIPT}: interrupted before training began: nothing to keep", file=sys.stderr)
        raise SystemExit(130) from None
