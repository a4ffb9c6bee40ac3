"""The lab API: keyword-only, frozen, checked declarations, and `Lab.from_package`'s conventions.

Invariants (autograder/core/declaration.py, autograder/core/lab.py):
- every declaration class is frozen and takes its fields by keyword only;
- a slip in a declaration (a bare string for a tuple, a negative or boolean point count, a
  non-callable where a function goes) is refused when it is built, naming the field;
- `Lab.from_package` fills each field it is not given from the package's conventional place, an
  explicit argument always winning, and never mistakes a module that fails to import for an absent one.
"""
import dataclasses
import importlib
import itertools
import sys
import textwrap
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.authoring.lab_kit import printed_row, quietly
from autograder.core.declaration import Case, ErrorMistake, Link, Mistake, Output, Probe, Step
from autograder.core.lab import Lab, LabError, _nothing, _no_facts
from autograder.core.rubric import Rubric
from autograder.core.stand_in import StandIn


def _step(name="f", **changes):
    fields = dict(name=name, points=1, page_step=1, params=("x",), outputs=(Output(name="y"),))
    fields.update(changes)
    return Step(**fields)


def _case():
    return Case(name="page", words=("w",), inputs={"x": np.ones(2)})


DECLARATIONS = {
    Output: dict(name="y"),
    Mistake: dict(code="c", candidates=lambda p: ()),
    ErrorMistake: dict(code="c", messages=lambda p: ()),
    Link: dict(helper="h", helper_code="a", code="b", becomes="c"),
    Step: dict(name="f", points=1, page_step=1, params=("x",), outputs=(Output(name="y"),)),
    Probe: dict(step=_step(), case=_case(), trace=None, args=(1,), expected=(1,)),
    Case: dict(name="page", words=("w",), inputs={}),
    Lab: dict(name="toy", titles={}, steps=(_step(),), public_cases=lambda: []),
    Rubric: dict(shares={}, formula=0.5),
    StandIn: dict(name="f", args=(), value=1),
}


@pytest.mark.parametrize("kind", list(DECLARATIONS), ids=lambda kind: kind.__name__)
def test_every_declaration_is_frozen_and_keyword_only(kind):
    fields = DECLARATIONS[kind]
    made = kind(**fields)
    with pytest.raises(TypeError):
        kind(*fields.values())
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, next(iter(fields)), "changed")
    assert all(f.kw_only for f in dataclasses.fields(kind))


@pytest.mark.parametrize("changes, error, words", [
    (dict(params="x"), TypeError, "params= takes a tuple of parameter names"),
    (dict(params=("x", 1)), TypeError, "params="),
    (dict(calls="g"), TypeError, "calls= takes a tuple of step names"),
    (dict(points=-1), ValueError, "points="),
    (dict(points=True), ValueError, "points="),
    (dict(points=float("nan")), ValueError, "points="),
    (dict(points="2"), ValueError, "points="),
    (dict(page_step=0), ValueError, "page_step="),
    (dict(page_step=2.0), ValueError, "page_step="),
    (dict(outputs=Output(name="y")), TypeError, "outputs= takes a tuple of Output"),
    (dict(outputs=()), ValueError, "outputs= names at least one"),
    (dict(mistakes=(lambda p: (),)), TypeError, "mistakes= takes a tuple of Mistake"),
    (dict(error_mistakes=(Mistake(code="c", candidates=lambda p: ()),)), TypeError, "error_mistakes="),
    (dict(links=(("h", "a", "b", "c"),)), TypeError, "links= takes a tuple of Link"),
    (dict(make_probes="probes"), TypeError, "make_probes="),
    (dict(name="not a name"), TypeError, "name="),
])
def test_a_slip_in_a_step_is_refused_naming_the_field(changes, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(")):
        _step(**changes)


def test_slips_in_the_small_declarations_are_refused():
    with pytest.raises(ValueError, match="kind="):
        Output(name="y", kind="table")
    with pytest.raises(ValueError, match="columns="):
        Output(name="y", columns="rows")
    with pytest.raises(TypeError, match="candidates="):
        Mistake(code="c", candidates=None)
    with pytest.raises(TypeError, match="messages="):
        ErrorMistake(code="c", messages="ValueError")
    with pytest.raises(TypeError, match="code="):
        Mistake(code="", candidates=lambda p: ())
    with pytest.raises(TypeError, match="words="):
        Case(name="page", words="나는", inputs={})
    with pytest.raises(LabError, match="steps= names no step"):
        Lab(name="toy", titles={}, steps=(), public_cases=lambda: [])
    with pytest.raises(LabError, match="public_cases= takes a function"):
        Lab(name="toy", titles={}, steps=(_step(),), public_cases=[_case()])
    with pytest.raises(LabError, match="name="):
        Lab(name="two words", titles={}, steps=(_step(),), public_cases=lambda: [])


def test_a_list_where_a_tuple_is_asked_is_kept_as_a_tuple():
    step = _step(params=["x", "y"], calls=[], mistakes=[])
    assert step.params == ("x", "y") and step.calls == () and step.mistakes == ()
    assert Case(name="c", words=["a", "b"], inputs={}).words == ("a", "b")


def test_a_step_without_probes_says_so():
    with pytest.raises(TypeError, match="no make_probes"):
        _step().probes(_case(), None)


# Lab.from_package ------------------------------------------------------------------------------

# What each conventional place holds in a generated package, and the field it fills.
PLACES = {
    ("cases", "public_cases"): "public_cases",
    ("cases", "hidden_cases"): "hidden_cases",
    ("hidden", "hidden_cases"): "hidden_cases",
    ("reference", "trace"): "trace",
    ("reference", "stand_ins"): "stand_ins",
    ("", "hint_facts"): "hint_facts",
}
_made = itertools.count()


def _package(root, places, broken=()):
    """A lab package under `root` with a function at each (module, attribute) of `places`; each
    module in `broken` raises on import. Its name is new on every call."""
    name = f"generated_lab_{next(_made)}"
    folder = root / name
    folder.mkdir()
    modules = {}
    for module, attribute in places:
        modules.setdefault(module, []).append(f"def {attribute}(*args):\n    return ({module!r}, {attribute!r})\n")
    for module in broken:
        modules.setdefault(module, []).insert(0, "raise ImportError('a broken import inside the module')\n")
    (folder / "__init__.py").write_text("".join(modules.pop("", [])), "utf-8")
    for module, parts in modules.items():
        (folder / f"{module}.py").write_text("".join(parts), "utf-8")
    importlib.invalidate_caches()
    return name


@pytest.fixture(scope="module")
def package_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab_packages")
    sys.path.insert(0, str(root))
    yield root
    sys.path.remove(str(root))


def _origin(function):
    """(module, attribute) of a generated package's function, as it answers."""
    return function()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(places=st.sets(st.sampled_from(sorted(PLACES))), explicit=st.sets(st.sampled_from(
    ["public_cases", "hidden_cases", "trace", "stand_ins", "hint_facts", "notebook", "solution", "name"])))
def test_from_package_fills_what_it_is_not_given_from_the_conventional_place(package_root, places, explicit):
    package = _package(package_root, places)
    given_values = {
        "public_cases": lambda: ["given"], "hidden_cases": lambda: ["given"], "trace": lambda case: "given",
        "stand_ins": lambda case, trace: ["given"], "hint_facts": lambda: {"given": "yes"},
        "notebook": "given.ipynb", "solution": "given_solutions.toy", "name": "given_name"}
    arguments = {key: given_values[key] for key in explicit}
    if "public_cases" not in explicit and ("cases", "public_cases") not in places:
        with pytest.raises(LabError, match="no public cases"):
            Lab.from_package(package, titles={}, steps=(_step(),), **arguments)
        return
    lab = Lab.from_package(package, titles={"en": "Toy"}, steps=(_step(),), **arguments)
    for field_name in ("public_cases", "hidden_cases", "trace", "stand_ins", "hint_facts"):
        value = getattr(lab, field_name)
        conventional = [place for place, filled in PLACES.items() if filled == field_name and place in places]
        if field_name in explicit:
            assert value is arguments[field_name]
        elif conventional:
            # hidden.py comes before cases.py for hidden cases.
            first = ("hidden", "hidden_cases") if ("hidden", "hidden_cases") in conventional else conventional[0]
            assert _origin(value) == first
        else:
            assert value is {"hidden_cases": _nothing, "hint_facts": _no_facts}.get(field_name)
    name = "given_name" if "name" in explicit else package
    assert lab.name == name and lab.catalog_package == package
    assert lab.notebook == ("given.ipynb" if "notebook" in explicit else f"{name}_lab.ipynb")
    assert lab.script == f"{name}_lab.py" and lab.assignment_package == f"assignments.{name}"
    assert lab.solution == ("given_solutions.toy" if "solution" in explicit else f"solutions.{name}")


@pytest.mark.parametrize("broken", ["cases", "hidden", "reference"])
def test_a_conventional_module_that_fails_to_import_is_an_error_not_an_absence(package_root, broken):
    package = _package(package_root, [("cases", "public_cases"), ("hidden", "hidden_cases"),
                                      ("reference", "trace")], broken=[broken])
    with pytest.raises(ImportError, match="a broken import inside the module"):
        Lab.from_package(package, titles={}, steps=(_step(),))


def test_from_package_of_a_missing_package_is_refused():
    with pytest.raises(LabError, match="no package 'no_such_lab_package.inner'"):
        Lab.from_package("no_such_lab_package.inner", titles={}, steps=(_step(),))


@pytest.mark.parametrize("lab_name", ["self_attention", "masked_attention"])
def test_both_labs_are_built_by_convention(lab_name):
    package = importlib.import_module(f"labs.{lab_name}")
    lab = package.LAB
    assert lab.name == lab_name and lab.catalog_package == f"labs.{lab_name}"
    assert (lab.notebook, lab.script) == (f"{lab_name}_lab.ipynb", f"{lab_name}_lab.py")
    assert (lab.assignment_package, lab.solution) == (f"assignments.{lab_name}", f"solutions.{lab_name}")
    assert lab.public_cases is importlib.import_module(f"labs.{lab_name}.cases").public_cases
    assert lab.hidden_cases is importlib.import_module(f"labs.{lab_name}.hidden").hidden_cases
    reference = importlib.import_module(f"labs.{lab_name}.reference")
    assert lab.trace is reference.trace and lab.stand_ins is reference.stand_ins
    assert lab.hint_facts is package.hint_facts and lab.vocabulary is package.VOCABULARY
    assert lab.assignment_file(lab.notebook).is_file() and lab.assignment_file(lab.script).is_file()
    assert importlib.import_module(lab.solution)


# The authoring kit -----------------------------------------------------------------------------

def test_quietly_keeps_numpy_quiet_and_lists_the_candidates():
    @quietly
    def overflowing(probe):
        """Doc."""
        yield (np.exp(np.array([1000.0])),)
        yield (np.array([0.0]) / 0.0,)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = overflowing(None)
    assert isinstance(got, list) and len(got) == 2 and np.isinf(got[0][0]).all() and np.isnan(got[1][0]).all()
    assert overflowing.__name__ == "overflowing" and overflowing.__doc__ == "Doc."
    assert np.geterr()["over"] != "ignore"  # the error state is restored


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), max_size=6), st.integers(0, 4))
def test_printed_row_prints_each_number_with_its_decimals(values, decimals):
    text = printed_row(np.array(values, dtype=float), decimals)
    assert text == "[" + ", ".join(f"{v:.{decimals}f}" for v in values) + "]"
