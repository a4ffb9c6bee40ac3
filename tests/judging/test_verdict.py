"""The verdict's records (autograder/core/verdict.py) and the saved results file that keeps them.

- A saved judgement written in format 1 before the step's facts were typed (tests/corpora/verdict/format1.json,
  written from a sample of the corpora and the hostile files by the grader of that time, with the
  feedback it rendered then) is read back into the typed records and renders the very same
  feedback, in Korean and in English: saved runs still re-render.
- The reader refuses a step fact it does not know (the student is graded again), and a status
  that is none of the steps' statuses.
- A step's status is one of `STEP_STATUSES`, and only those words are read as one.
"""
import copy
import dataclasses
import json

import pytest
from hypothesis import given, strategies as st

from autograder.batch.saved import FORMAT, judgement_data, read_judgement
from autograder.registry import load
from autograder.core.render.feedback import as_text
from autograder.core.verdict import STEP_STATUSES, CaseResult, StepResult, SubmissionResult, step_status
from conftest import CORPORA, ROOT

KEPT = json.loads((CORPORA / "verdict" / "format1.json").read_text(encoding="utf-8"))


def test_the_kept_judgements_are_of_the_format_the_reader_reads():
    assert KEPT["format"] == FORMAT
    assert len(KEPT["judgements"]) >= 15


@pytest.mark.parametrize("kept", KEPT["judgements"], ids=lambda kept: kept["file"])
def test_a_judgement_saved_before_the_facts_were_typed_renders_the_same_feedback(kept):
    lab = load(kept["lab"])
    judgement = read_judgement(kept["saved"], steps=[step.name for step in lab.steps])
    assert judgement is not None, kept["file"]
    for lang in ("ko", "en"):
        assert as_text(judgement.result, lab, lang) == kept[lang], (kept["file"], lang)
    # Written again by today's writer and read back: the same records, written the same.
    written = json.dumps(judgement_data(judgement))
    again = read_judgement(json.loads(written), steps=[step.name for step in lab.steps])
    assert again is not None and json.dumps(judgement_data(again)) == written


def a_kept(file_part):
    return next(kept for kept in KEPT["judgements"] if file_part in kept["file"])


@pytest.mark.parametrize("where", ["step", "status"])
def test_a_step_fact_or_status_the_reader_does_not_know_is_refused(where):
    kept = a_kept("casts_x_to_int")
    lab = load(kept["lab"])
    steps = [step.name for step in lab.steps]
    data = copy.deepcopy(kept["saved"])
    assert read_judgement(data, steps=steps) is not None
    if where == "step":
        data["result"]["steps"][0]["detail"]["what_a_newer_grader_knows"] = 1
    else:
        data["result"]["steps"][0]["status"] = "partly"
    assert read_judgement(data, steps=steps) is None


@given(st.text(max_size=20) | st.sampled_from(STEP_STATUSES))
def test_only_the_steps_statuses_are_read_as_one(word):
    if word in STEP_STATUSES:
        assert step_status(word) == word
    else:
        with pytest.raises(ValueError):
            step_status(word)


def test_the_records_are_frozen_and_keyword_only():
    case = CaseResult(case="page", hidden=False, label="", passed=True)
    step = StepResult(name="softmax", score=1.0, max_score=1.0, status="passed", mistakes=[], cases=[case])
    result = SubmissionResult(submission="s.py", steps=[step])
    for record in (case, step, result):
        with pytest.raises(dataclasses.FrozenInstanceError):
            record.__setattr__("passed", False)
    with pytest.raises(TypeError):
        CaseResult("page", False, "", True)  # type: ignore[misc]
