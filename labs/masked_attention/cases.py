"""Inputs the steps are graded on: the page's case and more public ones (hidden ones: hidden.py)."""
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from autograder.core.declaration import Case, Trace

from . import page


def make_case(name: str, words: Sequence[str], X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, W_V: np.ndarray,
              W_O: np.ndarray, n_heads: int, hidden: bool = False) -> Case:
    inputs = {"X": X, "W_Q": W_Q, "W_K": W_K, "W_V": W_V, "W_O": W_O, "n_heads": int(n_heads)}
    return Case(name=name, words=tuple(words), inputs=inputs, hidden=hidden, degenerate=len(words) <= 1)  # one word: see rubric


def page_case() -> Case:
    W_Q, W_K, W_V, W_O = page.page_weights()
    return make_case("page", page.WORDS, page.X.copy(), W_Q, W_K, W_V, W_O, page.N_HEADS)


def random_case(name: str, seed: int, n: int, d_model: int, n_heads: int, scale: float = 1.0, hidden: bool = True,
                words: Sequence[str] | None = None) -> Case:
    """A case with rounded random weights; d_model must be a multiple of n_heads.

    A `scale` of 30 makes the scaled scores reach the thousands: exp without the row maximum
    subtracted overflows there.
    """
    if d_model % n_heads:
        raise ValueError(f"d_model = {d_model} is not a multiple of n_heads = {n_heads}")
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d_model)) * scale, 1)
    W_Q, W_K, W_V, W_O = (np.round(rng.normal(size=(d_model, d_model)) * 0.5, 1) for _ in range(4))
    return make_case(name, _words(words or SPARE_WORDS, seed, n), X, W_Q, W_K, W_V, W_O, n_heads, hidden)


def _words(pool: Sequence[str], seed: int, n: int) -> tuple[str, ...]:
    """n distinct words from `pool`, starting at a place the seed picks (numbered past its end)."""
    return tuple(pool[(seed + i) % len(pool)] + ("" if i < len(pool) else str(i)) for i in range(n))


SPARE_WORDS = ("우리는", "어제", "바닷가에서", "조개를", "주웠다", "파도가", "높았다")


# The public case whose masked_softmax is also called with the other input forms the notebook
# promises (steps.py labels those calls): a 0/1 integer mask, scores with exact zeros among the
# visible ones, and scores far below zero.
FORMS_CASE = "wide"


def whole_scores(trace: Trace) -> np.ndarray:
    """The case's scaled scores rounded to whole numbers: some visible ones are exactly 0. Whole
    numbers stay exact in float32, so these calls tell nothing about float32 work."""
    whole: np.ndarray = np.rint(trace.scaled) + 0.0  # + 0.0: no -0.0 printed
    return whole


FAR_BELOW = 100_000.0  # whole-number scores this far below zero are still exact in float32


def public_cases() -> list[Case]:
    """The page's case; one where n, d_model and n_heads all differ from it; one whose heads are
    wider than the page's (d_head = 4: a divisor √2 written in fails there); one with large
    values, where a softmax that does not subtract the row maximum overflows; one single word
    (its mask is one cell, and an answer that squeezes away an axis fails there).

    The large and single-word cases cannot tell a wrong divisor: their weights do not depend on it.
    """
    wide = random_case("wide", seed=7, n=5, d_model=6, n_heads=3, hidden=False)
    wide_heads = random_case("wide-heads", seed=12, n=4, d_model=8, n_heads=2, hidden=False)
    large = random_case("large", seed=25, n=4, d_model=6, n_heads=2, scale=30.0, hidden=False)
    one_word = random_case("one-word", seed=9, n=1, d_model=6, n_heads=2, hidden=False)
    return [page_case(), wide, wide_heads, large, one_word]


def domain_case(seed: int) -> Case:
    """A case of sizes the notebook allows (any n, any number of heads dividing d_model), drawn from
    `seed`."""
    rng = np.random.default_rng(10_000 + seed)
    n, n_heads, d_head = (int(rng.integers(low, high)) for low, high in ((1, 7), (1, 5), (1, 4)))
    case = random_case(f"domain-{seed}", seed=20_000 + seed, n=n, d_model=n_heads * d_head, n_heads=n_heads,
                       scale=float(rng.choice([1.0, 30.0])), hidden=False)
    # Of every four, one has a word of zeros, as a hidden case has (the repair search checks a
    # repair on the kinds of input the grades are given on).
    return with_zero_row(case, row=int(rng.integers(0, n))) if seed % 4 == 1 else case


def with_zero_row(case: Case, row: int) -> Case:
    """`case` with the vector of word `row` all zeros: a word like any other (not padding)."""
    X = np.array(case.inputs["X"], dtype=float)
    X[row] = 0.0
    return replace(case, inputs={**case.inputs, "X": X})
