"""Chapter 3, lab 1: self-attention by hand for "나는 사과를 먹었다"."""
from autograder.lab import Lab

from . import page
from .cases import public_cases
from .hidden import hidden_cases
from .reference import stand_ins, trace
from .steps import STEPS


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
    assignment_package=__name__,
    solution="solutions.self_attention",
)
