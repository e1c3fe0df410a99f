"""A NumPy-only script, run instrumented as a whole (module code and functions)."""

import numpy as np


def normalize(values: np.ndarray, scale: float) -> np.ndarray:
    centered = values - values.mean()
    return centered / scale


weights = np.ones(4, np.float32)
counts = np.arange(4)
mixed = weights * counts + 0.5
small = np.int8(3) + 2
wide = np.float16(1) + np.float32(2)
total = np.einsum("i,i->", weights, weights)  # not in promolint's catalog: unknown
result = normalize(mixed, 2.0)
print(result.dtype, small, wide, total)
