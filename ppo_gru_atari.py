# PPO + GRU on Atari pixels (one frame an observation: the GRU carries the motion), one file.
# python ppo_gru_atari.py --env-id Breakout-v5
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

import gymnasium as gym
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.optim as optim
import tyro
from torch.nn.parallel import DistributedDataParallel
from torch.utils.tensorboard import SummaryWriter

SCRIPT = "ppo_gru_atari.py"
VIDEO_MAX_FRAMES = 4_500  # a recorded game is cut at 5 minutes (4,500 x 100 KB of frames)


@dataclass
class Args:
    exp_name: str = "ppo_gru_atari"
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
    """if toggled, videos of the evaluation games are saved under `videos/{run_name}` (ale-py;
    at most 5 minutes a game)"""
    save_model: bool = False
    """if toggled, a checkpoint is written to `runs/{run_name}/{exp_name}.pt` (on Ctrl-C too)"""
    resume: str | None = None
    """path of a checkpoint to continue training from"""
    eval_checkpoint: str | None = None
    """path of a checkpoint to evaluate only (no training)"""
    eval_episodes: int = 10
    """episodes (full games) of the final evaluation (0 skips it)"""
    export_onnx: str | None = None
    """write the acting policy to this ONNX file after training (or with --eval-checkpoint alone)"""

    # Algorithm specific arguments
    env_id: str = "Breakout-v5"
    """the id of the Atari game, as envpool names it (Breakout-v5, Pong-v5, ...)"""
    backend: str = "auto"
    """`envpool`, `gymnasium` (ale-py), or `auto`: envpool when it can be imported"""
    total_timesteps: int = 10_000_000
    """total timesteps of the experiment (agent steps; 4 frames each)"""
    learning_rate: float = 2.5e-4
    """the learning rate of the optimizer"""
    num_envs: int = 8
    """the number of parallel game environments"""
    num_steps: int = 128
    """the number of steps to run in each environment per policy rollout"""
    anneal_lr: bool = True
    """toggle learning rate annealing"""
    gamma: float = 0.99
    """the discount factor gamma"""
    gae_lambda: float = 0.95
    """the lambda for the general advantage estimation"""
    num_minibatches: int = 4
    """the number of mini-batches"""
    update_epochs: int = 4
    """the K epochs to update the policy"""
    norm_adv: bool = True
    """toggles advantages normalization"""
    clip_coef: float = 0.1
    """the surrogate clipping coefficient"""
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
    max_episode_steps: int = 27_000
    """a game's time limit in agent steps (27,000 = 108,000 frames); cut games are bootstrapped"""
    episodic_life: bool = True
    """a life loss ends the episode for GAE (the game goes on), as CleanRL"""
    reset_state_on_life_loss: bool = False
    """also zero the GRU state at a life loss (off: only where a new game starts)"""
    amp: bool = False
    """bfloat16 autocast for the CNN in rollout and update (the GRU and the heads stay float32)"""
    torch_threads: int | None = None
    """torch threads on CPU for the update (default: this rank's cores less one); the rollout uses one"""
    env_threads: int | None = None
    """envpool worker threads (default: the cores this rank may use, at most one per env)"""
    env_groups: int = 2
    """envpool: the envs step in this many groups (never more than the envs), one group's step
    overlapping the next group's inference"""

    # Recurrence
    rnn_hidden_size: int = 128
    """width of the GRU state"""
    seq_len: int = 0
    """truncated-BPTT length; 0: each env's whole rollout is one sequence (minibatching by env)"""
    reset_state_on_done: bool = True
    """zero the recurrent state where a new episode starts"""


def fail(message: str) -> None:
    """One line for the user, exit code 2, no traceback."""
    print(f"{SCRIPT}: error: {message}", file=sys.stderr)
    raise SystemExit(2)


class NonFinite(Exception):
    """A non-finite loss or weight: the run stops with one line and keeps its last good update."""


# Environments: two backends with the same preprocessing (84x84 grayscale, frame skip 4, up to 30
# no-op starts, one frame, no sticky actions, no fire on reset) and the same-step reset: a finished
# game's next observation is the new game's first, and the final observation is in info["final_obs"]
def atari_games() -> list[str]:
    import ale_py.roms

    roms = ale_py.roms.get_all_rom_ids()
    return sorted("".join(word.capitalize() for word in rom.split("_")) + "-v5" for rom in roms)


def check_env_id(env_id: str) -> None:
    try:
        games = atari_games()
    except ImportError:
        import envpool

        games = [e for e in envpool.list_all_envs() if e.endswith("-v5")]
    if env_id not in games:
        close = difflib.get_close_matches(env_id, games, n=3)
        vector = "; for vector observations use ppo_lstm.py or ppo_lstm_continuous.py"
        hint = vector if env_id in gym.registry else ""
        fail(f"unknown env id '{env_id}'; close matches: {close or 'none'}; this script takes Atari games "
             f"such as Breakout-v5, Pong-v5{hint}")


def pick_backend(backend: str) -> str:
    if backend not in ("auto", "envpool", "gymnasium"):
        fail(f"--backend must be auto, envpool or gymnasium, not '{backend}'")
    if backend == "auto":
        try:
            import envpool  # noqa: F401
        except ImportError:
            return "gymnasium"
        return "envpool"
    return backend


class EnvpoolSameStep:
    """envpool resets a finished env on the NEXT step and ignores that step's action; resetting the
    finished envs at once instead gives the gymnasium same-step contract, so no dummy transition
    exists. The envs are split into `groups` pools: `send` starts one group's step on envpool's
    threads and returns at once, `recv` waits for it, so the loop infers one group while another
    steps. Rows come back in any order, named by info["env_id"]."""

    def __init__(self, env_id: str, num_envs: int, seed: int, max_episode_steps: int, threads, groups=1):
        import envpool

        # group g holds envs groups[g], numbered from groups[g][0] in its pool; env i is seeded
        # seed + i, as in one pool
        self.groups = np.array_split(np.arange(num_envs), min(groups, num_envs))
        preprocessing = dict(env_type="gymnasium", stack_num=1, episodic_life=False, reward_clip=False,
                             use_fire_reset=False, noop_max=30, repeat_action_probability=0.0)
        self.pools = [
            envpool.make(env_id, num_envs=len(ids), seed=seed + ids[0], num_threads=min(threads, len(ids)),
                         max_episode_steps=max_episode_steps, **preprocessing)
            for ids in self.groups
        ]
        self.group_of = np.concatenate([[g] * len(ids) for g, ids in enumerate(self.groups)])
        self.num_envs = num_envs
        self.single_observation_space = self.pools[0].observation_space
        self.single_action_space = self.pools[0].action_space

    def reset(self, seed: int | None = None):
        obs, lives = [], []
        for pool in self.pools:
            pool_obs, info = pool.reset()
            order = np.argsort(info["env_id"])
            obs.append(pool_obs[order])
            lives.append(info["lives"][order])
        return np.concatenate(obs), {"lives": np.concatenate(lives)}

    def send(self, actions: np.ndarray, env_ids: np.ndarray) -> None:
        group = self.group_of[env_ids[0]]
        self.pools[group].send(actions, env_ids - self.groups[group][0])

    def recv(self, group: int):
        obs, reward, terminated, truncated, info = self.pools[group].recv()
        local_ids = info["env_id"]
        info = {"lives": info["lives"].copy(), "env_id": local_ids + self.groups[group][0]}
        ended = np.flatnonzero(terminated | truncated)
        if len(ended):
            info["final_obs"] = obs.copy()
            new_obs, new_info = self.pools[group].reset(local_ids[ended])
            row_of = np.empty(len(self.groups[group]), dtype=int)
            row_of[local_ids] = np.arange(len(local_ids))
            rows = row_of[new_info["env_id"]]
            obs[rows], info["lives"][rows] = new_obs, new_info["lives"]
        return obs, reward, terminated, truncated, info

    def step(self, actions: np.ndarray):
        """One step of every env, rows in env order (evaluation and the tests)."""
        results = []
        for ids in self.groups:
            self.send(actions[ids], ids)
        for group in range(len(self.groups)):
            results.append(self.recv(group))
        order = np.argsort(np.concatenate([r[4]["env_id"] for r in results]))
        parts = (np.concatenate([r[k] for r in results])[order] for k in range(4))
        obs, reward, terminated, truncated = parts
        info = {"lives": np.concatenate([r[4]["lives"] for r in results])[order]}
        if any("final_obs" in r[4] for r in results):
            final_obs = np.concatenate([r[4].get("final_obs", r[0]) for r in results])
            info["final_obs"] = final_obs[order]
        return obs, reward, terminated, truncated, info

    def close(self):
        for pool in self.pools:
            pool.close()


class RecordGames(gym.Wrapper):
    """Records the first `games` games, one frame per agent step (the frame it acts on), at most
    VIDEO_MAX_FRAMES a game, so memory stays bounded whatever the policy does. A game is written
    when the next one starts; a game cut short by Ctrl-C is not written."""

    def __init__(self, env: gym.Env, folder: str, games: int):
        super().__init__(env)
        self.folder, self.games, self.game, self.frames = folder, games, -1, []

    def reset(self, **kwargs):
        if self.frames:
            from moviepy.video.io.ImageSequenceClip import ImageSequenceClip

            os.makedirs(self.folder, exist_ok=True)
            clip = ImageSequenceClip(self.frames, fps=15)  # 60 frames a second, 4 a step
            clip.write_videofile(f"{self.folder}/game-{self.game}.mp4", logger=None)
        self.game, self.frames = self.game + 1, []
        return self.capture(self.env.reset(**kwargs))

    def step(self, action):
        return self.capture(self.env.step(action))

    def capture(self, out):
        if self.game < self.games and len(self.frames) < VIDEO_MAX_FRAMES:
            self.frames.append(self.env.render())
        return out


class GymSameStep:
    """ale-py behind gymnasium's SyncVectorEnv (same-step autoreset), with the preprocessing envpool
    does. The envs step in the main thread, so they form one group: `send` keeps the actions and
    `recv` steps."""

    def __init__(self, env_id: str, num_envs: int, seed: int, max_episode_steps: int,
                 video_dir=None, video_episodes=0):
        def thunk():
            import ale_py

            gym.register_envs(ale_py)
            # the limit counts agent steps after the no-op starts, as envpool's does (ALE's own
            # frame limit would count the no-op frames too)
            render_mode = "rgb_array" if video_dir else None
            env = gym.make(f"ALE/{env_id}", frameskip=1, repeat_action_probability=0.0,
                           max_num_frames_per_episode=0, render_mode=render_mode)
            env = gym.wrappers.AtariPreprocessing(env, noop_max=30, frame_skip=4, screen_size=84)
            if video_dir:
                env = RecordGames(env, video_dir, video_episodes)
            env = gym.wrappers.TimeLimit(env, max_episode_steps)
            return gym.wrappers.ReshapeObservation(env, (1, 84, 84))

        same_step = gym.vector.AutoresetMode.SAME_STEP
        self.envs = gym.vector.SyncVectorEnv([thunk] * num_envs, autoreset_mode=same_step)
        self.num_envs, self.seed = num_envs, seed
        self.groups = [np.arange(num_envs)]
        self.single_observation_space = self.envs.single_observation_space
        self.single_action_space = self.envs.single_action_space

    def reset(self, seed: int | None = None):
        obs, info = self.envs.reset(seed=self.seed if seed is None else seed)
        return obs, {"lives": info["lives"]}

    def send(self, actions: np.ndarray, env_ids: np.ndarray) -> None:
        self.actions = actions

    def recv(self, group: int):
        return self.step(self.actions)

    def step(self, actions: np.ndarray):
        obs, reward, terminated, truncated, info = self.envs.step(actions)
        out = {"lives": info["lives"], "env_id": np.arange(self.num_envs)}
        if "final_obs" in info:  # an object array, None where no episode ended: make it an array
            ended = info["_final_obs"]
            out["final_obs"] = obs.copy()
            out["final_obs"][ended] = np.stack(info["final_obs"][ended])
        return obs, reward, terminated, truncated, out

    def close(self):
        self.envs.close()


def make_envs(args: Args, backend: str, num_envs: int, seed: int, video_dir=None, groups=1, threads=1):
    limit = args.max_episode_steps
    if backend == "envpool" and not video_dir:  # envpool renders no video: ale-py records it
        return EnvpoolSameStep(args.env_id, num_envs, seed, limit, threads, groups)
    return GymSameStep(args.env_id, num_envs, seed, limit, video_dir, args.eval_episodes)


def layer_init(layer: nn.Module, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Module:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    """Nature CNN over one uint8 frame, a GRU, then linear actor and critic heads (one trunk, as
    CleanRL). The state is the GRU's h, shaped (1, N, hidden)."""

    def __init__(self, envs, args: Args):
        super().__init__()
        self.network = nn.Sequential(
            layer_init(nn.Conv2d(1, 32, 8, stride=4)),
            nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)),
            nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)),
            nn.ReLU(),
            nn.Flatten(),
            layer_init(nn.Linear(64 * 7 * 7, 512)),
            nn.ReLU(),
        )
        self.gru = nn.GRU(512, args.rnn_hidden_size)
        for name, param in self.gru.named_parameters():
            if "bias" in name:
                nn.init.constant_(param, 0)
            elif "weight" in name:
                nn.init.orthogonal_(param, 1.0)
        self.actor = layer_init(nn.Linear(args.rnn_hidden_size, envs.single_action_space.n), 0.01)
        self.critic = layer_init(nn.Linear(args.rnn_hidden_size, 1), std=1)
        self.reset_state_on_done, self.amp = args.reset_state_on_done, args.amp

    def get_initial_state(self, num_envs: int) -> torch.Tensor:
        return torch.zeros(1, num_envs, self.gru.hidden_size, device=self.gru.weight_hh_l0.device)

    def unroll(self, obs, state, episode_starts):
        """obs (T * N, 1, 84, 84) uint8, time-major -> the GRU's output (T * N, hidden) and its
        state. T = 1 (acting) is one GRU step; T > 1 (the training update) cuts every env's sequence
        where an episode starts and runs the pieces, right-padded, in one call. A GRU's output is
        its state, so each env's final state is its last real output."""
        N = state.shape[1]
        # --amp runs the CNN alone in bfloat16; the GRU and the heads get float32
        with torch.autocast(obs.device.type, dtype=torch.bfloat16, enabled=self.amp):
            x = self.network(obs.float() / 255.0)
        x = x.view(-1, N, 512).float()  # (T, N, 512)
        T = x.shape[0]
        starts = episode_starts.view(T, N) if self.reset_state_on_done else x.new_zeros(T, N)
        h = state * (1.0 - starts[0]).view(1, -1, 1)  # zeroed before an episode's first step
        if T == 1:
            out, h = self.gru(x, h)
            return out.reshape(N, -1), h
        piece_begins = starts.bool().T.clone()  # (T, N) -> (N, T): env-major, each piece contiguous
        piece_begins[:, 0] = True
        piece_begins = piece_begins.reshape(-1)
        piece = piece_begins.cumsum(0) - 1  # (N * T,) the piece of every step
        first = piece_begins.nonzero().squeeze(1)  # (P,) each piece's first step
        pos = torch.arange(N * T, device=x.device) - first[piece]  # the step's index in its piece
        padded = x.new_zeros(int(pos.max()) + 1, len(first), x.shape[2])  # (max_len, P, 512)
        padded[pos, piece] = x.transpose(0, 1).reshape(N * T, -1)
        # a piece opening an episode starts from zeros, each env's first from the carried state
        h0 = x.new_zeros(1, len(first), h.shape[2])
        h0[:, piece[torch.arange(N, device=x.device) * T]] = h
        out, _ = self.gru(padded, h0)
        out = out[pos, piece].view(N, T, -1).transpose(0, 1)  # (T, N, hidden)
        return out.reshape(T * N, -1), out[-1:].clone()

    def get_value(self, obs, state, episode_starts):
        return self.critic(self.unroll(obs, state, episode_starts)[0])

    def get_action_and_value(self, obs, state, episode_starts, action=None, deterministic=False):
        hidden, state = self.unroll(obs, state, episode_starts)
        logits = self.actor(hidden)
        action, logprob, entropy = categorical(logits, action, deterministic)
        return action, logprob, entropy, self.critic(hidden), state

    def forward(self, obs, state, episode_starts, action):
        # the update calls the Agent itself: DistributedDataParallel averages the ranks' gradients
        return self.get_action_and_value(obs, state, episode_starts, action)


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


def evaluate(agent: Agent, args: Args, backend: str, device, run_name: str) -> list[float]:
    """Full games on a fresh env, deterministic actions, the state carried within a game (reset at a
    life loss only with --reset-state-on-life-loss) and reset between games; unclipped scores."""
    if not args.eval_episodes:  # --eval-episodes 0: no env is made
        return []
    video_dir = f"videos/{run_name}" if args.capture_video else None
    env = make_envs(args, backend, 1, args.seed + 100_000, video_dir)
    try:  # closed however the evaluation ends, Ctrl-C included (a game cut short is not recorded)
        obs, info = env.reset()
        lives = info["lives"]
        state = agent.get_initial_state(1)
        episode_start = torch.ones(1, device=device)
        returns, game_return, start = [], 0.0, time.time()
        while len(returns) < args.eval_episodes:
            with torch.no_grad():
                obs_t = torch.as_tensor(obs, device=device)
                action, *_, state = agent.get_action_and_value(
                    obs_t, state, episode_start, deterministic=True
                )
            obs, reward, terminated, truncated, info = env.step(action.cpu().numpy())
            game_return += float(reward[0])
            life_lost = info["lives"] < lives
            lives = info["lives"]
            episode_start = torch.zeros(1, device=device)
            if terminated[0] or truncated[0]:
                returns.append(game_return)
                if time.time() - start > 10:  # a long evaluation says how far it is
                    done = f"{len(returns)}/{args.eval_episodes}"
                    print(f"evaluation game {done}: score {game_return:.1f}")
                game_return = 0.0
                state = agent.get_initial_state(1)  # zeros: every game starts afresh
                episode_start = torch.ones(1, device=device)
            elif args.reset_state_on_life_loss and life_lost[0]:
                episode_start = torch.ones(1, device=device)
    finally:
        env.close()
    return returns


def check_args(args: Args) -> None:
    sizes = ["total_timesteps", "num_envs", "num_steps", "num_minibatches", "update_epochs"]
    for name in sizes + ["rnn_hidden_size", "max_episode_steps", "torch_threads", "env_threads", "env_groups"]:
        if getattr(args, name) is not None and getattr(args, name) <= 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    if not args.learning_rate > 0:
        fail(f"--learning-rate must be positive, got {args.learning_rate}")
    for name in ["gamma", "gae_lambda"]:
        value = getattr(args, name)
        if value is not None and not 0.0 <= value <= 1.0:
            fail(f"--{name.replace('_', '-')} must be from 0 to 1, got {value}")
    for name in ["clip_coef", "max_grad_norm", "target_kl"]:
        value = getattr(args, name)
        if value is not None and not value > 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {value}")
    if args.seq_len < 0 or args.eval_episodes < 0:
        fail("--seq-len and --eval-episodes must not be negative")
    if args.seq_len > args.num_steps:
        fail(f"--seq-len {args.seq_len} is larger than --num-steps {args.num_steps}")
    seq_len = args.seq_len or args.num_steps
    if args.num_steps % seq_len:
        fail(f"--seq-len {seq_len} must divide --num-steps {args.num_steps}")
    num_sequences = args.num_envs * (args.num_steps // seq_len)
    if num_sequences % args.num_minibatches:
        num_mbs = args.num_minibatches
        fail(f"{num_sequences} sequences of {seq_len} steps do not split into {num_mbs} minibatches")
    if args.norm_adv and num_sequences // args.num_minibatches * seq_len == 1:
        fail("a minibatch of one step cannot normalise its advantages: fewer minibatches or --no-norm-adv")
    if args.export_onnx and importlib.util.find_spec("onnx") is None:
        fail("--export-onnx needs the onnx package (and onnxruntime to run the model): pip install onnx")
    batch_size = args.num_envs * args.num_steps
    if args.total_timesteps < batch_size and not args.eval_checkpoint:
        fail(f"--total-timesteps {args.total_timesteps} is less than one rollout ({batch_size})")


def load_checkpoint(args: Args) -> dict | None:
    """The checkpoint of --resume or --eval-checkpoint, checked; what it decides (the network's
    width) overrides the command line."""
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
    for key in ["rnn_hidden_size"]:
        if getattr(args, key) != checkpoint["args"][key]:
            print(f"{key} = {checkpoint['args'][key]}, as the checkpoint was trained")
            setattr(args, key, checkpoint["args"][key])
    return checkpoint


def set_up_rank(args: Args) -> tuple[int, int, int, torch.device, int, int]:
    """torchrun starts one process per rank and sets RANK and the rest (`python ppo_gru_atari.py` is
    rank 0 of 1): returns the rank, the world size, the local rank, the device, the cores this rank
    may use and the update's threads, with everything seeded and the process group joined."""
    rank, world_size = int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))
    local_rank, local_world_size = int(os.environ.get("LOCAL_RANK", 0)), int(os.environ.get("LOCAL_WORLD_SIZE", 1))
    use_cuda, gpus = torch.cuda.is_available() and args.cuda, torch.cuda.device_count()
    if use_cuda and local_world_size > gpus:  # NCCL refuses two ranks on one GPU
        fail(f"{local_world_size} ranks on this node but {gpus} GPU(s): start one rank per GPU "
             "(torchrun --nproc-per-node), or pass --no-cuda for CPU ranks")
    # seeded by the global rank (LOCAL_RANK repeats on every node): each rank samples and seeds its
    # envs apart; the weights start equal everywhere, DistributedDataParallel copying rank 0's
    random.seed(args.seed + rank)
    np.random.seed(args.seed + rank)
    torch.manual_seed(args.seed + rank)
    torch.backends.cudnn.deterministic = args.torch_deterministic
    # float32 stays float32 on a GPU: TF32 convolutions and RNNs put the replay's ratio 1e-4 off 1
    torch.backends.cudnn.conv.fp32_precision = torch.backends.cudnn.rnn.fp32_precision = "ieee"
    torch.backends.cuda.matmul.fp32_precision = "ieee"
    device = torch.device(f"cuda:{local_rank}" if use_cuda else "cpu")
    if use_cuda:
        torch.cuda.set_device(device)
    if world_size > 1:
        dist.init_process_group("nccl" if use_cuda else "gloo")
    cores = max(1, len(os.sched_getaffinity(0)) // local_world_size)
    # the update leaves a core free: on a small machine a busy neighbour cannot then stall its threads
    update_threads = args.torch_threads or max(1, cores - 1)
    if device.type == "cpu":
        torch.set_num_threads(update_threads)
    return rank, world_size, local_rank, device, cores, update_threads


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


def stop_as_ctrl_c(signum, frame):
    raise KeyboardInterrupt


def on_sigterm(handler):
    """Sets SIGTERM's handler and returns the one before; Python sets handlers in the main thread
    only, so a run in another thread leaves SIGTERM as it is."""
    if threading.current_thread() is threading.main_thread():
        return signal.signal(signal.SIGTERM, handler)
    return signal.getsignal(signal.SIGTERM)


class Policy(nn.Module):
    """The acting policy alone, one step of N games, as --export-onnx writes it: uint8 frames in,
    the GRU zeroed where episode_start is 1 (a new game; a lost life too where the caller resets
    there, as --reset-state-on-life-loss does), the most likely action out, as evaluation acts."""

    def __init__(self, agent: Agent):
        super().__init__()
        self.agent = agent

    def forward(self, obs, h, episode_start):
        hidden, h = self.agent.unroll(obs, h, episode_start)
        return self.agent.actor(hidden).argmax(-1), h


def export_onnx(agent: Agent, args: Args) -> None:
    """Inputs obs (N, 1, 84, 84) uint8, h (1, N, hidden) and episode_start (N,); outputs action and
    h_out, the state to feed back."""
    policy = copy.deepcopy(agent).cpu().to(memory_format=torch.contiguous_format)
    policy.amp = False  # float32 throughout
    policy = Policy(policy).eval()
    frames = torch.zeros(2, 1, 84, 84, dtype=torch.uint8)
    example = (frames, policy.agent.get_initial_state(2), torch.ones(2))
    inputs, outputs = ["obs", "h", "episode_start"], ["action", "h_out"]
    batch = {name: {1 if name[0] == "h" else 0: "N"} for name in inputs + outputs}  # any N games
    with warnings.catch_warnings():  # the tracer's notes on the one-step branch it records
        warnings.simplefilter("ignore")
        torch.onnx.export(policy, example, args.export_onnx, dynamo=False, dynamic_axes=batch,
                          input_names=inputs, output_names=outputs)
    print(f"policy exported to {args.export_onnx} (inputs {inputs}, outputs {outputs})")


def make_run_dir(args: Args) -> tuple[str, str]:
    prefix = f"{args.env_id}__{args.exp_name}__{args.seed}"
    stamp = int(time.time())
    while True:  # claimed atomically: two runs started in the same second must not share a folder
        run_name = f"{prefix}__{stamp}"
        try:
            os.makedirs(os.path.join("runs", run_name))
            return run_name, os.path.join("runs", run_name)
        except FileExistsError:
            stamp += 1


def training_state(agent, optimizer, args: Args, global_step: int, iteration: int) -> dict | None:
    """What a checkpoint holds, copied after every completed update, so that a stop saves the last
    good weights with their global step; None without --save-model (the copy costs about 1 ms)."""
    if not args.save_model:
        return None
    state = {"script": SCRIPT, "env_id": args.env_id, "args": asdict(args)}
    state.update(model=agent.state_dict(), optimizer=optimizer.state_dict())
    state.update(global_step=global_step, iteration=iteration)
    return copy.deepcopy(state)


def save(state: dict | None, run_dir: str, args: Args) -> str | None:
    if state is None:
        return None
    path = os.path.join(run_dir, f"{args.exp_name}.pt")
    torch.save(state, path)
    return path


def close_run(writer: SummaryWriter | None, envs, args: Args, sigterm_handler, exit_code) -> None:
    """Closes what a run opened, its logs whole (rank 0 alone has a writer and a W&B run)."""
    on_sigterm(sigterm_handler)
    envs.close()
    if writer is not None:
        writer.close()
        if args.track:
            import wandb

            wandb.finish(exit_code=exit_code)


def stop_if_non_finite(loss_finite: torch.Tensor, agent: nn.Module, world_size: int) -> None:
    """Once an update, on every rank alike: a non-finite loss (any rank's) or weight stops a run."""
    weights_finite = torch.stack([p.isfinite().all() for p in agent.parameters()]).all()
    non_finite = torch.stack([~loss_finite, ~weights_finite]).float()
    if world_size > 1:
        dist.all_reduce(non_finite, op=dist.ReduceOp.MAX)
    if non_finite[0]:
        raise NonFinite("loss")
    if non_finite[1]:
        raise NonFinite("weights")


def exit_code(stop: BaseException) -> int:
    return 130 if isinstance(stop, KeyboardInterrupt) else 2 if isinstance(stop, NonFinite) else 1


def say_why_stopped(stop: BaseException, where: str, iteration: int, last_good, path, rank) -> None:
    """One line, from rank 0; a non-finite value exits with 2, Ctrl-C or SIGTERM with 130, an error
    goes on."""
    step = last_good["global_step"] if last_good else None
    if isinstance(stop, NonFinite) and rank > 0:
        raise SystemExit(2) from None  # rank 0 says it
    if isinstance(stop, NonFinite):
        kept = f"; checkpoint of the last good weights (global step {step}): {path}" if path else ""
        fail(f"non-finite {stop} at update {iteration}" + kept)
    interrupted = isinstance(stop, KeyboardInterrupt)
    if rank == 0:
        kept = f"; checkpoint at global step {step}: {path}" if path else ""
        what = "interrupted" if interrupted else f"stopped by {type(stop).__name__}"
        print(f"{what} {where}" + kept, file=sys.stderr)
    if interrupted:
        raise SystemExit(130) from None


def write_summary(args: Args, run_dir: str, global_step, trained, train_time, recent_returns,
                  eval_returns, checkpoint_path, extra: dict) -> dict:
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
        **extra,
    }
    with open(os.path.join(run_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    if eval_returns:
        mean, std = np.mean(eval_returns), np.std(eval_returns)
        print(f"eval: {mean:.2f} +- {std:.2f} over {len(eval_returns)} games")
    print(f"summary: {os.path.join(run_dir, 'summary.json')}  (tensorboard --logdir runs)")
    return summary


def to_seqs(x: torch.Tensor, seq_len: int) -> torch.Tensor:
    """(T, N, ...) -> (seq_len, S, ...), S = T / seq_len * N: sequence k * N + n is env n's k-th."""
    num_envs, rest = x.shape[1], x.shape[2:]
    return x.view(-1, seq_len, num_envs, *rest).transpose(0, 1).reshape(seq_len, -1, *rest)


def take(x: torch.Tensor, seqs: torch.Tensor) -> torch.Tensor:
    """(seq_len, S, ...) -> (seq_len * M, ...) for M sequences, time-major as the Agent expects."""
    return x[:, seqs].reshape(-1, *x.shape[2:])


def restore(checkpoint: dict | None, agent, optimizer) -> tuple[int, int]:
    """Loads a checkpoint's weights and optimizer; returns its step and update. Weights and Adam
    moments take their parameter's layout (channels-last on CPU), as fused Adam reads them."""
    if checkpoint is None:
        return 0, 0
    try:
        agent.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
    except (KeyError, RuntimeError, ValueError) as error:  # weights missing, or of other shapes
        why = "; ".join(line.strip() for line in str(error).splitlines()[:2])
        fail(f"the checkpoint's weights do not fit the network its args describe: {why}")
    for param in agent.parameters():
        for key, moment in optimizer.state.get(param, {}).items():
            if torch.is_tensor(moment) and moment.shape == param.shape:
                optimizer.state[param][key] = torch.empty_like(param).copy_(moment)
    return checkpoint["global_step"], checkpoint["iteration"]


def main(args: Args) -> dict | None:
    check_args(args)
    backend = pick_backend(args.backend)
    check_env_id(args.env_id)
    checkpoint = load_checkpoint(args)
    rank, world_size, local_rank, device, cores, update_threads = set_up_rank(args)
    seq_len = args.seq_len or args.num_steps
    batch_size = args.num_envs * args.num_steps * world_size  # global_step counts every rank's
    # whole rollouts up to total_timesteps by global step: a resumed run may change the batch
    schedule_steps = args.total_timesteps // batch_size * batch_size
    run_name, run_dir = make_run_dir(args) if rank == 0 else (None, None)
    # Environments on CPU threads; the agent on the device
    first_seed, threads = args.seed + rank * args.num_envs, args.env_threads or cores
    envs = make_envs(args, backend, args.num_envs, first_seed, None, args.env_groups, threads)
    agent = Agent(envs, args).to(device)
    if device.type == "cpu":  # oneDNN's convolutions train faster in channels-last layout
        agent = agent.to(memory_format=torch.channels_last)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)
    global_step, iteration = restore(checkpoint, agent, optimizer)
    # the update calls `learner`: with several ranks it averages their gradients in backward()
    devices = [local_rank] if device.type == "cuda" else None
    learner = agent if world_size == 1 else DistributedDataParallel(agent, device_ids=devices)
    num_updates = 0 if args.eval_checkpoint else (args.total_timesteps - global_step) // batch_size
    first_iteration, last_iteration = iteration + 1, iteration + num_updates
    writer = start_logging(args, run_name, run_dir) if rank == 0 else None  # rank 0 alone logs

    # Rollout storage, (T, N, ...): frames stay uint8 on the device; rewards (clipped to their sign)
    # and episode ends on the host, moved once a rollout; episode_starts[t]: obs[t] opens an episode
    steps_envs = (args.num_steps, args.num_envs)
    obs = torch.zeros(steps_envs + (1, 84, 84), dtype=torch.uint8, device=device)
    actions = torch.zeros(steps_envs, dtype=torch.long, device=device)
    episode_starts, logprobs, values, final_values = torch.zeros((4,) + steps_envs, device=device)
    rewards, terminations, truncations = np.zeros((3,) + steps_envs, dtype=np.float32)
    state = agent.get_initial_state(args.num_envs)
    # each sequence's first state, so that training replays it from where the rollout was
    seq_states = torch.zeros((args.num_steps // seq_len,) + state.shape, device=device)
    last_good = training_state(agent, optimizer, args, global_step, iteration)
    next_obs_np, info = envs.reset(seed=first_seed)
    next_obs = torch.as_tensor(next_obs_np, device=device)
    lives = info["lives"]
    next_episode_starts = torch.ones(args.num_envs, device=device)
    group_rows = [torch.as_tensor(ids, device=device) for ids in envs.groups]  # on the device once
    game_return, game_length = np.zeros(args.num_envs), np.zeros(args.num_envs, dtype=int)
    recent_returns, start_time, start_step = [], time.time(), global_step
    previous_handler = on_sigterm(stop_as_ctrl_c)  # SIGTERM (`timeout`, torchrun) is Ctrl-C
    where = "at global step"
    try:
        for iteration in range(first_iteration, last_iteration + 1):
            # the schedule follows the global step: a resumed run continues it where it left off
            if args.anneal_lr:
                optimizer.param_groups[0]["lr"] = (1.0 - global_step / schedule_steps) * args.learning_rate
            if device.type == "cpu":
                torch.set_num_threads(1)

            final_values.zero_()  # only the steps cut by a time limit get one below
            games = []  # (global step, return, length) of each game ending in this rollout
            # each group acts, then steps on envpool's threads while the next is inferred; its step
            # is recorded at the next pass, just before it acts again (pass num_steps only records)
            for step in range(args.num_steps + 1):
                if step < args.num_steps and step % seq_len == 0:
                    seq_states[step // seq_len] = state
                for group, group_ids in enumerate(envs.groups):
                    if step > 0:
                        next_obs_np, reward, terminated, truncated, info = envs.recv(group)
                        # rows come back in any order: storage, state and bookkeeping go by env id
                        ids = info["env_id"]
                        in_order = np.array_equal(ids, group_ids)
                        rows = group_rows[group] if in_order else torch.as_tensor(ids, device=device)
                        life_lost = (info["lives"] < lives[ids]) & ~terminated & ~truncated
                        lives[ids] = info["lives"]
                        rewards[step - 1, ids] = np.sign(reward)
                        terminations[step - 1, ids] = terminated | (life_lost & args.episodic_life)
                        truncations[step - 1, ids] = truncated
                        cut = np.flatnonzero(truncated & ~terminated)
                        if len(cut):  # a time-limit cut: bootstrapped from its final obs, its state
                            final_obs = torch.as_tensor(info["final_obs"][cut], device=device)
                            no_starts = torch.zeros(len(cut), device=device)
                            cut_state = state[:, ids[cut]]
                            with torch.no_grad():
                                final_value = agent.get_value(final_obs, cut_state, no_starts)
                            final_values[step - 1, ids[cut]] = final_value.flatten()
                        next_obs[rows] = torch.as_tensor(next_obs_np, device=device)
                        ended = terminated | truncated
                        starts_np = ended | (life_lost & args.reset_state_on_life_loss)
                        next_episode_starts[rows] = torch.as_tensor(starts_np, device=device).float()
                        game_return[ids] += reward
                        game_length[ids] += 1
                        for i in ids[ended]:
                            recent_returns = (recent_returns + [game_return[i]])[-20:]
                            games.append((global_step, game_return[i], game_length[i]))
                            game_return[i], game_length[i] = 0.0, 0
                    if step < args.num_steps:
                        ids, rows = group_ids, group_rows[group]
                        global_step += len(ids) * world_size
                        obs[step, rows] = next_obs[rows]
                        episode_starts[step, rows] = next_episode_starts[rows]
                        with torch.no_grad():
                            action, logprob, _, value, state[:, rows] = agent.get_action_and_value(
                                next_obs[rows], state[:, rows], next_episode_starts[rows]
                            )
                        values[step, rows] = value.flatten()
                        actions[step, rows] = action
                        logprobs[step, rows] = logprob
                        envs.send(action.cpu().numpy(), ids)
            if device.type == "cpu":
                torch.set_num_threads(update_threads)
            with torch.no_grad():
                next_value = agent.get_value(next_obs, state, next_episode_starts).flatten()
            host = [torch.as_tensor(x, device=device) for x in (rewards, terminations, truncations)]
            advantages, returns = compute_gae(
                host[0], values, *host[1:], final_values, next_value, args.gamma, args.gae_lambda
            )

            # Sequences: (T, N, ...) -> (seq_len, S, ...), each env's rollout cut into seq_len steps
            stored = (obs, episode_starts, actions, logprobs, advantages, returns, values)
            b_obs, b_starts, b_actions, b_logprobs, b_advantages, b_returns, b_values = (
                to_seqs(x, seq_len) for x in stored
            )
            # (K, 1, N, hidden) -> (1, K * N, hidden), in the same sequence order
            b_states = seq_states.transpose(0, 1).reshape(1, -1, state.shape[2])
            num_seqs, mb_seqs = b_obs.shape[1], b_obs.shape[1] // args.num_minibatches
            # statistics stay on the device until the update ends: each read would wait for the GPU
            clipfracs, first_ratio_error = [], None
            loss_finite = torch.ones((), dtype=torch.bool, device=device)
            for _ in range(args.update_epochs):
                order = torch.randperm(num_seqs, device=device)
                for begin in range(0, num_seqs, mb_seqs):
                    mb = order[begin : begin + mb_seqs]
                    _, newlogprob, entropy, newvalue, _ = learner(
                        take(b_obs, mb), b_states[:, mb], take(b_starts, mb), take(b_actions, mb)
                    )
                    logratio = newlogprob - take(b_logprobs, mb)
                    ratio = logratio.exp()
                    with torch.no_grad():
                        old_approx_kl = (-logratio).mean()
                        approx_kl = ((ratio - 1) - logratio).mean()
                        clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean())
                        if first_ratio_error is None:  # the replay reproduces the rollout: ratio 1
                            first_ratio_error = (ratio - 1.0).abs().max()
                    loss, pg_loss, v_loss, entropy_loss = ppo_loss(
                        ratio, take(b_advantages, mb), newvalue.view(-1), take(b_values, mb),
                        take(b_returns, mb), entropy, args.clip_coef, args,
                    )
                    loss_finite &= torch.isfinite(loss)
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                    optimizer.step()
                if args.target_kl is not None:
                    if world_size > 1:  # every rank stops at the same epoch, or an all-reduce hangs
                        dist.all_reduce(approx_kl)
                        approx_kl /= world_size
                    if approx_kl > args.target_kl:
                        break
            stop_if_non_finite(loss_finite, agent, world_size)
            last_good = training_state(agent, optimizer, args, global_step, iteration)
            if rank > 0:
                continue
            for at, score, length in games:  # logged with the update they lead to, once kept
                writer.add_scalar("charts/episodic_return", score, at)
                writer.add_scalar("charts/episodic_length", length, at)
            y_pred, y_true = b_values.flatten().cpu().numpy(), b_returns.flatten().cpu().numpy()
            var_y = np.var(y_true)
            sps = int((global_step - start_step) / (time.time() - start_time))
            explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
            losses = {"value_loss": v_loss, "policy_loss": pg_loss, "entropy": entropy_loss, "approx_kl": approx_kl,
                      "old_approx_kl": old_approx_kl, "clipfrac": torch.stack(clipfracs).mean(),
                      "first_ratio_error": first_ratio_error}  # read from the device once, here
            scalars = {f"losses/{key}": value.item() for key, value in losses.items()}
            scalars |= {"charts/learning_rate": optimizer.param_groups[0]["lr"], "charts/SPS": sps,
                        "losses/explained_variance": explained_var}
            for key, value in scalars.items():
                writer.add_scalar(key, value, global_step)
            recent = f"{np.mean(recent_returns):.1f}" if recent_returns else "n/a"
            print(f"update {iteration}/{last_iteration}  global_step {global_step}  SPS {sps}  return {recent}")

        train_time = time.time() - start_time
        if world_size > 1:
            dist.destroy_process_group()
        if rank > 0:
            on_sigterm(previous_handler)
            return None
        checkpoint_path = save(last_good, run_dir, args)
        if args.export_onnx:
            export_onnx(agent, args)
        where = "in the evaluation after global step"
        eval_returns = evaluate(agent, args, backend, device, run_name)
    except (KeyboardInterrupt, Exception) as stop:  # Ctrl-C, SIGTERM, a non-finite value, an error
        path = save(last_good, run_dir, args) if rank == 0 else None
        close_run(writer, envs, args, previous_handler, exit_code(stop))
        say_why_stopped(stop, f"{where} {global_step}", iteration, last_good, path, rank)
        raise  # an error as it came, its traceback after the line above
    if eval_returns:
        writer.add_scalar("eval/mean_return", np.mean(eval_returns), global_step)
    close_run(writer, envs, args, previous_handler, 0)
    run = {"backend": backend, "device": device.type, "world_size": world_size}
    return write_summary(args, run_dir, global_step, global_step - start_step, train_time, recent_returns,
                         eval_returns, checkpoint_path, run)

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stop_as_ctrl_c)  # from the first moment, SIGTERM is Ctrl-C
    try:
        main(tyro.cli(Args))
    except KeyboardInterrupt:  # while the run starts (main answers it once training has begun)
        print(f"{SCRIPT}: interrupted before training began: nothing to keep", file=sys.stderr)
        raise SystemExit(130) from None
