"""The one declaration of the lab's steps: names, points, inputs, expected values, known mistakes.

Every grader (CLI, pytest, Otter, batch) renders this list. Each step is graded on the
reference's outputs of the steps before it, so one mistake costs one step.
"""
import itertools
from collections.abc import Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from autograder.authoring.lab_kit import quietly
from autograder.core.declaration import Case, ErrorMistake, Link, Mistake, Output, Prediction, Probe, Step, Trace
from autograder.core.rubric import DEFAULT_SHARES, Rubric

from . import cases as lab_cases, model


# make_qkv ----------------------------------------------------------------------------------

def _qkv_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    return [Probe(step=step, case=case, trace=t, args=(case.X, case.W_Q, case.W_K, case.W_V), expected=(t.Q, t.K, t.V))]


@quietly
def _qkv_order(p: Probe) -> Iterator[Prediction]:
    for order in itertools.permutations(range(3)):
        if order != (0, 1, 2):
            yield tuple(p.expected[i] for i in order)


@quietly
def _same_weight(p: Probe) -> Iterator[Prediction]:
    X, *weights = p.args  # the call's own inputs: a call in another form than the case's has others
    projections = [X @ W for W in weights]
    # Shapes need not agree: with d_v ≠ d_k, V made with W_K is a (wrongly shaped) prediction too.
    for position, source in itertools.permutations(range(3), 2):
        candidate = list(projections)
        candidate[position] = projections[source]
        yield tuple(candidate)
    for source in range(3):  # one W pasted into all three
        yield (projections[source],) * 3


@quietly
def _rounded(p: Probe) -> Iterator[Prediction]:
    """Values rounded as the page prints them (1 to 3 decimals) before being returned."""
    for decimals in itertools.product((1, 2, 3), repeat=len(p.expected)):
        yield tuple(np.round(value, d) for value, d in zip(p.expected, decimals))


@quietly
def _weights_transposed(p: Probe) -> Iterator[Prediction]:
    """X @ W.T (a linear layer's habit): runs only where each W is square."""
    X, *weights = p.args
    if all(W.shape[0] == W.shape[1] for W in weights):
        yield tuple(X @ W.T for W in weights)


def _weights_transposed_error(probe: Probe) -> Iterator[tuple[str, str]]:
    X, W_Q, _, W_V = probe.args
    n, d_model = X.shape
    for W in (W_Q, W_V):
        width = W.shape[1]
        if width != d_model:
            yield "ValueError", rf"^matmul\b.*\bsize {width} is different from {d_model}\b"
            yield "ValueError", rf"shapes \({n}, ?{d_model}\) and \({width}, ?{d_model}\) not aligned"


def _stacked_weights(probe: Probe) -> Iterator[tuple[str, str]]:
    """W_Q, W_K, W_V stacked into one array: numpy refuses where d_v ≠ d_k."""
    yield "ValueError", r"all input arrays must have the same shape"
    yield "ValueError", r"inhomogeneous shape"
    yield "ValueError", r"could not broadcast input array from shape"


# scores ------------------------------------------------------------------------------------

def _scores_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    return [Probe(step=step, case=case, trace=t, args=(t.Q, t.K), expected=(t.scores,))]


def _untransposed_product(probe: Probe) -> Iterator[tuple[str, str]]:
    """numpy's own words for Q @ K (or np.dot(Q, K)) with both operands (n, d_k)."""
    n, d_k = probe.trace.Q.shape
    yield "ValueError", rf"^matmul\b.*\bsize {n} is different from {d_k}\b"
    yield "ValueError", rf"shapes \({n}, ?{d_k}\) and \({n}, ?{d_k}\) not aligned"


# softmax -----------------------------------------------------------------------------------

def _softmax_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    probes = [Probe(step=step, case=case, trace=t, args=(t.scaled,), expected=(t.weights,), label="2-D"),
              Probe(step=step, case=case, trace=t, args=(t.scaled[-1],), expected=(t.weights[-1],), label="1-D")]
    if case.name == lab_cases.FORMS_CASE and not case.hidden:
        # The docstring promises an array of scores, whatever its dtype: integers too.
        scores = lab_cases.integer_scores(t)
        forms = (
            ("int", scores),
            # Far below zero every exp underflows to 0 unless the row's own maximum is subtracted
            # (a shift of max(row, 0), or of none, gives 0/0).
            ("negative", scores - lab_cases.FAR_BELOW),
            # Each row spans 9, so its smallest weights are about 1e-4: weights rounded to a few
            # decimals, or the small ones dropped, are wrong there.
            ("small_weights", lab_cases.spanning_nine(scores)),
            # A table of one column is 2-D still: each row's one weight is 1.
            ("one_column", t.scaled[:, :1].copy()),
        )
        probes += [Probe(step=step, case=case, trace=t, args=(x,), expected=(_solution().softmax(x),), label=label)
                   for label, x in forms]
    if case.hidden and t.scaled.shape[0] > 1:
        # Every other 2-D input is square (n × n scores): a loop bound or a sum read from the
        # wrong axis is right on those alone. The docstring promises any table of scores.
        probes.append(Probe(step=step, case=case, trace=t, args=(t.scaled[:-1],), expected=(t.weights[:-1],),
                            label="fewer_rows"))
    return probes


def _solution() -> ModuleType:
    from solutions import self_attention as solution
    return solution


def _fixed_axis(probe: Probe) -> Iterator[tuple[str, str]]:
    """axis=1 written in: the single row (a 1-D input) has no second axis."""
    yield "AxisError", r"axis 1 is out of bounds for array of dimension 1"


def _unkept_dims(probe: Probe) -> Iterator[tuple[str, str]]:
    """keepdims left out: each row's max or sum, of shape (rows,), meets a table whose rows and
    columns differ (numpy cannot line them up; on a square table it silently goes down the columns)."""
    if probe.label == "fewer_rows":
        rows, columns = probe.args[0].shape
        yield "ValueError", rf"operands could not be broadcast together with shapes \({rows}, ?{columns}\) \({rows},?\)"


# mix ---------------------------------------------------------------------------------------

def _mix_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    return [Probe(step=step, case=case, trace=t, args=(t.weights, t.V), expected=(t.output,))]


def _mix_errors(probe: Probe, swapped: bool) -> Iterator[tuple[str, str]]:
    weights, V = probe.args
    n, d_v = V.shape
    if swapped:  # V @ weights
        yield "ValueError", rf"^matmul\b.*\bsize {n} is different from {d_v}\b"
        yield "ValueError", rf"shapes \({n}, ?{d_v}\) and \({n}, ?{n}\) not aligned"
    else:  # weights * V
        yield "ValueError", rf"could not be broadcast together with shapes \({n},{n}\) \({n},{d_v}\)"
        yield "ValueError", rf"could not be broadcast together with shapes \({n},{d_v}\) \({n},{n}\)"


@quietly
def _operands_swapped(p: Probe) -> Iterator[Prediction]:
    weights, V = p.args
    if V.shape[1] == weights.shape[0]:  # only then does V @ weights run instead of raising
        yield (V @ weights,)


# self_attention ----------------------------------------------------------------------------

def _attention_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    return [Probe(step=step, case=case, trace=t, args=(case.X, case.W_Q, case.W_K, case.W_V), expected=(t.output, t.weights))]


# most_attended -----------------------------------------------------------------------------

def _most_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    probes = [Probe(step=step, case=case, trace=t, args=(t.weights, list(case.words)), expected=(t.most_attended,))]
    if case.name == lab_cases.FORMS_CASE and not case.hidden:
        # Weights of whole-number scores tie within a row; idxmax, as the docstring asks, picks
        # the first of the tied words, whichever way the words themselves sort (_tied_rows).
        weights = _tied_rows(_solution().softmax(lab_cases.integer_scores(t)), case.words)
        probes.append(Probe(step=step, case=case, trace=t, args=(weights, list(case.words)),
                           expected=(_solution().most_attended(weights, list(case.words)),), label="ties"))
    return probes


def _tied_rows(weights: np.ndarray, words: Sequence[str]) -> np.ndarray:
    """`weights` with its first row tied on purpose (every word alike), and, where the first word
    sorts first or last, two more: two words whose first sorts before the second, two whose first
    sorts after it. A tie broken by the words (a max over (weight, word) pairs, sorted words)
    then picks another word than idxmax's first."""
    n = len(words)
    rows = [np.full(n, 1.0 / n)]
    if words and words[0] in (min(words), max(words)):
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
        for first_sorts_before in (True, False):
            pair = next(((a, b) for a, b in pairs if (words[a] < words[b]) == first_sorts_before), None)
            if pair is not None:
                row = np.ones(n)
                row[list(pair)] = 2.0
                rows.append(row / row.sum())
    tied = np.array(weights, dtype=float)
    for index, row in enumerate(rows[:n]):
        tied[index] = row
    return tied


def _picked(keys: Sequence[str], words: Sequence[str], columns: Iterable[object]) -> dict[str, str]:
    """Each key mapped to the word at its position in `columns` (an argmax's, as pandas' idxmax):
    the grader's side does without pandas."""
    return {key: words[int(column)] for key, column in zip(keys, columns)}  # type: ignore[call-overload]


def _most_wrong_axis(p: Probe) -> Iterator[Prediction]:
    weights, words = p.args
    if len(words) > 1:
        yield (_picked(words, words, np.asarray(weights).argmax(axis=0)),)


def _indices_not_words(p: Probe) -> Iterator[Prediction]:
    weights, words = p.args
    best = weights.argmax(axis=1)
    yield ({word: int(i) for word, i in zip(words, best)},)
    yield ({i: int(j) for i, j in enumerate(best)},)


def _keys_not_words(p: Probe) -> Iterator[Prediction]:
    # The values are the right words; only the keys are the rows' positions (a frame without its index).
    weights, words = p.args
    yield ({i: words[j] for i, j in enumerate(weights.argmax(axis=1))},)


def _argmin(p: Probe) -> Iterator[Prediction]:
    if len(p.args[1]) > 1:
        weights, words = p.args
        yield (_picked(words, words, np.asarray(weights).argmin(axis=1)),)


def _excludes_self(p: Probe) -> Iterator[Prediction]:
    """Each word's own column left out of its candidates (the diagonal masked)."""
    weights, words = p.args
    if len(words) > 1:
        masked = np.array(weights, dtype=float)
        np.fill_diagonal(masked, -np.inf)
        yield (_picked(words, words, masked.argmax(axis=1)),)


@quietly
def _uses_globals(p: Probe) -> Iterator[Prediction]:
    """self_attention computed from the notebook's page values, whatever its arguments: on every
    case it returns what the page's case gives."""
    page = _page_trace()
    yield (page.output, page.weights)


def _page_trace() -> Any:
    from . import cases, reference

    global _PAGE_TRACE
    if _PAGE_TRACE is None:
        _PAGE_TRACE = reference.trace(cases.page_case())
    return _PAGE_TRACE


_PAGE_TRACE: Any = None


# The shares of this lab's own mistakes, beside the engine's (every step without its own rubric).
SHARES = {
    **DEFAULT_SHARES,
    "unstable": 0.7,  # right formula, no max subtracted
    "global_max": 0.7,
    "rounded": 0.7,  # right values, rounded as the page prints them
    "uses_globals": 0.0,  # the page's values whatever the arguments: nothing computed from them
}
RUBRIC = Rubric(shares=SHARES)

STEPS = (
    Step(name="make_qkv", points=2, page_step=2, params=("X", "W_Q", "W_K", "W_V"),
         outputs=(Output(name="Q"), Output(name="K"), Output(name="V")),
         mistakes=(Mistake(code="qkv_order", candidates=_qkv_order),
                   Mistake(code="same_weight", candidates=_same_weight),
                   Mistake(code="rounded", candidates=_rounded),
                   Mistake(code="weights_transposed", candidates=_weights_transposed)),
         error_mistakes=(ErrorMistake(code="weights_transposed", messages=_weights_transposed_error),
                         ErrorMistake(code="stacked_weights", messages=_stacked_weights)),
         hint="make_qkv_shapes", make_probes=_qkv_probes),
    Step(name="scores", points=1, page_step=3, params=("Q", "K"),
         outputs=(Output(name="scores", columns="words"),),
         mistakes=model.SCORES.mistakes(),
         error_mistakes=(ErrorMistake(code="missing_transpose", messages=_untransposed_product),),
         hint="scores_hand", make_probes=_scores_probes),
    Step(name="softmax", points=2, page_step=4, params=("x",),
         outputs=(Output(name="weights", columns="words", rows_sum_to_one=True),),
         mistakes=model.SOFTMAX_STEP.mistakes(),
         error_mistakes=(ErrorMistake(code="fixed_axis", messages=_fixed_axis),
                         ErrorMistake(code="no_keepdims", messages=_unkept_dims)),
         hint="softmax_rows", make_probes=_softmax_probes,
         # Told by its error only: it costs the 1-D tests, as any error there does (autograder/core/rubric.py).
         rubric=Rubric(shares=SHARES)),
    Step(name="mix", points=1, page_step=5, params=("weights", "V"),
         outputs=(Output(name="output"),),
         mistakes=model.MIX.mistakes() + (Mistake(code="operands_swapped", candidates=_operands_swapped),),
         error_mistakes=(ErrorMistake(code="elementwise", messages=lambda p: _mix_errors(p, swapped=False)),
                         ErrorMistake(code="operands_swapped", messages=lambda p: _mix_errors(p, swapped=True))),
         hint="mix_row", make_probes=_mix_probes),
    Step(name="self_attention", points=3, page_step=4, params=("X", "W_Q", "W_K", "W_V"),
         outputs=(Output(name="output"), Output(name="weights", columns="words", rows_sum_to_one=True)),
         mistakes=(Mistake(code="uses_globals", candidates=_uses_globals),) + model.ATTENTION.mistakes(),
         error_mistakes=(ErrorMistake(code="missing_transpose", messages=_untransposed_product),),
         hint="self_attention_scale", make_probes=_attention_probes,
         # scores divided already, so this function does not: right together, each wrong alone.
         links=(Link(helper="scores", helper_code="scaled_early", code="missing_scale", becomes="scale_moved"),
                Link(helper="softmax", helper_code="scaled_inside", code="missing_scale",
                     becomes="scale_in_softmax")),
         rubric=Rubric(shares={**SHARES, "scale_moved": 0.8}),
         calls=("make_qkv", "scores", "softmax", "mix")),
    Step(name="most_attended", points=1, page_step=4, params=("weights", "words"),
         outputs=(Output(name="most_attended", kind="mapping"),),
         mistakes=(Mistake(code="wrong_axis", candidates=_most_wrong_axis),
                   Mistake(code="indices_not_words", candidates=_indices_not_words),
                   Mistake(code="keys_not_words", candidates=_keys_not_words),
                   Mistake(code="argmin", candidates=_argmin),
                   Mistake(code="excludes_self", candidates=_excludes_self)),
         hint="most_attended_idxmax", make_probes=_most_probes),
)

FUNCTION_NAMES = tuple(step.name for step in STEPS)
STEPS_BY_NAME = {step.name: step for step in STEPS}
TOTAL_POINTS = sum(step.points for step in STEPS)
