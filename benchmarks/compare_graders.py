"""Two installs of the grader on the same synthetic class, side by side: submissions per second of
each and their ratio, run after run in alternation (the machine is shared and noisy, so only the
ratios of neighbouring runs are read). Run by hand, e.g. against an earlier checkout's venv:

    .venv/bin/python benchmarks/compare_graders.py --other ../before/.venv/bin/python -n 300 --rounds 3
"""
import argparse
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from grade_class import build_class  # noqa: E402


def grade_seconds(python, submissions, out, jobs):
    shutil.rmtree(out, ignore_errors=True)
    started = time.monotonic()
    done = subprocess.run([python, "-m", "autograder", "grade", str(submissions), "--out", str(out), "--jobs",
                           str(jobs), "--lab", "self_attention", "--allow-merged-ids"],
                          capture_output=True, text=True)
    seconds = time.monotonic() - started
    if done.returncode not in (0, 3):
        raise SystemExit(f"{python}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, help="the python of the other install (its venv's bin/python)")
    parser.add_argument("-n", "--count", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    this = sys.executable
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        build_class(work / "class", args.count)
        ratios = []
        for number in range(1, args.rounds + 1):
            mine = grade_seconds(this, work / "class", work / "out-this", args.jobs)
            theirs = grade_seconds(args.other, work / "class", work / "out-other", args.jobs)
            ratios.append(theirs / mine)
            print(f"round {number}: this {args.count / mine:.1f}/s, other {args.count / theirs:.1f}/s, "
                  f"this is {theirs / mine:.2f}x the other's speed", flush=True)
        print(f"median ratio (this / other speed): {statistics.median(ratios):.2f} over {args.rounds} rounds")


if __name__ == "__main__":
    main()
