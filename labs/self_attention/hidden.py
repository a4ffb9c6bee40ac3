"""Hidden cases: never shipped to students; catch answers that only fit the page."""
from .cases import random_case


def hidden_cases():
    return [
        random_case("hidden-1", seed=101, n=1, d_model=3, d_k=2),
        random_case("hidden-2", seed=202, n=4, d_model=8, d_k=5, d_v=6),
        random_case("hidden-3", seed=303, n=3, d_model=4, d_k=4, scale=30.0),
        random_case("hidden-4", seed=404, n=6, d_model=5, d_k=7, d_v=3),
    ]
