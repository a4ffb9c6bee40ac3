"""Chapter 3, lab 2: masked multi-head self-attention for "나는 사과를 먹었다".

`Lab.from_package` finds the rest by convention: public_cases in cases.py, hidden_cases in
hidden.py, trace and stand_ins in reference.py, hint_facts below, the catalogs in locale/, the
notebook in assignments.masked_attention and the reference in solutions.masked_attention.
"""
import numpy as np

from autograder.authoring.lab_kit import printed_row as _row
from autograder.core.declaration import Case
from autograder.core.explain.computes import Known
from autograder.core.explain.records import Vocabulary
from autograder.core.lab import Lab
from solutions import masked_attention as solution

from . import page
from .reference import trace
from .steps import RUBRIC, STEPS


def hint_facts() -> dict[str, str]:
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


def case_kinds(case: Case) -> list[str]:
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


# What a masked softmax may compute instead, as a student writes it (`softmax` is a plain softmax over
# the last axis); their sentences are this lab's catalogs' [computes].
KNOWN = (
    Known(name="mask_ignored", expression="softmax({a})"),
    Known(name="mask_after_softmax", expression="softmax({a}) * {b}"),
    Known(name="mask_multiplied", expression="softmax({a} * {b})"),
    Known(name="mask_added", expression="softmax({a} + {b})"),
    Known(name="mask_zero_filled", expression="softmax(np.where({b}, {a}, 0))"),
    Known(name="mask_inverted", expression="softmax(np.where({b}, -np.inf, {a}))"),
    Known(name="mask_causal_always",
          expression="softmax(np.where(np.tril(np.ones({a}.shape[-2:], dtype=bool)), {a}, -np.inf))"),
)

VOCABULARY = Vocabulary(sizes={"n": ("X", 0), "d_model": ("X", 1), "n_heads": "n_heads", "d_head": ("Q_heads", 2)},
                        kinds=case_kinds, trace=trace,
                        # the reference's step functions, re-run on a call's own arguments with one changed
                        functions={step.name: getattr(solution, step.name) for step in STEPS},
                        known=KNOWN)

LAB = Lab.from_package(
    __name__,
    titles={"ko": "3장 실습 2 — 마스크를 씌운 멀티헤드 어텐션",
            "en": "Chapter 3, lab 2 — masked multi-head self-attention"},
    steps=STEPS,
    vocabulary=VOCABULARY,
    rubric=RUBRIC,
)
