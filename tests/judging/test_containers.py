"""A right answer is right in any container that behaves as the promised one: a namedtuple is a
tuple, an OrderedDict is a dict, a list subclass is a list, whatever the subclass overrides."""
import collections
import pathlib

import pytest
from hypothesis import given, settings, strategies as st

from autograder import registry
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.child import codec
from autograder.sandbox.runner import Limits
from conftest import CORPORA, ROOT

CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")


class Lying(tuple):
    """A tuple whose own methods lie: what is sent is what the tuple holds."""

    def __len__(self):
        return 0

    def __iter__(self):
        return iter(())


numbers = st.one_of(st.integers(-2**40, 2**40), st.floats(allow_nan=False), st.text(max_size=5))


@settings(max_examples=60, deadline=None)
@given(items=st.lists(numbers, max_size=6))
def test_a_subclass_is_sent_as_its_base_with_the_items_it_holds(items):
    point = collections.namedtuple("Point", [f"f{i}" for i in range(len(items))])
    for value, base in ((point(*items), tuple), (Lying(items), tuple), (type("L", (list,), {})(items), list)):
        decoded = codec.decode(codec.encode(value))
        assert type(decoded) is base and list(decoded) == [codec.decode(codec.encode(i)) for i in items]
    mapping = collections.OrderedDict((str(i), v) for i, v in enumerate(items))
    assert codec.decode(codec.encode(mapping)) == {k: codec.decode(codec.encode(v)) for k, v in mapping.items()}


@pytest.fixture(scope="module")
def graded(zygote):
    plans = {}

    def grade(lab_name, data, name="s.py"):
        if lab_name not in plans:
            plans[lab_name] = Plan.build(registry.load(lab_name))
        return grade_bytes(name, data, zygote, plans[lab_name], Limits(step_seconds=5, load_seconds=5))
    return grade


def test_a_namedtuple_of_the_right_arrays_earns_every_point(graded):
    source = CORRECT.replace("import numpy as np", "import numpy as np\nfrom collections import namedtuple\n"
                             "QKV = namedtuple('QKV', 'Q K V')", 1)
    source = source.replace("return X @ W_Q, X @ W_K, X @ W_V", "return QKV(X @ W_Q, X @ W_K, X @ W_V)")
    assert "return QKV(" in source
    result = graded("self_attention", source.encode("utf-8"))
    assert result.score == result.max_score, [(s.name, s.score) for s in result.steps]


def test_the_blind_namedtuple_files_earn_every_point(graded):
    """Written by students who read only the notebook: a composed step reads the fields by name."""
    folder = CORPORA / "corpus_blind" / "correct"
    for name, lab in (("correct__lab1__namedtuple_qkv.py", "self_attention"),
                      ("correct__lab2__own_helper_namedtuple.py", "masked_attention")):
        result = graded(lab, (folder / name).read_bytes(), name)
        assert result.score == result.max_score, (name, [(s.name, s.score) for s in result.steps])
