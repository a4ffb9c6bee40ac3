"""Grading one submission: plan the calls, run them in the sandbox, judge the outcomes."""
from dataclasses import dataclass
from functools import cached_property

from . import reference
from .cases import public_cases
from .judge import StepResult, SubmissionResult, CaseResult, judge_step
from .sandbox import codec
from .sandbox.runner import Call, Limits, run
from .steps import STEPS
from .submission import read_submission


@dataclass(frozen=True)
class Plan:
    """Every probe of every step, built once from the cases and the reference."""

    probes: dict  # step name -> [Probe]

    @classmethod
    def build(cls, cases=None, steps=STEPS):
        cases = all_cases() if cases is None else cases
        traces = [(case, reference.trace(case)) for case in cases]
        return cls({step.name: [p for case, t in traces for p in step.probes(case, t)] for step in steps})

    @cached_property
    def calls(self):
        """(calls in run order, probe of each call id), encoded once per plan.

        Steps graded with the other steps' functions go last, and the grader answers those
        functions itself (helper requests): the child never holds reference code, and by the
        time it may ask for the other steps' values it has answered every other step.
        """
        ordered = sorted(STEPS, key=lambda step: step.needs_helpers)
        calls, probe_of = [], {}
        for step in ordered:
            helpers = reference_helpers(step)
            for probe in self.probes[step.name]:
                args = tuple(codec.encode(a) for a in probe.args)
                call = Call(len(calls), step.name, step.name, args, helpers, answer_bytes(args, probe.expected))
                calls.append(call)
                probe_of[call.id] = probe
        return calls, probe_of

    @cached_property
    def call_ids(self):
        calls, _ = self.calls
        return {step.name: [c.id for c in calls if c.step == step.name] for step in STEPS}

    @cached_property
    def _verdicts(self):
        return {}

    def verdict(self, step, facts, outcomes):
        """judge_step, once per distinct answer: a class mostly repeats a few answers per step.

        Only outcomes the child sent as events are remembered (by their bytes); a step that ran
        out of time is judged afresh, its result being completed afterwards.
        """
        events = tuple(o.event if o is not None else None for o in outcomes)
        small = sum(len(e) for e in events if e) <= VERDICT_EVENT_BYTES
        key = (step.name, facts, events) if small and (all(events) or facts[0] != "function") else None
        if key is not None and key in self._verdicts:
            return self._verdicts[key]
        _, probe_of = self.calls
        result = judge_step(step, [probe_of[i] for i in self.call_ids[step.name]], outcomes, *facts)
        if key is not None:
            if len(self._verdicts) >= MAX_VERDICTS:
                self._verdicts.clear()  # memory stays bounded; the common answers come back first
            self._verdicts[key] = result
        return result


MAX_VERDICTS = 256  # remembered step verdicts per plan, all steps together
VERDICT_EVENT_BYTES = 64 * 1024  # a step's events are remembered with its verdict only when this small
ANSWER_SLACK = 16  # a right answer written as lists of numbers takes about 3 times its encoded size
ANSWER_FLOOR = 64 * 1024


def reference_helpers(step):
    """The step functions the grader answers with the reference's while `step` runs.

    Every other step for a composed step, so that it is graded on its own; none otherwise.
    """
    if not step.needs_helpers:
        return ()
    return tuple(other.name for other in STEPS if other.name != step.name)


def answer_bytes(encoded_args, expected):
    """The largest answer event read for a call: the right answer and the arguments sent back
    changed, many times over. Anything larger cannot be a right answer."""
    size = sum(len(codec.dumps(codec.encode(value))) for value in expected)
    size += sum(len(codec.dumps(arg)) for arg in encoded_args)
    return ANSWER_FLOOR + ANSWER_SLACK * size


def all_cases():
    """Public cases, then the hidden ones (the grader's copy always ships with them)."""
    from .hidden import hidden_cases

    return public_cases() + hidden_cases()


class SandboxError(RuntimeError):
    """The sandbox failed before any student code ran; the submission cannot be graded now."""


def grade_file(path, zygote, limits=Limits(), plan=None, display_name=None):
    """Read and grade one file; unreadable files are graded as broken, never raised."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return broken(display_name or str(path), "unreadable", error.strerror or str(error))
    return grade_bytes(display_name or str(path), data, zygote, limits, plan)


def grade_bytes(name, data, zygote, limits=Limits(), plan=None):
    submission = read_submission(name, data)
    if submission.problem:
        return broken(name, submission.problem, submission.problem_detail)
    plan = plan or Plan.build()
    calls, _ = plan.calls
    outcome = run(zygote, submission.cells, calls, limits, reference.answer_helper,
                  functions=[step.name for step in STEPS])
    if any(event.get("ev") == "sandbox_failed" for event in outcome.load_events):
        # The child died before running a line of the submission: the grader's fault, not the student's.
        raise SandboxError("the sandbox could not start a process to run the submission in")
    notes = [_note(event, submission) for event in outcome.load_events]
    steps = []
    for step in STEPS:
        ids = plan.call_ids[step.name]
        outcomes = [outcome.calls.get(i) for i in ids]
        # Whether the function is a stub matters only for a call that returned None.
        stub = any(o is not None and o.kind == "returned" and o.value is None for o in outcomes) \
            and step.name in submission.stubs
        facts = (outcome.names.get(step.name, "absent"), stub, _syntax_error_near(step.name, notes, submission))
        result = plan.verdict(step, facts, outcomes)
        if result.status == "timeout":
            result.detail["seconds"] = limits.step_seconds
        steps.append(result)
    return SubmissionResult(name, steps, notes)


def broken(name, problem, detail=""):
    """A submission that could not be read: every step errors with the same cause."""
    steps = [StepResult(step.name, 0.0, step.points, "error", [problem],
                        [CaseResult("page", False, "", False, problem)], step.page_step)
             for step in STEPS]
    return SubmissionResult(name, steps, [{"code": "problem", "problem": problem, "detail": detail}])


def _note(event, submission):
    kind = event.get("ev")
    note = {"code": kind}
    cell = event.get("cell")
    if isinstance(cell, int) and 0 <= cell < len(submission.cells):
        note["filename"] = submission.cells[cell]["filename"]
        note["cell"] = cell
    note["line"] = event.get("line")
    for key in ("type", "message"):
        if key in event:
            note[key] = str(event[key])[:300]
    return note


def _syntax_error_near(name, notes, submission):
    for note in notes:
        if note["code"] == "syntax_error" and "cell" in note:
            if f"def {name}" in submission.cells[note["cell"]]["source"]:
                return True
    return False
