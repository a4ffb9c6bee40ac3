"""How a step's points follow from its verdict: declared data, editable per step. The one place
points are computed (`score`), whichever face grades.

A test is one call of the step's function. A pass earns every point. A failure nothing names earns
the share of tests passed, a degenerate test counting only when failed: a test so small that a
wrong formula is right on it earns no credit on its own. When every
failed test returned a value some named mistake predicts, the step keeps the share of the harshest
of them (a mutated input keeps most, a wrong formula little), or the share of tests passed when
that is more. Codes saying the passes were not computed from the inputs (fitted to the page, the
same values whatever the arguments, random numbers) keep their share alone, and a step right only
on tests whose inputs a student can know, with nothing else showing a computation, earns nothing
(its failures are `fitted`: causes.mark_fitted_to_public). Which tests are
degenerate is the lab's to say (`Case.degenerate`), and so are the shares of its own mistakes
(`Lab.rubric`, or a step's own `Step.rubric`).

The invariants, checked on generated answers of both labs in tests/judging/test_points.py:
- monotone: of two answers, the one right on more tests (raising on fewer) never gets fewer
  points, unless its passes are told as not computed;
- an error costs its test what an unnamed wrong value costs it, never more: a name read from an
  error message is words only;
- a name never costs points: a named mistake scores at least the share of tests passed.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .verdict import CaseResult, Rule

# The codes every step can make, beside the ones it declares (the rubric gives each its share).
ALWAYS_NAMED = frozenset({"mutates_input", "hardcoded", "nondeterministic", "ignores_arguments", "transposed",
                          "fits_own_helpers", "extra_unit_axes"})
# A combined mistake's code: its single codes joined (autograder.error_model names the pairs so).
JOIN = "+"


def parts(code: str) -> tuple[str, ...]:
    """The single mistakes a (possibly combined) code is made of."""
    return tuple(code.split(JOIN))


# Codes saying the passes were not computed from the inputs: those passes earn nothing.
NOTHING_COMPUTED = frozenset({"hardcoded", "uses_globals", "ignores_arguments", "nondeterministic"})

# The engine's own codes (ALWAYS_NAMED); a lab adds its own codes' shares (Lab.rubric).
DEFAULT_SHARES = {
    "mutates_input": 0.8,  # every value right; the caller's array changed
    "hardcoded": 0.0,  # fits the page's numbers: nothing learned is shown
    "ignores_arguments": 0.0,  # the same values for other arguments: nothing computed from them
    "nondeterministic": 0.0,  # other values on every call (random numbers): nothing to grade
}
FORMULA_SHARE = 0.25  # any other named mistake: the formula is wrong
# INVARIANT (docs/instructors/reading.md): the right values in another shape (axes of length 1
# added or left out: (1, n, n) for (n, n)) earn at least what any wrong values earn: the largest
# share of the rubric, and never below this.
RIGHT_VALUES = frozenset({"extra_unit_axes"})
RIGHT_VALUES_SHARE = 0.8
# Failures in which a call gave no value at all: the grader observes them itself, so their words stay
# true of a fitted step (causes.mark_fitted_to_public), the submission chose none of them.
UNANSWERED = frozenset({"timeout", "crashed", "not_run", "stand_in_refused"})


@dataclass(frozen=True, kw_only=True)
class Rubric:
    """Share of a step's points kept per named mistake; `formula` for mistakes not listed."""

    shares: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_SHARES))
    formula: float = FORMULA_SHARE

    def share_of(self, code: str) -> float:
        """A combined mistake ("a+b", see autograder.error_model) keeps the product of its parts' shares.
        The right values in another shape keep the largest share any mistake keeps (RIGHT_VALUES)."""
        share = 1.0
        for part in parts(code):
            share *= self.right_values_share if part in RIGHT_VALUES else self.shares.get(part, self.formula)
        return share

    @property
    def right_values_share(self) -> float:
        return max([RIGHT_VALUES_SHARE, self.formula, *self.shares.values()])


DEFAULT = Rubric()


def is_degenerate(case: object) -> bool:
    """A case the lab declares too small to tell a formula apart (Case.degenerate)."""
    return getattr(case, "degenerate", False) is True


def computes_nothing(code: str) -> bool:
    """Whether a code (or a part of a combined one) says the passes were not computed."""
    return any(part in NOTHING_COMPUTED for part in parts(code))


def score(points: float, cases: Sequence[CaseResult], named: Collection[str] = ALWAYS_NAMED,
          degenerate: Collection[str] = (), rubric: Rubric = DEFAULT) -> tuple[float, Rule]:
    """(points earned, the rule applied) for one step's test results (verdict.CaseResult, one per call).

    `named` holds the codes that name a mistake (others, like wrong_values or exception, only say
    that something failed). A test earns no credit alone when its result says it is degenerate,
    or its case is named in `degenerate`. The one place a step's points are computed. Not rounded: totals are rounded once.
    """
    if not cases:
        return 0.0, {"rule": "no_cases"}
    if all(c.passed for c in cases):
        return float(points), {"rule": "passed"}
    fitted = [c for c in cases if not c.passed and getattr(c, "fitted", False)]
    if fitted:  # right only where the inputs can be known: nothing shown computed
        return 0.0, {"rule": "fitted", "unanswered": all(c.code in UNANSWERED for c in fitted)}
    # A degenerate test earns nothing when passed (a wrong formula may pass it) and costs when failed.
    counted = [c for c in cases if not c.passed or not (c.case in degenerate or c.degenerate)]
    passed = sum(c.passed for c in counted)
    by_tests = points * passed / len(counted) if counted else 0.0
    cases_rule: Rule = {"rule": "cases", "passed": passed, "total": len(counted)}
    if len(counted) < len(cases):
        cases_rule["uncounted"] = len(cases) - len(counted)  # degenerate tests passed
    failing = [c for c in cases if not c.passed]
    idle = [c.code for c in failing if c.code is not None and computes_nothing(c.code)]
    if idle:  # the passes show nothing computed: they earn nothing
        code = min(idle, key=rubric.share_of)
        return points * rubric.share_of(code), _mistake_rule(code, rubric)
    credited = [_credited(c, named, rubric) for c in failing]
    if None in credited:
        return by_tests, cases_rule
    code = min((c for c in credited if c is not None), key=rubric.share_of)  # the harshest mistake made
    if points * rubric.share_of(code) >= by_tests:
        return points * rubric.share_of(code), _mistake_rule(code, rubric)
    return by_tests, {**cases_rule, "code": code}  # a name never costs points


def _credited(result: CaseResult, named: Collection[str], rubric: Rubric) -> str | None:
    """The named mistake a failed test's value is credited as: the kindest of its code and every
    mistake whose prediction the value equals (the words may pick another, or none, from what
    the other tests show; the points follow the value). None for an error, or a value no
    mistake names: an error's name is words only, and it costs its test as such a value does."""
    if getattr(result, "raised", False):
        return None
    codes = [code for code in (result.code, *getattr(result, "matched", ())) if code in named]
    return max(codes, key=rubric.share_of) if codes else None


def _mistake_rule(code: str, rubric: Rubric) -> Rule:
    return {"rule": "mistake", "code": code, "percent": round(rubric.share_of(code) * 100)}
