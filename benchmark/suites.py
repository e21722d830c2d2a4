"""Every benchmark suite, declared once: who runs (a script of ours or a peer), on which env, with which flags, for how
many steps, on which seeds. `python benchmark/run.py SUITE` runs one; `python benchmark/report.py` turns the results
into the tables and figures of the README and docs/.

A contender is one of our scripts (`ppo_lstm.py`, ...) or a peer: `sb3-contrib RecurrentPPO` and `SB3 PPO` with
rl-baselines3-zoo's published settings where the zoo has the env, their own defaults elsewhere; `random` takes uniformly
random actions (the return a trained policy must beat to have learned anything).
"""

import statistics
from dataclasses import dataclass

WINDOW = 20  # training episodes in the running mean that a threshold is measured on
THRESHOLDS = {
    "CartPoleNoVel-v1": 475,
    "CartPole-v1": 475,
    "CueRecall-v0": 1.0,
    "MaskedCueRecall-v0": 1.0,
    "PendulumNoVel-v1": -200,
    "MountainCarContinuousNoVel-v0": 90,
}
SEEDS = list(range(1, 11))  # the seeds we report; tuning uses 11 and up
PEER = "sb3-contrib RecurrentPPO"
MATCHED = "sb3-contrib RecurrentPPO, matched"  # the peer collecting and training as our script's defaults do


@dataclass(frozen=True)
class Entry:
    contender: str
    env_id: str
    steps: int
    flags: str = ""
    eval_episodes: int = 10


@dataclass(frozen=True)
class Suite:
    entries: tuple[Entry, ...]
    seeds: tuple[int, ...] = tuple(SEEDS)
    about: str = ""


def beside(env_id: str, contenders: list[str], steps: int, flags: dict[str, str] | None = None, **kw) -> list[Entry]:
    """The same env, budget and evaluation for each contender; `flags` per contender."""
    return [Entry(name, env_id, steps, (flags or {}).get(name, ""), **kw) for name in contenders]


POPGYM_EASY = [
    "AutoencodeEasy", "BattleshipEasy", "ConcentrationEasy", "CountRecallEasy", "HigherLowerEasy", "MineSweeperEasy",
    "MultiarmedBanditEasy", "NoisyPositionOnlyCartPoleEasy", "NoisyPositionOnlyPendulumEasy", "PositionOnlyCartPoleEasy",
    "PositionOnlyPendulumEasy", "RepeatFirstEasy", "RepeatPreviousEasy", "VelocityOnlyCartpoleEasy",
]  # fmt: skip


def popgym_entries() -> list[Entry]:
    out = []
    for name in POPGYM_EASY:
        env_id = f"popgym:popgym-{name}-v0"
        if "Pendulum" in name:  # continuous actions: the MLP baseline takes discrete ones only
            out += beside(env_id, ["ppo_lstm_continuous.py", PEER, "random"], 50_000)
        else:
            flags = {"ppo_lstm.py": "--rnn-hidden-size 256 --no-anneal-clip"}
            out += beside(env_id, ["ppo_lstm.py", "ppo_mlp_cartpole.py", PEER, "random"], 50_000, flags)
    return out


SUITES = {
    "cartpole_novel": Suite(
        tuple(beside("CartPoleNoVel-v1", ["ppo_lstm.py", PEER], 100_000)),
        about="ppo_lstm.py on its defaults beside the zoo's RecurrentPPO agent",
    ),
    "cartpole_mlp": Suite(
        tuple(beside("CartPole-v1", ["ppo_mlp_cartpole.py", "SB3 PPO"], 100_000)),
        about="ppo_mlp_cartpole.py on its defaults beside the zoo's PPO agent",
    ),
    "pendulum_novel": Suite(
        tuple(beside("PendulumNoVel-v1", ["ppo_lstm_continuous.py", PEER], 100_000)),
        about="ppo_lstm_continuous.py on its defaults beside the zoo's RecurrentPPO agent (gSDE)",
    ),
    "popgym_easy": Suite(tuple(popgym_entries()), seeds=(1, 2, 3), about="POPGym's Easy envs, the peer on its defaults"),
    "minigrid_memory": Suite(
        tuple(
            beside(
                "benchmark.minigrid_onehot:MiniGrid-MemoryS7-OneHot-v0",
                ["ppo_lstm.py", "ppo_mlp_cartpole.py", "random"],
                200_000,
            )
        ),
        about="MiniGrid-MemoryS7 with one-hot cells",
    ),  # fmt: skip
    "speed": Suite(
        tuple(
            beside("CartPoleNoVel-v1", ["ppo_lstm.py", MATCHED], 20_480, eval_episodes=0)
            + beside("PendulumNoVel-v1", ["ppo_lstm_continuous.py", MATCHED], 20_480, eval_episodes=0)
        ),
        seeds=(1, 2),
        about="training steps per second at matched settings; run with --workers 1 on an otherwise idle machine",
    ),  # fmt: skip
    "gru": Suite(
        (
            *[Entry("ppo_lstm.py", "CartPoleNoVel-v1", 100_000, flags) for flags in ("", "--rnn-type gru")],
            *[Entry("ppo_lstm.py", "CueRecall-v0", 50_000, flags, 50) for flags in ("", "--rnn-type gru")],
            *[Entry("ppo_lstm_continuous.py", "PendulumNoVel-v1", 150_000, flags) for flags in ("", "--rnn-type gru")],
        ),
        about="--rnn-type gru beside the LSTM, on the LSTM's defaults",
    ),
    "gru_speed": Suite(
        tuple(
            Entry(script, env_id, 20_480, flags, eval_episodes=0)
            for script, env_id in (("ppo_lstm.py", "CartPoleNoVel-v1"), ("ppo_lstm_continuous.py", "PendulumNoVel-v1"))
            for flags in ("", "--rnn-type gru")
        ),
        seeds=(1, 2),
        about="training steps per second of the LSTM and the GRU; run with --workers 1 on an otherwise idle machine",
    ),
    "learning_tests": Suite(
        (
            Entry("ppo_lstm.py", "CueRecall-v0", 50_000, eval_episodes=50),
            Entry("ppo_lstm.py", "MaskedCueRecall-v0", 50_000, eval_episodes=50),
            Entry("ppo_lstm_continuous.py", "PendulumNoVel-v1", 150_000),
            Entry("ppo_mlp_cartpole.py", "CartPole-v1", 100_000),
            Entry("ppo_mlp_cartpole.py", "CartPoleNoVel-v1", 100_000),
            Entry("ppo_mlp_cartpole.py", "CueRecall-v0", 50_000, eval_episodes=50),
            Entry(
                "ppo_lstm_continuous.py",
                "MountainCarContinuousNoVel-v0",
                100_000,
                "--noise-corr 0.95 --init-logstd 0 --gamma 0.99 --ent-coef 0 --norm-obs-until 1 --no-shared-lstm "
                "--train-time-limit 1",
            ),
        ),
        about="the rows the learning tests rest on",
    ),
}


def steps_to_threshold(curve: list[tuple[int, float]], threshold: float, window: int = WINDOW) -> int | None:
    """First step at which the mean of the last `window` training episodes reaches the threshold; None if never."""
    recent = []
    for step, value in sorted(curve):
        recent = (recent + [value])[-window:]
        if len(recent) == window and statistics.mean(recent) >= threshold:
            return int(step)
    return None
