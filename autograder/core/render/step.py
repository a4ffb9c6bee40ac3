"""One step's feedback: its verdict, the first public failure in detail, hidden failures by name
only, the likely causes, one hint to the page, and the grading rule that gave its points."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from ..case_detail import MappingValues, MutatedInput, Raised, WrongCount, WrongShape, WrongType, WrongValues
from ..guard import piece
from ..judge import EXPLAINABLE
from ..rubric import JOIN, parts
from ..verdict import HELPER_LISTS_AS_ARRAYS
from ..child.protocol import MAX_HELPER_REQUESTS as MAX_REQUESTS  # per call; stand_in counts the same
from .explained import explained_text, repair_text
from .messages import Messages, case_label, line_place, place_in_own_file, points_text
from .text import one_line, position

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping, Sequence

    from ..case_detail import Cell, RaisedError
    from ..lab import Lab
    from ..verdict import CaseResult, StepResult

def step_feedback(result: StepResult, lab: Lab, lang: str = "ko") -> str:
    """Everything a student needs about one step: verdict, first public failure in detail,
    hidden failures by name only, then likely causes and one hint to the page."""
    say = Messages(lang, lab)
    problem = result.file_problem
    if problem:  # the file's one problem is told once, above the steps
        status = f"{problem}_status" if f"{problem}_status" in say.table["text"] else "file_problem_status"
        return say("text", "step_header", name=result.name, score=points_text(result.score),
                   max_score=points_text(result.max_score), status=say("text", status))
    lines = [say("text", "step_header", name=result.name, score=points_text(result.score),
                 max_score=points_text(result.max_score), status=say("status", result.status))]
    if result.status == "passed":
        lines.append("  " + say("text", "passed_line", count=len(result.cases)))  # one test = one call
        return "\n".join(lines + _follows_lines(say, result) + _helper_lines(say, result))
    if result.status == "missing":
        return "\n".join(lines + _missing_lines(say, result))
    in_helper = error_in_helper(result)
    if in_helper:
        result = _errors_as_raised(result)
    repaired = repair_text(say, result)
    if repaired:
        result = _guesses_dropped(result, say)
    failing = [c for c in result.cases if not c.passed]
    public = [c for c in failing if not c.hidden]
    hidden = [c for c in failing if c.hidden]
    # The first failing public test in detail, and the first that raised too when it is another:
    # the cause of an error points at the line shown above.
    raised = next((c for c in public if isinstance(c.detail, Raised)), None)
    for position, case in enumerate(public):
        lines.append("  " + say("text", "case_failed", case=_case_name(say, case),  # a failed test has a code:
                                title=say.stepwise("title", result.name, cast(str, case.code))))
        if position == 0 or case is raised:
            lines.extend("    " + line for line in _explain(say, result, case))
    if hidden:
        lines.extend("  " + line for line in _hidden_lines(say, result, hidden, shown_error=any(
            isinstance(c.detail, Raised) for c in public[:1]), public_codes={c.code for c in public}))
    explained: str | None = explained_text(say, result)
    if in_helper:
        # Values read against the helper's own step would blame the helper for what it was handed.
        explained = None
    if repaired:
        # One edit of the student's own code, checked against the reference on every public and
        # generated input, names the place: it is the cause, in place of the causes read off values.
        lines.append("  " + say("text", "cause", text=repaired))
    for rank, code in enumerate(result.mistakes if not repaired else ()):
        # Each further code comes from other cases than the first: say so, not "likely cause" twice.
        key = "cause" if rank == 0 else "cause_other"
        text = _cause(say, result, code)
        if in_helper and code == "exception":
            text = _helper_error_cause(say, result, in_helper)
        if explained and code in EXPLAINABLE:  # what the values show, in place of "compare each line"
            text, explained = explained, None
        lines.append("  " + say("text", key, text=text))
    lines.extend(_redefined_lines(say, result))
    lines.extend(_helper_lines(say, result))
    lines.append("  " + say("text", "hint", page_step=result.page_step, text=_hint(say, result)))
    lines.extend("  " + line for line in _rubric_lines(say, result))
    return "\n".join(lines)


def guarded_step_feedback(result: StepResult, lab: Lab, lang: str = "ko") -> str:
    """step_feedback as a piece of the grader's own work on a submission's values (guard.piece):
    when it cannot be written, the step's header and a sentence saying so, and the points stand."""
    written = piece(f"the feedback of step {result.name}", step_feedback, result, lab, lang)
    if written.value is not None:
        return written.value
    say = Messages(lang, lab)
    return "\n".join([say("text", "step_header", name=result.name, score=points_text(result.score),
                          max_score=points_text(result.max_score), status=say("status", result.status)),
                      "  " + say("text", "feedback_not_written", type=written.failure)])


def _redefined_lines(say: Messages, result: StepResult) -> list[str]:
    """A function defined more than once: which definition was graded (the one run last), and
    where the others are (submission.redefined)."""
    found = result.redefined
    if found is None:
        return []
    others = ", ".join(place_in_own_file(say, name, line) for name, line in found.others)
    return ["  " + say("text", "redefined", name=result.name, place=place_in_own_file(say, *found.graded),
                       others=others)]


def _guesses_dropped(result: StepResult, say: Messages) -> StepResult:
    """`result` with the codes its hint is chosen by told plainly ("wrong_values", "exception") in
    place of the declared mistakes its values matched: a repair found in the student's own code,
    checked against the reference, is the cause, and no guess read off the values may name another
    (the hint of `no_keepdims`, "add keepdims=True", for a max transposed after keepdims=True).
    Each test keeps its title: a title says what the values are, never what the code did (the
    catalogs' [title] rule, tests/rendering/test_catalogs.py). Words only: the points stand."""
    step = say.lab.steps_by_name.get(result.name) if say.lab is not None else None
    declared: set[str] = set()
    if step is not None:
        declared = {m.code for m in step.mistakes} | {m.code for m in step.error_mistakes}

    def plain(case: CaseResult) -> str | None:
        if not any(part in declared for part in parts(case.code or "")):
            return case.code
        return "exception" if case.raised or isinstance(case.detail, Raised) else case.fallback or "wrong_values"

    mistakes = [code for code in dict.fromkeys(plain(c) for c in result.cases if not c.passed) if code]
    return replace(result, mistakes=mistakes)


def _errors_as_raised(result: StepResult) -> StepResult:
    """`result` with every failure that raised told as an error ("exception"), not as a mistake an
    error message matched: where the error was raised inside a helper that passes its own tests, a
    message alike by chance (the same sizes in another product) names no mistake of this step.
    Words only: the points were counted from the codes as judged."""
    cases = [replace(c, code="exception") if not c.passed and isinstance(c.detail, Raised) else c
             for c in result.cases]
    mistakes = list(dict.fromkeys("exception" if any(c.code == code and isinstance(c.detail, Raised)
                                                      for c in result.cases if not c.passed) else code
                                  for code in result.mistakes))
    return replace(result, cases=cases, mistakes=mistakes)


def error_in_helper(result: StepResult) -> dict[str, Any] | None:
    """Where a composed step's public errors were all raised inside one of its helpers that
    passes its own tests: {"helper", "line" (the step's own line calling it), "filename",
    "number", "arguments" (the call's argument texts)}; None otherwise. The helper is right on its
    own tests, so the call the step makes is what to look at, not the helper's line."""
    own = set(result.helpers.own if result.helpers is not None else ())
    errors = [c.detail.error for c in result.cases if not c.passed and not c.hidden and isinstance(c.detail, Raised)]
    if not own or not errors:
        return None
    found: dict[str, Any] | None = None
    for rank, error in enumerate(errors):
        frames = error.frames
        callers = [i for i, frame in enumerate(frames) if frame[2] == result.name]
        if not callers or callers[-1] + 1 >= len(frames) or frames[callers[-1] + 1][2] not in own:
            if rank == 0:
                return None  # the error shown first is the step's own
            continue  # a later error in the step's own lines (what the same arguments led to)
        filename, number, _, line = frames[callers[-1]]
        here = {"helper": frames[callers[-1] + 1][2], "line": line, "filename": filename, "number": number}
        if found is not None and found["helper"] != here["helper"]:
            return None
        found = found or here
    if found is None:
        return None
    return {**found, "arguments": _call_arguments(found["line"], found["helper"])}


def _call_arguments(line: str, function: str) -> list[str]:
    """The argument texts of the call of `function` on a line of code ([] when it cannot be read)."""
    import ast

    text = line.strip()
    for candidate in (text, text.rstrip(":")):
        try:
            tree = ast.parse(candidate)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function:
                return [ast.get_source_segment(candidate, a) or "?" for a in [*node.args, *(k.value for k in node.keywords)]]
    return []


def _helper_error_cause(say: Messages, result: StepResult, found: Mapping[str, Any]) -> str:
    names = [a for a in found["arguments"] if a.isidentifier()]
    shapes = ", ".join(f"{a}.shape" for a in names)
    return say("cause", "exception_in_helper", name=result.name, function=found["helper"],
               place=line_place(say, found["filename"], found["number"]), line=one_line(found["line"]),
               arguments=", ".join(found["arguments"]) or "?",
               check=say("text", "print_shapes", shapes=shapes) if names else "")


def _helper_lines(say: Messages, result: StepResult) -> list[str]:
    """For a composed step the grader answered calls of: of the steps it calls (exactly those it
    declares, judge.helpers_used), which the grader answered with the reference's (the student's
    did not pass their steps), which ran as the student wrote them, which it never called; and
    the steps answered inside the student's own callees."""
    if result.helpers is None:
        return []
    replaced, nested = result.helpers.reference, result.helpers.nested_reference
    if not replaced and not nested:
        return []
    own, unused = result.helpers.own, result.helpers.unused
    none = say("text", "none")
    text = say("text", "helpers_replaced", replaced=", ".join(replaced) or none, own=", ".join(own) or none)
    if unused:
        text += " " + say("text", "helpers_unused", unused=", ".join(unused))
    if nested:
        text += " " + say("text", "helpers_nested", nested=", ".join(nested))
    return ["  " + text]


def _follows_lines(say: Messages, result: StepResult) -> list[str]:
    """A composed step right only with the student's own helpers: graded on what it returns, and
    told what its helpers do differently (their own steps count it)."""
    follows = result.follows_own_helpers
    if follows is None:
        return []
    helpers = ", ".join(follows.helpers)
    if follows.code == HELPER_LISTS_AS_ARRAYS:
        return ["  " + say("text", "follows_helper_lists", helpers=helpers)]
    code = "follows_own" if follows.code == "fits_own_helpers" else follows.code
    return ["  " + say("text", "follows_own_helpers", helpers=helpers,
                       text=_cause(say, result, code, helpers=helpers))]


def _rubric_lines(say: Messages, result: StepResult) -> list[str]:
    """The grading rule that gave this step's points, when it was not all or nothing by a pass."""
    rule = result.rubric or {}
    if rule.get("rule") == "mistake" and rule["code"].count(JOIN) == 1:
        first, second = (say.stepwise("title", result.name, part) for part in parts(rule["code"]))
        return [say("text", "rubric_pair", percent=rule["percent"], first=first, second=second)]
    if rule.get("rule") == "mistake":
        return [say("text", "rubric_mistake", percent=rule["percent"],
                    title=say.stepwise("title", result.name, rule["code"]))]
    if rule.get("rule") == "fitted":
        return [say("text", "rubric_fitted_unanswered" if rule.get("unanswered") else "rubric_fitted")]
    if rule.get("rule") == "cases" and rule["total"]:
        key = "rubric_cases_uncounted" if rule.get("uncounted") else "rubric_cases"
        return [say("text", key, passed=rule["passed"], total=rule["total"], uncounted=rule.get("uncounted", 0))]
    return []


def _missing_lines(say: Messages, result: StepResult) -> list[str]:
    """No function to call: one line on why, its cause, and the hint; no per-case list."""
    code = "syntax_error" if "syntax_error" in result.mistakes else "missing"
    lines = ["  " + say.stepwise("title", result.name, code)]
    if result.defined_as not in (None, "absent"):
        lines.append("    " + say("text", "defined_as", name=result.name, kind=result.defined_as))
    if result.similar:
        lines.append("    " + say("text", "did_you_mean", similar=result.similar, name=result.name))
    cause = say("text", "under_main", name=result.name) if result.under_main else _cause(say, result, code)
    lines.append("  " + say("text", "cause", text=cause))
    lines.append("  " + say("text", "hint", page_step=result.page_step, text=_hint(say, result)))
    return lines


def _hidden_lines(say: Messages, result: StepResult, hidden: Sequence[CaseResult], shown_error: bool,
                  public_codes: Collection[str | None] = frozenset()) -> list[str]:
    """Hidden failures: how many cases and what they look like; never their inputs or values.

    A hidden test's shapes are told when its failure is not one a public test already shows.
    """
    titles: list[str] = []
    named = [c for c in hidden if c.code != "not_run"] or hidden
    for failure in named:
        title = say.stepwise("title", result.name, cast(str, failure.code))  # a failed test has a code
        if title not in titles:
            titles.append(title)
    # One test is one call, as the grading rule counts them.
    failed = len(hidden)
    total = sum(c.hidden for c in result.cases)
    lines = [say("text", "hidden_summary", failed=failed, total=total, titles=say("text", "title_separator").join(titles))]
    # The shapes of the arguments this step's function receives (judge.argument_shapes), else the case's inputs.
    shapes: Mapping[str, tuple[str, Sequence[str]]] = result.argument_shapes or (
        say.lab.case_shapes if say.lab is not None else {})
    for case in dict.fromkeys(c.case for c in hidden if c.code not in public_codes):
        if case in shapes and shapes[case][0]:
            text, differ = shapes[case]
            lines.append("  " + say("text", "hidden_shapes", case=case_label(say, case), shapes=text,
                                    differ=", ".join(differ) if differ else say("text", "none")))
    errors = [c.detail.error for c in hidden if isinstance(c.detail, Raised)]
    if errors and not shown_error:
        # The error's type and the student's own line; its message may quote hidden sizes.
        error = errors[0]
        if error.frames:
            filename, line, function, text = error.frames[-1]
            lines.append("  " + say("text", "hidden_error_at", type=error.type,
                                    function=function,
                                    place=line_place(say, filename, line),
                                    line=one_line(text)))
        else:
            lines.append("  " + say("text", "hidden_error", type=error.type))
    return lines


def _case_name(say: Messages, case: CaseResult) -> str:
    if case.hidden:
        return say("text", "hidden_case")
    if case.label:
        return say("text", "public_case_labelled", case=case_label(say, case.case),
                   label=say.table.get("label", {}).get(case.label, case.label))
    return say("text", "public_case", case=case_label(say, case.case))


def _cause(say: Messages, result: StepResult, code: str, helpers: str | None = None) -> str:
    reference = result.helpers.reference if result.helpers is not None else ()
    params: dict[str, object] = {"name": result.name, "seconds": result.seconds if result.seconds is not None else 0,
              "module": result.module or "",
              "arguments": ", ".join(result.ignored),
              "helpers": ", ".join(reference) if helpers is None else helpers,
              "names": _code_names(result.code_evidence or ())}
    if code == "wrong_values":
        code = _wrong_values_key(result)
    if code == "mutates_input" and _reshaped_only(result):
        return say("text", "mutated_shape_cause")
    if code == "exception":
        shown = next((c.detail for c in result.cases if not c.hidden and isinstance(c.detail, Raised)), None)
        if shown is None:
            return say("text", "hidden_exception_cause")  # no line of it is shown: only a hidden test raised
        if not shown.error.frames:
            # Raised before any line of the student's ran (a decorator such as lru_cache hashing the
            # arguments), or only inside library code: no line of his is shown above.
            return say("text", "exception_no_line_cause")
    return say.stepwise("cause", result.name, code, **params)


def _reshaped_only(result: StepResult) -> bool:
    """Every call that changed its input changed only the input's shape (`M.shape = ...`)."""
    changed = [c for c in result.cases if c.code == "mutates_input" and not c.hidden]
    return bool(changed) and all(isinstance(c.detail, MutatedInput) and c.detail.reshaped for c in changed)


# What a value that has the right size but other values is called: "the shape" only of arrays.
ARRAY_CONTAINERS = ("ndarray", "DataFrame", "Series")


def _wrong_values_key(result: StepResult) -> str:
    """The words for "the values differ" that fit what the first public failure returned: an
    array (its shape is right), a list or tuple (its size is), a dict, a number; a hidden failure
    alone says nothing of its container."""
    for case in result.cases:
        if case.passed or case.hidden or case.code != "wrong_values":
            continue
        if isinstance(case.detail, MappingValues):
            return "wrong_values_mapping"
        values = case.detail if isinstance(case.detail, WrongValues) else None
        if values is not None and values.container in ("list", "tuple"):
            return "wrong_values_list"
        if values is not None and (values.container in ("int", "float") or values.shape == ()):
            return "wrong_values_number"
        return "wrong_values"
    return "wrong_values_unseen"


def _code_names(names: Iterable[object]) -> str:
    """Names read from the submission's code (identifiers the grader validated), as code spans."""
    return ", ".join(f"`{name}`" for name in names if isinstance(name, str) and name.isidentifier())


def _hint(say: Messages, result: StepResult) -> str:
    """One hint: the first mistake's own hint (for this step, else for any step), else the step's."""
    lab = cast("Lab", say.lab)  # a step's feedback is rendered for its lab (step_feedback)
    step = lab.steps_by_name[result.name]
    hints = say.table["hint"]
    # The first cause's hint (a pair's: its first part's), not a later cause's.
    if result.mistakes[:1] == ["mutates_input"] and _reshaped_only(result):
        return say("text", "mutated_shape_hint")
    codes = [part for code in result.mistakes[:1] for part in (code, *parts(code))]
    keys = [key for code in codes for key in (f"{result.name}.{code}", code) if key in hints]
    key = keys[0] if keys else step.hint
    return say("hint", key if key in hints else "generic", **lab.hint_facts())


def _explain(say: Messages, result: StepResult, case: CaseResult) -> list[str]:
    """The detail of one public failure, in numpy's order: criterion, shape, how many, how bad, values."""
    d = case.detail
    if isinstance(d, Raised):
        if d.refused is not None:
            return [say("text", f"refused_{d.refused.reason}", helper=d.refused.helper,
                        most=MAX_REQUESTS)] + _frame_lines(say, d.error)
        return _error_lines(say, d.error)
    if isinstance(d, MutatedInput):
        if case.code != "mutates_input":
            return []
        return [say("text", "mutated_shape" if d.reshaped else "mutated", argument=d.argument)]
    if d is None:
        return []
    lines: list[str] = [say("text", "changed_input", argument=d.changed_input)] if d.changed_input else []
    if isinstance(d, WrongCount):
        lines.append(say("text", "wrong_count", got=d.got, expected_count=d.expected_count, names=", ".join(d.names)))
        return lines
    if d.output and len(cast("Lab", say.lab).steps_by_name[result.name].outputs) > 1:
        lines.append(say("text", "in_output", output=d.output))
    if isinstance(d, WrongType):
        outputs = {output.name: output.kind for output in cast("Lab", say.lab).steps_by_name[result.name].outputs}
        expected = say("expected_kind", outputs.get(d.output, "array"))
        lines.append(say("text", "no_return") if d.no_return else say("text", "wrong_type", got=d.got, expected=expected))
        return lines
    if isinstance(d, MappingValues):
        return lines + _mapping_lines(say, d)
    lines.append(say("text", "criterion", rtol=d.rtol, atol=d.atol))
    if isinstance(d, WrongShape):
        lines.append(say("text", "shape_mismatch", got_shape=_shape(d.got_shape),
                         expected_shape=_shape(d.expected_shape)))
    else:
        lines.extend(_values_lines(say, d))
    lines.extend(say("text", "values_got", preview=d.got_preview).split("\n"))
    lines.extend(say("text", "values_expected", preview=d.expected_preview).split("\n"))
    return lines


def _values_lines(say: Messages, d: WrongValues) -> list[str]:
    """An array of the right shape: its shape (or size), the cells not finite, how many differ,
    the worst one, the rows' sums."""
    lines: list[str] = []
    if d.shape:  # a single number has no shape to speak of
        if d.container in ARRAY_CONTAINERS:
            lines.append(say("text", "shape_ok", shape=_shape(d.shape)))
        else:
            lines.append(say("text", "size_ok", shape=_shape(d.shape), container=d.container))
    if d.not_finite is not None:
        lines.append(say("text", "not_finite", count=d.not_finite.count, total=d.total,
                         where=_where(say, d.not_finite.where)))
    lines.append(say("text", "mismatched", mismatched=d.mismatched, total=d.total,
                     percent=100.0 * d.mismatched / max(d.total, 1)))
    worst = d.worst
    if worst is not None and (isinstance(worst.got, bool) or isinstance(worst.expected, bool)):
        # A True/False cell has no size of difference: the cell and both values.
        lines.append(say("text", "wrong_truth_cell", where=_where(say, worst.cell), got=_cell_text(worst.got),
                         expected=_cell_text(worst.expected)))
    elif worst is not None:
        lines.append(say("text", "worst_cell", where=_where(say, worst.cell), got=worst.got,
                         expected=worst.expected, difference=worst.difference))
    if d.row_sums is not None:
        lines.append(say("text", "row_sums", sums=d.row_sums))
    return lines


def _cell_text(value: float | bool) -> str:
    return str(value) if isinstance(value, bool) else f"{value:.4g}"


def _mapping_lines(say: Messages, d: MappingValues) -> list[str]:
    lines = [say("text", "mapping_criterion"),
             say("text", "mapping_mismatch", mismatched=d.mismatched, total=d.total)]
    if d.first:
        word, got, expected = d.first
        if d.first_missing:
            lines.append(say("text", "mapping_first_missing", word=word, expected=expected))
        else:
            lines.append(say("text", "mapping_first", word=word, got=got, expected=expected))
    if d.extra_keys:
        lines.append(say("text", "mapping_extra", keys=", ".join(map(str, d.extra_keys))))
    lines.append(say("text", "values_got", preview=d.got_preview).replace("\n", " "))
    lines.append(say("text", "values_expected", preview=d.expected_preview).replace("\n", " "))
    if d.other_form:
        lines.append(say("text", "mapping_other_form"))
    return lines


def _shape(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def _where(say: Messages, cell: Cell) -> str:
    """A cell named by its words; a column that is not a word, by its position; in a stack of
    tables, the table by its position first ("두 번째 헤드의 …")."""
    if cell.blocks:
        inner = _where(say, replace(cell, blocks=()))
        ordinal = ", ".join(position(i, say.lang) for i in cell.blocks)
        return say("text", "where_in_block", ordinal=ordinal, block=say("text", "block"), where=inner)
    column = cell.column
    if isinstance(column, int) and not cell.column_is_word:
        column = position(column, say.lang)
    if cell.row is not None:
        key = "where_row_word_column" if cell.column_is_word else "where_row_feature_column"
        return say("text", key, row=cell.row, column=column)
    if column is not None:
        return say("text", "where_word" if cell.column_is_word else "where_feature", column=column)
    return "()"


def _error_lines(say: Messages, error: RaisedError) -> list[str]:
    """The student's error and their own lines (the worker keeps only frames of their file)."""
    if error.message:
        lines = [say("text", "error_message", type=error.type, message=error.message)]
    else:
        lines = [say("text", "error_type", type=error.type)]
    return lines + _frame_lines(say, error)


def _frame_lines(say: Messages, error: RaisedError) -> list[str]:
    return [say("text", "error_line", place=line_place(say, filename, line), function=function, line=one_line(text))
            for filename, line, function, text in error.frames[-3:]]
