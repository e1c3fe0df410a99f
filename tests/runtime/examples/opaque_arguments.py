"""Parameters that hold no array (a str, a dtype, None), as dinosaur's collectives and coordax's
labeled axes pass them: the code-alone predictions that depend on them are evaluated at what the
engine makes of them, as if they were written in the code."""

import jax.numpy as jnp
import numpy as np


def contract(spec, a, b):
    return jnp.einsum(spec, a, b)


def make(n, dtype):
    return jnp.zeros(n, dtype) + np.ones(n, np.float16)


def pick(x, fill):
    return x if fill is None else jnp.full_like(x, fill)
