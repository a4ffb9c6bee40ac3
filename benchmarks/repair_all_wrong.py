"""What a class where every student makes one of five common mistakes costs, next to a class of
correct files: CPU per submission of `autograder grade --jobs 2`, in alternation round after round
(the repair search pays once per distinct mistake in a batch). Run by hand:

    .venv/bin/python benchmarks/repair_all_wrong.py -n 60 --rounds 2 [--other OTHER/.venv/bin/python]
"""
import argparse
import os
import pathlib
import statistics
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from grade_class import CORRECT, MUTATIONS, as_notebook  # noqa: E402
from throughput import CpuGroup, build_correct, grade_seconds  # noqa: E402

FIVE = [mutation for mutation in MUTATIONS if mutation[0] != "stub"][:5]


def build_wrong(folder, count):
    """`count` submissions, each with one of FIVE mistakes (.py and .ipynb alternating; each file unique)."""
    folder.mkdir(parents=True)
    for number in range(count):
        _, mutate = FIVE[number % len(FIVE)]
        source = mutate(CORRECT) + f"\n# submitted by student {number}\n"
        name = f"student{number:05d}_{10000 + number}_{50000 + number}_attention"
        if number % 2:
            (folder / (name + ".ipynb")).write_bytes(as_notebook(source))
        else:
            (folder / (name + ".py")).write_text(source, "utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--other", metavar="PYTHON",
                        help="another install's python: the same classes graded by it in the same rounds")
    args = parser.parse_args(argv)
    group = CpuGroup()
    installs = {"this": sys.executable, **({"other": args.other} if args.other else {})}
    cpu = {(install, name): [] for install in installs for name in ("wrong", "correct")}
    with tempfile.TemporaryDirectory(prefix="autograder-all-wrong-") as work:
        work = pathlib.Path(work)
        build_wrong(work / "wrong", args.count)
        build_correct(work / "correct", args.count)
        for number in range(1, args.rounds + 1):
            for (install, name), values in cpu.items():
                out = work / f"out-{install}-{name}-{number}"
                _, used = grade_seconds(installs[install], work / name, out, args.jobs, group)
                if used is None:
                    raise SystemExit("no writable CPU accounting (cgroup v1 cpuacct) on this machine")
                values.append(1000 * used / args.count)
            print(f"round {number}: " + ", ".join(f"{install} {name} {values[-1]:.1f} ms CPU"
                                                 for (install, name), values in cpu.items()), flush=True)
    group.close()
    median = {key: statistics.median(values) for key, values in cpu.items()}
    for install in installs:
        print(f"{install}: class of five mistakes / class of correct files: "
              f"{median[(install, 'wrong')] / median[(install, 'correct')]:.2f}x")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
