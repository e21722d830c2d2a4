"""benchmark/: the runner's command lines, skipping and collecting; the plotter's PNG and table; the peer, standing
and pooled tables; eval_noise at scale 0; episode_ends' replay of an evaluation; the Pendulum optimum's dynamics, start
states and dynamic programme."""

import csv
import glob
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
import torch
from conftest import ROOT, load, run_dirs
from conftest import run as run_script

sys.path.insert(0, os.path.join(ROOT, "benchmark"))
import arithmetic  # noqa: E402
import atari_gpu_speed  # noqa: E402
import episode_ends  # noqa: E402
import eval_noise  # noqa: E402
import higher_lower_ceiling  # noqa: E402
import pendulum_optimal  # noqa: E402
import plot  # noqa: E402
import report  # noqa: E402
import run as bench  # noqa: E402
import speed  # noqa: E402

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


@pytest.mark.parametrize(
    "suite",
    ["novel_classic.sh", "continuous.sh", "learning_tests.sh", "mlp_cartpole.sh", "atari.sh", "norm_obs_until.sh",
     "ent_coef.sh", "learning_rate.sh", "learning_tests_second_cpu.sh", "mlp_minibatches.sh"],
)
def test_suite_scripts_parse(suite, tmp_path):
    """Every run.py call in a suite script is accepted by the runner (a stub `python` makes each a dry run), and every
    command it would launch by the script it names (its flags parsed as the script parses them)."""
    stub = tmp_path / "bin" / "python"
    stub.parent.mkdir()
    stub.write_text(
        "#!/usr/bin/env bash\n"
        f'if [ "$1" = benchmark/run.py ]; then shift; exec {sys.executable} benchmark/run.py "$@" --dry-run '
        f"--results-dir {tmp_path}; fi\n"
        'echo "not run: $*"\n'
    )
    stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{stub.parent}:{os.environ['PATH']}", "BIPEDAL": "1"}
    result = subprocess.run(["bash", os.path.join(ROOT, "benchmark", suite)], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    calls = sum(line.strip().startswith(("python benchmark/run.py", "run --"))  # a shell function run() wraps it
                for line in open(os.path.join(ROOT, "benchmark", suite)))
    assert calls and result.stdout.count("runs to do") == calls
    launched = [shlex.split(line)[1:] for line in result.stdout.splitlines() if line.startswith(sys.executable + " ")]
    assert launched
    for script, *flags in launched:
        bench.script_settings(script, flags)  # the script's own Args parse them: fails on a flag it does not take


def test_runs_collects_and_skips_finished_runs(tmp_path, capsys):
    args = bench.Args(suite="tiny", scripts=["ppo_mlp_cartpole.py"], env_ids=["CartPole-v1"], seeds=[3], extra=TINY,
                      results_dir=str(tmp_path))  # fmt: skip
    bench.main(args)
    with open(tmp_path / "tiny" / "runs.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1 and rows[0]["variant"] == "ppo_mlp_cartpole" and rows[0]["global_step"] == "128"
    assert rows[0]["eval_episodes"] == "2"
    m = speed.machine()
    assert rows[0]["cpu"] == f"{m['cpu']} ({m['cpu_id']})" and "family" in m["cpu_id"]
    with open(tmp_path / "tiny" / "curves.csv") as f:
        tags = {row["tag"] for row in csv.DictReader(f)}
    assert {"charts/episodic_return", "charts/SPS"} <= tags
    # the row and its run folder record every setting the run had (the script's defaults of now, then the flags)
    settings = bench.script_settings("ppo_mlp_cartpole.py", bench.commands(args)[0][1][2:])
    assert settings["total_timesteps"] == 128 and settings["env_id"] == "CartPole-v1" and "seed" not in settings
    assert json.loads(rows[0]["settings"]) == settings
    (run_dir,) = glob.glob(str(tmp_path / "tiny" / "runs" / "runs" / "*"))
    capsys.readouterr()
    bench.main(args)  # everything is finished: nothing runs again
    assert "0 runs to do, 1 already finished" in capsys.readouterr().out
    # a run of other settings (a default changed since) or of none recorded (an older run) is set aside and runs again
    for tamper in ({**settings, "learning_rate": 1.0}, None):
        if tamper is None:
            os.remove(os.path.join(run_dir, "settings.json"))
        else:
            with open(os.path.join(run_dir, "settings.json"), "w") as f:
                json.dump(tamper, f)
        bench.main(args)
        assert "1 runs to do, 0 already finished" in capsys.readouterr().out
        assert os.path.isdir(tmp_path / "tiny" / "stale_runs" / os.path.basename(run_dir))
        (run_dir,) = glob.glob(str(tmp_path / "tiny" / "runs" / "runs" / "*"))  # the new run's folder, the only one
        with open(tmp_path / "tiny" / "runs.csv") as f:
            (row,) = csv.DictReader(f)
        assert json.loads(row["settings"]) == settings and row["global_step"] == "128"
    # a second call for another row group of the same suite keeps the first call's rows
    bench.main(bench.Args(suite="tiny", scripts=["ppo_mlp_cartpole.py --frame-stack 2"], env_ids=["CartPole-v1"],
                          seeds=[3], extra=TINY, results_dir=str(tmp_path)))  # fmt: skip
    with open(tmp_path / "tiny" / "runs.csv") as f:
        assert sorted(row["run"] for row in csv.DictReader(f)) == [
            "ppo_mlp_cartpole__CartPole-v1__3", "ppo_mlp_cartpole__frame_stack_2__CartPole-v1__3"
        ]  # fmt: skip
    # in a fresh clone the run folders are gone but the files are committed: a new row group keeps the old rows
    import shutil

    before = open(tmp_path / "tiny" / "curves.csv").read().count("ppo_mlp_cartpole__CartPole-v1__3")
    shutil.rmtree(tmp_path / "tiny" / "runs" / "runs")
    bench.main(bench.Args(suite="tiny", scripts=["ppo_mlp_cartpole.py --frame-stack 3"], env_ids=["CartPole-v1"],
                          seeds=[3], extra=TINY, results_dir=str(tmp_path)))  # fmt: skip
    with open(tmp_path / "tiny" / "runs.csv") as f:
        assert len([row for row in csv.DictReader(f) if row["global_step"] == "128"]) == 3
    assert open(tmp_path / "tiny" / "curves.csv").read().count("ppo_mlp_cartpole__CartPole-v1__3") == before > 0


def test_steps_to_threshold_uses_the_mean_of_the_last_twenty_episodes():
    curve = [(100 * i, 400.0) for i in range(1, 21)] + [(2100 + 100 * i, 500.0) for i in range(20)]
    # the 20-episode mean first reaches 475 once 15 of the last 20 episodes score 500: (5 * 400 + 15 * 500) / 20
    assert plot.steps_to_threshold(curve, 475) == 2100 + 100 * 14
    assert plot.steps_to_threshold(curve[:20], 475) is None


def write_results(suite_dir, variant="a"):
    """Two seeds of one script on CartPoleNoVel-v1: seed 1 reaches 500 from step 3000, seed 2 never does."""
    suite_dir.mkdir()
    fields = ["run", "variant", "env_id", "seed", "global_step", "wall_time_s", "sps", "eval_mean_return"]
    one, two = f"{variant}__CartPoleNoVel-v1__1", f"{variant}__CartPoleNoVel-v1__2"
    rows = [[one, variant, "CartPoleNoVel-v1", 1, 5000, 60.0, 100, 500.0],
            [two, variant, "CartPoleNoVel-v1", 2, 5000, 120.0, 50, 300.0]]  # fmt: skip
    with open(suite_dir / "runs.csv", "w", newline="") as f:
        csv.writer(f).writerows([fields, *rows])
    with open(suite_dir / "curves.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["run", "step", "tag", "value"])
        for i in range(1, 51):  # an episode every 100 steps
            writer.writerow([one, 100 * i, "charts/episodic_return", 500.0 if i > 10 else 100.0])
            writer.writerow([two, 100 * i, "charts/episodic_return", 300.0])
            writer.writerow([two, 100 * i, "charts/SPS", 50.0])  # other tags are ignored


def test_plotter_writes_a_png_and_the_expected_table(tmp_path):
    write_results(tmp_path / "s")
    table = plot.main(plot.Args(suite="s", results_dir=str(tmp_path)))
    with open(tmp_path / "s" / "curves.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    # seed 1's last-20 mean reaches 475 once 19 of its last 20 episodes score 500 (episode 29); seed 2 never does,
    # so the median over the two is "not reached"
    runs, curves = plot.load(str(tmp_path / "s"))
    assert plot.steps_to_threshold(curves["a__CartPoleNoVel-v1__1"], 475) == 2900
    assert table.splitlines()[2] == (
        "| a | CartPoleNoVel-v1 | 2 | 5,000 | 400.0 +- 141.4 | 1/2 (>= 475) | not reached (1/2 reached) | 75 | 1.5 min |"
    )
    assert (tmp_path / "s" / "table.md").read_text().strip() == table


def test_peer_table_sets_each_seed_beside_the_peer(tmp_path, monkeypatch):
    machine = {"cpu": "AMD EPYC", "cores": 2, "torch": "2.13.0+cpu", "python": "3.11.7"}
    peer = {"command": "python benchmark/peer_reach.py --seeds 1 2 3", "machine": machine, "runs": [
        {"script": "sb3-contrib", "seed": 1, "steps_to_threshold": 1200, "steps_run": 1200},
        {"script": "ppo_lstm.py", "seed": 1, "steps_to_threshold": 2900, "steps_run": 5000},
        {"script": "sb3-contrib", "seed": 2, "steps_to_threshold": None, "steps_run": 100000},
        {"script": "ppo_lstm.py", "seed": 2, "steps_to_threshold": None, "steps_run": 5000},
        {"script": "sb3-contrib", "seed": 3, "steps_to_threshold": 800, "steps_run": 800}]}  # fmt: skip
    (tmp_path / "peer_reach.json").write_text(json.dumps(peer))
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    table = report.peer_table().splitlines()
    assert "AMD EPYC, 2 cores" in table[0] and "`python benchmark/peer_reach.py --seeds 1 2 3`" in table[0]
    # a miss counts as infinitely many steps in the median: ours misses 1 of 2, the peer 1 of 3
    assert table[2:] == [
        "| seed | ppo_lstm.py (defaults) | sb3-contrib RecurrentPPO (zoo's settings) |", "|---|---|---|",
        "| 1 | 2,900 | 1,200 |", "| 2 | not by 5,000 | not by 100,000 |", "| 3 | - | 800 |",
        "| median | not reached (1/2 reached) | 1,200 (2/3 reached) |", "",
        "ppo_lstm.py got there first on 0 of the 2 seeds, sb3-contrib RecurrentPPO on 1; two-sided Mann-Whitney U test "
        "of the two sets of steps: p = 1.00."]  # fmt: skip


def test_peer_table_adds_the_evaluation_at_the_end_where_every_run_has_one(tmp_path, monkeypatch):
    machine = {"cpu": "AMD EPYC", "cores": 2, "torch": "2.13.0+cpu", "python": "3.11.7"}
    runs = [{"script": script, "seed": seed, "steps_to_threshold": steps, "steps_run": 100_000, "eval_mean_return": ret}
            for script, seed, steps, ret in [("sb3-contrib", 1, 30_000, 474.9), ("ppo_lstm.py", 1, 20_000, 475.0),
                                             ("sb3-contrib", 2, None, 120.0), ("ppo_lstm.py", 2, 40_000, 500.0)]]  # fmt: skip
    peer = {"command": "python benchmark/peer_reach.py", "machine": machine, "threshold": 475.0, "runs": runs}
    (tmp_path / "peer_reach.json").write_text(json.dumps(peer))
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    assert report.peer_evaluated(peer)
    assert report.peer_table().splitlines()[2:] == [
        "| seed | ppo_lstm.py (defaults): steps | eval | sb3-contrib RecurrentPPO (zoo's settings): steps | eval |",
        "|---|---|---|---|---|",
        "| 1 | 20,000 | 475.0 | 30,000 | 474.9 |", "| 2 | 40,000 | 500.0 | not by 100,000 | 120.0 |",
        "| median (eval: mean) | 30,000 (2/2 reached) | 487.5 (2/2 >= 475) | not reached (1/2 reached) "
        "| 297.4 (0/2 >= 475) |", "",
        "ppo_lstm.py got there first on 2 of the 2 seeds, sb3-contrib RecurrentPPO on 0; two-sided Mann-Whitney U test "
        "of the two sets of steps: p = 0.67."]  # fmt: skip
    runs[0].pop("eval_mean_return")  # a run without an evaluation (an early stop): steps only
    (tmp_path / "peer_reach.json").write_text(json.dumps(peer))
    assert not report.peer_evaluated(peer)
    assert report.peer_table().splitlines()[4] == "| 1 | 20,000 | 30,000 |"


def test_standing_table_has_one_line_per_comparison_ours_first(tmp_path, monkeypatch):
    machine = {"cpu": "AMD EPYC", "cores": 2, "torch": "2.13.0+cpu", "python": "3.11.7"}
    rows = [("sb3-contrib", 1, 30_000, 474.9), ("ppo_lstm.py", 1, 20_000, 475.0), ("sb3-contrib", 2, None, 120.0),
            ("ppo_lstm.py", 2, 40_000, 500.0), ("sb3-contrib", 3, 10_000, 500.0), ("ppo_lstm.py", 3, 90_000, 300.0),
            ("ppo_lstm.py", 4, 1_000, 500.0), ("sb3-contrib", 5, 7_000, 500.0), ("ppo_lstm.py", 5, 7_000, 500.0)]
    # seed 4 has no peer row and is left out; seed 5 is a tie, first for neither  # fmt: skip
    lstm = {"command": "c", "machine": machine, "peer": "sb3-contrib RecurrentPPO", "threshold": 475.0,
            "runs": [{"script": a, "seed": b, "steps_to_threshold": c, "eval_mean_return": d} for a, b, c, d in rows]}
    mlp = {"command": "c", "machine": {**machine, "cpu": "Intel Xeon"}, "peer": "SB3 PPO", "threshold": 475.0, "runs": [
        {"script": "sb3", "seed": 1, "steps_to_threshold": 5_000},  # stopped at the threshold: no evaluation
        {"script": "ppo_mlp_cartpole.py", "seed": 1, "steps_to_threshold": 6_000, "eval_mean_return": 500.0}]}  # fmt: skip
    running = {**mlp, "runs": mlp["runs"][:1]}  # a comparison still running: only the peer's first seed is in
    (tmp_path / "a.json").write_text(json.dumps(lstm))
    (tmp_path / "b.json").write_text(json.dumps(mlp))
    (tmp_path / "c.json").write_text(json.dumps(running))
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    monkeypatch.setattr(report, "STANDING", [("T1", "a.json"), ("T2", "missing.json"), ("T3", "b.json"),
                                             ("T4", "c.json")])  # fmt: skip
    assert report.standing_table().splitlines()[2:] == [
        "| T1 (threshold 475) | AMD EPYC | sb3-contrib RecurrentPPO | 30,000 (4/4 reached) / 20,000 (3/4 reached) "
        "| 2 / 1 of 4 | 443.8 / 398.7 | 3 / 2 of 4 | a.json |",
        "| T3 (threshold 475) | Intel Xeon | SB3 PPO | 6,000 (1/1 reached) / 5,000 (1/1 reached) | 0 / 1 of 1 "
        "| 500.0 / - | 1 / - of 1 | b.json |"]  # fmt: skip


def test_pooled_table_counts_each_seed_of_each_results_file_as_one_run_a_side(tmp_path, monkeypatch):
    def results(rows):  # (script, seed, steps to the threshold, evaluation)
        return json.dumps({"threshold": 475.0, "runs": [
            {"script": a, "seed": b, "steps_to_threshold": c, "eval_mean_return": d} for a, b, c, d in rows]})  # fmt: skip

    (tmp_path / "a.json").write_text(results([
        ("ppo_lstm.py", 1, 10_000, 500.0), ("sb3-contrib", 1, 20_000, 400.0),
        ("ppo_lstm.py", 2, None, 300.0), ("sb3-contrib", 2, 5_000, 475.0),  # at the threshold: counts
        ("ppo_lstm.py", 3, 1_000, 500.0)]))  # no peer row: left out  # fmt: skip
    (tmp_path / "b.json").write_text(results([("sb3-contrib", 1, 30_000, 480.0), ("ppo_lstm.py", 1, 30_000, 470.0),
                                              ("sb3-contrib", 2, 3_000, 480.0), ("ppo_lstm.py", 2, 2_000, 500.0)]))
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    monkeypatch.setattr(report, "POOLED", [("T", ["a.json", "missing.json", "b.json"]), ("U", ["missing.json"])])
    # ours 10k, never, 30k, 2k against 20k, 5k, 30k, 3k: first on two and one (a tie for neither); evaluated at 475 or
    # more on 2 (500, 500) against 3 (475, 480, 480)
    assert report.pooled_table().splitlines()[2:] == [
        "| T (threshold 475) | a.json, b.json | 4 | 20,000 (3/4 reached) / 12,500 (4/4 reached) | 2 / 1 of 4 | 0.77 "
        "| 442.5 / 458.8 | 2 / 3 of 4 | 1.00 |"]  # fmt: skip


def test_across_cpu_models_pairs_each_models_runs_with_its_defaults_and_pools_the_counts(monkeypatch):
    """report.across_cpu_models: on each CPU model a flag's run pairs with the defaults' run of the same seed on the same
    model (seeds of one side alone and seeds outside 11-30 left out); who got to 475 first (a tie for neither, a run
    that never got there behind any that did), how many never did and how many evaluated at 475 or more, summed over
    the models; a table for each model with a label."""
    rows = {"x:V": {11: (100, 500), 12: (None, 100), 13: (300, 475), 14: (10, 500), 31: (1, 500)},
            f"x0:{report.ROLLOUT64}": {11: (200, 500), 12: (150, 480), 13: (300, 474), 31: (5, 100)},
            "y:V": {11: (None, 10), 12: (10, 500), 15: (5, 500)},
            f"y0:{report.ROLLOUT64}": {11: (None, 475), 12: (20, 500), 16: (1, 100)}}  # fmt: skip
    monkeypatch.setattr(report, "seed_rows", lambda source, threshold: {
        seed: {"eval_mean_return": e, "steps_to_threshold": n} for seed, (n, e) in rows[source].items()})  # fmt: skip
    monkeypatch.setattr(report, "blocks_lines", lambda variants, baselines, blocks, intro: [*intro, *variants, *baselines])
    lines, first, runs, missed, at = report.across_cpu_models("V", [("x", "x0", ""), ("y", "y0", "Y:")])
    # x: 100 < 200 ours, never > 150 theirs, 300 = 300 neither; y: never = never neither, 10 < 20 ours
    assert (first, runs, missed) == ([2, 1], 5, [2, 1])
    # at 475 or more, x: 500, 475 of ours and 500, 480 of theirs; y: 500 of ours and 475, 500 of theirs
    assert at == [3, 4]
    assert lines == ["Y:", "y:V", f"y0:{report.ROLLOUT64}"]


@pytest.mark.parametrize("missed, never", [([2, 1], "2 of its runs never got there, against the defaults' 1"),
                                           ([0, 3], "every one of its runs got there, and 3 of the defaults' never did"),
                                           ([0, 0], "all arrived")])  # fmt: skip
def test_flag_across_cpu_models_sums_up_the_three_models_and_waits_for_every_suite(tmp_path, monkeypatch, missed, never):
    """report.flag_across_cpu_models pairs the flag's suites with the defaults' of the same CPU models, in order, and
    says who got there first and how many never did; nothing while a suite's runs.csv is missing."""
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    calls = []
    monkeypatch.setattr(report, "across_cpu_models",
                        lambda variant, suites: calls.append((variant, suites)) or (["T"], [4, 2], 6, missed, [5, 6]))
    suites = ("a", "b", "c")
    baselines = ("tuning_cartpolenovel_rollout_xeon_arithmetic", "tuning_cartpolenovel_rollout_epyc",
                 "tuning_cartpolenovel_rollout_epyc_avx2_arithmetic")
    for name in suites + baselines[:2]:
        (tmp_path / name).mkdir()
        (tmp_path / name / "runs.csv").write_text("run\n")
    assert report.flag_across_cpu_models("V", "with F", suites) is None and not calls
    (tmp_path / baselines[2]).mkdir()
    (tmp_path / baselines[2] / "runs.csv").write_text("run\n")
    lines, summary, at = report.flag_across_cpu_models("V", "with F", suites, ("1", "2", "3"))
    assert calls == [("V", [("a", baselines[0], "1"), ("b", baselines[1], "2"), ("c", baselines[2], "3")])]
    assert (lines, at) == (["T"], [5, 6])
    assert summary == (f"Over the three CPU models, with F ours got to 475 first on 4 of the 6 paired runs and the defaults "
                       f"on 2; {never}.")


def test_eval_blocks_table_counts_the_first_block_every_block_and_the_whole_evaluation(tmp_path, monkeypatch):
    suite = tmp_path / "s"
    suite.mkdir()
    runs = [("B-v1", [-250.0] * 9 + [-2000.0]),
            ("Z-NoVel-v1", [-150.0] * 10 + [-300.0] * 10),  # first block passes, the whole does not
            ("Z-NoVel-v1", [-200.0] * 10 + [-100.0] * 10)]  # exactly at the threshold counts  # fmt: skip
    with open(suite / "runs.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["run", "env_id", "eval_returns"])
        writer.writerows([f"r{i}", env_id, json.dumps(returns)] for i, (env_id, returns) in enumerate(runs))
    (suite / "curves.csv").write_text("run,tag,step,value\n")
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    assert report.eval_blocks_table("s", -200).splitlines()[2:] == [
        "| Z-NoVel-v1 | 2 | 20 | 2/2 | 3/4 | 1/2 | -187.5 | -300 |",
        "| B-v1 | 1 | 10 | 0/1 | 0/1 | 0/1 | -425.0 | -2000 |"]


def test_seed_blocks_table_sets_each_block_against_the_baseline_seed_for_seed(tmp_path, monkeypatch):
    write_results(tmp_path / "s")  # variant a: seed 1 reaches 475 at step 2,900 and evaluates 500; seed 2 never, 300
    tuning = [{"flags": "", "seed": 1, "eval_mean_return": 500.0, "steps_to_475": 2000},
              {"flags": "", "seed": 2, "eval_mean_return": 475.0, "steps_to_475": 4000},  # at the threshold: counts
              {"flags": "--x", "seed": 2, "eval_mean_return": 0.0, "steps_to_475": 1}]  # other flags: left out  # fmt: skip
    (tmp_path / "t.json").write_text(json.dumps({"runs": tuning}))
    peer = [{"script": "p", "seed": 1, "eval_mean_return": 100.0, "steps_to_threshold": 5000}]
    (tmp_path / "peer.json").write_text(json.dumps({"runs": peer}))
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    # the first baseline source holding a seed gives it: seed 1 from peer.json, seed 2 from t.json; a block with no
    # seed of both is left out
    table = report.seed_blocks_table(["s:a"], ["peer.json:p", "t.json:"], blocks=((1, 1), (1, 2), (3, 4)))
    assert table.splitlines()[2:] == [
        "| a | 1-1 | 1 / 0 of 1 | 2,900 (1/1 reached) / 5,000 (1/1 reached) | 1 / 0 |",
        "| a | 1-2 | 1 / 1 of 2 | not reached (1/2 reached) / 4,500 (2/2 reached) | 1 / 1 |"]


def test_sooner_line_counts_seed_for_seed_and_tests_the_two_sets_of_steps():
    ours = {seed: {"steps_to_threshold": steps} for seed, steps in enumerate([100, 200, 300, 400, None], start=1)}
    peer = {seed: {"steps_to_threshold": steps} for seed, steps in enumerate([600, 700, 800, 900, 1000, 1], start=1)}
    # seed 6 has no row of ours and is left out; ours never reached on seed 5, so the peer's 1,000 was sooner there
    line = report.sooner_line(ours, peer, "a.py", "b")
    assert line == ("a.py got there first on 4 of the 5 seeds, b on 1; two-sided Mann-Whitney U test of the two sets "
                    "of steps: p = 0.15.")  # fmt: skip
    # apart from each other in every seed: the exact two-sided p of 5 against 5 is 2 / 252
    peer[5]["steps_to_threshold"] = None
    ours[5]["steps_to_threshold"] = 500
    assert report.sooner_line(ours, peer, "a.py", "b").endswith("on 5 of the 5 seeds, b on 0; two-sided Mann-Whitney "
                                                                "U test of the two sets of steps: p = 0.01.")  # fmt: skip


def test_peer_runs_with_the_zoos_published_settings(monkeypatch):
    """rl-baselines3-zoo's `normalize: true` is VecNormalize with its defaults: rewards are normalised as well as
    observations (with the algorithm's gamma); the rest of the zoo's CartPoleNoVel-v1 entry as published."""
    import peer_reach
    from stable_baselines3.common.vec_env import VecNormalize

    seen = {}

    def learn(self, total_timesteps, callback=None):
        seen.update(model=self, total=total_timesteps)
        callback.curve = [(256, 10.0)]
        return self

    monkeypatch.setattr(peer_reach.RecurrentPPO, "learn", learn)
    peer_reach.run(seed=3, stop_at=100_000, settings="zoo")
    model, env = seen["model"], seen["model"].get_env()
    assert isinstance(env, VecNormalize) and env.norm_obs and env.norm_reward and env.gamma == 0.98
    assert (env.num_envs, model.n_steps, model.batch_size, model.n_epochs) == (8, 32, 256, 20)
    assert (model.gamma, model.gae_lambda, model.ent_coef, seen["total"]) == (0.98, 0.8, 0.0, 100_000)
    assert model.learning_rate(1.0) == 1e-3 and model.learning_rate(0.5) == 5e-4 and model.clip_range(0.5) == 0.1
    kwargs = model.policy_kwargs
    assert kwargs["activation_fn"] is torch.nn.ReLU and not kwargs["ortho_init"] and kwargs["lstm_hidden_size"] == 64
    assert kwargs["enable_critic_lstm"] and kwargs["net_arch"] == {"pi": [64], "vf": [64]}


def test_mlp_peer_runs_with_the_zoos_cartpole_recipe(monkeypatch):
    """`--task mlp`: SB3's PPO with the zoo's CartPole-v1 entry, which normalises nothing (no VecNormalize)."""
    import peer_reach

    seen = {}

    def learn(self, total_timesteps, callback=None):
        seen.update(model=self)
        callback.curve = [(256, 10.0)]
        return self

    monkeypatch.setattr(peer_reach.PPO, "learn", learn)
    assert peer_reach.run(seed=3, stop_at=100_000, settings="zoo", task="mlp")["seed"] == 3
    model = seen["model"]
    assert type(model) is peer_reach.PPO and model.get_env().__class__.__name__ == "DummyVecEnv"
    assert (model.get_env().num_envs, model.n_steps, model.batch_size, model.n_epochs) == (8, 32, 256, 20)
    assert (model.gamma, model.gae_lambda, model.ent_coef) == (0.98, 0.8, 0.0)
    assert model.learning_rate(0.5) == 5e-4 and model.clip_range(0.5) == 0.1 and model.clip_range_vf is None


def test_curve_band_is_the_mean_over_seeds_with_a_bootstrap_interval():
    grid = np.array([1000.0, 5000.0])
    curve = [(100 * i, float(i)) for i in range(1, 51)]
    np.testing.assert_allclose(plot.running_mean_on_grid(curve, grid), [np.mean(range(1, 11)), np.mean(range(31, 51))])
    mean, low, high = plot.mean_and_ci(np.array([1.0, 2.0, 3.0, 4.0]))
    assert mean == 2.5 and 1.0 <= low < 2.5 < high <= 4.0
    assert plot.mean_and_ci(np.array([7.0, np.nan])) == (7.0, 7.0, 7.0)


def test_legacy_gym_shim_has_old_gym_semantics():
    """benchmark/legacy_gym (for CleanRL's ppo_atari_lstm.py): reset gives obs only; a finished env reports
    done with the next episode's first obs, its final obs and episode statistics in a per-env info dict."""
    sys.path.insert(0, os.path.join(ROOT, "benchmark", "legacy_gym"))
    try:
        import gym as legacy
    finally:
        sys.path.pop(0)

    def make():
        env = legacy.wrappers.RecordEpisodeStatistics(legacy.make("CartPole-v1"))
        env = legacy.wrappers.FrameStack(env, 1)
        env.seed(5)
        return env

    envs = legacy.vector.SyncVectorEnv([make, make])
    assert isinstance(envs.single_action_space, legacy.spaces.Discrete)
    obs = envs.reset()
    assert obs.shape == (2, 1, 4) and np.array_equal(obs[0], obs[1])  # both seeded alike
    length = 0
    while True:
        length += 1
        obs, rewards, dones, infos = envs.step(np.array([0, 0]))
        assert rewards.shape == dones.shape == (2,) and len(infos) == 2
        if dones[0]:
            break
    assert infos[0]["episode"]["l"] == length and infos[0]["episode"]["r"] == length
    assert abs(infos[0]["terminal_observation"][0, 2]) > 0.2 and abs(obs[0, 0, 2]) < 0.05  # fell over; a fresh pole


def test_eval_noise_at_scale_zero_is_the_scripts_deterministic_evaluation():
    import ppo_lstm_continuous as script

    trained = script.main(script.Args(total_timesteps=128, num_envs=4, num_steps=16, update_epochs=1, eval_episodes=3,
                                      save_model=True))  # fmt: skip
    rows = eval_noise.evaluate(eval_noise.load_script(), trained["checkpoint"], [0.0, 1.0], episodes=3)
    assert rows[0]["mean_return"] == trained["eval_mean_return"]
    assert rows[1]["mean_return"] != rows[0]["mean_return"]  # the noise reaches the actions
    assert [row["episodes"] for row in rows] == [3, 3] and rows[0]["mean_length"] == 200  # PendulumNoVel's time limit


class AgentWrapper:
    """An agent that answers as the one it wraps, but for what a subclass overrides."""

    def __init__(self, agent):
        self.agent = agent

    def __getattr__(self, name):
        return getattr(self.agent, name)


def wrap_loaded_agent(monkeypatch, wrapper, env_wrapper=lambda env: env) -> None:
    """episode_ends.load_agent as it is, its env and agent wrapped."""
    load_agent = episode_ends.load_agent
    monkeypatch.setattr(episode_ends, "load_agent", lambda *a: (lambda args, env, agent, rms: (
        args, env_wrapper(env), wrapper(agent), rms))(*load_agent(*a)))  # fmt: skip


def test_episode_ends_replays_the_scripts_evaluation_and_names_what_ended_each_episode(monkeypatch):
    import ppo_lstm as script

    trained = script.main(script.Args(total_timesteps=128, num_envs=4, num_steps=16, update_epochs=1, eval_episodes=3,
                                      save_model=True, seed=3))  # fmt: skip
    run = episode_ends.episodes(episode_ends.load_script("ppo_lstm"), trained["checkpoint"], 3)
    assert [row["return"] for row in run["episodes"]] == trained["eval_returns"]  # the run's own evaluation episodes
    assert run["seed"] == 3 and run["env_id"] == "CartPoleNoVel-v1"
    assert run["flags"] == "--eval-episodes 3 --total-timesteps 128 --num-envs 4 --num-steps 16 --update-epochs 1"
    for row in run["episodes"]:  # an untrained policy: the pole falls, well inside the track
        assert row["end"] == "pole" and abs(row["final_angle"]) > 0.2095 and row["max_abs_x"] < 2.4
    assert min(row["return"] for row in run["episodes"]) > 8

    # the env's time limit ends an episode, unless max_steps plays on past it: a limit of 3 steps here; the critic
    # answers with the number of steps its agent has acted, so each value says which step's it is
    class Counting(AgentWrapper):
        steps = 0

        def get_value(self, *args):
            return torch.tensor([[float(self.steps)]])

        def get_action_and_value(self, *args, **kwargs):
            self.steps += 1
            return self.agent.get_action_and_value(*args, **kwargs)

    wrap_loaded_agent(monkeypatch, Counting, lambda env: gym.wrappers.TimeLimit(env, 3))
    for max_steps, length in [(None, 3), (8, 8)]:
        run = episode_ends.episodes(episode_ends.load_script("ppo_lstm"), trained["checkpoint"], 2, max_steps)
        assert [(row["return"], row["end"]) for row in run["episodes"]] == [(length, "time limit")] * 2
        first, second = run["episodes"]  # the second episode's steps count on from the first's
        assert (first["value_mid"], second["value_mid"]) == (length // 2, length + length // 2)
        assert first["value_before_end"] == {100: None, 20: None, 1: length - 1}  # no 20 steps: none

    env = gym.make("CartPole-v1")
    env.reset(seed=0)
    for state, terminated, end in [((-2.41, 0.0, 0.05, 0.0), True, "cart"), ((2.3, 0.0, -0.21, 0.0), True, "pole"),
                                   ((2.3, 0.0, 0.05, 0.0), False, "time limit"), ((0.0, 0.0, 0.0, 0.0), True, "other")]:
        env.unwrapped.state = np.array(state)
        assert episode_ends.end_of(env, terminated) == end


def test_episode_ends_feeds_a_critic_prev_action_agent_the_action_just_taken(monkeypatch):
    import ppo_lstm as script

    trained = script.main(script.Args(total_timesteps=128, num_envs=4, num_steps=16, update_epochs=1, eval_episodes=2,
                                      save_model=True, seed=3, critic_prev_action=True))  # fmt: skip
    seen = []  # (the previous action the agent was given, whether the episode starts there, the action it took)

    class Spy(AgentWrapper):
        def inputs(self, obs, prev_action, episode_starts):
            seen.append([None if prev_action is None else int(prev_action[0]), bool(episode_starts[0]), None])
            return self.agent.inputs(obs, prev_action, episode_starts)

        def get_action_and_value(self, *args, **kwargs):
            out = self.agent.get_action_and_value(*args, **kwargs)
            seen[-1][2] = int(out[0][0])
            return out

    wrap_loaded_agent(monkeypatch, Spy)
    run = episode_ends.episodes(episode_ends.load_script("ppo_lstm"), trained["checkpoint"], 2)
    assert [row["return"] for row in run["episodes"]] == trained["eval_returns"]
    assert len(seen) == sum(trained["eval_returns"]) and [start for _, start, _ in seen].count(True) == 2
    for (_, _, taken), (given, start, _) in zip(seen[:-1], seen[1:], strict=True):
        assert start or given == taken  # within an episode, the action of the step before


def test_episode_ends_replays_the_peers_own_evaluation():
    """The peer trained briefly as peer_reach.py trains it: its episodes are the ten of peer_reach.py's evaluation
    (SB3's evaluate_policy on a VecNormalize of frozen statistics), replayed here on a plain env, return for return."""
    run = episode_ends.peer_episodes(5, 10, stop_at=512)
    returns = [row["return"] for row in run["episodes"]]
    assert returns == run["eval_returns"] and len(set(returns)) > 1
    assert run["episodes"][0]["value_mid"] is None and run["seed"] == 5


def test_eval_noise_is_correlated_as_the_checkpoint_was_trained(monkeypatch):
    """Scale 1 samples the policy as training did: with --noise-corr 0.9 each step's noise keeps 0.9 of the last one's,
    with 0 the steps are independent."""
    import ppo_lstm_continuous as script

    module, noises = eval_noise.load_script(), []
    act = module.Agent.get_action_and_value

    def spy(self, *args, noise=None, **kwargs):
        noises.append(noise.flatten())
        return act(self, *args, noise=noise, **kwargs)

    monkeypatch.setattr(module.Agent, "get_action_and_value", spy)
    lag_one = {}
    for corr in (0.0, 0.9):
        trained = script.main(script.Args(total_timesteps=128, num_envs=4, num_steps=16, update_epochs=1, eval_episodes=0,
                                          save_model=True, noise_corr=corr))  # fmt: skip
        noises.clear()
        eval_noise.evaluate(module, trained["checkpoint"], [1.0], episodes=1)
        steps = torch.cat(noises)  # one PendulumNoVel episode: 200 steps
        lag_one[corr] = torch.corrcoef(torch.stack([steps[:-1], steps[1:]]))[0, 1].item()
    assert lag_one[0.9] > 0.7 and abs(lag_one[0.0]) < 0.25


def test_memory_table_averages_over_seeds_and_counts_solved_episodes(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    machine = {"cpu": "CPU", "cores": 2, "torch": "2", "python": "3"}
    runs = [{"contender": "ppo_lstm", "env_id": "minigrid:MiniGrid-MemoryS7-v0", "seed": seed, "eval_mean_return": ret,
             "eval_returns": returns, "train_last20": 0.5} for seed, ret, returns in
            [(1, 0.4, [0.8, 0.0]), (2, 0.6, [0.6, 0.6])]] + [  # fmt: skip
        {"contender": "mlp", "env_id": "minigrid:MiniGrid-MemoryS7-v0", "seed": 1, "eval_mean_return": 0.0,
         "eval_returns": [0.0, 0.0], "train_last20": None}]
    with open(tmp_path / "minigrid.json", "w") as f:
        json.dump({"command": "python benchmark/popgym_suite.py --suite minigrid", "machine": machine, "steps": 1000,
                   "flags": "", "runs": runs}, f)  # fmt: skip
    table = report.memory_table("minigrid.json").splitlines()
    assert "ppo_lstm.py on its defaults, the MLP on its defaults." in table[0] and table[2].endswith("solved |")
    assert table[5] == "| MiniGrid-MemoryS7-v0 | ppo_lstm | 2 | 0.50 +- 0.10 | 0.50 +- 0.00 | 3/4 | - |"
    assert table[4] == "| MiniGrid-MemoryS7-v0 | mlp | 1 | 0.00 +- 0.00 | - | 0/2 | - |"
    # rows that record the step of 90 solved out of 100: the median over the seeds that reached it
    for row, steps in zip(runs, [3000, None, 5000], strict=True):
        row["steps_to_solved_90_of_100"] = steps
    runs.append({**runs[0], "seed": 3, "steps_to_solved_90_of_100": 1000})
    with open(tmp_path / "minigrid_1m.json", "w") as f:
        json.dump({"command": "c", "machine": machine, "steps": 1000, "flags": "", "runs": runs}, f)
    table = report.memory_table("minigrid_1m.json").splitlines()
    assert table[5].endswith("| 4/6 | 2,000 (2/3 reached) |") and table[4].endswith("| 0/2 | 5,000 (1/1 reached) |")


def test_steps_to_solved_is_the_step_of_the_episode_that_completes_enough_solved_in_its_window():
    sys.path.insert(0, os.path.join(ROOT, "benchmark"))
    import popgym_suite

    # 17 solved of the first 20 (failures at steps 30, 50 and 70); solved episodes after them push solved ones out of
    # the window until the failure at 30 leaves it, with the episode at step 230
    episodes = [(step, 0.0 if step in (30, 50, 70) else 0.9) for step in range(10, 210, 10)]
    more = [(210, 0.5), (220, 0.7), (230, 0.6)]
    def at(episodes):
        return popgym_suite.steps_to_solved(episodes, solved=18, window=20)

    assert at(episodes) is None
    assert at(episodes + more[:2]) is None
    assert at(episodes + more) == 230
    assert at([(1, 0.9)] * 19) is None  # fewer than 20 episodes
    # by default 90 of the last 100, which chance (half of them solved, alternating) never reaches
    assert popgym_suite.steps_to_solved([(i, 0.9 * (i % 2)) for i in range(10_000)]) is None
    assert popgym_suite.steps_to_solved([(i, 0.0) for i in range(10)] + [(i, 0.9) for i in range(10, 100)]) == 99
    assert popgym_suite.steps_to_solved([(i, 0.0) for i in range(11)] + [(i, 0.9) for i in range(11, 100)]) is None


def test_pendulum_peer_runs_with_the_zoos_gsde_agent_to_the_end_and_is_evaluated(monkeypatch):
    """`--task pendulum`: RecurrentPPO with rl_zoo3 2.9.2's PendulumNoVel-v1 entry (gSDE sampled every 4 steps, 4 envs
    x 1024 steps, gamma 0.9, VecNormalize, LSTMs of 64); the run does not stop at the threshold; a deterministic
    evaluation follows, with the training statistics frozen."""
    import peer_reach

    seen = {}

    def learn(self, total_timesteps, callback=None):
        seen.update(model=self)
        callback.curve = [(1000, -150.0)] * 20
        callback.reached = 1000
        return self

    monkeypatch.setattr(peer_reach.RecurrentPPO, "learn", learn)
    from stable_baselines3.common.vec_env import VecNormalize

    evaluated = {}

    def evaluate(model, env, **kwargs):
        evaluated.update(env=env)
        return [-170.0, -190.0], [200, 200]

    monkeypatch.setattr("stable_baselines3.common.evaluation.evaluate_policy", evaluate)
    result = peer_reach.run(seed=3, stop_at=100_000, settings="zoo", task="pendulum")
    model, env = seen["model"], seen["model"].get_env()
    assert model.use_sde and model.sde_sample_freq == 4
    assert isinstance(env, VecNormalize) and env.norm_obs and env.norm_reward and env.gamma == 0.9
    assert (env.num_envs, model.n_steps, model.n_epochs, model.gamma, model.gae_lambda) == (4, 1024, 10, 0.9, 0.95)
    kwargs = model.policy_kwargs
    assert kwargs["lstm_hidden_size"] == 64 and kwargs["activation_fn"] is torch.nn.ReLU and not kwargs["ortho_init"]
    assert not evaluated["env"].training and not evaluated["env"].norm_reward  # frozen statistics, raw returns
    assert result["eval_mean_return"] == -180.0 and result["steps_to_threshold"] == 1000
    assert result["curve"] == [(1000, -150.0)] * 20  # kept for the plot of ours beside the peer
    for early_stop, goes_on in [(False, True), (True, False)]:  # after the threshold was reached at step 500
        callback = peer_reach.StopAtThreshold(100_000, -200, early_stop=early_stop)
        callback.reached, callback.num_timesteps, callback.locals = 500, 2000, {"infos": [{}]}
        assert callback._on_step() is goes_on


def test_pendulum_peer_table_sets_each_seeds_evaluation_beside_the_peer(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    machine = {"cpu": "CPU", "cores": 2, "torch": "2", "python": "3"}
    runs = [{"script": "sb3-contrib", "seed": 1, "steps_to_threshold": 40_000, "eval_mean_return": -150.0},
            {"script": "ppo_lstm_continuous.py", "seed": 1, "steps_to_threshold": None, "eval_mean_return": -250.0},
            {"script": "sb3-contrib", "seed": 2, "steps_to_threshold": None, "eval_mean_return": -450.0}]  # fmt: skip
    with open(tmp_path / "peer_reach_pendulum.json", "w") as f:
        json.dump({"command": "python benchmark/peer_reach.py --task pendulum", "machine": machine, "stop_at": 100_000,
                   "ours_flags": "", "runs": runs}, f)  # fmt: skip
    table = report.pendulum_peer_table().splitlines()
    assert "| ppo_lstm_continuous.py (defaults): eval |" in table[2]  # peer_reach.py records no flags as ""
    assert table[4:] == ["| 1 | -250.0 | not reached | -150.0 | 40,000 |", "| 2 | - | - | -450.0 | not reached |",
                         "| mean of the 1 seeds both ran | -250.0 (0 >= -200) | | -150.0 (1 >= -200) | |"]  # fmt: skip
    with open(tmp_path / "peer_reach_pendulum_flags.json", "w") as f:  # ours with flags: the column names them
        json.dump({"command": "python benchmark/peer_reach.py --task pendulum --ours-flags='--norm-obs-until 0.3'",
                   "machine": machine, "stop_at": 100_000, "ours_flags": "--norm-obs-until 0.3", "runs": runs}, f)
    table = report.pendulum_peer_table("peer_reach_pendulum_flags.json").splitlines()
    assert "| ppo_lstm_continuous.py (--norm-obs-until 0.3): eval |" in table[2]


def test_popgym_table_puts_the_contenders_side_by_side_and_counts_leads(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    machine = {"cpu": "CPU", "cores": 2, "torch": "2", "python": "3"}
    runs = [{"contender": c, "env_id": f"popgym:popgym-{env}-v0", "seed": seed, "eval_mean_return": ret,
             "train_last20": train} for c, env, seed, ret, train in
            [("ppo_lstm", "RepeatFirstEasy", 1, 0.5, 0.2), ("ppo_lstm", "RepeatFirstEasy", 2, 0.3, None),
             ("mlp", "RepeatFirstEasy", 1, -0.5, 0.3), ("sb3-contrib", "RepeatFirstEasy", 1, 0.501, 0.1),
             ("ppo_lstm", "AutoencodeEasy", 1, -0.5, -0.6), ("mlp", "AutoencodeEasy", 1, -0.4, -0.7),
             ("random", "AutoencodeEasy", 1, -0.55, None), ("random", "AutoencodeEasy", 2, -0.1, None),
             ("random", "RepeatFirstEasy", 2, 0.2, None)]]  # fmt: skip
    with open(tmp_path / "popgym.json", "w") as f:
        json.dump({"command": "python benchmark/popgym_suite.py", "machine": machine, "steps": 1000, "flags": "",
                   "runs": runs}, f)  # fmt: skip
    table = report.popgym_table().splitlines()
    assert "`python benchmark/popgym_suite.py --steps 1000`" in table[0] and "ppo_lstm.py on its defaults" in table[0]
    assert "evaluation over 10 episodes at the end" in table[0]  # rows that do not record their episodes had 10
    assert table[4] == ("| AutoencodeEasy | -0.50 +- 0.00 / -0.60 (1) | -0.40 +- 0.00 / -0.70 (1) | - "
                        "| -0.33 +- 0.23 (2) |")  # fmt: skip
    assert table[5] == ("| RepeatFirstEasy | 0.40 +- 0.10 / 0.20 (2) | -0.50 +- 0.00 / 0.30 (1) | 0.50 +- 0.00 / 0.10 (1) "
                        "| 0.20 +- 0.00 (1) |")  # fmt: skip
    # the peer ran seed 1 only: ours is compared on seed 1 (0.5 against 0.501, level to 2 decimals), not on its mean 0.4
    # random actions: ours on seed 1 of Autoencode (-0.5, trained -0.6) against random's -0.55 there; on seed 2 of
    # RepeatFirst (0.3, no training return) against 0.2
    assert table[-6:] == [
        "Ours against the MLP, evaluation, on the envs and seeds both ran: above on 1, level with on 0, below on 1.",
        "Ours against sb3-contrib, evaluation, on the envs and seeds both ran: above on 0, level with on 1, below on 0.",
        "Ours against random actions, evaluation, on the envs and seeds both ran: above on 2, level with on 0, below on 0.",
        "Ours against the MLP, last-20 training return, on the envs and seeds both ran: above on 1, level with on 0, "
        "below on 1.",
        "Ours against sb3-contrib, last-20 training return, on the envs and seeds both ran: above on 1, level with on 0, "
        "below on 0.",
        "Ours against random actions, last-20 training return, on the envs and seeds both ran: above on 0, level with "
        "on 0, below on 1.",
    ]
    assert report.popgym_table(counts_only=True).splitlines() == table[-6:]  # the counts alone, for a sentence
    with open(tmp_path / "popgym.json", "w") as f:  # a file without random actions: no column to compare with
        json.dump({"command": "c", "machine": machine, "steps": 1000, "flags": "", "runs": runs[:6]}, f)
    table = report.popgym_table().splitlines()
    assert table[4].endswith("| - |") and len([line for line in table if line.startswith("Ours against")]) == 4
    assert "the other contenders on their defaults." in table[0]
    runs[2]["flags"] = runs[5]["flags"] = "--gamma 0"  # the MLP's flags and the peer's settings, each as recorded
    for peer_settings, said in [("", "the MLP with `--gamma 0`, sb3-contrib on its defaults."),
                                ("gamma=0", "the MLP with `--gamma 0`, sb3-contrib with `gamma=0`.")]:  # fmt: skip
        runs[3]["flags"] = peer_settings
        with open(tmp_path / "popgym.json", "w") as f:
            json.dump({"command": "c", "machine": machine, "steps": 1000, "flags": "", "runs": runs}, f)
        assert f"steps per run; ppo_lstm.py on its defaults, {said} Each cell" in report.popgym_table()
    for row in runs:  # the evaluation episodes the trained runs recorded; random actions' 100 are said apart
        row["eval_episodes"] = 100 if row["contender"] == "random" else 30
    with open(tmp_path / "popgym.json", "w") as f:
        json.dump({"command": "c", "machine": machine, "steps": 1000, "flags": "", "runs": runs}, f)
    assert "evaluation over 30 episodes at the end" in report.popgym_table()
    runs[0]["eval_episodes"] = 10
    with open(tmp_path / "popgym.json", "w") as f:
        json.dump({"command": "c", "machine": machine, "steps": 1000, "flags": "", "runs": runs}, f)
    assert "evaluation over 10 or 30 episodes at the end" in report.popgym_table()


def test_prev_action_table_sets_each_contender_with_the_previous_action_beside_itself_without(tmp_path, monkeypatch):
    """report.prev_action_table: per env and contender, the means over the seeds both files ran (evaluation, last-20
    training return), the env named alike in both files; a contender absent from the first file is left out."""
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))

    def write(name, env_id, rows):
        runs = [{"contender": c, "env_id": env_id, "seed": seed, "eval_mean_return": ret, "train_last20": train}
                for c, seed, ret, train in rows]  # fmt: skip
        with open(tmp_path / name, "w") as f:
            json.dump({"runs": runs}, f)

    write("without.json", "popgym:popgym-MineSweeperEasy-v0",
          [("ppo_lstm", 1, -0.2, -0.3), ("ppo_lstm", 2, -0.4, -0.5), ("ppo_lstm", 3, 0.9, 0.9), ("mlp", 1, -0.4, -0.3),
           ("random", 1, -0.2, None)])  # fmt: skip
    write("with.json", "benchmark.popgym_prev_action:popgym-MineSweeperEasy-PrevAction-v0",
          [("random", 1, -0.2, None), ("mlp", 1, 0.1, 0.2), ("ppo_lstm", 2, 0.0, -0.1), ("ppo_lstm", 1, -0.1, 0.1),
           ("sb3-contrib", 1, 0.3, 0.3)])  # fmt: skip
    assert report.prev_action_table("without.json", "with.json").splitlines()[2:] == [
        "| MineSweeperEasy | ppo_lstm.py | 2 | -0.30 / -0.05 | -0.40 / 0.00 |",
        "| MineSweeperEasy | MLP | 1 | -0.40 / 0.10 | -0.30 / 0.20 |",
        "| MineSweeperEasy | random actions | 1 | -0.20 / -0.20 | - |",
    ]


def test_prev_action_section_counts_random_rows_played_alike_and_takes_the_best_of_the_trained(tmp_path, monkeypatch):
    """report.prev_action_section: random actions' rows with the wrapper checked against those without it, return for
    return; on the envs no one learned, random actions' mean beside the best trained contender's."""
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    envs = ["BattleshipEasy", "ConcentrationEasy", "MineSweeperEasy", "MultiarmedBanditEasy"]
    trained = {"ppo_lstm": -0.9, "mlp": -0.7, "sb3-contrib": -0.8}

    def write(name, suffix, random_returns):
        runs = [{"contender": c, "env_id": f"x:popgym-{env}{suffix}-v0", "seed": seed, "eval_mean_return": ret + 0.02 * seed,
                 "train_last20": ret, "eval_returns": [ret]} for env in envs for c, ret in trained.items()
                for seed in (1, 2)]  # fmt: skip
        runs += [{"contender": "random", "env_id": f"x:popgym-{env}{suffix}-v0", "seed": seed, "eval_returns": returns,
                  "eval_mean_return": statistics.mean(returns), "train_last20": None}
                 for env in envs for seed, returns in random_returns.items()]  # fmt: skip
        with open(tmp_path / name, "w") as f:
            json.dump({"runs": runs}, f)

    write("popgym_r64.json", "", {1: [-0.5, -0.3], 2: [-0.4, -0.4]})
    write("popgym-prev-action.json", "-PrevAction", {1: [-0.5, -0.3], 2: [-0.4, -0.41]})
    with open(tmp_path / "popgym-prev-action.json") as f:  # the peer's rows of two envs run again, one the same
        again = [row for row in json.load(f)["runs"] if row["contender"] == "sb3-contrib" and row["seed"] == 1][:2]
    again[1] = {**again[1], "eval_returns": [0.0]}
    with open(tmp_path / "popgym-prev-action_peer_again.json", "w") as f:
        json.dump({"runs": again}, f)
    with open(tmp_path / "popgym-prev-action.json") as f:  # ours' and the MLP's rows of one env run again, all the same
        again = [row for row in json.load(f)["runs"] if row["contender"] in ("ppo_lstm", "mlp") and "Mine" in row["env_id"]]
    with open(tmp_path / "popgym-prev-action_ours_again.json", "w") as f:
        json.dump({"runs": again[:3]}, f)
    intro, _ = report.prev_action_section()
    assert "Random actions' 4 of 8 rows came out as in the table above" in intro
    assert "(results/popgym-prev-action_peer_again.json) 1 of 2 came out the same" in intro
    assert "and so did 2 of ours' 2 and 1 of the MLP's 1 (results/popgym-prev-action_ours_again.json)" in intro
    assert "(BattleshipEasy -0.40 against -0.67, ConcentrationEasy -0.40 against -0.67, the best of the others)" in intro


def test_prev_action_200k_section_sets_each_contender_at_200k_beside_itself_at_50k(tmp_path, monkeypatch):
    """report.prev_action_200k_section: per env, each contender's evaluation and training means at 200k (ours' seeds one
    by one, and on how many ours is above each rival, a tie not counted) beside the same contender's at 50k; a
    contender that did not run an env is left out, and so are the rows run again that differ."""
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))

    def write(name, values):  # values: (env, contender) -> (evaluations by seed, last-20 training mean)
        runs = [{"contender": c, "env_id": f"x:popgym-{env}-PrevAction-v0", "seed": seed, "eval_mean_return": ret,
                 "train_last20": train, "eval_returns": [ret], "seconds": 100 * seed}
                for (env, c), (rets, train) in values.items() for seed, ret in enumerate(rets, 1)]  # fmt: skip
        with open(tmp_path / name, "w") as f:
            json.dump({"command": "CMD", "machine": {"cpu": "CPU", "cores": 2, "torch": "t", "python": "p"},
                       "steps": 200_000, "flags": "", "runs": runs}, f)  # fmt: skip

    write("popgym-prev-action_200k.json", {
        ("MineSweeperEasy", "ppo_lstm"): ([0.3, 0.4, 0.8], 0.25), ("MineSweeperEasy", "mlp"): ([-0.1] * 3, 0.05),
        ("MineSweeperEasy", "sb3-contrib"): ([0.1, 0.5, 0.1], 0.15), ("MineSweeperEasy", "random"): ([-0.2] * 3, None),
        ("BattleshipEasy", "ppo_lstm"): ([-0.5] * 3, -0.4), ("BattleshipEasy", "mlp"): ([-0.5, -0.6, -0.6], -0.45)})
    write("popgym-prev-action.json", {
        ("MineSweeperEasy", "ppo_lstm"): ([-0.06] * 3, -0.13), ("MineSweeperEasy", "mlp"): ([-0.03] * 3, 0.08),
        ("MineSweeperEasy", "sb3-contrib"): ([-0.14] * 3, -0.17), ("MineSweeperEasy", "random"): ([-0.21] * 3, None),
        ("BattleshipEasy", "ppo_lstm"): ([-0.98] * 3, -0.6), ("BattleshipEasy", "mlp"): ([-0.89] * 3, -0.48),
        ("BattleshipEasy", "sb3-contrib"): ([-0.96] * 3, -0.52)})
    with open(tmp_path / "popgym-prev-action_200k.json") as f:  # ours' and the MLP's rows of one env run again
        again = [row for row in json.load(f)["runs"] if row["contender"] in ("ppo_lstm", "mlp") and "Mine" in row["env_id"]]
    again[0] = {**again[0], "train_last20": 0.0}  # one of ours' 3 not the same
    with open(tmp_path / "popgym-prev-action_200k_ours_again.json", "w") as f:
        json.dump({"runs": again[:5]}, f)
    intro, table = report.prev_action_200k_section()
    assert ("sb3-contrib ran on MineSweeperEasy only: on BattleshipEasy its 50k runs took 200 seconds each here, four "
            "times that at 200k. Of ours' rows run again 2 of 3 came out the same, every return, and 2 of the MLP's 2 "
            "(results/popgym-prev-action_200k_ours_again.json):") in intro
    assert ("on BattleshipEasy the evaluation averaged ours -0.50, the MLP -0.57 (at 50k: -0.98, -0.89; ours seed by seed "
            "-0.50 / -0.50 / -0.50, above the MLP on 2 of 3 seeds), the last 20 training episodes ours -0.40, the MLP "
            "-0.45 (at 50k: -0.60, -0.48); on MineSweeperEasy the evaluation averaged ours 0.50, the MLP -0.10, the peer "
            "0.23, random actions -0.20 (at 50k: -0.06, -0.03, -0.14, -0.21; ours seed by seed 0.30 / 0.40 / 0.80, above "
            "the MLP on 3 of 3, the peer on 2 of 3 seeds), the last 20 training episodes ours 0.25, the MLP 0.05, the peer "
            "0.15 (at 50k: -0.13, 0.08, -0.17). ") in intro  # fmt: skip
    assert "(`CMD`)" in intro and "| MineSweeperEasy-PrevAction | 0.50 +- " in table()


def test_autoencode_1m_section_sets_each_contender_at_1m_beside_50k_and_200k(tmp_path, monkeypatch):
    """report.autoencode_1m_section: at 1M each contender's mean evaluation (ours' and the MLP's seed by seed, in seed
    order), then its means at 50k and 200k, each from its own file; the bound of a policy without memory computed."""
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))

    def write(name, base):  # each contender's evaluations: base + offset + seed / 1000, seeds written 3, 1, 2
        offsets = {"ppo_lstm": 0.0, "mlp": 0.01, "random": -0.02}
        runs = [{"contender": c, "env_id": "popgym:popgym-AutoencodeEasy-v0", "seed": seed, "eval_returns": [0.0],
                 "eval_mean_return": base + offset + seed / 1000, "train_last20": None if c == "random" else base - seed / 100}
                for c, offset in offsets.items() for seed in (3, 1, 2)]  # fmt: skip
        with open(tmp_path / name, "w") as f:
            json.dump({"command": "CMD", "machine": {"cpu": "CPU", "cores": 2, "torch": "t", "python": "p"},
                       "steps": 1, "flags": "", "runs": runs}, f)  # fmt: skip

    write("popgym_1m.json", -0.4)
    write("popgym_200k.json", -0.45)
    write("popgym_r64.json", -0.5)
    intro, table = report.autoencode_1m_section()
    assert "no policy without memory can expect more than -0.471" in intro and "(`CMD`)" in intro
    assert ("(seed by seed): ours -0.398 (-0.399 / -0.398 / -0.397), the MLP -0.388 (-0.389 / -0.388 / -0.387), random "
            "actions -0.418 (at 50k -0.498, -0.488, -0.518; at 200k -0.448, -0.438, -0.468); the last 20 training "
            "episodes (the policy as sampled) ours -0.420 (-0.410 / -0.420 / -0.430), the MLP -0.420 (a mean over 20 "
            "episodes of guesses drawn at random spreads by about 0.03") in intro  # fmt: skip
    assert "| AutoencodeEasy | -0.40 +- " in table()


def test_autoencode_200k_section_gives_each_contender_its_settings_and_names_the_best_tuning_flags(tmp_path, monkeypatch):
    """report.autoencode_200k_section: each contender's means over its seeds at 200k with the discount 0 and the entropy
    bonus, ours seed by seed in seed order and beside its 200k rows on the recipe alone; the command with the MLP's flags
    and the peer's settings as their rows recorded them; the tuning flags with the best mean evaluation and training
    return at 200k (the recipe's flags left out, a 50k row not counted), and the tuning table, budget by budget."""
    import popgym_suite

    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    machine = {"cpu": "CPU", "cores": 2, "torch": "t", "python": "p"}

    def write(name, base, flags, runs=None):  # evaluations base + offset + seed / 1000, seeds written 3, 1, 2
        offsets = {"ppo_lstm": 0.0, "mlp": 0.01, "sb3-contrib": 0.02, "random": -0.02}
        # each seed's evaluation episodes: ours' standard error 0.25, the peer's 0.05 * seed
        returns = {"ppo_lstm": lambda seed: [0.0, -0.5], "sb3-contrib": lambda seed: [0.0, 0.1 * seed]}
        runs = runs or [{"contender": c, "env_id": "popgym:popgym-AutoencodeEasy-v0", "seed": seed,
                         "eval_returns": returns.get(c, lambda seed: [0.0])(seed),
                         "eval_mean_return": base + offset + seed / 1000, "flags": flags.get(c, ""),
                         "train_last20": None if c == "random" else base - offset - seed / 100}
                        for c, offset in offsets.items() for seed in (3, 1, 2)]  # fmt: skip
        with open(tmp_path / name, "w") as f:
            json.dump({"command": "CMD", "machine": machine, "steps": 1, "flags": flags.get("ppo_lstm", ""), "runs": runs,
                       "note": "NOTE"}, f)  # fmt: skip

    recipe = popgym_suite.RECIPE
    settings = {"ppo_lstm": f"{recipe} --gamma 0", "mlp": "--gamma 0", "sb3-contrib": "gamma=0"}
    write("popgym_autoencode_200k.json", -0.4, settings)
    write("popgym_200k.json", -0.5, {"ppo_lstm": recipe})
    tuning = [{"budget": budget, "flags": f"{recipe} {extra}".strip(), "seed": seed, "eval_mean_return": ret,
               "train_last20": train} for budget, extra, seed, ret, train in
              [(200_000, "", 11, -0.5, -0.5), (200_000, "--gamma 0", 12, -0.3, -0.6), (200_000, "--gamma 0", 11, -0.5, -0.55),
               (200_000, "--ent-coef 0.01", 11, -0.45, -0.45), (50_000, "--ent-coef 0.1", 11, 0.9, 0.9)]]  # fmt: skip
    # the peer's rows on tuning seeds: a row of their own in the table, neither tried flags of ours nor the best
    tuning += [{"contender": "sb3-contrib", "budget": 200_000, "flags": "gamma=0", "seed": seed, "eval_mean_return": 0.5,
                "train_last20": train} for seed, train in ((13, 0.2), (11, 0.4))]  # fmt: skip
    write("tuning_popgym_autoencode.json", 0, {}, tuning)
    intro, table = report.autoencode_200k_section()
    assert "ours evaluates at -0.398 at 200k on seeds 1-3 (-0.399 / -0.398 / -0.397), above the best -0.471" in intro
    assert "where on the suite's recipe alone it evaluated at -0.498 (results/popgym_200k.json)" in intro
    assert (f'--flags="{recipe} --gamma 0" --mlp-flags="--gamma 0" --peer-settings "gamma=0" --out '
            "popgym_autoencode_200k.json`") in intro
    # rows that record one count of evaluation episodes other than 10 put it in the command; random actions' do not count
    suite = json.loads((tmp_path / "popgym_autoencode_200k.json").read_text())
    for row in suite["runs"]:
        row["eval_episodes"] = 30 if row["contender"] == "random" else 100
    (tmp_path / "popgym_autoencode_200k.json").write_text(json.dumps(suite))
    assert '--peer-settings "gamma=0" --eval-episodes 100 --out popgym_autoencode_200k.json`' in (
        report.autoencode_200k_section()[0])
    suite["runs"][0]["eval_episodes"] = 30  # two counts: the command cannot say both, the table's text does
    (tmp_path / "popgym_autoencode_200k.json").write_text(json.dumps(suite))
    assert '--peer-settings "gamma=0" --out popgym_autoencode_200k.json`' in report.autoencode_200k_section()[0]
    write("popgym_autoencode_200k.json", -0.4, settings)
    assert ("the evaluations, ours -0.398, the MLP -0.388, the peer -0.378, random actions -0.418; the last 20 training "
            "episodes (the policy as sampled) ours -0.420, the MLP -0.430, the peer -0.440. The peer, given the same "
            "settings (not tuned for it), evaluates above ours on 3 of 3 seeds. Each seed's evaluation is the mean of 2 "
            "episodes: its standard error, ours' and the peer's, is 0.050 to 0.250.") in intro
    # the flags tried up to those of seeds 1-3 (`--gamma 0`) count; `--ent-coef 0.01`, tried after them, is named apart
    # the flags were tried on the first row's seed, 11; the chosen flags ran on 12 too
    assert "tried on tuning seeds 11 (the first table, its first 2 rows: at 200k steps the best mean evaluation came with "\
           "`--gamma 0`, the best mean training return with `none`; the chosen flags on seeds 12 as well, run later "\
           "beside the flags tried after)" in intro  # fmt: skip
    assert ("is 0.050 to 0.250. Tried after that on the tuning seeds (the next rows of the first "
            "table): `--ent-coef 0.01`. The peer itself, its defaults but `gamma=0`, on tuning seeds 11, 13 (its row in "
            "the first table): evaluation 0.500, last-20 training return 0.300; ours with the flags of seeds 1-3 there (the "
            "seeds both ran: 11): evaluation -0.500, last-20 training return -0.550, its evaluation above the peer's on 0 of "
            "1 seeds. The tuning runs, then the contenders on seeds 1-3:") in intro
    # later flags on seeds 1-3, seed 2 written first: over how many episodes, and on how many seeds above the peer's
    # evaluation there (-0.379 on seed 1, -0.378 on seed 2; ours' -0.399 and -0.398, below seed 2's -0.39)
    n128 = [{"contender": "ppo_lstm", "seed": seed, "eval_mean_return": value, "eval_episodes": 100}
            for seed, value in ((2, -0.39), (1, -0.31))]  # fmt: skip
    with open(tmp_path / "popgym_autoencode_200k_n128.json", "w") as f:
        json.dump({"command": "N128", "flags": f"{recipe} --num-steps 128", "runs": n128}, f)
    assert ("0 of 1 seeds. With `--num-steps 128` ours evaluates at -0.350 on seeds 1-3 over 100 episodes each (-0.310 / "
            "-0.390; above the peer's on 1 of 2 seeds; `N128`, results/popgym_autoencode_200k_n128.json).") in (
        report.autoencode_200k_section()[0])
    with open(tmp_path / "popgym_autoencode_200k_lr.json", "w") as f:  # another such file: each said, in name order
        json.dump({"command": "LR", "flags": f"{recipe} --no-anneal-lr", "runs": [
            {"contender": "ppo_lstm", "seed": 1, "eval_mean_return": -0.32}]}, f)  # fmt: skip
    assert ("0 of 1 seeds. With `--no-anneal-lr` ours evaluates at -0.320 on seeds 1-3 over 10 episodes each (-0.320; "
            "above the peer's on 1 of 1 seeds; `LR`, results/popgym_autoencode_200k_lr.json). With `--num-steps 128`") in (
        report.autoencode_200k_section()[0])
    assert "-0.320 on seeds 1-3 over 10 episodes each (-0.320; `LR`" in report.autoencode_later_text([])  # no peer rows
    lines = table().splitlines()
    assert lines[4:9] == ["| 200,000 | none | 11 | -0.500, -0.500 | -0.500 | -0.500 |",
                          "| 200,000 | `--gamma 0` | 11, 12 | -0.500, -0.550 / -0.300, -0.600 | -0.400 | -0.575 |",
                          "| 200,000 | `--ent-coef 0.01` | 11 | -0.450, -0.450 | -0.450 | -0.450 |",
                          "| 50,000 | `--ent-coef 0.1` | 11 | 0.900, 0.900 | 0.900 | 0.900 |",
                          "| 200,000 | sb3-contrib, its defaults but `gamma=0` | 11, 13 | 0.500, 0.400 / 0.500, 0.200 | "
                          "0.500 | 0.300 |"]  # fmt: skip
    assert "the MLP with `--gamma 0`, sb3-contrib with `gamma=0`." in table() and "What ours remembers" not in table()
    # autoencode_recall.py's file: seed 2 listed first; seed 1's first return that of its row's evaluation, seed 2's not
    shares = {1: [1.0, 0.8, 0.6, 0.4, 0.3, 0.3, 0.3, 0.3] + [0.2] * 44, 2: [0.9, 0.6, 0.4, 0.2] + [0.5] * 4 + [0.3] * 44}
    runs = [{"seed": seed, "episodes": 7, "returns": [0.0 if seed == 1 else 0.1, -0.5], "right_by_step": shares[seed]}
            for seed in (2, 1)]  # fmt: skip
    with open(tmp_path / "autoencode_recall.json", "w") as f:
        json.dump({"command": "RECALL", "machine": machine, "runs": runs}, f)
    intro, table = report.autoencode_200k_section()
    assert table().endswith(
        "What ours remembers (`RECALL`, the checkpoints of seeds 1, 2 trained again with the flags above and "
        "`--save-model`; 7 evaluation episodes each, the first of them those of the table's evaluation, the same returns "
        "on 1 of 2 seeds): the share of episodes in which it names the right card, as a mean over the seeds, is 0.95 at "
        "the first step of the play phase (the last card shown, which needs no memory), 0.70 at the second (the card "
        "shown two steps before), 0.50 at the third and 0.30 at the fourth, and 0.25 from the ninth on, where a guess is "
        "right one time in four. Its mean return over those episodes: -0.250 / -0.200 (seeds 1, 2).")


def test_higher_lower_ceiling_plays_the_memoryless_optimum_and_card_counting_beats_it():
    """benchmark/higher_lower_ceiling.py, in popgym's own HigherLowerEasy: the memoryless guess comes out at the 336/676
    worked out in its docstring (within 4 standard errors over 2,000 episodes), and counting the cards seen beats it."""
    result = higher_lower_ceiling.main(higher_lower_ceiling.Args(episodes=2000, out=""))
    memoryless, counting = result["memoryless"], result["counting"]
    assert result["memoryless_expected"] == pytest.approx(0.4970414)
    assert abs(memoryless["mean"] - 336 / 676) < 4 * memoryless["stderr"] and memoryless["stderr"] < 0.003
    assert counting["mean"] - memoryless["mean"] > 0.02


def test_higher_lower_section_checks_the_runs_against_the_table_and_sets_them_beside_the_memoryless_best(
    tmp_path, monkeypatch
):
    """report.higher_lower_section: how many runs trained as the table's (their last-20 training mean and first 10
    evaluation returns), each contender's mean over its seeds with the standard error of that mean over the episodes,
    the seeds ours is above each rival on, and who is beyond the memoryless best by more than twice that error."""
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    machine = {"cpu": "CPU", "cores": 2, "torch": "t", "python": "p"}
    env_id = "popgym:popgym-HigherLowerEasy-v0"
    # 20 evaluation returns a seed, its mean plus and minus the contender's spread in turn
    spread = {"ppo_lstm": 0.1, "mlp": 0.2}
    means = {("ppo_lstm", 1): 0.6, ("ppo_lstm", 2): 0.5, ("ppo_lstm", 3): 0.55, ("mlp", 1): 0.5, ("mlp", 2): 0.52,
             ("mlp", 3): 0.45}  # fmt: skip
    runs = [{"contender": c, "env_id": env_id, "seed": seed, "eval_episodes": 20, "train_last20": 0.4 + seed / 100,
             "eval_returns": [m + spread[c] * (-1) ** i for i in range(20)], "eval_mean_return": m}
            for (c, seed), m in means.items()]  # fmt: skip
    before = [{**row, "eval_returns": row["eval_returns"][:10], "eval_episodes": 10} for row in runs]
    before[0] = {**before[0], "train_last20": 0.0}  # one run trained otherwise
    for name, rows in (("popgym_higherlower_100ep.json", runs), ("popgym_r64.json", before)):
        with open(tmp_path / name, "w") as f:
            json.dump({"command": f"CMD {name}", "machine": machine, "steps": 1, "flags": "", "runs": rows}, f)
    assert report.higher_lower_section() == ("", str)  # without the ceiling's file, nothing
    with open(tmp_path / "higher_lower_ceiling.json", "w") as f:
        json.dump({"command": "CEIL", "episodes": 1000, "memoryless_expected": 0.5, "memoryless": {"mean": 0.49},
                   "counting": {"mean": 0.53}}, f)  # fmt: skip
    intro, table = report.higher_lower_section()
    # a seed's variance over its 20 returns: spread^2 * 20 / 19; the mean's error: sqrt(3 * that / 20) / 3
    ours_error, mlp_error = ((3 * s**2 / 19) ** 0.5 / 3 for s in (0.1, 0.2))
    assert "5 of 6 runs trained as in the table above" in intro and "over 20 episodes instead of 10 (`CMD popgym_h" in intro
    assert "expects 0.500 (336/676; played in popgym's env, 0.490 over 1,000 episodes), and perfect card counting 0.530" in (
        intro
    )
    assert "memory is worth 0.030 at most" in intro
    assert f"ours 0.550 +- {ours_error:.3f}, the MLP 0.490 +- {mlp_error:.3f}; ours above the MLP on 2 of 3 seeds." in intro
    assert "Beyond the best memoryless play by more than twice the standard error: ours:" in intro  # 0.05 > 2 * 0.013
    assert "| HigherLowerEasy | 0.55 +- 0.04 / 0.42 (3) | 0.49 +- 0.03 / 0.42 (3) | - | - |" in table()
    # a longer budget, ours (0.1 below the memoryless best) and the MLP (0.1 above it, as evaluated), the peer not run
    # there: its seconds come from its runs above
    peer = {**runs[0], "contender": "sb3-contrib", "seconds": 7}
    for name, rows in (("popgym_higherlower_100ep.json", runs + [peer]), ("popgym_r64.json", before + [peer])):
        with open(tmp_path / name, "w") as f:
            json.dump({"command": "CMD", "machine": machine, "steps": 1, "flags": "", "runs": rows}, f)
    longer = [{**row, "eval_mean_return": 0.6, "train_last20": 0.3 + row["seed"] / 100} for row in runs]
    longer = [{**row, "eval_mean_return": 0.4, "train_last20": 0.45} if row["contender"] == "ppo_lstm" else row
              for row in longer]  # fmt: skip
    with open(tmp_path / "popgym_higherlower_200k.json", "w") as f:
        json.dump({"command": "LONG", "machine": machine, "steps": 200_000, "flags": "", "runs": longer}, f)
    assert ("At 200,000 steps, on the same seeds and CPU model (`LONG`; the peer did not run at this budget, its runs above "
            f"having taken 7 to 7 seconds each), over the seeds: ours 0.400 +- {ours_error:.3f}, the MLP 0.600 +- "
            f"{mlp_error:.3f}; ours above the MLP on 0 of 3 seeds; beyond the best memoryless play by more than twice the "
            "standard error: the MLP. The last 20 training episodes (the policy as sampled), over the seeds: ours 0.450, the "
            "MLP 0.320:") in report.higher_lower_section()[1]()


def test_autoencode_recall_replays_the_runs_own_evaluation_and_counts_each_play_step():
    """autoencode_recall.recall: its first episodes are the evaluation of the run that wrote the checkpoint, return for
    return, and its share of right cards per play step adds up to each episode's return (+1/52 right, -1/52 wrong)."""
    import autoencode_recall

    summary = run_script("ppo_lstm", env_id=autoencode_recall.ENV_ID, save_model=True, eval_episodes=3, seed=5)
    result = autoencode_recall.recall(os.path.join(run_dirs()[-1], "ppo_lstm.pt"), episodes=4)
    assert result["returns"][:3] == summary["eval_returns"] and result["seed"] == 5 and len(result["returns"]) == 4
    right = result["right_by_step"]
    assert len(right) == 52 and all(share in (0, 0.25, 0.5, 0.75, 1) for share in right)
    assert statistics.mean(result["returns"]) == pytest.approx((2 * sum(right) - 52) / 52)


def test_random_actions_play_whole_episodes_of_an_env_seeded_as_the_evaluations(monkeypatch):
    """run_random: every action drawn from the action space (seeded by the run's seed), the env reset with seed + 100,000
    once, the mean over whole episodes, whatever ends them."""
    import popgym_suite

    class Guess(gym.Env):  # reward 1 when the action equals a number drawn at reset; ends after 3 steps, or on a 2
        observation_space, action_space = gym.spaces.Discrete(1), gym.spaces.Discrete(4)

        def reset(self, seed=None, options=None):
            super().reset(seed=seed)
            self.target, self.t = int(self.np_random.integers(4)), 0
            resets.append(seed)
            return 0, {}

        def step(self, action):
            self.t += 1
            steps.append((self.target, int(action)))
            return 0, float(action == self.target), bool(action == 2), self.t == 3, {}

    gym.register("Guess-v0", entry_point=Guess, disable_env_checker=True)
    resets, steps = [], []
    measured = popgym_suite.run_random("Guess-v0", 7, episodes=50)
    assert resets == [100_007] + [None] * 49 and len(measured["eval_returns"]) == 50
    assert measured["eval_mean_return"] == sum(t == a for t, a in steps) / 50 == sum(measured["eval_returns"]) / 50
    actions = [a for _, a in steps]
    assert set(actions) == {0, 1, 2, 3} and measured["train_last20"] is None
    episodes, length = 0, 0  # each episode ends at its first 2 or after 3 steps: the actions split into 50 of them
    for action in actions:
        length += 1
        if action == 2 or length == 3:
            episodes, length = episodes + 1, 0
    assert episodes == 50 and length == 0
    rng = gym.spaces.Discrete(4)
    rng.seed(7)
    assert actions == [int(rng.sample()) for _ in actions]
    resets.clear(), steps.clear()
    assert popgym_suite.run_random("Guess-v0", 7, episodes=50)["eval_returns"] == measured["eval_returns"]


def test_the_prev_action_suite_takes_every_popgym_easy_env_that_needs_the_previous_action():
    """benchmark/popgym_prev_action.py wraps exactly the Easy envs whose class says `obs_requires_prev_action`, and the
    suite `popgym-prev-action` runs each of them under its wrapped id."""
    import inspect

    import popgym.envs
    import popgym_prev_action
    import popgym_suite

    needing = {name for name, cls in inspect.getmembers(popgym.envs, inspect.isclass)
               if name.endswith("Easy") and cls.obs_requires_prev_action}  # fmt: skip
    assert needing == set(popgym_prev_action.NAMES) == set(popgym_suite.PREV_ACTION_EASY) and len(needing) == 4
    assert needing < {name.replace("Cartpole", "CartPole") for name in popgym_suite.POPGYM_EASY}
    for env_id in popgym_suite.SUITES["popgym-prev-action"]:
        assert isinstance(gym.make(env_id).unwrapped, getattr(popgym.envs, env_id.split("-")[1]))


def test_prev_action_ids_are_registered_once_under_both_module_names():
    """The suite imports popgym_prev_action from benchmark/, and each run's `benchmark.popgym_prev_action:...` id
    imports it again under its package name: the second import registers nothing, so gymnasium warns of no id
    overridden, and the ids still make the wrapped env."""
    code = (
        "import sys, warnings; sys.path.insert(0, 'benchmark'); warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    import popgym_prev_action, gymnasium as gym\n"
        "    env = gym.make('benchmark.popgym_prev_action:popgym-MineSweeperEasy-PrevAction-v0')\n"
        "print(type(env.unwrapped).__name__, sum('Overriding' in str(w.message) for w in caught))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["MineSweeperEasy", "0"]


def test_prev_action_envs_observe_the_action_just_taken_and_play_as_popgyms_own():
    """Through the wrapper and ppo_lstm.py's flattening, MineSweeperEasy's observation is the one-hot of the mine count
    and the one-hots of the tile just clicked ((0, 0), the null action, at a reset); rewards, terminations and counts
    are those of popgym's own env stepped with the same seed and clicks."""
    import popgym_prev_action  # noqa: F401  (registers the ids)

    ppo_lstm = load("ppo_lstm")
    wrapped = ppo_lstm.FlatObservation(gym.make("popgym-MineSweeperEasy-PrevAction-v0"))
    plain = gym.make("popgym:popgym-MineSweeperEasy-v0")
    assert wrapped.observation_space.shape == (3 + 4 + 4,)
    obs, _ = wrapped.reset(seed=5)
    count, _ = plain.reset(seed=5)
    np.testing.assert_array_equal(obs, np.eye(3)[count].tolist() + [1, 0, 0, 0] + [1, 0, 0, 0])
    clicks = [(2, 3), (2, 3), (0, 1), (3, 0), (1, 1), (1, 2), (3, 3), (0, 2)]
    for click in clicks:
        obs, reward, terminated, truncated, _ = wrapped.step(np.array(click))
        count, plain_reward, plain_terminated, plain_truncated, _ = plain.step(np.array(click))
        assert (reward, terminated, truncated) == (plain_reward, plain_terminated, plain_truncated)
        np.testing.assert_array_equal(obs[:3], np.eye(3)[count])
        np.testing.assert_array_equal(obs[3:], np.concatenate([np.eye(4)[click[0]], np.eye(4)[click[1]]]))
        if terminated or truncated:
            break
    assert reward != 0.0


def test_popgym_suite_resumes_skips_the_mlp_on_continuous_actions_and_keeps_rows_written_beside_it(tmp_path, monkeypatch):
    """Each (contender, env, seed) runs once: rows already in the results file are not run again, the MLP is left out
    where actions are continuous (it runs on MultiDiscrete ones), and rows that another invocation (another contender)
    wrote meanwhile survive."""
    import popgym_suite

    class MultiDiscreteActions(gym.Env):
        observation_space = gym.spaces.Discrete(3)
        action_space = gym.spaces.MultiDiscrete([2, 2])

    gym.register("MultiDiscreteActions-v0", entry_point=MultiDiscreteActions)

    monkeypatch.setattr(popgym_suite, "HERE", str(tmp_path))
    os.makedirs(tmp_path / "results")
    ran, passed = [], {}

    def fake(contender):
        def measure(*argv):
            ran.append((contender, *argv[:2]))
            passed[contender] = argv[3:]  # the flags, or the peer's settings
            if contender == "sb3-contrib":  # meanwhile another invocation adds its row
                with open(popgym_suite.out_path("popgym")) as f:
                    result = json.load(f)
                result["runs"].append({"contender": "other", "env_id": "CartPole-v1", "seed": 9, "eval_mean_return": 0})
                with open(popgym_suite.out_path("popgym"), "w") as f:
                    json.dump(result, f)
            return {"eval_mean_return": 0.5, "eval_returns": [0.5], "train_last20": 0.5, "steps": 100, "seconds": 1.0}

        return measure

    monkeypatch.setattr(popgym_suite, "run_ours", lambda script, *a: fake(script)(*a))
    monkeypatch.setattr(popgym_suite, "run_peer", fake("sb3-contrib"))
    monkeypatch.setattr(popgym_suite, "run_random", fake("random"))
    envs = ["CartPole-v1", "Pendulum-v1", "MultiDiscreteActions-v0"]
    args = popgym_suite.Args(envs=envs, seeds=[1], steps=100, contenders=["ppo_lstm", "mlp"])
    popgym_suite.main(args)
    assert ran == [("ppo_lstm.py", "CartPole-v1", 1), ("ppo_mlp_cartpole.py", "CartPole-v1", 1),
                   ("ppo_lstm_continuous.py", "Pendulum-v1", 1), ("ppo_lstm.py", "MultiDiscreteActions-v0", 1),
                   ("ppo_mlp_cartpole.py", "MultiDiscreteActions-v0", 1)]  # fmt: skip
    ran.clear()
    popgym_suite.main(popgym_suite.Args(envs=envs, seeds=[1], steps=100))
    assert ran == [(contender, env, 1) for env in envs for contender in ("sb3-contrib", "random")]
    with open(popgym_suite.out_path("popgym")) as f:
        rows = {(r["contender"], r["env_id"]) for r in json.load(f)["runs"]}
    assert ("other", "CartPole-v1") in rows and len(rows) == 12
    ran.clear()  # new flags for ppo_lstm.py: its discrete-action rows run again, with the flags they ran with recorded
    popgym_suite.main(popgym_suite.Args(envs=envs, seeds=[1], steps=100, flags="--rnn-hidden-size 8"))
    assert ran == [("ppo_lstm.py", "CartPole-v1", 1), ("ppo_lstm.py", "MultiDiscreteActions-v0", 1)]
    with open(popgym_suite.out_path("popgym")) as f:
        flags = {(r["contender"], r["env_id"]): r.get("flags") for r in json.load(f)["runs"]}
    assert flags[("ppo_lstm", "CartPole-v1")] == "--rnn-hidden-size 8" and flags[("ppo_lstm", "Pendulum-v1")] == ""
    assert flags[("mlp", "CartPole-v1")] == "" and len(flags) == 12
    ran.clear()  # flags for the MLP and settings for the peer: their rows run again, given them, and record them
    popgym_suite.main(popgym_suite.Args(envs=envs, seeds=[1], steps=100, flags="--rnn-hidden-size 8",
                                        mlp_flags="--gamma 0", peer_settings="gamma=0"))  # fmt: skip
    assert ran == [("ppo_mlp_cartpole.py", "CartPole-v1", 1), ("sb3-contrib", "CartPole-v1", 1),
                   ("sb3-contrib", "Pendulum-v1", 1), ("ppo_mlp_cartpole.py", "MultiDiscreteActions-v0", 1),
                   ("sb3-contrib", "MultiDiscreteActions-v0", 1)]  # fmt: skip
    assert passed["ppo_mlp_cartpole.py"] == ("--gamma 0", 10) and passed["sb3-contrib"] == ("gamma=0", 10)
    with open(popgym_suite.out_path("popgym")) as f:
        result = json.load(f)
    flags = {(r["contender"], r["env_id"]): r.get("flags") for r in result["runs"]}
    assert flags[("mlp", "CartPole-v1")] == "--gamma 0" and flags[("sb3-contrib", "Pendulum-v1")] == "gamma=0"
    assert flags[("random", "Pendulum-v1")] == "" and result["peer"] == "sb3-contrib RecurrentPPO, its defaults but gamma=0"
    episodes = {(r["contender"], r["env_id"]): r["eval_episodes"] for r in result["runs"] if r["contender"] != "other"}
    assert episodes[("mlp", "CartPole-v1")] == 10 and episodes[("random", "Pendulum-v1")] == 100
    # rows written before they recorded their evaluation episodes had 10 (random actions 100): not run again
    for row in result["runs"]:
        row.pop("eval_episodes", None)
    with open(popgym_suite.out_path("popgym"), "w") as f:
        json.dump(result, f)
    ran.clear()
    again = dict(envs=envs, seeds=[1], steps=100, flags="--rnn-hidden-size 8", mlp_flags="--gamma 0", peer_settings="gamma=0")
    popgym_suite.main(popgym_suite.Args(**again))
    assert ran == []
    # more evaluation episodes: every trained contender's rows run again, given them; random actions' rows stay
    popgym_suite.main(popgym_suite.Args(**again, eval_episodes=30))
    assert ran == [("ppo_lstm.py", "CartPole-v1", 1), ("ppo_mlp_cartpole.py", "CartPole-v1", 1),
                   ("sb3-contrib", "CartPole-v1", 1), ("ppo_lstm_continuous.py", "Pendulum-v1", 1),
                   ("sb3-contrib", "Pendulum-v1", 1),
                   ("ppo_lstm.py", "MultiDiscreteActions-v0", 1), ("ppo_mlp_cartpole.py", "MultiDiscreteActions-v0", 1),
                   ("sb3-contrib", "MultiDiscreteActions-v0", 1)]  # fmt: skip
    assert passed["ppo_lstm.py"][-1] == passed["sb3-contrib"][-1] == passed["ppo_mlp_cartpole.py"][-1] == 30
    with open(popgym_suite.out_path("popgym")) as f:
        episodes = {(r["contender"], r["env_id"]): r.get("eval_episodes") for r in json.load(f)["runs"]}
    assert episodes[("sb3-contrib", "Pendulum-v1")] == episodes[("ppo_lstm", "CartPole-v1")] == 30
    # a row of ours that ran under another default of its script (its recorded settings differ), or that did not record
    # its settings, runs again; the rest stay, and each row of ours records the settings it ran with
    with open(popgym_suite.out_path("popgym")) as f:
        result = json.load(f)
    for row in result["runs"]:
        if (row["contender"], row["env_id"]) == ("ppo_lstm", "Pendulum-v1"):
            row["settings"]["norm_obs_until"] = 1.0
        elif (row["contender"], row["env_id"]) == ("mlp", "CartPole-v1"):
            del row["settings"]
    with open(popgym_suite.out_path("popgym"), "w") as f:
        json.dump(result, f)
    ran.clear()
    popgym_suite.main(popgym_suite.Args(**again, eval_episodes=30))
    assert ran == [("ppo_mlp_cartpole.py", "CartPole-v1", 1), ("ppo_lstm_continuous.py", "Pendulum-v1", 1)]
    with open(popgym_suite.out_path("popgym")) as f:
        settings = {(r["contender"], r["env_id"]): r.get("settings") for r in json.load(f)["runs"]}
    assert settings[("ppo_lstm", "Pendulum-v1")]["norm_obs_until"] == load("ppo_lstm_continuous").Args().norm_obs_until
    assert settings[("ppo_lstm", "CartPole-v1")]["rnn_hidden_size"] == 8 and settings[("mlp", "CartPole-v1")]["gamma"] == 0
    assert settings[("ppo_lstm", "CartPole-v1")]["eval_episodes"] == 30 and settings[("sb3-contrib", "Pendulum-v1")] is None
    ran.clear()  # another budget: every row runs again, the peer's and random actions' too (they record no settings)
    popgym_suite.main(popgym_suite.Args(**{**again, "steps": 200}, eval_episodes=30))
    assert len(ran) == len(set(ran)) == 11  # 3 envs x 4 contenders, the MLP not on Pendulum's continuous actions
    assert {contender for contender, _, _ in ran} == {"ppo_lstm.py", "ppo_lstm_continuous.py", "ppo_mlp_cartpole.py",
                                                      "sb3-contrib", "random"}  # fmt: skip
    with open(popgym_suite.out_path("popgym")) as f:
        assert json.load(f)["steps"] == 200


def test_popgym_suite_and_peer_reach_record_a_command_a_shell_runs_as_it_ran(tmp_path, monkeypatch):
    """The results file's command, split as a shell splits it, gives back the arguments: flags with spaces in them
    stay one argument."""
    import peer_reach
    import popgym_suite

    monkeypatch.setattr(popgym_suite, "HERE", str(tmp_path))
    os.makedirs(tmp_path / "results")
    argv = ["--envs", "CartPole-v1", "--flags=--rnn-hidden-size 8 --gamma 0", "--peer-settings", "gamma=0 n_steps=16"]
    monkeypatch.setattr(sys, "argv", ["popgym_suite.py", *argv])
    popgym_suite.write(popgym_suite.Args(envs=["CartPole-v1"]), {})
    with open(popgym_suite.out_path("popgym")) as f:
        command = json.load(f)["command"]
    assert shlex.split(command) == ["python", "benchmark/popgym_suite.py", *argv]
    monkeypatch.setattr(peer_reach, "out_path", lambda args: str(tmp_path / "peer_reach.json"))
    argv = ["--tag", "x", "--ours-flags=--num-minibatches 2 --update-epochs 15", "--seeds", "1", "2"]
    monkeypatch.setattr(sys, "argv", ["peer_reach.py", *argv])
    peer_reach.write([], peer_reach.Args())
    with open(tmp_path / "peer_reach.json") as f:
        assert shlex.split(json.load(f)["command"]) == ["python", "benchmark/peer_reach.py", *argv]


def test_popgym_suite_gives_the_peer_its_settings_and_each_trained_run_its_evaluation_episodes():
    """--peer-settings reach RecurrentPPO: 16 steps per env instead of its default 128, so a run of 100 steps stops
    after one rollout of 8 x 16; --eval-episodes reach the peer's evaluation and ours."""
    import popgym_suite

    peer = popgym_suite.run_peer("CartPole-v1", 1, 100, "n_steps=16 gamma=0", eval_episodes=3)
    assert peer["steps"] == 128 and len(peer["eval_returns"]) == 3
    ours = popgym_suite.run_ours("ppo_lstm.py", "CartPole-v1", 1, 128, "--num-steps 16", eval_episodes=3)
    assert ours["steps"] == 128 and len(ours["eval_returns"]) == 3


def test_peer_plot_draws_the_seeds_with_curves_of_both_scripts(tmp_path, monkeypatch):
    import peer_reach

    drawn = {}
    monkeypatch.setattr(peer_reach.plot, "plot_curves", lambda runs, curves, path: drawn.update(runs=runs, curves=curves))
    rows = [{"script": "sb3-contrib", "seed": 1, "curve": [(200, -900.0), (400, -300.0)]},
            {"script": "ppo_lstm_continuous.py", "seed": 1, "curve": [(200, -1000.0), (600, -250.0)]},
            {"script": "sb3-contrib", "seed": 2}]  # measured before curves were kept  # fmt: skip
    peer_reach.plot_rows(rows, "PendulumNoVel-v1", str(tmp_path / "x.png"))
    assert [(r["variant"], r["global_step"]) for r in drawn["runs"]] == [("sb3-contrib", 400), ("ppo_lstm_continuous.py", 600)]
    assert drawn["curves"]["ppo_lstm_continuous.py/1"] == rows[1]["curve"]
    monkeypatch.undo()
    peer_reach.plot_rows(rows, "PendulumNoVel-v1", str(tmp_path / "x.png"))
    assert os.path.getsize(tmp_path / "x.png") > 1000


def test_tuning_table_lists_each_flag_set_with_its_seeds_best_mean_first(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    machine = {"cpu": "CPU", "cores": 2, "torch": "2", "python": "3"}
    runs = [{"flags": f, "seed": s, "eval_mean_return": r} for f, s, r in
            [("", 11, -300.0), ("", 12, -500.0), ("--noise-corr 0.5", 12, -250.0), ("--noise-corr 0.5", 11, -350.0)]]
    with open(tmp_path / "tuning_pendulum.json", "w") as f:
        json.dump({"command": "python x.py", "machine": machine, "note": "tuning seeds", "runs": runs}, f)
    table = report.tuning_table().splitlines()
    assert table[4:] == ["| `--noise-corr 0.5` | 11-12 | -350 / -250 | -300.0 |",
                         "| defaults | 11-12 | -300 / -500 | -400.0 |"]
    # with every run's steps to the threshold recorded, their median (a seed that never reached it counts as last)
    for row, steps in zip(runs, [30_000, None, 10_000, 50_000], strict=True):
        row["steps_to_475"] = steps
    with open(tmp_path / "tuning_pendulum.json", "w") as f:
        json.dump({"command": "python x.py", "machine": machine, "note": "tuning seeds", "runs": runs}, f)
    table = report.tuning_table().splitlines()
    assert table[2].endswith("| mean | median steps to a last-20 mean of 475 |")
    assert table[4:] == ["| `--noise-corr 0.5` | 11-12 | -350 / -250 | -300.0 | 30,000 (2/2 reached) |",
                         "| defaults | 11-12 | -300 / -500 | -400.0 | not reached (1/2 reached) |"]
    # seeds with a gap are listed one by one
    runs.append({"flags": "--x", "seed": 14, "eval_mean_return": -100.0, "steps_to_475": 1})
    runs.append({"flags": "--x", "seed": 11, "eval_mean_return": -100.0, "steps_to_475": 1})
    with open(tmp_path / "tuning_pendulum.json", "w") as f:
        json.dump({"command": "python x.py", "machine": machine, "note": "tuning seeds", "runs": runs}, f)
    assert report.tuning_table().splitlines()[4].startswith("| `--x` | 11, 14 | -100 / -100 | -100.0 |")
    # a file where some runs did not record them: no such column
    del runs[3]["steps_to_475"]
    with open(tmp_path / "tuning_pendulum.json", "w") as f:
        json.dump({"command": "python x.py", "machine": machine, "note": "tuning seeds", "runs": runs}, f)
    assert report.tuning_table().splitlines()[2] == "| flags | seeds | eval per seed | mean |"


def test_speed_table_shows_each_seeds_steps_per_second_beside_the_mean_and_ratio(tmp_path, monkeypatch):
    machine = {"cpu": "AMD EPYC", "cores": 2, "torch": "2.13.0+cpu", "python": "3.11.7", "threads": 1}
    runs = [{"contender": name, "seed": seed, "steps": 2048, "sps": sps}
            for seed, pair in ((1, (500.0, 2100.4)), (2, (700.0, 2300.6)))
            for name, sps in zip(("sb3-contrib RecurrentPPO", "ppo_lstm.py"), pair, strict=True)]  # fmt: skip
    speed = {"machine": machine, "command": "python benchmark/speed.py --seeds 1 2", "runs": runs,
             "sps_mean": {"sb3-contrib RecurrentPPO": 600.0, "ppo_lstm.py": 2200.5},
             "ratio_vs_sb3": {"sb3-contrib RecurrentPPO": 1.0, "ppo_lstm.py": 3.67}, "update_phase_ms": []}  # fmt: skip
    (tmp_path / "speed").mkdir()
    (tmp_path / "speed" / "speed.json").write_text(json.dumps(speed))
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    assert report.speed_tables().splitlines()[2:] == [
        "| contender | mean SPS | SPS per seed | ratio to sb3-contrib |", "|---|---|---|---|",
        "| sb3-contrib RecurrentPPO | 600 | 500 / 700 | 1.00x |", "| ppo_lstm.py | 2200 | 2100 / 2301 | 3.67x |"]  # fmt: skip


def test_seq_len_speed_text_sets_the_flag_beside_the_defaults_of_the_same_invocation(tmp_path, monkeypatch):
    """The README's sentence on shorter training sequences: ours with the flag beside ours on its defaults (never the
    other layout of its critic, --shared-lstm or --no-shared-lstm, never the peer), steps per second and ratio of the
    one speed.py invocation; none measured, it says so."""
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    assert report.seq_len_speed_text("speed_x.json") == "(not measured yet)"
    name = "ppo_lstm_continuous.py"
    (tmp_path / "speed").mkdir()
    for other in ("--shared-lstm", "--no-shared-lstm"):  # the critic's other layout, as speed.py names it either way
        sps = {name: 2016.4, "sb3-contrib RecurrentPPO": 300.0, f"{name} {other}": 2546.0, f"{name} --seq-len 32": 2174.2}
        ratio = {name: 6.55, "sb3-contrib RecurrentPPO": 1.0, f"{name} {other}": 8.28, f"{name} --seq-len 32": 7.07}
        (tmp_path / "speed" / "speed_x.json").write_text(json.dumps({"sps_mean": sps, "ratio_vs_sb3": ratio}))
        assert report.seq_len_speed_text("speed_x.json") == (
            "2,174 steps per second with `--seq-len 32` against 2,016 on its defaults, 7.07x the peer against 6.55x")


def test_the_update_phase_timing_runs_the_agent_of_now():
    """speed.py's timing of the update phase, which the other speed tests stub out, builds ppo_lstm.py's Agent on its
    defaults and feeds it what the training update does (the observation, then the previous action the critic reads):
    both paths run, a few steps each."""
    for fast in (True, False):
        assert speed.update_phase_ms(fast, num_steps=4, episode_length=2, repeats=1) > 0


def speed_run(tmp_path, monkeypatch, args: speed.Args) -> tuple[dict, list[str]]:
    """speed.main with each contender's measurement stubbed (100, 101, ... steps per second in order): the results
    file it writes and the code it ran for each contender, in order."""
    codes = {}
    monkeypatch.setattr(speed, "measure", lambda code, threads=1: codes.setdefault(code, 100.0 + len(codes)))
    monkeypatch.setattr(speed, "update_phase_ms", lambda *args: 1.0)
    monkeypatch.setattr(speed, "out_path", lambda args: str(tmp_path / "speed.json"))
    speed.main(args)
    return json.loads((tmp_path / "speed.json").read_text()), list(codes)


def test_speed_matches_the_peers_rollouts_to_our_defaults_and_runs_the_zoos_beside_them(tmp_path, monkeypatch):
    """The matched peer collects as many steps per env and update, in as many minibatches, as ppo_lstm.py's defaults
    (a default changed without speed.py would compare unlike settings); the zoo's own rollouts run in the same
    invocation."""
    result, codes = speed_run(tmp_path, monkeypatch, speed.Args(seeds=(1,)))
    assert [run["contender"] for run in result["runs"]] == ["sb3-contrib RecurrentPPO", "ppo_lstm.py",
                                                            "ppo_lstm.py --shared-lstm",
                                                            "sb3-contrib RecurrentPPO, the zoo's rollouts"]  # fmt: skip
    matched, _, _, zoo = codes
    ours = load("ppo_lstm").Args()
    batch = int(matched.split("batch_size=")[1].split(",")[0])
    assert f"n_steps={ours.num_steps}," in matched and "n_envs=8" in matched and ours.num_envs == 8
    assert ours.num_envs * ours.num_steps // batch == ours.num_minibatches
    assert "n_steps=32," in zoo and f"batch_size={batch}," in zoo and batch == 8 * 32  # the zoo's: one batch


@pytest.mark.parametrize("settings, flags, kwargs, peer_rollout", [
    (dict(minibatches=2), "--num-minibatches 2", ", num_minibatches=2", "batch_size=512, n_steps=128,"),
    (dict(num_steps=200), "--num-steps 200", ", num_steps=200", "batch_size=400, n_steps=200,"),
    (dict(minibatches=2, num_steps=200), "--num-minibatches 2 --num-steps 200", ", num_minibatches=2, num_steps=200",
     "batch_size=800, n_steps=200,"),
])  # fmt: skip
def test_speed_at_other_rollout_settings_gives_ours_the_flags_and_the_peer_the_same_rollout(
    tmp_path, monkeypatch, settings, flags, kwargs, peer_rollout
):
    """--minibatches N and --num-steps N: ours (and ours with the critic's other layout, its own LSTM, where the
    default is the actor's) runs with --num-minibatches N and --num-steps N, the matched peer with n_steps=N and a batch
    of the rollout split as ours, so that the comparison stays matched."""
    result, codes = speed_run(tmp_path, monkeypatch, speed.Args(task="pendulum", seeds=(1,), **settings))
    name = f"ppo_lstm_continuous.py {flags}"
    assert [run["contender"] for run in result["runs"]] == ["sb3-contrib RecurrentPPO", name, f"{name} --no-shared-lstm"]
    peer, ours, own = codes
    defaults = load("ppo_lstm_continuous").Args()
    assert (defaults.num_envs, defaults.num_steps, defaults.num_minibatches, defaults.shared_lstm) == (8, 128, 4, True)
    assert peer_rollout in peer and ("n_steps=128" in peer) == ("num_steps" not in settings)
    assert f"cuda=False{kwargs})" in ours and f"cuda=False{kwargs}, shared_lstm=False)" in own


def test_speed_at_a_sequence_length_runs_ours_with_the_flag_beside_ours_as_it_is(tmp_path, monkeypatch):
    """--seq-len N adds ours with N-step training sequences to the contenders, beside ours on its defaults; the peer,
    which has no such setting, keeps the batch matched to our defaults' rollout; with --minibatches, ours takes both."""
    result, codes = speed_run(tmp_path, monkeypatch, speed.Args(task="pendulum", seeds=(1,), seq_len=32))
    name = "ppo_lstm_continuous.py"
    assert [run["contender"] for run in result["runs"]] == [
        "sb3-contrib RecurrentPPO", name, f"{name} --no-shared-lstm", f"{name} --seq-len 32"]  # fmt: skip
    peer, ours, own, short = codes
    assert "batch_size=256, n_steps=128," in peer and "seq_len" not in peer
    assert "cuda=False)" in ours and "cuda=False, shared_lstm=False)" in own and "cuda=False, seq_len=32)" in short
    assert result["ratio_vs_sb3"][f"{name} --seq-len 32"] == round(103.0 / 100.0, 2)
    result, codes = speed_run(tmp_path, monkeypatch, speed.Args(task="pendulum", seeds=(1,), seq_len=16, minibatches=2))
    name = "ppo_lstm_continuous.py --num-minibatches 2"
    assert result["runs"][3]["contender"] == f"{name} --seq-len 16"
    assert "num_minibatches=2)" in codes[1] and "num_minibatches=2, seq_len=16)" in codes[3]


def test_peer_reach_workers_run_every_contender_and_seed_as_one_run_alone_would(tmp_path, monkeypatch):
    """--workers 2: each (contender, seed) runs once, in a process of its own, and gives the row that the same run
    gives in this process; the results file lists them seed by seed, the peer first."""
    import peer_reach

    monkeypatch.setattr(peer_reach, "out_path", lambda args: str(tmp_path / "peer_reach_mlp.json"))
    monkeypatch.setattr(peer_reach, "plot_rows", lambda *args: None)
    args = peer_reach.Args(task="mlp", seeds=[1, 2], stop_at=512, workers=2)
    peer_reach.main(args)
    runs = json.loads((tmp_path / "peer_reach_mlp.json").read_text())["runs"]
    assert [(row["script"], row["seed"]) for row in runs] == [
        ("sb3", 1), ("ppo_mlp_cartpole.py", 1), ("sb3", 2), ("ppo_mlp_cartpole.py", 2)]  # fmt: skip
    alone = [peer_reach.run_ours(1, "mlp", "", 512), peer_reach.run(2, 512, "zoo", "mlp")]
    for row, same in zip(runs[1:3], json.loads(json.dumps(alone)), strict=True):
        assert (row["curve"], row["steps_run"]) == (same["curve"], same["steps_run"])
    assert runs[0]["curve"] != runs[2]["curve"] and runs[1]["curve"] != runs[3]["curve"]  # each seed reached its run

    class NoRuns:  # run again with the file there, nothing is measured: every row is reused, ours included
        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def submit(self, *args):
            raise AssertionError("a row was measured again")

    monkeypatch.setattr(peer_reach, "ProcessPoolExecutor", NoRuns)
    peer_reach.main(args)
    assert json.loads((tmp_path / "peer_reach_mlp.json").read_text())["runs"] == runs


def test_peer_rows_from_another_cpu_are_not_reused():
    """A results file's rows are kept and only the missing seeds run when the settings and the CPU model match; rows
    measured on another CPU model (another trajectory per seed, another speed) are measured again."""
    import peer_reach
    from speed import machine

    args = peer_reach.Args(task="pendulum", tag="xeon")
    assert peer_reach.out_path(args).endswith("results/peer_reach_pendulum_xeon.json")
    task = peer_reach.TASKS["pendulum"]
    before = {"stop_at": 100_000, "vec_normalize": task["vec_normalize"], "ours_flags": "", "early_stop": False,
              "machine": machine()}  # fmt: skip
    assert peer_reach.reusable(before, args)
    assert not peer_reach.reusable({**before, "machine": {**machine(), "cpu": "Another CPU"}}, args)
    # the same name on another model (a cloud "AMD EPYC" of another generation, or the same model showing other vector
    # instructions, as family 25 model 17 has shown AVX2 alone and AVX-512 too), or a file that did not record it
    other = next(c for c in ["family 25 model 17 stepping 1, avx512", "family 25 model 17 stepping 1, avx2"]
                 if c != machine()["cpu_id"])  # fmt: skip
    assert not peer_reach.reusable({**before, "machine": {**machine(), "cpu_id": other}}, args)
    assert not peer_reach.reusable({**before, "machine": {k: v for k, v in machine().items() if k != "cpu_id"}}, args)
    assert not peer_reach.reusable({**before, "ours_flags": "--ent-coef 0"}, args)


def test_peer_reach_runs_our_rows_again_when_our_defaults_changed():
    """Our script's settings (its defaults of now, then --ours-flags) are recorded with the results; a row of ours
    measured under other settings, or in a file that did not record them, is run again, and the peer's rows are kept."""
    import peer_reach
    from speed import machine

    args = peer_reach.Args(task="pendulum")
    now = peer_reach.ours_settings(args)
    assert now["norm_obs_until"] == load("ppo_lstm_continuous").Args().norm_obs_until and now["total_timesteps"] == 100_000
    assert peer_reach.ours_settings(peer_reach.Args(task="pendulum", ours_flags="--norm-obs-until 0.7"))[
        "norm_obs_until"] == 0.7  # fmt: skip
    runs = [{"script": "sb3-contrib", "seed": 1}, {"script": "ppo_lstm_continuous.py", "seed": 1}]
    before = {"stop_at": 100_000, "vec_normalize": peer_reach.TASKS["pendulum"]["vec_normalize"], "ours_flags": "",
              "early_stop": False, "machine": machine(), "runs": runs}  # fmt: skip
    assert list(peer_reach.reused_rows({**before, "ours_settings": now}, args)) == [("sb3-contrib", 1),
                                                                                     ("ppo_lstm_continuous.py", 1)]
    for settings in [{**now, "norm_obs_until": 1.0}, None]:  # a default of before; a file without the record
        assert list(peer_reach.reused_rows({**before, "ours_settings": settings}, args)) == [("sb3-contrib", 1)]
    assert peer_reach.reused_rows({**before, "ours_settings": now, "stop_at": 50_000}, args) == {}


def test_pendulum_optimal_dynamics_are_pendulum_v1s():
    env = gym.make("Pendulum-v1")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(50):
        state = np.array([rng.uniform(-6, 6), rng.uniform(-8, 8)])
        torque = rng.uniform(-2, 2)
        env.unwrapped.state = state.copy()
        _, reward, _, _, _ = env.step(np.array([torque], dtype=np.float32))
        th, thdot, cost = pendulum_optimal.dynamics(state[0], state[1], np.float32(torque))
        np.testing.assert_allclose([th, thdot, -cost], [*env.unwrapped.state, reward], rtol=1e-6, atol=1e-6)


def test_pendulum_optimal_plays_the_start_states_of_the_scripts_evaluation(monkeypatch):
    from gymnasium.envs.classic_control.pendulum import PendulumEnv

    import ppo_lstm_continuous as script

    seen = []
    reset = PendulumEnv.reset

    def recording_reset(self, **kwargs):
        out = reset(self, **kwargs)
        seen.append(tuple(float(x) for x in self.state))
        return out

    monkeypatch.setattr(PendulumEnv, "reset", recording_reset)
    args = script.Args(seed=7, eval_episodes=3)
    envs = gym.vector.SyncVectorEnv([lambda: gym.make(args.env_id)])
    agent = script.Agent(envs, args)
    seen.clear()
    script.evaluate(agent, args, torch.device("cpu"), "run", script.RunningMeanStd((3,)))
    played = list(seen)
    assert len(played) == 3 and len(set(played)) == 3
    assert played == pendulum_optimal.start_states(7, 3)


def test_pendulum_optimal_best_policy_earns_what_its_values_promise_and_beats_a_short_discount():
    grid = pendulum_optimal.Grid(96, 65)
    torques, fine = np.linspace(-2, 2, 9), np.linspace(-2, 2, 81)
    best = pendulum_optimal.best_values(grid, torques)
    greedy = lambda step, th, thdot: grid(best[step + 1], th, thdot)
    for start in [(np.pi, 0.0), (2.5, 0.5), (-1.0, -1.0)]:
        promised = float(grid(best[0], np.array(start[0]), np.array(start[1])))
        assert pendulum_optimal.play(grid, greedy, start, fine) == pytest.approx(promised, rel=0.03)
    assert pendulum_optimal.play(grid, greedy, (0.0, 0.0), fine) == pytest.approx(0.0, abs=1e-9)  # upright at rest
    short = pendulum_optimal.discounted_values(grid, torques, 0.9)
    myopic = pendulum_optimal.play(grid, lambda step, th, thdot: 0.9 * grid(short, th, thdot), (np.pi, 0.0), fine)
    assert pendulum_optimal.play(grid, greedy, (np.pi, 0.0), fine) > myopic + 30  # -315 against -390 on this grid


def test_pendulum_optimal_blind_first_torque_is_the_best_on_average_over_the_start_velocities():
    grid = pendulum_optimal.Grid(16, 17)
    values = np.random.default_rng(0).normal(0, 50, grid.th.shape)  # a value function whose best torque moves about
    torques = np.linspace(-2, 2, 21)
    for th in [0.5, -2.2, 3.0]:
        averages = [statistics.mean(float(grid(values, *pendulum_optimal.dynamics(th, v, u)[:2]))
                                    - pendulum_optimal.dynamics(th, v, u)[2] for v in np.linspace(-1, 1, 9))
                    for u in torques]  # fmt: skip
        assert pendulum_optimal.blind_first_torque(grid, values, th, torques, 9) == torques[np.argmax(averages)]
        assert pendulum_optimal.blind_first_torque(grid, 0 * values, th, torques, 9) == 0.0  # nothing to gain: the cheapest
    # and the values are ones where seeing the velocity would change the best first torque (at 0.5, between the start
    # velocities -1 and 1), so that averaging over the velocities is what the comparison above checks
    best_with = [torques[np.argmax([float(grid(values, *pendulum_optimal.dynamics(0.5, v, u)[:2]))
                                    - pendulum_optimal.dynamics(0.5, v, u)[2] for u in torques])] for v in (-1.0, 1.0)]
    assert best_with[0] != best_with[1]


def test_pendulum_optimal_play_acts_the_first_torque_given_then_its_greedy_policy():
    grid = pendulum_optimal.Grid(8, 9)
    idle = lambda step, th, thdot: np.zeros_like(thdot)  # values all 0: the greedy torque is the cheapest, 0
    fine = np.linspace(-2, 2, 41)
    for first in [None, 2.0, -1.5]:
        env = gym.make("Pendulum-v1")
        env.reset()
        env.unwrapped.state = np.array([2.0, 0.3])
        expected = sum(float(env.step(np.array([first if step == 0 and first is not None else 0.0], np.float32))[1])
                       for step in range(pendulum_optimal.HORIZON))  # fmt: skip
        assert pendulum_optimal.play(grid, idle, (2.0, 0.3), fine, first) == pytest.approx(expected, abs=1e-9)

@pytest.mark.parametrize("sample", [False, True])
def test_pendulum_first_steps_records_the_evaluation_alone_with_the_torques_the_env_applied(sample, tmp_path, monkeypatch):
    """Its episodes are the evaluation's (their starts, and their returns rebuilt from the recorded steps), none of
    training's; sampled with a std of about 4.5, most torques would lie outside the bounds, and the evaluation clips them."""
    import pendulum_first_steps
    from gymnasium.envs.classic_control.pendulum import PendulumEnv

    monkeypatch.chdir(tmp_path)
    step, evaluate = PendulumEnv.step, pendulum_first_steps.script.evaluate
    args = pendulum_first_steps.script.Args(seed=3, total_timesteps=1024, eval_episodes=2, eval_sample=sample,
                                            init_logstd=1.5)  # fmt: skip
    summary, episodes = pendulum_first_steps.recorded_evaluation(args)
    assert [len(steps) for steps in episodes] == [200, 200]
    assert [steps[0][:2] for steps in episodes] == pendulum_optimal.start_states(3, 2)
    for steps, got in zip(episodes, summary["eval_returns"], strict=True):
        assert all(abs(u) <= 2 for _, _, u in steps)
        rebuilt = -sum(pendulum_optimal.dynamics(th, thdot, np.float32(u))[2] for th, thdot, u in steps)
        assert rebuilt == pytest.approx(got, rel=1e-5)
    if sample:
        assert sum(abs(u) == 2 for steps in episodes for _, _, u in steps) > 200
    assert PendulumEnv.step is step and pendulum_first_steps.script.evaluate is evaluate  # both put back


def test_pendulum_optimal_table_sets_our_first_ten_episodes_beside_the_optimum_per_seed(tmp_path, monkeypatch):
    (tmp_path / "optimal.json").write_text(json.dumps({
        "command": "c", "grid": {"angles": 4, "speeds": 3, "torques": 2, "greedy_torques": 11},
        "returns": {"best": {"1": [-100.0, -200.0], "2": [-250.0, -250.0]},
                    "gamma 0.9": {"1": [-300.0, -100.0], "2": [-201.0, -199.0]}},
    }))  # fmt: skip
    suite = tmp_path / "s"
    suite.mkdir()
    with open(suite / "runs.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["run", "variant", "env_id", "seed", "eval_returns"])
        writer.writerow(["a", "ours", "PendulumNoVel-v1", 1, json.dumps([-150.0] * 10 + [-900.0] * 20)])  # first 10 count
        writer.writerow(["b", "ours", "PendulumNoVel-v1", 2, json.dumps([-210.0] * 10)])
        writer.writerow(["c", "other", "PendulumNoVel-v1", 1, json.dumps([0.0] * 10)])  # another variant: left out
    (suite / "curves.csv").write_text("run,tag,step,value\n")
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))
    monkeypatch.setattr(report, "OURS_PENDULUM", {"ours": [(range(1, 3), "s", "ours")],
                                                  "other, seed 1": [(range(1, 2), "s", "other")]})  # fmt: skip
    lines = report.pendulum_optimal_table("optimal.json").splitlines()
    assert lines[2] == "| seed | best | gamma 0.9 | ours | other, seed 1 |"
    assert lines[4:7] == ["| 1 | -150.0 | -200.0 | -150.0 | 0.0 |", "| 2 | -250.0 | -200.0 | -210.0 | - |",
                          "| 1-10 | 1/2 at -200 or better, mean -200.0 | 2/2 at -200 or better, mean -200.0 | "
                          "1/2 at -200 or better, mean -180.0 | - |"]  # fmt: skip


def test_speed_results_file_is_named_by_task_and_machine_tag():
    assert speed.out_path(speed.Args()).endswith("results/speed/speed.json")
    assert speed.out_path(speed.Args(task="pendulum", tag="xeon")).endswith("results/speed/speed_pendulum_xeon.json")
    assert speed.out_path(speed.Args(tag="epyc_avx2")).endswith("results/speed/speed_epyc_avx2.json")


def test_cpu_identity_tells_apart_two_cpus_of_one_name():
    """A cloud machine may name its CPU only "AMD EPYC": the family, model, stepping and the widest vector
    instructions (which pick torch's kernels, so each seed's trajectory) tell two generations apart."""
    def cpuinfo(model: int, flags: str) -> str:
        core = f"processor\t: {{}}\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: {model}\n" \
               f"model name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu sse2 {flags} bmi2\n\n"
        return core.format(0) + core.format(1)

    assert speed.cpu_identity(cpuinfo(1, "avx avx2 fma")) == ("AMD EPYC", "family 25 model 1 stepping 1, avx2")
    assert speed.cpu_identity(cpuinfo(17, "avx avx2 avx512f avx512vl")) == (
        "AMD EPYC", "family 25 model 17 stepping 1, avx512")  # fmt: skip
    assert speed.cpu_identity("model name\t: Old CPU\nflags\t\t: fpu sse2\n") == (
        "Old CPU", "family ? model ? stepping ?, no avx")  # fmt: skip
    m = {"cpu": "AMD EPYC", "cores": 2, "torch": "2.13.0+cpu", "python": "3.11.7"}
    assert report.machine_line(m).startswith("Machine: AMD EPYC, 2 cores")  # a file that did not record it
    assert report.machine_line({**m, "cpu_id": "family 25 model 1 stepping 1, avx2"}).startswith(
        "Machine: AMD EPYC (family 25 model 1 stepping 1, avx2), 2 cores")  # fmt: skip


# an LSTM and a linear layer, forward and backward: the kernels of oneDNN, MKL and ATen that pick a trajectory
FINGERPRINT = """
import hashlib, torch
torch.set_num_threads(1)
torch.manual_seed(0)
lstm, linear = torch.nn.LSTM(8, 64), torch.nn.Linear(64, 3)
out = linear(lstm(torch.randn(32, 4, 8))[0])
out.square().mean().backward()
h = hashlib.sha1(out.detach().numpy().tobytes())
for p in [*lstm.parameters(), *linear.parameters()]:
    h.update(p.grad.numpy().tobytes())
print(h.hexdigest()[:16])
"""
# FINGERPRINT under each profile of benchmark/arithmetic.py, taken on the AMD EPYC of family 26 model 2, where each
# profile ran its CPU model's rows of benchmark/peer_reach.py again, every training episode and evaluation the same
FINGERPRINTS = {"epyc": "8f490ebf807a21f0", "xeon": "3d32f3be6a733bfe", "epyc-avx2": "6381278d41503b2f"}


@pytest.mark.parametrize("of", sorted(FINGERPRINTS))
def test_each_arithmetic_gives_the_bits_of_its_cpu_model(of):
    """Each profile computes as its CPU model does, and no two profiles alike (so each one changes something); on a
    CPU without what a profile needs it refuses in one line."""
    with open("/proc/cpuinfo") as f:
        flags = next(line for line in f if line.startswith("flags")).split()
    if arithmetic.PROFILES[of]["needs"] not in flags or shutil.which("cc") is None:
        with pytest.raises(SystemExit, match=f"--of {of} needs a C"):
            arithmetic.environment(of, {})
        return
    env = arithmetic.environment(of, dict(os.environ))
    assert env["BENCHMARK_ARITHMETIC"] == arithmetic.PROFILES[of]["cpu_id"]
    for other in arithmetic.PROFILES:  # a profile set over another (the suite run with one) leaves nothing of it
        if arithmetic.PROFILES[other]["needs"] in flags:
            assert arithmetic.environment(of, arithmetic.environment(other, dict(os.environ))) == env
    done = subprocess.run([sys.executable, "-c", FINGERPRINT], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == FINGERPRINTS[of]
    assert len(set(FINGERPRINTS.values())) == len(FINGERPRINTS) == len(arithmetic.PROFILES)


def test_a_run_with_another_arithmetic_records_it_and_its_rows_stand_apart(monkeypatch):
    """A results file written under benchmark/arithmetic.py names this CPU and the arithmetic it took, so its rows
    are neither reused beside the other machine's nor shown as that machine's."""
    monkeypatch.delenv("BENCHMARK_ARITHMETIC", raising=False)
    cpu, native = speed.this_cpu()
    monkeypatch.setenv("BENCHMARK_ARITHMETIC", arithmetic.PROFILES["xeon"]["cpu_id"])
    assert speed.this_cpu() == (cpu, native + "; with the arithmetic of family 6 model 207 stepping 2, avx512")
    assert speed.machine()["cpu_id"] == speed.this_cpu()[1]


def test_compare_finds_the_first_episode_where_two_runs_part():
    curve = [[8, 10.0], [20, 12.0], [31, 9.0]]
    run = {"script": "ppo_lstm.py", "seed": 1, "curve": curve, "steps_to_threshold": None, "eval_mean_return": 9.0}
    original = {"runs": [run, {**run, "seed": 2}, {**run, "seed": 3}, {**run, "script": "sb3-contrib"}]}
    again = {"runs": [run, {**run, "seed": 2, "curve": [*curve[:2], [31, 9.5]]}, {**run, "seed": 3,
                                                                                  "eval_mean_return": 9.5},
                      {**run, "seed": 4}]}  # fmt: skip
    rows = arithmetic.same_runs(original, again)
    assert [(r["seed"], r["same_episodes"], r["episodes"], r["identical"]) for r in rows] == [
        (1, 3, 3, True), (2, 2, 3, False), (3, 3, 3, False)]  # fmt: skip
    shorter = arithmetic.same_runs(original, {"runs": [{**run, "curve": curve[:2]}]})
    assert [(r["same_episodes"], r["episodes"], r["identical"]) for r in shorter] == [(2, 3, False)]
    # each evaluation episode's return, where both files kept them (the older files kept only their mean)
    kept = {"runs": [{**run, "eval_returns": [9.0, 9.0]}, {**run, "seed": 2, "eval_returns": [9.0, 9.0]}]}
    changed = {"runs": [run, {**run, "seed": 2, "eval_returns": [8.0, 10.0]}]}
    assert [r["identical"] for r in arithmetic.same_runs(kept, changed)] == [True, False]
    assert [r["identical"] for r in arithmetic.same_runs(original, kept)] == [True, True]


def test_atari_gpu_speed_takes_the_second_half_rate_from_cumulative_figures():
    """Both scripts print a cumulative steps-per-second figure per update; the rate over the second half of the updates
    comes from the times those figures imply (steps / figure), for our lines and for CleanRL's (1,024 steps each)."""
    ours = "update 1/4  global_step 1000  SPS 500  r\nupdate 2/4  global_step 2000  SPS 800  r\n" \
           "update 3/4  global_step 3000  SPS 1000  r\nupdate 4/4  global_step 4000  SPS 1000  return(last20) 1.0\n"
    assert atari_gpu_speed.rates(ours) == {"updates": 4, "global_step": 4000, "sps": 1000, "sps_second_half": 1333}
    cleanrl = "global_step=8, episodic_return=1.0\nSPS: 100\nSPS: 150\nSPS: 200\n"
    assert atari_gpu_speed.progress(cleanrl)[-1] == (3072, 3072 / 200)
    assert atari_gpu_speed.rates(cleanrl) == {"updates": 3, "global_step": 3072, "sps": 200, "sps_second_half": 600}
    assert atari_gpu_speed.rates("update 1/4  global_step 1000  SPS 500") == {"updates": 1}


def test_rows_run_again_are_checked_against_the_first_run(tmp_path, monkeypatch):
    """The POPGym text's count of a contender's rows that came out the same when run again: every evaluation return
    and the training mean must match, rows of other contenders do not count, and the envs are named."""
    monkeypatch.setattr(report, "RESULTS", str(tmp_path))

    def row(env, seed, returns, last20, contender="sb3-contrib"):
        return {"contender": contender, "env_id": f"popgym:popgym-{env}-v0", "seed": seed, "eval_returns": returns,
                "train_last20": last20}  # fmt: skip

    first = [row("A", 1, [0.5, 0.25], 0.1), row("A", 2, [0.5, 0.5], 0.2), row("B", 1, [1.0], 0.3)]
    again = [row("A", 1, [0.5, 0.25], 0.1), row("A", 2, [0.5, 0.5], 0.25), row("B", 1, [0.0], 0.3, "ppo_lstm")]
    for name, rows in (("first.json", first), ("again.json", again), ("more.json", [row("B", 1, [1.0, 0.0], 0.3)])):
        (tmp_path / name).write_text(json.dumps({"runs": rows}))
    assert report.rows_again("first.json", ["again.json"]) == (1, 2, ["A"])
    assert report.rows_again("first.json", ["again.json", "more.json"]) == (1, 3, ["A", "B"])
    assert report.rows_again("first.json", ["again.json"], "ppo_lstm") == (0, 1, ["B"])  # no such row in first.json


def test_the_readmes_results_are_what_report_writes_from_the_committed_results():
    """Every figure between the README's results markers comes from `python benchmark/report.py` over the committed
    results: a number edited by hand, a results file changed without the README written again, or a change to how
    report.py computes a figure fails here."""
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    assert readme.count(report.START) == readme.count(report.END) == 1
    written = readme.split(report.START)[1].split(report.END)[0]
    assert written == "\n" + report.results_block()
