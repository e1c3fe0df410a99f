# promolint mypy plugin golden output -- mypy 2.4.1, config strict: {"promotion": "strict"}
# ruff: noqa: F821, F841
"""jaxtyping annotations are Annotated[...] to mypy; the plugin reads their dtypes."""
import jax.numpy as jnp
import jaxtyping as jt
import numpy as np
from jaxtyping import Array, Float, Float32, Int8


def wrap(codes: Int8[Array, "n"]) -> Int8[Array, "n"]:
    return codes + 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]


def scale(x: Float32[Array, "n"], y: jt.Float16[Array, "n"]) -> Float32[Array, "n"]:
    return x * y


def some_float(x: Float[Array, ""]) -> None:
    several = x + 2.0**200


def host(x: Float32[np.ndarray, "n"]) -> None:
    widened = x + np.ones(3, np.int32)


wrapped = wrap(jnp.ones(3, jnp.int8)) + 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]
reveal_type(wrap)
# MYPY: note: Revealed type is "def (codes: jax._src.basearray.Array) -> jax._src.basearray.Array"
