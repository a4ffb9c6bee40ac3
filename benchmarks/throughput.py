"""Batch rate on a mixed class and a class of correct files next to their import floor, and
`check` next to its own, in one run.

The import floor is what the same batch costs when each submission only imports numpy and pandas
and does nothing: every child is still started, loaded, swept and reported on, so the floor is
the cost of the sandbox and the batch around it, and the gap above it is what grading the calls
costs. Both classes are graded by `autograder grade --jobs 2` in alternation, round after round
(the machine is shared and noisy: read the ratios of neighbouring runs, not the absolute rates).
With --other, another install (e.g. main's venv) grades the same classes in the same rounds, so
its rates and ratios sit beside this one's. Then `autograder check` on one submission against
`python -c "import numpy, pandas"` (see check_startup.py), for each install. Run by hand:

    .venv/bin/python benchmarks/throughput.py -n 300 --rounds 3 --other /work/main/.venv/bin/python
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_startup import MEASURED_ENVIRONMENT, command_for_check, seconds as process_seconds  # noqa: E402
from grade_class import CORRECT, build_class  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
FLOOR_SOURCE = "import numpy as np\nimport pandas as pd\n"


def build_floor(folder, count):
    """`count` submissions that only import numpy and pandas (each file unique, as students' are)."""
    folder.mkdir(parents=True)
    for number in range(count):
        name = f"student{number:05d}_{10000 + number}_{50000 + number}_attention.py"
        (folder / name).write_text(FLOOR_SOURCE + f"# submitted by student {number}\n", "utf-8")


def build_correct(folder, count):
    """`count` correct submissions (each file unique)."""
    folder.mkdir(parents=True)
    for number in range(count):
        name = f"student{number:05d}_{10000 + number}_{50000 + number}_attention.py"
        (folder / name).write_text(CORRECT + f"\n# submitted by student {number}\n", "utf-8")


KINDS = ("mixed", "correct", "floor")
CPUACCT = pathlib.Path("/sys/fs/cgroup/cpuacct")  # cgroup v1's CPU accounting, where mounted writable


class CpuGroup:
    """A cgroup of its own for one command, so the CPU time of its whole process tree is counted:
    the grader, its zygotes and every sandbox child (which no wait() reports: the zygote lets the
    kernel reap them). None of it when the machine offers no writable CPU accounting."""

    def __init__(self):
        self.path = None
        try:
            path = CPUACCT / f"autograder-bench-{os.getpid()}"
            path.mkdir(exist_ok=True)
            (path / "cpuacct.usage").write_text("0")
            self.path = path
        except OSError:
            pass

    def enter(self):
        """For preexec_fn: the command's process joins the group before it starts."""
        if self.path is not None:
            (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def seconds(self):
        return int((self.path / "cpuacct.usage").read_text()) / 1e9 if self.path is not None else None

    def reset(self):
        if self.path is not None:
            (self.path / "cpuacct.usage").write_text("0")

    def close(self):
        if self.path is not None:
            try:
                self.path.rmdir()
            except OSError:
                pass


def grade_seconds(python, submissions, out, jobs, group=None):
    """(wall seconds, CPU seconds of the whole process tree or None) of one `autograder grade`."""
    shutil.rmtree(out, ignore_errors=True)
    if group is not None:
        group.reset()
    started = time.monotonic()
    done = subprocess.run([python, "-m", "autograder", "grade", str(submissions), "--out", str(out), "--jobs",
                           str(jobs), "--lab", "self_attention", "--allow-merged-ids"],
                          capture_output=True, text=True, cwd="/", preexec_fn=group.enter if group else None,
                          env=MEASURED_ENVIRONMENT)
    elapsed = time.monotonic() - started
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"{python}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return elapsed, group.seconds() if group is not None else None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=300, help="submissions in each class")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of `grade`; 0 skips")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--other", help="the python of another install (its venv's bin/python), graded alongside")
    parser.add_argument("--check-rounds", type=int, default=9, help="rounds of `check` against its floor; 0 skips")
    args = parser.parse_args(argv)
    installs = {"this": sys.executable}
    if args.other:
        installs["other"] = args.other
    if args.rounds > 0:
        grade_rounds(args, installs)
    if args.check_rounds > 0:
        check_against_floor(installs, args.check_rounds)


def grade_rounds(args, installs):
    """`autograder grade` of each class by each install, round after round; the medians and ratios."""
    rates = {(install, kind): [] for install in installs for kind in KINDS}
    cpu = {(install, kind): [] for install in installs for kind in KINDS}
    group = CpuGroup()
    with tempfile.TemporaryDirectory(prefix="autograder-throughput-") as work:
        work = pathlib.Path(work)
        build_class(work / "mixed", args.count)
        build_correct(work / "correct", args.count)
        build_floor(work / "floor", args.count)
        print(f"classes of {args.count}: mixed (about 60% correct, 30% one mistake, 10% broken, .py and .ipynb), "
              f"correct, and import floor; --jobs {args.jobs}", flush=True)
        for number in range(1, args.rounds + 1):
            parts = []
            for install, python in installs.items():
                for kind in KINDS:
                    wall, used = grade_seconds(python, work / kind, work / f"out-{install}-{kind}", args.jobs, group)
                    rates[(install, kind)].append(args.count / wall)
                    if used is not None:
                        cpu[(install, kind)].append(1000 * used / args.count)
                mixed, floor = rates[(install, "mixed")][-1], rates[(install, "floor")][-1]
                text = f"{install}: mixed {mixed:6.1f}/s, floor {floor:6.1f}/s, mixed/floor {mixed / floor:.2f}"
                if cpu[(install, "mixed")]:
                    text += " (CPU per submission: " + ", ".join(
                        f"{kind} {cpu[(install, kind)][-1]:.1f} ms" for kind in KINDS) + ")"
                parts.append(text)
            print(f"round {number}: " + "; ".join(parts), flush=True)
    group.close()
    print("medians:")
    for install in installs:
        mixed, floor = (statistics.median(rates[(install, kind)]) for kind in ("mixed", "floor"))
        ratios = [m / f for m, f in zip(rates[(install, "mixed")], rates[(install, "floor")])]
        print(f"  {install}: mixed {mixed:.1f}/s, import floor {floor:.1f}/s, "
              f"mixed/floor {statistics.median(ratios):.2f}")
        if cpu[(install, "mixed")]:
            mixed_cpu, floor_cpu = (statistics.median(cpu[(install, kind)]) for kind in ("mixed", "floor"))
            print(f"    CPU per correct submission: {statistics.median(cpu[(install, 'correct')]):.1f} ms")
            # On an idle machine the batch keeps every core busy: its rate is bounded by cores / CPU.
            print(f"    CPU per submission (whole process tree): mixed {mixed_cpu:.1f} ms, floor {floor_cpu:.1f} ms; "
                  f"rate {args.jobs} idle cores allow: mixed {1000 * args.jobs / mixed_cpu:.0f}/s, "
                  f"floor {1000 * args.jobs / floor_cpu:.0f}/s")
    if "other" in installs:
        speedups = [a / b for a, b in zip(rates[("this", "mixed")], rates[("other", "mixed")])]
        print(f"  this / other on the mixed class: {statistics.median(speedups):.2f}x wall (median of rounds)")
        if cpu[("this", "mixed")]:
            for kind in KINDS:
                # Per round (both installs graded the class side by side), then the median of those.
                ratios = [o / t for o, t in zip(cpu[("other", kind)], cpu[("this", kind)])]
                print(f"  other / this CPU per submission, {kind}: {statistics.median(ratios):.2f}x")


def check_against_floor(installs, rounds):
    """`autograder check` of the reference against `import numpy, pandas`, per install, alternating."""
    submission = ROOT / "solutions" / "self_attention.py"
    commands = {}
    for install, python in installs.items():
        commands[(install, "floor")] = [python, "-c", "import numpy, pandas"]
        commands[(install, "check")] = command_for_check(python, submission)
    for command in commands.values():
        process_seconds(command)  # the page cache and byte-code caches warm
    wall = {key: [] for key in commands}
    for _ in range(rounds):
        for key, command in commands.items():
            wall[key].append(process_seconds(command)[0])
    print(f"autograder check vs its import floor (wall medians over {rounds} rounds):")
    for install in installs:
        floor, check = (statistics.median(wall[(install, kind)]) for kind in ("floor", "check"))
        print(f"  {install}: check {check * 1000:.0f} ms, import floor {floor * 1000:.0f} ms, ratio {check / floor:.2f}")


if __name__ == "__main__":
    main()
