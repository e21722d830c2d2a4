"""Why the evaluation episodes of trained ppo_lstm.py checkpoints on CartPoleNoVel-v1 (or CartPole-v1) end: the cart
leaving the track (|x| > 2.4), the pole falling (|angle| > 12 degrees) or the time limit. The episodes are the script's
own deterministic evaluation, started the same way, so their returns are the run's eval_returns. Beside each ending,
the critic's value (in the run's scaled rewards) at mid-episode and some steps before the end: whether it saw the end
coming. With --peer-seeds, the same for sb3-contrib's RecurrentPPO trained as benchmark/peer_reach.py trains it, its
episodes those of peer_reach.py's evaluation (its critic's value is not read).

    python ppo_lstm.py --seed 16 --save-model          # then, for its checkpoint:
    python benchmark/episode_ends.py --checkpoints runs/CartPoleNoVel-v1__ppo_lstm__16__*/ppo_lstm.pt

writes benchmark/results/episode_ends.json (a few seconds per checkpoint, about five minutes per peer seed; --out
names another file there)
"""

import os
import sys
from dataclasses import dataclass, field

import gymnasium as gym
import numpy as np
import torch
import tyro
from eval_noise import ROOT, load_agent, load_script, write_results

VALUE_LAGS = (100, 20, 1)  # the critic's value is kept this many steps before an episode's end


@dataclass
class Args:
    checkpoints: list[str] = field(default_factory=list)
    """checkpoints written by ppo_lstm.py --save-model on a CartPole task"""
    peer_seeds: list[int] = field(default_factory=list)
    """seeds of sb3-contrib's RecurrentPPO on CartPoleNoVel-v1, each trained here as benchmark/peer_reach.py trains it"""
    episodes: int = 10
    """episodes per checkpoint, started as the script's evaluation starts them"""
    max_steps: int | None = None
    """play on past the env's time limit up to this many steps (None: the env's limit ends an episode)"""
    out: str = "episode_ends.json"
    """the results file, under benchmark/results"""


def end_of(env: gym.Env, terminated: bool) -> str:
    """What ended a CartPole episode, read from the physical state at its last step."""
    cart = env.unwrapped
    x, _, angle, _ = cart.state
    if not terminated:
        return "time limit"
    return "cart" if abs(x) > cart.x_threshold else "pole" if abs(angle) > cart.theta_threshold_radians else "other"


def play(env: gym.Env, new_policy, seed: int, count: int, max_steps: int | None) -> list[dict]:
    """`count` episodes, the first reset with `seed` and the rest unseeded, as our scripts' evaluation (and SB3's, one env
    seeded once) starts them. new_policy() gives an episode's policy: obs -> (action, the critic's value or None)."""
    rows = []
    for episode in range(count):
        obs, _ = env.reset(seed=seed if episode == 0 else None)
        policy, total, xs, values, ended = new_policy(), 0.0, [], [], False
        while not ended:  # past the time limit (with max_steps) CartPole steps on as before it
            action, value = policy(obs)
            values.append(value)
            obs, reward, terminated, truncated, _ = env.step(action)
            xs.append(float(env.unwrapped.state[0]))
            cut = len(xs) >= max_steps if max_steps else truncated
            total, ended = total + float(reward), terminated or cut
        rows.append({"return": total, "end": end_of(env, terminated), "final_x": xs[-1],
                     "final_angle": float(env.unwrapped.state[2]), "max_abs_x": float(np.max(np.abs(xs))),
                     "value_mid": values[len(values) // 2],  # steps before the end: 1 is the value at the last step
                     "value_before_end": {k: values[-k] if k <= len(values) else None for k in VALUE_LAGS}})  # fmt: skip
    env.close()
    ends = [row["end"] for row in rows]
    print(f"mean return {np.mean([row['return'] for row in rows]):.1f}; ended by "
          + ", ".join(f"{end} {ends.count(end)}" for end in ("cart", "pole", "time limit", "other")))  # fmt: skip
    return rows


def episodes(script, path: str, count: int, max_steps: int | None = None) -> dict:
    args, env, agent, obs_rms = load_agent(script, path)

    def new_policy():  # the script's evaluation: the state zeroed at the episode's start, the most likely action
        memory = {"state": agent.get_initial_state(1), "start": torch.ones(1), "action": None}

        def policy(obs):
            x = torch.as_tensor(obs_rms.normalize(obs) if args.norm_obs else obs, dtype=torch.float32).view(1, -1)
            with torch.no_grad():
                x = agent.inputs(x, memory["action"], memory["start"])  # with --critic-prev-action: the last action too
                value = agent.get_value(x, memory["state"], memory["start"]).item()  # of the state this step acts from
                action, _, _, _, memory["state"] = agent.get_action_and_value(x, memory["state"], memory["start"],
                                                                              deterministic=True)  # fmt: skip
            memory["start"], memory["action"] = torch.zeros(1), action
            return action[0].numpy(), value

        return policy

    print(path, end=": ")
    rows = play(env, new_policy, args.seed + 100_000, count, max_steps)
    defaults = vars(script.Args())
    flags = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()
                     if v != defaults[k] and k not in ("seed", "save_model", "env_id"))  # fmt: skip
    return {"checkpoint": os.path.basename(os.path.dirname(path)), "env_id": args.env_id, "seed": args.seed,
            "flags": flags, "max_steps": max_steps, "episodes": rows}  # fmt: skip


def peer_episodes(seed: int, count: int, max_steps: int | None = None, stop_at: int = 100_000) -> dict:
    """sb3-contrib's RecurrentPPO trained on CartPoleNoVel-v1 for `stop_at` steps as peer_reach.py trains it, then
    played as peer_reach.py evaluates it: observations normalised with the training statistics, frozen."""
    import peer_reach

    model = peer_reach.make_model(seed, "zoo")
    trained = peer_reach.learn(model, stop_at)
    normalizer = model.get_env()

    def new_policy():
        memory = {"state": None, "start": np.ones(1, dtype=bool)}

        def policy(obs):
            action, memory["state"] = model.predict(normalizer.normalize_obs(obs)[None], state=memory["state"],
                                                    episode_start=memory["start"], deterministic=True)  # fmt: skip
            memory["start"] = np.zeros(1, dtype=bool)
            return int(action[0]), None

        return policy

    print(f"sb3-contrib seed {seed}", end=": ")
    rows = play(gym.make("CartPoleNoVel-v1"), new_policy, seed + 100_000, count, max_steps)
    return {"checkpoint": "sb3-contrib", "env_id": "CartPoleNoVel-v1", "seed": seed, "flags": "sb3-contrib RecurrentPPO",
            "max_steps": max_steps, "eval_returns": trained["eval_returns"], "episodes": rows}  # fmt: skip


def main(args: Args) -> None:
    torch.set_num_threads(1)
    script = load_script("ppo_lstm")
    runs = [episodes(script, path, args.episodes, args.max_steps) for path in args.checkpoints]
    runs += [peer_episodes(seed, args.episodes, args.max_steps) for seed in args.peer_seeds]
    write_results(os.path.join(ROOT, "benchmark", "results", args.out), "episode_ends.py", runs=runs)


if __name__ == "__main__":
    main(tyro.cli(Args, args=sys.argv[1:]))
