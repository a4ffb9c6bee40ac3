"""Hidden cases: never shipped to students; catch answers that only fit the page's sizes."""
from autograder.core.declaration import Case

from .cases import make_case, page_case, random_case, with_zero_row

# Words the public cases never use.
HIDDEN_WORDS = ("봄이", "오면", "들판에", "꽃이", "피고", "새들이", "돌아온다", "아이들은", "밖으로", "나간다")


def hidden_cases() -> list[Case]:
    page = page_case()
    other = random_case("other", seed=505, n=3, d_model=4, n_heads=2)
    return [
        random_case("hidden-1", seed=101, n=2, d_model=6, n_heads=2, words=HIDDEN_WORDS),
        random_case("hidden-2", seed=202, n=6, d_model=8, n_heads=4, words=HIDDEN_WORDS),
        random_case("hidden-3", seed=303, n=4, d_model=6, n_heads=1, scale=30.0, words=HIDDEN_WORDS),
        # A word whose vector is all zeros is a word like any other: not padding to hide.
        with_zero_row(random_case("hidden-4", seed=404, n=7, d_model=9, n_heads=3, words=HIDDEN_WORDS), row=3),
        # The page's sentence and sizes with other weights: a mistake that only sizes other than the
        # public ones show is right here, so it is told from answers fitted to the public tests.
        make_case("hidden-5", page.words, page.inputs["X"].copy(), other.inputs["W_Q"], other.inputs["W_K"],
                  other.inputs["W_V"], other.inputs["W_O"], int(page.inputs["n_heads"]), hidden=True),
        # A long sentence: a mask of 70 words (one built from the bits of a 64-bit integer per row
        # is wrong past 64).
        random_case("hidden-6", seed=606, n=70, d_model=4, n_heads=2, words=HIDDEN_WORDS),
    ]
