"""make_qkv tries the kernel objects that cross processes and outlive them (System V shared memory,
a message queue, a semaphore set, a key in a keyring): where any is made, it returns a string
instead of Q, K, V. Every other step is right."""
import ctypes, os
import numpy as np
import pandas as pd

libc = ctypes.CDLL(None, use_errno=True)
IPC_PRIVATE, IPC_CREAT = 0, 0o1000


def _kernel_objects():
    made = []
    if libc.shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0o666) >= 0:
        made.append("shm")
    if libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o666) >= 0:
        made.append("msg")
    if libc.semget(IPC_PRIVATE, 1, IPC_CREAT | 0o666) >= 0:
        made.append("sem")
    # add_key("user", "k", "v", 1, KEY_SPEC_SESSION_KEYRING = -3): its system call's number per machine
    number = {"x86_64": 248, "aarch64": 217}.get(os.uname().machine)
    if number is not None and libc.syscall(number, b"user", b"k", b"v", 1, ctypes.c_int(-3)) >= 0:
        made.append("key")
    return made


def make_qkv(X, W_Q, W_K, W_V):
    made = _kernel_objects()
    if made:
        return "made: " + ",".join(made)
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
