"""Turn the collected results into the README's results section (between its results markers).

python benchmark/report.py            # rewrites the section in README.md from benchmark/results/
"""

import json
import os

import plot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "benchmark", "results")
START, END = "<!-- results:start -->", "<!-- results:end -->"


def suite_table(suite: str) -> str:
    runs, curves = plot.load(os.path.join(RESULTS, suite))
    return plot.markdown_table(runs, curves)


def speed_tables() -> str:
    with open(os.path.join(RESULTS, "speed", "speed.json")) as f:
        speed = json.load(f)
    m = speed["machine"]
    lines = [f"Machine: {m['cpu']}, {m['cores']} cores, torch {m['torch']}, Python {m['python']}, one torch thread per run. "
             f"Command: `{speed['command'].strip()}`.", "",
             "| contender | mean SPS | ratio to sb3-contrib |", "|---|---|---|"]  # fmt: skip
    for name, sps in speed["sps_mean"].items():
        lines.append(f"| {name} | {sps:.0f} | {speed['ratio_vs_sb3'][name]:.2f}x |")
    lines += ["", "| update phase, 8 envs x 128 steps | fast path | per-step path | speed-up |", "|---|---|---|---|"]
    for u in speed["update_phase_ms"]:
        lines.append(f"| mean episode length {u['mean_episode_length']} | {u['fast_ms']} ms | {u['per_step_ms']} ms | "
                     f"{u['speedup']:.1f}x |")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parts = []
    if os.path.exists(os.path.join(RESULTS, "novel_classic", "runs.csv")):
        parts += ["### Masked-velocity and memory tasks (`benchmark/novel_classic.sh`)", "", suite_table("novel_classic"), "",
                  "SPS here was measured with other runs sharing the machine; "
                  "the speed table is the controlled figure.", ""]  # fmt: skip
    for suite, script, title in [("continuous", "continuous.sh", "Continuous control, masked velocities"),
                                 ("atari", "atari.sh", "Atari")]:  # fmt: skip
        if os.path.exists(os.path.join(RESULTS, suite, "runs.csv")):
            parts += [f"### {title} (`benchmark/{script}`)", "", suite_table(suite), "",
                      f"![learning curves](benchmark/results/{suite}/curves.png)", ""]  # fmt: skip
    if os.path.exists(os.path.join(RESULTS, "speed", "speed.json")):
        parts += ["### Speed (`benchmark/speed.sh`)", "", speed_tables(), ""]
    readme_path = os.path.join(ROOT, "README.md")
    with open(readme_path) as f:
        readme = f.read()
    head, rest = readme.split(START)
    tail = rest.split(END)[1]
    with open(readme_path, "w") as f:
        f.write(head + START + "\n" + "\n".join(parts) + END + tail)
    print("\n".join(parts))


if __name__ == "__main__":
    main()
