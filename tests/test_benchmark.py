"""benchmark/: the metric, the runner's rows and resuming, the peers' published settings, the results files and the
report that writes the README's and docs' tables from them."""

import json
import os
import subprocess
import sys
from dataclasses import replace

import pytest
from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "benchmark"))
import report  # noqa: E402
import run as runner  # noqa: E402
from suites import MATCHED, PEER, SUITES, Entry, Suite, steps_to_threshold  # noqa: E402

RESULTS = os.path.join(ROOT, "benchmark", "results")


def row(**fields) -> dict:
    base = {"contender": "ppo_lstm.py", "env_id": "CartPoleNoVel-v1", "seed": 1, "machine": "m", "steps_to_threshold": 10,
            "eval_mean_return": 500.0, "commit": "c", "command": "python ppo_lstm.py"}  # fmt: skip
    return {**base, **fields}


def test_steps_to_threshold_needs_a_full_window_of_episodes():
    curve = [(step, 500.0) for step in range(1, 20)]
    assert steps_to_threshold(curve, 475) is None  # 19 episodes at 500 are not yet a mean of the last 20
    assert steps_to_threshold(curve + [(20, 500.0)], 475) == 20
    dip = [(step, 500.0) for step in range(1, 20)] + [(20, 0.0)] + [(step, 500.0) for step in range(21, 41)]
    assert steps_to_threshold(dip, 480) == 40  # the mean gets back above 480 only once the 0 leaves the window


def test_running_mean_has_at_most_100_points_and_ends_on_the_last_episode():
    curve = [(step, float(step)) for step in range(1, 1001)]
    means = runner.running_mean(curve)
    assert len(means) == 100
    assert means[0] == [1, 1.0]
    assert means[-1] == [1000, sum(range(981, 1001)) / 20]
    assert runner.running_mean(curve[:5]) == [[1, 1.0], [2, 1.5], [3, 2.0], [4, 2.5], [5, 3.0]]


def test_median_counts_a_run_that_never_reached_as_the_slowest():
    runs = [row(steps_to_threshold=s) for s in (10, 30, None)]
    assert report.median_steps(runs) == "30 (2/3)"
    assert report.median_steps(runs + [row(steps_to_threshold=None)]) == "not reached (2/4)"


def test_first_there_pairs_runs_of_one_seed_on_one_machine():
    ours = [row(seed=1, steps_to_threshold=10), row(seed=2, steps_to_threshold=None), row(seed=1, machine="n")]
    peer = [row(seed=1, steps_to_threshold=20), row(seed=2, steps_to_threshold=5), row(seed=1, machine="n",
            steps_to_threshold=1)]  # fmt: skip
    assert report.first_there(ours, peer) == (1, 2)


def test_p_values_see_a_difference_and_no_difference():
    same = [row(steps_to_threshold=s, eval_mean_return=500.0) for s in range(10, 20)]
    assert report.p_values(same, same, 475) == ("p=1.000", "p=1.000")
    worse = [row(steps_to_threshold=None, eval_mean_return=100.0) for _ in range(10)]
    assert report.p_values(same, worse, 475) == ("p<0.001", "p<0.001")


def test_the_runner_skips_rows_it_has_and_runs_again_for_another_machine_or_settings(tmp_path, monkeypatch):
    measured = []

    def fake_measure(suite, entry, seed):
        measured.append((entry.contender, seed))
        return {**entry.__dict__, "seed": seed, "settings": runner.settings(entry), "machine": runner.machine(),
                "command": "c", "commit": "c", "curve": [], "eval_mean_return": None, "steps_to_threshold": None}  # fmt: skip

    class Inline:  # the pool, in this process, so that the fake is called
        def __init__(self, *a, **k):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def submit(self, fn, *args):
            from concurrent.futures import Future

            future = Future()
            future.set_result(fn(*args))
            return future

    suite = Suite((Entry("ppo_lstm.py", "CartPoleNoVel-v1", 1000), Entry(PEER, "CartPoleNoVel-v1", 1000)), seeds=(1, 2))
    monkeypatch.setitem(SUITES, "tiny", suite)
    monkeypatch.setattr(runner, "RESULTS", str(tmp_path))
    monkeypatch.setattr(runner, "measure", fake_measure)
    monkeypatch.setattr(runner, "ProcessPoolExecutor", Inline)
    runner.main(runner.Args(suite="tiny"))
    assert sorted(measured) == sorted([("ppo_lstm.py", 1), ("ppo_lstm.py", 2), (PEER, 1), (PEER, 2)])
    measured.clear()
    runner.main(runner.Args(suite="tiny"))
    assert measured == []  # an interrupted or finished suite resumes where it was
    monkeypatch.setattr(runner, "settings", lambda entry: "other" if entry.contender.endswith(".py") else None)
    runner.main(runner.Args(suite="tiny"))
    assert sorted(measured) == [("ppo_lstm.py", 1), ("ppo_lstm.py", 2)]  # a default changed: ours again, not the peer
    measured.clear()
    monkeypatch.setattr(runner, "machine", lambda: "another CPU")
    runner.main(runner.Args(suite="tiny", seeds=[2]))
    assert sorted(measured) == [("ppo_lstm.py", 2), (PEER, 2)]
    assert len(json.load(open(tmp_path / "tiny.json"))["rows"]) == 8


def test_settings_change_with_a_flag_and_not_with_the_seed():
    entry = Entry("ppo_lstm.py", "CartPoleNoVel-v1", 1000)
    assert runner.settings(entry) == runner.settings(entry)
    assert runner.settings(entry) != runner.settings(replace(entry, flags="--gae-lambda 0.95"))
    assert runner.settings(Entry(PEER, "CartPoleNoVel-v1", 1000)) is None


def test_a_row_of_our_script_is_reproduced_by_its_command(tmp_path):
    """The row's command, run again, gives the row's evaluation: what a reader of the results can check."""
    entry = Entry("ppo_lstm.py", "CartPoleNoVel-v1", 256, "--num-steps 16 --update-epochs 1", eval_episodes=2)
    got = runner.measure("tiny", entry, 3)
    assert got["command"] == ("python ppo_lstm.py --env-id CartPoleNoVel-v1 --seed 3 --total-timesteps 256 "
                              "--eval-episodes 2 --num-steps 16 --update-epochs 1")  # fmt: skip
    assert got["machine"] == runner.machine() and got["commit"] and got["steps_run"] == 256
    assert len(got["eval_returns"]) == 2 and got["curve"] and got["steps_to_threshold"] is None
    argv = got["command"].split()[1:]
    subprocess.run([sys.executable, os.path.join(ROOT, argv[0]), *argv[1:]], cwd=tmp_path, check=True, capture_output=True)
    (summary,) = tmp_path.glob("runs/*/summary.json")
    assert json.loads(summary.read_text())["eval_mean_return"] == got["eval_mean_return"]


def test_the_peers_run_with_the_zoos_published_settings():
    model, env_id = runner.zoo_model(PEER, "CartPoleNoVel-v1", 1)
    env = model.get_env()
    assert (model.n_steps, model.batch_size, model.n_epochs, model.gamma, model.gae_lambda) == (32, 256, 20, 0.98, 0.8)
    assert (env.num_envs, env.norm_obs, env.norm_reward, env.gamma) == (8, True, True, 0.98)
    assert model.learning_rate(1.0) == pytest.approx(1e-3) and model.learning_rate(0.5) == pytest.approx(5e-4)
    assert model.policy_kwargs["lstm_hidden_size"] == 64 and not model.policy_kwargs["ortho_init"]
    model, _ = runner.zoo_model(PEER, "PendulumNoVel-v1", 1)
    assert (model.n_steps, model.get_env().num_envs, model.use_sde, model.sde_sample_freq) == (1024, 4, True, 4)
    assert (model.gamma, model.get_env().gamma, model.gae_lambda) == (0.9, 0.9, 0.95)
    model, _ = runner.zoo_model("SB3 PPO", "CartPole-v1", 1)
    assert (model.n_steps, model.batch_size, model.n_epochs, model.gamma, model.gae_lambda) == (32, 256, 20, 0.98, 0.8)
    model, _ = runner.zoo_model(MATCHED, "CartPoleNoVel-v1", 1)
    assert (model.n_steps, model.batch_size, model.n_epochs, model.gae_lambda) == (64, 256, 20, 0.9)


def test_a_peer_row_has_its_evaluation_and_the_command_that_reruns_it():
    got = runner.measure("tiny", Entry(PEER, "CartPoleNoVel-v1", 512, eval_episodes=2), 1)
    assert got["steps_run"] == 512 and len(got["eval_returns"]) == 2 and got["sps"] > 0
    assert got["command"] == "python benchmark/run.py tiny --seeds 1 --contenders 'sb3-contrib RecurrentPPO'"


def test_random_actions_score_what_chance_gives():
    got = runner.measure("tiny", Entry("random", "CartPole-v1", 0), 1)
    assert len(got["eval_returns"]) == 100 and 15 < got["eval_mean_return"] < 30


@pytest.mark.parametrize("name", sorted(f.removesuffix(".json") for f in os.listdir(RESULTS) if f.endswith(".json")))
def test_every_results_row_says_how_it_was_made(name):
    rows = json.load(open(os.path.join(RESULTS, f"{name}.json")))["rows"]
    assert rows
    for r in rows:
        assert r["command"] and r["commit"] and r["machine"], r
        assert len(r.get("curve", [])) <= runner.CURVE_POINTS
    if name in SUITES:  # every row is one of the suite's entries
        entries = {(e.contender, e.env_id, e.flags, e.steps) for e in SUITES[name].entries}
        assert {(r["contender"], r["env_id"], r["flags"], r["steps"]) for r in rows} - entries <= {
            (r["contender"], r["env_id"], "", r["steps"]) for r in rows if r["env_id"] == "Breakout-v5"
        }  # the Atari speed rows of CleanRL's script, which the runner does not run


def test_the_report_blocks_are_what_the_results_give():
    assert report.main(report.Args(check=True)) == 0, "run python benchmark/report.py"


def test_the_report_rewrites_a_stale_block_and_nothing_else():
    text = "intro\n<!-- report:minigrid -->\nold\n<!-- /report -->\nthe `<!-- report:NAME -->` blocks\n"
    out = report.render(text)
    assert "old" not in out and "| ppo_lstm.py | 10 | 100 of 100 |" in out
    assert out.startswith("intro\n") and out.endswith("the `<!-- report:NAME -->` blocks\n")
    assert report.render(out) == out


def test_popgym_counts_a_gap_below_a_hundredth_as_level(monkeypatch):
    fake = [row(env_id="popgym:popgym-AEasy-v0", contender="ppo_lstm.py", eval_mean_return=0.504),
            row(env_id="popgym:popgym-AEasy-v0", contender=PEER, eval_mean_return=0.496),
            row(env_id="popgym:popgym-BEasy-v0", contender="ppo_lstm.py", eval_mean_return=0.2),
            row(env_id="popgym:popgym-BEasy-v0", contender=PEER, eval_mean_return=0.3),
            row(env_id="popgym:popgym-BEasy-v0", contender="ppo_mlp_cartpole.py", eval_mean_return=0.1)]  # fmt: skip
    monkeypatch.setattr(report, "rows", lambda suite: fake)
    assert report.popgym_line() == (
        "Ours against sb3-contrib RecurrentPPO: above on 0, level on 1, below on 1; "
        "against the MLP (above on 1, level on 0, below on 0)."
    )


def test_the_readme_reads_in_ten_minutes():
    text = open(os.path.join(ROOT, "README.md")).read()
    assert len(text.splitlines()) <= 300 and len(text.encode()) <= 30_000
    assert max(len(line) for line in text.splitlines()) <= 400
    for suite, _, _ in report.HEADLINE:  # one figure per task, small
        path = os.path.join(ROOT, "docs", "img", f"{suite}.png")
        assert f"docs/img/{suite}.png" in text and os.path.getsize(path) < 100_000
