"""Attacks on the repair search by a hostile student who read the code and the docs
(tests/corpora/attacks6, with the files they were written against): another student's feedback
changed through the repairs a batch shares, the search's time charged to the student, the
grader's own memory and CPU spent on a huge or pathological function, the reference's expression
kept in what the grader saves. Each test states the invariant of docs/SECURITY.md it holds."""
import ast

import pytest

from autograder.grading import repairs
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.render.step import step_feedback
from autograder.repair import RepairCache, target_of
from autograder.repair import edits as edits_module
from autograder.repair.edits import ATTEMPTS_PER_EDIT, single_edits
from autograder.repair.search import MAX_FUNCTION_CHARACTERS
from autograder.sandbox.runner import Limits
from conftest import CORPORA
from labs.self_attention import LAB

ATTACKS = CORPORA / "attacks6"
VICTIM = ATTACKS / "victim_softmax.py"


@pytest.fixture(scope="module")
def plan():
    return Plan.build(LAB)


def _softmax(result):
    return next(step for step in result.steps if step.name == "softmax")


def _graded_alone(zygote, plan, path, monkeypatch):
    monkeypatch.setattr(repairs, "_REPAIRS", RepairCache())
    return grade_bytes(path.name, path.read_bytes(), zygote, plan)


@pytest.mark.parametrize("attacker", ["poison_shared_repair.py", "poison_comment_text.py"])
def test_another_students_file_never_changes_the_repair_a_student_is_told(zygote, plan, monkeypatch, attacker):
    """INVARIANT: a repair found on one file is told to another only after its candidate was run
    on that other file and was right there; the text quoted is the reading student's own."""
    alone = _softmax(_graded_alone(zygote, plan, VICTIM, monkeypatch))
    shared = RepairCache()
    monkeypatch.setattr(repairs, "_REPAIRS", shared)
    path = ATTACKS / attacker
    grade_bytes(path.name, path.read_bytes(), zygote, plan)
    after = _softmax(grade_bytes(VICTIM.name, VICTIM.read_bytes(), zygote, plan))
    for lang in ("ko", "en"):
        assert step_feedback(after, LAB, lang) == step_feedback(alone, LAB, lang)
    assert "TA:" not in step_feedback(after, LAB, "en")


def test_the_search_costs_the_student_neither_time_nor_points(zygote, plan, monkeypatch):
    """INVARIANT: the repair search changes words, never points: the time its candidates take
    (an edit that makes a loop endless) is the grader's, given back to the submission's clock."""
    path = ATTACKS / "repair_clock_honest_loops.py"
    limits = Limits(step_seconds=2, load_seconds=2)
    monkeypatch.setattr(repairs, "_REPAIRS", RepairCache())
    searched = grade_bytes(path.name, path.read_bytes(), zygote, plan, limits)
    monkeypatch.setenv(repairs.REPAIR_SWITCH, "off")
    plain = grade_bytes(path.name, path.read_bytes(), zygote, plan, limits)
    assert [(s.name, s.score, s.status) for s in searched.steps] == [(s.name, s.score, s.status) for s in plain.steps]
    assert searched.score > 0


def _with_softmax(body: str) -> str:
    source = (ATTACKS / "correct_cells.py").read_text("utf-8")
    start = source.index("def softmax(x):")
    return source[:start] + body + "\n\n" + source[source.index("# %%", start):]


def test_a_function_too_long_to_copy_per_edit_is_not_searched():
    """INVARIANT: the search's memory is bounded by its counts: a function whose text (as written,
    or as the grader writes it back: one tag character is ten) passes MAX_FUNCTION_CHARACTERS is
    not searched."""
    tags = "def softmax(x):\n    doc = \"" + "\U000e0001" * 1_000 + "\"\n    return x * 0 + len(doc)\n"
    long = "def softmax(x):\n    doc = \"" + "a" * MAX_FUNCTION_CHARACTERS + "\"\n    return x\n"
    small = "def softmax(x):\n    return x / x.sum(axis=0)\n"
    for body, searched in ((tags, False), (long, False), (small, True)):
        source = _with_softmax(body)
        line = source[:source.index("def softmax(x):")].count("\n") + 1
        target = target_of([{"source": source, "filename": "a.py"}], "softmax", ("a.py", line, 0))
        assert (target is not None) == searched


def test_the_edits_tried_are_bounded_whether_or_not_they_compile(monkeypatch):
    """INVARIANT: the search's CPU is bounded by its counts: every edit made and read back counts,
    kept or not (a function whose edits mostly fail to compile tried them without end)."""
    made = []

    def counted(*args, **kwargs):
        made.append(1)
        return None  # as if no edit compiled

    monkeypatch.setattr(edits_module, "_edited", counted)
    body = "def f(x):\n" + "".join(f"    x = np.sum(x, axis={n % 3}) * {n} / (x - {n})\n" for n in range(120)) \
        + "    return x\n"
    kept = single_edits(ast.parse(body).body[0], limit=50)
    assert {edit.kind for edit in kept} <= {"statements_swapped"}  # (one per neighbouring pair: made apart)
    assert made and len(made) <= ATTEMPTS_PER_EDIT * 50 + 60  # the node being edited finishes its rewrites


def test_what_a_graft_brings_in_is_kept_only_where_it_is_shown(zygote, plan, monkeypatch):
    """INVARIANT: the verdict every face saves (results/<id>.json, Gradescope's results) holds no
    reference expression unless the lab shows the fix."""
    result = _graded_alone(zygote, plan, VICTIM, monkeypatch)
    parts = [part for step in result.steps if step.repair for part in (*step.repair.parts, *step.repair.also)]
    assert parts and all(part.after == "" for part in parts if part.kind.startswith("graft"))
    assert "max(axis=-1, keepdims=True)" not in repr(result.steps)

