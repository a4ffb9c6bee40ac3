"""A third lab for the tests: sinusoidal positional encoding and layer norm, four steps, two of
them composed, two levels deep; layer_norm's reference has a default argument (eps=1e-5).
Installed on the fly by the tests (tests/positional_lab.py), found by its entry point as real labs are."""
from autograder.lab import Lab

from .cases import hidden_cases, public_cases
from .reference import stand_ins, trace
from .steps import STEPS

LAB = Lab(
    name="positional",
    titles={"ko": "테스트 실습 — 위치 인코딩과 층 정규화", "en": "Test lab — positional encoding and layer norm"},
    steps=STEPS,
    public_cases=public_cases,
    hidden_cases=hidden_cases,
    trace=trace,
    stand_ins=stand_ins,
    catalog_package=__name__,
    notebook="positional_lab.ipynb",
    script="positional_lab.py",
    assignment_package=__name__,
    solution=__name__ + ".solution",
)
