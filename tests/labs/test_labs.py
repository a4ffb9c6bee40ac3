"""Every installed lab keeps the contract the engine relies on, and the engine stays lab-free.

Runs over `autograder.registry.lab_names()`: a lab added to the entry points is checked here
without a line of this file changing.
"""
import json
import string
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from autograder.core.rubric import parts

from autograder import registry
from autograder.core.judge import RAISED
from autograder.core.causes import UNEXPLAINED
from autograder.core.render.messages import LANGUAGES, catalog, engine_catalog
import installed
from conftest import ROOT
from test_catalogs import HAEYO_ENDINGS, LOOSE_PARTICLE, TRANSLATED_WORDS

from autograder.authoring import fill


LAB_NAMES = registry.lab_names()
# Codes the judge, the grading core and the loader report for any lab.
GENERAL_CODES = tuple(sorted(RAISED | UNEXPLAINED | {"missing", "syntax_error", "timeout", "wrong_type",
                                                        "transposed", "not_finite", "mutates_input",
                                                        "hardcoded", "rounded", "missing_module"} - {"not_run"}))


def lab(name):
    return registry.load(name)


def placeholders(text):
    return sorted((field, spec) for _, field, spec, _ in string.Formatter().parse(text) if field is not None)


def entries(table):
    return {(section, key): value for section, keys in table.items() for key, value in keys.items()}


def test_both_labs_are_installed():
    assert {"self_attention", "masked_attention"} <= set(LAB_NAMES)


@pytest.mark.parametrize("name", LAB_NAMES)
def test_lab_declares_what_the_engine_needs(name):
    found = lab(name)
    assert found.name == name and found.title("ko") and found.title("en")
    assert found.steps and len(set(found.function_names)) == len(found.steps)
    assert found.total_points == sum(step.points for step in found.steps) > 0
    public, hidden = list(found.public_cases()), list(found.hidden_cases())
    assert public[0].name == found.page_case and not any(c.hidden for c in public)
    assert hidden and all(c.hidden for c in hidden)
    assert len({c.name for c in public + hidden}) == len(public + hidden)
    assert found.notebook.endswith(".ipynb") and found.script.endswith(".py")
    assert found.assignment_file(found.notebook).is_file() and found.assignment_file(found.script).is_file()


@pytest.mark.parametrize("name", LAB_NAMES)
def test_lab_catalogs_say_the_same_in_both_languages(name):
    ko, en = (entries(catalog(lang, lab(name))) for lang in ("ko", "en"))
    assert set(ko) == set(en), set(ko) ^ set(en)
    for key in ko:
        assert placeholders(ko[key]) == placeholders(en[key]), key


@pytest.mark.parametrize("name", LAB_NAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_of_a_lab_has_a_title_a_cause_and_every_step_a_hint(name, lang):
    found = lab(name)
    table = catalog(lang, found)
    facts = found.hint_facts()
    for step in found.steps:
        codes = GENERAL_CODES + tuple(part for m in step.mistakes + step.error_mistakes for part in parts(m.code))
        for code in codes:
            for section in ("title", "cause"):
                assert f"{step.name}.{code}" in table[section] or code in table[section], (section, step.name, code)
        assert step.hint in table["hint"], step.name
    for key, text in table["hint"].items():
        text.format(**facts)  # a hint quotes only the page's facts


@pytest.mark.parametrize("name", LAB_NAMES)
def test_korean_text_of_a_lab_follows_the_house_style(name):
    for (section, key), text in entries(lab(name).catalog("ko")).items():
        assert not HAEYO_ENDINGS.search(text), (section, key, text)
        assert not LOOSE_PARTICLE.search(text), (section, key, text)
        assert not [word for word in TRANSLATED_WORDS if word in text], (section, key, text)


def test_the_engine_catalog_names_no_lab():
    words = {code for name in LAB_NAMES for step in lab(name).steps
             for code in [step.name] + [part for m in step.mistakes + step.error_mistakes for part in parts(m.code)]}
    for lang in LANGUAGES:
        for (section, key), text in entries(engine_catalog(lang)).items():
            assert key.split(".")[0] not in words - set(GENERAL_CODES), (section, key)
            assert "_lab." not in text, (section, key)  # a lab's file is named through {notebook}


@pytest.mark.parametrize("name", LAB_NAMES)
def test_every_mistake_predicts_a_wrong_answer_somewhere(name):
    """A detector that never differs from the right answer could never name anything (a mistake
    also told by its error may raise on every case instead)."""
    from autograder.grading.plan import Plan

    found = lab(name)
    plan = Plan.build(found)
    for step in found.steps:
        raising = {m.code for m in step.error_mistakes}
        for mistake in step.mistakes:
            if mistake.code in raising or mistake.size > 1:
                continue  # a pair may combine two changes that cannot meet on these cases
            differs = False
            for probe in plan.probes[step.name]:
                for candidate in mistake.candidates(probe):
                    if not _equal(candidate, probe.expected):
                        differs = True
            assert differs, (step.name, mistake.code)


def _equal(candidate, expected):
    if len(candidate) != len(expected):
        return False
    for got, want in zip(candidate, expected):
        if isinstance(want, dict):
            if got != want:
                return False
            continue
        got, want = np.asarray(got), np.asarray(want)
        if got.shape != want.shape or not np.allclose(got, want, equal_nan=True):
            return False
    return True


def check(path, *flags):
    done = subprocess.run([sys.executable, "-m", "autograder", "check", str(path), "--json", *flags],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    return done.returncode, (json.loads(done.stdout) if done.stdout.strip() else None), done.stderr


@pytest.fixture(scope="module")
def submissions(tmp_path_factory):
    """Per lab: the filled-in twin, the untouched twin and the untouched notebook, as students hand them in."""
    folder = tmp_path_factory.mktemp("labs")
    made = {}
    for name in LAB_NAMES:
        found = lab(name)
        script = found.assignment_file(found.script).read_text("utf-8")
        notebook = found.assignment_file(found.notebook).read_text("utf-8")
        paths = {"filled": folder / f"{name}_filled.py", "stubs": folder / f"{name}_stubs.py",
                 "notebook": folder / f"{name}_stubs.ipynb",
                 "filled_notebook": folder / f"{name}_filled.ipynb"}
        paths["filled"].write_text(fill.fill_script(script, keep_checks=False, lab=found), "utf-8")
        paths["stubs"].write_text(script, "utf-8")
        paths["notebook"].write_text(notebook, "utf-8")
        filled = fill.fill_notebook(nbformat.reads(notebook, as_version=4), keep_checks=False, lab=found)
        paths["filled_notebook"].write_text(nbformat.writes(filled), "utf-8")
        made[name] = paths
    return made


@pytest.mark.parametrize("name", LAB_NAMES)
def test_the_filled_assignment_gets_full_marks_without_naming_the_lab(name, submissions):
    """`autograder check` tells the labs apart by the file (notebook metadata, else the step functions)."""
    for kind in ("filled", "filled_notebook"):
        code, report, stderr = check(submissions[name][kind], "--lang", "en")
        assert code == 0, stderr
        assert report["lab"] == name
        assert report["score"] == report["max_score"] == lab(name).total_points


@pytest.mark.parametrize("name", LAB_NAMES)
def test_the_untouched_assignment_is_not_implemented_on_every_step(name, submissions):
    for kind in ("stubs", "notebook"):
        code, report, stderr = check(submissions[name][kind], "--lab", name)
        assert code == 1, stderr
        assert report["lab"] == name and report["score"] == 0
        assert [s["status"] for s in report["steps"]] == ["not_implemented"] * len(lab(name).steps)


def test_an_unknown_lab_is_a_usage_error_that_lists_the_labs(submissions):
    code, report, stderr = check(submissions[LAB_NAMES[0]]["filled"], "--lab", "no_such_lab")
    assert code == 2 and report is None
    assert "no_such_lab" in stderr and all(name in stderr for name in LAB_NAMES)


def test_a_file_that_names_no_lab_needs_lab_when_several_are_installed(tmp_path):
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n", "utf-8")
    code, report, stderr = check(empty)
    assert code == 2 and "--lab" in stderr
    code, report, _ = check(empty, "--lab", LAB_NAMES[0])
    assert code == 1 and report["lab"] == LAB_NAMES[0]


def test_guessing_reads_metadata_first_then_function_names_and_never_breaks():
    first, second = (lab(name) for name in LAB_NAMES[:2])
    notebook = json.dumps({"cells": [], "metadata": {registry.METADATA_KEY: second.name}}).encode()
    assert registry.guess([notebook]) == second.name
    defs = "".join(f"def {f}(x):\n    pass\n" for f in first.function_names).encode()
    assert registry.guess([defs]) == first.name
    assert registry.guess([defs.replace(b"pass", b"pass(")]) == first.name  # a syntax error still votes
    assert registry.guess([b"", b"\xff\xfe", b"{\"cells\": 3}", b"x = 1"]) is None
    assert registry.guess([defs, notebook]) is None  # a tie: no guess
    assert registry.guess([defs, defs, notebook]) == first.name


def test_import_contracts_hold():
    """The engine never imports a lab; the students' kit never imports a reference or a hidden case."""
    done = subprocess.run([installed.script("lint-imports"), "--no-cache"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "broken" in done.stdout and " 0 broken" in done.stdout


def test_the_students_core_and_kit_contracts_name_every_other_engine_module():
    """INVARIANT: the students' core and the kit import nothing of the engine outside them: the two
    contracts forbid every other top-level module and package of autograder, a new one included,
    and the build ships exactly the two folders (otter.student_half.kit_modules)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    from autograder.otter.student_half import kit_modules

    engine = ROOT / "autograder"
    others = {f"autograder.{path.stem if path.suffix == '.py' else path.name}" for path in engine.iterdir()
              if (path.suffix == ".py" and path.stem not in ("__init__", "__main__"))
              or (path.is_dir() and (path / "__init__.py").is_file())} - {"autograder.core", "autograder.kit"}
    contracts = {c["source_modules"][0]: set(c["forbidden_modules"])
                 for c in tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]["contracts"]
                 if c["type"] == "forbidden" and c["source_modules"] in (["autograder.core"], ["autograder.kit"])}
    assert set(contracts) == {"autograder.core", "autograder.kit"}
    for source, forbidden in contracts.items():
        assert others <= forbidden, f"{source}'s contract misses {sorted(others - forbidden)}"
    shipped = {path for path in kit_modules() if path.endswith(".py")}
    on_disk = {path.relative_to(engine).as_posix() for folder in ("core", "kit") for path in (engine / folder).rglob("*.py")
               if "__pycache__" not in path.parts}
    assert shipped == on_disk


@pytest.fixture(scope="module")
def student_halves(tmp_path_factory):
    """Each lab's student half as `autograder build` writes it (no self-check: see test_gradescope)."""
    from autograder.otter import build as otter_build

    out = tmp_path_factory.mktemp("halves")
    return {name: otter_build.build(out / name, lab(name), self_check=False)["student"] for name in LAB_NAMES}


@pytest.mark.parametrize("name", LAB_NAMES)
def test_the_students_kit_of_each_lab_checks_its_own_assignment(name, student_halves, submissions):
    """`python -m lab_check` in the lab's student half: public cases, the lab's own steps."""
    half = student_halves[name]
    runs = {}
    for kind in ("filled", "stubs"):
        done = subprocess.run([sys.executable, "-m", "lab_check", str(submissions[name][kind]), "--json"],
                              capture_output=True, text=True, timeout=300, cwd=half)
        runs[kind] = (done.returncode, json.loads(done.stdout) if done.stdout.strip() else done.stderr)
    found = lab(name)
    code, report = runs["filled"]
    assert code == 0, report
    assert report["lab"] == name and [s["name"] for s in report["steps"]] == list(found.function_names)
    code, report = runs["stubs"]
    assert code == 1 and {s["status"] for s in report["steps"]} == {"not_implemented"}


@pytest.mark.parametrize("name", LAB_NAMES)
def test_pytest_grades_each_lab_with_one_item_per_step(name, submissions, tmp_path):
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--submission",
                           str(submissions[name]["filled"]), "-o", "addopts=", "--rootdir", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert f"{len(lab(name).steps)} passed" in done.stdout
    assert f"autograder: {name}" in done.stdout


def test_a_class_folder_is_graded_as_one_lab_and_strays_are_named(submissions, tmp_path):
    """Most files are lab 1's: the run grades lab 1, names the file written for lab 2, loses no one."""
    first, second = "self_attention", "masked_attention"
    folder = tmp_path / "class"
    folder.mkdir()
    for student in ("kim_1", "lee_2"):
        (folder / f"{student}.py").write_bytes(submissions[first]["filled"].read_bytes())
    (folder / "park_3.py").write_bytes(submissions[second]["filled"].read_bytes())
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(folder), "--out", str(tmp_path / "out"),
                           "--id-pattern", r"_(\d+)\.py$"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert f"{first} 실습으로 채점했지만 학생 1명의 파일은 다른 실습용으로 보입니다" in done.stderr
    assert f"3 ({second})" in done.stderr
    import csv

    with open(tmp_path / "out" / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    assert set(rows) == {"1", "2", "3"} and {row["lab"] for row in rows.values()} == {first}
    assert float(rows["1"]["total"]) == 10 and float(rows["3"]["total"]) == 0
