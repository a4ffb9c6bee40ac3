"""The least a sandbox child can cost: a bare fork and exit of a process holding numpy and pandas.

Every submission is graded in fresh children forked from a zygote that holds numpy and pandas
(docs/SECURITY.md: public and hidden tests, plain and composed steps, each in children of their
own). This forks such a process and lets the child exit at once, no sandbox set-up, no loading,
no call, and prints the CPU it takes (parent's fork and child's exit, both counted), so the batch
rates of throughput.py can be read against what the process model alone allows on this machine:

    rate allowed on C cores = 1000 * C / (children per submission * CPU ms per bare child)

Run by hand (it prints both, measured in this run):

    .venv/bin/python benchmarks/fork_floor.py --children-per-submission 4
"""
import argparse
import os
import time


def bare_children(count: int) -> tuple[float, float]:
    """(wall ms, CPU ms) per fork-and-exit, parent and child together."""
    before, started = os.times(), time.perf_counter()
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    after, wall = os.times(), time.perf_counter() - started
    cpu = sum(getattr(after, f) - getattr(before, f) for f in ("user", "system", "children_user", "children_system"))
    return 1000 * wall / count, 1000 * cpu / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=400)
    parser.add_argument("--children-per-submission", type=float, default=4.0)
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    import numpy  # noqa: F401  (what the zygote holds)
    import pandas  # noqa: F401

    wall, cpu = bare_children(args.count)
    per_submission = args.children_per_submission * cpu
    print(f"bare fork+exit of a numpy+pandas process: {wall:.2f} ms wall, {cpu:.2f} ms CPU; "
          f"{args.children_per_submission:g} per submission = {per_submission:.1f} ms CPU, "
          f"so at most {1000 * args.cores / per_submission:.0f} submissions/s on {args.cores} cores "
          f"with no set-up, no loading and no grading at all")


if __name__ == "__main__":
    main()
