"""The grader version must be the same in fresh processes (other hash seeds) and after a grade run has
written its files (caches, byte code); a rerun grades nobody again."""
import os
import subprocess
import sys

from common import ROOT, cli, copy_base

FACE = "autograder grade (batch.version)"
PROMISE = "the version never differs run to run, and an edit a grade depends on moves it"

PRINT = ("from labs.self_attention import LAB; from autograder.batch.version import grader_version; "
         "print(grader_version(LAB))")


def version(seed):
    done = subprocess.run([sys.executable, "-c", PRINT], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONHASHSEED": str(seed)})
    return done.stdout.strip()


def attack(work):
    first = {version(seed) for seed in (0, 1, 12345)}
    copy_base(work, "stable")  # a grade run happened (base class)
    root, out = copy_base(work, "stable2")
    rerun = cli("grade", root, "--out", out, "--jobs", "2")
    after = version(7)
    problems = []
    if len(first) != 1 or after not in first:
        problems.append(f"versions differ: {sorted(first)} then {after}")
    if "이번에 채점한 학생 0명" not in rerun.stdout:  # the summary, in the TA's language (Korean by default)
        problems.append(f"a rerun regraded: {[l for l in rerun.stdout.splitlines() if '이번에 채점한' in l]}")
    return not problems, "; ".join(problems) or f"one version {after} across seeds and runs; rerun graded nobody"
