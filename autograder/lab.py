"""What the engine is handed: a lab, as data. The engine imports no lab; it renders what a Lab declares.

A lab package (see labs/) builds one `Lab` and names it in the "autograder.labs" entry-point
group; `autograder.registry` finds it by name. The students' check kit builds a public `Lab` from
data (no trace, no helpers, no hidden cases) and renders it with the same code.
"""
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib
import importlib
import inspect
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib import resources

import numpy as np


@dataclass(frozen=True, eq=False)
class Case:
    """One input the steps are graded on: its name, the words labelling rows and columns, and
    the lab's named input arrays (read as attributes: `case.X`). `degenerate`: the lab says the
    case is so small that a wrong formula may be right on it (one word of an attention lab):
    passing it alone earns nothing (see autograder.rubric)."""

    name: str
    words: tuple
    inputs: dict
    hidden: bool = False
    degenerate: bool = field(default=False, kw_only=True)

    def __getattr__(self, key):
        inputs = self.__dict__.get("inputs")
        if inputs is not None and key in inputs:
            return inputs[key]
        raise AttributeError(key)

    def sizes(self):
        """The shapes of the case's arrays: two cases of one size can only tell apart fitted values."""
        return tuple((key, np.shape(value)) for key, value in self.inputs.items())

    def shapes_text(self):
        """'X (5, 6), W_Q (6, 3), …': what a student may know of a hidden case (never its values)."""
        return ", ".join(f"{key} {tuple(np.shape(v))}" for key, v in self.inputs.items()
                         if isinstance(v, np.ndarray))


def _nothing():
    return ()


class LabError(ValueError):
    """A lab declared wrongly (its author's mistake, found when the Lab is built): the message says
    what to change."""


@dataclass(frozen=True)
class Lab:
    """Everything the engine needs to know about one lab."""

    name: str  # what `--lab` takes
    titles: dict  # {"ko": ..., "en": ...}, for report and feedback headings
    steps: tuple  # declaration.Step, in the order the students meet them
    public_cases: object  # () -> [Case]; the first is the page's
    hidden_cases: object = _nothing  # () -> [Case]; absent from the students' kit
    trace: object = None  # Case -> the reference's intermediate values (grader only)
    # (Case, Trace) -> [stand_in.StandIn]: the calls the reference's composed step makes on the
    # case, which the grader answers for a student's helper that did not pass (grader only)
    stand_ins: object = None
    hint_facts: object = dict  # () -> {name: text}: the page's numbers hints may quote
    catalog_package: str = None  # package holding locale/ko.toml and locale/en.toml
    catalog_tables: dict = None  # {lang: table}, instead of a package (the students' kit)
    notebook: str = ""  # the file students submit, e.g. "self_attention_lab.ipynb"
    script: str = ""  # its .py twin
    assignment_package: str = None  # package holding the notebook and its twin
    page_case: str = "page"  # the case whose numbers the lab page prints
    solution: str = None  # module of the reference solution (the notebook tools fill stubs from it)
    # autograder.explain.Vocabulary: the sizes and kinds of a case, for reading unnamed failures
    # against the trace (grader only; its quantities' display names are in the catalogs)
    vocabulary: object = None
    # autograder.rubric.Rubric: the shares of the lab's own mistakes, for every step that declares
    # no rubric of its own (None: the engine's default shares)
    rubric: object = field(default=None, kw_only=True)
    # {step name: inspect.Signature} of the steps other steps call, as the reference declares
    # them; None: read from the `solution` module (the students' kit gives them as data)
    signatures: dict = field(default=None, kw_only=True)

    def __post_init__(self):
        object.__setattr__(self, "steps", tuple(self.steps))
        check_graph(self.name, self.steps)
        if self.rubric is not None:
            object.__setattr__(self, "steps", tuple(step if step.rubric is not None else replace(step, rubric=self.rubric)
                                                    for step in self.steps))

    @cached_property
    def steps_by_name(self):
        return {step.name: step for step in self.steps}

    @cached_property
    def function_names(self):
        return tuple(step.name for step in self.steps)

    @cached_property
    def total_points(self):
        return sum(step.points for step in self.steps)

    @cached_property
    def grading_order(self):
        """The steps in the order they are graded: every step after the steps it calls, otherwise
        in the lab's own order (a topological order of the graph `Step.calls` declares)."""
        return topological_order(self.steps)

    def reachable_from(self, step):
        """Every step `step`'s function may call, directly or through the steps it calls, in the
        lab's order: the names a stand-in may answer while it runs (a callee that passed runs as
        the student's own, and may call a step that did not)."""
        seen, todo = set(), list(step.calls)
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(self.steps_by_name[name].calls)
        return tuple(name for name in self.function_names if name in seen)

    @cached_property
    def callee_signatures(self):
        """{name: inspect.Signature} of every step some step calls: how a stand-in binds a call's
        arguments, defaults applied (see autograder.stand_in). The reference's own signature when
        the lab has its solution; else the step's declared parameters, each required."""
        called = [name for name in self.function_names if any(name in step.calls for step in self.steps)]
        given = self.signatures or {}
        solution = None
        if self.solution is not None and any(name not in given for name in called):
            solution = importlib.import_module(self.solution)
        signatures = {}
        for name in called:
            if name in given:
                signatures[name] = given[name]
            elif solution is not None and callable(getattr(solution, name, None)):
                signatures[name] = inspect.signature(getattr(solution, name))
            else:
                signatures[name] = inspect.Signature([
                    inspect.Parameter(param, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                    for param in self.steps_by_name[name].params])
        return signatures

    def title(self, lang):
        return self.titles.get(lang) or self.titles.get("en") or self.name

    def all_cases(self):
        return list(self.public_cases()) + list(self.hidden_cases())

    @cached_property
    def case_shapes(self):
        """{case name: (its inputs' shapes as text, the inputs whose shape differs from the page's)}:
        what a student may learn of a hidden case. Never its values."""
        cases = self.all_cases()
        page = next((c for c in cases if c.name == self.page_case), None)
        page_shapes = dict(page.sizes()) if page is not None else {}
        return {case.name: (case.shapes_text(),
                            [key for key, shape in case.sizes() if page_shapes.get(key) != shape])
                for case in cases}

    def catalog(self, lang):
        """The lab's own messages in `lang` (the engine's general ones are merged by render)."""
        if self.catalog_tables is not None:
            return self.catalog_tables.get(lang, {})
        if self.catalog_package is None:
            return {}
        return _catalog(self.catalog_package, lang)

    def assignment_file(self, name):
        """A file of the lab's assignment folder (the notebook or its twin), as a Traversable."""
        return resources.files(self.assignment_package).joinpath(name)


def check_graph(lab_name, steps):
    """LabError unless the steps' names are distinct and their `calls` name other steps of the
    lab, without a cycle."""
    names = [step.name for step in steps]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise LabError(f"lab {lab_name!r}: two steps are named {', '.join(twice)}; each step needs its own name")
    for step in steps:
        if step.name in step.calls:
            raise LabError(f"lab {lab_name!r}: step {step.name!r} lists itself in calls=; a step calls "
                           "only other steps")
        unknown = [name for name in step.calls if name not in names]
        if unknown:
            raise LabError(f"lab {lab_name!r}: step {step.name!r} calls {', '.join(map(repr, unknown))}, "
                           f"which is no step of the lab (its steps: {', '.join(names)})")
    cycle = _cycle(steps)
    if cycle:
        raise LabError(f"lab {lab_name!r}: the steps call each other in a circle "
                       f"({' → '.join(cycle)}); a step cannot be graded before the steps it calls")


def _cycle(steps):
    """One cycle of the call graph as a list of names (its first name again at the end), or None."""
    by_name = {step.name: step for step in steps}
    state = {}  # name -> "open" while its callees are visited, "done" after

    def visit(name, path):
        state[name] = "open"
        for callee in by_name[name].calls:
            if state.get(callee) == "open":
                return path[path.index(callee):] + [callee]
            if callee not in state:
                found = visit(callee, path + [callee])
                if found:
                    return found
        state[name] = "done"
        return None

    for step in steps:
        if step.name not in state:
            found = visit(step.name, [step.name])
            if found:
                return found
    return None


def topological_order(steps):
    """`steps` reordered so that each comes after every step it calls; among the steps ready at
    once, the first in the lab's order goes first (so a lab whose order already fits keeps it)."""
    left = list(steps)
    done, order = set(), []
    while left:
        ready = next((step for step in left if all(name in done for name in step.calls)), None)
        if ready is None:
            raise LabError("the steps call each other in a circle")
        order.append(ready)
        done.add(ready.name)
        left.remove(ready)
    return tuple(order)


_tables = {}


def _catalog(package, lang):
    key = (package, lang)
    if key not in _tables:
        folder = resources.files(package).joinpath("locale")
        path = folder.joinpath(f"{lang}.toml")
        _tables[key] = tomllib.loads(path.read_text("utf-8")) if path.is_file() else {}
    return _tables[key]
