"""`grader.check("softmax")` in the student's own notebook: Otter runs the step's public check, and
the kernel shows the kit's feedback (the step's header and score, the text, the heat-maps, which
helpers the reference stood in for), not Otter's wrapper around an exception.

Each test file of the student half holds one StepCase, an Otter test case: Otter counts it passed
or failed and its points, as for any test. What the check found is kept on the case (a Verdict);
the kernel's display formatters, registered here for Otter's result types, render Verdicts, and
`grader.check` returns a CheckResult, which reads as the kit's text also when printed (the .py twin's
cells run in a kernel by VS Code). Result objects this kit did not make keep Otter's own display.
In a terminal the .py twin's grader is kit/ready.py's ScriptChecks: the same text, without Otter.

Runs inside the student's kernel, for the student's own feedback; scores that count are decided
by the course's grader, never here.
"""
import html
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from otter.test_files import GradingResults, test_case
from otter.test_files.abstract_test import TestFile

from ..core.cells import kernel_cell
from ..core.pictures import step_maps
from ..core.render.messages import case_names
from ..core.render.step import step_feedback
from . import public
from .check import FramedProbeCall, Outcome, ProbeCall, StepFunction, judge_public
from .cli import with_deadline
from .public import LANG_VARIABLE  # noqa: F401 (the variable the set-up cell sets)
from .public import Probe
from .terminal import kernel_shell

STEP_SECONDS = 10.0
CASE_NAMES = {"ko": "{step} 공개 테스트", "en": "{step} public cases"}
NOT_PASSED = {"ko": "이 단계를 통과하지 못했습니다", "en": "this step did not pass"}
TOTAL = {"ko": "공개 테스트 합계 {score} / {max_score}점. 최종 점수는 숨은 테스트까지 넣어 강의의 채점기가 매깁니다.",
         "en": "Public cases: {score} / {max_score} points in total. The course's grader sets the final "
               "score, hidden cases included."}
STYLE = (".ag-check{margin:.25rem 0 .75rem;border-left:4px solid #b3261e;padding:.25rem .75rem}"
         ".ag-check.ag-pass{border-left-color:#1e7b34}"
         ".ag-check .ag-head{font-weight:bold;margin:.25rem 0;color:#b3261e}"
         ".ag-check.ag-pass .ag-head{color:#1e7b34}"
         ".ag-check pre{white-space:pre-wrap;margin:.25rem 0;font-size:.9em}"
         ".ag-total{font-weight:bold;margin:.5rem 0}")


def notebook_lang() -> str:
    """The checks' language: the set-up cell's (the notebook's, or the student's own choice), else
    the student half's (see public.lang)."""
    return public.lang()


@dataclass(frozen=True)
class Verdict:
    """What one check of a step found, as the student reads it."""

    step: str
    passed: bool
    score: float
    max_score: float
    text: str  # the step's feedback: header, text, notes
    maps: str = ""  # heat-maps of a failed table (HTML), "" when there are none


class StepNotPassed(Exception):
    """Raised to Otter when a step's public check did not pass; its text is the kit's feedback."""


class StepCase(test_case):  # type: ignore[misc]  # Otter ships no types
    """Otter's test case for one step's public check, worth the step's points. It decorates the
    test file's function, which Otter's run calls as `function(env, case)`:

        @StepCase("softmax", points=2)
        def public_cases(env, case):
            case.check(env)

    (A failure raised from the test file's own line reads sensibly in Otter's plain-text summary,
    which a terminal running the .py twin shows.)
    """

    def __init__(self, step: str, points: float) -> None:
        super().__init__(name=CASE_NAMES[notebook_lang()].format(step=step), points=points, hidden=False)
        self.step = step
        self.verdict: Verdict | None = None

    def call_func(self, global_environment: dict[str, object]) -> None:
        self.test_func(global_environment, self)

    def check(self, env: Mapping[str, object]) -> None:
        """Judge the step on the public cases in the namespace `env`; raise StepNotPassed unless it passed."""
        self.verdict = None
        verdict = check_in_kernel(self.step, env, notebook_lang())
        self.verdict = verdict
        show_verdicts()
        if not verdict.passed:
            raise StepNotPassed(verdict.text)

    def __getstate__(self) -> dict[str, Any]:
        # Otter keeps results in its log (.OTTER_LOG): the text, not the pictures.
        state: dict[str, Any] = super().__getstate__()
        if state.get("verdict") is not None:
            state["verdict"] = Verdict(**{**state["verdict"].__dict__, "maps": ""})
        return state


def check_in_kernel(step: str, env: Mapping[str, object], lang: str = "ko") -> Verdict:
    """The Verdict of `step` on the public cases, calling the functions found in `env`; locations
    in the student's code are named by their notebook cell."""
    lab = public.load()[0]
    result = judge_public(step, env, call=_kernel_call(with_deadline(STEP_SECONDS)))
    maps = "" if result.status == "passed" else step_maps(result, lang, lab.page_case,
                                                          names=case_names(lab, lang))
    return Verdict(step=step, passed=result.status == "passed", score=result.score,
                   max_score=float(result.max_score), text=step_feedback(result, lab, lang), maps=maps)


def _kernel_call(call: FramedProbeCall) -> ProbeCall:
    """A probe call whose error frames are the student's cells, each named by the number Jupyter
    shows beside it, never by the kernel's temporary file. Warnings the call raises (numpy's
    overflow) are not printed: they would name that file, and the feedback explains them, as the
    course's grader does."""
    def kernel_call(function: StepFunction, probe: Probe, stand_ins: Sequence[str] = ()) -> Outcome:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outcome = call(function, probe, filenames=StudentCells(function), stand_ins=stand_ins)
        if outcome.error:
            outcome.error = {**outcome.error, "frames": [
                [cell_name(filename), *rest] for filename, *rest in outcome.error.get("frames", [])]}
        return outcome

    return kernel_call


class StudentCells:
    """The code files that are the student's in a kernel: the checked function's own, and every
    cell the kernel ran (a helper defined in another cell is the student's too)."""

    def __init__(self, function: object) -> None:
        self.own: str | None = getattr(getattr(function, "__code__", None), "co_filename", None)

    def __contains__(self, filename: object) -> bool:
        return filename == self.own or _cell_number(filename) is not None or _is_kernel_file(filename)


_OLD_IPYTHON_CELL = re.compile(r"<ipython-input-(\d+)-")
_KERNEL_FILE = re.compile(r"[/\\]ipykernel_\d+[/\\]\d+\.py$")


def cell_name(filename: str) -> str:
    """"<kernel cell 7>" for code the kernel ran as In [7]; "<kernel cell>" for a kernel file whose
    number is unknown; any other file name as it is (its folders are not shown: see render)."""
    number = _cell_number(filename)
    if number is not None or _is_kernel_file(filename):
        return kernel_cell(number)
    return filename


def _cell_number(filename: object) -> int | None:
    if not isinstance(filename, str):
        return None
    old = _OLD_IPYTHON_CELL.match(filename)  # IPython 7 (Colab): <ipython-input-7-1a2b3c>
    if old:
        return int(old.group(1))
    compiler: Any = getattr(kernel_shell(), "compile", None)
    try:
        label = compiler.format_code_name(filename)  # IPython 8+: ("Cell", "In[7]")
    except Exception:  # noqa: BLE001 - no kernel, or an IPython without it
        return None
    found = re.search(r"\[(\d+)\]", label[1]) if label else None
    return int(found.group(1)) if found else None


def _is_kernel_file(filename: object) -> bool:
    return isinstance(filename, str) and bool(_KERNEL_FILE.search(filename))


# Display ---------------------------------------------------------------------------------------

def show_verdicts() -> None:
    """Register the kit's rendering of Otter's results with the kernel (text and HTML); idempotent."""
    shell = kernel_shell()
    if shell is None:
        return
    try:
        formatters = shell.display_formatter.formatters
        formatters["text/html"].for_type(TestFile, _test_file_html)
        formatters["text/plain"].for_type(TestFile, _test_file_text)
        formatters["text/html"].for_type(GradingResults, _results_html)
        formatters["text/plain"].for_type(GradingResults, _results_text)
    except Exception:  # noqa: BLE001 - Otter's own display stays; the check itself is unchanged
        pass


class CheckResult:
    """What the notebook's `grader.check("softmax")` returns: Otter's result, shown as the kit's
    feedback however it is shown (the cell's value, print(), str()), never Otter's own summary;
    anything else is asked of Otter's result."""

    def __init__(self, test_file: object) -> None:
        self.test_file = test_file

    def __getattr__(self, name: str) -> Any:
        if name == "test_file":  # not set yet (a copy being made): no recursion
            raise AttributeError(name)
        return getattr(self.test_file, name)

    def __repr__(self) -> str:
        verdicts = verdicts_of(self.test_file)
        return "\n\n".join(v.text for v in verdicts) if verdicts else repr(self.test_file)

    __str__ = __repr__

    def _repr_html_(self) -> str:
        return _test_file_html(cast(TestFile, self.test_file))


def verdicts_of(test_file: object) -> list[Verdict] | None:
    """The Verdicts of a test file this kit made, else None (another course's test: Otter's own display)."""
    results = getattr(test_file, "test_case_results", None) or []
    verdicts = [getattr(result.test_case.body, "verdict", None) for result in results]
    if not verdicts or any(not isinstance(verdict, Verdict) for verdict in verdicts):
        return None
    return cast(list[Verdict], verdicts)  # each is a Verdict: checked just above


def _test_file_text(test_file: TestFile, printer: Any, cycle: bool) -> None:
    verdicts = verdicts_of(test_file)
    printer.text("\n\n".join(v.text for v in verdicts) if verdicts else TestFile.__repr__(test_file))


def _test_file_html(test_file: TestFile) -> str:
    verdicts = verdicts_of(test_file)
    if not verdicts:
        own: str = test_file._repr_html_()
        return own
    return _block("".join(verdict_html(v) for v in verdicts))


def _ordered(results: object) -> list[Verdict] | None:
    """The kit's Verdicts of a check_all, in the lab's step order; None when any file is not the kit's."""
    files = list(getattr(results, "results", {}).values())
    verdicts = [verdicts_of(getattr(entry, "test_file", entry)) for entry in files]
    if not verdicts or any(v is None for v in verdicts):
        return None
    order = {name: index for index, name in enumerate(public.load()[0].function_names)}
    groups = cast(list[list[Verdict]], verdicts)  # none is None: checked just above
    return sorted((v for group in groups for v in group), key=lambda v: order.get(v.step, len(order)))


def _total(verdicts: Sequence[Verdict], lang: str) -> str:
    score = sum(v.score for v in verdicts)
    max_score = sum(v.max_score for v in verdicts)
    return TOTAL[lang].format(score=f"{round(score, 2):g}", max_score=f"{round(max_score, 2):g}")


def _results_text(results: GradingResults, printer: Any, cycle: bool) -> None:
    verdicts = _ordered(results)
    if verdicts is None:
        printer.text(repr(results))
        return
    printer.text("\n\n".join([*(v.text for v in verdicts), _total(verdicts, notebook_lang())]))


def _results_html(results: GradingResults) -> str | None:
    verdicts = _ordered(results)
    if verdicts is None:
        return None  # Otter's own (GradingResults has no HTML of its own: the text is shown)
    total = f"<p class=\"ag-total\">{html.escape(_total(verdicts, notebook_lang()))}</p>"
    return _block("".join(verdict_html(v) for v in verdicts) + total)


def verdict_html(verdict: Verdict) -> str:
    """One step: a coloured header line, the rest of its text, and its heat-maps."""
    head, _, rest = verdict.text.partition("\n")
    kind = "ag-pass" if verdict.passed else "ag-fail"
    return (f"<div class=\"ag-check {kind}\" data-step=\"{html.escape(verdict.step)}\">"
            f"<p class=\"ag-head\">{html.escape(head)}</p>"
            + (f"<pre>{html.escape(rest)}</pre>" if rest.strip() else "") + verdict.maps + "</div>")


def _block(inner: str) -> str:
    return f"<div class=\"ag-checks\"><style>{STYLE}</style>{inner}</div>"
