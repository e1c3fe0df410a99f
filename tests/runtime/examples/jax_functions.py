"""Functions checked with @verify: their parameters are typed from each call's arguments."""

import jax
import jax.numpy as jnp
import numpy as np

from promolint.runtime import verify


@verify
def scale(x, factor):
    scaled = x * factor
    shifted = scaled + np.float32(1)
    return jnp.sum(shifted) / 2


@verify
def accumulate(x):
    total = jnp.zeros((), x.dtype)
    for row in x:
        total = total + row.sum()
    return total


@verify
def mix(a, b):
    return a + b


@verify
def opaque(x):
    return jnp.asarray(np.einsum("i->", np.asarray(x)))  # einsum: unknown to promolint


class Model:
    def __init__(self, bias):
        self.__bias = bias  # a mangled private name: compiled in its class, as Python does

    @verify
    def apply(self, x):
        return x + self.__bias


class Child(Model):
    @verify
    def apply(self, x):
        return super().apply(x) * 2


def make_offset(offset):
    @verify
    def add_offset(x):
        return x + offset  # `offset` is a closure cell of make_offset

    return add_offset


@verify
def squares(n):
    for i in range(n):
        yield jnp.float32(i) ** 2


jitted_scale = jax.jit(scale)


@verify
def noisy(key, x):
    keys = jax.random.split(key)  # new-style keys: an extended dtype, key<fry>, without a weak flag
    return keys, x + jax.random.normal(keys[0], x.shape)


@verify
def doubled_leaves(tree):
    # `leaf` is the lambda's parameter, not doubled_leaves': the dtype of each leaf, unassigned here.
    return jax.tree_util.tree_map(lambda leaf: leaf, tree)


@verify
def squared_distance(x, y=0.0):
    return jnp.square(x - y).sum()


@verify
def distance_between(a, b):
    return squared_distance(a, b)


@verify
def bias_correction(decay, count):
    # optax's tree_bias_correction: under jax.jit `count` is traced and decay**count strong;
    # called directly, a 0-d int32 count is concrete and the result keeps decay's weak flag.
    return 1 - decay**count


jitted_bias_correction = jax.jit(bias_correction)


@verify
def corrected(count):
    return bias_correction(0.9, count)
