"""One plan grades a whole class: equal answers are decoded, judged and rendered once, and what is
remembered for one submission never changes another's grade."""
import numpy as np
import pytest

from autograder.grading import grade_file
from autograder.grading.plan import Plan
from autograder.core.render.feedback import as_dict
from autograder.core.render.step import step_feedback
from conftest import CORPORA, ROOT
from labs.self_attention import LAB

CORPUS = CORPORA / "corpus"
REFERENCE = ROOT / "solutions" / "self_attention.py"
# Right and wrong answers interleaved, so each is graded right after a remembered other one.
CLASS = [REFERENCE, CORPUS / "softmax__wrong_axis__loops.py", REFERENCE,
         CORPUS / "scores__elementwise__star.py", CORPUS / "softmax__wrong_axis__loops.py",
         CORPUS / "most_attended__argmin__loops.py", REFERENCE, CORPUS / "mix__exception__dot.py",
         CORPUS / "mix__exception__dot.py", CORPUS / "self_attention__scale_by_dk__float32.py"]


@pytest.fixture(scope="module")
def shared_plan():
    return Plan.build(LAB)


def test_grades_with_a_shared_plan_equal_grades_with_a_fresh_plan_each(zygote, shared_plan):
    for path in CLASS:
        shared = grade_file(path, zygote, plan=shared_plan, display_name=path.name)
        fresh = grade_file(path, zygote, plan=Plan.build(LAB), display_name=path.name)
        for lang in ("ko", "en"):
            assert as_dict(shared, LAB, lang) == as_dict(fresh, LAB, lang), path.name


def test_the_same_answers_get_the_same_verdict_objects(zygote, shared_plan):
    first = grade_file(REFERENCE, zygote, plan=shared_plan)
    again = grade_file(REFERENCE, zygote, plan=shared_plan)
    # A step's verdict is judged once; a composed step's copy also says whose helpers ran.
    assert all(a is b for a, b in zip(first.steps, again.steps) if not LAB.steps_by_name[a.name].composed)
    assert first.steps == again.steps
    wrong = grade_file(CORPUS / "softmax__wrong_axis__loops.py", zygote, plan=shared_plan)
    by_name = {s.name: s for s in wrong.steps}
    assert by_name["softmax"] is not first.steps[[s.name for s in first.steps].index("softmax")]
    assert by_name["softmax"].status == "failed" and by_name["make_qkv"].status == "passed"


def test_remembered_outcomes_cannot_be_changed_in_place(zygote, shared_plan):
    grade_file(REFERENCE, zygote, plan=shared_plan)
    calls, _ = shared_plan.calls
    remembered = [o for call in calls for o in call.__dict__.get("_seen", {}).values()]
    arrays = [o.value for o in remembered if isinstance(o.value, np.ndarray)]
    assert arrays and not any(a.flags.writeable for a in arrays)


def test_one_rendering_feeds_the_text_and_the_json(zygote, shared_plan):
    from autograder.core.render.feedback import feedback, json_of, text_of

    result = grade_file(CORPUS / "softmax__wrong_axis__loops.py", zygote, plan=shared_plan)
    for lang in ("ko", "en"):
        rendered = feedback(result, LAB, lang)
        softmax = json_of(rendered)["steps"][2]
        assert softmax["feedback"] == step_feedback(result.steps[2], LAB, lang)
        assert softmax["feedback"] in text_of(rendered)
    assert json_of(feedback(result, LAB, "en")) != json_of(feedback(result, LAB, "ko"))
