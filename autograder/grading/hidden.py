"""What a hidden test's verdict keeps: only what the grader itself knows (docs/SECURITY.md)."""
from __future__ import annotations

import builtins
from dataclasses import replace
from typing import TYPE_CHECKING

from ..core.case_detail import HiddenRaised, Raised, RaisedError, Refusal

if TYPE_CHECKING:
    from collections.abc import Collection

    from ..core.case_detail import CaseDetail
    from ..core.reading.submission import Submission
    from ..core.verdict import StepResult


def hidden_facts_only(result: StepResult, submission: Submission, *, lab_names: Collection[str]) -> StepResult:
    """`result` with each hidden test's detail reduced to what the grader itself knows.

    A child given a hidden test's inputs can put them into anything it sends (an error's message,
    its type's name, a traceback's source line, a returned object's type name) and can choose
    where it raises (a line and a function among thousands of its own, many bits each); none of
    that may reach a student. A hidden test keeps its code, and of an error only a type the grader
    can name (Python's own exceptions, or a class the submission's text defines); never where. Of a
    refused stand-in request, its reason and the helper's name only when it is one of the lab's
    functions (`lab_names`): any other name is the child's choice, made after seeing the inputs.
    """
    if not any(case.hidden and case.detail is not None for case in result.cases):
        return result
    cases = [replace(case, detail=_hidden_detail(case.detail, submission, lab_names=lab_names)) if case.hidden
             else case for case in result.cases]
    return replace(result, cases=cases)


def _hidden_detail(detail: CaseDetail | None, submission: Submission, *, lab_names: Collection[str]
                   ) -> HiddenRaised | None:
    if not isinstance(detail, Raised):
        return None
    refused = detail.refused
    if refused is not None:
        refused = Refusal(helper=refused.helper if refused.helper in lab_names else "", reason=refused.reason)
    return HiddenRaised(error=RaisedError(type=_known_type(detail.error.type, submission), message=""),
                        refused=refused)


def _known_type(name: object, submission: Submission) -> str:
    """Python's own exception names only: a class the submission defines is one of as many names as
    it cares to define, chosen by what it saw."""
    if isinstance(name, str) and name.isidentifier() and \
            isinstance(getattr(builtins, name, None), type) and issubclass(getattr(builtins, name), BaseException):
        return name
    return "Exception"
