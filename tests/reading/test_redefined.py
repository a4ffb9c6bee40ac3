"""A function defined in more than one place: the feedback says which definition was graded and
where the others are, read from the grader's own reading of the file; what the sandboxed code
says only picks one of those places, never adds one."""
import json
import os
import pathlib
import subprocess
import sys

import hypothesis.strategies as st
from hypothesis import given

from autograder.grading import grade_bytes
from autograder.core.render.step import step_feedback
from autograder.core.child.protocol import plain_evidence
from autograder.sandbox.runner import Limits
from autograder.core.reading.definitions import redefined
from autograder.core.reading.submission import read_submission
from labs.self_attention import LAB
import solutions.self_attention

REFERENCE = pathlib.Path(solutions.self_attention.__file__).read_text("utf-8")
WRONG_SOFTMAX = "def softmax(x):\n    e = np.exp(x)\n    return e / e.sum()\n"
RIGHT_SOFTMAX = ("def softmax(x):\n    shifted = x - x.max(axis=-1, keepdims=True)\n"
                 "    e = np.exp(shifted)\n    return e / e.sum(axis=-1, keepdims=True)\n")
LIMITS = Limits(step_seconds=5, load_seconds=5)


def notebook(*sources):
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# 실습"]}]
    cells += [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": source}
              for source in sources]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()


def softmax_of(result):
    return next(step for step in result.steps if step.name == "softmax")


def test_the_redefinition_graded_is_named_with_the_other_place(zygote, plan):
    result = grade_bytes("two.ipynb", notebook(REFERENCE, WRONG_SOFTMAX), zygote, plan, LIMITS)
    step = softmax_of(result)
    assert step.score < step.max_score
    assert step.redefined.graded == ("<cell 3>", 1)
    assert [place[0] for place in step.redefined.others] == ["<cell 2>"]
    text = step_feedback(step, LAB, "ko")
    assert "3번째 셀 1번째 줄의 정의" in text and "2번째 셀" in text
    assert "defined in more than one place" in step_feedback(step, LAB, "en")


def test_a_step_that_passes_is_not_told_of_its_other_definitions(zygote, plan):
    result = grade_bytes("fixed.ipynb", notebook(WRONG_SOFTMAX, REFERENCE), zygote, plan, LIMITS)
    step = softmax_of(result)
    assert step.status == "passed" and step.redefined is None


def test_a_cell_that_raises_before_its_definition_still_defines_it(zygote, plan):
    # The grader skips the statement that raised and runs the rest, as it does for every file:
    # the graded softmax is the third cell's, said with its own line.
    stops = "raise RuntimeError('여기서 멈춥니다')\n" + WRONG_SOFTMAX
    step = softmax_of(grade_bytes("stops.ipynb", notebook(REFERENCE, stops), zygote, plan, LIMITS))
    assert step.score < step.max_score
    assert step.redefined.graded == ("<cell 3>", 2)


def test_a_name_bound_again_to_another_function_names_no_place(zygote, plan):
    rebound = "def my_softmax(x):\n    return np.exp(x) / np.exp(x).sum()\n\nsoftmax = my_softmax\n"
    result = grade_bytes("rebound.ipynb", notebook(REFERENCE, WRONG_SOFTMAX, rebound), zygote, plan, LIMITS)
    assert softmax_of(result).redefined is None


def test_a_script_names_lines():
    submission = read_submission("lab.py", (REFERENCE + "\n\n" + WRONG_SOFTMAX).encode())
    places = submission.places["softmax"]
    assert len(places) == 2 and {place[0] for place in places} == {"lab.py"}
    last = places[-1]
    assert redefined(places, ("lab.py", last[1]))["redefined"]["graded"] == ["lab.py", last[1]]


def test_decorated_definitions_match_by_their_first_line():
    source = ("import functools\n\n@functools.lru_cache\ndef softmax(x):\n    return x\n\n"
              "def softmax(x):\n    return x\n")
    places = read_submission("lab.py", source.encode()).places["softmax"]
    assert places[0] == ("lab.py", 4, 3)
    assert redefined(places, ("lab.py", 3))["redefined"]["graded"] == ["lab.py", 4]


PLACE = st.tuples(st.sampled_from(["<cell 2>", "<cell 5>", "lab.py"]), st.integers(1, 50), st.integers(1, 50))


@given(places=st.lists(PLACE, max_size=6).map(tuple),
       claim=st.one_of(st.none(), st.tuples(st.text(max_size=12), st.integers(-3, 60))))
def test_what_the_child_says_only_ever_picks_one_of_the_places_read(places, claim):
    found = redefined(places, claim).get("redefined")
    if found is None:
        return
    read = [[name, line] for name, line, _ in places]
    assert found["graded"] in read
    assert all(other in read for other in found["others"]) and found["graded"] not in found["others"]
    assert len(found["others"]) == len(places) - 1


@given(facts=st.dictionaries(st.sampled_from(["file", "line", "globals"]),
                             st.one_of(st.text(max_size=400), st.integers(-5, 10**9), st.floats(), st.none(),
                                       st.lists(st.text(max_size=3), max_size=3), st.booleans())))
def test_the_place_a_child_reports_is_a_short_string_and_a_positive_line(facts):
    plain = plain_evidence({"softmax": facts}, ["softmax"])
    where = plain["softmax"].get("defined_at")
    if where is not None:
        assert type(where[0]) is str and len(where[0]) <= 300
        assert type(where[1]) is int and where[1] > 0


def under_main_guard(source, function):
    """`source` with `function`'s top-level definition moved under `if __name__ == "__main__":`."""
    lines = source.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(f"def {function}("))
    end = next(i for i in range(start + 1, len(lines)) if lines[i] and not lines[i].startswith((" ", "\t")))
    body = [("    " + line) if line else line for line in lines[start:end]]
    return "\n".join(lines[:start] + lines[end:] + ['if __name__ == "__main__":'] + body +
                     [f"    print({function}(np.array([1.0, 2.0])))", ""])


def test_a_script_that_defines_a_step_only_under_main_is_told_so(zygote, plan):
    data = under_main_guard(REFERENCE, "softmax").encode()
    step = softmax_of(grade_bytes("lab.py", data, zygote, plan, LIMITS))
    assert step.status == "missing" and step.under_main is True
    assert "`if __name__ == \"__main__\":` 블록 안에만" in step_feedback(step, LAB, "ko")
    assert "Move the def out of the block" in step_feedback(step, LAB, "en")


def test_a_notebook_runs_its_main_block_as_jupyter_does(zygote, plan):
    data = notebook(under_main_guard(REFERENCE, "softmax"))
    assert softmax_of(grade_bytes("lab.ipynb", data, zygote, plan, LIMITS)).status == "passed"


def test_a_definition_at_the_top_level_as_well_is_not_called_under_main():
    source = REFERENCE + '\n\nif __name__ == "__main__":\n    def softmax(x):\n        return x\n'
    assert "softmax" not in read_submission("lab.py", source.encode()).under_main


def test_the_students_terminal_check_says_both_too(tmp_path):
    from autograder.otter import build as otter_build

    student = otter_build.build(tmp_path / "dist", LAB, self_check=False)["student"]
    (student / "main.py").write_text(under_main_guard(REFERENCE, "softmax"), encoding="utf-8")
    (student / "twice.py").write_text(REFERENCE + "\n\n" + WRONG_SOFTMAX, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LAB_CHECK_LANG")}
    for name, said in (("main.py", "블록 안에만 정의되어 있습니다"), ("twice.py", "softmax 함수를 여러 곳에서 정의했습니다")):
        run = subprocess.run([sys.executable, "-m", "lab_check", name], cwd=student, capture_output=True,
                             text=True, timeout=300, env=env)
        assert said in run.stdout, run.stdout[-3000:] + run.stderr[-2000:]


def test_a_script_s_places_are_its_lines_without_its_name(zygote, plan):
    # The feedback is about that one file; its name, read through another locale (a cp949 terminal
    # given UTF-8 bytes), could come out garbled, so it is not repeated.
    data = (REFERENCE + "\n\n" + WRONG_SOFTMAX).encode()
    step = softmax_of(grade_bytes("내_과제.py", data, zygote, plan, LIMITS))
    text = step_feedback(step, LAB, "ko")
    line = next(line for line in text.split("\n") if "여러 곳에서 정의했습니다" in line)
    assert "내_과제.py" not in line and "번째 줄의 정의이고" in line
