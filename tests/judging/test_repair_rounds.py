"""The search's rounds (autograder/repair/search.py, `_right`): candidates tried on the pivot a few
costs at a time name the same repair as all of them tried at once, and run no more candidates."""
from dataclasses import dataclass, field

from hypothesis import given, settings, strategies as st

import importlib

search = importlib.import_module("autograder.repair.search")  # the module, not the function the package exports


@dataclass(frozen=True)
class Candidate:
    """What `_right` reads of an edit: its rank and its source (here, its number)."""

    cost: int
    line: int
    source: str
    pivot: bool = field(compare=False)
    everywhere: bool = field(compare=False)

    @property
    def rank(self) -> tuple[int, int, int]:
        return self.cost, self.line, 0


def _evaluator(candidates):
    by_source = {c.source: c for c in candidates}
    runs = []

    def evaluate(sources, probes):
        runs.append(len(sources))
        whole = len(probes) > 1
        return [[(by_source[s].everywhere if whole else by_source[s].pivot)] * len(probes) for s in sources]
    return evaluate, runs


CANDIDATES = st.lists(st.tuples(st.integers(1, 6), st.integers(1, 30), st.booleans(), st.booleans()),
                      max_size=700).map(
    lambda rows: [Candidate(cost=c, line=l, source=str(k), pivot=p or e, everywhere=e)
                  for k, (c, l, p, e) in enumerate(rows)])


@settings(max_examples=150, deadline=None)
@given(candidates=CANDIDATES, smallest=st.sampled_from((1, 5, 40, 250)))
def test_tried_a_few_costs_at_a_time_the_cheapest_repair_and_its_equals_are_the_same(candidates, smallest):
    """INVARIANT: by cost or all at once, the first right candidate is the same, and so is every
    right candidate of its cost; by cost never runs more candidates, on the pivot or everywhere."""
    original = search.MIN_CHUNK
    search.MIN_CHUNK = smallest
    try:
        at_once, at_once_runs = _evaluator(candidates)
        by_cost, by_cost_runs = _evaluator(candidates)
        probes = ["pivot", "other", "another"]
        whole = search._right(candidates, probes, 0, at_once)
        chunked = search._right(candidates, probes, 0, by_cost, by_cost=True)
    finally:
        search.MIN_CHUNK = original
    assert bool(whole) == bool(chunked)
    if whole:
        assert chunked[0] == whole[0]
        cost = whole[0].cost
        assert [c for c in chunked if c.cost == cost] == [c for c in whole if c.cost == cost]
    assert sum(by_cost_runs) <= sum(at_once_runs)


def test_a_repair_of_the_cheapest_cost_leaves_the_dearer_candidates_unrun():
    cheap = [Candidate(cost=2, line=k, source=f"a{k}", pivot=k == 3, everywhere=k == 3) for k in range(300)]
    dear = [Candidate(cost=4, line=k, source=f"b{k}", pivot=True, everywhere=True) for k in range(500)]
    evaluate, runs = _evaluator(cheap + dear)
    found = search._right(dear + cheap, ["pivot", "other"], 0, evaluate, by_cost=True)
    assert found == [cheap[3]]
    assert runs == [300, 1]  # the cheap ones on the pivot, then the one that passed it, everywhere
