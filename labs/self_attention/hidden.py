"""Hidden cases: never shipped to students; catch answers that only fit the page."""
from autograder.core.declaration import Case

from .cases import make_case, page_case, random_case, with_same_vectors, with_zero_row


def hidden_cases() -> list[Case]:
    page = page_case()
    other = random_case("other", seed=505, n=3, d_model=4, d_k=4)
    return [
        random_case("hidden-1", seed=101, n=1, d_model=3, d_k=2),
        random_case("hidden-2", seed=202, n=4, d_model=8, d_k=5, d_v=6),
        # Two words: softmax's rows have two cells (a two-way shortcut, as a sigmoid, shows here).
        random_case("hidden-3", seed=303, n=2, d_model=4, d_k=4, scale=30.0),
        # A word whose vector is all zeros is a word like any other: its row is not padding to drop
        # or hide, and its scores with every word are 0.
        with_zero_row(random_case("hidden-4", seed=404, n=6, d_model=5, d_k=7, d_v=3), row=2),
        # The page's sentence with other weights: a function that ignores its weights returns
        # the same as on the page (told apart from a wrong formula by that alone).
        make_case("hidden-5", page.words, page.X.copy(), other.W_Q, other.W_K, other.W_V, hidden=True),
        # The page's case again: a function whose values change from call to call shows it here.
        make_case("hidden-6", page.words, page.X.copy(), page.W_Q, page.W_K, page.W_V, hidden=True),
        with_same_vectors(random_case("hidden-7", seed=707, n=4, d_model=3, d_k=2, d_v=3)),
    ]

