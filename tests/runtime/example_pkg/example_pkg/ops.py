import jax
import jax.numpy as jnp
import numpy as np

DEFAULT_SCALE = np.float32(0.5)
OFFSETS = jnp.arange(3, dtype=jnp.int8) + 1


def rescale(x: jax.Array, scale: float = 2.0) -> jax.Array:
    return x * scale + OFFSETS


@jax.jit
def softclip(x: jax.Array) -> jax.Array:
    return jnp.tanh(x / 3.0) * 3.0


def to_numpy_mean(values: np.ndarray) -> np.floating:
    return (values * DEFAULT_SCALE).mean()
