"""A third lab for the tests: sinusoidal positional encoding and layer norm, four steps, two of
them composed, two levels deep; layer_norm's reference has a default argument (eps=1e-5).
Installed on the fly by the tests (tests/positional_lab.py), found by its entry point as real labs are.

Its cases (public and hidden) are in cases.py, its trace and stand-ins in reference.py, where
`Lab.from_package` finds them; its notebook and its reference sit in this package itself.
"""
from autograder.core.lab import Lab

from .steps import STEPS

LAB = Lab.from_package(
    __name__,
    titles={"ko": "테스트 실습 — 위치 인코딩과 층 정규화", "en": "Test lab — positional encoding and layer norm"},
    steps=STEPS,
    assignment_package=__name__,
    solution=__name__ + ".solution",
)
