"""Which mistake a step's failures are told as, from what its calls show together.

A value matching a declared mistake's prediction is a candidate; one that a passing call, or a
public call's other wrong values, rules out is unlikely (`choose_explanations`, `errors_refuted`).
What several calls show together: the same arguments giving other values, other arguments the
same values (`mark_observed`); right only on the page (`mark_hardcoded`) or only where the inputs
can be known (`mark_fitted_to_public`). After the points are counted, a cause read from the code
rewords what a rule guessed (`caused_by_code`): words only, never points.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from . import rubric
from .rubric import parts
from .case_detail import Raised
from .compare import OtherItem, as_mapping, matches, prepared_values, values_of
from .predictions import predicts, would_fail
from .tolerance import ATOL, RTOL
from .verdict import CaseResult, Outcome, Rule

if TYPE_CHECKING:
    from .declaration import Mistake, Output, Probe, Step

# Codes that only say "wrong" without naming why: the hardcoded rule may explain them.
UNEXPLAINED = {"wrong_values", "wrong_shape"}


def choose_explanations(step: Step, probes: Sequence[Probe], cases: list[CaseResult],
                         outcomes: Sequence[Outcome | None] | None = None) -> list[CaseResult]:
    """Name each failed call's mistake from the predictions its value matched.

    A mistake is unlikely when a call that passed would have failed under it (the student got
    that case right, so they did not make it). Among the likely ones, the mistake explaining most
    failed calls wins, then the smaller one (a single change before a pair), then the order of
    the step's declaration; with none left, the generic code stays.
    """
    if not any(c.matched for c in cases):
        return cases
    if outcomes is not None:
        cases = _matched_everywhere(step, probes, cases, outcomes)
    order = list(dict.fromkeys(m.code for m in step.mistakes))
    size: dict[str, int] = {}
    for mistake in step.mistakes:
        size.setdefault(mistake.code, mistake.size)
    support = {code: sum(code in c.matched for c in cases) for code in order}
    passing = [p for p, c in zip(probes, cases) if c.passed]
    candidates = {code for c in cases for code in c.matched}
    # A code is unlikely when every way of making it fails a call that passed, or when it explains
    # only one-word tests while larger ones failed too (on one word, unlike formulas agree).
    unlikely = {code for code in candidates
                if all(any(would_fail(p, m) for p in passing) for m in step.mistakes if m.code == code)}
    degenerate = [rubric.is_degenerate(p.case) for p in probes]
    if not all(d for d, c in zip(degenerate, cases) if not c.passed):
        unlikely |= {code for code in candidates
                     if not any(code in c.matched for d, c in zip(degenerate, cases) if not d)}
    # A code is refuted by a failed call of a public test that returned other wrong values than
    # every way of making it predicts there (it would have shown itself on that call, and did
    # not; hidden tests may show a second slip beside it): on the page's sizes
    # √2·√2 = √4 makes a divisor twice too large look like √d_model, while a wider test tells them apart.
    unlikely |= {code for code in candidates if any(
        _refutes(p, c, code, step) for p, c, d in zip(probes, cases, degenerate) if not d and not p.case.hidden)}
    # nan or inf a code predicts on one test is not its doing when a public test it gets right
    # shows nan or inf too (0 × -inf in a mask: every test has nan, only one also overflows).
    unlikely |= {code for code in candidates if any(
        not c.passed and not p.case.hidden and not d and c.code == "not_finite" and code not in c.matched
        and all(not would_fail(p, m) for m in step.mistakes if m.code == code)
        for p, c, d in zip(probes, cases, degenerate))}
    chosen: list[CaseResult] = []
    for result in cases:
        if result.matched:
            likely = [code for code in result.matched if code not in unlikely]
            code = min(likely, key=lambda code: (-support[code], size[code], order.index(code))) \
                if likely else result.fallback
            result = replace(result, code=code)
        chosen.append(result)
    return chosen


def errors_refuted(step: Step, probes: Sequence[Probe], cases: list[CaseResult]) -> list[CaseResult]:
    """Cases whose error message named a mistake (ErrorMistake), told as plain errors when a call
    of a public test (not a one-word one) raised another error where that mistake would have raised
    its own message: one slip raises alike on every test, and a message alike by chance (the same
    sizes in another product, on a hidden test's sizes) names nothing."""
    codes = {m.code: m for m in step.error_mistakes}
    told = {c.code for c in cases if c.code in codes}
    if not told:
        return cases
    refuted = set()
    for code in told:
        for probe, result in zip(probes, cases):
            if result.passed or result.code == code or not isinstance(result.detail, Raised) or probe.case.hidden \
                    or rubric.is_degenerate(probe.case):
                continue
            try:
                expected = list(codes[code].messages(probe))
            except Exception:  # a lab's faulty declaration names nothing
                expected = []
            if expected:
                refuted.add(code)
                break
    return [replace(c, code="exception") if c.code in refuted else c for c in cases]


def _refutes(probe: Probe, result: CaseResult, code: str, step: Step) -> bool:
    """Whether a failed call that returned wrong values (no error) rules `code` out: no match of
    it or of a pair holding it, and every mistake of that code predicts a wrong value there."""
    if result.passed or (result.fallback or result.code) not in UNEXPLAINED or isinstance(result.detail, Raised) or \
            any(code == matched or code in parts(matched) for matched in result.matched):
        return False
    mistakes = [m for m in step.mistakes if m.code == code]
    return bool(mistakes) and all(would_fail(probe, m) for m in mistakes)


def _matched_everywhere(step: Step, probes: Sequence[Probe], cases: Sequence[CaseResult],
                        outcomes: Sequence[Outcome | None]) -> list[CaseResult]:
    """Each failed call's matches, completed so that codes compare on every failed call.

    Pairs are searched on a call only when no single change explains it. So a code found on one
    call is also tried on the others (√d_k = 1 hides a missing division on one case); and when
    no code explains every failed call (rounding everywhere, overflow on one case), the pairs
    are tried on all of them: one explanation true everywhere beats two true in parts.
    """
    failed = [(i, probe, values_of(probe, outcome.value))
              for i, (probe, result, outcome) in enumerate(zip(probes, cases, outcomes))
              if not result.passed and outcome is not None and outcome.kind == "returned"]
    matched = {i: list(cases[i].matched) for i, _, _ in failed}
    found = list(dict.fromkeys(code for c in cases for code in c.matched))

    def explains_all(code: str, mistakes: Sequence[Mistake]) -> bool:
        return all(code in matched[i] or any(predicts(probe, m, values) for m in mistakes)
                   for i, probe, values in failed)

    by_code: dict[str, list[Mistake]] = {}
    for mistake in step.mistakes:
        by_code.setdefault(mistake.code, []).append(mistake)
    for code in found:
        for i, probe, values in failed:
            if code not in matched[i] and any(predicts(probe, m, values) for m in by_code[code]):
                matched[i].append(code)
    if not any(all(code in matched[i] for i, _, _ in failed) for code in found):
        for code, mistakes in by_code.items():
            if code not in found and mistakes[0].size > 1 and explains_all(code, mistakes):
                for i, _, _ in failed:
                    matched[i].append(code)
                break
    return [replace(c, matched=matched[i]) if i in matched and matched[i] != c.matched else c
            for i, c in enumerate(cases)]


def mark_observed(step: Step, probes: Sequence[Probe], cases: list[CaseResult], outcomes: Sequence[Outcome | None]
                   ) -> tuple[list[CaseResult], list[str]]:
    """What two calls show together, where no mistake explains the values: the same arguments
    gave different values (random numbers), or other arguments gave the very same values while
    the right answers differ (the function does not use them). Returns (cases, arguments ignored).
    """
    returned = [(i, p, o.value) for i, (p, c, o) in enumerate(zip(probes, cases, outcomes))
                if o is not None and o.kind == "returned" and not c.passed]
    found: dict[int, str] = {}
    ignored: list[str] = []
    for (i, first, got_first), (j, second, got_second) in itertools.combinations(returned, 2):
        if first.label != second.label or not {cases[i].code, cases[j].code} <= UNEXPLAINED:
            continue
        if cases[i].degenerate and cases[j].degenerate:
            # Two tests too small to tell formulas apart (one word) show nothing of the function:
            # a special case for them (`if n == 1: return zeros`) is a wrong answer there, not a
            # function that computes nothing (which would cost the passes of every other test).
            continue
        if not (_comparable(step.outputs, values_of(first, got_first))
                and _comparable(step.outputs, values_of(second, got_second))):
            continue  # values the grader cannot compare (objects it only knows by type) show nothing
        differ = [name for name, a, b in zip(step.params, first.args, second.args) if not _same_argument(a, b)]
        same_values = matches(step.outputs, values_of(first, got_first), values_of(second, got_second))
        if same_values and _maps_to_itself(got_first):
            continue  # every key mapped to itself: a relation of its own (autograder.core.explain), not an argument ignored
        if not differ and not same_values:
            found[i] = found[j] = "nondeterministic"
        elif differ and same_values and not matches(step.outputs, list(first.expected), second.expected) \
                and not _follows(step, probes, cases, outcomes, differ):
            found.setdefault(i, "ignores_arguments")
            found.setdefault(j, "ignores_arguments")
            ignored = ignored or differ
    if not found:
        return cases, []
    # The evidence is about the function, not one case: it explains every unexplained failure.
    code = "nondeterministic" if "nondeterministic" in found.values() else "ignores_arguments"
    return [replace(c, code=code) if not c.passed and c.code in UNEXPLAINED else c for c in cases], \
        ignored if code == "ignores_arguments" else []


def _comparable(outputs: Sequence[Output], values: Sequence[object]) -> bool:
    """Whether two such values could tell "the same" from "other": a mapping holding objects the
    grader knows only by their type (OtherItem) equals nothing, even itself returned again."""
    prepared = prepared_values(outputs, values)
    return prepared is not None and not any(
        isinstance(value, dict) and any(isinstance(item, OtherItem) for item in [*value, *value.values()])
        for value in prepared)


def _maps_to_itself(value: object) -> bool:
    """Whether `value` is a mapping of two keys or more, each to itself (the same values follow
    from the keys alone, whatever else the call was given)."""
    mapping = as_mapping(value)  # plain strings and numbers only: comparing them never raises
    return mapping is not None and len(mapping) > 1 and all(
        isinstance(key, (str, int)) and type(key) is type(item) and key == item for key, item in mapping.items())


def _follows(step: Step, probes: Sequence[Probe], cases: Sequence[CaseResult], outcomes: Sequence[Outcome | None],
             names: Collection[str]) -> bool:
    """Whether two calls that returned (passed or not), their arguments differing in `names` only,
    returned different values: then the function does use those arguments (a softmax right on
    tables and wrong on 1-D input uses its argument, whatever its 1-D answers show)."""
    returned = [(p, o.value) for p, o in zip(probes, outcomes) if o is not None and o.kind == "returned"]
    for (first, got_first), (second, got_second) in itertools.combinations(returned, 2):
        differ = [name for name, a, b in zip(step.params, first.args, second.args) if not _same_argument(a, b)]
        if differ and set(differ) <= set(names) and \
                not matches(step.outputs, values_of(first, got_first), values_of(second, got_second)):
            return True
    return False


# Codes a cause read from the code may reword: the rules' own guesses and the generic ones.
REWORDABLE = UNEXPLAINED | {"hardcoded", "ignores_arguments", "nondeterministic"}
# Causes read from the code (their words only: the points were counted before, from the codes they replace).
CODE_CAUSES = {"global_state", "mutable_default", "reads_global", "unused_argument", "argument_values_lost",
               "fails_off_page", "fails_off_seen"}


def caused_by_code(step: Step, probes: Sequence[Probe], cases: list[CaseResult], outcomes: Sequence[Outcome | None],
                   evidence: Mapping[str, Any], page: str, rule: Rule, ignored: list[str]
                   ) -> tuple[list[CaseResult], Rule, list[str], list[str] | None]:
    """(cases, the rule, the arguments ignored, the names the cause points at or None) with the failures a rule or a generic code told renamed after what the code
    shows: state kept between calls (a module-level name or a default argument the calls change),
    the notebook's globals read in place of arguments, an argument never read; and "hard-coded"
    kept only when the failing calls returned the same values for other inputs, else said as what
    is seen (right on the page's example, wrong on the others).

    Called once the points are counted: the rubric's rule keeps its percent under the new name, so
    a forged report changes the words of a failure and never its points.
    """
    failing = [c for c in cases if not c.passed]
    rule_made = [c for c in failing if c.code in REWORDABLE and not c.matched]
    if not rule_made:
        return cases, rule, ignored, None
    state = _state_shown(outcomes)
    if any(c.code == "nondeterministic" for c in rule_made) and not (state["globals"] or state["defaults"]):
        return cases, rule, ignored, None  # other values on the same call, with no state seen: random numbers, as told
    page_right = any(c.passed for c in cases if c.case == page)
    fitted = any(c.code in ("hardcoded", "ignores_arguments", "nondeterministic") for c in rule_made)
    globals_read = list(evidence.get("globals") or ())
    unused = [name for name in evidence.get("unused") or () if name in step.params]
    hardcoded = any(c.code == "hardcoded" for c in rule_made)
    words: dict[str, list[str]]
    if state.get("globals"):
        code, words = "global_state", {"names": state["globals"]}
    elif state.get("defaults"):
        code, words = "mutable_default", {"names": state["defaults"]}
    elif globals_read and (fitted or page_right):
        code, words = "reads_global", {"names": globals_read}
    elif hardcoded and _same_answer_elsewhere(probes, cases, outcomes, page_right=page_right):
        return cases, rule, ignored, None  # the same answer for other inputs: written in, as told
    elif any(c.code == "ignores_arguments" for c in rule_made) and ignored and evidence.get("unused") is not None \
            and not set(ignored) & {*(evidence.get("unused") or ()), *(evidence.get("rebound") or ())}:
        # The code reads every argument the values ignore and never assigns it anew: not made anew
        # nor taken from the notebook (neither is seen), their values are lost on the way (a label
        # or a position kept where a value was meant, a result overwritten).
        code, words = "argument_values_lost", {"names": list(ignored)}
    elif any(c.code == "ignores_arguments" for c in rule_made):
        return cases, rule, ignored, None  # the values already name the arguments
    elif unused and (hardcoded or page_right):
        code, words = "unused_argument", {"names": unused}
    elif hardcoded:
        # Right where the student could see the inputs; "on the page's example" only when it is.
        code, words = ("fails_off_page" if page_right else "fails_off_seen"), {}
    else:
        return cases, rule, ignored, None
    renamed = [replace(c, code=code) if not c.passed and c.code in REWORDABLE and not c.matched else c
               for c in cases]
    renamed_rule = Rule(**rule)
    if renamed_rule.get("rule") == "mistake" and renamed_rule.get("code") in REWORDABLE:
        renamed_rule["code"] = code
    return renamed, renamed_rule, [], words.get("names", [])


def _state_shown(outcomes: Iterable[Outcome | None]) -> dict[str, Any]:
    """The state the calls say they changed: names of module-level data and of defaults, and
    whether a call made twice returned something else."""
    shown: dict[str, Any] = {"globals": [], "defaults": [], "repeat_differs": False}
    for outcome in outcomes:
        state = getattr(outcome, "state", None) or {}
        for key in ("globals", "defaults"):
            shown[key] += [name for name in state.get(key, ()) if name not in shown[key]]
        shown["repeat_differs"] |= state.get("repeat_differs") is True
    return shown


def _same_answer_elsewhere(probes: Sequence[Probe], cases: Sequence[CaseResult],
                           outcomes: Sequence[Outcome | None], *, page_right: bool) -> bool:
    """Whether each failing call that returned gave, in one of its outputs at least, the very
    values another call gave for other inputs (the page's table written in, returned whatever the
    input): evidence of "hard-coded". Where no failing call returned, only errors: the page's
    sizes written in when the page's example is right (`page_right`); when it raised too, a
    computation right on some sizes by chance, told as what is seen."""
    returned = [(p, c, o.value) for p, c, o in zip(probes, cases, outcomes)
                if o is not None and o.kind == "returned"]
    failing = [(p, got) for p, c, got in returned if not c.passed]
    if not failing:
        return page_right  # only errors on other sizes: the page's sizes written in, as told before

    def same_output(probe: Probe, got: object, other: Probe, value: object) -> bool:
        mine, theirs = values_of(probe, got), values_of(other, value)
        return len(mine) == len(theirs) == len(probe.step.outputs) and any(
            matches([output], [a], [b]) for output, a, b in zip(probe.step.outputs, mine, theirs))
    return all(any(other is not probe and other.case.name != probe.case.name and same_output(probe, got, other, value)
                   for other, _, value in returned)
               for probe, got in failing)


def _same_argument(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape \
            and bool(np.array_equal(a, b, equal_nan=True))
    return a == b


def mark_fitted_to_public(step: Step, probes: Sequence[Probe], cases: list[CaseResult],
                          computed: Callable[[], bool] = lambda: False) -> list[CaseResult]:
    """Answers looked up, not computed: right only on tests whose inputs a student can know, and
    nothing else to show a computation. Its failures, whatever they are (wrong values, None,
    another type, an error with numpy's words or any other, a timeout, a crash, a test not run),
    are `fitted`, which takes the step's points (rubric.score), and those that carry words the
    submission chose (values, an error's name) are told as `hardcoded`, as answers fitted to the
    page are.

    A step computes, and keeps what the rubric gives it, when either shows: a test whose inputs
    the student could not know (`_known_inputs`) and able to tell formulas apart (not degenerate,
    not saturated to 0 and 1: `_tells_formulas_apart`, which a known test must be too to count) is
    right (its values; a changed input does not matter), or such a test returned
    values the judge names (`_named_by_values`: a declared mistake's prediction, a transposed
    table: the formula computed, wrongly). A genuine mistake that only the public tests' sizes hide
    shows one of the two wherever the lab has a hidden test of the public sizes with other values,
    or declares the mistake. Or, third, `computed()`: one known function of the calls' own
    arguments (autograder.core.explain.computes) gives the step's values on every test, those it
    passes and those it fails: a sigmoid where a softmax was meant, right on one public test by
    chance, computes; so does the student's own code shown to compute (its smallest repair: judge_step's
    `computes`, which `computed` asks last). A lookup where the inputs are known with anything computed
    elsewhere is no one function throughout, and stays fitted."""
    known = _known_inputs(probes)
    if not any(c.passed and _tells_formulas_apart(p) for p, c, k in zip(probes, cases, known)
               if k and not rubric.is_degenerate(p.case)):
        return cases  # nothing right that counts: nothing to take back
    unknown = [(p, c) for p, c, k in zip(probes, cases, known) if not k and not rubric.is_degenerate(p.case)]
    named = step.named_codes()  # those that say nothing was computed cost every point already
    if not unknown or any((_values_right(c) and _tells_formulas_apart(p)) or _named_by_values(c, named)
                          for p, c in unknown) or computed():
        return cases
    return [replace(c, fitted=True, code=c.code if c.code in rubric.UNANSWERED else "hardcoded")
            if not k and not _values_right(c) else c for c, k in zip(cases, known)]


def _known_inputs(probes: Sequence[Probe]) -> list[bool]:
    """Per probe, whether a student can know its inputs: a public test's, the very arguments of a
    public test's call (a hidden test that repeats a public one, or shares a call with one), or
    arguments made of public rows only (each array argument's rows, along its last axis, all rows
    of that argument in public calls, every other argument one a public call had): a table of the
    public rows answers a step that works row by row there (the page's table less its last row)."""
    public = [p.args for p in probes if not p.case.hidden]
    rows: dict[int, set[bytes]] = {}
    for args in public:
        for position, value in enumerate(args):
            if isinstance(value, np.ndarray) and value.ndim >= 1 and value.dtype.kind in "biuf":
                rows.setdefault(position, set()).update(_rows_of(value))
    return [not p.case.hidden or any(_same_arguments(p.args, args) for args in public)
            or _made_of_public_rows(p.args, public, rows) for p in probes]


def _rows_of(value: np.ndarray[Any, Any]) -> set[bytes]:
    flat = np.ascontiguousarray(value, dtype=float).reshape(-1, value.shape[-1] if value.shape[-1] else 1)
    return {row.tobytes() + bytes(str(value.shape[-1]), "ascii") for row in flat}


def _made_of_public_rows(args: Sequence[object], public: Sequence[Sequence[object]], rows: Mapping[int, set[bytes]]) -> bool:
    if not any(isinstance(value, np.ndarray) for value in args):
        return False
    for position, value in enumerate(args):
        if isinstance(value, np.ndarray) and value.ndim >= 1 and value.dtype.kind in "biuf":
            if not value.size or not _rows_of(value) <= rows.get(position, set()):
                return False
        elif not any(len(call) == len(args) and _same_value(value, call[position]) for call in public):
            return False
    return True


def _tells_formulas_apart(probe: Probe) -> bool:
    """Whether a right answer to this test shows a computation: not when every expected value of
    a float output is 0 or 1 within the judge's tolerance (a softmax saturated by large scores),
    which a hard maximum, or a guess of zeros and ones, passes too. A mask's True and False are a
    step's own answer, not a saturation: only float outputs are read."""
    for value in probe.expected:
        if isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.size > 1 and np.isfinite(value).all():
            # ten times the judge's absolute tolerance: it scales with the values a test holds
            near = np.isclose(value, 0.0, rtol=RTOL, atol=10 * ATOL) | np.isclose(value, 1.0, rtol=RTOL, atol=10 * ATOL)
            if near.all():
                return False
    return True


def _same_arguments(a: Sequence[object], b: Sequence[object]) -> bool:
    return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))


def _same_value(a: object, b: object) -> bool:
    """Equal values of the lab's own arguments (arrays, numbers, words and their containers)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _same_argument(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and _same_arguments(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_value(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _values_right(result: CaseResult) -> bool:
    """Right values: passed, or right with an input changed on the way (`mutates_input`)."""
    return result.passed or result.code == "mutates_input"


def _named_by_values(result: CaseResult, named: Collection[str]) -> bool:
    """A failed call whose returned value the judge names as a mistake (a declared mistake's
    prediction, a transposed table). An error's name is words only (its message is the
    submission's to write): never evidence."""
    return not result.passed and not result.raised and result.code in named


def written_in_refuted(cases: list[CaseResult], computed: Callable[[], bool]) -> list[CaseResult]:
    """Failures named `hardcoded` by a declared mistake's prediction (the page's numbers written in)
    told by their values instead when the function is shown to compute (`computed()`, judge_step's
    `computes`): a fourth root of 4 on one side is √2, the page's divisor, by chance."""
    if not any(not c.passed and c.code == "hardcoded" for c in cases) or not computed():
        return cases
    return [replace(c, code=c.fallback or "wrong_values", matched=[m for m in c.matched if m != "hardcoded"])
            if not c.passed and c.code == "hardcoded" else c for c in cases]


def mark_hardcoded(probes: Sequence[Probe], cases: list[CaseResult], page: str,
                   computed: Callable[[], bool] = lambda: False) -> list[CaseResult]:
    """Right on the page's case, wrong with no better explanation on inputs of other sizes.

    A failure on a case of the page's own sizes alone (the large-valued hidden one) says nothing
    about fitted numbers, so it keeps its generic code. Once fitted numbers are shown, a plain
    error on inputs of other sizes (the page's sizes written in) is told as the same mistake,
    unless `computed()`: the function is shown to compute (judge_step's `computes`).
    """
    on_page = [c for c in cases if c.case == page]
    if not on_page or not all(c.passed for c in on_page):
        return cases
    page_sizes = next(p.case.sizes() for p in probes if p.case.name == page)
    unexplained = [(p, c) for p, c in zip(probes, cases) if not c.passed and c.code in UNEXPLAINED]
    if not any(p.case.sizes() != page_sizes for p, _ in unexplained):
        return cases
    # Right on a test of other sizes (more than one word): the sizes are read, not written in;
    # the failure lies elsewhere (d_v ≠ d_k, say).
    if any(c.passed and p.case.sizes() != page_sizes and not rubric.is_degenerate(p.case)
           for p, c in zip(probes, cases)):
        return cases

    def fitted(probe: Probe, result: CaseResult) -> bool:
        return not result.passed and (result.code in UNEXPLAINED or (
            result.code == "exception" and probe.case.sizes() != page_sizes))
    if computed():
        return cases
    return [replace(c, code="hardcoded") if fitted(p, c) else c for p, c in zip(probes, cases)]
