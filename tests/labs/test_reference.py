"""The reference reproduces every number the lab page prints, to the precision it prints."""
import numpy as np
import pytest

from labs.self_attention import page as lab
from labs.self_attention.cases import page_case
from solutions import self_attention as attention


@pytest.fixture(scope="module")
def page():
    case = page_case()
    Q, K, V = attention.make_qkv(case.X, case.W_Q, case.W_K, case.W_V)
    output, weights = attention.self_attention(case.X, case.W_Q, case.W_K, case.W_V)
    return {"Q": Q, "K": K, "V": V, "scores": attention.scores(Q, K), "weights": weights,
            "row_sums": weights.sum(axis=1), "output": output}


@pytest.mark.parametrize("name", sorted(lab.PRINTED))
def test_printed_tables(page, name):
    decimals, printed = lab.PRINTED[name]
    np.testing.assert_array_equal(np.round(page[name], decimals), np.array(printed))


def test_hand_computed_score_cell(page):
    assert round(float(page["scores"][0, 0]), 2) == 0.34


def test_apple_row_by_hand(page):
    by_hand = sum(page["weights"][1, j] * page["V"][j] for j in range(3))
    np.testing.assert_allclose(by_hand, page["output"][1])
    np.testing.assert_array_equal(np.round(by_hand, 2), [-0.8, -1.53, -1.18, 1.02])


def test_most_attended(page):
    assert attention.most_attended(page["weights"], list(lab.WORDS)) == lab.PRINTED_MOST_ATTENDED


def test_shapes(page):
    assert lab.X.shape == (3, 4)
    assert page["Q"].shape == page["K"].shape == page["V"].shape == (3, 4)
    assert page["output"].shape == (3, 4)


def test_softmax_is_stable_and_handles_1d():
    assert np.allclose(attention.softmax(np.array([1000.0, 1000.0])), [0.5, 0.5])
    assert np.all(np.isfinite(attention.softmax(np.array([[1e4, -1e4], [0.0, 3.0]]))))
