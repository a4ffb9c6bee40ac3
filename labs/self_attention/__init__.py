"""Chapter 3, lab 1: self-attention by hand for "나는 사과를 먹었다"."""
import numpy as np

from autograder.explain import Vocabulary
from autograder.lab import Lab
from solutions import self_attention as solution

from . import page
from .cases import public_cases
from .hidden import hidden_cases
from .reference import stand_ins, trace
from .steps import RUBRIC, STEPS


def hint_facts():
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
        "apple_row": "[" + ", ".join(f"{v:.2f}" for v in output[1]) + "]",
        "most_attended": ", ".join(f"'{k}' → '{v}'" for k, v in page.PRINTED_MOST_ATTENDED.items()),
    }


def case_kinds(case):
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
                        functions={"make_qkv": solution.make_qkv, "scores": solution.scores, "softmax": solution.softmax, "mix": solution.mix, "self_attention": solution.self_attention, "most_attended": solution.most_attended})

LAB = Lab(
    name="self_attention",
    titles={"ko": "3장 실습 1 — self-attention 손으로 풀기", "en": "Chapter 3, lab 1 — self-attention by hand"},
    steps=STEPS,
    public_cases=public_cases,
    hidden_cases=hidden_cases,
    trace=trace,
    stand_ins=stand_ins,
    hint_facts=hint_facts,
    catalog_package=__name__,
    notebook="self_attention_lab.ipynb",
    script="self_attention_lab.py",
    assignment_package="assignments.self_attention",
    solution="solutions.self_attention",
    vocabulary=VOCABULARY,
    rubric=RUBRIC,
)
