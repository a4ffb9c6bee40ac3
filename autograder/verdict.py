"""The verdict vocabulary: what judging a submission found, as typed, frozen records.

The judge (autograder.judge) makes these records; the renderer (render, pictures), the batch
(saved results, outputs, report), the LMS faces and the students' kit read them. No I/O, no
language: the words are the renderer's, from the catalogs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from .guard import SafeText

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


POINT_DECIMALS = 2


def rounded_points(value: float) -> float:
    """INVARIANT (docs/instructors/reading.md): the one rounding of points every face shows or
    writes (check, grade's grades.csv and results, pytest's JUnit, Gradescope's and `otter run`'s
    results.json): hundredths, a total rounded once from the steps' exact scores."""
    return round(value, POINT_DECIMALS)


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
class StepResult:
    """A step's verdict: its points, status, mistakes (public tests' first) and each test's outcome."""

    name: str
    score: float
    max_score: float
    status: StepStatus
    mistakes: list[str]
    cases: list[CaseResult]
    page_step: int = 0
    detail: dict[str, Any] = field(default_factory=dict)


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
        file, a run that ended the sandbox: see `judge.broken`), else None. Told once, never per step."""
        codes: set[str | None] = {step.detail.get("file_problem") for step in self.steps}
        return codes.pop() if len(codes) == 1 and None not in codes else None
