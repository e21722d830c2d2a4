"""Run a benchmark command with the arithmetic of another CPU model, on this machine.

The same seed follows another trajectory on another CPU model because torch's libraries pick their kernels by the CPU:
MKL (the matrix products of the linear layers) takes its code path for Intel CPUs only on a CPU it knows as Intel's,
and oneDNN (the LSTMs and GRUs) uses the widest vector instructions the CPU has. Both picks can be set by hand. So on a
CPU with AVX-512 this runs a command as the other CPU models in benchmark/results ran it, each training episode and
evaluation the same, and a row of one CPU model can be checked, or a candidate tried, without that machine.

python benchmark/arithmetic.py --of xeon -- python benchmark/peer_reach.py --tag xeon16_arithmetic
python benchmark/arithmetic.py --of epyc-avx2 -- python benchmark/run.py --suite NAME --seeds 11 12
python benchmark/arithmetic.py --compare peer_reach_xeon16.json peer_reach_xeon16_arithmetic.json

The results a command writes this way record this CPU and the arithmetic it ran with (speed.this_cpu), so its rows
never stand in a table as the other machine's; their seconds and steps per second are this machine's. Each profile
needs a C compiler (`cc`); `--of xeon` and `--of epyc` (the AMD EPYC of family 26, with AVX-512) need AVX-512.
`--compare` says, run by run, whether two results files of benchmark/peer_reach.py hold the same training episodes
and evaluation.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# what speed.this_cpu reads to record the arithmetic a run used
RECORD = "BENCHMARK_ARITHMETIC"
# each CPU model of benchmark/results whose arithmetic another can take: what it needs of this CPU, whether MKL is to
# take its code path for Intel CPUs, and the variables that set the vector instructions of oneDNN, ATen and MKL
PROFILES = {
    "epyc": dict(cpu_id="family 26 model 2 stepping 1, avx512", needs="avx512f", intel_mkl=False,
                 env={"ONEDNN_MAX_CPU_ISA": "AVX512_CORE_BF16"}),
    "xeon": dict(cpu_id="family 6 model 207 stepping 2, avx512", needs="avx512f", intel_mkl=True, env={}),
    "epyc-avx2": dict(cpu_id="family 25 model 1 stepping 1, avx2", needs="avx2", intel_mkl=False,
                      env={"ONEDNN_MAX_CPU_ISA": "AVX2", "ATEN_CPU_CAPABILITY": "avx2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}),
}  # fmt: skip
# MKL asks this function whether the CPU is Intel's; loaded before MKL, this one answers as the profile says (MKL still
# takes only the instructions the CPU has)
INTEL_CPU = "int mkl_serv_intel_cpu_true(void) {{ return {answer}; }}\n"


# where the libraries that answer MKL are built
LIBRARIES = os.path.join(HERE, ".cache", "arithmetic")


def mkl_library(intel: bool) -> str:
    """Builds (once) the library that tells MKL whether the CPU is Intel's; returns its path."""
    library = os.path.join(LIBRARIES, f"mkl_intel_cpu_{int(intel)}.so")
    if not os.path.exists(library):
        os.makedirs(LIBRARIES, exist_ok=True)
        # built under a name of this process's, then renamed whole: another run may be building or loading it
        source, built = f"{library[:-3]}.{os.getpid()}.c", f"{library}.{os.getpid()}"
        with open(source, "w") as f:
            f.write(INTEL_CPU.format(answer=int(intel)))
        subprocess.run(["cc", "-shared", "-fPIC", "-o", built, source], check=True)
        os.replace(built, library)
        os.remove(source)
    return library


def environment(of: str, base: dict) -> dict:
    """`base` with what makes a process run with the arithmetic of the CPU model `of`, and without what another
    profile set there (a command run so may call this script again)."""
    with open("/proc/cpuinfo") as f:
        flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    profile = PROFILES[of]
    if profile["needs"] not in flags:
        sys.exit(f"error: --of {of} needs a CPU with {profile['needs']}; this one has not")
    if shutil.which("cc") is None:
        sys.exit(f"error: --of {of} needs a C compiler (cc) to build the library that answers MKL")
    env = {key: value for key, value in base.items() if all(key not in p["env"] for p in PROFILES.values())}
    others = [lib for lib in base.get("LD_PRELOAD", "").split() if os.path.dirname(lib) != LIBRARIES]
    preload = [mkl_library(profile["intel_mkl"]), *others]
    return {**env, **profile["env"], RECORD: profile["cpu_id"], "LD_PRELOAD": " ".join(preload)}


def same_runs(original: dict, again: dict) -> list[dict]:
    """Run by run (script and seed), whether two peer_reach results hold the same training episodes, steps to the
    threshold and evaluation (the returns of each evaluation episode where both files kept them); a run in only one
    of them is left out."""
    rows = {(run["script"], run["seed"]): run for run in original["runs"]}
    compared = []
    for run in again["runs"]:
        before = rows.get((run["script"], run["seed"]))
        if before is None:
            continue
        pairs = list(zip(before["curve"], run["curve"], strict=False))  # up to the end of the shorter
        same = next((i for i, (a, b) in enumerate(pairs) if list(a) != list(b)), len(pairs))
        keys = ["steps_to_threshold", "eval_mean_return"] + [key for key in ["eval_returns"] if key in before and key in run]
        compared.append({"script": run["script"], "seed": run["seed"], "same_episodes": same,
                         "episodes": max(len(before["curve"]), len(run["curve"])),
                         "identical": len(before["curve"]) == len(run["curve"]) == same
                         and all(before.get(key) == run.get(key) for key in keys)})  # fmt: skip
    return compared


def compare(original: str, again: str) -> list[dict]:
    """same_runs of two results files, named as in benchmark/results."""
    with open(os.path.join(HERE, "results", original)) as f, open(os.path.join(HERE, "results", again)) as g:
        return same_runs(json.load(f), json.load(g))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--of", choices=sorted(PROFILES), help="the CPU model whose arithmetic the command runs with")
    parser.add_argument("--compare", nargs=2, metavar=("ORIGINAL", "AGAIN"), help="two results files to compare")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args()
    if args.compare:
        for row in compare(*args.compare):
            print(f"{row['script']:24s} seed {row['seed']:3d}: {row['same_episodes']}/{row['episodes']} episodes "
                  f"the same, {'identical' if row['identical'] else 'DIFFERENT'}")  # fmt: skip
        return
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not args.of or not command:
        parser.error("give --of and a command after --, or --compare")
    os.execvpe(command[0], command, environment(args.of, dict(os.environ)))


if __name__ == "__main__":
    main()
