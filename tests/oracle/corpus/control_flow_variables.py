# lax's control flow on parameters of unknown dtype (variables): the bodies run on them, and what
# comes back is decided at every dtype they may have.  getattr hides the dtypes from the engine:
# each function is analysed with its parameter a JAX array of any dtype.
def twice(x):
    return jax.lax.fori_loop(0, 3, lambda i, c: c * 2, x)

for name in ("bfloat16", "float32", "int8", "uint16"):
    y = twice(jnp.ones(3, getattr(jnp, name)))
# ---
def cumulative(x):
    total, steps = jax.lax.scan(lambda c, t: (c + t, c), jnp.zeros_like(x[0]), x)
    return total, steps

for name in ("float16", "float32", "int16"):
    total, steps = cumulative(jnp.ones((4, 3), getattr(jnp, name)))
# ---
def doubled(x):
    return jax.lax.cond(x.shape[0] > 2, lambda v: v * 2, lambda v: jnp.zeros_like(v), x)

for name in ("bfloat16", "int32", "uint8"):
    y = doubled(jnp.ones(3, getattr(jnp, name)))
# ---
def chosen(x, k):
    return jax.lax.switch(k, [lambda v: v + 1, lambda v: v - 1, lambda v: -v], x)

for name in ("float16", "int8"):
    y = chosen(jnp.ones(3, getattr(jnp, name)), 1)
# ---
def counted(x):
    steps, value = jax.lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2), (0, x))
    return value

for name in ("bfloat16", "int32"):
    y = counted(jnp.ones(3, getattr(jnp, name)))
# ---
def mapped(x):
    return jax.lax.map(lambda row: row * 3, x)

for name in ("float32", "int8"):
    y = mapped(jnp.ones((2, 3), getattr(jnp, name)))
# ---
# A carry the body hands back unchanged is the initial value itself, whatever its library.
def kept(x):
    return jax.lax.fori_loop(0, 3, lambda i, c: c, x)

y = kept(f32)
y2 = kept(a_f32)
y3 = kept(2.5)
# ---
# A strong NumPy float64 meets what the loop gives: 64-bit for every float under x64 (blackjax).
# (Strict promotion refuses bfloat16 with it; reveal describes the members that go on.)
# oracle: modes=x64off,x64on
def floored(x):
    t = jax.lax.fori_loop(0, 3, lambda i, c: c * 2, x)
    return jnp.maximum(t, 1 / np.log10(x.shape[0]))

for name in ("bfloat16", "float32"):
    y = floored(jnp.ones(3, getattr(jnp, name)))
# ---
# A carry that is a tuple of parameters: the body unpacks it and gets each element as it is.
# (Strict mode refuses float16 + int8: the engine claims what holds where the code goes on.)
# oracle: modes=x64off,x64on
def stepped(key, x):
    def body(carry, i):
        key, x = carry
        return (key, x), x * 2 + i
    (key, x), ys = jax.lax.scan(body, (key, x), jnp.arange(3, dtype=jnp.int8))
    return ys

for name in ("float16", "int8", "int32"):
    ys = stepped(jax.random.PRNGKey(0), jnp.ones(3, getattr(jnp, name)))
# ---
# A field of a pytree carried through a scan is the field traced (craftax's `state.zombies`).
from typing import NamedTuple


class Mobs(NamedTuple):
    cooldown: jax.Array


def cooled(key, state):
    def body(carry, i):
        key, state = carry
        return (key, state), state.cooldown[i] - 1
    _, ys = jax.lax.scan(body, (key, state), jnp.arange(2))
    return ys

for name in ("int16", "uint8", "float32"):
    ys = cooled(jax.random.PRNGKey(0), Mobs(jnp.ones(2, getattr(jnp, name))))
# ---
# A field of a field of the carried object: craftax's `state.zombies.attack_cooldown`.
from typing import NamedTuple


class Zombies(NamedTuple):
    cooldown: jax.Array


class World(NamedTuple):
    zombies: Zombies


def cooled_down(key, state):
    def body(carry, i):
        key, state = carry
        zombies = state.zombies
        return (key, state), zombies.cooldown[i] - 1
    _, ys = jax.lax.scan(body, (key, state), jnp.arange(2))
    return ys

for name in ("int8", "uint16", "float16"):
    ys = cooled_down(jax.random.PRNGKey(0), World(Zombies(jnp.ones(2, getattr(jnp, name)))))
# ---
# An object in a while_loop's carry beside arrays of unknown dtype: the body reads its fields
# (mctx's `backward`, whose `tree` travels with the leaf's value and index).  JAX promotes no
# field here; the body's reads are the fields as the loop got them.
from typing import NamedTuple


class Tree(NamedTuple):
    parents: jax.Array
    node_values: jax.Array


def backward(tree: Tree, leaf_index):
    def body(loop_state):
        tree, leaf_value, index = loop_state
        parent = tree.parents[index]
        value = tree.node_values[parent] + leaf_value
        return tree._replace(node_values=tree.node_values.at[parent].set(value)), value, parent

    leaf_index = jnp.asarray(leaf_index, dtype=jnp.int32)
    state = (tree, tree.node_values[leaf_index], leaf_index)
    tree, value, index = jax.lax.while_loop(lambda s: s[2] != 0, body, state)
    return tree.node_values, value

for name in ("bfloat16", "float32", "int16"):
    values, value = backward(Tree(jnp.array([0, 0, 1], jnp.int32), jnp.ones(3, getattr(jnp, name))), 2)
# ---
# A weak field of a carried object that the body makes a float: JAX traces the body again with
# the field promoted, so its read is a weak int once and float32 after (the engine: unknown;
# it claimed the weak int when it ran the body on the object as it got it).
from typing import NamedTuple


class Counter(NamedTuple):
    total: object
    steps: object


def counted_object(x):
    def body(carry):
        counter, y = carry
        return Counter(counter.total + jnp.float32(1.5), counter.steps + 1), y * 2
    start = Counter(jnp.asarray(1), jnp.int32(0))
    counter, y = jax.lax.while_loop(lambda c: c[0].steps < 3, body, (start, x))
    return counter.total, y

for name in ("float16", "int32"):
    total, y = counted_object(jnp.ones(3, getattr(jnp, name)))
# ---
# A scan's body replaces the carried object (craftax's mobs, flax's `state.replace`): the object
# is no array JAX promotes, so both traces read its fields as the object passed holds them.
from typing import NamedTuple


class Herd(NamedTuple):
    cooldown: jax.Array

    def replace(self, **fields):
        return self._replace(**fields)


class Field(NamedTuple):
    herd: Herd

    def replace(self, **fields):
        return self._replace(**fields)


def herded(key, state):
    def body(carry, i):
        key, state = carry
        herd = state.herd
        cooldown = herd.cooldown[i] - 1
        return (key, state.replace(herd=herd.replace(cooldown=herd.cooldown.at[i].set(cooldown)))), cooldown
    (key, state), ys = jax.lax.scan(body, (key, state), jnp.arange(2))
    return ys

for name in ("int8", "uint16", "float16"):
    ys = herded(jax.random.PRNGKey(0), Field(Herd(jnp.ones(2, getattr(jnp, name)))))
# ---
# A loop after one that gave the object back: the fields neither body replaces are the ones the
# first loop received (craftax's skeleton scan after its zombie scan).  The class, hidden from
# the engine, makes `state` a variable of its own.
import types
from typing import NamedTuple


class Herd(NamedTuple):
    cooldown: jax.Array

    def replace(self, **fields):
        return self._replace(**fields)


class Pasture(NamedTuple):
    herd: Herd
    flock: jax.Array

    def replace(self, **fields):
        return self._replace(**fields)


def herded_twice(key, state):
    def body(carry, i):
        key, state = carry
        herd = state.herd
        return (key, state.replace(herd=herd.replace(cooldown=herd.cooldown.at[i].set(herd.cooldown[i] - 1)))), None
    (key, state), _ = jax.lax.scan(body, (key, state), jnp.arange(2))
    (key, state), _ = jax.lax.scan(body, (key, state), jnp.arange(2))
    return state.flock, state.flock[0] - 1

pasture = getattr(types.SimpleNamespace(make=Pasture), "make")
for name in ("int8", "uint16", "float16"):
    flock, first = herded_twice(jax.random.PRNGKey(0), pasture(Herd(jnp.ones(2, jnp.int32)),
                                                               jnp.ones(2, getattr(jnp, name))))
# ---
# A body that returns its carry in another structure raises whatever the dtypes are (a variable
# leaf without a counterpart in what the body returns crashed the analysis of 22 primer projects).
def shortened(x):
    carry, ys = jax.lax.scan(lambda c, t: ((c[0],), t), (x, x), jnp.arange(3))
    return ys

for name in ("float32", "int8"):
    ys = shortened(jnp.ones(3, getattr(jnp, name)))
# ---
# JAX traces the condition again on the carry the body promotes: the weak 1.0 times a complex64
# is a strong complex64 there, not only the weak float32 of the first trace.
def power(v):
    def cond(c):
        return c[0].real < 3

    def body(c):
        return (jnp.vdot(v, v) * c[0], c[1] + 1)

    return jax.lax.while_loop(cond, body, (jnp.array(1.0), 0))

for name in ("complex64", "float32"):
    y = power(jnp.ones(3, getattr(jnp, name)))
