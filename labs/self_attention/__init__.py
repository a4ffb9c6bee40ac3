"""Chapter 3, lab 1: self-attention by hand for "나는 사과를 먹었다".

`Lab.from_package` finds the rest by convention: public_cases in cases.py, hidden_cases in
hidden.py, trace and stand_ins in reference.py, hint_facts below, the catalogs in locale/, the
notebook in assignments.self_attention and the reference in solutions.self_attention.
"""
import numpy as np

from autograder.authoring.lab_kit import printed_row
from autograder.core.declaration import Case
from autograder.core.explain.records import Vocabulary
from autograder.core.lab import Lab
from solutions import self_attention as solution

from . import page
from .reference import trace
from .steps import RUBRIC, STEPS


def hint_facts() -> dict[str, str]:
    """Numbers of the lab page that hints may quote."""
    decimals, weights = page.PRINTED["weights"]
    _, output = page.PRINTED["output"]
    first = weights[0]
    return {
        "hand": page.HAND_SCORE,
        "first_word": page.WORDS[0],
        "second_word": page.WORDS[1],
        "first_row": " + ".join(f"{w:.{decimals}f}" for w in first),
        "first_row_best": page.WORDS[first.index(max(first))],
        "first_row_best_weight": f"{max(first):.{decimals}f}",
        "apple_row": printed_row(output[1], 2),
        "most_attended": ", ".join(f"'{k}' → '{v}'" for k, v in page.PRINTED_MOST_ATTENDED.items()),
    }


def case_kinds(case: Case) -> list[str]:
    """The kinds of a case a failure may be limited to (named in the catalogs' [kind])."""
    kinds = []
    if case.X.shape[0] == 1:
        kinds.append("one_word")
    if case.W_V.shape[1] != case.W_K.shape[1]:
        kinds.append("d_v_differs")
    if np.abs(case.X).max() > 10:
        kinds.append("large_values")
    return kinds


VOCABULARY = Vocabulary(sizes={"n": ("X", 0), "d_model": ("X", 1), "d_k": ("W_K", 1), "d_v": ("W_V", 1)},
                        kinds=case_kinds, trace=trace,
                        # the reference's step functions, re-run on a call's own arguments with one changed
                        functions={step.name: getattr(solution, step.name) for step in STEPS})

LAB = Lab.from_package(
    __name__,
    titles={"ko": "3장 실습 1 — self-attention 손으로 풀기", "en": "Chapter 3, lab 1 — self-attention by hand"},
    steps=STEPS,
    vocabulary=VOCABULARY,
    rubric=RUBRIC,
)
