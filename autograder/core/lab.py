"""What the engine is handed: a lab, as data. The engine imports no lab; it renders what a Lab declares.

A lab package (see labs/) builds one `Lab`, usually with `Lab.from_package(__name__, titles=...,
steps=...)`, and names it in the "autograder.labs" entry-point group; `autograder.registry` finds
it by name. The students' check kit builds a public `Lab` from data (no trace, no helpers, no
hidden cases) and renders it with the same code.
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .declaration import Case, Step, Trace
from .parsed_toml import parsed_toml

if TYPE_CHECKING:
    from importlib.abc import Traversable

    from .explain.records import Vocabulary
    from .rubric import Rubric
    from .stand_in import StandIn

T = TypeVar("T")
Cases = Callable[[], Iterable[Case]]
RepairShows = Literal["where", "fix", "kind"]
DomainCase = Callable[[int], Case]
REPAIR_SHOWS: tuple[RepairShows, ...] = ("where", "fix", "kind")
TraceOf = Callable[[Case], Trace]
StandInsOf = Callable[[Case, Trace], Iterable["StandIn"]]
HintFacts = Callable[[], Mapping[str, str]]


def _nothing() -> tuple[Case, ...]:
    return ()


def _no_facts() -> dict[str, str]:
    return {}


class LabError(ValueError):
    """A lab declared wrongly (its author's mistake, found when the Lab is built): the message says
    what to change."""


@dataclass(frozen=True, kw_only=True)
class Lab:
    """Everything the engine needs to know about one lab."""

    name: str  # what `--lab` takes
    titles: Mapping[str, str]  # {"ko": ..., "en": ...}, for report and feedback headings
    steps: tuple[Step, ...]  # in the order the students meet them
    public_cases: Cases  # the first is the page's
    hidden_cases: Cases = _nothing  # absent from the students' kit
    trace: TraceOf | None = None  # the reference's intermediate values on a case (grader only)
    # The calls the reference's composed step makes on the case, which the grader answers for a
    # student's helper that did not pass (grader only)
    stand_ins: StandInsOf | None = None
    hint_facts: HintFacts = _no_facts  # the page's numbers hints may quote
    catalog_package: str | None = None  # package holding locale/ko.toml and locale/en.toml
    catalog_tables: Mapping[str, dict[str, Any]] | None = None  # {lang: table}, instead of a package (the kit)
    notebook: str = ""  # the file students submit, e.g. "self_attention_lab.ipynb"
    script: str = ""  # its .py twin
    assignment_package: str | None = None  # package holding the notebook and its twin
    page_case: str = "page"  # the case whose numbers the lab page prints
    solution: str | None = None  # module of the reference solution (the notebook tools fill stubs from it)
    # The sizes and kinds of a case, for reading unnamed failures against the trace (grader only;
    # its quantities' display names are in the catalogs)
    vocabulary: Vocabulary | None = None
    # The shares of the lab's own mistakes, for every step that declares no rubric of its own
    # (None: the engine's default shares)
    rubric: Rubric | None = None
    # {step name: inspect.Signature} of the steps other steps call, as the reference declares
    # them; None: read from the `solution` module (the students' kit gives them as data)
    signatures: Mapping[str, inspect.Signature] | None = None
    # How much a repair found in a student's own function tells (autograder.repair): "where" (the
    # line and the kind of edit, the default), "fix" (the corrected code too) or "kind" (the kind only)
    repair_shows: RepairShows = "where"
    # A case of any size and values the lab's text allows, drawn from a seed (grader only): the
    # inputs the build's self-check runs the edits of the reference on (autograder.mutants)
    domain_case: DomainCase | None = None

    def __post_init__(self) -> None:
        if self.repair_shows not in REPAIR_SHOWS:
            raise LabError(f"Lab: repair_shows= takes one of {REPAIR_SHOWS}, not {self.repair_shows!r}")
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise LabError(f"Lab: name= takes the lab's name as `--lab` takes it (letters, digits, _), "
                           f"not {self.name!r}")
        if isinstance(self.steps, (str, bytes)) or not isinstance(self.steps, Sequence) \
                or not all(isinstance(step, Step) for step in self.steps):
            raise LabError(f"lab {self.name!r}: steps= takes a tuple of Step, not {self.steps!r}")
        if not self.steps:
            raise LabError(f"lab {self.name!r}: steps= names no step; a lab grades at least one function")
        for field_name in ("public_cases", "hidden_cases", "hint_facts", "trace", "stand_ins"):
            value = getattr(self, field_name)
            if value is not None and not callable(value):
                raise LabError(f"lab {self.name!r}: {field_name}= takes a function, not {value!r}")
        object.__setattr__(self, "steps", tuple(self.steps))
        check_graph(self.name, self.steps)
        if self.rubric is not None:
            object.__setattr__(self, "steps", tuple(step if step.rubric is not None else replace(step, rubric=self.rubric)
                                                    for step in self.steps))

    @classmethod
    def from_package(cls, package_name: str, *, titles: Mapping[str, str], steps: Sequence[Step],
                     name: str | None = None,
                     public_cases: Cases | None = None,
                     hidden_cases: Cases | None = None,
                     trace: TraceOf | None = None,
                     stand_ins: StandInsOf | None = None,
                     hint_facts: HintFacts | None = None,
                     notebook: str | None = None,
                     script: str | None = None,
                     assignment_package: str | None = None,
                     solution: str | None = None,
                     page_case: str = "page",
                     vocabulary: Vocabulary | None = None,
                     rubric: Rubric | None = None,
                     signatures: Mapping[str, inspect.Signature] | None = None,
                     domain_case: DomainCase | None = None,
                     repair_shows: RepairShows = "where") -> Lab:
        """The lab of package `package_name`, what follows from the package filled in by convention.

        Call it from the package's own `__init__.py` as `Lab.from_package(__name__, titles=...,
        steps=...)`. An argument given (not None) always wins; for each left out:

        - `name`: the package's last dotted part (`labs.self_attention` → `self_attention`);
        - the catalogs: the package's own `locale/` folder;
        - `notebook`, `script`: `<name>_lab.ipynb`, `<name>_lab.py`;
        - `assignment_package`: `assignments.<name>`; `solution`: `solutions.<name>`;
        - `public_cases`: `cases.public_cases` (a lab has public cases: LabError when absent);
        - `hidden_cases`: `hidden.hidden_cases`, else `cases.hidden_cases`, else none;
        - `trace`, `stand_ins`: `reference.trace`, `reference.stand_ins`, else none;
        - `hint_facts`: `hint_facts` of the package itself (define it above the `Lab`), else none;
        - `domain_case`: `cases.domain_case`, else none.

        A conventional module that exists but fails to import raises its own error: only a module
        that is not there counts as absent.
        """
        lab_name = name if name is not None else package_name.rpartition(".")[2]
        found = _Conventions(package_name)
        found_public = public_cases if public_cases is not None else found.first(("cases", "public_cases"))
        if found_public is None:
            raise LabError(f"lab {lab_name!r}: no public cases; write public_cases() in "
                           f"{package_name}.cases, or pass public_cases=")
        return cls(
            name=lab_name, titles=titles, steps=tuple(steps),
            public_cases=found_public,
            hidden_cases=_given(hidden_cases, found.first(("hidden", "hidden_cases"), ("cases", "hidden_cases")),
                                _nothing),
            trace=trace if trace is not None else found.first(("reference", "trace")),
            stand_ins=stand_ins if stand_ins is not None else found.first(("reference", "stand_ins")),
            hint_facts=_given(hint_facts, found.first(("", "hint_facts")), _no_facts),
            catalog_package=package_name,
            notebook=notebook if notebook is not None else f"{lab_name}_lab.ipynb",
            script=script if script is not None else f"{lab_name}_lab.py",
            assignment_package=assignment_package if assignment_package is not None else f"assignments.{lab_name}",
            solution=solution if solution is not None else f"solutions.{lab_name}",
            page_case=page_case, vocabulary=vocabulary, rubric=rubric, signatures=signatures,
            domain_case=domain_case if domain_case is not None else found.first(("cases", "domain_case")),
            repair_shows=repair_shows)

    @cached_property
    def steps_by_name(self) -> dict[str, Step]:
        return {step.name: step for step in self.steps}

    @cached_property
    def function_names(self) -> tuple[str, ...]:
        return tuple(step.name for step in self.steps)

    @cached_property
    def total_points(self) -> float:
        return sum(step.points for step in self.steps)

    @cached_property
    def grading_order(self) -> tuple[Step, ...]:
        """The steps in the order they are graded: every step after the steps it calls, otherwise
        in the lab's own order (a topological order of the graph `Step.calls` declares)."""
        return topological_order(self.steps)

    def reachable_from(self, step: Step) -> tuple[str, ...]:
        """Every step `step`'s function may call, directly or through the steps it calls, in the
        lab's order: the names a stand-in may answer while it runs (a callee that passed runs as
        the student's own, and may call a step that did not)."""
        seen: set[str] = set()
        todo = list(step.calls)
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(self.steps_by_name[name].calls)
        return tuple(name for name in self.function_names if name in seen)

    @cached_property
    def callee_signatures(self) -> dict[str, inspect.Signature]:
        """{name: inspect.Signature} of every step some step calls: how a stand-in binds a call's
        arguments, defaults applied (see autograder.core.stand_in). The reference's own signature when
        the lab has its solution; else the step's declared parameters, each required."""
        called = [name for name in self.function_names if any(name in step.calls for step in self.steps)]
        given = self.signatures or {}
        solution = None
        if self.solution is not None and any(name not in given for name in called):
            solution = importlib.import_module(self.solution)
        signatures: dict[str, inspect.Signature] = {}
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

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles.get("en") or self.name

    def all_cases(self) -> list[Case]:
        return list(self.public_cases()) + list(self.hidden_cases())

    @cached_property
    def case_shapes(self) -> dict[str, tuple[str, list[str]]]:
        """{case name: (its inputs' shapes as text, the inputs whose shape differs from the page's)}:
        what a student may learn of a hidden case. Never its values."""
        cases = self.all_cases()
        page = next((c for c in cases if c.name == self.page_case), None)
        page_shapes = dict(page.sizes()) if page is not None else {}
        return {case.name: (case.shapes_text(),
                            [key for key, shape in case.sizes() if page_shapes.get(key) != shape])
                for case in cases}

    def catalog(self, lang: str) -> dict[str, Any]:
        """The lab's own messages in `lang` (the engine's general ones are merged by render)."""
        if self.catalog_tables is not None:
            return dict(self.catalog_tables.get(lang, {}))
        if self.catalog_package is None:
            return {}
        return _catalog(self.catalog_package, lang)

    def assignment_file(self, name: str) -> Traversable:
        """A file of the lab's assignment folder (the notebook or its twin), as a Traversable."""
        if self.assignment_package is None:
            raise LabError(f"lab {self.name!r} names no assignment_package")
        return resources.files(self.assignment_package).joinpath(name)


def _given(explicit: T | None, found: T | None, default: T) -> T:
    return explicit if explicit is not None else found if found is not None else default


class _Conventions:
    """The attributes a lab package has where the conventions look for them."""

    def __init__(self, package_name: str) -> None:
        self.package_name = package_name

    def first(self, *places: tuple[str, str]) -> Any:
        """The first (module, attribute) of `places` the package has ("" for the package itself), or None."""
        for module_name, attribute in places:
            module = self._module(module_name)
            if module is not None and getattr(module, attribute, None) is not None:
                return getattr(module, attribute)
        return None

    def _module(self, module_name: str) -> Any:
        full = f"{self.package_name}.{module_name}" if module_name else self.package_name
        if full in sys.modules:
            return sys.modules[full]
        try:
            spec = importlib.util.find_spec(full)
        except ModuleNotFoundError:  # the package itself is not importable
            raise LabError(f"Lab.from_package: no package {self.package_name!r} to read the lab from") from None
        return importlib.import_module(full) if spec is not None else None


def check_graph(lab_name: str, steps: Sequence[Step]) -> None:
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


def _cycle(steps: Sequence[Step]) -> list[str] | None:
    """One cycle of the call graph as a list of names (its first name again at the end), or None."""
    by_name = {step.name: step for step in steps}
    state: dict[str, str] = {}  # name -> "open" while its callees are visited, "done" after

    def visit(name: str, path: list[str]) -> list[str] | None:
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


def topological_order(steps: Sequence[Step]) -> tuple[Step, ...]:
    """`steps` reordered so that each comes after every step it calls; among the steps ready at
    once, the first in the lab's order goes first (so a lab whose order already fits keeps it)."""
    left = list(steps)
    done: set[str] = set()
    order: list[Step] = []
    while left:
        ready = next((step for step in left if all(name in done for name in step.calls)), None)
        if ready is None:
            raise LabError("the steps call each other in a circle")
        order.append(ready)
        done.add(ready.name)
        left.remove(ready)
    return tuple(order)


_tables: dict[tuple[str, str], dict[str, Any]] = {}


def _catalog(package: str, lang: str) -> dict[str, Any]:
    key = (package, lang)
    if key not in _tables:
        folder = resources.files(package).joinpath("locale")
        path = folder.joinpath(f"{lang}.toml")
        _tables[key] = parsed_toml(path.read_text("utf-8")) if path.is_file() else {}
    return _tables[key]
