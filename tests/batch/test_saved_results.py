"""The judged result a student's results/<id>.json keeps (autograder/batch/saved.py).

- One writer and one reader: what the reader gives back is exactly what was kept, every value of
  the same type (a tuple a tuple, NaN NaN, a numpy float32 a float32), over generated results.
- The reader refuses a format version it does not know and any shape it cannot read (None: the
  student is graded again), and never raises on anything a file may hold.
- Outputs rewritten from a saved result are byte for byte those of a fresh grading (a sample of
  the corpora here; every file of them in tests/batch/slow/test_saved_results_corpora.py).
- A saved result holds nothing the outputs do not show: a hidden test's `matched` and `fallback`
  and the public-only judgement are not kept (tests/judging/test_stand_ins.py searches the saved file for
  the hidden values themselves).
"""
import contextlib
import dataclasses
import hashlib
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.batch import saved
from autograder.batch.grader import grade_task
from autograder.batch.outputs import load_earlier, record_of, write_outputs
from autograder.batch.saved import FORMAT, Judgement, Unsaveable, judgement_data, kept, read_judgement
from autograder.grading import grade_file
from autograder.core.verdict import (LOAD_CODES, NOTE_CODES, CaseResult, FollowsOwnHelpers, HelperUse, Note, Redefined,
                                     StepResult, SubmissionResult)
from autograder.core.file_facts import broken
from autograder.core.render.text import json_text
from autograder.sandbox.runner import Limits
from autograder.core.reading.problems import detail
from conftest import CORPORA, ROOT
from test_case_detail import case_details
from labs.self_attention import LAB

STEPS = [step.name for step in LAB.steps]
LIMITS = Limits(step_seconds=3.0, load_seconds=3.0)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# Exact sameness: equal values of the same types, all the way down ------------------------------------

def same(a, b):
    """`a` and `b` are equal and of the same type at every level (NaN equals NaN, -0.0 is not 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and all(
            same(x, y) for x, y in zip(a.ravel().tolist(), b.ravel().tolist()))
    if isinstance(a, (float, np.floating)):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a) and all(same(x, y) for x, y in zip(a, b))
    if dataclasses.is_dataclass(a):  # the verdict's records, a test's detail and its parts
        return all(same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)
    return a == b


# Generated results -----------------------------------------------------------------------------------

texts = st.text(max_size=8) | st.sampled_from(["나는", "$tuple", "$", "\x1b[31m", "\u202e", "values", ""])
numbers = (st.integers() | st.integers(min_value=2**63, max_value=10**40)
           | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([-0.0, 0.0, 1e-300, 1e308]))
dtypes = st.sampled_from(["<f8", "<f4", "<f2", "<i8", "<i4", "|i1", "<u2", "|b1"])


@st.composite
def arrays(draw):
    shape = tuple(draw(st.lists(st.integers(0, 4), max_size=3)))
    raw = draw(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=16), min_size=int(np.prod(shape)),
                        max_size=int(np.prod(shape))))
    with np.errstate(all="ignore"):
        return np.array(raw, dtype=float).reshape(shape).astype(draw(dtypes))


@st.composite
def numpy_scalars(draw):
    array = draw(arrays())
    return array.ravel()[0] if array.size else array.dtype.type(0)


scalars = st.none() | st.booleans() | numbers | texts
keys = texts | st.integers() | st.tuples(st.integers(), st.integers()) | st.booleans() | st.none()
details = st.builds(lambda size: detail("size", size=size), st.integers(0, 10**9)) \
    | st.builds(lambda name: detail("filename", filename=name), texts)
values = st.recursive(scalars | arrays() | numpy_scalars() | details,
                      lambda inner: st.lists(inner, max_size=3) | st.lists(inner, max_size=3).map(tuple)
                      | st.dictionaries(texts, inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
                      max_leaves=12)
codes = st.none() | st.sampled_from(["wrong_values", "transposed", "exception", "timeout", "no_scaling"])


@st.composite
def cases(draw):
    hidden = draw(st.booleans())
    return CaseResult(case=draw(texts), hidden=hidden, label=draw(texts), passed=draw(st.booleans()),
                      code=draw(codes), detail=draw(case_details(hidden)), matched=draw(st.lists(texts, max_size=2)),
                      fallback=draw(codes),
                      answer=draw(st.none() | st.text(alphabet="0123456789abcdef", min_size=16, max_size=16)),
                      degenerate=draw(st.booleans()), raised=draw(st.booleans()))


names = st.lists(texts, max_size=3).map(tuple)
rules = st.fixed_dictionaries({"rule": st.sampled_from(["cases", "mistake", "fitted", "passed"])},
                              optional={"passed": st.integers(0, 9), "total": st.integers(0, 9),
                                        "code": texts, "percent": st.integers(0, 100), "unanswered": st.booleans()})
places = st.tuples(texts, st.integers(0, 99))


@st.composite
def step_facts(draw):
    """Every typed fact of a step (verdict.StepResult), each there or not."""
    facts = {"rubric": st.none() | rules, "ignored": names, "code_evidence": st.none() | names,
             "explained": st.lists(st.dictionaries(texts, values, max_size=3), max_size=2).map(tuple),
             "argument_shapes": st.dictionaries(texts, st.tuples(texts, names), max_size=2),
             "defined_as": st.none() | texts, "similar": st.none() | texts, "under_main": st.booleans(),
             "redefined": st.none() | st.builds(Redefined, graded=places, others=st.lists(places, max_size=2).map(tuple)),
             "helpers": st.none() | st.builds(HelperUse, own=names, reference=names, unused=names,
                                              nested_reference=names),
             "follows_own_helpers": st.none() | st.builds(FollowsOwnHelpers, code=texts, helpers=names),
             "seconds": st.none() | st.floats(0, 60) | st.integers(0, 60),
             "module": st.none() | texts, "file_problem": st.none() | texts}
    return {key: draw(strategy) for key, strategy in facts.items()}


@st.composite
def notes(draw):
    """A note of any code, with any of the fields that code carries."""
    code = draw(st.sampled_from(NOTE_CODES))
    if code == "problem":
        return Note(code=code, problem=draw(texts), detail=draw(st.none() | details))
    if code == "time_spent":
        return Note(code=code, seconds=draw(st.floats(0, 600) | st.integers(0, 600)))
    if code == "other_lab":
        return Note(code=code, lab=draw(texts), titles=tuple(draw(st.dictionaries(texts, texts, max_size=2)).items()),
                    declared=draw(st.booleans()), found=tuple(draw(st.lists(texts, max_size=3))))
    placed = draw(st.booleans())
    return Note(code=code, filename=draw(texts) if placed else None, cell=draw(st.integers(0, 99)) if placed else None,
                line=draw(st.none() | st.integers(0, 10**6)), type=draw(st.none() | texts),
                message=draw(st.none() | texts))


@st.composite
def results(draw):
    steps = [StepResult(name=name, score=draw(st.floats(0, 3) | st.integers(0, 3)),
                        max_score=draw(st.sampled_from([2, 2.0, 1.5])),
                        status=draw(st.sampled_from(["passed", "failed", "error", "timeout", "missing"])),
                        mistakes=draw(st.lists(texts, max_size=2)), cases=draw(st.lists(cases(), max_size=3)),
                        page_step=draw(st.integers(0, 9)), **draw(step_facts())) for name in STEPS]
    public = draw(st.none() | st.just(steps[:2]))
    return SubmissionResult(submission=draw(texts), steps=steps,
                            notes=draw(st.lists(notes(), max_size=3)), public=public)


def through_a_file(judgement):
    """The judgement written as results/<id>.json writes it, and read back."""
    return read_judgement(json.loads(json_text(judgement_data(judgement))), steps=STEPS)


@FUZZ
@given(results(), st.text(max_size=20))
def test_the_reader_gives_back_exactly_what_the_writer_kept(result, status):
    back = through_a_file(Judgement(key="k" * 64, status=status, result=result))
    assert back is not None
    assert same(back, Judgement(key="k" * 64, status=status, result=kept(result)))


@FUZZ
@given(results())
def test_what_is_kept_drops_only_what_no_output_shows(result):
    part = kept(result)
    assert part.public is None
    for before, after in zip(result.steps, part.steps):
        assert same(dataclasses.replace(before, cases=[]), dataclasses.replace(after, cases=[]))
        for one, other in zip(before.cases, after.cases):
            expected = one if not one.hidden else dataclasses.replace(one, matched=[], fallback=None)
            assert same(other, expected)


# The reader refuses what it does not know ------------------------------------------------------------

def a_saved(result=None):
    result = result or broken(LAB, "kim.py", "empty")
    return judgement_data(Judgement(key="key", status="broken: empty", result=result))


@pytest.mark.parametrize("version", [0, FORMAT + 1, str(FORMAT), float(FORMAT), None, True])
def test_a_format_version_the_reader_does_not_know_is_refused(version):
    data = a_saved()
    assert read_judgement(data, steps=STEPS) is not None
    assert read_judgement({**data, "format": version}, steps=STEPS) is None
    assert read_judgement({k: v for k, v in data.items() if k != "format"}, steps=STEPS) is None


def test_steps_other_than_the_labs_are_refused():
    assert read_judgement(a_saved(), steps=STEPS[:-1]) is None
    assert read_judgement(a_saved(), steps=list(reversed(STEPS))) is None


@st.composite
def damaged(draw):
    """A saved judgement with one node anywhere replaced by another JSON value, or removed."""
    data = json.loads(json_text(a_saved()))
    paths = []

    def walk(node, path):
        paths.append(path)
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in children:
            walk(child, path + [key])
    walk(data, [])
    path = draw(st.sampled_from(paths[1:]))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    junk = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
                        | st.sampled_from(["$tuple", "$array", "$float", "$detail", "$scalar", "nan", "<f8"]),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                            st.sampled_from(["$tuple", "$dict", "$array", "$scalar", "$float", "$x", "a"]),
                            inner, max_size=2), max_leaves=6)
    if draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(junk)
    return data


@FUZZ
@given(damaged())
def test_any_damaged_file_is_read_or_refused_never_raised(data):
    back = read_judgement(data, steps=STEPS)
    assert back is None or isinstance(back, Judgement)


@pytest.mark.parametrize("value", [object(), {1, 2}, b"bytes", np.array(["a"]), np.array([1 + 2j]),
                                   np.longdouble(1), np.array([object()], dtype=object)])
def test_a_value_the_format_cannot_write_saves_no_judgement_and_the_outputs_are_written(value, tmp_path):
    result = broken(LAB, "kim.py", "empty")
    odd = dataclasses.replace(result, steps=[dataclasses.replace(s, explained=({"odd": value},))
                                             for s in result.steps])
    with pytest.raises(Unsaveable):
        judgement_data(Judgement(key="k", status="graded", result=odd))
    record = record_of(odd, "kim", "kim.py", "key", [], "broken: empty", LAB)
    for name in ("feedback", "results"):
        (tmp_path / name).mkdir()
    write_outputs(str(tmp_path), odd, record, LAB, "ko", Judgement(key="k", status="broken: empty", result=odd))
    earlier = load_earlier(str(tmp_path), "kim", LAB)
    assert earlier.record is not None and earlier.judgement is None  # written, and graded again when needed


# Outputs rewritten from a saved result are those of a fresh grading ------------------------------------

def corpus_files():
    files = sorted(p for folder in sorted(ROOT.glob("tests/corpora/corpus*")) for p in folder.rglob("*")
                   if p.suffix in (".py", ".ipynb"))
    files += sorted(p for p in (CORPORA / "hostile").iterdir() if p.suffix in (".py", ".ipynb"))
    return files


def lab_of(path):
    from autograder.registry import load

    masked = any("masked" in part for part in path.parent.parts[-2:]) or path.parent.name == "lab2" \
        or "lab2__" in path.name  # a blind set's
    return load("masked_attention" if masked else "self_attention")


def outputs_of(folder):
    return {path.relative_to(folder): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


LATE = {"late": True, "days": 2, "percent": 20.0, "submitted_at": "2024-03-03T10:00:00+09:00",
        "due": "2024-03-01T23:59:00+09:00", "flagged_only": False,
        "policy": {"percent": 10.0, "per_day": True, "cap": 50.0, "text": "10%/day"}}


def check_rewritten_equal_fresh(path, zygote, plans, tmp_path, late=LATE, result=None):
    """Grade `path` (or take `result`, its grading by a test that grades it anyway) and write its
    outputs (an override of its second step, lateness); read the judged result back from its
    results file and write them again from it, elsewhere: the same bytes in every file, in both
    languages."""
    lab = lab_of(path)
    result = result or grade_file(path, zygote, plans[lab.name], LIMITS)
    with fingerprints_read_once():
        _rewrite_both_languages(path, result, lab, tmp_path, late)


def _rewrite_both_languages(path, result, lab, tmp_path, late):
    overrides = [{"line": 2, "step": lab.steps[1].name, "points": 0.5, "comment": "부분 점수", "by": "김조교",
                  "written_against": None}]
    task = {"student": "s1", "file": path.name, "data": path.read_bytes(), "overrides": overrides,
            "previous": None, "judged": "judged-key", "key": "key", "superseded": ["old.py"], "late": late}
    for lang in ("ko", "en"):
        fresh, again = tmp_path / f"fresh-{lang}", tmp_path / f"again-{lang}"
        written = finish(task, result, "graded", fresh, lab, lang)
        judgement = load_earlier(str(fresh), "s1", lab).judgement
        assert judgement is not None and judgement.key == "judged-key", path
        assert finish({**task, "saved": judgement}, *grade_task({**task, "saved": judgement}, None, None, None),
                      again, lab, lang) == written
        assert outputs_of(again) == outputs_of(fresh), path


@contextlib.contextmanager
def fingerprints_read_once():
    """The four writes of one file (fresh and again, in two languages) read its code's
    fingerprints once: the same pure function of the same bytes, so what is compared is unchanged
    (they were most of this check's time)."""
    from autograder.batch import fingerprints

    original = fingerprints.code_prints
    made = {}

    def once(name, data, function_names):
        key = (name, hashlib.sha256(data).digest() if isinstance(data, (bytes, bytearray)) else repr(data),
               tuple(function_names))
        if key not in made:
            made[key] = json.dumps(original(name, data, function_names))
        return json.loads(made[key])

    fingerprints.code_prints = once
    try:
        yield
    finally:
        fingerprints.code_prints = original


def finish(task, result, status, folder, lab, lang):
    """The batch's own: the record with overrides and lateness, and every output written."""
    from autograder.batch.grader import finish as batch_finish

    for name in ("feedback", "results"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    record = batch_finish(task, result, status, str(folder), lab, lang)
    assert not record["status"].startswith("error"), record["status"]
    return record


@pytest.fixture(scope="module")
def plans():
    from autograder.grading.plan import Plan
    from autograder.registry import lab_names, load

    return {name: Plan.build(load(name)) for name in lab_names()}


SAMPLE = [p for p in corpus_files() if p.name in {
    "mix__crashed__exit.py", "make_qkv__hardcoded__printed_tables.py", "leak__hidden_values_through_the_stand_ins.py",
    "display__fence_html_and_ansi_in_message.py", "attack__notebook_nested_json.ipynb", "hang__infinite_loop_in_softmax.py"}]


@pytest.mark.parametrize("path", SAMPLE + [p for p in corpus_files() if "corpus_masked" in str(p)][:2],
                         ids=lambda p: p.name)
def test_outputs_written_from_the_saved_result_equal_a_fresh_gradings(path, zygote, plans, tmp_path):
    check_rewritten_equal_fresh(path, zygote, plans, tmp_path)


# A note: one record, its saved mapping exactly that of format 1 ------------------------------------------

@FUZZ
@given(notes())
def test_a_note_reads_back_from_its_saved_mapping_as_it_was(note):
    data = note.as_data()
    assert list(data)[0] == "code" and data["code"] == note.code
    assert same(Note.from_data(data), note)


FORMAT1_NOTES = [  # as results/<id>.json held them before notes were records, key order included
    {"code": "syntax_error", "filename": "broken__syntax_error.py", "cell": 1, "line": 4, "message": "expected ':'"},
    {"code": "load_error", "filename": "<cell 3>", "cell": 3, "line": 2, "type": "ModuleNotFoundError",
     "message": "No module named 'torch'"},
    {"code": "load_timeout", "filename": "a.py", "cell": 0, "line": 9},
    {"code": "load_crash", "line": None},
    {"code": "sandbox_failed", "line": None},
    {"code": "problem", "problem": "empty", "detail": None},
    {"code": "problem", "problem": "too_large", "detail": detail("size_over", most=10)},
    {"code": "time_spent", "seconds": 62.0},
    {"code": "other_lab", "lab": "masked_attention", "titles": {"ko": "마스킹", "en": "Masked"}, "declared": True,
     "found": ["causal_mask"]},
]


@pytest.mark.parametrize("data", FORMAT1_NOTES, ids=lambda data: data["code"])
def test_a_note_saved_before_notes_were_records_is_written_again_the_same(data):
    assert json.dumps(Note.from_data(data).as_data(), default=repr) == json.dumps(data, default=repr)


@pytest.mark.parametrize("data", [
    None, [], {}, {"code": "garbled", "line": 1}, {"code": "problem", "problem": "empty"},
    {"code": "problem", "problem": "empty", "detail": "as text"},
    {"code": "problem", "problem": "empty", "detail": None, "extra": 1},
    {"code": "time_spent", "seconds": True}, {"code": "time_spent", "seconds": "1"},
    {"code": "other_lab", "lab": "x", "titles": {"ko": 1}, "declared": False, "found": []},
    {"code": "other_lab", "lab": "x", "titles": {}, "declared": 0, "found": []},
    {"code": "syntax_error"}, {"code": "syntax_error", "line": "4"}, {"code": "syntax_error", "line": True},
    {"code": "syntax_error", "cell": 1, "line": 4}, {"code": "syntax_error", "filename": "a.py", "line": 4},
    {"code": "load_error", "line": 4, "type": None}, {"code": "load_error", "line": 4, "message": 3},
    {"code": "load_error", "line": 4, "frames": []},
], ids=repr)
def test_a_note_the_reader_does_not_know_is_refused(data):
    with pytest.raises(ValueError):
        Note.from_data(data)
    saved_data = a_saved()
    saved_data["result"]["notes"] = [data]
    assert read_judgement(saved_data, steps=STEPS) is None


def test_every_load_code_is_a_note_code():
    assert set(LOAD_CODES) < set(NOTE_CODES)
