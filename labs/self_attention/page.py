"""Facts of the lab page: the sentence, the word vectors, the seeded weights, the printed values."""
from typing import Any

import numpy as np

WORDS = ("나는", "사과를", "먹었다")

X = np.array([[1, 0, 1, 0],
              [0, 2, 0, 1],
              [1, 1, 0, 2]], dtype=float)

PAGE_SEED = 0


def page_weights(seed: int = PAGE_SEED, d_model: int = 4, d_k: int = 4) -> tuple[np.ndarray, ...]:
    """W_Q, W_K, W_V drawn in that order from numpy's legacy global generator, as on the page."""
    state = np.random.get_state()
    try:
        np.random.seed(seed)
        return tuple(np.round(np.random.randn(d_model, d_k) * 0.5, 1) for _ in range(3))
    finally:
        np.random.set_state(state)


# Every number the page prints, with the number of decimals it prints them to.
# {name: (decimals, the table as printed)}
PRINTED: dict[str, tuple[int, Any]] = {
    "Q": (2, [[0.8, 0.4, 0.6, 1.8], [2.2, -0.9, 1.2, 0.0], [2.6, -0.1, 1.4, 1.4]]),
    "K": (2, [[1.8, -0.8, 0.2, -0.5], [-1.8, 1.3, 0.9, -0.6], [1.0, 1.6, 0.8, -0.4]]),
    "scores": (2, [[0.34, -1.46, 1.20], [4.92, -4.05, 1.72], [4.34, -4.39, 3.00]]),
    "weights": (3, [[0.340, 0.138, 0.522], [0.824, 0.009, 0.166], [0.656, 0.008, 0.336]]),
    "row_sums": (3, [1.0, 1.0, 1.0]),
    "output": (2, [[-0.39, -0.86, -1.35, 0.74], [-0.80, -1.53, -1.18, 1.02],
                   [-0.72, -1.38, -1.27, 0.96]]),
}
PRINTED_MOST_ATTENDED = {"나는": "먹었다", "사과를": "나는", "먹었다": "나는"}
# The hand computation of scores[0, 0] that the page walks through in step 3.
HAND_SCORE = "0.8×1.8 + 0.4×-0.8 + 0.6×0.2 + 1.8×-0.5 = 0.34"
