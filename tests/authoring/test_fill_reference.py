"""Filling the stubs needs the lab's reference solution: a lab that names none is told so, as the
ValueError the fill helper promises, never an AttributeError from inside importlib."""
import dataclasses

import nbformat
import pytest

from autograder.authoring import fill
from labs.self_attention import LAB


@pytest.fixture(scope="module")
def without_reference():
    return dataclasses.replace(LAB, solution=None)


def test_a_script_of_a_lab_without_a_reference_is_refused_by_name(without_reference):
    text = LAB.assignment_file(LAB.script).read_text("utf-8")
    with pytest.raises(ValueError, match="self_attention names no reference solution"):
        fill.fill_script(text, lab=without_reference)


def test_a_notebook_of_a_lab_without_a_reference_is_refused_by_name(without_reference):
    notebook = nbformat.reads(LAB.assignment_file(LAB.notebook).read_text("utf-8"), as_version=4)
    with pytest.raises(ValueError, match="names no reference solution"):
        fill.fill_notebook(notebook, lab=without_reference)


def test_the_lab_with_its_reference_is_filled():
    text = LAB.assignment_file(LAB.script).read_text("utf-8")
    assert set(fill.reference_bodies(LAB)) == set(LAB.function_names)
    assert fill.fill_script(text, lab=LAB) != text
