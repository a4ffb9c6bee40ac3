"""The verdict vocabulary: what judging a submission found, as typed, frozen records, and what
the judge reads of one call (`Outcome`).

The judge (autograder.core.judge) makes these records; the renderer (render, pictures), the batch
(saved results, outputs, report), the LMS faces and the students' kit read them. No I/O, no
language: the words are the renderer's, from the catalogs.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict, get_args

from .case_detail import CaseDetail
from .guard import SafeText
from .reading.problems import Detail  # data without a language, importing only guard

if TYPE_CHECKING:
    from .repair_record import Repair

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
    def value(self) -> object: ...  # the decoded value it returned (child.codec): untrusted

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
    detail: CaseDetail | None = None  # what a failure carries for its message (autograder.core.case_detail)
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


# FollowsOwnHelpers.code of a composed step right once the lists its passing helpers return are made
# arrays, and wrong with them as they are (file_facts.fits_arrayed_helpers).
HELPER_LISTS_AS_ARRAYS = "helper_lists_as_arrays"


@dataclass(frozen=True, kw_only=True)
class Redefined:
    """A function defined at several places: the (file, line) graded and the others
    (submission.redefined, the grader's own reading of the file)."""

    graded: tuple[str, int]
    others: tuple[tuple[str, int], ...]


# What a note on a submission says: the file could not be graded (a file problem, file_facts.broken);
# it is written for another lab (registry.other_lab); its load ran out of the submission's time
# (grading); or an event of its load, as the sandbox reports it (a syntax error, an error raised
# at load, a statement that hung or ended the process, a sandbox that could not start).
LoadCode = Literal["syntax_error", "load_error", "load_timeout", "load_crash", "sandbox_failed"]
NoteCode = Literal["problem", "other_lab", "time_spent", LoadCode]
LOAD_CODES: tuple[LoadCode, ...] = get_args(LoadCode)
NOTE_CODES: tuple[NoteCode, ...] = ("problem", "other_lab", "time_spent", *LOAD_CODES)


@dataclass(frozen=True, kw_only=True)
class Note:
    """A note on loading a submission (SubmissionResult.notes): its code, and the fields that code
    carries (the others keep their defaults). `as_data` is the mapping saved results keep
    (format 1, batch.saved), `from_data` reads it back."""

    code: NoteCode
    # "problem": the file's problem code ("empty", "crashed", ...) and why (None: no reason known)
    problem: str = ""
    detail: Detail | None = None
    # a load event (LOAD_CODES): the file and cell it happened in (both or neither), its line,
    # and the error's type and message (None: the event carried none)
    filename: str | None = None
    cell: int | None = None
    line: int | None = None
    type: str | None = None
    message: str | None = None
    # "time_spent": the submission's whole budget, in seconds
    seconds: float = 0.0
    # "other_lab": the lab's name, its titles by language, whether the notebook's metadata named
    # it, and its functions the file defines
    lab: str = ""
    titles: tuple[tuple[str, str], ...] = ()
    declared: bool = False
    found: tuple[str, ...] = ()

    def as_data(self) -> dict[str, object]:
        """The note as saved results keep it: its code and only the keys that code carries."""
        data: dict[str, object] = {"code": self.code}
        if self.code == "problem":
            data.update(problem=self.problem, detail=self.detail)
        elif self.code == "time_spent":
            data["seconds"] = self.seconds
        elif self.code == "other_lab":
            data.update(lab=self.lab, titles=dict(self.titles), declared=self.declared, found=list(self.found))
        else:
            if self.cell is not None:
                data.update(filename=self.filename, cell=self.cell)
            data["line"] = self.line
            if self.type is not None:
                data["type"] = self.type
            if self.message is not None:
                data["message"] = self.message
        return data

    @classmethod
    def from_data(cls, data: object) -> Note:
        """`as_data`'s mapping back; ValueError for anything else (a code, a key or a value it does not know)."""
        if not isinstance(data, dict):
            raise ValueError("a note")
        code, keys = data.get("code"), set(data)
        if code == "problem" and keys == {"code", "problem", "detail"} and isinstance(data["problem"], str) \
                and (data["detail"] is None or type(data["detail"]) is Detail):
            return cls(code="problem", problem=data["problem"], detail=data["detail"])
        if code == "time_spent" and keys == {"code", "seconds"} and type(data["seconds"]) in (int, float):
            return cls(code="time_spent", seconds=data["seconds"])
        if code == "other_lab" and keys == {"code", "lab", "titles", "declared", "found"}:
            titles, found = data["titles"], data["found"]
            if isinstance(data["lab"], str) and type(data["declared"]) is bool and isinstance(titles, dict) \
                    and all(isinstance(k, str) and isinstance(v, str) for k, v in titles.items()) \
                    and isinstance(found, list) and all(isinstance(name, str) for name in found):
                return cls(code="other_lab", lab=data["lab"], titles=tuple(titles.items()),
                           declared=data["declared"], found=tuple(found))
        for load_code in LOAD_CODES:
            if code == load_code and "line" in keys and keys <= {"code", "filename", "cell", "line", "type", "message"}:
                return cls._load_note(load_code, data)
        raise ValueError(f"a note of code {code!r}" if isinstance(code, str) else "a note")

    @classmethod
    def _load_note(cls, code: LoadCode, data: dict[Any, Any]) -> Note:
        filename, cell, line = data.get("filename"), data.get("cell"), data["line"]
        kind, message = data.get("type"), data.get("message")
        placed = ("filename" in data) == ("cell" in data) and (
            "cell" not in data or (isinstance(filename, str) and type(cell) is int))
        if not placed or not (line is None or type(line) is int) or \
                not all(text is None or isinstance(text, str) for text in (kind, message)) or \
                ("type" in data and kind is None) or ("message" in data and message is None):
            raise ValueError("a load note")
        return cls(code=code, filename=filename, cell=cell, line=line, type=kind, message=message)


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
    notes: list[Note] = field(default_factory=list)  # the file's problem, or what happened loading it
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
