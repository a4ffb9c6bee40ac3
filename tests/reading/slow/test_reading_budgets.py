"""Reading a submission in the grader's own process: every bound of `reading.budget.BUDGET` is checked
before the work it bounds, and nothing a file holds makes the reader, the lab guess or any face
raise. The attacks that broke these promises, through every face they touch: `autograder check`,
`autograder grade`, the Gradescope entry point and `pytest --submission`.

Work is measured by counting (parser calls and the characters given to them, bytes
decompressed, JSON texts parsed), never by the clock.
"""
import ast
import csv
import io
import json
import os
import subprocess
import sys
import zipfile
from unittest import mock

import pytest

from autograder import registry
from autograder.core.reading import budget, submission, zips
from autograder.batch.collect import group_students
from autograder.batch.source import Source
from autograder.core.reading.budget import BUDGET, Budget
from autograder.core.reading.problems import detail
from autograder.core.reading.submission import lab_evidence, read_submission
from autograder.core.render.messages import detail_text
from budget_spies import assert_within_budget, counted_work
from conftest import ROOT
from labs.self_attention import LAB

SAMPLES = ROOT / "samples"
CORRECT = (SAMPLES / "correct.py").read_text("utf-8")
HONEST_NOTEBOOK = (SAMPLES / "leejiwon_10232_55002_attention.ipynb").read_bytes()
STEP_NAMES = list(LAB.function_names)
MB = 1024 * 1024


# The attacks -----------------------------------------------------------------------------------

def notebook_bytes(*sources, metadata=None):
    cells = [source if isinstance(source, dict) else
             {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}
             for source in sources]
    return json.dumps({"cells": cells, "metadata": metadata or {}, "nbformat": 4, "nbformat_minor": 5}).encode()


def many_small_cells(count=90_000):
    """Very many tiny code cells: 61 s of reading in the grader under --timeout 1, before."""
    cell = '{"cell_type":"code","source":"x=1"}'
    return ('{"cells":[' + ",".join([cell] * count) + '],"metadata":{}}').encode()


# Correct code, then the cell that made ast.unparse recurse (checker-cell recognition reads it).
DEEP_ATTRIBUTES = notebook_bytes(CORRECT, "grader = otter" + ".Notebook" * 600 + "()")
DEEP_CALLS = notebook_bytes(CORRECT, "grader = otter.Notebook" + "()" * 400)
# A cell whose source list holds a number: the lab guess's "".join raised TypeError.
NUMBER_IN_SOURCE = notebook_bytes(CORRECT, ["x = 1\n", 3, None, {"a": 1}])
# A .py with a syntax error (so it is cut into cells) whose string holds a `# %%` and a right softmax.
SOFTMAX_IN_A_STRING = CORRECT.replace(
    "def softmax(x):\n", "def softmax(x):\n    return x\n\n\ndef unused(x):\n").replace(
    "def mix(weights, V):\n    return weights @ V\n",
    '# %%\nNOTES = """\n# %%\ndef softmax(x):\n'
    "    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
    '    return e / e.sum(axis=-1, keepdims=True)\n"""  # """\n'
    "# %%\ndef mix(weights, V)\n    return weights @ V\n\n\n# %%\n")


def corrupt_export():
    """The zip Otter's export() writes, its notebook's deflate stream damaged: zlib.error, before."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("__zip_filename__", "export.zip")
        archive.writestr("attention.ipynb", HONEST_NOTEBOOK)
    data = bytearray(buffer.getvalue())
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("attention.ipynb")
    start = info.header_offset + 30 + len(info.filename)
    for index in range(start + 5, start + 25):
        data[index] ^= 0xA5
    return bytes(data)


def export_bomb(size=BUDGET.file_bytes, by_hand=False):
    """An Otter export (or a zip made by hand, without Otter's marker) whose notebook is `size`
    bytes of JSON that compress to almost nothing."""
    buffer = io.BytesIO()
    padding = size - len('{"cells": [], "metadata": {}, "x": ""}')
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if not by_hand:
            archive.writestr("__zip_filename__", "export.zip")
        archive.writestr("lab/attention.ipynb" if by_hand else "attention.ipynb",
                         '{"cells": [], "metadata": {}, "x": "' + " " * padding + '"}')
    return buffer.getvalue()


ATTACKS = {
    "many_cells.ipynb": many_small_cells(),
    "deep_attributes.ipynb": DEEP_ATTRIBUTES,
    "deep_calls.ipynb": DEEP_CALLS,
    "number_in_source.ipynb": NUMBER_IN_SOURCE,
    "softmax_in_a_string.py": SOFTMAX_IN_A_STRING.encode(),
    "corrupt_export.zip": corrupt_export(),
}
# How each is graded now: the problem that makes it unreadable, or the steps it loses.
# Files that say nothing about their lab are checked with --lab, as a TA must then.
SAY_NO_LAB = {"many_cells.ipynb", "corrupt_export.zip"}
EXPECTED = {
    "many_cells.ipynb": {"problem": "unreadable", "words": "code cells"},
    "deep_attributes.ipynb": {"lost": set()},
    "deep_calls.ipynb": {"lost": set()},
    "number_in_source.ipynb": {"problem": "notebook_malformed", "words": "cell 2 has no text"},
    "softmax_in_a_string.py": {"lost": {"softmax", "mix"}},  # softmax passed from the string before
    "corrupt_export.zip": {"problem": "unreadable", "words": "zlib.error"},
}


def assert_graded_as_expected(name, steps, problem=None, text=""):
    """`steps`: {step: (score, max_score, status)}."""
    expected = EXPECTED[name]
    assert set(steps) == set(STEP_NAMES)
    if "problem" in expected:
        assert problem == expected["problem"], (problem, text)
        assert expected["words"] in text
        assert all(status == "error" and score == 0 for score, _, status in steps.values())
    else:
        lost = {step for step, (score, top, _) in steps.items() if score < top}
        assert lost == expected["lost"], steps


# The reader --------------------------------------------------------------------------------------

def test_the_budget_is_declared_once_and_every_reader_uses_it():
    from autograder.batch import source
    from autograder.otter import gradescope

    assert budget.MAX_BYTES == BUDGET.file_bytes == source.MAX_BYTES == gradescope.MAX_BYTES
    assert budget.MAX_PARSED_CHARS == BUDGET.parse_chars and budget.MAX_EXPORT_MEMBERS == BUDGET.export_members
    with pytest.raises(TypeError):
        Budget(10)  # keyword-only
    with pytest.raises(Exception):
        BUDGET.file_bytes = 1  # frozen


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_every_attack_is_read_within_the_budget_by_the_reader_and_the_guess(name):
    with counted_work() as work:
        read = read_submission(name, ATTACKS[name])
        said = next(registry.each_lab([ATTACKS[name]]))
    assert_within_budget(work, reads=2)
    assert read.reading.parsed_chars <= BUDGET.parsed_chars and read.reading.inflated_bytes <= BUDGET.inflated_bytes
    expected = EXPECTED[name]
    assert read.problem == (expected["problem"] if "problem" in expected else None)
    assert said in (None, LAB.name)


def test_very_many_cells_are_refused_before_any_is_read():
    with counted_work() as work:
        read = read_submission("many.ipynb", many_small_cells(90_000))
    assert read.problem == "unreadable" and read.problem_detail == detail("code_cells_over", count=90_000,
                                                                         most=BUDGET.code_cells)
    assert work["parses"] == [] and read.reading.code_cells == 90_000 and read.cells == []
    # More cells than JSON may build are refused before JSON parsing.
    with counted_work() as work:
        read = read_submission("many.ipynb", many_small_cells(300_000))
    assert read.problem == "unreadable" and read.problem_detail.code.startswith("json_") and work["json"] == []
    # The lab guess reads the first cells only and goes on.
    assert lab_evidence(many_small_cells(90_000)).sources == ("x=1",) * BUDGET.code_cells


@pytest.mark.parametrize("shape, words", [(b"[]", "json_containers_over"), (b"0,", "json_items_over"),
                                          (b'"k" :', "json_keys_over")])  # refused unparsed: valid JSON or not
def test_a_notebook_whose_json_would_build_too_many_values_is_refused_before_parsing(shape, words):
    small = Budget(json_containers=1000, json_items=1000, json_keys=1000)
    data = b'{"cells": [], "x": [' + shape * 1001 + b"]}"
    with counted_work() as work:
        read = read_submission("a.ipynb", data, budget=small)
        evidence = lab_evidence(data, small)
    assert read.problem == "unreadable" and read.problem_detail.code == words and evidence is None
    assert work["json"] == []


def test_cells_up_to_the_budget_are_read_and_one_more_is_refused():
    small = Budget(code_cells=40)
    at_budget = notebook_bytes(*(["x = 1"] * 39 + [CORRECT]))
    read = read_submission("a.ipynb", at_budget, budget=small)
    assert read.problem is None and len(read.cells) == 40
    beyond = notebook_bytes(*(["x = 1"] * 40 + [CORRECT]))
    assert read_submission("a.ipynb", beyond, budget=small).problem == "unreadable"
    # Cells that are not code cost nothing to speak of and are not counted (tests/corpora/hostile has 2,000).
    markdown = [{"cell_type": "markdown", "metadata": {}, "source": "text"}] * 3000
    assert read_submission("a.ipynb", notebook_bytes(*markdown, CORRECT), budget=small).problem is None


@pytest.mark.parametrize("name", ["deep_attributes.ipynb", "deep_calls.ipynb"])
def test_a_deep_expression_is_left_to_the_child_never_walked(name):
    read = read_submission(name, ATTACKS[name])
    assert read.problem is None and len(read.cells) == 2  # not a checker cell: the student's code
    assert read.reading.unparsed == 1  # parsed by the C parser, refused by the iterative depth check
    assert read.stubs(STEP_NAMES) == set()


def test_no_tree_the_grader_keeps_is_deeper_or_larger_than_the_budget():
    kept = []
    real = budget.Reading._small

    def spy(self, tree):
        small = real(self, tree)
        if small:
            kept.append(tree)
        return small

    sources = ["x = a" + ".b" * 150, "x = " + "-" * 150 + "1", "x = [" + "1, " * 60_000 + "]", "x = 1\n" * 3, CORRECT]
    with mock.patch.object(budget.Reading, "_small", spy):
        read = read_submission("a.ipynb", notebook_bytes(*sources))
    assert read.problem is None and len(read.cells) == len(sources) and read.reading.unparsed == 3
    for tree in kept:
        depth, nodes, pending = 0, 0, [(tree, 1)]
        while pending:
            node, level = pending.pop()
            depth, nodes = max(depth, level), nodes + 1
            pending.extend((child, level + 1) for child in ast.iter_child_nodes(node))
        assert depth <= BUDGET.ast_depth and nodes <= BUDGET.ast_nodes


def test_parsing_stops_at_the_budget_and_later_definitions_count_as_written():
    stub = "def softmax(x):\n    raise NotImplementedError\n"
    filler = "x = 1\n" * 21_845  # 131 070 characters: four are parsed, then the budget is spent
    cells = [filler] * 5 + [stub]
    with counted_work() as work:
        read = read_submission("a.ipynb", notebook_bytes(*cells))
    assert read.problem is None and len(read.cells) == 6
    assert work["parses"] == [len(filler)] * 4 and read.reading.unparsed == 2
    assert read.stubs(["softmax"]) == set()  # not parsed: counted as written, never as a stub
    assert read_submission("a.ipynb", notebook_bytes(filler, stub)).stubs(["softmax"]) == {"softmax"}


def test_a_cell_that_holds_no_text_makes_the_notebook_malformed_but_not_the_guess():
    read = read_submission("a.ipynb", NUMBER_IN_SOURCE)
    assert read.problem == "notebook_malformed" and read.problem_detail == detail("cell_without_text", cell=2)
    evidence = lab_evidence(NUMBER_IN_SOURCE)
    assert evidence.sources == (CORRECT,)
    assert registry.guess([NUMBER_IN_SOURCE]) == LAB.name
    # A checker cell keeps being left out, whatever it holds; the guess still reads it.
    checker = {"cell_type": "code", "metadata": {"tags": ["check:softmax"]}, "source": [1, 2]}
    assert read_submission("a.ipynb", notebook_bytes(CORRECT, checker)).problem is None
    tagged = {"cell_type": "code", "metadata": {"tags": ["check:softmax"]}, "source": "def softmax(x):\n    pass\n"}
    assert lab_evidence(notebook_bytes(tagged)).sources == (tagged["source"],)


@pytest.mark.parametrize("source", [3, None, {"a": 1}, [1, "x"], [None], 2.5, True, [["x"]]])
def test_any_json_type_as_a_source_is_a_reason(source):
    data = notebook_bytes({"cell_type": "code", "metadata": {}, "source": source}, CORRECT)
    read = read_submission("a.ipynb", data)
    assert read.problem == "notebook_malformed" and read.problem_detail == detail("cell_without_text", cell=1)
    assert next(registry.each_lab([data])) == LAB.name


def test_the_catch_all_turns_any_exception_into_an_unreadable_reason():
    def broken(*args, **kwargs):
        raise KeyError("no such thing")

    with mock.patch.object(submission, "without_ipython_syntax", broken):
        read = read_submission("a.ipynb", HONEST_NOTEBOOK)
    assert read.problem == "unreadable" and read.problem_detail == detail("exception", type="KeyError")
    with mock.patch.object(submission, "script_cells", lambda *a: [][1]):
        assert read_submission("a.py", b"x = 1").problem_detail == detail("exception", type="IndexError")
    with mock.patch.object(submission, "notebook_json", broken):
        assert next(registry.each_lab([HONEST_NOTEBOOK])) is None
    with mock.patch.object(budget.Reading, "parse", lambda self, source: [][0]):
        assert read_submission("a.ipynb", HONEST_NOTEBOOK).problem == "unreadable"
    assert list(registry.each_lab([None, 3, "text"])) == [None, None, None]
    with pytest.raises(TypeError):  # not bytes: the caller's fault, never the student's grade
        read_submission("a.py", None)


def test_reading_past_its_time_is_refused_by_the_backstop():
    ticks = iter(range(0, 10_000, 3))
    with mock.patch.object(budget.time, "thread_time", lambda: next(ticks)):
        read = read_submission("a.ipynb", HONEST_NOTEBOOK)
    assert read.problem == "unreadable" and read.problem_detail == detail("reading_time", seconds=BUDGET.seconds)


def test_a_corrupt_export_is_a_reason_through_the_reader_and_the_guess():
    read = read_submission("export.zip", ATTACKS["corrupt_export.zip"])
    assert read.problem == "unreadable" and "zlib.error" in str(read.problem_detail)
    assert lab_evidence(ATTACKS["corrupt_export.zip"]) is None


def test_an_export_is_decompressed_once_within_the_budget_and_checked_without_decompressing():
    bomb = export_bomb()
    assert len(bomb) < 100_000
    with counted_work() as work:
        assert zips.otter_export_problem(bomb) == ""
    assert work["inflated"] == 0
    with counted_work() as work:
        read = read_submission("export.zip", bomb)
    assert read.problem is None and work["inflated"] == BUDGET.file_bytes == read.reading.inflated_bytes
    with counted_work() as work:
        read = read_submission("export.zip", bomb, budget=Budget(inflated_bytes=MB))
    assert read.problem == "too_large" and work["inflated"] == 0


def test_a_zip_of_too_many_members_is_refused_before_it_is_opened():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for number in range(BUDGET.export_members + 1):
            archive.writestr(f"f{number}", b"")
        archive.writestr("__zip_filename__", b"e.zip")
        archive.writestr("a.ipynb", HONEST_NOTEBOOK)
    with mock.patch.object(zipfile, "ZipFile", side_effect=AssertionError("opened")):
        read = read_submission("export.zip", buffer.getvalue())
        assert zips.otter_export_problem(buffer.getvalue()) == detail(
            "zip_members_over", count=BUDGET.export_members + 3, most=BUDGET.export_members)
        assert detail_text(zips.otter_export_problem(buffer.getvalue()), "en") == \
            f"{BUDGET.export_members + 3} files in the zip, more than the {BUDGET.export_members} read"
    assert read.problem == "not_otter_export"


# Nested archives in a class's zip ------------------------------------------------------------------

def class_zip(path, students=4, zips_each=12, by_hand=False):
    """An LMS zip: per student one honest .py and many newer zips whose notebooks are bombs."""
    bomb = export_bomb(by_hand=by_hand)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for number in range(students):
            sid = 10300 + number
            archive.writestr(zipfile.ZipInfo(f"kim_{sid}_1_attention.py", (2024, 3, 1, 12, 0, 0)), CORRECT)
            for copy in range(zips_each):
                info = zipfile.ZipInfo(f"kim_{sid}_{copy + 2}_export{copy}.zip", (2024, 3, 2, 12, 0, copy))
                archive.writestr(info, bomb, zipfile.ZIP_STORED)
    return path


@pytest.mark.parametrize("by_hand", [False, True])
def test_nested_archives_are_never_decompressed_unless_graded(tmp_path, by_hand):
    """5 MB of class zip decompressed to 5.9 GiB before: every nested export's notebook was
    decompressed to tell whether it was one, chosen or not."""
    students, zips_each = 4, 12
    path = class_zip(tmp_path / "class.zip", students, zips_each, by_hand)
    with counted_work() as work:
        source = Source(path)
        grouped = group_students(source)
        checked = work["inflated"]
        chosen = [student.chosen for student in grouped if student.chosen is not None]
        said = [next(registry.each_lab([source.read(entry)])) for entry in chosen]
        reads = [read_submission(entry.path, source.read(entry)) for entry in chosen]
        source.close()
    assert said == [LAB.name] * students or said == [None] * students
    assert all(entry.path.endswith(".zip") for entry in chosen) and all(r.problem is None for r in reads)
    # Telling exports apart decompressed no notebook: only the stored zips themselves.
    bomb = len(export_bomb(by_hand=by_hand))
    assert checked <= students * zips_each * (bomb + 1)
    # Grading the chosen zip of each student: the zip twice, its notebook once for the guess and
    # once for grading.
    assert work["inflated"] - checked <= students * (2 * bomb + 2 * BUDGET.file_bytes)


def test_a_nested_zip_that_would_decompress_too_far_is_never_decompressed(tmp_path):
    from autograder.batch.source import NESTED_ARCHIVE_RATIO

    path = tmp_path / "class.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("kim_10301_1_attention.py", CORRECT)
        archive.writestr("kim_10301_2_export.zip", b"\0" * (BUDGET.file_bytes - 1))
    with counted_work() as work:
        source = Source(path)
        (student,) = group_students(source)
        source.close()
    assert student.chosen.path == "kim_10301_1_attention.py"
    (entry, reason), = student.ignored
    assert f"more than {NESTED_ARCHIVE_RATIO} times" in str(reason) and work["inflated"] == 0


def test_a_damaged_member_of_the_class_zip_is_a_row_not_a_crash(tmp_path):
    path = tmp_path / "class.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("kim_10301_1_attention.py", CORRECT * 20)
        archive.writestr("lee_10302_1_attention.py", CORRECT)
    data = bytearray(path.read_bytes())
    info = zipfile.ZipFile(path).getinfo("kim_10301_1_attention.py")
    start = info.header_offset + 30 + len(info.filename)
    for index in range(start + 5, start + 25):
        data[index] ^= 0xA5
    path.write_bytes(bytes(data))
    finished = grade(path, tmp_path / "out")
    assert finished.returncode == 0, finished.stderr[-2000:]
    rows = {row["id"]: row for row in rows_of(tmp_path / "out")}
    assert rows["10301"]["status"] == "broken: unreadable" and rows["10302"]["total"] == "10.0"


# Through every face --------------------------------------------------------------------------------

def check(path, *extra):
    return subprocess.run([sys.executable, "-m", "autograder", "check", str(path), "--json", "--lang", "en",
                           "--timeout", "3", *extra], capture_output=True, text=True, timeout=300, cwd=ROOT)


def grade(folder, out, *extra):
    return subprocess.run([sys.executable, "-m", "autograder", "grade", str(folder), "--out", str(out),
                           "--lang", "en", "--jobs", "2", "--timeout", "3", *extra],
                          capture_output=True, text=True, timeout=900, cwd=ROOT)


def rows_of(out):
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def problem_of(report):
    notes = [note for note in report["notes"] if note["code"] not in ("syntax_error", "load_error")]
    return (notes[0]["code"], notes[0]["text"]) if notes else (None, "")


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_check_grades_every_attack_and_never_fails_itself(name, tmp_path):
    path = tmp_path / name
    path.write_bytes(ATTACKS[name])
    finished = check(path, *(("--lab", LAB.name) if name in SAY_NO_LAB else ()))  # else the lab is guessed
    assert "internal error" not in finished.stderr and "Traceback" not in finished.stderr, finished.stderr[-2000:]
    if name.endswith(".zip"):  # check takes a .zip only when it can grade the file inside: it says why not
        assert finished.returncode == 2 and EXPECTED[name]["words"] in finished.stderr, finished.stderr
        return
    report = json.loads(finished.stdout)
    steps = {s["name"]: (s["score"], s["max_score"], s["status"]) for s in report["steps"]}
    assert finished.returncode == (0 if report["score"] == report["max_score"] else 1), finished.stderr
    assert_graded_as_expected(name, steps, *problem_of(report))


def test_grade_writes_a_row_for_every_attack_and_grades_the_honest_alike(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for number, (name, data) in enumerate(sorted(ATTACKS.items())):
        (folder / f"student_{10400 + number}_1_{name}").write_bytes(data)
    (folder / "honest_10499_1_attention.py").write_text(CORRECT, "utf-8")
    (folder / "honest_10498_1_attention.ipynb").write_bytes(HONEST_NOTEBOOK)
    finished = grade(folder, tmp_path / "out")  # no --lab: the class's lab is guessed from its files
    assert finished.returncode == 0, finished.stderr[-3000:]
    rows = {row["file"]: row for row in rows_of(tmp_path / "out")}
    assert len(rows) == len(ATTACKS) + 2
    assert rows["honest_10499_1_attention.py"]["total"] == "10.0"
    for number, name in enumerate(sorted(ATTACKS)):
        row = rows[f"student_{10400 + number}_1_{name}"]
        expected = EXPECTED[name]
        if "problem" in expected:
            assert row["status"] == f"broken: {expected['problem']}", row
        else:
            assert row["status"] == "graded", row
            assert float(row["total"]) == 10 - sum(step.points for step in LAB.steps if step.name in expected["lost"])


def gradescope_main(tmp_path, name, data, lab=LAB.name):
    from autograder.otter import gradescope

    root = tmp_path / "autograder"
    for folder in ("source", "submission", "results"):
        (root / folder).mkdir(parents=True)
    plugin = {gradescope.PLUGIN: {"lab": lab, "lang": "en", "step_seconds": 3.0}}
    (root / "source" / gradescope.CONFIG).write_text(json.dumps({"plugins": [plugin]}), "utf-8")
    (root / "submission" / name).write_bytes(data)
    with mock.patch.dict(os.environ, {"AUTOGRADER_ROOT": str(root)}):
        status = gradescope.main()
    return status, json.loads((root / "results" / "results.json").read_text("utf-8"))


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_gradescope_entry_point_grades_every_attack(name, tmp_path):
    # No lab in the zip's settings for the notebook that once broke the guess; the zip's lab otherwise.
    status, results = gradescope_main(tmp_path, name, ATTACKS[name],
                                      lab=None if name == "number_in_source.ipynb" else LAB.name)
    assert status == 0, results
    assert "Autograder error" not in json.dumps(results)
    scored = {t["name"]: t for t in results["tests"] if "max_score" in t}
    steps = {name: (test["score"], test["max_score"], "error" if test["score"] == 0 else "")
             for name, test in scored.items()}
    expected = EXPECTED[name]
    if "problem" in expected:
        assert results["score"] == 0 and expected["words"] in results["output"], results["output"]
    else:
        lost = {step for step, (score, top, _) in steps.items() if score < top}
        assert lost == expected["lost"]


@pytest.mark.parametrize("name", ["number_in_source.ipynb", "deep_calls.ipynb", "softmax_in_a_string.py",
                                  "many_cells.ipynb"])
def test_pytest_runs_the_staffs_other_tests_whatever_the_submission(name, tmp_path):
    (tmp_path / name).write_bytes(ATTACKS[name])
    (tmp_path / "test_staff.py").write_text("def test_staff_check():\n    assert True\n", "utf-8")
    lab = ("--submission-lab", LAB.name) if name in SAY_NO_LAB else ()
    # The staff's own test file, named on the command line, runs beside the steps whatever the submission.
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--submission",
                           str(tmp_path / name), "--submission-lang", "en", "--submission-timeout", "3", *lab,
                           "test_staff.py"],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert "INTERNALERROR" not in done.stdout + done.stderr, done.stdout[-3000:]
    expected = EXPECTED[name]
    failed = len(expected["lost"]) if "lost" in expected else len(STEP_NAMES)
    assert done.returncode == (1 if failed else 0), done.stdout[-3000:]
    summary = f"{failed} failed, {len(STEP_NAMES) - failed + 1} passed" if failed else f"{len(STEP_NAMES) + 1} passed"
    assert summary in done.stdout, done.stdout[-3000:]


def test_pytest_says_why_when_a_file_names_no_lab_and_still_runs_the_rest(tmp_path):
    (tmp_path / "nothing.ipynb").write_bytes(b'{"cells": 3}')
    (tmp_path / "test_staff.py").write_text("def test_staff_check():\n    assert True\n", "utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--submission",
                           str(tmp_path / "nothing.ipynb"), "test_staff.py"], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 1 and "1 failed, 1 passed" in done.stdout, done.stdout[-3000:]
    assert "--submission-lab" in done.stdout


def test_the_emulated_platform_grades_every_attack(gradescope_image):
    """The built zip, installed from its wheel on the emulated Gradescope machine (shared with
    tests/otter/slow/test_gradescope.py in a whole run): each attack gets results that grade it."""
    is_root = os.geteuid() == 0
    for name, data in sorted(ATTACKS.items()):
        run = gradescope_image["image"].grade(gradescope_image["zip"], {name: data}, private_mount=is_root)
        assert run.returncode == 0, (name, run.output)
        assert "Autograder error" not in json.dumps(run.results), name
        scored = {t["name"]: t for t in run.results["tests"] if "max_score" in t}
        expected = EXPECTED[name]
        if "problem" in expected:
            assert run.results["score"] == 0, name
        else:
            lost = {step for step, test in scored.items() if test["score"] < test["max_score"]}
            assert lost == expected["lost"], (name, lost)


def worst_cases():
    """The benchmark's worst file for each bound (benchmarks/reading_budget.py)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("reading_budget", ROOT / "benchmarks" / "reading_budget.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {title: (name, make) for title, name, make in module.cases()}


WORST_CASES = worst_cases()
DOCUMENTED_MB = 150  # docs/SECURITY.md, "Reading a submission": at most 140 MB measured


@pytest.mark.parametrize("title", sorted(WORST_CASES))
def test_reading_the_worst_file_of_each_bound_allocates_less_than_documented(title):
    import tracemalloc

    name, make = WORST_CASES[title]
    data = make()
    with counted_work() as work:
        tracemalloc.start()
        try:
            read = read_submission(name, data)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < DOCUMENTED_MB * MB, (title, peak // MB)
    assert_within_budget(work)
    assert read.reading.parsed_chars <= BUDGET.parsed_chars
