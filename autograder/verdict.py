"""The verdict vocabulary: what judging a submission found, as typed, frozen records, and what
the judge reads of one call (`Outcome`).

The judge (autograder.judge) makes these records; the renderer (render, pictures), the batch
(saved results, outputs, report), the LMS faces and the students' kit read them. No I/O, no
language: the words are the renderer's, from the catalogs.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict, get_args

from .guard import SafeText

if TYPE_CHECKING:
    from .repair.search import Repair

# A step's verdict: every test passed, a value was wrong, a call raised, a call ran out of time,
# no function of the step's name was found, the function is still the lab's stub.
StepStatus = Literal["passed", "failed", "error", "timeout", "missing", "not_implemented"]
STEP_STATUSES: tuple[StepStatus, ...] = get_args(StepStatus)


def step_status(text: str) -> StepStatus:
    """`text` as a StepStatus; ValueError for any other word (a saved result of another version)."""
    for status in STEP_STATUSES:
        if text == status:
            return status
    raise ValueError(f"{text!r} is no step status")


class Outcome(Protocol):
    """What one call did, as the judge reads it: the sandbox's CallOutcome and the students' kit's
    own Outcome alike. Their records of stand-ins (`refused`, `stood_in`) and of state kept
    (`state`) are read with getattr: an outcome without them has none."""

    @property
    def kind(self) -> str: ...  # "returned" | "raised" | "timeout" | "crashed" | "not_run"

    @property
    def value(self) -> object: ...  # the decoded value it returned (sandbox.codec): untrusted

    @property
    def args_after(self) -> Sequence[object] | None: ...  # per argument: its value after the call, None if unchanged

    @property
    def error(self) -> object: ...  # what it raised (describe_exception's dict)


POINT_DECIMALS = 2


def rounded_points(value: float) -> float:
    """INVARIANT (docs/instructors/reading.md): the one rounding of points every face shows or
    writes (check, grade's grades.csv and results, pytest's JUnit, Gradescope's and `otter run`'s
    results.json): hundredths, a total rounded once from the steps' exact scores."""
    return round(value, POINT_DECIMALS)


class Rule(TypedDict, total=False):
    """The rule that gave a step's points (a step's detail["rubric"]); render words it."""

    rule: str  # "no_cases" | "passed" | "cases" | "mistake" | "fitted"
    passed: int  # "cases": tests passed, of `total` counted
    total: int
    uncounted: int  # "cases": degenerate tests passed, counted for nothing
    code: str  # "mistake": the mistake whose share was kept; "cases": the one a name would have cost more
    percent: int  # "mistake": the share kept, in percent
    unanswered: bool  # "fitted": no other test returned a value (each timed out, crashed or was not run)


@dataclass(frozen=True, kw_only=True)
class CaseResult:
    """One call of a step's function on one test: passed, or the code of what went wrong."""

    case: str
    hidden: bool
    label: str
    passed: bool
    code: str | None = None  # the mistake code when it failed
    detail: dict[str, Any] = field(default_factory=dict)  # numbers and labels for the message
    matched: list[str] = field(default_factory=list)  # every named mistake whose prediction this value equals
    fallback: str | None = None  # the generic code, used when no named mistake is likely
    answer: str | None = None  # a wrong returned value's digest (answer_digest), for the class's similarity signal
    degenerate: bool = False  # a test too small to tell formulas apart (see rubric.is_degenerate)
    raised: bool = False  # the call returned no value (an error, a timeout, a crash)
    fitted: bool = False  # failed where the step is right only on known inputs: its points are taken (rubric)


@dataclass(frozen=True, kw_only=True)
class HelperUse:
    """Of the steps a composed step calls (its declaration, each named once): which ran as the
    student wrote them (their steps pass), which the grader's stand-ins answered, which did not
    pass but were never called; and the steps reached only through its callees that stand-ins
    answered inside the student's own (file_facts.helpers_used)."""

    own: tuple[str, ...] = ()
    reference: tuple[str, ...] = ()
    unused: tuple[str, ...] = ()
    nested_reference: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class FollowsOwnHelpers:
    """A composed step right only with the student's own helpers (file_facts.fits_own_helpers): the
    declared Link's name (else "fits_own_helpers") and the helpers it follows."""

    code: str
    helpers: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Redefined:
    """A function defined at several places: the (file, line) graded and the others
    (submission.redefined, the grader's own reading of the file)."""

    graded: tuple[str, int]
    others: tuple[tuple[str, int], ...]


# The shapes a student may learn of a hidden test: (its arguments' shapes as text, the arguments
# shaped unlike the page's call), per hidden test (judge.argument_shapes).
ArgumentShapes = dict[str, tuple[str, tuple[str, ...]]]


@dataclass(frozen=True, kw_only=True)
class StepResult:
    """A step's verdict: its points, status, mistakes (public tests' first), each test's outcome,
    and what the judge and the file showed about it, for the words."""

    name: str
    score: float
    max_score: float
    status: StepStatus
    mistakes: list[str]
    cases: list[CaseResult]
    page_step: int = 0
    rubric: Rule | None = None  # the rule that gave the points (rubric.score); None where none was applied
    ignored: tuple[str, ...] = ()  # the arguments other values of which gave the very same answer
    code_evidence: tuple[str, ...] | None = None  # the names a cause read from the code points at
    explained: tuple[dict[str, Any], ...] = ()  # what the explainer read in the values (judge.explanations)
    argument_shapes: ArgumentShapes = field(default_factory=dict)
    defined_as: str | None = None  # a missing step: what its name is in the file ("absent", "int", ...)
    similar: str | None = None  # a missing step: a function of a close name the file defines
    under_main: bool = False  # a missing step defined only under `if __name__ == "__main__":`
    redefined: Redefined | None = None
    helpers: HelperUse | None = None  # a composed step run with the student's own helpers where they pass
    follows_own_helpers: FollowsOwnHelpers | None = None
    seconds: float | None = None  # a step that timed out: the step's budget
    module: str | None = None  # the module whose missing import the step's failure is blamed on
    file_problem: str | None = None  # the whole file's one problem, told once (SubmissionResult.file_problem)
    repair: Repair | None = None  # the smallest edit of the student's own code that makes it right (autograder.repair)


@dataclass(frozen=True, kw_only=True)
class SubmissionResult:
    """The verdict on one submission: each step's, and the problems met loading the file."""

    submission: SafeText  # the file's name as the student reads it (guard.safe_name)
    steps: list[StepResult]
    notes: list[dict[str, Any]] = field(default_factory=list)  # load problems: [{"code": ..., ...}]
    # The steps judged on the public tests alone, from public outcomes only (what a student is
    # shown before grades are published); None where no hidden test was run.
    public: list[StepResult] | None = None

    @property
    def public_steps(self) -> list[StepResult]:
        return self.steps if self.public is None else self.public

    @property
    def score(self) -> float:
        return rounded_points(sum(s.score for s in self.steps))

    @property
    def max_score(self) -> float:
        return sum(s.max_score for s in self.steps)

    @property
    def all_passed(self) -> bool:
        return all(s.status == "passed" for s in self.steps)

    @property
    def file_problem(self) -> str | None:
        """The one problem of the whole file when none of it could be graded (a .docx, an empty
        file, a run that ended the sandbox: see `file_facts.broken`), else None. Told once, never per step."""
        codes: set[str | None] = {step.file_problem for step in self.steps}
        return codes.pop() if len(codes) == 1 and None not in codes else None
