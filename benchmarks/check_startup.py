"""How long `autograder check` takes on one .py submission, next to `python -c "import numpy, pandas"`.

Both are started as fresh processes, alternating, for --rounds rounds (after one unmeasured round
of each, so both find the files in the page cache), and the medians of wall time and their ratio
are printed, and the CPU time of each (its own and its waited-for children's: the zygote's).
The import is the floor: a check needs numpy and pandas in the sandbox's zygote (students'
code imports them), which loads them while the grader loads numpy and its own modules. On a busy machine the two cannot run side by side and the
wall-time ratio drifts towards the CPU ratio; `chrt -f 10` (as root) shows the idle machine.
Run by hand:

    .venv/bin/python benchmarks/check_startup.py               # 15 rounds, the reference
    .venv/bin/python benchmarks/check_startup.py -n 30 --python /some/venv/bin/python samples/correct.py
"""
import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def command_for_check(python, submission):
    """The `autograder` script beside the interpreter, as users run it; `-m autograder` without one."""
    script = pathlib.Path(python).parent / "autograder"
    head = [str(script)] if script.exists() else [python, "-m", "autograder"]
    return head + ["check", str(submission)]


# Installs run from byte-code caches (pip writes them; an editable install writes them on first
# import): a shell that forbids writing them would measure compiling the changed modules instead.
MEASURED_ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def seconds(command):
    """(wall seconds, CPU seconds of the process and the children it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd="/",
                          env=MEASURED_ENVIRONMENT)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr.decode()[-2000:]}")
    return elapsed, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("submission", nargs="?", default=str(ROOT / "solutions" / "self_attention.py"))
    parser.add_argument("-n", "--rounds", type=int, default=15)
    parser.add_argument("--python", default=sys.executable, help="interpreter of the install to measure")
    args = parser.parse_args()
    commands = {"import numpy, pandas": [args.python, "-c", "import numpy, pandas"],
                "autograder check": command_for_check(args.python, os.path.abspath(args.submission))}
    for command in commands.values():
        seconds(command)  # warm the page cache and the byte-code caches
    wall = {label: [] for label in commands}
    cpu = {label: [] for label in commands}
    for _ in range(args.rounds):
        for label, command in commands.items():
            elapsed, used = seconds(command)
            wall[label].append(elapsed)
            cpu[label].append(used)
    for label in commands:
        print(f"{label:22} wall median {statistics.median(wall[label]) * 1000:7.1f} ms  "
              f"min {min(wall[label]) * 1000:7.1f}  max {max(wall[label]) * 1000:7.1f}   "
              f"CPU median {statistics.median(cpu[label]) * 1000:7.1f} ms")
    floor, check = (statistics.median(wall[label]) for label in commands)
    floor_cpu, check_cpu = (statistics.median(cpu[label]) for label in commands)
    print(f"CPU ratio (check / import): {check_cpu / floor_cpu:.2f}")
    print(f"ratio (check / import, wall medians over {args.rounds} rounds): {check / floor:.2f}")


if __name__ == "__main__":
    main()
