"""A lab's plan: every probe of every step, the calls made of them in run order, the grader's
stand-in answers, and each step's verdict remembered once per distinct answer."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from ..helpers import StandInAnswers
from ..core.judge import judge_step
from ..repair.cases import repair_cases, without_hidden
from ..core.child import codec
from ..sandbox.runner import Call
from ..core.stand_in import keyword_parameters

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any

    from ..core.declaration import Case, Probe, Step
    from ..core.lab import Lab
    from ..core.child.codec import Encoded
    from ..sandbox.runner import CallOutcome
    from ..core.verdict import CaseResult, StepResult

    # What is known of a step's function before its calls are judged: what the child says it is
    # ("function", "absent", a type's name), whether it is a stub, whether a syntax error is near it.
    Facts = tuple[str, bool, Any]


ALL, PUBLIC = "all", "public"
SCOPES = (ALL, PUBLIC)  # a submission is judged on all its tests, and apart on its public tests alone


@dataclass(frozen=True)
class Plan:
    """Every probe of every step of a lab, built once from its cases and its reference."""

    lab: Lab
    probes: dict[str, list[Probe]]  # step name -> [Probe]

    @classmethod
    def build(cls, lab: Lab, cases: Sequence[Case] | None = None) -> Plan:
        """The plan on `cases`, by default the lab's public cases then its hidden ones."""
        cases = lab.all_cases() if cases is None else cases
        traces = [(case, lab.trace(case)) for case in cases]  # type: ignore[misc]  # a graded lab has its trace
        return cls(lab, {step.name: [p for case, t in traces for p in step.probes(case, t)] for step in lab.steps})

    @cached_property
    def calls(self) -> tuple[list[Call], dict[int, Probe]]:
        """(calls in run order, probe of each call id), encoded once per plan.

        The plain steps come first: every public test of every step, then every hidden test, so
        a child has answered all public tests before it is given any hidden test's input, and
        nothing it says about a public test can carry a hidden value. The composed steps go last,
        in the lab's grading order (each after the steps it calls), each its public tests before
        its hidden ones; the grader answers their helpers itself (`stand_ins`), so the child never
        holds reference code, and by the time it may ask for the other steps' values it has
        answered every other step. A composed call may have stand-ins for every step it reaches
        (a callee that runs as the student's own may call one that did not pass). Each call says
        whether its test is public and its step composed: which calls share a child follows
        from that alone (driver.may_share).
        """
        lab = self.lab
        plain = [step for step in lab.grading_order if not step.composed]
        composed = [step for step in lab.grading_order if step.composed]
        order = [(step, hidden) for hidden in (False, True) for step in plain] + \
            [(step, hidden) for step in composed for hidden in (False, True)]
        signatures = lab.callee_signatures if composed else {}
        calls: list[Call]
        probe_of: dict[int, Probe]
        calls, probe_of = [], {}
        for step, hidden in order:
            helpers = lab.reachable_from(step)
            takes = tuple((name, keyword_parameters(signatures.get(name))) for name in helpers)
            for probe in self.probes[step.name]:
                if probe.case.hidden != hidden:
                    continue
                args = tuple(codec.encode(a) for a in probe.args)
                call = Call(len(calls), step.name, step.name, args, helpers, answer_bytes(args, probe.expected),
                            takes=takes, public=not hidden, composed=step.composed)
                calls.append(call)
                probe_of[call.id] = probe
        return calls, probe_of

    @cached_property
    def repair_plan(self) -> Plan:
        """The plan a repair is checked on: public and generated cases only (autograder.repair)."""
        return Plan.build(self.lab, without_hidden(repair_cases(self.lab)))

    @cached_property
    def stand_ins(self) -> StandInAnswers:
        """The helper requests of a composed call are answered from its own test's table only."""
        calls, probe_of = self.calls
        tables: dict[int, tuple[Any, ...]]  # call id -> its test's stand-in table
        of_case: dict[int, tuple[Any, ...]]  # id of a case -> its table
        tables, of_case = {}, {}
        for call in calls:
            probe = probe_of[call.id]
            if call.helpers and self.lab.stand_ins is not None:
                if id(probe.case) not in of_case:
                    of_case[id(probe.case)] = tuple(self.lab.stand_ins(probe.case, probe.trace))
                tables[call.id] = of_case[id(probe.case)]
        signatures = self.lab.callee_signatures if any(step.composed for step in self.lab.steps) else {}
        return StandInAnswers(tables, signatures)

    @cached_property
    def _call_ids(self) -> dict[tuple[str, str], list[int]]:
        calls, probe_of = self.calls
        ids: dict[tuple[str, str], list[int]] = {(step.name, scope): [] for step in self.lab.steps for scope in SCOPES}
        for call in sorted(calls, key=lambda c: c.id):
            ids[(call.step, ALL)].append(call.id)
            if not probe_of[call.id].case.hidden:
                ids[(call.step, PUBLIC)].append(call.id)
        # In the order of the step's probes (public tests first), whatever the run order.
        order = {id(probe): index for step in self.lab.steps for index, probe in enumerate(self.probes[step.name])}
        return {key: sorted(value, key=lambda i: order[id(probe_of[i])]) for key, value in ids.items()}

    def call_ids(self, step: str, scope: str = ALL) -> list[int]:
        """The ids of a step's calls in `scope` (ALL, or PUBLIC: its public tests only)."""
        return self._call_ids[(step, scope)]

    def in_scope(self, call: Call, scope: str) -> bool:
        return scope == ALL or not self.calls[1][call.id].case.hidden

    @cached_property
    def _verdicts(self) -> dict[tuple[object, ...], StepResult]:
        return {}

    def verdict(self, step: Step, facts: Facts, outcomes: Sequence[CallOutcome | None], variant: Iterable[str] = (),
                scope: str = ALL, evidence: dict[str, Any] | None = None,
                computes: Callable[[list[CaseResult]], bool] | None = None) -> StepResult:
        """judge_step, once per distinct answer: a class mostly repeats a few answers per step.

        Only outcomes the child sent as events are remembered (by their bytes, and the grader's
        own record of refused helper requests); a step that ran out of time is judged afresh,
        its result being completed afterwards. `computes`: judge_step's; a verdict remembered for
        the same answers to every test, hidden ones too, is not asked it again (answers that alike
        are one function's).
        """
        events = tuple(o.event if o is not None else None for o in outcomes)
        refusals = tuple(tuple((r["helper"], r["reason"]) for r in o.refused) if o is not None else ()
                         for o in outcomes)
        small = sum(len(e) for e in events if e) <= VERDICT_EVENT_BYTES
        evidence = evidence or {}
        code = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(evidence.items()))
        key = (step.name, scope, facts, tuple(variant), events, refusals, code) \
            if small and (all(events) or facts[0] != "function") else None
        if key is not None and key in self._verdicts:
            return self._verdicts[key]
        _, probe_of = self.calls
        result: StepResult = judge_step(step, [probe_of[i] for i in self.call_ids(step.name, scope)], outcomes, *facts,
                            page=self.lab.page_case, vocabulary=self.lab.vocabulary, evidence=evidence,
                            computes=computes)
        if key is not None:
            if len(self._verdicts) >= MAX_VERDICTS:
                self._verdicts.clear()  # memory stays bounded; the common answers come back first
            self._verdicts[key] = result
        return result

MAX_VERDICTS = 256  # remembered step verdicts per plan, all steps together
VERDICT_EVENT_BYTES = 64 * 1024  # a step's events are remembered with its verdict only when this small
ANSWER_SLACK = 16  # a right answer written as lists of numbers takes about 3 times its encoded size
ANSWER_FLOOR = 64 * 1024


def answer_bytes(encoded_args: Iterable[Encoded], expected: Iterable[object]) -> int:
    """The largest answer event read for a call: the right answer and the arguments sent back
    changed, many times over. Anything larger cannot be a right answer."""
    size = sum(len(codec.dumps(codec.encode(value))) for value in expected)
    size += sum(len(codec.dumps(arg)) for arg in encoded_args)
    return ANSWER_FLOOR + ANSWER_SLACK * size
