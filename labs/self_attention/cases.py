"""Inputs the steps are graded on: the page's case and more public ones (hidden ones: hidden.py)."""
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from autograder.core.declaration import Case, Trace

from . import page


def make_case(name: str, words: Sequence[str], X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, W_V: np.ndarray,
              hidden: bool = False) -> Case:
    # One word: every formula that mixes rows by weights summing to 1 is right on it.
    return Case(name=name, words=tuple(words), inputs={"X": X, "W_Q": W_Q, "W_K": W_K, "W_V": W_V}, hidden=hidden,
                degenerate=len(words) <= 1)


def page_case() -> Case:
    W_Q, W_K, W_V = page.page_weights()
    return make_case("page", page.WORDS, page.X.copy(), W_Q, W_K, W_V)


def random_case(name: str, seed: int, n: int, d_model: int, d_k: int, d_v: int | None = None, scale: float = 1.0,
                hidden: bool = True) -> Case:
    """A case with rounded random weights; words are distinct so idxmax names are unambiguous.

    A `scale` of 30 makes scaled scores reach the hundreds: exp without the max subtracted overflows.
    """
    rng = np.random.default_rng(seed)
    d_v = d_k if d_v is None else d_v
    X = np.round(rng.normal(size=(n, d_model)) * scale, 1)
    W = [np.round(rng.normal(size=(d_model, width)) * 0.5, 1) for width in (d_k, d_k, d_v)]
    words = tuple(SPARE_WORDS[(seed + i) % len(SPARE_WORDS)] + ("" if i < len(SPARE_WORDS) else str(i))
                  for i in range(n))
    W_Q, W_K, W_V = W
    return make_case(name, words, X, W_Q, W_K, W_V, hidden=hidden)


SPARE_WORDS = ("고양이가", "생선을", "몰래", "먹고", "도망갔다", "어제", "비가", "많이", "왔다")


# The public case whose steps are also called with the other input forms the notebook promises
# (steps.py labels those calls): integer scores for softmax, tied weights for most_attended.
FORMS_CASE = "wide"


def integer_scores(trace: Trace) -> np.ndarray:
    """The case's scaled scores rounded to whole numbers, as an integer array: softmax is promised
    for any array of scores, and whole numbers tie, so the weights they give tie too."""
    whole: np.ndarray = np.rint(trace.scaled).astype(np.int64)
    return whole


FAR_BELOW = 100_000.0  # whole-number scores this far below zero are still exact in float32


def spanning_nine(whole: np.ndarray) -> np.ndarray:
    """Whole-number scores from 0 down to -9 in every row (each row's largest at 0, its smallest at
    -9; a row of equal scores all at -9): softmax gives weights between about 1e-5 and 1e-4 to the
    lowest."""
    low = whole.min(axis=-1, keepdims=True)
    span = np.maximum(whole.max(axis=-1, keepdims=True) - low, 1)
    spread: np.ndarray = np.rint((whole - low) / span * 9.0) - 9.0
    return spread


def public_cases() -> list[Case]:
    """The page's case, one where n, d_model, d_k and d_v all differ, one with large values and one
    with a single word (an answer that squeezes away the word axis fails there).

    "wide" has d_v ≠ d_k with weights far from 0 and 1, so dividing by √d_v instead of √d_k shows
    in a student's public checks (in "large" the softmax is saturated and in "one-word" every
    weight is 1: no divisor shows there). "large" has scaled scores near a thousand (a naive exp
    overflows there, as in the hidden cases). Its words, and the single word's, are among
    "wide"'s, so the hidden cases keep words of their own.
    """
    # W_V is drawn last: its width d_v = 2 leaves X, W_Q, W_K, the scores and the weights as with
    # d_v = d_k. Not 4 (the page's d_model: the page's 4×4 W would then fail there with numpy's
    # words for X @ W.T) nor 5 (= n: V @ weights would run).
    wide = random_case("wide", seed=7, n=5, d_model=6, d_k=3, d_v=2, hidden=False)
    large = random_case("large", seed=133, n=4, d_model=3, d_k=2, d_v=5, scale=30.0, hidden=False)
    one_word = random_case("one-word", seed=9, n=1, d_model=4, d_k=3, d_v=2, hidden=False)
    return [page_case(), wide, large, one_word]


def domain_case(seed: int) -> Case:
    """A case of sizes the notebook allows (any n, d_model, d_k, d_v), drawn from `seed`; of every
    four, one has a word of zeros and one every word alike, as the hidden cases have (what the
    repair search checks a repair on spans the kinds of input the grades are given on)."""
    rng = np.random.default_rng(10_000 + seed)
    n, d_model, d_k, d_v = (int(rng.integers(low, high)) for low, high in ((1, 7), (1, 8), (1, 6), (1, 6)))
    case = random_case(f"domain-{seed}", seed=20_000 + seed, n=n, d_model=d_model, d_k=d_k, d_v=d_v,
                       scale=float(rng.choice([1.0, 30.0])), hidden=False)
    if seed % 4 == 1:
        return with_zero_row(case, row=int(rng.integers(0, n)))
    if seed % 4 == 2 and n > 1:
        return with_same_vectors(case)
    return case


def with_zero_row(case: Case, row: int) -> Case:
    """`case` with the vector of word `row` all zeros: a word like any other (not padding)."""
    X = np.array(case.inputs["X"], dtype=float)
    X[row] = 0.0
    return replace(case, inputs={**case.inputs, "X": X})


def with_same_vectors(case: Case) -> Case:
    """`case` with every word the vector of its first: each table of scores is one number
    throughout, every weight 1/n, every row of the output the same. Many wrong formulas give that
    too, so its passes are not counted (as a single word's); a shortcut for equal scores, or rows
    merged because they are equal, fails it."""
    X = np.repeat(np.asarray(case.inputs["X"], dtype=float)[:1], len(case.words), axis=0)
    return replace(case, inputs={**case.inputs, "X": X}, degenerate=True)
