# JAX predicates and index functions of operands nothing is known of (an object's attributes,
# the engine does not model SimpleNamespace): a bool whatever they are (weak where the predicate
# of a weak value is), the default int for indices.
import types

o = types.SimpleNamespace(x=f32, w=1.5, n=2, a=a_f16, k=i8, c=c64, m=m_f32)
a = jnp.isnan(o.x)
b = jnp.isnan(o.w)
c = jnp.isfinite(o.n)
d = jnp.isinf(o.w)
e = jnp.logical_not(o.w)
f = jnp.logical_not(o.a)
g = jnp.isneginf(o.k)
h = jnp.signbit(o.w)
k = jnp.isposinf(o.x)
m = jnp.argmax(o.x)
n = jnp.argmin(o.w)
p = jnp.argsort(o.a)
q = jnp.count_nonzero(o.k)
r = jnp.flatnonzero(o.m)
s = jnp.argwhere(o.m)
t = jnp.searchsorted(f32, o.w)
u = jnp.isfinite(jnp.asarray(o.w))
v = jnp.isnan(o.c)
w = ~jnp.isnan(o.x) & jnp.isfinite(o.x)
# ---
# oracle: modes=x64off,x64on
# Two operands of unknown dtypes: without strict promotion they always combine.
import types

o = types.SimpleNamespace(x=f32, w=1.5, n=2, a=a_f16, k=i8)
a = jnp.logical_and(o.x, o.k)
b = jnp.logical_or(o.w, o.n)
c = jnp.logical_xor(o.w, o.w)
d = jnp.isclose(o.x, o.a)
e = jnp.isin(o.k, o.x)
f = jnp.logical_and(o.w, 1.5)
g = jnp.logical_or(b, o.x)
h = jnp.less(o.x, o.k)
k = jnp.greater(o.w, 1.5)
m = jnp.equal(o.n, o.w)
n = jnp.not_equal(f32, o.w)
p = jnp.less_equal(o.a, i8)
q = jnp.greater_equal(2, o.k)
r = jnp.less(o.w, f32) | jnp.equal(o.x, o.x)
s = jnp.logical_or(jnp.isnan(1.5), o.w)
t = jnp.logical_and(jnp.isnan(1.5), o.k)
# ---
# oracle: modes=strict
# Strict promotion refuses two operands of different dtypes: no claim of two, one is a bool.
import types

o = types.SimpleNamespace(x=f32, k=i8)
a = jnp.logical_and(o.x, o.x)
b = jnp.isnan(o.k)
