# PPO + LSTM for continuous actions and vector observations, one self-contained file.
# python ppo_lstm_continuous.py --env-id PendulumNoVel-v1
import difflib
import json
import os
import random
import sys
import time
from dataclasses import asdict, dataclass
from functools import partial

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import tyro
from torch.distributions.normal import Normal
from torch.nn.utils.rnn import pack_padded_sequence
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

    # Algorithm specific arguments
    env_id: str = "PendulumNoVel-v1"
    """the id of the environment (`module:EnvId` imports the module first)"""
    total_timesteps: int = 150_000
    """total timesteps of the experiment"""
    learning_rate: float = 1e-3
    """the learning rate of the optimizer"""
    num_envs: int = 8
    """the number of parallel game environments"""
    num_steps: int = 128
    """the number of steps to run in each environment per policy rollout"""
    anneal_lr: bool = True
    """toggle learning rate annealing"""
    gamma: float = 0.9
    """the discount factor gamma"""
    gae_lambda: float = 0.95
    """the lambda for the general advantage estimation"""
    num_minibatches: int = 4
    """the number of mini-batches"""
    update_epochs: int = 10
    """the K epochs to update the policy"""
    norm_adv: bool = True
    """toggles advantages normalization"""
    clip_coef: float = 0.2
    """the surrogate clipping coefficient"""
    anneal_clip: bool = False
    """anneal the clipping coefficient to 0 with the learning rate (steadies the late updates)"""
    clip_vloss: bool = True
    """toggles whether or not to use a clipped loss for the value function"""
    ent_coef: float = 0.0
    """coefficient of the entropy"""
    vf_coef: float = 0.5
    """coefficient of the value function"""
    max_grad_norm: float = 0.5
    """the maximum norm for the gradient clipping"""
    target_kl: float | None = None
    """the target KL divergence threshold"""
    norm_obs: bool = True
    """normalise observations with running statistics (saved in the checkpoint, frozen in evaluation)"""
    norm_reward: bool = True
    """scale rewards by the running standard deviation of the discounted return"""
    reward_floor: float | None = None
    """raise training rewards below this value to it (off by default; -1 lets BipedalWalker-v3 learn to walk)"""
    init_logstd: float = -0.5
    """initial log standard deviation of the Gaussian policy"""
    noise_corr: float = 0.0
    """correlation of the exploration noise between consecutive steps of an episode (0: drawn anew each step;
    0.95 lets MountainCarContinuousNoVel-v0 find the flag); the Gaussian and its logprob stay as they are"""

    # Recurrence
    rnn_hidden_size: int = 64
    """width of the LSTM state"""
    seq_len: int = 0
    """truncated-BPTT length; 0 means each env's whole rollout is one sequence (minibatching by env)"""
    reset_state_on_done: bool = True
    """zero the recurrent state where a new episode starts"""
    shared_lstm: bool = False
    """the critic reads the actor's LSTM (as CleanRL) instead of having its own (as sb3-contrib)"""
    fast_rnn: bool = True
    """train the LSTM over whole episode spans in one packed call; off: the per-step reference loop"""


def fail(message: str) -> None:
    """One line for the user, exit code 2, no traceback (CONTRACT section 7)."""
    print(f"{SCRIPT}: error: {message}", file=sys.stderr)
    raise SystemExit(2)


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


def check_env_id(env_id: str) -> None:
    try:
        gym.spec(env_id)
    except (gym.error.Error, ModuleNotFoundError):
        close = difflib.get_close_matches(env_id, list(gym.registry), n=3)
        fail(f"unknown env id '{env_id}'; close matches: {close or 'none'}; this script's own ids: {OWN_ENV_IDS}")


def check_spaces(envs: gym.vector.VectorEnv) -> None:
    obs_space, act_space = envs.single_observation_space, envs.single_action_space
    if not isinstance(act_space, gym.spaces.Box) or len(act_space.shape) != 1:
        fail(f"{SCRIPT} handles 1-D Box actions, not {act_space}; use ppo_lstm.py for Discrete actions")
    if not isinstance(obs_space, gym.spaces.Box) or len(obs_space.shape) != 1:
        fail(f"{SCRIPT} handles 1-D Box observations, not {obs_space}; use ppo_gru_atari.py for images")


def make_env(env_id: str, render_mode: str | None = None):
    def thunk():
        return gym.make(env_id, render_mode=render_mode)

    return thunk


class RunningMeanStd:
    """Running mean and variance over batches (the parallel algorithm of Chan et al.)."""

    def __init__(self, shape: tuple = ()):
        self.mean, self.var, self.count = np.zeros(shape), np.ones(shape), 1e-4

    def update(self, x: np.ndarray) -> None:
        delta, n = x.mean(0) - self.mean, x.shape[0]
        total = self.count + n
        self.mean = self.mean + delta * n / total
        self.var = (self.var * self.count + x.var(0) * n + delta**2 * self.count * n / total) / total
        self.count = total

    def normalize(self, x: np.ndarray) -> np.ndarray:
        return np.clip((x - self.mean) / np.sqrt(self.var + 1e-8), -10.0, 10.0)


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
        self.actor_logstd = nn.Parameter(torch.full((1, action_dim), args.init_logstd))
        self.critic = nn.Sequential(layer_init(nn.Linear(hidden, 64)), nn.Tanh(), layer_init(nn.Linear(64, 1), std=1.0))
        self.reset_state_on_done, self.fast_rnn = args.reset_state_on_done, args.fast_rnn

    def get_initial_state(self, num_envs: int) -> tuple[torch.Tensor, torch.Tensor]:
        num_lstms = 1 if self.critic_lstm is None else 2
        zeros = torch.zeros(num_lstms, num_envs, self.lstm.hidden_size, device=self.lstm.weight_hh_l0.device)
        return zeros, zeros.clone()

    def _unroll_stepwise(self, lstm, x, state, starts):
        # reference path: one LSTM call per step, the state zeroed before each episode's first step
        outputs = []
        for t in range(x.shape[0]):
            if self.reset_state_on_done:
                keep = (1.0 - starts[t]).view(1, -1, 1)
                state = (state[0] * keep, state[1] * keep)
            out, state = lstm(x[t : t + 1], state)
            outputs.append(out)
        return torch.cat(outputs), state

    def _unroll_padded(self, lstm, x, state, starts, need_state):
        # fast path: cut every env's sequence where an episode starts and run all the pieces, right-padded,
        # in one fused call (one call costs about as much as a few steps on CPU); a piece that opens an
        # episode starts from zeros, each env's first piece from its carried state
        T, B = starts.shape
        cuts = starts.bool().T.clone()  # (T, B) -> (B, T): env-major, so that each piece is contiguous
        cuts[:, 0] = True
        cuts = cuts.reshape(-1)
        piece = cuts.cumsum(0) - 1  # (B * T,) piece id of every step
        first = cuts.nonzero().squeeze(1)  # (P,) flat index of each piece's first step
        pos = torch.arange(B * T, device=x.device) - first[piece]  # step index inside its piece
        lengths = torch.bincount(piece)
        padded = x.new_zeros(int(lengths.max()), len(first), x.shape[2])  # (max_len, P, obs_dim)
        padded[pos, piece] = x.transpose(0, 1).reshape(B * T, -1)
        env_first = piece[torch.arange(B, device=x.device) * T]
        h0 = x.new_zeros(state[0].shape[0], len(first), state[0].shape[2])
        c0 = h0.clone()
        h0[:, env_first], c0[:, env_first] = (
            state[0] * (1.0 - starts[0]).view(1, -1, 1),
            state[1] * (1.0 - starts[0]).view(1, -1, 1),
        )
        out, (h_n, c_n) = lstm(padded, (h0, c0))
        out = out[pos, piece].view(B, T, -1).transpose(0, 1)  # (T, B, hidden)
        if not need_state:  # a training update discards the final state: no second pass
            return out, None
        # padding runs on past a piece's end, so only pieces of full length leave the right final state;
        # the others' last pieces are run again, packed (exact, no padding) and without gradient
        env_last = piece[torch.arange(B, device=x.device) * T + T - 1]
        h_n, c_n = h_n[:, env_last], c_n[:, env_last]
        short = (lengths[env_last] < padded.shape[0]).nonzero().squeeze(1)
        if len(short):
            with torch.no_grad():
                rows = env_last[short]
                packed = pack_padded_sequence(padded[:, rows], lengths[rows].cpu(), enforce_sorted=False)
                _, (h_s, c_s) = lstm(packed, (h0[:, rows], c0[:, rows]))
            h_n, c_n = h_n.index_copy(1, short, h_s), c_n.index_copy(1, short, c_s)
        return out, (h_n, c_n)

    def _unroll(self, lstm, obs, state, done, need_state=True):
        # obs (T * N, obs_dim) time-major -> hidden (T * N, hidden); done marks each episode's first step
        N = state[0].shape[1]
        x, starts = obs.view(-1, N, obs.shape[-1]), done.view(-1, N)
        if not self.reset_state_on_done:
            out, state = lstm(x, state)
        elif self.fast_rnn and x.shape[0] > 1:
            out, state = self._unroll_padded(lstm, x, state, starts, need_state)
        else:
            out, state = self._unroll_stepwise(lstm, x, state, starts)
        return out.reshape(-1, out.shape[-1]), state if need_state else None

    def get_value(self, obs, state, done):
        if self.critic_lstm is None:
            return self.critic(self._unroll(self.lstm, obs, state, done)[0])
        return self.critic(self._unroll(self.critic_lstm, obs, (state[0][1:], state[1][1:]), done)[0])

    def get_action_and_value(self, obs, state, done, action=None, deterministic=False, need_state=True, noise=None):
        # need_state=False returns None for the new state and spares the fast path its second pass;
        # noise (N, action_dim), standard normal, sets the sample to mean + std * noise instead of a fresh draw
        hidden, new_state = self._unroll(self.lstm, obs, (state[0][:1], state[1][:1]), done, need_state)
        critic_hidden = hidden
        if self.critic_lstm is not None:
            critic_hidden, critic_state = self._unroll(self.critic_lstm, obs, (state[0][1:], state[1][1:]), done, need_state)
            if need_state:
                new_state = tuple(torch.cat([a, c]) for a, c in zip(new_state, critic_state, strict=True))
        action_mean = self.actor_mean(hidden)
        probs = Normal(action_mean, self.actor_logstd.expand_as(action_mean).exp())
        if action is None and deterministic:
            action = action_mean
        elif action is None:  # unclipped: the env boundary clips, the logprob is of the sample itself
            action = probs.sample() if noise is None else action_mean + probs.stddev * noise
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(critic_hidden), new_state


def correlated_noise(noise: torch.Tensor, starts: torch.Tensor, corr: float) -> torch.Tensor:
    """The next step's exploration noise, (N, action_dim): an AR(1) process whose every step is N(0, 1), so that
    each sample still comes from the policy's Gaussian; it is drawn afresh where an episode starts."""
    keep = corr * (1.0 - starts).view(-1, 1)
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


def evaluate(agent: Agent, args: Args, device: torch.device, run_name: str, obs_rms: RunningMeanStd) -> list[float]:
    """Full episodes on a fresh env, deterministic actions, the state carried within and reset between episodes;
    observations are normalised with the training statistics, frozen."""
    env = gym.make(args.env_id, render_mode="rgb_array" if args.capture_video else None)
    if args.capture_video:
        env = gym.wrappers.RecordVideo(env, f"videos/{run_name}", episode_trigger=lambda e: True, disable_logger=True)
    returns = []
    for episode in range(args.eval_episodes):
        obs, _ = env.reset(seed=args.seed + 100_000 if episode == 0 else None)  # seeded once: a fixed set of episodes
        state, start, episode_return, ended = agent.get_initial_state(1), torch.ones(1, device=device), 0.0, False
        while not ended:
            with torch.no_grad():
                obs_t = torch.as_tensor(obs_rms.normalize(obs) if args.norm_obs else obs, dtype=torch.float32, device=device)
                action, _, _, _, state = agent.get_action_and_value(obs_t.view(1, -1), state, start, deterministic=True)
            action = np.clip(action[0].cpu().numpy(), env.action_space.low, env.action_space.high)
            obs, reward, terminated, truncated, _ = env.step(action)
            episode_return, ended = episode_return + float(reward), terminated or truncated
            start = torch.zeros(1, device=device)
        returns.append(episode_return)
    env.close()
    return returns


def check_args(args: Args) -> None:
    for name in ["total_timesteps", "num_envs", "num_steps", "num_minibatches", "update_epochs", "rnn_hidden_size"]:
        if getattr(args, name) <= 0:
            fail(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
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


def main(args: Args) -> dict:
    check_args(args)
    check_env_id(args.env_id)
    checkpoint = (
        load_checkpoint(args.resume or args.eval_checkpoint, args.env_id) if args.resume or args.eval_checkpoint else None
    )
    if checkpoint is not None:  # the network's shape comes from the checkpoint
        for key in ["rnn_hidden_size", "shared_lstm"]:
            setattr(args, key, checkpoint["args"][key])
    seq_len = args.seq_len or args.num_steps
    batch_size = args.num_envs * args.num_steps
    num_iterations = args.total_timesteps // batch_size
    stamp = int(time.time())
    while os.path.exists(os.path.join("runs", f"{args.env_id.replace(':', '_')}__{args.exp_name}__{args.seed}__{stamp}")):
        stamp += 1  # two runs started in the same second must not share a folder
    run_name = f"{args.env_id.replace(':', '_')}__{args.exp_name}__{args.seed}__{stamp}"
    run_dir = os.path.join("runs", run_name)

    # Seeding
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = args.torch_deterministic
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(1)  # more threads fight the env loop for 2 cores and slow small LSTMs down

    # Environments: same-step autoreset, so no dummy transition follows an episode's end
    envs = gym.vector.SyncVectorEnv(
        [make_env(args.env_id) for _ in range(args.num_envs)], autoreset_mode=gym.vector.AutoresetMode.SAME_STEP
    )
    check_spaces(envs)
    agent = Agent(envs, args).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)  # one kernel for all params
    obs_rms, return_rms = RunningMeanStd(envs.single_observation_space.shape), RunningMeanStd()
    global_step, start_iteration = 0, 1
    if checkpoint is not None:
        agent.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        obs_rms.__dict__.update(checkpoint["obs_rms"])
        return_rms.__dict__.update(checkpoint["return_rms"])
        global_step, start_iteration = checkpoint["global_step"], checkpoint["iteration"] + 1

    writer = SummaryWriter(run_dir)
    if args.track:
        import wandb

        wandb.init(
            project=args.wandb_project_name, entity=args.wandb_entity, sync_tensorboard=True, config=vars(args), name=run_name
        )
    writer.add_text("hyperparameters", "|param|value|\n|-|-|\n" + "\n".join(f"|{k}|{v}|" for k, v in vars(args).items()))

    def save_checkpoint(iteration: int) -> str:
        path = os.path.join(run_dir, f"{args.exp_name}.pt")
        model, opt = agent.state_dict(), optimizer.state_dict()
        torch.save({"script": SCRIPT, "env_id": args.env_id, "args": asdict(args), "model": model, "optimizer": opt,
                    "obs_rms": vars(obs_rms), "return_rms": vars(return_rms),
                    "global_step": global_step, "iteration": iteration}, path)  # fmt: skip
        return path

    # Rollout storage, (T, N, ...); episode_starts[t] marks obs[t] as the first of an episode
    obs = torch.zeros((args.num_steps, args.num_envs) + envs.single_observation_space.shape, device=device)
    episode_starts = torch.zeros((args.num_steps, args.num_envs), device=device)
    actions = torch.zeros((args.num_steps, args.num_envs) + envs.single_action_space.shape, device=device)
    logprobs, rewards, values, terminations, truncations, final_values = (
        torch.zeros((args.num_steps, args.num_envs), device=device) for _ in range(6)
    )
    state = agent.get_initial_state(args.num_envs)
    # the state at the first step of every sequence, so that training replays each from where the rollout was
    seq_states = [torch.zeros((args.num_steps // seq_len,) + s.shape, device=device) for s in state]

    def prepare(obs_np: np.ndarray, update: bool = True) -> torch.Tensor:  # raw env obs -> normalised tensor
        if args.norm_obs:
            if update:
                obs_rms.update(obs_np)
            obs_np = obs_rms.normalize(obs_np)
        return torch.as_tensor(obs_np, dtype=torch.float32, device=device)

    next_obs, _ = envs.reset(seed=args.seed)
    envs.action_space.seed(args.seed)
    next_obs = prepare(next_obs, update=not args.eval_checkpoint)  # evaluating a checkpoint leaves its statistics as saved
    next_start = torch.ones(args.num_envs, device=device)
    noise = torch.zeros((args.num_envs,) + envs.single_action_space.shape, device=device)
    episode_return, episode_length = np.zeros(args.num_envs), np.zeros(args.num_envs, dtype=int)
    discounted_return = np.zeros(args.num_envs)  # what reward scaling divides by the deviation of
    recent_returns = []
    start_time, start_step, iteration = time.time(), global_step, start_iteration - 1
    try:
        for iteration in range(start_iteration, 0 if args.eval_checkpoint else num_iterations + 1):
            frac = 1.0 - (iteration - 1.0) / num_iterations
            if args.anneal_lr:
                optimizer.param_groups[0]["lr"] = frac * args.learning_rate
            clip_coef = frac * args.clip_coef if args.anneal_clip else args.clip_coef

            final_values.zero_()  # only the steps cut by a time limit get one below
            for step in range(args.num_steps):
                global_step += args.num_envs
                if step % seq_len == 0:
                    seq_states[0][step // seq_len], seq_states[1][step // seq_len] = state
                obs[step], episode_starts[step] = next_obs, next_start
                noise = correlated_noise(noise, next_start, args.noise_corr)
                with torch.no_grad():
                    action, logprob, _, value, state = agent.get_action_and_value(next_obs, state, next_start, noise=noise)
                values[step], actions[step], logprobs[step] = value.flatten(), action, logprob

                # the env gets the action clipped to its bounds; the buffer keeps the sample, whose logprob was taken
                env_action = np.clip(action.cpu().numpy(), envs.single_action_space.low, envs.single_action_space.high)
                next_obs_np, reward, terminated, truncated, infos = envs.step(env_action)
                ended = terminated | truncated
                episode_return += reward  # the env's own return is what is logged, before any floor or scaling
                if args.reward_floor is not None:
                    reward = np.maximum(reward, args.reward_floor)
                if args.norm_reward:
                    discounted_return = discounted_return * args.gamma + reward
                    return_rms.update(discounted_return)
                    discounted_return[ended] = 0.0
                rewards[step] = torch.as_tensor(
                    reward / np.sqrt(return_rms.var + 1e-8) if args.norm_reward else reward, dtype=torch.float32, device=device
                )
                terminations[step] = torch.as_tensor(terminated, device=device)
                truncations[step] = torch.as_tensor(truncated, device=device)
                cut = np.flatnonzero(truncated & ~terminated)
                if len(cut):  # bootstrap a time-limit cut from its final obs, seen with the episode's own state
                    final_obs = prepare(np.stack(infos["final_obs"][cut]), update=False)
                    with torch.no_grad():
                        v = agent.get_value(
                            final_obs, (state[0][:, cut], state[1][:, cut]), torch.zeros(len(cut), device=device)
                        )
                    final_values[step, cut] = v.flatten()
                next_obs = prepare(next_obs_np)
                next_start = torch.as_tensor(ended, dtype=torch.float32, device=device)

                episode_length += 1
                for i in np.flatnonzero(ended):
                    recent_returns = (recent_returns + [episode_return[i]])[-20:]
                    writer.add_scalar("charts/episodic_return", episode_return[i], global_step)
                    writer.add_scalar("charts/episodic_length", episode_length[i], global_step)
                    episode_return[i], episode_length[i] = 0.0, 0

            with torch.no_grad():
                next_value = agent.get_value(next_obs, state, next_start).flatten()
            advantages, returns = compute_gae(
                rewards, values, terminations, truncations, final_values, next_value, args.gamma, args.gae_lambda
            )

            # Sequences: (T, N, ...) -> (seq_len, S, ...) with S = T / seq_len * N, sequence k * N + n = env n's k-th piece
            def to_seqs(x):
                return x.view(-1, seq_len, args.num_envs, *x.shape[2:]).transpose(0, 1).reshape(seq_len, -1, *x.shape[2:])

            def take(x, seqs):  # (seq_len, S, ...) -> (seq_len * M, ...), time-major as the Agent expects
                return x[:, seqs].reshape(-1, *x.shape[2:])

            b_obs, b_starts, b_actions, b_logprobs, b_advantages, b_returns, b_values = map(
                to_seqs, (obs, episode_starts, actions, logprobs, advantages, returns, values)
            )
            # (K, num_lstms, N, hidden) -> (num_lstms, K * N, hidden), in the same sequence order
            b_states = [s.transpose(0, 1).reshape(s.shape[1], -1, s.shape[3]) for s in seq_states]
            num_seqs = b_obs.shape[1]
            seqs_per_minibatch = num_seqs // args.num_minibatches
            clipfracs, first_ratio_error = [], None
            for _ in range(args.update_epochs):
                order = torch.randperm(num_seqs, device=device)
                for start in range(0, num_seqs, seqs_per_minibatch):
                    mb = order[start : start + seqs_per_minibatch]
                    mb_state = (b_states[0][:, mb], b_states[1][:, mb])
                    _, newlogprob, entropy, newvalue, _ = agent.get_action_and_value(
                        take(b_obs, mb), mb_state, take(b_starts, mb), take(b_actions, mb), need_state=False
                    )
                    logratio = newlogprob - take(b_logprobs, mb)
                    ratio = logratio.exp()
                    with torch.no_grad():
                        old_approx_kl = (-logratio).mean()
                        approx_kl = ((ratio - 1) - logratio).mean()
                        clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]
                        if first_ratio_error is None:  # the replay must reproduce the rollout: ratio 1 here
                            first_ratio_error = (ratio - 1.0).abs().max().item()

                    mb_advantages = take(b_advantages, mb)
                    if args.norm_adv:
                        mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
                    pg_loss1 = -mb_advantages * ratio
                    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
                    pg_loss = torch.max(pg_loss1, pg_loss2).mean()

                    newvalue, mb_returns, mb_values = newvalue.view(-1), take(b_returns, mb), take(b_values, mb)
                    if args.clip_vloss:
                        v_loss_unclipped = (newvalue - mb_returns) ** 2
                        v_clipped = mb_values + torch.clamp(newvalue - mb_values, -clip_coef, clip_coef)
                        v_loss_max = torch.max(v_loss_unclipped, (v_clipped - mb_returns) ** 2)
                        v_loss = 0.5 * v_loss_max.mean()
                    else:
                        v_loss = 0.5 * ((newvalue - mb_returns) ** 2).mean()

                    entropy_loss = entropy.mean()
                    loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef
                    if not torch.isfinite(loss):  # the weights are still the last good ones: keep them
                        path = save_checkpoint(iteration - 1) if args.save_model else None
                        fail(f"non-finite loss at update {iteration}" + (f"; last good checkpoint: {path}" if path else ""))

                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                    optimizer.step()

                if args.target_kl is not None and approx_kl > args.target_kl:
                    break

            y_pred, y_true = b_values.flatten().cpu().numpy(), b_returns.flatten().cpu().numpy()
            var_y = np.var(y_true)
            explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
            sps = int((global_step - start_step) / (time.time() - start_time))
            for key, value in [("charts/learning_rate", optimizer.param_groups[0]["lr"]), ("charts/SPS", sps),
                               ("losses/value_loss", v_loss.item()), ("losses/policy_loss", pg_loss.item()),
                               ("losses/entropy", entropy_loss.item()), ("losses/old_approx_kl", old_approx_kl.item()),
                               ("losses/approx_kl", approx_kl.item()), ("losses/clipfrac", np.mean(clipfracs)),
                               ("losses/explained_variance", explained_var),
                               ("losses/first_ratio_error", first_ratio_error)]:  # fmt: skip
                writer.add_scalar(key, value, global_step)
            recent = f"{np.mean(recent_returns):.1f}" if recent_returns else "n/a"
            print(f"update {iteration}/{num_iterations}  global_step {global_step}  SPS {sps}  return(last20) {recent}")
    except KeyboardInterrupt:
        path = save_checkpoint(iteration - 1) if args.save_model else None
        writer.close()
        envs.close()
        print(f"interrupted at global step {global_step}" + (f"; checkpoint: {path}" if path else ""), file=sys.stderr)
        raise SystemExit(130) from None
    envs.close()
    train_time = time.time() - start_time
    checkpoint_path = save_checkpoint(iteration) if args.save_model else None

    eval_returns = evaluate(agent, args, device, run_name, obs_rms) if args.eval_episodes > 0 else []
    if eval_returns:
        writer.add_scalar("eval/mean_return", np.mean(eval_returns), global_step)
    trained, mean_or_none = global_step - start_step, lambda xs: float(np.mean(xs)) if len(xs) else None
    summary = {"script": SCRIPT, "env_id": args.env_id, "seed": args.seed, "global_step": global_step,
               "wall_time_s": round(train_time, 2), "sps": int(trained / train_time) if trained else None,
               "train_return_last20": mean_or_none(recent_returns), "eval_mean_return": mean_or_none(eval_returns),
               "eval_std_return": float(np.std(eval_returns)) if eval_returns else None,
               "eval_episodes": len(eval_returns), "checkpoint": checkpoint_path}  # fmt: skip
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
