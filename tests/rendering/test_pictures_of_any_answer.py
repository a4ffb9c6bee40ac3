"""Whatever a student's step returns, its heat-maps are drawn or left out: never a picture that fails.

compare.check_array keeps a public test's whole tables only when both are tables it can draw; the
pictures (step maps, the class report's wrong cells) then draw them without an exception. A value
with no cells (an axis of length 0) used to be kept and then fail to draw."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from autograder.core import pictures
from autograder.core.case_detail import WrongShape, WrongValues
from autograder.core.compare import check_array
from autograder.grading.plan import Plan
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB

TABLE_PROBES = [(step.name, probe, index) for lab in (LAB, MASKED) for step in lab.steps
                for probe in Plan.build(lab).probes[step.name][:1] if not probe.case.hidden
                for index, output in enumerate(step.outputs) if output.kind == "array"]

def _arrays(dtype):
    return hnp.arrays(dtype=dtype, shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=9))


@pytest.mark.parametrize("step, probe, index", TABLE_PROBES, ids=[f"{s}-{i}" for s, _, i in TABLE_PROBES])
@settings(max_examples=60, deadline=None)
@given(got=st.one_of(_arrays(np.float64), _arrays(np.int64), _arrays(np.float32)))
def test_any_answer_is_drawn_or_left_out_never_a_failed_picture(step, probe, index, got):
    output = probe.step.outputs[index]
    expected = probe.expected[index]
    passed, _, detail = check_array(probe, output, got, expected)
    if passed or not isinstance(detail, (WrongShape, WrongValues)) or detail.tables is None:
        return
    tables = detail.tables
    page = pictures.maps_html(tables.got, tables.expected, tables.words, tables.columns, tables.rows_sum_to_one)
    assert page.count("<svg") >= 1
    got_cells, expected_cells = pictures.as_floats(tables.got), pictures.as_floats(tables.expected)
    assert got_cells.ndim in (2, 3) and got_cells.size > 0 and expected_cells.size > 0
