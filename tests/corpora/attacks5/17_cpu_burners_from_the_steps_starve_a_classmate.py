"""Attack 14 again, with the spinning processes started where the grader cannot skip them. In 14
they were forked at import, 48 at once: the fork storm outlasted the one-second load deadline, so
the next child skipped that statement (driver._skip_statement) and the spinning stopped after the
first load. Here every step function forks 40 processes that each leave the session (setsid) and
spin, then loops until the step's deadline; each step's fresh child starts them again. The other
worker's honest students run against them on the same two cores, under wall-clock deadlines."""
import pathlib

from helpers5 import CORRECT, cli, grades, write_class

FACE = "autograder grade --jobs 2 (a class)"
PROMISE = ("nothing a submission does may change another student's result; honest students among hostile files "
           "get exactly the grade they get alone")

HOSTILE = '''import os
import numpy as np
import pandas as pd


def _burn_then_loop(count={count}):
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            try:
                os.setsid()
            except OSError:
                pass
            while True:
                pass
    while True:
        pass


def make_qkv(X, W_Q, W_K, W_V):
    _burn_then_loop()


def scores(Q, K):
    _burn_then_loop()


def softmax(x):
    _burn_then_loop()


def mix(weights, V):
    _burn_then_loop()


def self_attention(X, W_Q, W_K, W_V):
    _burn_then_loop()


def most_attended(weights, words):
    _burn_then_loop()
'''


def run(work, count):
    files = {"s01": HOSTILE.format(count=count), **{f"s{n:02d}": CORRECT for n in range(2, 12)}}
    root = write_class(work / "class", files)
    done = cli("grade", root, "--out", work / "run", "--lab", "self_attention", "--jobs", "2", "--timeout", "1")
    rows = grades(work / "run")
    lost = {sid: (row["total"], row["status"]) for sid, row in rows.items()
            if sid != "s01" and float(row["total"] or 0) != 10.0}
    return done.returncode, lost


def attack(work):
    work = pathlib.Path(work)
    code0, lost0 = run(work / "control", 0)
    if lost0:
        return True, f"(setup: honest students lose points even beside the file that only loops: {lost0})"
    code1, lost1 = run(work / "attack", 40)
    if lost1:
        return False, (f"beside the same file looping without spinning processes every honest student gets 10; "
                       f"beside the one that spins, {len(lost1)} of 10 lose points: {lost1}")
    return True, f"every honest student keeps 10 in both runs (exit {code0}, {code1})"
