"""Judging: plain outcomes of calls in, verdict data out. No I/O, no language, no formatting."""
from dataclasses import dataclass, field

import numpy as np

from .sandbox.codec import Labelled

RTOL = 1e-4  # loose enough for float32 work, tight enough for every mistake in the catalog
ATOL = 1e-6
PREVIEW = 6  # rows and columns shown of an array at most


@dataclass
class CaseResult:
    case: str
    hidden: bool
    label: str
    passed: bool
    code: str = None  # the mistake code when it failed
    detail: dict = field(default_factory=dict)  # numbers and labels for the message


@dataclass
class StepResult:
    name: str
    score: float
    max_score: float
    status: str  # passed | failed | error | timeout | missing | not_implemented
    mistakes: list
    cases: list
    page_step: int = 0
    detail: dict = field(default_factory=dict)


@dataclass
class SubmissionResult:
    submission: str
    steps: list
    notes: list = field(default_factory=list)  # load problems: [{"code": ..., ...}]

    @property
    def score(self):
        return round(sum(s.score for s in self.steps), 2)

    @property
    def max_score(self):
        return sum(s.max_score for s in self.steps)

    @property
    def all_passed(self):
        return all(s.status == "passed" for s in self.steps)


def judge_step(step, probes, outcomes, defined, is_stub, syntax_suspect=False):
    """Verdict for one step from its probes and what each call did (None: never called)."""
    if defined != "function":
        mistakes = ["missing"] + (["syntax_error"] if syntax_suspect else [])
        cases = [CaseResult(p.case.name, p.case.hidden, p.label, False, "missing") for p in probes]
        return StepResult(step.name, 0.0, step.points, "missing", mistakes, cases, step.page_step,
                          {"defined_as": defined})
    cases = [judge_call(p, o, is_stub) for p, o in zip(probes, outcomes)]
    _mark_hardcoded(cases)
    per_case = {}
    for result in cases:
        per_case[result.case] = per_case.get(result.case, True) and result.passed
    score = round(step.points * sum(per_case.values()) / len(per_case), 2)
    mistakes = []
    for result in sorted(cases, key=lambda r: r.hidden):
        if result.code and result.code != "not_run" and result.code not in mistakes:
            mistakes.append(result.code)
    return StepResult(step.name, score, step.points, _status(cases), mistakes, cases, step.page_step)


def _status(cases):
    codes = {c.code for c in cases if not c.passed}
    if not codes:
        return "passed"
    if "timeout" in codes:
        return "timeout"
    if codes & {"exception", "crashed", "missing_transpose"}:
        return "error"
    if codes == {"not_implemented"} or codes == {"not_implemented", "not_run"}:
        return "not_implemented"
    return "failed"


def _mark_hardcoded(cases):
    """Right on the page's case, wrong elsewhere with no better explanation: answers fit to the page."""
    page = [c for c in cases if c.case == "page"]
    if page and all(c.passed for c in page):
        for c in cases:
            if c.case != "page" and c.code in ("wrong_values", "wrong_shape"):
                c.code = "hardcoded"


def judge_call(probe, outcome, is_stub):
    base = dict(case=probe.case.name, hidden=probe.case.hidden, label=probe.label)
    if outcome is None or outcome.kind == "not_run":
        return CaseResult(**base, passed=False, code="not_run")
    if outcome.kind in ("timeout", "crashed"):
        return CaseResult(**base, passed=False, code=outcome.kind)
    if outcome.kind == "raised":
        return CaseResult(**base, passed=False, code=_code_for_error(probe, outcome.error),
                          detail={"error": outcome.error})
    if outcome.value is None and is_stub:
        return CaseResult(**base, passed=False, code="not_implemented")
    passed, code, detail = check_value(probe, outcome.value)
    if passed:
        mutated = _mutated_argument(probe, outcome.args_after)
        if mutated is not None:
            return CaseResult(**base, passed=False, code="mutates_input", detail={"argument": mutated})
        return CaseResult(**base, passed=True)
    return CaseResult(**base, passed=False, code=code, detail=detail)


def _code_for_error(probe, error):
    if error["type"] == "NotImplementedError":
        return "not_implemented"
    if (probe.step.name == "scores" and error["type"] == "ValueError"
            and ("matmul" in error["message"] or "aligned" in error["message"])):
        return "missing_transpose"
    return "exception"


def check_value(probe, value):
    """Layers: type → shape → finite → values; then named mistakes explain any failure."""
    outputs = probe.step.outputs
    if len(outputs) > 1:
        if not isinstance(value, (tuple, list)) or len(value) != len(outputs):
            return False, "wrong_type", {"got": describe_type(value), "expected_count": len(outputs),
                                         "names": [o.name for o in outputs]}
        values = list(value)
    else:
        values = [value]
    failures = []
    for output, got, expected in zip(outputs, values, probe.expected):
        check = check_mapping if output.kind == "mapping" else check_array
        ok, code, detail = check(probe, output, got, expected)
        if not ok:
            failures.append((code, dict(detail, output=output.name)))
    if not failures:
        return True, None, {}
    for mistake in probe.step.mistakes:
        for candidate in mistake.candidates(probe):
            if _matches(outputs, values, candidate):
                return False, mistake.code, failures[0][1]
    code, detail = failures[0]
    return False, code, detail


def describe_type(value):
    if isinstance(value, Labelled):
        return value.kind
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        return f"ndarray of {value.dtype}"
    return getattr(value, "type_name", type(value).__name__)


def as_array(value):
    """A float array for array-like values; None when the value is not array-like."""
    if isinstance(value, Labelled):
        value = value.values
    if isinstance(value, np.ndarray):
        return value.astype(float) if value.dtype.kind in "biuf" else None
    if isinstance(value, (list, tuple, int, float)) and not isinstance(value, bool):
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            return None
        return array
    return None


def check_array(probe, output, got, expected):
    array = as_array(got)
    if array is None:
        detail = {"got": describe_type(got)}
        if got is None:
            detail["no_return"] = True
        return False, "wrong_type", detail
    if array.shape != expected.shape:
        if array.T.shape == expected.shape and _close(array.T, expected):
            return False, "transposed", {"got_shape": array.shape, "expected_shape": expected.shape}
        return False, "wrong_shape", {"got_shape": array.shape, "expected_shape": expected.shape}
    finite = np.isfinite(array)
    if not finite.all() and np.isfinite(expected).all():
        bad = np.argwhere(~finite)
        return False, "not_finite", {"count": int(bad.shape[0]), "total": int(array.size),
                                     "where": _cell(probe, output, tuple(bad[0]))}
    if not _close(array, expected):
        return False, "wrong_values", _mismatch(probe, output, array, expected)
    return True, None, {}


def _close(a, b):
    with np.errstate(all="ignore"):
        return bool(np.allclose(a, b, rtol=RTOL, atol=_atol(b), equal_nan=True))


def _atol(expected):
    finite = np.abs(expected[np.isfinite(expected)]) if np.size(expected) else np.zeros(1)
    return ATOL * max(1.0, float(finite.max()) if finite.size else 1.0)


def _mismatch(probe, output, got, expected):
    """The numbers a message needs, in assert_allclose's order: how many, how badly, which cell."""
    with np.errstate(all="ignore"):
        difference = np.abs(got - expected)
        bad = ~np.isclose(got, expected, rtol=RTOL, atol=_atol(expected))
    worst = np.unravel_index(int(np.nanargmax(np.where(bad, difference, -1))), got.shape) if got.ndim else ()
    detail = {
        "rtol": RTOL, "atol": _atol(expected), "shape": got.shape,
        "mismatched": int(bad.sum()), "total": int(got.size),
        "max_abs": float(np.nanmax(difference)),
        "cell": _cell(probe, output, worst),
        "got_value": float(got[worst]), "expected_value": float(expected[worst]),
        "got_preview": preview(got), "expected_preview": preview(expected),
    }
    if output.rows_sum_to_one:
        detail["row_sums"] = preview(got.sum(axis=-1))
    return detail


def _cell(probe, output, index):
    """Name a cell by its words: rows are always words; columns are words for the n×n tables."""
    words = list(probe.case.words)
    index = tuple(int(i) for i in index)
    if len(index) == 2:
        row, column = index
        return {"row": words[row] if row < len(words) else str(row),
                "column": words[column] if output.columns == "words" and column < len(words) else column,
                "column_is_word": output.columns == "words", "index": list(index)}
    if len(index) == 1:
        only = index[0]
        label = words[only] if output.columns == "words" and only < len(words) else only
        return {"row": None, "column": label, "column_is_word": output.columns == "words",
                "index": [only]}
    return {"row": None, "column": None, "column_is_word": False, "index": []}


def preview(array):
    return np.array2string(np.asarray(array, dtype=float), precision=3, suppress_small=True,
                           threshold=PREVIEW * PREVIEW, edgeitems=PREVIEW // 2,
                           max_line_width=100)


def _as_mapping(value):
    if isinstance(value, Labelled) and value.kind == "Series":
        return dict(zip(value.index, np.asarray(value.values).tolist()))
    return value if isinstance(value, dict) else None


def _normal(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def check_mapping(probe, output, got, expected):
    mapping = _as_mapping(got)
    if mapping is None:
        return False, "wrong_type", {"got": describe_type(got), "no_return": got is None}
    normal = {_normal(k): _normal(v) for k, v in mapping.items()}
    if normal == expected:
        return True, None, {}
    wrong = [(k, normal.get(k), v) for k, v in expected.items() if normal.get(k) != v]
    return False, "wrong_values", {"mismatched": len(wrong), "total": len(expected),
                                   "first": [str(x) for x in wrong[0]] if wrong else None,
                                   "extra_keys": [str(k) for k in normal if k not in expected][:5]}


def _matches(outputs, values, candidate):
    if len(candidate) != len(values):
        return False
    for output, got, want in zip(outputs, values, candidate):
        if output.kind == "mapping":
            mapping = _as_mapping(got)
            if mapping is None or {_normal(k): _normal(v) for k, v in mapping.items()} != want:
                return False
            continue
        array = as_array(got)
        want = np.asarray(want, dtype=float)
        if array is None or array.shape != want.shape or not _close(array, want):
            return False
    return True


def _mutated_argument(probe, args_after):
    for name, before, after in zip(probe.step.params, probe.args, args_after or []):
        if isinstance(before, np.ndarray):
            after = as_array(after)
            if after is None or after.shape != before.shape or not np.array_equal(after, before, equal_nan=True):
                return name
    return None
