"""Lambdas as chex's asserts and coordax's `is_leaf` write them: handed to other code that calls
them (a comparator, JAX's tree functions), or called where they are defined.  Where the analysis
never calls one, its parameters are variables of their own, which the shim gives each call's
arguments."""

import jax
import jax.numpy as jnp

# Called only by the program that imports this module.
double = lambda x: x * 2
widen, narrow = (lambda x: x.astype(jnp.float32) + x), (lambda x: x.astype(jnp.float16) * x)


def comparator(exact):
    if exact:
        return lambda left, right: jnp.array_equal(left, right)
    return lambda left, right: jnp.abs(left - right).max() <= 1e-3


# Called where they are defined: the analysis evaluates their bodies at the function's parameters.
def pair(tree):
    first, second = (lambda t: jnp.ones_like(t)), (lambda t: t.astype(jnp.float16) + t)
    return jax.tree_util.tree_map(first, tree), jax.tree_util.tree_map(second, tree)


def curried(x):
    return (lambda a: lambda b: a + b)(x)(x)
