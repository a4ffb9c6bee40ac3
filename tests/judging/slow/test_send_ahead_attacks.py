"""Attacks on a search's child that is sent candidate calls ahead and given candidates compiled by
the grader (tests/corpora/attacks7, written from the code and docs alone; FIRST_RUN.md): the search
changes words, never points; no text a child sends is shown; the grader's memory stays bounded by
the search's counts and bytes, whatever the code."""
from collections import OrderedDict

import pytest

from autograder.core.render.feedback import as_text
from autograder.grading import grade_bytes, repairs
from autograder.grading.plan import Plan
from autograder.repair import RepairCache
from autograder.repair import edits
from conftest import CORPORA
from labs.self_attention import LAB

ATTACKS = CORPORA / "attacks7"
QUICK = ["01_read_ahead_stealth.py", "03_forge_ahead_answers.py", "04_patch_marshal_at_load.py",
         "08b_constant_fold_small.py", "12_flood_events.py", "13_close_and_dup_fds.py"]


@pytest.fixture(scope="module")
def plan():
    return Plan.build(LAB)


@pytest.mark.parametrize("name", QUICK)
def test_a_candidate_sent_ahead_or_compiled_changes_words_only(zygote, plan, monkeypatch, name):
    """INVARIANT (docs/SECURITY.md, "One call at a time", "repair search"): whatever a candidate
    does with the commands sent ahead or with the code it is given, the grade is the grade with the
    search off, and the feedback shows no text a child sent."""
    source = (ATTACKS / name).read_bytes()
    monkeypatch.setattr(repairs, "_REPAIRS", RepairCache())
    sizes = []
    made = repairs._candidate_calls

    def spied(*args, **kwargs):
        calls, tables = made(*args, **kwargs)
        sizes.extend(len(call.code[1]) for call in calls if call.code is not None)
        return calls, tables

    monkeypatch.setattr(repairs, "_candidate_calls", spied)
    searched = grade_bytes(name, source, zygote, plan)
    monkeypatch.setenv(repairs.REPAIR_SWITCH, "off")
    plain = grade_bytes(name, source, zygote, plan)
    assert [(s.name, s.score) for s in searched.steps] == [(s.name, s.score) for s in plain.steps]
    for lang in ("ko", "en"):
        shown = as_text(searched, LAB, lang)
        assert "PWNED" not in shown and "spy" not in shown.lower()
    # The grader's memory: no compiled candidate over its bound is kept or sent.
    assert max(sizes, default=0) <= edits.MAX_CODE_BYTES
    assert edits._KEPT[0] <= edits.MAX_KEPT_CODE_BYTES


def test_a_candidate_whose_compiled_form_is_large_is_sent_as_its_text_only(monkeypatch):
    """The compiler folds `'ab' * 2048` into a 4 KB constant: a function of a few hundred such is
    small as text, huge compiled. Its compiled form is neither kept nor sent (the child compiles
    the text, in its own limits); a small one is, and all kept stay within their bound."""
    folded = "def f(x):\n    t = (" + ", ".join(f"'a{k}' * 2048" for k in range(40)) + ")\n    return x\n"
    small = "def f(x):\n    return x * 2\n"
    monkeypatch.setattr(edits, "_CODES", OrderedDict())
    monkeypatch.setattr(edits, "_KEPT", [0])
    assert edits._compiling(folded) == folded and edits._compiling(small) == small
    assert edits.compiled(folded) is None and edits.compiled(small) is not None
    for k in range(2000):  # many mid-sized ones: the oldest go first
        edits._compiling(f"def f(x):\n    return x * {k} + len('" + "b" * 20_000 + "')\n")
    assert edits._KEPT[0] <= edits.MAX_KEPT_CODE_BYTES
    assert edits._KEPT[0] == sum(len(code[1]) for code in edits._CODES.values())
    assert 0 < len(edits._CODES) < 2000
