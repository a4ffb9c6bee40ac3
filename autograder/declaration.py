"""What a step is, as plain data: shared by the grading engine and the students' public checks.

Nothing here computes an answer; each lab's package fills these in for its steps.
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Output:
    """One value a step returns, and how to name its rows and columns in feedback."""

    name: str
    kind: str = "array"  # "array" or "mapping"
    columns: str = "features"  # "words" when columns are words too (the n×n tables)
    rows_sum_to_one: bool = False


@dataclass(frozen=True)
class Mistake:
    """A known mistake: what a student making it would return for a probe.

    `candidates(probe)` yields one prediction per way of making the mistake (none when it cannot
    be made on that probe). Predictions equal to the right answer are never reported, but they
    should still be yielded: a passing case then counts as consistent with the mistake.
    """

    code: str
    candidates: object  # Callable[[Probe], Iterable[tuple]]
    size: int = 1  # how many changes to the computation it takes (see autograder.error_model)


@dataclass(frozen=True)
class ErrorMistake:
    """A known mistake told by the error it raises.

    `messages(probe)` yields (exception type name, regular expression) pairs: a call on that probe
    raising that type with a message the expression finds made the mistake. Patterns are data, so
    the students' kit carries them per public probe.
    """

    code: str
    messages: object  # Callable[[Probe], Iterable[tuple[str, str]]]


@dataclass(frozen=True)
class Link:
    """A composed step's mistake that is the other half of a helper step's, named as one:
    `code` in the composed step, while step `helper` made `helper_code`, becomes `becomes`
    (the division moved from self_attention into scores: each alone looks like another mistake)."""

    helper: str
    helper_code: str
    code: str
    becomes: str


@dataclass(frozen=True)
class Step:
    """One function the students write, as the engine grades it.

    `name` is the function's name, `points` what it is worth, `page_step` the lab page's step it
    belongs to (hints point there), `params` its parameter names and `outputs` the values it
    returns (`Output`). `make_probes(step, case, trace)` builds its calls on a case with the
    values they must return; `mistakes` and `error_mistakes` are the known mistakes it names;
    `calls` the other steps its function calls (the lab's step graph).
    """

    name: str
    points: float
    page_step: int
    params: tuple
    outputs: tuple
    mistakes: tuple = ()
    hint: str = "generic"  # key of the hint in the message catalogs
    error_mistakes: tuple = ()  # ErrorMistake: known mistakes that raise instead of returning
    # Callable[[Step, Case, Trace], list[Probe]]; only the engine, which has the reference, sets it.
    make_probes: object = field(default=None, repr=False, compare=False)
    rubric: object = None  # autograder.rubric.Rubric; None: the default shares
    links: tuple = ()  # Link: for a composed step, mistakes told together with a helper step's
    # The other steps this step's function calls (the lab's graph; Lab checks it): a step that
    # calls any is composed, graded after them with each that did not pass answered by a stand-in.
    calls: tuple[str, ...] = field(default=(), kw_only=True)

    def __post_init__(self):
        if isinstance(self.calls, str) or not all(isinstance(name, str) for name in self.calls):
            raise TypeError(f"step {self.name!r}: calls= takes a tuple of step names, not {self.calls!r}")
        object.__setattr__(self, "calls", tuple(self.calls))

    @property
    def composed(self) -> bool:
        return bool(self.calls)

    def named_codes(self):
        """Codes that name a mistake of this step (the rubric gives each its share)."""
        return ({m.code for m in self.mistakes} | {m.code for m in self.error_mistakes}
                | {link.becomes for link in self.links}
                | {"mutates_input", "hardcoded", "nondeterministic", "ignores_arguments", "transposed",
                   "fits_own_helpers"})

    def probes(self, case, trace):
        return self.make_probes(self, case, trace)


@dataclass(frozen=True)
class Probe:
    """One call of a step's function on one case, with the values it must return."""

    step: Step
    case: object
    trace: object
    args: tuple
    expected: tuple  # one entry per Output
    label: str = ""  # tells apart several calls on one case (e.g. "1-D")
