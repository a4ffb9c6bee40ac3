"""Lab 1's public table of tied weights (steps._tied_rows) tells idxmax's first tied word from a
tie broken by the words themselves: a max over (weight, word) pairs picks another word on some row,
unless the words are sorted from last to first; a min, unless they are sorted (then the first of
any tied words is the smallest: nothing can tell them apart)."""
import numpy as np
import pandas as pd
from hypothesis import given, strategies as st

from labs.self_attention.steps import _tied_rows

WORDS = st.lists(st.text(min_size=1, max_size=4), min_size=3, max_size=7, unique=True)


@given(WORDS, st.integers(0, 2 ** 32 - 1))
def test_some_row_tells_the_first_tied_word_from_a_tie_broken_by_the_words(words, seed):
    n = len(words)
    weights = np.random.default_rng(seed).dirichlet(np.ones(n), size=n)
    tied = _tied_rows(weights, words)
    assert tied.shape == (n, n) and np.allclose(tied.sum(axis=1), 1.0)
    first = pd.DataFrame(tied, index=words, columns=words).idxmax(axis=1).to_dict()
    by_max = {w: max(zip(tied[i], words))[1] for i, w in enumerate(words)}
    by_min = {w: min((-value, word) for value, word in zip(tied[i], words))[1] for i, w in enumerate(words)}
    if words != sorted(words, reverse=True):
        assert first != by_max
    if words != sorted(words):
        assert first != by_min
