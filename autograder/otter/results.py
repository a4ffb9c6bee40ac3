"""Engine verdicts as Otter results: one test file per step, its public and hidden cases apart."""
import dataclasses

from otter.test_files import TestCase, TestCaseResult
from otter.test_files.exception_test import ExceptionTestFile

from ..judge import _status, step_score
from ..render import step_feedback


def otter_test_files(result, lang="ko"):
    """One Otter test file per step of a SubmissionResult, scored exactly as the engine scored it.

    The public test case carries the feedback on the public cases (what a student sees at once);
    the hidden one carries the whole diagnosis, shown on the LMS after grades are published.
    """
    return [_test_file(step, lang) for step in result.steps]


def _test_file(step, lang):
    names = {c.case for c in step.cases}
    hidden_names = {c.case for c in step.cases if c.hidden}
    public = public_view(step)
    # (label, hidden, passed, what the message renders, share of the step's points)
    parts = [("public", False, public.status == "passed", public,
              step.max_score * len(names - hidden_names) / len(names))]
    if hidden_names:
        parts.append(("hidden", True, all(c.passed for c in step.cases if c.hidden), step,
                      step.max_score * len(hidden_names) / len(names)))
    cases, outcomes = [], []
    for label, hidden, passed, shown, points in parts:
        message = step_feedback(shown, lang)
        case = TestCase(name=f"{step.name} ({label})", body=None, hidden=hidden, points=points,
                        success_message=None, failure_message=None)
        cases.append(case)
        outcomes.append(TestCaseResult(test_case=case, message=message, passed=passed))
    test_file = ExceptionTestFile(step.name, f"tests/{step.name}.py", cases, all_or_nothing=False)
    test_file.test_case_results = outcomes
    test_file.update_score(step.score)
    return test_file


def public_view(step):
    """The step as judged on its public cases only (what the student-side check reports)."""
    cases = [c for c in step.cases if not c.hidden]
    own_codes = {c.code for c in cases}
    hidden_codes = {c.code for c in step.cases if c.hidden} - own_codes
    mistakes = [m for m in step.mistakes if m not in hidden_codes]
    status = step.status if step.status == "missing" else _status(cases)
    return dataclasses.replace(step, score=step_score(step.max_score, cases), status=status,
                               mistakes=mistakes, cases=cases)
