"""Turning verdict data into what people read: text per step in Korean or English, and JSON."""
from __future__ import annotations

import re
import sys
import unicodedata

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, TextIO, cast

from .cells import KERNEL_CELL, NOTEBOOK_CELL
from .error_model import JOIN, parts
from .guard import piece
from .judge import EXPLAINABLE
from .verdict import rounded_points
from .sandbox.protocol import MAX_HELPER_REQUESTS as MAX_REQUESTS  # per call; stand_in counts the same
from .reading.problems import Detail

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping, Sequence

    from .lab import Lab
    from .repair.search import RepairPart
    from .verdict import CaseResult, StepResult, SubmissionResult

LANGUAGES = ("ko", "en")
# Messages by section, then key: the engine's catalog with a lab's merged in (every value a text).
Catalog = dict[str, dict[str, str]]


@lru_cache(maxsize=None)
def engine_catalog(lang: str) -> dict[str, Any]:
    """The engine's general messages in `lang`: statuses, layout, load problems, generic codes."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return tomllib.loads(resources.files(__package__ + ".locale").joinpath(f"{lang}.toml").read_text("utf-8"))


def catalog(lang: str, lab: Lab | None = None) -> Catalog:
    """The engine's messages with the lab's own added; a key the lab also has takes the lab's text."""
    table: Catalog = {section: dict(keys) for section, keys in engine_catalog(lang).items()}
    if lab is not None:
        for section, keys in lab.catalog(lang).items():
            table.setdefault(section, {}).update(keys)
    return table


# Characters a terminal, an editor or a browser acts on instead of showing: C0 and C1 controls
# (ANSI escape sequences start with ESC or CSI), DEL, bidirectional overrides, line separators.
INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                        "\u202a-\u202e\u2066-\u2069\ufeff]")
_LINE_BREAKS = re.compile("[\n\r\t\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                          "\u202a-\u202e\u2066-\u2069\ufeff]")


def printable(text: object, newlines: bool = True) -> str:
    """`text` with every control character shown as an escape (ESC as \\x1b), never acted on.

    newlines=True keeps line feeds and tabs (multi-line feedback); False escapes them too, for a
    value that must stay on its line (a file name, an exception message, a CSV cell).
    """
    pattern = INVISIBLE if newlines else _LINE_BREAKS
    return pattern.sub(_escape, str(text))


_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    if match.group() in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[match.group()]
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def json_text(data: object, **options: Any) -> str:
    """JSON of `data` (Unicode kept readable) in which no character a terminal, an editor or a
    browser acts on appears raw: JSON escapes C0 controls itself; C1 controls and bidirectional
    marks are escaped here too. Loads back to exactly `data`."""
    import json

    text = json.dumps(data, ensure_ascii=False, **options)
    return INVISIBLE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def fit_to_width(text: str, width: int | None) -> str:
    """`text` with every line wider than `width` terminal columns wrapped here, each further row
    indented four columns past its line's own: the terminal then never wraps a line itself, so no
    text a submission sent (padded to the edge of the screen) can start a row of its own and pass
    for the grader's ("Total 10 / 10 points"). Hangul and other wide characters count two columns."""
    if not width or width < 20:
        return text
    return "\n".join(row for line in text.split("\n") for row in _rows(line, width))


def _rows(line: str, width: int) -> list[str]:
    indent = line[:len(line) - len(line.lstrip(" "))]
    rows: list[str]
    prefix, rows, start = indent + "    ", [], 0
    while True:
        room = width - (_columns(prefix) if rows else 0)
        end, used = start, 0
        while end < len(line) and used + _columns(line[end]) <= room:
            used += _columns(line[end])
            end += 1
        if end >= len(line):
            rows.append((prefix if rows else "") + line[start:])
            return rows
        space = line.rfind(" ", start, end)
        if space > start + (end - start) // 2:
            end = space + 1
        rows.append((prefix if rows else "") + line[start:end].rstrip(" "))
        start = end
        while start < len(line) and line[start] == " ":
            start += 1
        if start >= len(line):
            return rows


def terminal_width(stream: TextIO | None = None) -> int | None:
    """The columns of the terminal `stream` (stdout) writes to; None when it writes elsewhere."""
    import shutil
    import sys

    stream = stream or sys.stdout
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    return shutil.get_terminal_size().columns


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def one_line(value: object) -> str:
    """A value the student controls, in a line of feedback: it cannot start a line of its own."""
    return printable(value, newlines=False)


# Text from outside the catalogs (an exception's message, a file name, a value the student's code
# returned) reaches a sentence only through these parameters; each is shown without the folders of
# any path in it (see without_paths). `line`, a line of the student's own code, is quoted as written.
OUTSIDE_TEXT = frozenset({"type", "message", "detail", "filename", "function", "module", "kind",
                          "got", "word", "keys", "similar", "preview", "member", "files", "error", "reason",
                          "names"})
MULTILINE_OUTSIDE_TEXT = frozenset({"preview"})  # arrays printed over lines
# A run of characters that can make a path: everything but blanks, quotes, brackets, separators
# of a list, and ":" (so "C:" and "for /:" end a run). A run with a folder in it is a path.
# Slashes and the characters that look like one (a student's code can print the machine's folders
# with "∕" or "／" in them to pass for text).
SLASHES = "/\\\u2215\u2044\uff0f\u29f8\u2571\u29f9\uff3c\u2216\u29f5\u2572"
_PATH_RUN = re.compile(rf"[^\s'\"`<>()\[\]{{}},;:|]*[{re.escape(SLASHES)}][^\s'\"`<>()\[\]{{}},;:|]*")
_SEPARATORS = re.compile(rf"[{re.escape(SLASHES)}]+")
PATH_ELIDED = "…"


def without_paths(text: object) -> str:
    """`text` with every path shown by its last part only ("…/data.csv" for
    "/usr/lib/python3.11/site-packages/data.csv", "C:\\Users\\kim\\a.py" or "~/x/data.csv"),
    so no folder of the machine that ran the code (interpreter, site-packages, temporary folders,
    home) reaches a student. Separators alone ("for /:", " / ") are not paths."""
    return _PATH_RUN.sub(_last_part, str(text))


def _last_part(match: re.Match[str]) -> str:
    run = match.group()
    parts = _SEPARATORS.split(run)
    if not any(parts[:-1]):
        return run  # "/", "/x": a separator, or a single name after one (a division, a root name)
    return f"{PATH_ELIDED}/{parts[-1]}"


# Korean counts positions from one, in words: 첫 번째, 두 번째, … 열 번째, then 11번째.
KOREAN_ORDINALS = ("첫", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열")


def position(index: object, lang: str) -> str:
    """How a 0-based column or position reads: Korean says the ordinal counted from one
    ("두 번째" for index 1); English keeps the index NumPy uses ("1")."""
    if lang != "ko" or not isinstance(index, int):
        return str(index)
    number = index + 1
    if 1 <= number <= len(KOREAN_ORDINALS):
        return f"{KOREAN_ORDINALS[number - 1]} 번째"
    return f"{number}번째"


class Messages:
    """`say(section, key, **params)`: the catalog's sentence in `lang`, its parameters shown safely."""

    def __init__(self, lang: str, lab: Lab | None = None) -> None:
        self.lang = lang
        self.lab = lab
        self.table = _merged(lang, lab)

    def __call__(self, section: str, key: str, **params: object) -> str:
        if self.lab is not None:
            params.setdefault("notebook", self.lab.notebook)
        return self.table[section][key].format(**{
            name: self.detail(value) if isinstance(value, Detail) else _shown(name, value)
            for name, value in params.items()})

    def detail(self, detail: Detail) -> str:
        """A problem's reason (submission.Detail) in this language."""
        return self("detail", detail.code, **detail.parameters)

    def stepwise(self, section: str, step: str, code: str, **params: object) -> str:
        """A step's own wording of a code when it has one, else the general one; a combined
        code ("a+b", see autograder.error_model) is told as its two mistakes."""
        key = f"{step}.{code}" if f"{step}.{code}" in self.table[section] else code
        if key in self.table[section]:
            return self(section, key, **params)
        if section in ("title", "cause") and code.count(JOIN) == 1:
            first, second = (self.stepwise(section, step, part, **params) for part in parts(code))
            return self("text", f"combined_{section}", first=first, second=second)
        return code


def detail_text(detail: Detail, lang: str) -> str:
    """A submission.Detail in `lang`, from the engine's catalog."""
    return Messages(lang).detail(detail)


def _shown(name: str, value: object) -> object:
    """A parameter as a sentence shows it: outside text without its paths' folders and on one line
    (a value printed over lines, `preview`, keeps its lines); every string made printable."""
    if not isinstance(value, str):
        return value  # a number keeps its format ("{got:g}")
    if name in OUTSIDE_TEXT:
        return printable(without_paths(value), newlines=name in MULTILINE_OUTSIDE_TEXT)
    return printable(value)


_merged_tables: dict[tuple[str, str | None, int], tuple[Lab | None, Catalog]] = {}


def _merged(lang: str, lab: Lab | None) -> Catalog:
    key = (lang, None if lab is None else lab.name, id(lab))
    if key not in _merged_tables:
        _merged_tables[key] = (lab, catalog(lang, lab))  # the lab is held so its id stays its own
    return _merged_tables[key][1]


def step_feedback(result: StepResult, lab: Lab, lang: str = "ko") -> str:
    """Everything a student needs about one step: verdict, first public failure in detail,
    hidden failures by name only, then likely causes and one hint to the page."""
    say = Messages(lang, lab)
    problem = result.file_problem
    if problem:  # the file's one problem is told once, above the steps
        status = f"{problem}_status" if f"{problem}_status" in say.table["text"] else "file_problem_status"
        return say("text", "step_header", name=result.name, score=_points(result.score),
                   max_score=_points(result.max_score), status=say("text", status))
    lines = [say("text", "step_header", name=result.name, score=_points(result.score),
                 max_score=_points(result.max_score), status=say("status", result.status))]
    if result.status == "passed":
        lines.append("  " + say("text", "passed_line", count=len(result.cases)))  # one test = one call
        return "\n".join(lines + _follows_lines(say, result) + _helper_lines(say, result))
    if result.status == "missing":
        return "\n".join(lines + _missing_lines(say, result))
    in_helper = error_in_helper(result)
    if in_helper:
        result = _errors_as_raised(result)
    failing = [c for c in result.cases if not c.passed]
    public = [c for c in failing if not c.hidden]
    hidden = [c for c in failing if c.hidden]
    for position, case in enumerate(public):
        lines.append("  " + say("text", "case_failed", case=_case_name(say, case),  # a failed test has a code:
                                title=say.stepwise("title", result.name, cast(str, case.code))))
        if position == 0:
            lines.extend("    " + line for line in _explain(say, result, case))
    if hidden:
        lines.extend("  " + line for line in _hidden_lines(say, result, hidden, shown_error=any(
            "error" in c.detail for c in public[:1]), public_codes={c.code for c in public}))
    explained: str | None = explained_text(say, result)
    if in_helper:
        # Values read against the helper's own step would blame the helper for what it was handed.
        explained = None
    repaired = repair_text(say, result)
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


def _redefined_lines(say: Messages, result: StepResult) -> list[str]:
    """A function defined more than once: which definition was graded (the one run last), and
    where the others are (submission.redefined)."""
    found = result.redefined
    if found is None:
        return []
    others = ", ".join(_place_in_file(say, name, line) for name, line in found.others)
    return ["  " + say("text", "redefined", name=result.name, place=_place_in_file(say, *found.graded),
                       others=others)]


def _place_in_file(say: Messages, filename: str, line: int) -> str:
    """A place in the student's own file: a notebook's cell and line, a script's line alone (the
    feedback is about that one file, and its name, read through another locale, could come out
    garbled)."""
    if NOTEBOOK_CELL.fullmatch(filename):
        return _place(say, filename, line)
    return say("text", "place_line_only", line=line)


def _errors_as_raised(result: StepResult) -> StepResult:
    """`result` with every failure that raised told as an error ("exception"), not as a mistake an
    error message matched: where the error was raised inside a helper that passes its own tests, a
    message alike by chance (the same sizes in another product) names no mistake of this step.
    Words only: the points were counted from the codes as judged."""
    cases = [replace(c, code="exception") if not c.passed and "error" in c.detail else c for c in result.cases]
    mistakes = list(dict.fromkeys("exception" if any(c.code == code and "error" in c.detail for c in result.cases
                                                      if not c.passed) else code for code in result.mistakes))
    return replace(result, cases=cases, mistakes=mistakes)


def error_in_helper(result: StepResult) -> dict[str, Any] | None:
    """Where a composed step's public errors were all raised inside one of its helpers that
    passes its own tests: {"helper", "line" (the step's own line calling it), "filename",
    "number", "arguments" (the call's argument texts)}; None otherwise. The helper is right on its
    own tests, so the call the step makes is what to look at, not the helper's line."""
    own = set(result.helpers.own if result.helpers is not None else ())
    errors = [c.detail["error"] for c in result.cases if not c.passed and not c.hidden and "error" in c.detail]
    if not own or not errors:
        return None
    found: dict[str, Any] | None = None
    for rank, error in enumerate(errors):
        frames = error.get("frames") or []
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
               place=_place(say, found["filename"], found["number"]), line=one_line(found["line"]),
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
    errors = [c.detail["error"] for c in hidden if "error" in c.detail]
    if errors and not shown_error:
        # The error's type and the student's own line; its message may quote hidden sizes.
        error = errors[0]
        frames = error.get("frames") or []
        if frames:
            filename, line, function, text = frames[-1]
            lines.append("  " + say("text", "hidden_error_at", type=error["type"],
                                    function=function,
                                    place=_place(say, filename, line),
                                    line=one_line(text)))
        else:
            lines.append("  " + say("text", "hidden_error", type=error["type"]))
    return lines


def _points(value: float) -> str:
    return f"{rounded_points(value):g}"


def _case_name(say: Messages, case: CaseResult) -> str:
    if case.hidden:
        return say("text", "hidden_case")
    if case.label:
        return say("text", "public_case_labelled", case=case_label(say, case.case),
                   label=say.table.get("label", {}).get(case.label, case.label))
    return say("text", "public_case", case=case_label(say, case.case))


def case_label(say: Messages, name: str) -> str:
    """How a case is named to students: the lab catalog's [case] name for it, else its id."""
    return say.table.get("case", {}).get(name, name)


def case_names(lab: Lab, lang: str) -> dict[str, str]:
    """{case id: its name in `lang`} of every case the lab's catalog names."""
    return dict(Messages(lang, lab).table.get("case", {}))


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
    return say.stepwise("cause", result.name, code, **params)


def _reshaped_only(result: StepResult) -> bool:
    """Every call that changed its input changed only the input's shape (`M.shape = ...`)."""
    changed = [c for c in result.cases if c.code == "mutates_input" and not c.hidden]
    return bool(changed) and all(c.detail.get("reshaped") for c in changed)


# What a value that has the right size but other values is called: "the shape" only of arrays.
ARRAY_CONTAINERS = ("ndarray", "DataFrame", "Series")


def _wrong_values_key(result: StepResult) -> str:
    """The words for "the values differ" that fit what the first public failure returned: an
    array (its shape is right), a list or tuple (its size is), a dict, a number; a hidden failure
    alone says nothing of its container."""
    for case in result.cases:
        if case.passed or case.hidden or case.code != "wrong_values":
            continue
        if "first" in case.detail:
            return "wrong_values_mapping"
        container = case.detail.get("container")
        if container in ("list", "tuple"):
            return "wrong_values_list"
        if container in ("int", "float") or case.detail.get("shape") == ():
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
    code = case.code
    if "refused" in d:
        refused = d["refused"]
        return [say("text", f"refused_{refused['reason']}", helper=refused["helper"],
                    most=MAX_REQUESTS)] + _frame_lines(say, d.get("error") or {})
    if "error" in d:
        return _error_lines(say, d["error"])
    if code == "mutates_input":
        return [say("text", "mutated_shape" if d.get("reshaped") else "mutated", argument=d["argument"])]
    lines: list[str] = [say("text", "changed_input", argument=d["changed_input"])] if d.get("changed_input") else []
    if d.get("output") and len(cast("Lab", say.lab).steps_by_name[result.name].outputs) > 1:
        lines.append(say("text", "in_output", output=d["output"]))
    if "expected_count" in d:
        lines.append(say("text", "wrong_count", got=d["got"], expected_count=d["expected_count"],
                         names=", ".join(d["names"])))
        return lines
    if "got" in d:
        lines.append(say("text", "no_return") if d.get("no_return") else say("text", "wrong_type", got=d["got"]))
        return lines
    if "first" in d:
        return lines + _mapping_lines(say, d)
    if "rtol" in d:
        lines.append(say("text", "criterion", rtol=d["rtol"], atol=d["atol"]))
    if "got_shape" in d:
        lines.append(say("text", "shape_mismatch", got_shape=_shape(d["got_shape"]),
                         expected_shape=_shape(d["expected_shape"])))
    elif d.get("shape"):  # a single number has no shape to speak of
        if d.get("container", "ndarray") in ARRAY_CONTAINERS:
            lines.append(say("text", "shape_ok", shape=_shape(d["shape"])))
        else:
            lines.append(say("text", "size_ok", shape=_shape(d["shape"]), container=d["container"]))
    if "not_finite" in d:
        bad = d["not_finite"]
        lines.append(say("text", "not_finite", count=bad["count"], total=d["total"],
                         where=_where(say, bad["where"])))
    if "mismatched" in d:
        lines.append(say("text", "mismatched", mismatched=d["mismatched"], total=d["total"],
                         percent=100.0 * d["mismatched"] / max(d["total"], 1)))
    if "cell" in d:
        lines.append(say("text", "worst_cell", where=_where(say, d["cell"]), got=d["got_value"],
                         expected=d["expected_value"], difference=d["max_abs"]))
    if "row_sums" in d:
        lines.append(say("text", "row_sums", sums=d["row_sums"]))
    if "got_preview" in d:
        lines.extend(say("text", "values_got", preview=d["got_preview"]).split("\n"))
        lines.extend(say("text", "values_expected", preview=d["expected_preview"]).split("\n"))
    return lines


def _mapping_lines(say: Messages, d: Mapping[str, Any]) -> list[str]:
    lines = [say("text", "mapping_criterion"),
             say("text", "mapping_mismatch", mismatched=d["mismatched"], total=d["total"])]
    if d["first"]:
        word, got, expected = d["first"]
        if d.get("first_missing"):
            lines.append(say("text", "mapping_first_missing", word=word, expected=expected))
        else:
            lines.append(say("text", "mapping_first", word=word, got=got, expected=expected))
    if d.get("extra_keys"):
        lines.append(say("text", "mapping_extra", keys=", ".join(map(str, d["extra_keys"]))))
    lines.append(say("text", "values_got", preview=d["got_preview"]).replace("\n", " "))
    lines.append(say("text", "values_expected", preview=d["expected_preview"]).replace("\n", " "))
    return lines


def _shape(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def _where(say: Messages, cell: Mapping[str, Any]) -> str:
    """A cell named by its words; a column that is not a word, by its position; in a stack of
    tables, the table by its position first ("두 번째 헤드의 …")."""
    if cell.get("blocks"):
        inner = _where(say, {**cell, "blocks": None})
        ordinal = ", ".join(position(i, say.lang) for i in cell["blocks"])
        return say("text", "where_in_block", ordinal=ordinal, block=say("text", "block"), where=inner)
    column = cell.get("column")
    if column is not None and not cell["column_is_word"]:
        column = position(column, say.lang)
    if cell.get("row") is not None:
        key = "where_row_word_column" if cell["column_is_word"] else "where_row_feature_column"
        return say("text", key, row=cell["row"], column=column)
    if column is not None:
        return say("text", "where_word" if cell["column_is_word"] else "where_feature", column=column)
    return "()"


def _place(say: Messages, filename: str, line: object) -> str:
    """Where a line is: in a notebook, its cell's number (notebook cells are named "<cell N>")."""
    cell = NOTEBOOK_CELL.fullmatch(filename)
    if cell:
        return say("text", "place_cell", cell=int(cell.group(1)), line=line)
    cell = KERNEL_CELL.fullmatch(filename)
    if cell:
        if cell.group(1):
            return say("text", "place_kernel_cell", cell=int(cell.group(1)), line=line)
        return say("text", "place_kernel_cell_unnumbered", line=line)
    return say("text", "place_line", filename=filename, line=line)


def _error_lines(say: Messages, error: Mapping[str, Any]) -> list[str]:
    """The student's error and their own lines (the worker keeps only frames of their file)."""
    if error.get("message"):
        lines = [say("text", "error_message", type=error["type"], message=error["message"])]
    else:
        lines = [say("text", "error_type", type=error["type"])]
    return lines + _frame_lines(say, error)


def _frame_lines(say: Messages, error: Mapping[str, Any]) -> list[str]:
    return [say("text", "error_line", place=_place(say, filename, line), function=function, line=one_line(text))
            for filename, line, function, text in error.get("frames", [])[-3:]]


def load_notes(notes: Iterable[dict[str, Any]], lab: Lab | None, lang: str = "ko") -> list[str]:
    """What happened while loading the file (syntax errors, skipped statements), as lines."""
    return [text for _, text in noted(notes, lab, lang)]


def noted(notes: Iterable[dict[str, Any]], lab: Lab | None, lang: str = "ko") -> list[tuple[dict[str, Any], str]]:
    """(note, its line of text) for each load note a student should read."""
    say = Messages(lang, lab)
    found: list[tuple[dict[str, Any], str]] = []
    for note in notes:
        text = _note_text(say, note)
        if text:
            found.append((note, text))
    return found


def _note_text(say: Messages, note: Mapping[str, Any]) -> str | None:
    code = note["code"]
    if code == "problem":
        key = note["problem"] if note["problem"] in say.table["problem"] else "unreadable"
        return say("problem", key, detail=note.get("detail") or "")
    if code == "other_lab":
        return _other_lab_text(say, note)
    place = _place(say, str(note.get("filename", "?")), note.get("line") or "?")
    if code == "syntax_error":
        in_notebook = NOTEBOOK_CELL.fullmatch(str(note.get("filename", "")))
        return say("text", "load_syntax_error" if in_notebook else "load_syntax_error_script",
                   place=place, message=note.get("message", ""))
    if code == "load_error":
        return say("text", "load_error", place=place, type=note.get("type", ""),
                   message=note.get("message", ""))
    if code in ("load_timeout", "load_crash"):
        return say("text", code, place=place)
    if code == "time_spent":
        return say("text", "load_time_spent", seconds=note.get("seconds", 0))
    return None


def _other_lab_text(say: Messages, note: Mapping[str, Any]) -> str:
    """The file is written for another lab (registry.other_lab decides; judge.written_for_other_lab
    keeps this note alone): which lab, by its title in the student's language, and what shows it."""
    lab = say.lab
    titles = note.get("titles") or {}
    other = titles.get(say.lang) or titles.get("en") or note.get("lab", "?")
    found = note.get("found") or []
    key = "other_lab_declared" if note.get("declared") and not found else "other_lab"
    return say("text", key, title=lab.title(say.lang) if lab is not None else "", other=other,
               lab=note.get("lab", "?"), functions=", ".join(lab.function_names) if lab is not None else "",
               found=", ".join(found))


def note_record(note: Mapping[str, Any], text: str) -> dict[str, Any]:
    """A load note as `--json` carries it: where, what, and the sentence a student reads."""
    record: dict[str, Any] = {"code": note["code"] if note["code"] != "problem" else note.get("problem", "problem")}
    if note["code"] == "other_lab":
        record["lab"] = one_line(note.get("lab", ""))
    if note.get("filename") is not None:
        record["file"] = one_line(without_paths(note["filename"]))
    if isinstance(note.get("line"), int):
        record["line"] = note["line"]
    if isinstance(note.get("cell"), int) and NOTEBOOK_CELL.fullmatch(str(note.get("filename", ""))):
        record["cell"] = note["cell"]
    for key in ("type", "message"):
        if note.get(key):
            record[key] = one_line(without_paths(note[key]))
    record["text"] = text
    return record


@dataclass(frozen=True)
class Feedback:
    """One submission's feedback, rendered once; text, JSON, Otter and pytest all read from it."""

    lab: str
    submission: str
    score: float
    max_score: float
    all_passed: bool
    load_heading: str  # "" when loading went well
    notes: tuple[str, ...]  # one line per load note
    note_records: tuple[dict[str, Any], ...]  # the same notes as data (see note_record)
    steps: tuple[tuple[StepResult, str], ...]  # (StepResult, its text) per step
    total: str
    file_problem: str | None = None  # the whole file's one problem (SubmissionResult.file_problem), told in `notes`


def feedback(result: SubmissionResult, lab: Lab, lang: str = "ko") -> Feedback:
    say = Messages(lang, lab)
    pairs = noted(result.notes, lab, lang)
    notes = tuple(text for _, text in pairs)
    total = say("text", "total", score=_points(result.score), max_score=_points(result.max_score))
    if result.all_passed:
        total += "  " + say("text", "all_passed")
    heading = notes_heading(say, result) if notes else ""
    return Feedback(lab.name, one_line(result.submission), result.score, float(result.max_score),
                    result.all_passed, heading, notes,
                    tuple(note_record(note, text) for note, text in pairs),
                    tuple((step, guarded_step_feedback(step, lab, lang)) for step in result.steps), total,
                    result.file_problem)


def guarded_step_feedback(result: StepResult, lab: Lab, lang: str = "ko") -> str:
    """step_feedback as a piece of the grader's own work on a submission's values (guard.piece):
    when it cannot be written, the step's header and a sentence saying so, and the points stand."""
    written = piece(f"the feedback of step {result.name}", step_feedback, result, lab, lang)
    if written.value is not None:
        return written.value
    say = Messages(lang, lab)
    return "\n".join([say("text", "step_header", name=result.name, score=_points(result.score),
                          max_score=_points(result.max_score), status=say("status", result.status)),
                      "  " + say("text", "feedback_not_written", type=written.failure)])


def notes_heading(say: Messages, result: SubmissionResult) -> str:
    """The heading above a result's load notes: the file's one problem's own heading when it has
    one ("other_lab_heading"), any other file problem's, else "while loading"."""
    problem = result.file_problem
    if not problem:
        return say("text", "load_heading")
    key = f"{problem}_heading"
    return say("text", key if key in say.table["text"] else "file_problem_heading")


def notes_text(rendered: Feedback) -> str:
    """The load notes under their heading ("" when there are none): for a file none of which
    could be graded, the one place its problem is told."""
    if not rendered.notes:
        return ""
    return rendered.load_heading + "\n" + "\n".join("  " + n for n in rendered.notes)


def text_of(rendered: Feedback) -> str:
    """The feedback as the terminal and feedback/<id>.md show it. A file none of which could be
    graded: its problem once, then one line per step."""
    parts = [notes_text(rendered)] if rendered.notes else []
    if rendered.file_problem:
        parts.append("\n".join(text for _, text in rendered.steps))
    else:
        parts.extend(text for _, text in rendered.steps)
    parts.append(rendered.total)
    return "\n\n".join(parts) + "\n"


def json_of(rendered: Feedback) -> dict[str, Any]:
    """The documented JSON shape of `autograder check --json`; load notes lead each lost step's text
    (not when the whole file has one problem: `notes` tells it, once)."""
    steps: list[dict[str, Any]] = []
    for step, text in rendered.steps:
        if rendered.notes and step.status != "passed" and not rendered.file_problem:
            text = "\n".join(rendered.notes) + "\n" + text
        steps.append({"name": step.name, "score": rounded_points(step.score), "max_score": float(step.max_score),
                      "status": step.status, "mistakes": list(step.mistakes), "feedback": text})
    return {"submission": rendered.submission, "lab": rendered.lab, "score": rendered.score,
            "max_score": rendered.max_score, "steps": steps, "notes": list(rendered.note_records)}


def as_text(result: SubmissionResult, lab: Lab, lang: str = "ko") -> str:
    return text_of(feedback(result, lab, lang))


def as_dict(result: SubmissionResult, lab: Lab, lang: str = "ko") -> dict[str, Any]:
    return json_of(feedback(result, lab, lang))


def repair_text(say: Messages, result: StepResult) -> str:
    """The repair found in the student's own function (grading's search, autograder.repair), told
    as much as the lab chooses (Lab.repair_shows); "" when none was found."""
    found = result.repair
    if found is None or not found.parts:
        return ""
    shows = say.lab.repair_shows if say.lab is not None else "where"
    if shows == "kind":
        return say("repair", "kind", kind=", ".join(dict.fromkeys(say("repair_kind", p.kind) for p in found.parts)))

    def told(edits: tuple[RepairPart, ...]) -> str:
        # One slip on several lines is said once, at each of its places.
        groups: dict[str, list[RepairPart]] = {}
        for part in edits:
            groups.setdefault(part.kind, []).append(part)
        return " ".join(say("repair", "part", place=", ".join(dict.fromkeys(
                                _place_in_file(say, found.filename, p.line) for p in same)),
                            text=say("repair", kind, before=same[0].before)) for kind, same in groups.items())

    if found.also:
        where, closing = say("repair", "either", first=told(found.parts), second=told(found.also)), "where_either"
    else:
        where, closing = told(found.parts), "where"
    after = " / ".join(f"`{p.after}`" for p in found.parts if p.after)
    if shows == "fix" and after:
        return say("repair", "fix", parts=where, after=after)
    return say("repair", closing, parts=where)


def explained_text(say: Messages, result: StepResult) -> str:
    """What the explainer found in a step's values (judge.explanations), as sentences; "" when
    nothing. Quantities and kinds are named by the lab's catalog ([quantity], [kind])."""
    found = result.explained
    # One reading true of several outputs (Q, K and V all transposed; output and weights both from
    # swapped inputs) is said once, naming them all; and no sentence is said twice.
    grouped: dict[tuple[str, str, str], dict[str, Any]] = {}
    for explanation in found:
        key = (explanation["relation"], repr(explanation.get("parts")), repr(sorted((explanation.get("params") or {}).items())))
        if key in grouped:
            grouped[key]["outputs"].append(explanation["output"])
        else:
            grouped[key] = {"explanation": explanation, "outputs": [explanation["output"]]}
    merged = [dict(g["explanation"], output=", ".join(dict.fromkeys(g["outputs"]))) for g in grouped.values()]
    # Sentence by sentence: the one kind of test that fails is said once, before every reading.
    sentences = [sentence for e in merged for sentence in _explanation_sentences(say, e)]
    return " ".join(dict.fromkeys(sentence for sentence in sentences if sentence))


def _explanation_sentences(say: Messages, explanation: Mapping[str, Any]) -> list[str]:
    relation, params = explanation["relation"], dict(explanation.get("params") or {})
    kind = params.pop("kind", None)
    output = explanation["output"]
    if relation == "formula":
        sentences = [say("explain", "formula", output=output, phrase=_phrase(say, explanation["parts"])),
                     _why(say, explanation["parts"])]
    elif relation == "container":
        got = params["got"] if params["got"] != "other" else say("explain", "container_other")
        sentences = [say("explain", "container", output=output, got=got, expected=params["expected"])]
    elif relation in ("ratio_constant", "offset_constant"):
        key = relation + "_value" if "value" in params else relation
        sentences = [say("explain", key, output=output, **params)]
    elif relation == "observed":
        if "rows" in params:
            rows = say("explain", "kind_separator").join(f"'{label}'" for label in params["labels"])
            sentences = [say("explain", "observed_rows", case=case_label(say, params["case"]), rows=rows)]
        else:
            columns = say("explain", "kind_separator").join(position(c, say.lang) for c in params["columns"])
            sentences = [say("explain", "observed_columns", case=case_label(say, params["case"]),
                             columns=columns)]
    elif relation == "kind_only":
        sentences = []
    elif relation in say.table.get("explain", {}):
        sentences = [say("explain", relation, output=output, **_named_params(say, params))]
    else:
        return []
    if kind:  # the one kind of test that fails leads: what the values show was read on it
        sentences.insert(0, say("explain", "kind", kind=say.table.get("kind", {}).get(kind, kind)))
    return sentences


def _quantity(say: Messages, name: str) -> str:
    return say.table.get("quantity", {}).get(name, name)


# The params of an explanation that name a quantity or an input of the lab (its catalog words them).
_QUANTITY_PARAMS = ("quantity", "instead", "input", "other")


def _named_params(say: Messages, params: Mapping[str, Any]) -> dict[str, Any]:
    return {key: _quantity(say, value) if key in _QUANTITY_PARAMS else value for key, value in params.items()}


def _phrase(say: Messages, parts: Sequence[Sequence[Any]]) -> str:
    """A formula's parts as one noun phrase: its base, then each change applied to it."""
    phrase = ""
    for kind, *args in parts:
        if kind == "base":
            phrase = say("explain", "base_expected") if args[0] == "expected" else _quantity(say, args[0])
        elif kind == "product":
            left, right, transposed, end = args
            phrase = say("explain", f"product_{end}", left=_quantity(say, left),
                         right=_quantity(say, right) + (".T" if transposed else ""))
        elif kind == "order":
            axes = tuple(args[0])
            phrase = say("explain", "order_T", x=phrase) if len(axes) == 2 else \
                say("explain", "order_axes", x=phrase, axes=str(axes))
        elif kind in ("times", "divided"):
            phrase = say("explain", kind, x=phrase, factor=args[0])
        elif kind in ("plus", "minus"):
            phrase = say("explain", kind, x=phrase, quantity=_quantity(say, args[0]))
        elif kind == "round":
            phrase = say("explain", "round_whole", x=phrase) if args[0] == 0 else \
                say("explain", "round", x=phrase, decimals=args[0])
        elif kind in ("trunc", "negated", "complement", "absolute"):
            phrase = say("explain", kind, x=phrase)
        elif kind in ("sum", "mean"):
            phrase = say("explain", kind, x=phrase, axis=args[0])
        elif kind == "row":
            phrase = say("explain", f"row_{args[0]}", x=phrase)
        elif kind == "product_axis":
            left, right, transposed = args
            phrase = say("explain", "product_axis", left=_quantity(say, left),
                         right=_quantity(say, right) + (".T" if transposed else ""))
        elif kind == "tempered":
            phrase = say("explain", f"tempered_{args[0]}", x=phrase, factor=args[1])
        elif kind == "unnormalised":
            phrase = say("explain", "unnormalised", x=phrase)
    return phrase


def _why(say: Messages, parts: Sequence[Sequence[Any]]) -> str:
    """What to check, by the formula's last change (a quantity returned instead: the base)."""
    kind, *args = parts[-1]
    if kind == "base":
        return say("explain", "why_base", quantity=_quantity(say, args[0]))
    if kind == "product":
        return say("explain", "why_product_only" if args[3].startswith("only_") else "why_product")
    if kind == "order":
        return say("explain", "why_order")
    if kind in ("times", "divided"):
        return say("explain", "why_scale", factor=args[0])
    if kind in ("plus", "minus"):
        return say("explain", "why_residual", quantity=_quantity(say, args[0]))
    if kind == "row" and args[0] == "sum":
        return say("explain", "why_row_sum")
    if kind == "product_axis":
        return say("explain", "why_product_axis")
    if kind == "tempered":
        return say("explain", f"why_tempered_{args[0]}", factor=args[1])
    if kind == "unnormalised":
        return say("explain", "why_unnormalised")
    return say("explain", {"round": "why_round", "trunc": "why_trunc", "sum": "why_sum", "mean": "why_mean", "row": "why_row",
                           "negated": "why_sign", "complement": "why_sign",
                           "absolute": "why_absolute"}[kind])
