"""A file that is not Python."""
import numpy as np

def make_qkv(X, W_Q, W_K, W_V)
    return X @ W_Q, X @ W_K, X @ W_V
