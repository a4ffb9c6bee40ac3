"""The one tolerance every comparison of values uses: the judge's checks (`compare`), the declared
mistakes' predictions, the stand-ins' rows, the heat-maps' cells and the explainer's relations
(`explain.records.close`). Numbers and one rule; nothing imported but numpy."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

RTOL = 1e-4  # loose enough for float32 work, tight enough for every mistake in the catalog
ATOL = 1e-6


def atol_of_largest(largest: float) -> float:
    """The absolute tolerance where the expected value's largest finite size is `largest`."""
    return ATOL * max(1.0, largest)


def atol_for(expected: NDArray[Any]) -> float:
    """The absolute tolerance for `expected`: ATOL scaled by its largest finite size (1 at least)."""
    finite = np.abs(expected[np.isfinite(expected)]) if np.size(expected) else np.zeros(1)
    return atol_of_largest(float(finite.max()) if finite.size else 1.0)
