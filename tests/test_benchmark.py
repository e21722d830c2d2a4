"""benchmark/run.py: command lines, skipping finished runs, and collecting a real run into CSV."""

import csv
import os
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "benchmark"))
import run as bench  # noqa: E402

TINY = "--total-timesteps 128 --num-envs 4 --num-steps 16 --update-epochs 1 --eval-episodes 2"


def test_commands_cover_every_combination_with_flags():
    args = bench.Args(suite="s", scripts=["ppo_lstm.py", "ppo_mlp_cartpole.py --frame-stack 4"],
                      env_ids=["CartPoleNoVel-v1"], seeds=[1, 2], extra="--total-timesteps 99")  # fmt: skip
    cmds = dict(bench.commands(args))
    assert list(cmds) == [
        "ppo_lstm__CartPoleNoVel-v1__1",
        "ppo_lstm__CartPoleNoVel-v1__2",
        "ppo_mlp_cartpole__frame_stack_4__CartPoleNoVel-v1__1",
        "ppo_mlp_cartpole__frame_stack_4__CartPoleNoVel-v1__2",
    ]
    assert cmds["ppo_mlp_cartpole__frame_stack_4__CartPoleNoVel-v1__2"][1:] == [
        "ppo_mlp_cartpole.py", "--frame-stack", "4", "--env-id", "CartPoleNoVel-v1", "--seed", "2",
        "--exp-name", "ppo_mlp_cartpole__frame_stack_4", "--total-timesteps", "99",
    ]  # fmt: skip


def test_runs_collects_and_skips_finished_runs(tmp_path, capsys):
    args = bench.Args(suite="tiny", scripts=["ppo_mlp_cartpole.py"], env_ids=["CartPole-v1"], seeds=[3], extra=TINY,
                      results_dir=str(tmp_path))  # fmt: skip
    bench.main(args)
    with open(tmp_path / "tiny" / "runs.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1 and rows[0]["variant"] == "ppo_mlp_cartpole" and rows[0]["global_step"] == "128"
    assert rows[0]["eval_episodes"] == "2"
    with open(tmp_path / "tiny" / "curves.csv") as f:
        tags = {row["tag"] for row in csv.DictReader(f)}
    assert {"charts/episodic_return", "charts/SPS"} <= tags
    capsys.readouterr()
    bench.main(args)  # everything is finished: nothing runs again
    assert "0 runs to do, 1 already finished" in capsys.readouterr().out


def test_steps_to_threshold_uses_the_mean_of_the_last_twenty_episodes():
    sys.path.insert(0, os.path.join(ROOT, "benchmark"))
    import report

    curve = [(100 * i, 400.0) for i in range(1, 21)] + [(2100 + 100 * i, 500.0) for i in range(20)]
    # the 20-episode mean first reaches 475 once 15 of the last 20 episodes score 500: (5 * 400 + 15 * 500) / 20
    assert report.steps_to_threshold(curve, 475) == 2100 + 100 * 14
    assert report.steps_to_threshold(curve[:20], 475) is None
