import jax.numpy as jnp
import numpy as np
from example_pkg import DEFAULT_SCALE, rescale, softclip
from example_pkg.ops import to_numpy_mean


def test_rescale_keeps_float32():
    assert rescale(jnp.ones(3, jnp.float32)).dtype == jnp.float32


def test_softclip():
    assert softclip(jnp.zeros(3)).dtype == jnp.float32


def test_numpy_mean():
    assert to_numpy_mean(np.ones(4, np.float16)).dtype == np.float32
    assert DEFAULT_SCALE.dtype == np.float32


def test_shifted():
    from example_pkg.mix import shifted

    assert shifted(jnp.ones(3, jnp.float32)).dtype == jnp.float32
