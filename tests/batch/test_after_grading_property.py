"""Property tests of the after-grading cores: overrides rows (valid and invalid) and the similarity
signal over generated classes (innocent common mistakes never reach the threshold)."""
import csv
import io

from hypothesis import given, settings, strategies as st

from autograder.batch.overrides import OverridesRefused, apply_overrides, parse_overrides
from autograder.batch.similar import THRESHOLD, common_from, signals

STEPS = {"make_qkv": 2.0, "scores": 1.0, "softmax": 2.0, "mix": 1.0}
IDS = ["kim", "lee", "park", "김민수", "s-01"]


def as_csv(rows):
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([["id", "step", "points", "comment", "by"], *rows])
    return buffer.getvalue()


valid_row = st.tuples(st.sampled_from(IDS), st.sampled_from(sorted(STEPS))).flatmap(
    lambda key: st.tuples(st.just(key[0]), st.just(key[1]),
                          st.floats(0, STEPS[key[1]], allow_nan=False).map(lambda x: round(x, 2)),
                          st.text(min_size=1, max_size=30).filter(lambda t: t.strip() and not set(t) & set("\x00\r\n")),
                          st.sampled_from(["김조교", "TA Lee"])))


@settings(max_examples=200, deadline=None)
@given(st.lists(valid_row, max_size=8, unique_by=lambda r: (r[0], r[1])))
def test_valid_rows_are_read_as_written(rows):
    read = parse_overrides(as_csv([[a, b, repr(c), d, e] for a, b, c, d, e in rows]), ids=IDS, steps=STEPS)
    assert [(o.id, o.step, o.points, o.by) for o in read] == [(a, b, c, e) for a, b, c, _, e in rows]
    assert [o.line for o in read] == list(range(2, 2 + len(rows)))


BAD = {
    "id": lambda row: ["nobody", *row[1:]],
    "step": lambda row: [row[0], "no_such_step", *row[2:]],
    "high": lambda row: [row[0], row[1], str(STEPS[row[1]] + 0.5), *row[3:]],
    "negative": lambda row: [row[0], row[1], "-0.5", *row[3:]],
    "nan": lambda row: [row[0], row[1], "nan", *row[3:]],
    "text": lambda row: [row[0], row[1], "two", *row[3:]],
    "by": lambda row: [*row[:4], " "],
}


@settings(max_examples=200, deadline=None)
@given(st.lists(valid_row, min_size=1, max_size=8, unique_by=lambda r: (r[0], r[1])),
       st.data())
def test_a_bad_row_refuses_the_file_naming_its_line(rows, data):
    rows = [[a, b, repr(c), d, e] for a, b, c, d, e in rows]
    where = data.draw(st.integers(0, len(rows) - 1))
    kind = data.draw(st.sampled_from(sorted(BAD)))
    rows[where] = BAD[kind](rows[where])
    try:
        parse_overrides(as_csv(rows), ids=IDS, steps=STEPS)
    except OverridesRefused as refused:
        assert [p.split(":")[0] for p in refused.problems] == [f"line {where + 2}"]
    else:
        raise AssertionError("a bad row was accepted")


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(STEPS)), st.floats(0, 1), min_size=1),
       st.floats(0, 50), st.booleans())
def test_applied_total_is_the_sum_of_final_steps_and_review_keeps_the_automatic(shares, percent, changed):
    steps = {name: {"score": round(points / 2, 2), "max_score": points, "status": "failed", "mistakes": []}
             for name, points in STEPS.items()}
    record = {"id": "kim", "steps": steps, "raw_total": round(sum(s["score"] for s in steps.values()), 2),
              "total": 0.0, "late": {"percent": percent}}
    rows = [{"line": n + 2, "step": name, "points": round(share * STEPS[name], 2), "comment": "c", "by": "b",
             "written_against": steps[name]["score"] + (0.25 if changed else 0.0)}
            for n, (name, share) in enumerate(sorted(shares.items()))]
    final = apply_overrides(record, rows)
    expected = {name: (round(share * STEPS[name], 2) if not changed else steps[name]["score"])
                for name, share in shares.items()}
    for name, points in expected.items():
        assert final["steps"][name]["score"] == points
        assert final["steps"][name]["automatic"] == steps[name]["score"]
    assert final["raw_total"] == round(sum(final["steps"][n]["score"] for n in STEPS), 2)
    assert final["total"] == round(final["raw_total"] * (1 - percent / 100), 2)
    assert {e["state"] for e in final["overrides"]} == {"review" if changed else "applied"}


# Similarity -------------------------------------------------------------------------------------

SIMILAR_STEPS = ["scores", "softmax", "mix"]
HIDDEN = 4


def student(name, answers, named=frozenset(), code=None):
    steps = {}
    for step in SIMILAR_STEPS:
        given_answers = answers.get(step, {})
        steps[step] = {"status": "failed" if given_answers else "passed", "hidden": HIDDEN,
                       "mistakes": (["wrong_axis"] if step in named else ["wrong_values"]) if given_answers else [],
                       "answers": given_answers, "named_answers": sorted(given_answers) if step in named else []}
    return {"id": name, "status": "graded", "steps": steps,
            "code": code or {"file": [f"file-{name}", 300], "steps": {s: [f"{s}-{name}", 40] for s in SIMILAR_STEPS}}}


@st.composite
def innocent_class(draw, planted=0):
    """A class whose wrong answers are each either common (shared by more than the cutoff of the
    class the signal sees: these students and `planted` more a test adds) or a mistake the grader
    names (whose values everyone who makes it returns)."""
    size = draw(st.integers(4, 60))
    names = [f"s{n:03d}" for n in range(size)]
    answers = {name: {} for name in names}
    named = {name: set() for name in names}
    for step in SIMILAR_STEPS:
        for mistake in range(draw(st.integers(0, 3))):
            is_named = draw(st.booleans())
            least = 2 if is_named else common_from(size + planted) + 1
            free = [name for name in names if not answers[name].get(step)]
            if least > len(free):
                continue
            holders = draw(st.lists(st.sampled_from(free), min_size=least, max_size=len(free), unique=True))
            for holder in holders:
                answers[holder][step] = {f"h{case}": f"{step}-{mistake}-{case}" for case in range(HIDDEN)}
                if is_named:
                    named[holder].add(step)
    return [student(name, answers[name], frozenset(named[name])) for name in names]


@settings(max_examples=150, deadline=None)
@given(innocent_class())
def test_innocent_common_mistakes_are_never_flagged(records):
    assert signals(records, SIMILAR_STEPS, {s: HIDDEN for s in SIMILAR_STEPS}) == []


@settings(max_examples=150, deadline=None)
@given(innocent_class(planted=2), st.sampled_from(SIMILAR_STEPS), st.integers(3, HIDDEN))
def test_a_planted_pair_sharing_a_rare_wrong_table_is_flagged(records, step, shared):
    rare = {f"h{case}": f"rare-{case}" for case in range(shared)}
    planted = [student("planted-a", {step: rare}), student("planted-b", {step: rare})]
    groups = signals(records + planted, SIMILAR_STEPS, {s: HIDDEN for s in SIMILAR_STEPS})
    assert [g.ids for g in groups] == [["planted-a", "planted-b"]]
    assert groups[0].score >= THRESHOLD and step in groups[0].steps
    evidence = groups[0].evidence[step]
    assert all(len(item.digest) <= 16 for item in evidence)


@settings(max_examples=100, deadline=None)
@given(innocent_class(planted=2))
def test_identical_normalised_code_of_a_pair_is_flagged(records):
    same = {"file": ["same-file", 300], "steps": {s: [f"same-{s}", 60] for s in SIMILAR_STEPS}}
    planted = [student("copy-a", {}, code=same), student("copy-b", {}, code=same)]
    groups = signals(records + planted, SIMILAR_STEPS, {s: HIDDEN for s in SIMILAR_STEPS})
    assert [g.ids for g in groups] == [["copy-a", "copy-b"]]


def test_code_fingerprints_ignore_names_comments_whitespace_and_docstrings():
    from autograder.batch.fingerprints import code_prints

    first = b"import numpy as np\n\ndef softmax(x):\n    e = np.exp(x - x.max())\n    return e / e.sum()\n"
    second = (b"import numpy as np\n# mine\ndef softmax(scores):\n    '''doc'''\n    ex = np.exp(scores - scores.max())"
              b"  # shift\n\n    return ex / ex.sum()\n")
    other = b"import numpy as np\n\ndef softmax(x):\n    e = np.exp(x)\n    return e / e.sum()\n"
    prints = [code_prints("a.py", data, ["softmax"]) for data in (first, second, other)]
    assert prints[0]["steps"]["softmax"] == prints[1]["steps"]["softmax"]
    assert prints[0]["file"] == prints[1]["file"]
    assert prints[0]["steps"]["softmax"][0] != prints[2]["steps"]["softmax"][0]
    assert code_prints("a.py", b"def softmax(:\n", ["softmax"])["steps"] == {}  # does not compile: no step print
