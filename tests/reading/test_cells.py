"""One rule names a submission's code: the reader makes the names, the sandbox chooses the module
name from them, the renderer reads cell numbers back (autograder/core/cells.py)."""
from hypothesis import given, strategies as st

from autograder.core.cells import KERNEL_CELL, NOTEBOOK_CELL, is_notebook, kernel_cell, module_name, notebook_cell
from autograder.core.reading.submission import read_submission


@given(st.integers(min_value=1, max_value=10**6))
def test_a_notebook_cell_name_reads_back_as_its_number(number):
    assert int(NOTEBOOK_CELL.fullmatch(notebook_cell(number)).group(1)) == number
    assert is_notebook([{"filename": notebook_cell(number)}])
    assert module_name([{"filename": notebook_cell(number)}]) == "__main__"


@given(st.one_of(st.none(), st.integers(min_value=1, max_value=10**6)))
def test_a_kernel_cell_is_no_notebook_cell(number):
    assert KERNEL_CELL.fullmatch(kernel_cell(number))
    assert not is_notebook([{"filename": kernel_cell(number)}])


@given(st.text(min_size=1, max_size=40))
def test_a_script_runs_as_a_module_whatever_its_name(stem):
    """A student's file named like a cell ("<cell 1>.py") is still a script."""
    submission = read_submission(f"{stem}.py", b"x = 1\n")
    if submission.problem is None:
        assert module_name(submission.cells) == "submission"


def test_a_notebook_runs_as_main():
    import json

    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "source": "x = 1", "outputs": [],
                           "execution_count": None}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    submission = read_submission("hw.ipynb", json.dumps(notebook).encode())
    assert submission.problem is None and module_name(submission.cells) == "__main__"
