"""Values and functions another module uses."""
import jax
import jax.numpy as jnp
import numpy as np
from numpy.typing import NDArray

WEIGHTS = jnp.ones(3, jnp.int8)  # mypy's type of WEIGHTS carries the int8 tag
WRAPPED = WEIGHTS + 1000  # reported here; the result is still an int8 jax.Array
REBOUND = jnp.ones(3, jnp.int8)
REBOUND = REBOUND.astype(jnp.int32)  # bound twice: no module may trust the first binding's dtype


def counts() -> NDArray[np.int32]:
    return np.zeros(3, np.int32)


def quantized() -> jax.Array:
    return jnp.zeros(3, jnp.int8)  # a plain jax.Array annotation says nothing about the dtype
