"""One student's file, graded beside honest classmates with `--jobs 2`, spends the class's CPU: each
time the sandbox loads it, it forks 48 processes (RLIMIT_NPROC allows 64) that each leave the
child's session (setsid: an autogroup each, so the scheduler gives each as much CPU as a whole
session) and spin; its own steps loop until their deadline, so its children, and the spinning
processes a sweep kills only when its next child starts, last its whole time budget. The other
worker's honest students run on the same cores against ~48 spinning processes, with wall-clock
deadlines (and a reader that calls a deadline missed when the worker itself wakes up late)."""
import pathlib

from helpers5 import CORRECT, cli, grades, write_class

FACE = "autograder grade --jobs 2 (a class)"
PROMISE = ("nothing a submission does may change another student's result; honest students among hostile files "
           "get exactly the grade they get alone")

HOSTILE = '''import os
import numpy as np
import pandas as pd


def _burn(count):
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError:
            return
        if pid == 0:
            try:
                os.setsid()
            except OSError:
                pass
            while True:
                pass


_burn({count})


def make_qkv(X, W_Q, W_K, W_V):
    while True:
        pass


def scores(Q, K):
    while True:
        pass


def softmax(x):
    while True:
        pass


def mix(weights, V):
    while True:
        pass


def self_attention(X, W_Q, W_K, W_V):
    while True:
        pass


def most_attended(weights, words):
    while True:
        pass
'''


def run(work, count):
    files = {"s01": HOSTILE.format(count=count), **{f"s{n:02d}": CORRECT for n in range(2, 9)}}
    root = write_class(work / "class", files)
    done = cli("grade", root, "--out", work / "run", "--lab", "self_attention", "--jobs", "2", "--timeout", "1")
    rows = grades(work / "run")
    lost = {sid: (row["total"], row["status"]) for sid, row in rows.items() if sid != "s01" and float(row["total"] or 0) != 10.0}
    return done.returncode, lost


def attack(work):
    work = pathlib.Path(work)
    code0, lost0 = run(work / "control", 0)
    if lost0:
        return True, f"(setup: honest students lose points even beside the file that only loops: {lost0})"
    code1, lost1 = run(work / "attack", 48)
    if lost1:
        return False, (f"beside the same file looping without spinning processes every honest student gets 10; "
                       f"beside the one that spins, {len(lost1)} of 7 lose points: {lost1}")
    return True, f"every honest student keeps 10 in both runs (exit {code0}, {code1})"
