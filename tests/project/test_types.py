"""`mypy --strict` over autograder/ and labs/ (pyproject.toml's [tool.mypy]) finds no error.

Every module of the engine and the labs is checked: none is excused with `ignore_errors`, and
calls are left unchecked only into the reference solutions (written as students write them) and
nbformat (whose functions carry no types).
"""
import pathlib
import subprocess
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

import pytest
from conftest import ROOT

# Typed and checked strictly: what a lab author writes against, and the labs.
ALWAYS_CHECKED = ("autograder", "labs")


def _ignored_modules():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    return [module for override in config.get("overrides", []) if override.get("ignore_errors")
            for module in override["module"]]


def test_mypy_strict_finds_no_error():
    pytest.importorskip("mypy")
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT, capture_output=True,
                         text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "Success: no issues found" in run.stdout


def test_the_lab_api_and_the_labs_are_never_excused():
    ignored = _ignored_modules()
    for module in ALWAYS_CHECKED:
        assert not any(name == module or name.startswith(module + ".") or module.startswith(name.rstrip("*"))
                       for name in ignored if not name.startswith("solutions")), module


def test_every_excused_module_exists():
    """A module renamed or removed leaves the list, so the list names only what is left to type."""
    for name in _ignored_modules():
        if name.startswith("solutions"):
            continue
        path = ROOT / name.replace(".", "/")
        assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), name


def test_calls_are_unchecked_only_into_the_solutions_and_nbformat():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    assert set(config.get("untyped_calls_exclude", [])) <= {"solutions", "nbformat"}
    assert config["strict"] is True and set(config["files"]) == {"autograder", "labs"}
