"""How a step's points follow from its verdict: declared data, editable per step.

A pass earns every point. A failure explained by a named mistake keeps that mistake's declared
share (a mutated input keeps most, a wrong formula little, an answer fitted to the page nothing).
A failure nothing names earns the share of cases passed, a degenerate case counting only when
failed: a case so small that a wrong formula is right on it earns no credit on its own. Which
cases are degenerate is the lab's to say (`Case.degenerate`), and so are the shares of its own
mistakes (`Lab.rubric`, or a step's own `Step.rubric`).
"""
from dataclasses import dataclass, field

from .error_model import parts

# Mistakes every step can make, beside the ones it declares.
ALWAYS_NAMED = {"mutates_input", "hardcoded", "nondeterministic", "ignores_arguments", "transposed",
                "fits_own_helpers"}

# The engine's own codes (ALWAYS_NAMED); a lab adds its own codes' shares (Lab.rubric).
DEFAULT_SHARES = {
    "mutates_input": 0.8,  # every value right; the caller's array changed
    "hardcoded": 0.0,  # fits the page's numbers: nothing learned is shown
    "ignores_arguments": 0.0,  # the same values for other arguments: nothing computed from them
    "nondeterministic": 0.0,  # other values on every call (random numbers): nothing to grade
    "fits_own_helpers": 0.8,  # right with the student's own helpers, whose steps pay already
}
FORMULA_SHARE = 0.25  # any other named mistake: the formula is wrong


@dataclass(frozen=True, kw_only=True)
class Rubric:
    """Share of a step's points kept per named mistake; `formula` for mistakes not listed."""

    shares: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_SHARES))
    formula: float = FORMULA_SHARE

    def share_of(self, code: str) -> float:
        """A combined mistake ("a+b", see autograder.error_model) keeps the product of its parts' shares."""
        share = 1.0
        for part in parts(code):
            share *= self.shares.get(part, self.formula)
        return share


DEFAULT = Rubric()


def is_degenerate(case):
    """A case the lab declares too small to tell a formula apart (Case.degenerate)."""
    return getattr(case, "degenerate", False) is True


def score(points, cases, named=ALWAYS_NAMED, degenerate=(), rubric=DEFAULT):
    """(points earned, the rule applied) for one step's case results.

    `named` holds the codes that name a mistake (others, like wrong_values or exception, only say
    that something failed). `degenerate` holds the names of cases that earn no credit alone. A case with several calls
    passes only when all of them do. Not rounded: totals are rounded once.
    """
    per_case = {}
    for result in cases:
        per_case[result.case] = per_case.get(result.case, True) and result.passed
    if not per_case:
        return 0.0, {"rule": "no_cases"}
    if all(per_case.values()):
        return float(points), {"rule": "passed"}
    failing = {c.code for c in cases if not c.passed}
    if failing and failing <= set(named):
        code = min(failing, key=rubric.share_of)
        share = rubric.share_of(code)
        return points * share, {"rule": "mistake", "code": code, "percent": round(share * 100)}
    # A degenerate case earns nothing when passed (a wrong formula may pass it) and costs when failed.
    counted = [name for name in per_case if name not in degenerate or not per_case[name]]
    if not counted:
        return 0.0, {"rule": "cases", "passed": 0, "total": 0}
    passed = sum(per_case[name] for name in counted)
    return points * passed / len(counted), {"rule": "cases", "passed": passed, "total": len(counted)}
