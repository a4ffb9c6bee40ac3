"""The repair search's own CPU on the five common mistakes of `repair_all_wrong.py`: each graded in
one process, search on and then off, the CPU of the whole process tree (grader, zygote, every
sandbox child; cgroup v1 `cpuacct`), the difference being what the searches cost; with `--other
PYTHON`, another install's grader measured the same way in the same rounds, alternating. Run by hand:

    .venv/bin/python benchmarks/repair_search_cpu.py --rounds 3 [--other OTHER/.venv/bin/python]
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent


def measure(repeats):
    """In this process: {"on": s, "off": s, "calls": n}, CPU seconds of the process tree."""
    sys.path.insert(0, str(HERE))
    from grade_class import CORRECT, MUTATIONS
    from throughput import CpuGroup

    import autograder.grading.repairs as repairs
    from autograder import registry
    from autograder.grading import grade_bytes
    from autograder.grading.plan import Plan
    from autograder.repair import RepairCache
    from autograder.sandbox.runner import Zygote

    five = [mutation for mutation in MUTATIONS if mutation[0] != "stub"][:5]
    plan = Plan.build(registry.load("self_attention"))
    group = CpuGroup()
    group.enter()
    calls = [0]
    made = repairs.candidate_codes

    def counted(runs, step, stand_in_for, sources, probes, *args, **kwargs):
        calls[0] += len(sources) * len(probes)
        return made(runs, step, stand_in_for, sources, probes, *args, **kwargs)

    repairs.candidate_codes = counted
    seconds = {}
    for switch in ("on", "off"):
        os.environ[repairs.REPAIR_SWITCH] = switch
        group.reset()
        with Zygote() as zygote:
            for _ in range(repeats):
                for name, mutate in five:
                    repairs._REPAIRS = RepairCache()  # each mistake searched, not found kept
                    grade_bytes(f"{name}.py", mutate(CORRECT).encode(), zygote, plan)
        seconds[switch] = group.seconds()
    group.close()
    if seconds["on"] is None:
        raise SystemExit("no writable CPU accounting (cgroup v1 cpuacct) on this machine")
    return {**seconds, "calls": calls[0]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3, help="each mistake graded this many times per round")
    parser.add_argument("--other", metavar="PYTHON", help="another install's python, measured in the same rounds")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.repeats)))
        return
    installs = {"this": sys.executable, **({"other": args.other} if args.other else {})}
    for number in range(1, args.rounds + 1):
        for name, python in installs.items():
            started = time.monotonic()
            done = subprocess.run([python, __file__, "--measure", "--repeats", str(args.repeats)], cwd="/",
                                  capture_output=True, text=True, check=True)
            found = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"round {number} {name}: search {found['on'] - found['off']:.2f} s CPU "
                  f"(on {found['on']:.2f}, off {found['off']:.2f}), {found['calls']} candidate calls, "
                  f"{time.monotonic() - started:.0f} s", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
