"""Facts of the lab's page: the sentence, the word vectors, the seeded weights, the printed values.

The sentence, X and the seed are those of chapter 3, lab 1; this lab draws a fourth matrix, W_O,
from the same stream, and splits d_model = 4 into two heads of width 2.
"""
from typing import Any

import numpy as np

WORDS = ("나는", "사과를", "먹었다")

X = np.array([[1, 0, 1, 0],
              [0, 2, 0, 1],
              [1, 1, 0, 2]], dtype=float)

PAGE_SEED = 0
N_HEADS = 2


def page_weights(seed: int = PAGE_SEED, d_model: int = 4) -> tuple[np.ndarray, ...]:
    """W_Q, W_K, W_V, W_O drawn in that order from numpy's legacy global generator, as on the page."""
    state = np.random.get_state()
    try:
        np.random.seed(seed)
        return tuple(np.round(np.random.randn(d_model, d_model) * 0.5, 1) for _ in range(4))
    finally:
        np.random.set_state(state)


# Every number the notebook prints for the page's case, with the number of decimals it prints.
PRINTED: dict[str, tuple[int, Any]] = {
    "Q_heads": (1, [[[0.8, 0.4], [2.2, -0.9], [2.6, -0.1]],
                    [[0.6, 1.8], [1.2, 0.0], [1.4, 1.4]]]),
    "mask": (0, [[True, False, False], [True, True, False], [True, True, True]]),
    "scaled": (2, [[[0.79, -0.65, 1.02], [3.31, -3.63, 0.54], [3.37, -3.40, 1.73]],
                   [[-0.55, -0.38, -0.17], [0.17, 0.76, 0.68], [-0.30, 0.30, 0.40]]]),
    "weights": (3, [[[1.000, 0.000, 0.000], [0.999, 0.001, 0.000], [0.837, 0.001, 0.162]],
                    [[1.000, 0.000, 0.000], [0.356, 0.644, 0.000], [0.208, 0.376, 0.416]]]),
    "merged": (2, [[-0.90, -1.70, -1.10, 1.10], [-0.90, -1.70, -1.04, 0.39],
                   [-0.82, -1.55, -1.27, 0.52]]),
    "output": (2, [[0.90, 0.67, 0.25, -1.29], [1.11, 0.82, 0.51, -0.66],
                   [0.96, 0.65, 0.50, -0.69]]),
}
