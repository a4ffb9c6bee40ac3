"""What a step is and the cases it is graded on, as plain data: shared by the grading engine and
the students' public checks.

Nothing here computes an answer; each lab's package fills these in for its steps. Every class is
a frozen dataclass whose fields are given by keyword (`Step(name="softmax", points=2, ...)`), and
each checks what it is handed when it is built: a slip in a lab's declaration is a `TypeError`
or `ValueError` naming the field, raised when the lab is imported, never a wrong grade later.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from .rubric import ALWAYS_NAMED

if TYPE_CHECKING:
    from .rubric import Rubric

# A lab's own record of the reference's intermediate values on a case (each lab's frozen `Trace`
# dataclass; the engine only reads its attributes by name).
Trace = Any
# What a step returns for a probe: one value per `Output`.
Prediction = tuple[Any, ...]
# Mistake.candidates: one prediction per way of making the mistake on the probe.
Candidates = Callable[["Probe"], Iterable[Prediction]]
# ErrorMistake.messages: (exception type name, regular expression) pairs.
ErrorMessages = Callable[["Probe"], Iterable[tuple[str, str]]]


@dataclass(frozen=True, eq=False, kw_only=True)
class Case:
    """One input the steps are graded on: its name, the words labelling rows and columns, and
    the lab's named input arrays (read as attributes: `case.X`). `degenerate`: the lab says the
    case is so small that a wrong formula may be right on it (one word of an attention lab):
    passing it alone earns nothing (see autograder.core.rubric)."""

    name: str
    words: tuple[str, ...]
    inputs: dict[str, Any]
    hidden: bool = False
    degenerate: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"Case: name= takes a non-empty string, not {self.name!r}")
        if isinstance(self.words, str) or not all(isinstance(word, str) for word in self.words):
            raise TypeError(f"case {self.name!r}: words= takes a tuple of words, not {self.words!r}")
        object.__setattr__(self, "words", tuple(self.words))
        if not isinstance(self.inputs, dict) or not all(isinstance(key, str) for key in self.inputs):
            raise TypeError(f"case {self.name!r}: inputs= takes a dict of named inputs, not {self.inputs!r}")

    def __getattr__(self, key: str) -> Any:
        inputs = self.__dict__.get("inputs")
        if inputs is not None and key in inputs:
            return inputs[key]
        raise AttributeError(key)

    def sizes(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The shapes of the case's arrays: two cases of one size can only tell apart fitted values."""
        return tuple((key, np.shape(value)) for key, value in self.inputs.items())

    def shapes_text(self) -> str:
        """'X (5, 6), W_Q (6, 3), …': what a student may know of a hidden case (never its values)."""
        return ", ".join(f"{key} {tuple(np.shape(v))}" for key, v in self.inputs.items()
                         if isinstance(v, np.ndarray))


class ProbeMaker(Protocol):
    """`make_probes(step, case, trace)`: the calls of `step` on `case`, with the values they must return."""

    def __call__(self, step: Step, case: Case, trace: Trace, /) -> list[Probe]: ...


def _names(owner: str, field_name: str, value: object, what: str) -> tuple[str, ...]:
    """`value` as a tuple of names; TypeError for a bare string (`("x")` for `("x",)`) or a non-name."""
    if isinstance(value, str) or not isinstance(value, (tuple, list)) \
            or not all(isinstance(name, str) and name.isidentifier() for name in value):
        raise TypeError(f"{owner}: {field_name}= takes a tuple of {what} names, such as ('x',), not {value!r}")
    return tuple(value)


def _items(owner: str, field_name: str, value: object, kind: type) -> tuple[Any, ...]:
    """`value` as a tuple of `kind`; TypeError naming the field otherwise."""
    if not isinstance(value, (tuple, list)) or not all(isinstance(item, kind) for item in value):
        raise TypeError(f"{owner}: {field_name}= takes a tuple of {kind.__name__}, not {value!r}")
    return tuple(value)


def _code(owner: str, value: object) -> None:
    if not isinstance(value, str) or not value:
        raise TypeError(f"{owner}: code= takes a non-empty string, not {value!r}")


@dataclass(frozen=True, kw_only=True)
class Output:
    """One value a step returns, and how to name its rows and columns in feedback."""

    name: str
    kind: Literal["array", "mapping"] = "array"
    columns: Literal["features", "words"] = "features"  # "words" when columns are words too (the n×n tables)
    rows_sum_to_one: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("array", "mapping"):
            raise ValueError(f"Output {self.name!r}: kind= is 'array' or 'mapping', not {self.kind!r}")
        if self.columns not in ("features", "words"):
            raise ValueError(f"Output {self.name!r}: columns= is 'features' or 'words', not {self.columns!r}")


@dataclass(frozen=True, kw_only=True)
class Mistake:
    """A known mistake: what a student making it would return for a probe.

    `candidates(probe)` yields one prediction per way of making the mistake (none when it cannot
    be made on that probe). Predictions equal to the right answer are never reported, but they
    should still be yielded: a passing case then counts as consistent with the mistake.
    """

    code: str
    candidates: Candidates
    size: int = 1  # how many changes to the computation it takes (see autograder.error_model)

    def __post_init__(self) -> None:
        _code("Mistake", self.code)
        if not callable(self.candidates):
            raise TypeError(f"Mistake {self.code!r}: candidates= takes a function of a probe, "
                            f"not {self.candidates!r}")


@dataclass(frozen=True, kw_only=True)
class ErrorMistake:
    """A known mistake told by the error it raises.

    `messages(probe)` yields (exception type name, regular expression) pairs: a call on that probe
    raising that type with a message the expression finds made the mistake. Patterns are data, so
    the students' kit carries them per public probe.
    """

    code: str
    messages: ErrorMessages

    def __post_init__(self) -> None:
        _code("ErrorMistake", self.code)
        if not callable(self.messages):
            raise TypeError(f"ErrorMistake {self.code!r}: messages= takes a function of a probe, "
                            f"not {self.messages!r}")


@dataclass(frozen=True, kw_only=True)
class Link:
    """A composed step's mistake that is the other half of a helper step's, named as one:
    `code` in the composed step, while step `helper` made `helper_code`, becomes `becomes`
    (the division moved from self_attention into scores: each alone looks like another mistake)."""

    helper: str
    helper_code: str
    code: str
    becomes: str


@dataclass(frozen=True, kw_only=True)
class Step:
    """One function the students write, as the engine grades it.

    `name` is the function's name, `points` what it is worth, `page_step` the lab page's step it
    belongs to (hints point there), `params` its parameter names and `outputs` the values it
    returns (`Output`). `make_probes(step, case, trace)` builds its calls on a case with the
    values they must return; `mistakes` and `error_mistakes` are the known mistakes it names;
    `calls` the other steps its function calls (the lab's step graph): a step that calls any is
    composed, graded after them with each that did not pass answered by a stand-in.
    """

    name: str
    points: float
    page_step: int
    params: tuple[str, ...]
    outputs: tuple[Output, ...]
    mistakes: tuple[Mistake, ...] = ()
    hint: str = "generic"  # key of the hint in the message catalogs
    error_mistakes: tuple[ErrorMistake, ...] = ()  # known mistakes that raise instead of returning
    # Only the engine, which has the reference, sets it (the students' kit reads probes as data).
    make_probes: ProbeMaker | None = field(default=None, repr=False, compare=False)
    rubric: Rubric | None = None  # None: the lab's rubric, else the engine's default shares
    links: tuple[Link, ...] = ()  # for a composed step, mistakes told together with a helper step's
    calls: tuple[str, ...] = ()  # the other steps this step's function calls (Lab checks them)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise TypeError(f"Step: name= takes the function's name, not {self.name!r}")
        owner = f"step {self.name!r}"
        if isinstance(self.points, bool) or not isinstance(self.points, (int, float)) or not self.points >= 0:
            raise ValueError(f"{owner}: points= takes a number of points, 0 or more, not {self.points!r}")
        if isinstance(self.page_step, bool) or not isinstance(self.page_step, int) or self.page_step < 1:
            raise ValueError(f"{owner}: page_step= takes the lab page's step number (1 or more), "
                             f"not {self.page_step!r}")
        object.__setattr__(self, "params", _names(owner, "params", self.params, "parameter"))
        object.__setattr__(self, "calls", _names(owner, "calls", self.calls, "step"))
        object.__setattr__(self, "outputs", _items(owner, "outputs", self.outputs, Output))
        if not self.outputs:
            raise ValueError(f"{owner}: outputs= names at least one Output")
        object.__setattr__(self, "mistakes", _items(owner, "mistakes", self.mistakes, Mistake))
        object.__setattr__(self, "error_mistakes", _items(owner, "error_mistakes", self.error_mistakes, ErrorMistake))
        object.__setattr__(self, "links", _items(owner, "links", self.links, Link))
        if self.make_probes is not None and not callable(self.make_probes):
            raise TypeError(f"{owner}: make_probes= takes a function (step, case, trace) -> [Probe]")

    @property
    def composed(self) -> bool:
        return bool(self.calls)

    def named_codes(self) -> set[str]:
        """Codes that name a mistake of this step (the rubric gives each its share)."""
        return ({m.code for m in self.mistakes} | {m.code for m in self.error_mistakes}
                | {link.becomes for link in self.links} | set(ALWAYS_NAMED))

    def probes(self, case: Case, trace: Trace) -> list[Probe]:
        if self.make_probes is None:
            raise TypeError(f"step {self.name!r} has no make_probes: only the grader's own lab builds probes")
        return self.make_probes(self, case, trace)


@dataclass(frozen=True, kw_only=True)
class Probe:
    """One call of a step's function on one case, with the values it must return."""

    step: Step
    case: Case
    trace: Trace
    args: tuple[Any, ...]
    expected: Prediction  # one entry per Output
    label: str = ""  # tells apart several calls on one case (e.g. "1-D")
