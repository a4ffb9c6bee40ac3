"""What naming a mistake costs, next to running the file: the error model's search on the failed
steps of a submission, measured beside grading the same submission in the sandbox, in one run.

The search is dearest where nothing explains the values (every single change, then every pair,
is tried on every failed test). Verdicts are remembered per distinct answer, so a class pays
it once per distinct wrong answer. Run by hand:

    .venv/bin/python benchmarks/diagnosis.py            # 20 rounds
    .venv/bin/python benchmarks/diagnosis.py -n 50
"""
import argparse
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.grading import grade_bytes  # noqa: E402
from autograder.grading.plan import Plan
from autograder.core.judge import judge_step  # noqa: E402
from autograder.sandbox.runner import CallOutcome, Zygote  # noqa: E402
from labs.self_attention import LAB  # noqa: E402

CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")


def outcome(value):
    return CallOutcome("returned", value=value, args_after=[None] * 4)


STUDENTS = {
    "right": lambda p: p.expected,
    "one mistake (d_k)": lambda p: _attention(p, p.case.W_K.shape[1]),
    "nothing explains it": lambda p: (p.expected[0] * 1.37 + 0.1, p.expected[1] * 0.9),
}


def _attention(probe, divisor):
    import numpy as np

    scaled = probe.trace.scores / divisor
    e = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ probe.trace.V, weights


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=20, help="rounds")
    rounds = parser.parse_args().n
    plan = Plan.build(LAB)
    step = LAB.steps_by_name["self_attention"]
    probes = plan.probes[step.name]
    wrong_file = CORRECT.replace("/ np.sqrt(d_k)", "/ d_k").encode()
    timings = {name: [] for name in STUDENTS}
    timings["grading one file in the sandbox"] = []
    with Zygote() as zygote:
        grade_bytes("warm.py", wrong_file, zygote, plan)
        for _ in range(rounds):
            for name, student in STUDENTS.items():
                outcomes = [outcome(student(p)) for p in probes]
                start = time.perf_counter()
                judge_step(step, probes, outcomes, "function", False, page=LAB.page_case)
                timings[name].append(time.perf_counter() - start)
            start = time.perf_counter()
            grade_bytes("wrong.py", wrong_file, zygote, Plan(LAB, plan.probes))  # a fresh verdict memo
            timings["grading one file in the sandbox"].append(time.perf_counter() - start)
    base = statistics.median(timings["grading one file in the sandbox"])
    print(f"self_attention, {len(probes)} tests, {len(step.mistakes)} mistakes in its model, {rounds} rounds")
    for name, values in timings.items():
        median = statistics.median(values)
        print(f"  {name:34s} {median * 1000:8.1f} ms   {median / base:6.2f} × grading one file")


if __name__ == "__main__":
    main()
