"""Property tests: no input, however malformed, crashes the grader.

Every file becomes a Submission, and every submission a SubmissionResult with all six steps;
reading any of them stays within the reading budget (counted, never timed).
"""
import io
import json
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder import registry
from autograder.batch.collect import group_students
from autograder.batch.source import NESTED_ARCHIVE_RATIO, SMALL_MEMBER, Source
from autograder.grading import grade_bytes
from autograder.core.judge import judge_call
from autograder.core.verdict import SubmissionResult
from autograder.core.child import codec
from autograder.sandbox.runner import CallOutcome, Limits
from labs.self_attention.steps import STEPS
from autograder.core.render.messages import LANGUAGES, detail_text
from autograder.core.reading.budget import BUDGET, Budget
from autograder.core.reading.problems import Detail
from autograder.core.reading.submission import Submission, lab_evidence, read_submission
from autograder.core.reading.zips import otter_export_problem, zipped_problem
from budget_spies import counted_work

LIMITS = Limits(step_seconds=2.0, load_seconds=2.0, memory_bytes=512 * 1024 * 1024)
SLOW = settings(max_examples=15, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FAST = settings(max_examples=150, deadline=None)

names = st.sampled_from(["a.py", "a.ipynb", "A.IPYNB", "x", "dir/sub\\b.py", ""])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)
weird_sources = st.sampled_from([
    "def make_qkv(X, W_Q, W_K, W_V)\n  return X", "%%bash\nrm -rf /", "!ls\nx = !pwd", "?np.dot",
    "def softmax(x):\n    return softmax(x)", "import os\nos._exit(0)", "raise SystemExit",
    "\x00", "\ufeffdef mix(w, V): return w @ V", "def scores(Q, K):\n\treturn Q @ K.T\n",
    "lambda: (yield)", "async def softmax(x): return x", "del __builtins__", "((((((((((((" * 50,
]) | st.text(max_size=200)
cell = st.fixed_dictionaries({"cell_type": st.sampled_from(["code", "markdown", "raw", None, 3]),
                              "source": weird_sources | st.lists(weird_sources, max_size=3) | json_values})
notebooks = st.fixed_dictionaries({"cells": st.lists(cell | json_values, max_size=6)}) | json_values


def as_notebook_bytes(notebook, cut):
    text = json.dumps(notebook).encode()
    return text if cut is None else text[:cut]


def assert_graded(result):
    assert isinstance(result, SubmissionResult)
    assert [s.name for s in result.steps] == [s.name for s in STEPS]
    assert all(0 <= s.score <= s.max_score for s in result.steps)


@FAST
@given(names, st.binary(max_size=2000))
def test_reading_random_bytes_never_raises(name, data):
    assert isinstance(read_submission(name, data), Submission)


@FAST
@given(notebooks, st.none() | st.integers(min_value=0, max_value=400))
def test_reading_malformed_notebooks_never_raises(notebook, cut):
    submission = read_submission("n.ipynb", as_notebook_bytes(notebook, cut))
    assert submission.problem is not None or isinstance(submission.cells, list)


@SLOW
@given(names, st.binary(max_size=500))
def test_grading_random_bytes_gives_six_steps(zygote, plan, name, data):
    assert_graded(grade_bytes(name or "x.py", data, zygote, plan, LIMITS))


@SLOW
@given(notebooks, st.none() | st.integers(min_value=0, max_value=400))
def test_grading_malformed_notebooks_gives_six_steps(zygote, plan, notebook, cut):
    assert_graded(grade_bytes("n.ipynb", as_notebook_bytes(notebook, cut), zygote, plan, LIMITS))


@SLOW
@given(st.lists(weird_sources, min_size=1, max_size=4))
def test_grading_weird_python_gives_six_steps(zygote, plan, sources):
    assert_graded(grade_bytes("w.py", "\n".join(sources).encode("utf-8", "surrogatepass"),
                              zygote, plan, LIMITS))


forged = st.recursive(
    json_values | st.fixed_dictionaries({"t": st.sampled_from(["array", "series", "frame", "number",
                                                               "str", "list", "tuple", "dict", "none"])},
                                        optional={"kind": st.sampled_from(["f", "i", "b", "U", "O", 3]),
                                                  "dtype": st.sampled_from(["<f4", "<f8", 4]),
                                                  "shape": st.lists(st.integers(-2, 6), max_size=3),
                                                  "data": st.lists(st.floats() | st.integers() | st.text(max_size=3),
                                                                   max_size=12),
                                                  "v": json_values}),
    lambda inner: st.fixed_dictionaries({"t": st.sampled_from(["list", "tuple", "dict", "series", "frame"]),
                                         "items": st.lists(inner | st.lists(inner, max_size=2), max_size=3),
                                         "values": inner, "index": st.lists(inner, max_size=3)}),
    max_leaves=12)


@FAST
@given(forged)
def test_decoding_forged_values_never_raises(data):
    codec.decode(data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(forged, st.integers(min_value=0, max_value=len(STEPS) - 1))
def test_judging_any_decodable_value_never_raises(plan, data, index):
    step = STEPS[index]
    probe = plan.probes[step.name][0]
    value = codec.decode(data)
    args_after = [codec.decode(codec.encode(a)) for a in probe.args]
    with np.errstate(all="ignore"):
        verdict = judge_call(probe, CallOutcome("returned", value=value, args_after=args_after), False)
    assert isinstance(verdict.passed, bool)


# Reading within the budget, whatever the notebook ------------------------------------------------
# Generated notebooks hold sources of every JSON type (lists with numbers, null and objects too),
# deep expressions, huge single lines and more code cells than a (small) budget allows. The reader,
# the lab guess and the grader's entry never raise; an unreadable file says why; the work done is
# counted by spies on the libraries and stays within the budget.

SMALL = Budget(code_cells=6, code_lines=400, parse_chars=4096, parsed_chars=12_000, ast_depth=40, ast_nodes=2_000,
               json_containers=400, json_items=2_000, file_bytes=200_000, inflated_bytes=200_000)
depths = st.integers(min_value=1, max_value=1500)
deep_sources = st.one_of(
    depths.map(lambda n: "grader = otter" + ".Notebook" * n + "()"),
    depths.map(lambda n: "grader = otter.Notebook" + "()" * n),
    depths.map(lambda n: "x = " + "-" * n + "1"),
    depths.map(lambda n: "x = 1" + " + 1" * n),
    depths.map(lambda n: "x = " + "(" * min(n, 300) + "1" + ")" * min(n, 300)),
    depths.map(lambda n: "x = [" + "1, " * (n * 20) + "]"),  # a huge single line
    depths.map(lambda n: "def softmax(x):\n" + "    pass\n" * (n // 4 + 1)),
)
source_values = st.one_of(
    weird_sources, deep_sources,
    st.lists(weird_sources | deep_sources | st.integers() | st.none() | st.floats() | st.booleans()
             | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), max_size=4),
    json_values)
budget_cells = st.fixed_dictionaries(
    {"cell_type": st.sampled_from(["code", "code", "code", "markdown", None]), "source": source_values},
    optional={"metadata": st.fixed_dictionaries({}, optional={"tags": st.lists(
        st.sampled_from(["check:softmax", "grader-init", "step:mix", 3, None]), max_size=2)})})
budget_notebooks = st.fixed_dictionaries(
    {"cells": st.lists(budget_cells, max_size=SMALL.code_cells + 3)},
    optional={"metadata": st.fixed_dictionaries({}, optional={"autograder_lab": st.sampled_from(
        ["self_attention", "masked_attention", "nothing", 3])})})


def assert_read_within(read, work, budget):
    assert isinstance(read, Submission)
    if read.problem is not None:
        assert read.cells == []
        # The reason is data every catalog renders (reading.problems.Detail), or there is none ("empty").
        assert read.problem_detail is None or all(detail_text(read.problem_detail, lang) for lang in LANGUAGES)
    else:
        assert all(isinstance(cell["source"], str) for cell in read.cells)
    assert all(size <= budget.parse_chars for size in work["parses"])
    assert sum(work["parses"]) <= budget.parsed_chars and len(work["json"]) <= 1
    assert work["inflated"] <= budget.inflated_bytes


@FAST
@given(budget_notebooks)
def test_any_notebook_is_read_within_the_budget_or_refused_with_a_reason(notebook):
    data = json.dumps(notebook).encode()
    with counted_work() as work:
        read = read_submission("n.ipynb", data, budget=SMALL)
    assert_read_within(read, work, SMALL)
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    if len(code) > SMALL.code_cells:  # refused: for its cells, or for a bound checked before them
        assert read.problem in ("unreadable", "too_large") and read.problem_detail
    evidence = lab_evidence(data, SMALL)  # the guess reads the first cells only, and never raises
    assert evidence is None or len(evidence.sources) <= SMALL.code_cells
    assert next(registry.each_lab([data])) in (None, *registry.lab_names())


@FAST
@given(st.lists(deep_sources | weird_sources, min_size=1, max_size=4))
def test_deep_and_huge_cells_are_read_at_the_full_budget_without_an_error(sources):
    data = json.dumps({"cells": [{"cell_type": "code", "source": s} for s in sources]}).encode()
    with counted_work() as work:
        read = read_submission("n.ipynb", data)
    assert_read_within(read, work, BUDGET)
    assert read.problem is None and len(read.cells) <= len(sources)


@SLOW
@given(budget_notebooks)
def test_the_grader_entry_gives_six_steps_for_any_notebook(zygote, plan, notebook):
    assert_graded(grade_bytes("n.ipynb", json.dumps(notebook).encode(), zygote, plan, LIMITS))


# Nested archives ---------------------------------------------------------------------------------

def zip_of(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data, kind in members:
            info = zipfile.ZipInfo(name, (2024, 3, 1, 12, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            if kind == "link":
                info.external_attr = (0o120777) << 16
            elif kind == "encrypted":
                info.flag_bits |= 0x1
            archive.writestr(info, data)
    return buffer.getvalue()


member_names = st.sampled_from(["attention.ipynb", "b.ipynb", "__zip_filename__", ".OTTER_LOG", "dir/a.ipynb",
                                "inner.zip", "x.py", "lab.ipynb"])
member_kinds = st.sampled_from(["file", "file", "file", "link", "encrypted"])
leaf_data = st.sampled_from([b"{}", b'{"cells": []}', b"x" * 300_000, b" " * 250_000, b"PK\x03\x04 junk", b""])
archives = st.recursive(
    leaf_data,
    lambda inner: st.lists(st.tuples(member_names, inner, member_kinds), max_size=5).map(zip_of),
    max_leaves=10)


def damaged(data, cuts):
    data = bytearray(data)
    for at, value in cuts:
        if data:
            data[at % len(data)] = value
    return bytes(data)


@pytest.mark.filterwarnings("ignore:Duplicate name")
@FAST
@given(archives, st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4))
def test_nested_archives_are_read_within_the_budget_and_never_raise(data, cuts):
    data = damaged(data, cuts)
    with counted_work() as work:
        read = read_submission("export.zip", data, budget=SMALL)
    assert_read_within(read, work, SMALL)
    assert read.problem in (None, "unreadable", "too_large", "not_otter_export", "empty", "not_utf8",
                            "notebook_not_json", "notebook_malformed")
    with counted_work() as work:
        problems = [otter_export_problem(data), zipped_problem(data)]
    assert all(p == "" or isinstance(p, Detail) for p in problems) and work["inflated"] == 0  # from the directory alone
    if not problems[1]:  # a zip the class's grading would choose is read within the budget
        assert read.problem != "not_otter_export"
    assert next(registry.each_lab([data])) in (None, *registry.lab_names())


@pytest.mark.filterwarnings("ignore:Duplicate name")
@SLOW
@given(st.lists(st.tuples(st.sampled_from(["kim_10301_1_a.py", "kim_10301_2_e.zip", "lee_10302_1_e.zip",
                                           "lee_10302_2_b.ipynb", "park_10303_1_e.zip"]), archives), max_size=5))
def test_a_class_zip_of_nested_archives_is_grouped_and_read_within_bounds(tmp_path_factory, members):
    path = tmp_path_factory.mktemp("class") / "class.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    with counted_work() as work:
        source = Source(path)
        students = group_students(source)
        listed = work["inflated"]
        for student in students:
            if student.chosen is not None and student.chosen.gradable:
                try:
                    data = source.read(student.chosen)
                except OSError:
                    continue
                next(registry.each_lab([data]))
                read_submission(student.chosen.path, data)
        source.close()
    stored = sum(info.compress_size for info in zipfile.ZipFile(path).infolist())
    assert listed <= NESTED_ARCHIVE_RATIO * stored + len(members) * SMALL_MEMBER  # nothing nested decompressed
    assert work["inflated"] - listed <= len(students) * 2 * (BUDGET.file_bytes + BUDGET.inflated_bytes)
