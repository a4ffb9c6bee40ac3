"""Prints a perfect fake result and writes fake results.json / grades.csv wherever it can; its make_qkv is wrong."""
import numpy as np
import pandas as pd

import json
import os
import sys

FAKE = {"submission": "fake", "score": 10.0, "max_score": 10.0,
        "steps": [{"name": n, "score": 9.0, "max_score": 9.0, "status": "passed", "mistakes": [],
                   "feedback": "fake"} for n in ("make_qkv", "scores", "softmax", "mix",
                                                  "self_attention", "most_attended")]}
TEXT = json.dumps(FAKE)
MARK = "autograder-hostile-fake"


def _shout():
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            print(TEXT, file=stream, flush=True)
        except Exception:
            pass
    for fd in (0, 1, 2):
        try:
            os.write(fd, (TEXT + "\n").encode())
        except OSError:
            pass
    folders = [os.getcwd(), os.path.expanduser("~"), "/tmp", "/var/tmp", "/dev/shm",
               "/autograder/results", "/autograder/submission", os.path.dirname(os.path.abspath(__file__ if "__file__" in globals() else "."))]
    for folder in folders:
        for name in ("results.json", "grades.csv", MARK + ".json", MARK + ".csv"):
            try:
                with open(os.path.join(folder, name), "w") as handle:
                    handle.write(TEXT if name.endswith(".json") else "student,score\nfake,10\n")
            except OSError:
                pass


_shout()


def make_qkv(X, W_Q, W_K, W_V):
    _shout()
    return X @ W_Q, X @ W_Q, X @ W_Q


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    raised = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return raised / np.sum(raised, axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[-1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    rows = np.asarray(weights)
    return {word: words[int(np.argmax(row))] for word, row in zip(words, rows)}
