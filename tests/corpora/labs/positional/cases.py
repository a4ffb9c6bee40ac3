"""The test lab's inputs: word vectors X and a sub-layer's output S of the same shape."""
import numpy as np

from autograder.core.declaration import Case

WORDS = ("w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7")


def make_case(name, seed, n, d, scale=1.0, hidden=False):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)) * scale, 1)
    S = np.round(rng.normal(size=(n, d)), 1)
    return Case(name=name, words=WORDS[:n], inputs={"X": X, "S": S}, hidden=hidden)


def public_cases():
    return [make_case("page", 0, 3, 4), make_case("wide", 1, 5, 6)]


def hidden_cases():
    # One column: each row's variance is 0, so layer_norm without its eps divides by zero.
    return [make_case("hidden-large", 2, 4, 8, scale=30.0, hidden=True), make_case("hidden-narrow", 3, 2, 6, hidden=True),
            make_case("hidden-one-column", 4, 3, 1, hidden=True)]


def domain_case(seed):
    """A case of any size, drawn from `seed`."""
    rng = np.random.default_rng(10_000 + seed)
    return make_case(f"domain-{seed}", 20_000 + seed, int(rng.integers(1, 8)), int(rng.integers(1, 9)))
