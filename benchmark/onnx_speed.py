"""The exported policy's speed: acting steps per second of each script's default network, onnxruntime on one thread
against the script's own PyTorch policy (the module --export-onnx writes) on one torch thread, at batch 1 and 64, the
state carried from step to step. Writes benchmark/results/onnx_speed.json.

    python benchmark/onnx_speed.py
"""

import os
import sys
import tempfile
import time
from functools import partial

import gymnasium as gym
import numpy as np
import torch
from run import ROOT, commit, machine, save

sys.path.insert(0, ROOT)
SCRIPTS = ["ppo_mlp_cartpole", "ppo_lstm", "ppo_lstm_continuous", "ppo_gru_atari"]
BATCHES = [1, 64]
SECONDS = 3.0  # each measurement runs about this long


def exported(name: str, path: str):
    """The script's PyTorch policy (untrained: speed does not depend on the weights) and its ONNX export at `path`."""
    module = __import__(name)
    args = module.Args(export_onnx=path)
    if name == "ppo_gru_atari":
        envs = module.make_envs(args, "gymnasium", 1, seed=1)
        agent = module.Agent(envs, args)
        module.export_onnx(agent, args)
        envs.close()
        return module.Policy(agent).eval()
    thunk = module.make_env(args.env_id, 1) if name == "ppo_mlp_cartpole" else module.make_env(args.env_id)
    envs = gym.vector.SyncVectorEnv([thunk])
    agent, obs_rms = module.Agent(envs, args), module.RunningMeanStd(envs.single_observation_space.shape)
    module.export_onnx(agent, obs_rms, args, envs)
    extra = [envs.single_action_space] if name == "ppo_lstm_continuous" else [envs.single_action_space.start]
    return module.Policy(agent, obs_rms, args.norm_obs, *extra).eval()


def inputs(session, batch: int) -> dict:
    """Zeros of each input's shape at this batch (an episode start everywhere, no action masked)."""
    feed = {}
    for i in session.get_inputs():
        shape = [batch if not isinstance(d, int) else d for d in i.shape]
        dtype = {"tensor(float)": np.float32, "tensor(uint8)": np.uint8, "tensor(bool)": bool}[i.type]
        feed[i.name] = np.ones(shape, dtype) if i.name in ("action_mask", "episode_start") else np.zeros(shape, dtype)
    return feed


def steps_per_second(step, batch: int) -> float:
    step()  # warm-up
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        step()
        n += 1
    return n * batch / (time.perf_counter() - start)


def onnx_step(session, feed: dict) -> None:
    _, *state = session.run(None, feed)
    names = [o.name.removesuffix("_out") for o in session.get_outputs()][1:]  # h_out, c_out go back as h, c
    feed.update(zip(names, state, strict=True))


def torch_step(name: str, policy, tensors: dict) -> None:
    with torch.inference_mode():
        if name == "ppo_mlp_cartpole":
            policy(tensors["obs"])
        elif name == "ppo_gru_atari":
            _, tensors["h"] = policy(tensors["obs"], tensors["h"], tensors["episode_start"])
        else:
            state = tuple(tensors[k] for k in ("h", "c") if k in tensors)
            mask = [tensors["action_mask"]] if "action_mask" in tensors else []
            _, state = policy(tensors["obs"], state, tensors["episode_start"], *mask)
            tensors.update(zip(("h", "c"), state, strict=False))


def main() -> None:
    import onnxruntime

    torch.set_num_threads(1)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    rows, here, where = [], machine(), commit()
    with tempfile.TemporaryDirectory() as folder:
        for name in SCRIPTS:
            path = os.path.join(folder, f"{name}.onnx")
            policy = exported(name, path)
            session = onnxruntime.InferenceSession(path, options)
            for batch in BATCHES:
                feed = inputs(session, batch)
                tensors = {k: torch.as_tensor(v) for k, v in feed.items()}
                torch_sps = steps_per_second(partial(torch_step, name, policy, tensors), batch)
                onnx_sps = steps_per_second(partial(onnx_step, session, feed), batch)
                rows.append({"contender": f"{name}.py", "env_id": "", "flags": f"batch {batch}", "seed": 0,
                             "machine": here, "commit": where, "command": "python benchmark/onnx_speed.py",
                             "batch": batch, "torch_sps": round(torch_sps), "onnx_sps": round(onnx_sps)})
                print(f"{name} batch {batch}: torch {torch_sps:,.0f}, onnxruntime {onnx_sps:,.0f} steps/s")
    save("onnx_speed", rows)


if __name__ == "__main__":
    main()
