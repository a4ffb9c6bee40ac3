"""Chapter 3, lab 2: masked multi-head self-attention for "나는 사과를 먹었다"."""
import numpy as np

from autograder.explain import Vocabulary
from autograder.lab import Lab
from solutions import masked_attention as solution

from . import page
from .cases import public_cases
from .hidden import hidden_cases
from .reference import stand_ins, trace
from .steps import RUBRIC, STEPS


def _row(values, decimals):
    return "[" + ", ".join(f"{v:.{decimals}f}" for v in values) + "]"


def hint_facts():
    """Numbers of the lab's page (its notebook) that hints may quote."""
    _, heads = page.PRINTED["Q_heads"]
    decimals, weights = page.PRINTED["weights"]
    _, mask = page.PRINTED["mask"]
    out_decimals, output = page.PRINTED["output"]
    d_model = page.X.shape[1]
    return {
        "first_word": page.WORDS[0],
        "second_word": page.WORDS[1],
        "last_word": page.WORDS[-1],
        "n_words": str(len(page.WORDS)),
        "n_heads": str(page.N_HEADS),
        "d_model": str(d_model),
        "d_head": str(d_model // page.N_HEADS),
        "q_first_row": _row([*heads[0][0], *heads[1][0]], 1),
        "head_1_first_row": _row(heads[0][0], 1),
        "head_2_first_row": _row(heads[1][0], 1),
        "mask_second_row": "[" + ", ".join(str(bool(v)) for v in mask[1]) + "]",
        "head_2_second_row": _row(weights[1][1], decimals),
        "output_first_row": _row(output[0], out_decimals),
    }


def case_kinds(case):
    """The kinds of a case a failure may be limited to (named in the catalogs' [kind])."""
    kinds = []
    n, d_model = case.X.shape
    if n == 1:
        kinds.append("one_word")
    if case.n_heads == 1:
        kinds.append("one_head")
    if d_model // case.n_heads != page.X.shape[1] // page.N_HEADS:
        kinds.append("d_head_differs")
    if np.abs(case.X).max() > 10:
        kinds.append("large_values")
    return kinds


VOCABULARY = Vocabulary(sizes={"n": ("X", 0), "d_model": ("X", 1), "n_heads": "n_heads", "d_head": ("Q_heads", 2)},
                        kinds=case_kinds, trace=trace,
                        # the reference's step functions, re-run on a call's own arguments with one changed
                        functions={"split_heads": solution.split_heads, "causal_mask": solution.causal_mask, "masked_softmax": solution.masked_softmax, "merge_heads": solution.merge_heads, "multi_head_attention": solution.multi_head_attention})

LAB = Lab(
    name="masked_attention",
    titles={"ko": "3장 실습 2 — 마스크를 씌운 멀티헤드 어텐션",
            "en": "Chapter 3, lab 2 — masked multi-head self-attention"},
    steps=STEPS,
    public_cases=public_cases,
    hidden_cases=hidden_cases,
    trace=trace,
    stand_ins=stand_ins,
    hint_facts=hint_facts,
    catalog_package=__name__,
    notebook="masked_attention_lab.ipynb",
    script="masked_attention_lab.py",
    assignment_package="assignments.masked_attention",
    solution="solutions.masked_attention",
    vocabulary=VOCABULARY,
    rubric=RUBRIC,
)
