"""What the engine is handed: a lab, as data. The engine imports no lab; it renders what a Lab declares.

A lab package (see labs/) builds one `Lab` and names it in the "autograder.labs" entry-point
group; `autograder.registry` finds it by name. The students' check kit builds a public `Lab` from
data (no trace, no helpers, no hidden cases) and renders it with the same code.
"""
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib
from dataclasses import dataclass
from functools import cached_property
from importlib import resources

import numpy as np


@dataclass(frozen=True, eq=False)
class Case:
    """One input the steps are graded on: its name, the words labelling rows and columns, and
    the lab's named input arrays (read as attributes: `case.X`)."""

    name: str
    words: tuple
    inputs: dict
    hidden: bool = False

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
    # (package, file) pairs whose bytes version the grades besides the lab's own package and its
    # solution module, which are always hashed (see batch.outputs.grader_version)
    version_files: tuple = ()
    solution: str = None  # module of the reference solution (the notebook tools fill stubs from it)
    # autograder.explain.Vocabulary: the sizes and kinds of a case, for reading unnamed failures
    # against the trace (grader only; its quantities' display names are in the catalogs)
    vocabulary: object = None

    @cached_property
    def steps_by_name(self):
        return {step.name: step for step in self.steps}

    @cached_property
    def function_names(self):
        return tuple(step.name for step in self.steps)

    @cached_property
    def total_points(self):
        return sum(step.points for step in self.steps)

    def helpers_of(self, step):
        """The other step functions a composed step calls (the grader may answer them with the
        reference's, so that the step is graded on its own); none for a plain step."""
        if not step.needs_helpers:
            return ()
        return tuple(other.name for other in self.steps if other.name != step.name)

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


_tables = {}


def _catalog(package, lang):
    key = (package, lang)
    if key not in _tables:
        folder = resources.files(package).joinpath("locale")
        path = folder.joinpath(f"{lang}.toml")
        _tables[key] = tomllib.loads(path.read_text("utf-8")) if path.is_file() else {}
    return _tables[key]
