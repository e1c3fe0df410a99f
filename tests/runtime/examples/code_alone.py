"""Functions no code of their module calls: from the code alone their parameters are variables,
and what depends on them is evaluated at the types each call passed, including parameters the
body assigns to (as they were at the call) and the parameters of the functions around a closure
(read through its cells, or from the enclosing call while it runs), and pytrees whose leaves
are all of one type (what the engine's tree functions see of a parameter)."""

import dataclasses

import jax
import jax.numpy as jnp


def normalized(x, scale):
    x = x * scale  # x is assigned: at the return it no longer holds the argument
    return x / 2


def make_update(decay):
    def update(grad):
        return grad * decay  # decay: make_update's, read through update's closure

    return update


def scaled_rows(rows, factor):
    factor = factor * 2  # assigned: only the running call of scaled_rows knows what it was passed

    def one(row):
        return row * factor

    return [one(row) for row in rows]


def scaled_tree(updates, lr):
    return jax.tree_util.tree_map(lambda g: g * lr, updates)  # g: a leaf of updates


def sum_of_squares(tree):
    return sum(jnp.sum(leaf**2) for leaf in jax.tree_util.tree_leaves(tree))


def scaled_leaves(tree, scale):
    factor = scale * 2
    return [leaf * factor for leaf in jax.tree_util.tree_leaves(tree)]


def incremented(state):
    count = state.count + 1  # state: an object (optax's NamedTuple states); its count a variable of its own
    return count, state.inner.scale * 2


@dataclasses.dataclass(frozen=True)
class Tree:
    node_visits: jax.Array  # no construction in the module: of the tree passed, a variable
    embedding: int


def bonus(tree: Tree, node: int):
    visits = tree.node_visits[node]
    return jnp.log(visits + 1.0), tree.embedding + 1


@dataclasses.dataclass(frozen=True)
class Carry:
    level: jax.Array
    count: jax.Array


def start(level):  # the module makes carries with a level of unknown dtype: nothing types the field
    return Carry(level, jnp.zeros((), jnp.int32))


def raised(carry: Carry):
    return carry.level * 2, carry.count + 1


def cooled(rng_and_state, index):  # craftax's scan bodies: the state is the second element
    rng, state = rng_and_state
    zombies = state.zombies
    return zombies.cooldown[index] - 1
