"""The judged result a student's results/<id>.json keeps, so that a later run rewrites their outputs
(overrides, --previous, lateness, the language) without running their code again.

One definition (`Judgement`), one format version (`FORMAT`), one writer (`judgement_data`) and one
reader (`read_judgement`), which refuses a version it does not know and any shape it cannot read:
such a student is simply graded again. Pure data in and out; outputs.py reads and writes the file.

The judged result is the verdict's typed records (autograder.core.verdict); a step's typed facts are
kept under its "detail" with the keys format 1 always had (`_step_facts_data`, `_step_facts`), so
a file written before the facts were typed is read as it was written (tests/judging/test_verdict.py).
A test's detail is one record of autograder.core.case_detail, kept as its `as_data` mapping (the keys
the judge wrote before it was typed) and read back by `case_detail_from_data`, which refuses what
it does not know.

What is kept is the judged result as the batch's outputs are rendered from it (`kept`), never more:
a hidden test keeps its code, its (already reduced, see grading.hidden.hidden_facts_only) detail and its
wrong answer's digest, which the record held before, but not `matched` or `fallback` (which other
mistakes a hidden value also equals: no output shows it); the public-only judgement
(`SubmissionResult.public`, Gradescope's "Public Tests") is shown by no batch output and is not kept.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..core.case_detail import case_detail_from_data, detail_data
from ..core.reading.problems import Detail
from ..core.repair_record import Repair
from ..core.verdict import (CaseResult, FollowsOwnHelpers, HelperUse, Note, Redefined, StepResult, SubmissionResult,
                            step_status)

if TYPE_CHECKING:
    from ..core.verdict import Rule

FORMAT = 1  # raise it whenever what is written changes; an older or newer file is then graded again
KEY = "judged"  # its place in results/<id>.json's extra_data, beside the record (outputs.RECORD_KEY)
# Tags of values JSON has no type for: {"$tuple": [...]} and so on. A dict whose keys are not all
# strings, or one key of which starts with "$", is written as {"$dict": [[key, value], ...]}.
TAG = "$"
FLOAT_NAMES = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
NUMPY_KINDS = "biuf"  # booleans, integers, floats: what a detail's arrays and numbers hold


@dataclass(frozen=True, kw_only=True)
class Judgement:
    """What grading one submission found: the judged result, its status ("graded", "broken: ...",
    ...), and the fingerprint of everything it depends on (outputs.judged_fingerprint)."""

    key: str
    status: str
    result: SubmissionResult


class Unsaveable(TypeError):
    """A value of the result the format has no way to write (the student is graded again next time)."""


class Unreadable(ValueError):
    """A saved judgement of a version or shape the reader does not know."""


def kept(result: SubmissionResult) -> SubmissionResult:
    """The part of `result` a saved judgement holds (module docstring): every output reads only it."""
    return replace(result, steps=[_kept_step(step) for step in result.steps], public=None)


def _kept_step(step: StepResult) -> StepResult:
    if not any(case.hidden and (case.matched or case.fallback is not None) for case in step.cases):
        return step
    return replace(step, cases=[replace(case, matched=[], fallback=None) if case.hidden else case
                                for case in step.cases])


# The writer ----------------------------------------------------------------------------------------

def judgement_data(judgement: Judgement) -> dict[str, Any]:
    """The judgement as JSON-ready data, in format FORMAT; raises Unsaveable."""
    result = kept(judgement.result)
    return {"format": FORMAT, "key": judgement.key, "status": judgement.status,
            "result": {"submission": result.submission, "steps": [_step_data(s) for s in result.steps],
                       "notes": [_value(note.as_data()) for note in result.notes]}}


def _step_data(step: StepResult) -> dict[str, Any]:
    return {"name": step.name, "score": _value(step.score), "max_score": _value(step.max_score),
            "status": step.status, "mistakes": list(step.mistakes), "cases": [_case_data(c) for c in step.cases],
            "page_step": step.page_step, "detail": _value(_step_facts_data(step))}


def _step_facts_data(step: StepResult) -> dict[str, Any]:
    """The step's typed facts as the format keeps them: one "detail" mapping, a key per fact
    that is there (the keys and shapes the judge wrote before its facts were typed)."""
    data: dict[str, Any] = {}
    if step.rubric is not None:
        data["rubric"] = dict(step.rubric)
    if step.ignored:
        data["ignored"] = list(step.ignored)
    if step.code_evidence is not None:
        data["code_evidence"] = {"names": list(step.code_evidence)}
    if step.explained:
        data["explained"] = list(step.explained)
    if step.argument_shapes:
        data["argument_shapes"] = {case: [text, list(differ)] for case, (text, differ) in step.argument_shapes.items()}
    if step.defined_as is not None:
        data["defined_as"] = step.defined_as
    if step.similar is not None:
        data["similar"] = step.similar
    if step.under_main:
        data["under_main"] = True
    if step.redefined is not None:
        data["redefined"] = {"graded": list(step.redefined.graded),
                             "others": [list(place) for place in step.redefined.others]}
    if step.helpers is not None:
        data.update(own_helpers=list(step.helpers.own), reference_helpers=list(step.helpers.reference),
                    unused_helpers=list(step.helpers.unused),
                    nested_reference_helpers=list(step.helpers.nested_reference))
    if step.follows_own_helpers is not None:
        data["follows_own_helpers"] = {"code": step.follows_own_helpers.code,
                                       "helpers": list(step.follows_own_helpers.helpers)}
    if step.repair is not None:
        data["repair"] = step.repair.as_data()
    if step.seconds is not None:
        data["seconds"] = step.seconds
    if step.module is not None:
        data["module"] = step.module
    if step.file_problem is not None:
        data["file_problem"] = step.file_problem
    return data


def _case_data(case: CaseResult) -> dict[str, Any]:
    return {"case": case.case, "hidden": case.hidden, "label": case.label, "passed": case.passed,
            "code": case.code, "detail": _value(detail_data(case.detail)), "matched": list(case.matched),
            "fallback": case.fallback, "answer": case.answer, "degenerate": case.degenerate,
            "raised": case.raised}


def _value(value: object) -> Any:
    """A value of a detail or a note as JSON, its exact type kept (a tuple stays a tuple, a
    numpy float64 a float64, NaN NaN); raises Unsaveable for any other type."""
    kind = type(value)
    if value is None or kind in (bool, str, int):
        return value
    if isinstance(value, float) and kind is float:
        return value if math.isfinite(value) else {TAG + "float": repr(value)}
    if isinstance(value, list) and kind is list:
        return [_value(item) for item in value]
    if isinstance(value, tuple) and kind is tuple:
        return {TAG + "tuple": [_value(item) for item in value]}
    if isinstance(value, dict) and kind is dict:
        if all(type(key) is str and not key.startswith(TAG) for key in value):
            return {key: _value(item) for key, item in value.items()}
        return {TAG + "dict": [[_value(key), _value(item)] for key, item in value.items()]}
    if isinstance(value, Detail) and kind is Detail:
        return {TAG + "detail": [value.code, [[name, _value(item)] for name, item in value.params]]}
    if isinstance(value, np.ndarray) and kind is np.ndarray:
        _numpy_kind(value.dtype)
        return {TAG + "array": [value.dtype.str, list(value.shape), [_value(item) for item in value.ravel().tolist()]]}
    if isinstance(value, np.generic):
        _numpy_kind(value.dtype)
        return {TAG + "scalar": [value.dtype.str, _value(value.item())]}
    raise Unsaveable(f"a {kind.__name__} in a judged result")


def _numpy_kind(dtype: np.dtype[Any]) -> None:
    if dtype.kind not in NUMPY_KINDS or dtype.itemsize > 8:  # a long double's items are no Python float
        raise Unsaveable(f"numpy {dtype}")


# The reader ----------------------------------------------------------------------------------------

def read_judgement(data: object, *, steps: list[str]) -> Judgement | None:
    """The judgement `judgement_data` wrote, or None: another format version, any shape it cannot
    read, or steps other than `steps` (the lab's, in order)."""
    try:
        judgement = _judgement(data)
    except Exception:  # any shape at all: the student is graded again
        return None
    return judgement if [s.name for s in judgement.result.steps] == steps else None


def _judgement(data: object) -> Judgement:
    fields: dict[str, Any] = _of(data, dict)
    if type(fields.get("format")) is not int or fields["format"] != FORMAT:
        raise Unreadable(f"format {fields.get('format')!r}, not {FORMAT}")
    result: dict[str, Any] = _of(fields["result"], dict)
    return Judgement(key=_of(fields["key"], str), status=_of(fields["status"], str),
                     result=SubmissionResult(submission=_of(result["submission"], str),
                                             steps=[_step(s) for s in _of(result["steps"], list)],
                                             notes=[Note.from_data(_read(n)) for n in _of(result["notes"], list)]))


def _step(data: object) -> StepResult:
    step: dict[str, Any] = _of(data, dict)
    return StepResult(name=_of(step["name"], str), score=_number(_read(step["score"])),
                      max_score=_number(_read(step["max_score"])), status=step_status(_of(step["status"], str)),
                      mistakes=_texts(step["mistakes"]), cases=[_case(c) for c in _of(step["cases"], list)],
                      page_step=_of(step["page_step"], int), **_step_facts(_of(_read(step["detail"]), dict)))


HELPER_KEYS = ("own_helpers", "reference_helpers", "unused_helpers", "nested_reference_helpers")
STEP_FACT_KEYS = frozenset({"rubric", "ignored", "code_evidence", "explained", "argument_shapes", "defined_as",
                            "similar", "under_main", "redefined", *HELPER_KEYS, "follows_own_helpers", "seconds",
                            "module", "file_problem", "repair"})


def _step_facts(detail: dict[str, Any]) -> dict[str, Any]:
    """The step's typed facts from the "detail" mapping `_step_facts_data` wrote (a file of this
    format written before the facts were typed holds the same keys); Unreadable for any other key."""
    unknown = set(detail) - STEP_FACT_KEYS
    if unknown:
        raise Unreadable(f"step facts {sorted(map(repr, unknown))}")
    facts: dict[str, Any] = {}
    if "rubric" in detail:
        rule: dict[str, Any] = _of(detail["rubric"], dict)
        facts["rubric"] = cast("Rule", rule)
    if "ignored" in detail:
        facts["ignored"] = tuple(_texts(detail["ignored"]))
    if "code_evidence" in detail:
        facts["code_evidence"] = tuple(_texts(_of(detail["code_evidence"], dict).get("names", [])))
    if "explained" in detail:
        facts["explained"] = tuple(_of(item, dict) for item in _of(detail["explained"], list))
    if "argument_shapes" in detail:
        facts["argument_shapes"] = {_of(case, str): (_of(text, str), tuple(_texts(differ)))
                                    for case, (text, differ) in ((case, _sequence_pair(shapes)) for case, shapes
                                                                 in _of(detail["argument_shapes"], dict).items())}
    for key in ("defined_as", "similar", "module", "file_problem"):
        if key in detail:
            facts[key] = _of(detail[key], str)
    if "under_main" in detail:
        facts["under_main"] = _of(detail["under_main"], bool)
    if "repair" in detail:
        try:
            facts["repair"] = Repair.from_data(detail["repair"])
        except ValueError as error:
            raise Unreadable(str(error)) from None
    if "redefined" in detail:
        found: dict[str, Any] = _of(detail["redefined"], dict)
        facts["redefined"] = Redefined(graded=_place(found["graded"]),
                                       others=tuple(_place(place) for place in _of(found["others"], list)))
    if any(key in detail for key in HELPER_KEYS):
        own, reference, unused, nested = (tuple(_texts(detail.get(key, []))) for key in HELPER_KEYS)
        facts["helpers"] = HelperUse(own=own, reference=reference, unused=unused, nested_reference=nested)
    if "follows_own_helpers" in detail:
        follows: dict[str, Any] = _of(detail["follows_own_helpers"], dict)
        facts["follows_own_helpers"] = FollowsOwnHelpers(code=_of(follows["code"], str),
                                                         helpers=tuple(_texts(follows["helpers"])))
    if "seconds" in detail:
        facts["seconds"] = _number(detail["seconds"])
    return facts


def _sequence_pair(data: object) -> tuple[Any, Any]:
    """A pair kept as a list or a tuple (a file of this format may hold either)."""
    return _pair(list(data) if type(data) is tuple else data)


def _place(data: object) -> tuple[str, int]:
    name, line = _sequence_pair(data)
    return _of(name, str), _of(line, int)


def _case(data: object) -> CaseResult:
    case: dict[str, Any] = _of(data, dict)
    hidden: bool = _of(case["hidden"], bool)
    try:
        detail = case_detail_from_data(_read(case["detail"]), hidden=hidden)
    except ValueError as error:
        raise Unreadable(f"a test's detail: {error}") from None
    return CaseResult(case=_of(case["case"], str), hidden=hidden, label=_of(case["label"], str),
                      passed=_of(case["passed"], bool), code=_optional_text(case["code"]),
                      detail=detail, matched=_texts(case["matched"]),
                      fallback=_optional_text(case["fallback"]), answer=_optional_text(case["answer"]),
                      degenerate=_of(case["degenerate"], bool), raised=_of(case["raised"], bool))


def _read(data: object) -> Any:
    """The value `_value` wrote."""
    kind = type(data)
    if data is None or kind in (bool, str, int, float):
        return data
    if isinstance(data, list) and kind is list:
        return [_read(item) for item in data]
    mapping = _of(data, dict)
    tags = [key for key in mapping if key.startswith(TAG)]
    if not tags:
        return {key: _read(value) for key, value in mapping.items()}
    if len(mapping) != 1:
        raise Unreadable("a tag beside other keys")
    tag, body = tags[0][len(TAG):], mapping[tags[0]]
    if tag == "float":
        return FLOAT_NAMES[_of(body, str)]
    if tag == "tuple":
        return tuple(_read(item) for item in _of(body, list))
    if tag == "dict":
        return {_read(key): _read(value) for key, value in (_pair(item) for item in _of(body, list))}
    if tag == "detail":
        code, params = _pair(body)
        return Detail(_of(code, str), tuple((_of(name, str), _read(value))
                                            for name, value in (_pair(p) for p in _of(params, list))))
    if tag == "array":
        dtype, shape, items = _of(body, list)
        kind_of = _dtype(dtype)
        sizes = tuple(_of(size, int) for size in _of(shape, list))
        return np.array([_read(item) for item in _of(items, list)], dtype=kind_of).reshape(sizes)
    if tag == "scalar":
        dtype, value = _pair(body)
        return _dtype(dtype).type(_read(value))
    raise Unreadable(f"tag {tag!r}")


def _dtype(text: object) -> np.dtype[Any]:
    dtype: np.dtype[Any] = np.dtype(_of(text, str))
    _numpy_kind(dtype)
    return dtype


def _pair(data: object) -> tuple[Any, Any]:
    items = _of(data, list)
    if len(items) != 2:
        raise Unreadable("not a pair")
    return items[0], items[1]


def _of(data: Any, kind: type[Any]) -> Any:
    """`data` when its type is exactly `kind` (JSON's own), else Unreadable."""
    if type(data) is not kind:
        raise Unreadable(f"{type(data).__name__}, not {kind.__name__}")
    return data


def _number(data: object) -> float:
    """A score as `_read` gives it back: an int, a float or a numpy number (never a bool)."""
    if isinstance(data, (int, float, np.integer, np.floating)) and not isinstance(data, (bool, np.bool_)):
        return data  # type: ignore[return-value]  # the type the judge gave it, kept
    raise Unreadable(f"{type(data).__name__}, not a number")


def _optional_text(data: object) -> str | None:
    if data is None:
        return None
    text: str = _of(data, str)
    return text


def _texts(data: object) -> list[str]:
    return [_of(item, str) for item in _of(data, list)]
