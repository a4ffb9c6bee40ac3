"""Attack 01 (points not earned): a submission that computes nothing at all.

Every step function raises an exception whose type and message are copied from numpy's own error
for a known mistake (the patterns the lab declares as `ErrorMistake`s are public in this
repository and in the students' kit: public_data.json "error_messages"). The grader names the
mistake from the child's message and the rubric then keeps that mistake's share of the step's
points (softmax's `fixed_axis`: 50 %, the others 25 %), although not one value was computed.
Only the input *shapes* are read, to fill the numbers numpy would print.
"""


class AxisError(Exception):
    """numpy.exceptions.AxisError's name: the grader compares type names as text."""


def make_qkv(X, W_Q, W_K, W_V):
    # make_qkv.stacked_weights: "W_Q, W_K, W_V stacked into one array" (numpy's np.stack error)
    raise ValueError("all input arrays must have the same shape")


def scores(Q, K):
    n, d_k = len(Q), len(Q[0])
    # scores.missing_transpose: Q @ K without .T
    raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                     f"signature (n?,k),(k,m?)->(n?,m?) (size {n} is different from {d_k})")


def softmax(x):
    # softmax.fixed_axis: axis=1 written in (rubric share 50 %)
    raise AxisError("axis 1 is out of bounds for array of dimension 1")


def mix(weights, V):
    n, d_v = len(V), len(V[0])
    # mix.elementwise: weights * V instead of weights @ V
    raise ValueError(f"operands could not be broadcast together with shapes ({n},{n}) ({n},{d_v}) ")


def self_attention(X, W_Q, W_K, W_V):
    n, d_k = len(X), len(W_K[0])
    raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                     f"signature (n?,k),(k,m?)->(n?,m?) (size {n} is different from {d_k})")


def most_attended(weights, words):
    raise NotImplementedError
