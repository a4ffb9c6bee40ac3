"""The test lab's steps: two plain, two composed, two levels deep (encoder_input → add_and_norm → layer_norm)."""
import numpy as np

from autograder.declaration import Mistake, Output, Probe, Step

from . import solution


def _quietly(function):
    def wrapped(p):
        with np.errstate(all="ignore"):
            return list(function(p))
    return wrapped


def _pe_probes(step, case, t):
    n, d = case.X.shape
    return [Probe(step, case, t, (n, d), (t.PE,))]


def _norm_probes(step, case, t):
    return [Probe(step, case, t, (case.X,), (t.normed,))]


def _add_probes(step, case, t):
    return [Probe(step, case, t, (case.X, case.S), (t.added,))]


def _input_probes(step, case, t):
    return [Probe(step, case, t, (case.X,), (t.encoded,))]


@_quietly
def _sin_cos_swapped(p):
    n, d = p.args
    column = np.arange(d)[None, :]
    angle = np.arange(n)[:, None] / np.power(10000.0, (2 * (column // 2)) / d)
    yield (np.where(column % 2 == 0, np.cos(angle), np.sin(angle)),)


@_quietly
def _not_centred(p):
    x = p.args[0]
    yield (x / np.sqrt(x.var(axis=-1, keepdims=True) + 1e-5),)


@_quietly
def _no_residual(p):
    yield (solution.layer_norm(p.args[1]),)


@_quietly
def _positions_not_added(p):
    yield (solution.layer_norm(p.args[0]),)


STEPS = (
    Step("positional_encoding", 2, 1, ("n", "d"), (Output("PE"),),
         (Mistake("sin_cos_swapped", _sin_cos_swapped),), hint="positional_encoding_columns",
         make_probes=_pe_probes),
    Step("layer_norm", 2, 2, ("x", "eps"), (Output("normed"),),
         (Mistake("not_centred", _not_centred),), hint="layer_norm_rows", make_probes=_norm_probes),
    Step("add_and_norm", 1, 3, ("x", "sublayer_out"), (Output("added"),),
         (Mistake("no_residual", _no_residual),), hint="add_and_norm_residual", make_probes=_add_probes,
         calls=("layer_norm",)),
    Step("encoder_input", 2, 4, ("X",), (Output("encoded"),),
         (Mistake("positions_not_added", _positions_not_added),), hint="encoder_input_flow",
         make_probes=_input_probes, calls=("positional_encoding", "add_and_norm")),
)
