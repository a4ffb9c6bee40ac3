"""A file written for another lab, graded as this lab: told once, by that lab's name.

The rule (registry.other_lab, applied by grading.grade_bytes, which every face grades through:
`autograder check`, `grade`, the Gradescope zip, `otter run`): when a submission defines none of
the graded lab's step functions and either its notebook's metadata names another installed lab or
it defines another lab's functions, its one load note names that lab (title in the student's
language and its name) and each step says only "another lab's file". Never "function missing,
check its spelling" once per step. A file that defines any of the graded lab's functions is graded
as it is.
"""
import json
import sys

import nbformat
import pytest
from hypothesis import given, settings, strategies as st

from autograder import registry
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.verdict import Note, SubmissionResult
from autograder.core.file_facts import written_for_other_lab
from autograder.otter.results import gradescope_results
from autograder.core.render.feedback import feedback, notes_text
from conftest import ROOT
from labs.masked_attention import LAB as LAB2
from labs.self_attention import LAB as LAB1

from autograder.authoring import fill


LABS = {LAB1.name: LAB1, LAB2.name: LAB2}


def stub_defining(names):
    return "".join(f"def {name}(*args):\n    return None\n\n" for name in names).encode()


@pytest.fixture(scope="module")
def plan2():
    return Plan.build(LAB2)


def script_of(lab):
    return fill.fill_script(lab.assignment_file(lab.script).read_text("utf-8"), lab=lab).encode()


@pytest.mark.parametrize("graded, written", [(LAB1, LAB2), (LAB2, LAB1)])
def test_the_other_labs_finished_script_is_told_once_by_its_lab(zygote, plan, plan2, graded, written):
    plans = {LAB1.name: plan, LAB2.name: plan2}
    result = grade_bytes(written.script, script_of(written), zygote, plans[graded.name])
    assert result.score == 0 and result.file_problem == "other_lab"
    [note] = result.notes
    assert note.code == "other_lab" and note.lab == written.name
    for lang in ("ko", "en"):
        shown = feedback(result, graded, lang)
        text = notes_text(shown)
        assert written.title(lang) in text and written.name in text and graded.notebook in text
        steps = "\n".join(step_text for _, step_text in shown.steps)
        assert "철자" not in steps and "spelling" not in steps and "힌트" not in steps and "Hint" not in steps
    results = gradescope_results(result, graded, "ko")
    assert results["output"].startswith("다른 실습의 파일을 제출했습니다:")
    public = results["tests"][0]["output"]
    assert public.count(written.title("ko")) == 1 and "함수가 없습니다" not in public
    assert all("다른 실습의 파일" in test["output"] for test in results["tests"][1:])


def test_a_notebook_whose_metadata_names_the_other_lab_says_so(zygote, plan):
    notebook = nbformat.read(LAB2.assignment_file(LAB2.notebook), as_version=4)  # stubs: no function body
    for cell in notebook.cells:  # nothing defined at all: the metadata alone says which lab
        if cell.cell_type == "code":
            cell.source = "x = 1"
    result = grade_bytes(LAB2.notebook, nbformat.writes(notebook).encode(), zygote, plan)
    [note] = result.notes
    assert note.code == "other_lab" and note.declared and note.found == ()
    assert "노트북 파일에 그렇게 적혀 있습니다" in notes_text(feedback(result, LAB1, "ko"))


def test_a_file_with_one_of_this_labs_functions_is_graded_as_it_is(zygote, plan):
    data = stub_defining(LAB2.function_names) + stub_defining(LAB1.function_names[:1])
    result = grade_bytes("mixed.py", data, zygote, plan)
    assert not any(note.code == "other_lab" for note in result.notes) and result.file_problem is None


@settings(max_examples=60, deadline=None)
@given(graded=st.sampled_from(sorted(LABS)), data=st.data())
def test_the_rule_over_any_set_of_defined_functions(graded, data):
    lab = LABS[graded]
    other = next(candidate for name, candidate in LABS.items() if name != graded)
    names = data.draw(st.sets(st.sampled_from(sorted(set(lab.function_names) | set(other.function_names)))))
    verdict = registry.other_lab(stub_defining(sorted(names)), lab)
    if names & set(lab.function_names) or not names:
        assert verdict is None
    else:
        assert verdict is not None and verdict.lab == other.name and set(verdict.found) == names
        assert dict(verdict.titles) == dict(other.titles)


@given(junk=st.binary(max_size=2000))
def test_the_rule_never_raises_on_any_bytes(junk):
    verdict = registry.other_lab(junk, LAB1)
    assert verdict is None or verdict.code == "other_lab"


def test_a_result_with_any_step_not_missing_is_left_as_it_is():
    from autograder.core.verdict import StepResult

    steps = [StepResult(name=step.name, score=0.0, max_score=step.points, status="missing" if index else "failed",
                        mistakes=[], cases=[], page_step=step.page_step)
             for index, step in enumerate(LAB1.steps)]
    result = SubmissionResult(submission="a.py", steps=steps, notes=[])
    note = Note(code="other_lab", lab=LAB2.name, titles=tuple(LAB2.titles.items()))
    assert written_for_other_lab(result, note) is result
    assert written_for_other_lab(result, None) is result
    json.dumps(note.as_data())  # a note is plain data: it is stored with the batch's results
    assert Note.from_data(note.as_data()) == note
