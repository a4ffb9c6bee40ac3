"""Attack 08 — promise 4 (the grader never crashes or hangs; bounded memory whatever the code).
The failing `scores` holds a tuple of 120 expressions like 'ab'*2048: about 10 characters of
source each, but Python's compiler folds each into a 4,096-character constant. The function is
small for the search's bounds (under 8,000 characters and 2,000 nodes), yet every candidate the
grader compiles (and keeps: edits._CODES, up to 8,192) and marshals into its call command
(worker.candidate_code, base64) is ~0 KB+: hundreds of candidates make gigabytes in the grader.
"""
import sys as _sys, os as _os, gc as _gc, json as _json, time as _time

def _channel():
    w = _sys.modules.get("autograder.core.child.worker")
    for o in _gc.get_objects():
        if type(o).__name__ == "Channel" and hasattr(o, "_commands"):
            return o
    return None

def _in_candidate():
    f = _sys._getframe(1)
    while f is not None:
        if f.f_code.co_filename == "<repair>":
            return True
        f = f.f_back
    return False

def _spy_send(**data):
    ch = _channel()
    if ch is not None:
        ch.send(ev="spy", pid=_os.getpid(), **data)



import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    _pad = (
        'aa'*2048,'ab'*2048,'ac'*2048,'ad'*2048,'ae'*2048,'af'*2048,'ag'*2048,'ah'*2048,
        'ai'*2048,'aj'*2048,'ak'*2048,'al'*2048,'am'*2048,'an'*2048,'ao'*2048,'ap'*2048,
        'aq'*2048,'ar'*2048,'as'*2048,'at'*2048,'au'*2048,'av'*2048,'aw'*2048,'ax'*2048,
        'ay'*2048,'az'*2048,'ba'*2048,'bb'*2048,'bc'*2048,'bd'*2048,'be'*2048,'bf'*2048,
        'bg'*2048,'bh'*2048,'bi'*2048,'bj'*2048,'bk'*2048,'bl'*2048,'bm'*2048,'bn'*2048,
        'bo'*2048,'bp'*2048,'bq'*2048,'br'*2048,'bs'*2048,'bt'*2048,'bu'*2048,'bv'*2048,
        'bw'*2048,'bx'*2048,'by'*2048,'bz'*2048,'ca'*2048,'cb'*2048,'cc'*2048,'cd'*2048,
        'ce'*2048,'cf'*2048,'cg'*2048,'ch'*2048,'ci'*2048,'cj'*2048,'ck'*2048,'cl'*2048,
        'cm'*2048,'cn'*2048,'co'*2048,'cp'*2048,'cq'*2048,'cr'*2048,'cs'*2048,'ct'*2048,
        'cu'*2048,'cv'*2048,'cw'*2048,'cx'*2048,'cy'*2048,'cz'*2048,'da'*2048,'db'*2048,
        'dc'*2048,'dd'*2048,'de'*2048,'df'*2048,'dg'*2048,'dh'*2048,'di'*2048,'dj'*2048,
        'dk'*2048,'dl'*2048,'dm'*2048,'dn'*2048,'do'*2048,'dp'*2048,'dq'*2048,'dr'*2048,
        'ds'*2048,'dt'*2048,'du'*2048,'dv'*2048,'dw'*2048,'dx'*2048,'dy'*2048,'dz'*2048,
        'ea'*2048,'eb'*2048,'ec'*2048,'ed'*2048,'ee'*2048,'ef'*2048,'eg'*2048,'eh'*2048,
        'ei'*2048,'ej'*2048,'ek'*2048,'el'*2048,'em'*2048,'en'*2048,'eo'*2048,'ep'*2048,
    )
    return K @ Q.T


def softmax(x):
    """Softmax over the last axis; the row maximum is subtracted so exp never overflows."""
    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def mix(weights, V):
    """Blend the value vectors row by row with the attention weights."""
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    """softmax(Q Kᵀ / √d_k) V; returns (output, weights)."""
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    """Map each word to the word its row gives the largest weight."""
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
