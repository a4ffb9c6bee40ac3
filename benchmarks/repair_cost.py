"""What the repair search costs a class: CPU per submission of a mixed class (about 60% correct,
30% one of six common mistakes, 10% broken) with the search and without it
(AUTOGRADER_REPAIR=off), beside a class of correct files, graded in alternation round after round
(the machine is shared and noisy: read the ratios of neighbouring runs). Repairs are kept per
distinct function and answers, shared by the batch's workers, so a class pays for each distinct
mistake about once. Run by hand:

    .venv/bin/python benchmarks/repair_cost.py -n 120 --rounds 3
"""
import argparse
import os
import pathlib
import statistics
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from grade_class import build_class  # noqa: E402
from throughput import MEASURED_ENVIRONMENT, CpuGroup, build_correct, grade_seconds  # noqa: E402

RUNS = {"mixed, search on": ("mixed", "on"), "mixed, search off": ("mixed", "off"), "correct": ("correct", "on")}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=120, help="submissions in each class")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    group = CpuGroup()
    cpu = {name: [] for name in RUNS}
    wall = {name: [] for name in RUNS}
    with tempfile.TemporaryDirectory(prefix="autograder-repair-cost-") as work:
        work = pathlib.Path(work)
        build_class(work / "mixed", args.count)
        build_correct(work / "correct", args.count)
        for number in range(1, args.rounds + 1):
            for name, (kind, switch) in RUNS.items():
                MEASURED_ENVIRONMENT["AUTOGRADER_REPAIR"] = switch
                seconds, used = grade_seconds(sys.executable, work / kind, work / f"out-{kind}-{switch}", args.jobs, group)
                wall[name].append(1000 * seconds / args.count)
                if used is not None:
                    cpu[name].append(1000 * used / args.count)
            print(f"round {number}: " + ", ".join(f"{name} {wall[name][-1]:.0f} ms wall" for name in RUNS), flush=True)
    group.close()
    measure, unit = (cpu, "CPU") if all(cpu.values()) else (wall, "wall")
    median = {name: statistics.median(values) for name, values in measure.items()}
    print(f"\nmedian ms of {unit} per submission: " + ", ".join(f"{name} {value:.1f}" for name, value in median.items()))
    print(f"mixed class, search on / off: {median['mixed, search on'] / median['mixed, search off']:.2f}x")
    print(f"mixed class with the search / class of correct files: {median['mixed, search on'] / median['correct']:.2f}x")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
