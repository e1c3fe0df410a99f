# promolint mypy plugin golden output -- mypy 2.4.1, config x64-on: {"extend-select": ["PRM001"], "x64": "on"}
# ruff: noqa: F821, F841
"""An operation the plugin reports keeps its type and its dtype.

mypy checks ``a + b`` by trying ``a.__add__`` under an error watcher and falls back to
``b.__radd__`` (and possibly Any) when the attempt reports an error (mypy #7367, #18945).  The
plugin reports past those watchers, so a finding never changes the type of its expression: the
results below are jax.Array (not Any) and keep their dtype, which the next line proves by being
reported again.
"""
import jax.numpy as jnp
import numpy as np

i8 = jnp.ones(3, jnp.int8)
wrapped = i8 + 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]
reveal_type(wrapped)
# MYPY: note: Revealed type is "jax._src.basearray.Array"
again = wrapped + 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]

reflected = 1000 + i8
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]
reveal_type(reflected)
# MYPY: note: Revealed type is "jax._src.basearray.Array"
twice = reflected + 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]

compared = i8 == 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: the comparison is always the same. Cast the array to a wider dtype first.  [promolint-literal-overflow]
reveal_type(compared)
# MYPY: note: Revealed type is "jax._src.basearray.Array"

# NumPy's stubs say ndarray + jax.Array is an ndarray: at run time JAX computes it.
numpy_first = np.ones(3, np.int8) + i8
reveal_type(numpy_first)
# MYPY: note: Revealed type is "jax._src.basearray.Array"
jax_rules = numpy_first + 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]


def inside(values: jnp.ndarray) -> None:
    local = i8 + 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]
    reveal_type(local)
# MYPY: note: Revealed type is "jax._src.basearray.Array"
    kept = local + 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]
