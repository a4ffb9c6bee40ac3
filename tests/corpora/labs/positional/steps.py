"""The test lab's steps: two plain, two composed, two levels deep (encoder_input → add_and_norm → layer_norm)."""
import numpy as np

from autograder.authoring.lab_kit import quietly
from autograder.core.declaration import Mistake, Output, Probe, Step

from . import solution


def _pe_probes(step, case, t):
    n, d = case.X.shape
    return [Probe(step=step, case=case, trace=t, args=(n, d), expected=(t.PE,))]


def _norm_probes(step, case, t):
    return [Probe(step=step, case=case, trace=t, args=(case.X,), expected=(t.normed,))]


def _add_probes(step, case, t):
    return [Probe(step=step, case=case, trace=t, args=(case.X, case.S), expected=(t.added,))]


def _input_probes(step, case, t):
    return [Probe(step=step, case=case, trace=t, args=(case.X,), expected=(t.encoded,))]


@quietly
def _sin_cos_swapped(p):
    n, d = p.args
    column = np.arange(d)[None, :]
    angle = np.arange(n)[:, None] / np.power(10000.0, (2 * (column // 2)) / d)
    yield (np.where(column % 2 == 0, np.cos(angle), np.sin(angle)),)


@quietly
def _not_centred(p):
    x = p.args[0]
    yield (x / np.sqrt(x.var(axis=-1, keepdims=True) + 1e-5),)


@quietly
def _no_residual(p):
    yield (solution.layer_norm(p.args[1]),)


@quietly
def _positions_not_added(p):
    yield (solution.layer_norm(p.args[0]),)


STEPS = (
    Step(name="positional_encoding", points=2, page_step=1, params=("n", "d"),
         outputs=(Output(name="PE"),),
         mistakes=(Mistake(code="sin_cos_swapped", candidates=_sin_cos_swapped),),
         hint="positional_encoding_columns", make_probes=_pe_probes),
    Step(name="layer_norm", points=2, page_step=2, params=("x", "eps"),
         outputs=(Output(name="normed"),),
         mistakes=(Mistake(code="not_centred", candidates=_not_centred),),
         hint="layer_norm_rows", make_probes=_norm_probes),
    Step(name="add_and_norm", points=1, page_step=3, params=("x", "sublayer_out"),
         outputs=(Output(name="added"),),
         mistakes=(Mistake(code="no_residual", candidates=_no_residual),),
         hint="add_and_norm_residual", make_probes=_add_probes,
         calls=("layer_norm",)),
    Step(name="encoder_input", points=2, page_step=4, params=("X",),
         outputs=(Output(name="encoded"),),
         mistakes=(Mistake(code="positions_not_added", candidates=_positions_not_added),),
         hint="encoder_input_flow", make_probes=_input_probes,
         calls=("positional_encoding", "add_and_norm")),
)
