# PPO + GRU on Atari pixels (one frame per observation: the GRU carries the motion), one self-contained file.
# python ppo_gru_atari.py --env-id Breakout-v5
import copy
import difflib
import json
import os
import random
import sys
import time
from dataclasses import asdict, dataclass

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import tyro
from torch.distributions.categorical import Categorical
from torch.utils.tensorboard import SummaryWriter

SCRIPT = "ppo_gru_atari.py"


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
    """if toggled, videos of the evaluation episodes are saved under `videos/{run_name}` (gymnasium backend)"""
    save_model: bool = False
    """if toggled, a checkpoint is written to `runs/{run_name}/{exp_name}.pt` at the end (and on Ctrl-C)"""
    resume: str | None = None
    """path of a checkpoint to continue training from"""
    eval_checkpoint: str | None = None
    """path of a checkpoint to evaluate only (no training)"""
    eval_episodes: int = 10
    """episodes (full games) of the final evaluation (0 skips it)"""

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
    """time limit of a game in agent steps (27,000 = 108,000 frames, the usual limit); cut games are bootstrapped"""
    episodic_life: bool = True
    """a life loss ends the episode for GAE (the game goes on), as CleanRL"""
    reset_state_on_life_loss: bool = False
    """also zero the GRU state at a life loss (off: only where a new game starts)"""
    amp: bool = False
    """bfloat16 autocast for the update on CUDA"""
    torch_threads: int = 1
    """torch threads on CPU (1: more fight the env threads for the cores)"""
    env_threads: int = 1
    """envpool worker threads"""

    # Recurrence
    rnn_hidden_size: int = 128
    """width of the GRU state"""
    seq_len: int = 0
    """truncated-BPTT length; 0 means each env's whole rollout is one sequence (minibatching by env)"""
    reset_state_on_done: bool = True
    """zero the recurrent state where a new episode starts"""
    fast_rnn: bool = True
    """train the GRU over whole episode spans in one padded call; off: the per-step reference loop"""


def fail(message: str) -> None:
    """One line for the user, exit code 2, no traceback (CONTRACT section 7)."""
    print(f"{SCRIPT}: error: {message}", file=sys.stderr)
    raise SystemExit(2)


# Environments: two backends with the same preprocessing (84x84 grayscale, frame skip 4, up to 30 no-op starts,
# one frame, no sticky actions, no fire on reset) and the same-step reset: a finished game's next observation
# is the new game's first, and the final observation is in info["final_obs"]
def atari_games() -> list[str]:
    import ale_py.roms

    return sorted("".join(w.capitalize() for w in game.split("_")) + "-v5" for game in ale_py.roms.get_all_rom_ids())


def check_env_id(env_id: str) -> None:
    try:
        games = atari_games()
    except ImportError:
        import envpool

        games = [e for e in envpool.list_all_envs() if e.endswith("-v5")]
    if env_id not in games:
        close = difflib.get_close_matches(env_id, games, n=3)
        hint = "; for vector observations use ppo_lstm.py or ppo_lstm_continuous.py" if env_id in gym.registry else ""
        fail(f"unknown env id '{env_id}'; close matches: {close or 'none'}; this script takes Atari games such as "
             f"Breakout-v5, Pong-v5{hint}")  # fmt: skip


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
    """envpool resets a finished env on the NEXT step and ignores that step's action; resetting the finished
    envs at once instead gives the gymnasium same-step contract, so no dummy transition exists."""

    def __init__(self, env_id: str, num_envs: int, seed: int, max_episode_steps: int, threads: int):
        import envpool

        self.envs = envpool.make(env_id, env_type="gymnasium", num_envs=num_envs, seed=seed, stack_num=1,
                                 episodic_life=False, reward_clip=False, use_fire_reset=False, noop_max=30,
                                 repeat_action_probability=0.0, max_episode_steps=max_episode_steps,
                                 num_threads=threads)  # fmt: skip
        self.num_envs = num_envs
        self.single_observation_space = self.envs.observation_space
        self.single_action_space = self.envs.action_space

    def reset(self, seed: int | None = None):
        obs, info = self.envs.reset()
        return obs, {"lives": info["lives"]}

    def step(self, actions: np.ndarray):
        obs, reward, terminated, truncated, info = self.envs.step(actions)
        info = {"lives": info["lives"].copy()}
        ended = np.flatnonzero(terminated | truncated)
        if len(ended):
            info["final_obs"] = obs.copy()
            new_obs, new_info = self.envs.reset(ended)
            obs[new_info["env_id"]], info["lives"][new_info["env_id"]] = new_obs, new_info["lives"]
        return obs, reward, terminated, truncated, info

    def close(self):
        self.envs.close()


class GymSameStep:
    """ale-py behind gymnasium's SyncVectorEnv (same-step autoreset), with the preprocessing envpool does."""

    def __init__(self, env_id: str, num_envs: int, seed: int, max_episode_steps: int, video_dir: str | None = None,
                 video_episodes: int = 0):  # fmt: skip
        def thunk():
            import ale_py

            gym.register_envs(ale_py)
            # the limit counts agent steps after the no-op starts, as envpool's does (ALE's own frame limit would
            # count the no-op frames too)
            env = gym.make(f"ALE/{env_id}", frameskip=1, repeat_action_probability=0.0, max_num_frames_per_episode=0,
                           render_mode="rgb_array" if video_dir else None)  # fmt: skip
            if video_dir:
                # the vector env's autoreset opens one more game after the last: that one is not recorded
                env = gym.wrappers.RecordVideo(env, video_dir, episode_trigger=lambda e: e < video_episodes,
                                               disable_logger=True)  # fmt: skip
            env = gym.wrappers.AtariPreprocessing(env, noop_max=30, frame_skip=4, screen_size=84)
            env = gym.wrappers.TimeLimit(env, max_episode_steps)
            return gym.wrappers.ReshapeObservation(env, (1, 84, 84))

        self.envs = gym.vector.SyncVectorEnv([thunk] * num_envs, autoreset_mode=gym.vector.AutoresetMode.SAME_STEP)
        self.num_envs, self.seed = num_envs, seed
        self.single_observation_space = self.envs.single_observation_space
        self.single_action_space = self.envs.single_action_space

    def reset(self, seed: int | None = None):
        obs, info = self.envs.reset(seed=self.seed if seed is None else seed)
        return obs, {"lives": info["lives"]}

    def step(self, actions: np.ndarray):
        obs, reward, terminated, truncated, info = self.envs.step(actions)
        out = {"lives": info["lives"]}
        if "final_obs" in info:  # an object array with None where no episode ended: make it (N, 1, 84, 84)
            ended = info["_final_obs"]
            out["final_obs"] = obs.copy()
            out["final_obs"][ended] = np.stack(info["final_obs"][ended])
        return obs, reward, terminated, truncated, out

    def close(self):
        self.envs.close()


def make_envs(args: Args, backend: str, num_envs: int, seed: int, video_dir: str | None = None):
    if backend == "envpool" and not video_dir:  # envpool renders no video: evaluation with video uses ale-py
        return EnvpoolSameStep(args.env_id, num_envs, seed, args.max_episode_steps, args.env_threads)
    return GymSameStep(args.env_id, num_envs, seed, args.max_episode_steps, video_dir, args.eval_episodes)


def layer_init(layer: nn.Module, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Module:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    """Nature CNN over one uint8 frame, a GRU, then linear actor and critic heads (one trunk, as CleanRL).
    The state is the GRU's h, shaped (1, N, hidden)."""

    def __init__(self, envs, args: Args):
        super().__init__()
        self.network = nn.Sequential(
            layer_init(nn.Conv2d(1, 32, 8, stride=4)), nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
            nn.Flatten(), layer_init(nn.Linear(64 * 7 * 7, 512)), nn.ReLU(),
        )  # fmt: skip
        self.gru = nn.GRU(512, args.rnn_hidden_size)
        for name, param in self.gru.named_parameters():
            if "bias" in name:
                nn.init.constant_(param, 0)
            elif "weight" in name:
                nn.init.orthogonal_(param, 1.0)
        self.actor = layer_init(nn.Linear(args.rnn_hidden_size, envs.single_action_space.n), std=0.01)
        self.critic = layer_init(nn.Linear(args.rnn_hidden_size, 1), std=1)
        self.reset_state_on_done, self.fast_rnn = args.reset_state_on_done, args.fast_rnn

    def get_initial_state(self, num_envs: int) -> torch.Tensor:
        return torch.zeros(1, num_envs, self.gru.hidden_size, device=self.gru.weight_hh_l0.device)

    def _unroll_stepwise(self, x, h, episode_starts):
        # reference path: one GRU call per step, the state zeroed before each episode's first step
        outputs = []
        for t in range(x.shape[0]):
            h = h * (1.0 - episode_starts[t]).view(1, -1, 1)
            out, h = self.gru(x[t : t + 1], h)
            outputs.append(out)
        return torch.cat(outputs), h

    def _unroll_padded(self, x, h, episode_starts):
        # fast path: cut every env's sequence where an episode starts and run all the pieces, right-padded,
        # in one call; a piece that opens an episode starts from zeros, each env's first piece from its carried
        # state. A GRU's output is its state, so each env's final state is its last real output: no second pass
        T, B = episode_starts.shape
        piece_begins = episode_starts.bool().T.clone()  # (T, B) -> (B, T): env-major, each piece contiguous
        piece_begins[:, 0] = True
        piece_begins = piece_begins.reshape(-1)
        piece = piece_begins.cumsum(0) - 1  # (B * T,) piece id of every step
        first = piece_begins.nonzero().squeeze(1)  # (P,) flat index of each piece's first step
        pos = torch.arange(B * T, device=x.device) - first[piece]  # step index inside its piece
        padded = x.new_zeros(int(pos.max()) + 1, len(first), x.shape[2])  # (max_len, P, features)
        padded[pos, piece] = x.transpose(0, 1).reshape(B * T, -1)
        h0 = x.new_zeros(1, len(first), h.shape[2])
        h0[:, piece[torch.arange(B, device=x.device) * T]] = h * (1.0 - episode_starts[0]).view(1, -1, 1)
        out, _ = self.gru(padded, h0)
        out = out[pos, piece].view(B, T, -1).transpose(0, 1)  # (T, B, hidden)
        return out, out[-1:].clone()

    def _unroll(self, obs, state, episode_starts):
        # obs (T * N, 1, 84, 84) uint8 time-major -> GRU output (T * N, hidden); episode_starts marks each episode's
        # first step
        N = state.shape[1]
        x = self.network(obs.float() / 255.0).view(-1, N, 512).to(state.dtype)
        episode_starts = episode_starts.view(-1, N)
        if not self.reset_state_on_done:
            out, state = self.gru(x, state)
        elif self.fast_rnn and x.shape[0] > 1:
            out, state = self._unroll_padded(x, state, episode_starts)
        else:
            out, state = self._unroll_stepwise(x, state, episode_starts)
        return out.reshape(-1, out.shape[-1]), state

    def get_value(self, obs, state, episode_starts):
        return self.critic(self._unroll(obs, state, episode_starts)[0])

    def get_action_and_value(self, obs, state, episode_starts, action=None, deterministic=False):
        hidden, state = self._unroll(obs, state, episode_starts)
        logits = self.actor(hidden)
        probs = Categorical(logits=logits, validate_args=False)  # the training loop reports non-finite values
        if action is None:
            action = logits.argmax(-1) if deterministic else probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(hidden), state


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


def evaluate(agent: Agent, args: Args, backend: str, device: torch.device, run_name: str) -> list[float]:
    """Full games on a fresh env, deterministic actions, the state carried within a game (reset at a life
    loss only with --reset-state-on-life-loss) and reset between games; returns are unclipped game scores."""
    video_dir = f"videos/{run_name}" if args.capture_video else None
    env = make_envs(args, backend, 1, args.seed + 100_000, video_dir)
    obs, info = env.reset()
    lives = info["lives"]
    state = agent.get_initial_state(1)
    episode_start = torch.ones(1, device=device)
    returns, game_return = [], 0.0
    while len(returns) < args.eval_episodes:
        with torch.no_grad():
            obs_t = torch.as_tensor(obs, device=device)
            action, _, _, _, state = agent.get_action_and_value(obs_t, state, episode_start, deterministic=True)
        obs, reward, terminated, truncated, info = env.step(action.cpu().numpy())
        game_return += float(reward[0])
        life_lost = info["lives"] < lives
        lives = info["lives"]
        episode_start = torch.zeros(1, device=device)
        if terminated[0] or truncated[0]:
            returns.append(game_return)
            game_return = 0.0
            state = agent.get_initial_state(1)  # zeros: every game starts afresh
            episode_start = torch.ones(1, device=device)
        elif args.reset_state_on_life_loss and life_lost[0]:
            episode_start = torch.ones(1, device=device)
    env.close()
    return returns


def check_args(args: Args) -> None:
    for name in ["total_timesteps", "num_envs", "num_steps", "num_minibatches", "update_epochs", "rnn_hidden_size",
                 "max_episode_steps", "torch_threads", "env_threads"]:  # fmt: skip
        if getattr(args, name) <= 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    if not args.learning_rate > 0:
        fail(f"--learning-rate must be positive, got {args.learning_rate}")
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


# what a checkpoint decides, whatever the command line says: the network's shape
CHECKPOINT_ARGS = ["rnn_hidden_size"]


def take_args_from_checkpoint(args: Args, checkpoint: dict) -> None:
    for key in CHECKPOINT_ARGS:
        if getattr(args, key) != checkpoint["args"][key]:
            print(f"{key} = {checkpoint['args'][key]}, as the checkpoint was trained")
            setattr(args, key, checkpoint["args"][key])


def make_run_dir(args: Args) -> tuple[str, str]:
    prefix = f"{args.env_id}__{args.exp_name}__{args.seed}"
    stamp = int(time.time())
    while os.path.exists(os.path.join("runs", f"{prefix}__{stamp}")):
        stamp += 1  # two runs started in the same second must not share a folder
    return f"{prefix}__{stamp}", os.path.join("runs", f"{prefix}__{stamp}")


def training_state(agent, optimizer, args: Args, global_step: int, iteration: int) -> dict:
    """Everything a checkpoint holds, copied: taken after every completed update, so that Ctrl-C or a non-finite
    value saves the last good weights with the global step they reached, never a half-done update."""
    return copy.deepcopy(
        {
            "script": SCRIPT,
            "env_id": args.env_id,
            "args": asdict(args),
            "model": agent.state_dict(),
            "optimizer": optimizer.state_dict(),
            "global_step": global_step,
            "iteration": iteration,
        }
    )


def load_training_state(agent, optimizer, checkpoint: dict) -> None:
    """Weights and Adam moments take the layout of the parameters they belong to (channels-last on CPU), whatever
    layout the checkpoint was written in: fused Adam reads a moment in its parameter's layout."""
    agent.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    for param in agent.parameters():
        for key, moment in optimizer.state.get(param, {}).items():
            if torch.is_tensor(moment) and moment.shape == param.shape:
                optimizer.state[param][key] = torch.empty_like(param).copy_(moment)


def main(args: Args) -> dict:
    check_args(args)
    backend = pick_backend(args.backend)
    check_env_id(args.env_id)
    checkpoint_file = args.resume or args.eval_checkpoint
    checkpoint = load_checkpoint(checkpoint_file, args.env_id) if checkpoint_file else None
    if checkpoint is not None:
        take_args_from_checkpoint(args, checkpoint)
    seq_len = args.seq_len or args.num_steps
    batch_size = args.num_envs * args.num_steps
    # training runs whole rollouts up to total_timesteps, counted by global step, so a resumed run may change the batch
    schedule_steps = args.total_timesteps // batch_size * batch_size
    run_name, run_dir = make_run_dir(args)

    # Seeding
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = args.torch_deterministic
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(args.torch_threads)
    amp = args.amp and device.type == "cuda"

    # Environments on CPU threads; the agent on the device
    envs = make_envs(args, backend, args.num_envs, args.seed)
    agent = Agent(envs, args).to(device)
    if device.type == "cpu":  # oneDNN's convolutions train faster in channels-last layout
        agent = agent.to(memory_format=torch.channels_last)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)
    global_step, iteration = 0, 0
    if checkpoint is not None:
        load_training_state(agent, optimizer, checkpoint)
        global_step, iteration = checkpoint["global_step"], checkpoint["iteration"]
    num_updates = 0 if args.eval_checkpoint else max(0, (args.total_timesteps - global_step) // batch_size)
    first_iteration, last_iteration = iteration + 1, iteration + num_updates

    writer = SummaryWriter(run_dir)
    if args.track:
        import wandb

        wandb.init(
            project=args.wandb_project_name, entity=args.wandb_entity, sync_tensorboard=True, config=vars(args), name=run_name
        )
    writer.add_text("hyperparameters", "|param|value|\n|-|-|\n" + "\n".join(f"|{k}|{v}|" for k, v in vars(args).items()))

    def save(snapshot: dict) -> str:
        path = os.path.join(run_dir, f"{args.exp_name}.pt")
        torch.save(snapshot, path)
        return path

    def stop_non_finite(what: str) -> None:
        path = save(last_good) if args.save_model else None
        kept = f"; checkpoint of the last good weights (global step {last_good['global_step']}): {path}" if path else ""
        fail(f"non-finite {what} at update {iteration}" + kept)

    # Rollout storage, (T, N, ...): frames stay uint8 on the device; rewards and episode ends live on the host and
    # move once per rollout, so an env step copies the observation and the episode starts in, the action out
    obs = torch.zeros((args.num_steps, args.num_envs, 1, 84, 84), dtype=torch.uint8, device=device)
    # episode_starts[t] marks obs[t] as the first of an episode for the GRU
    episode_starts = torch.zeros((args.num_steps, args.num_envs), device=device)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long, device=device)
    logprobs = torch.zeros((args.num_steps, args.num_envs), device=device)
    values = torch.zeros((args.num_steps, args.num_envs), device=device)
    final_values = torch.zeros((args.num_steps, args.num_envs), device=device)
    # rewards are clipped to their sign for training; a life loss is a termination for GAE with --episodic-life
    rewards = np.zeros((args.num_steps, args.num_envs), dtype=np.float32)
    terminations = np.zeros((args.num_steps, args.num_envs), dtype=np.float32)
    truncations = np.zeros((args.num_steps, args.num_envs), dtype=np.float32)
    state = agent.get_initial_state(args.num_envs)
    # the state at the first step of every sequence, so that training replays each from where the rollout was
    seq_states = torch.zeros((args.num_steps // seq_len,) + state.shape, device=device)

    last_good = training_state(agent, optimizer, args, global_step, iteration)
    next_obs_np, info = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(next_obs_np, device=device)
    lives = info["lives"]
    next_episode_starts = torch.ones(args.num_envs, device=device)
    game_return = np.zeros(args.num_envs)
    game_length = np.zeros(args.num_envs, dtype=int)
    recent_returns = []
    start_time, start_step = time.time(), global_step
    try:
        for iteration in range(first_iteration, last_iteration + 1):
            # the schedule follows the global step, so that a resumed run continues it wherever it left off
            if args.anneal_lr:
                optimizer.param_groups[0]["lr"] = (1.0 - global_step / schedule_steps) * args.learning_rate

            final_values.zero_()  # only the steps cut by a time limit get one below
            for step in range(args.num_steps):
                global_step += args.num_envs
                if step % seq_len == 0:
                    seq_states[step // seq_len] = state
                obs[step] = next_obs
                episode_starts[step] = next_episode_starts
                with torch.no_grad():
                    action, logprob, _, value, state = agent.get_action_and_value(next_obs, state, next_episode_starts)
                values[step] = value.flatten()
                actions[step] = action
                logprobs[step] = logprob

                next_obs_np, reward, terminated, truncated, info = envs.step(action.cpu().numpy())
                life_lost = (info["lives"] < lives) & ~terminated & ~truncated
                lives = info["lives"]
                rewards[step] = np.sign(reward)
                terminations[step] = terminated | (life_lost if args.episodic_life else False)
                truncations[step] = truncated
                truncated_envs = np.flatnonzero(truncated & ~terminated)
                if len(truncated_envs):  # bootstrap a time-limit cut from its final obs, seen with the game's own state
                    final_obs = torch.as_tensor(info["final_obs"][truncated_envs], device=device)
                    no_starts = torch.zeros(len(truncated_envs), device=device)
                    with torch.no_grad():
                        final_values[step, truncated_envs] = agent.get_value(
                            final_obs, state[:, truncated_envs], no_starts
                        ).flatten()
                next_obs = torch.as_tensor(next_obs_np, device=device)
                ended = terminated | truncated
                starts_np = ended | (life_lost & args.reset_state_on_life_loss)
                next_episode_starts = torch.as_tensor(starts_np, dtype=torch.float32, device=device)

                game_return += reward
                game_length += 1
                for i in np.flatnonzero(ended):
                    recent_returns = (recent_returns + [game_return[i]])[-20:]
                    writer.add_scalar("charts/episodic_return", game_return[i], global_step)
                    writer.add_scalar("charts/episodic_length", game_length[i], global_step)
                    game_return[i] = 0.0
                    game_length[i] = 0

            with torch.no_grad():
                next_value = agent.get_value(next_obs, state, next_episode_starts).flatten()
            advantages, returns = compute_gae(
                torch.as_tensor(rewards, device=device),
                values,
                torch.as_tensor(terminations, device=device),
                torch.as_tensor(truncations, device=device),
                final_values,
                next_value,
                args.gamma,
                args.gae_lambda,
            )

            # Sequences: (T, N, ...) -> (seq_len, S, ...) with S = T / seq_len * N, sequence k * N + n = env n's k-th piece
            def to_seqs(x):
                return x.view(-1, seq_len, args.num_envs, *x.shape[2:]).transpose(0, 1).reshape(seq_len, -1, *x.shape[2:])

            def take(x, seqs):  # (seq_len, S, ...) -> (seq_len * M, ...), time-major as the Agent expects
                return x[:, seqs].reshape(-1, *x.shape[2:])

            b_obs, b_episode_starts, b_actions, b_logprobs, b_advantages, b_returns, b_values = map(
                to_seqs, (obs, episode_starts, actions, logprobs, advantages, returns, values)
            )
            b_states = seq_states.transpose(0, 1).reshape(1, -1, state.shape[2])  # (K, 1, N, H) -> (1, K * N, H)
            num_seqs = b_obs.shape[1]
            seqs_per_minibatch = num_seqs // args.num_minibatches
            clipfracs, first_ratio_error = [], None
            for _ in range(args.update_epochs):
                order = torch.randperm(num_seqs, device=device)
                for begin in range(0, num_seqs, seqs_per_minibatch):
                    mb = order[begin : begin + seqs_per_minibatch]
                    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
                        _, newlogprob, entropy, newvalue, _ = agent.get_action_and_value(
                            take(b_obs, mb), b_states[:, mb], take(b_episode_starts, mb), take(b_actions, mb)
                        )
                    newlogprob = newlogprob.float()
                    entropy = entropy.float()
                    newvalue = newvalue.float()
                    logratio = newlogprob - take(b_logprobs, mb)
                    ratio = logratio.exp()
                    with torch.no_grad():
                        old_approx_kl = (-logratio).mean()
                        approx_kl = ((ratio - 1) - logratio).mean()
                        clipfracs += [((ratio - 1.0).abs() > args.clip_coef).float().mean().item()]
                        if first_ratio_error is None:  # the replay must reproduce the rollout: ratio 1 here
                            first_ratio_error = (ratio - 1.0).abs().max().item()

                    mb_advantages = take(b_advantages, mb)
                    if args.norm_adv:
                        mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
                    pg_loss1 = -mb_advantages * ratio
                    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
                    pg_loss = torch.max(pg_loss1, pg_loss2).mean()

                    newvalue = newvalue.view(-1)
                    mb_returns = take(b_returns, mb)
                    mb_values = take(b_values, mb)
                    if args.clip_vloss:
                        v_loss_unclipped = (newvalue - mb_returns) ** 2
                        v_clipped = mb_values + torch.clamp(newvalue - mb_values, -args.clip_coef, args.clip_coef)
                        v_loss_max = torch.max(v_loss_unclipped, (v_clipped - mb_returns) ** 2)
                        v_loss = 0.5 * v_loss_max.mean()
                    else:
                        v_loss = 0.5 * ((newvalue - mb_returns) ** 2).mean()

                    entropy_loss = entropy.mean()
                    loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef
                    if not torch.isfinite(loss):
                        stop_non_finite("loss")

                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                    optimizer.step()

                if args.target_kl is not None and approx_kl > args.target_kl:
                    break
            if not torch.stack([p.isfinite().all() for p in agent.parameters()]).all():
                stop_non_finite("weights")
            last_good = training_state(agent, optimizer, args, global_step, iteration)

            y_pred, y_true = b_values.flatten().cpu().numpy(), b_returns.flatten().cpu().numpy()
            var_y = np.var(y_true)
            explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
            sps = int((global_step - start_step) / (time.time() - start_time))
            writer.add_scalar("charts/learning_rate", optimizer.param_groups[0]["lr"], global_step)
            writer.add_scalar("charts/SPS", sps, global_step)
            writer.add_scalar("losses/value_loss", v_loss.item(), global_step)
            writer.add_scalar("losses/policy_loss", pg_loss.item(), global_step)
            writer.add_scalar("losses/entropy", entropy_loss.item(), global_step)
            writer.add_scalar("losses/old_approx_kl", old_approx_kl.item(), global_step)
            writer.add_scalar("losses/approx_kl", approx_kl.item(), global_step)
            writer.add_scalar("losses/clipfrac", np.mean(clipfracs), global_step)
            writer.add_scalar("losses/explained_variance", explained_var, global_step)
            writer.add_scalar("losses/first_ratio_error", first_ratio_error, global_step)
            recent = f"{np.mean(recent_returns):.1f}" if recent_returns else "n/a"
            print(f"update {iteration}/{last_iteration}  global_step {global_step}  SPS {sps}  return(last20) {recent}")
    except KeyboardInterrupt:
        path = save(last_good) if args.save_model else None
        writer.close()
        envs.close()
        if args.track:
            wandb.finish(exit_code=130)
        kept = f"; checkpoint at global step {last_good['global_step']}: {path}" if path else ""
        print(f"interrupted at global step {global_step}" + kept, file=sys.stderr)
        raise SystemExit(130) from None
    envs.close()
    train_time = time.time() - start_time
    checkpoint_path = save(last_good) if args.save_model else None

    eval_returns = evaluate(agent, args, backend, device, run_name) if args.eval_episodes > 0 else []
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
        "checkpoint": checkpoint_path,
        "backend": backend,
        "device": device.type,
    }
    with open(os.path.join(run_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    writer.close()
    if args.track:
        wandb.finish()
    if eval_returns:
        print(f"eval: {np.mean(eval_returns):.2f} +- {np.std(eval_returns):.2f} over {len(eval_returns)} games")
    print(f"summary: {os.path.join(run_dir, 'summary.json')}  (tensorboard --logdir runs)")
    return summary


if __name__ == "__main__":
    main(tyro.cli(Args))
