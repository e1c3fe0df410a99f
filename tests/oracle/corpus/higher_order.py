# Functions of functions: jax.grad and value_and_grad, the transformations that keep what a
# function computes (vmap, pmap, checkpoint, custom_jvp/custom_vjp), tree_map, functools.partial.
g = jax.grad(lambda w: jnp.sum(w * w))(f16)
# ---
g = jax.grad(lambda w: jnp.sum(w.astype(jnp.float32)))(bf16)
g2 = jax.grad(lambda w: jnp.sum(w.astype(jnp.float16)))(f32)
# ---
g = jax.grad(lambda w: w * w)(1.0)
# ---
g = jax.grad(lambda w: jnp.sum(w * w))(jnp.full(3, 1.0))
# ---
g = jax.grad(lambda w: jnp.sum(w * w))(a64)
# ---
g = jax.grad(lambda w: jnp.sum(w * 1.0))(i32)
# ---
g = jax.grad(lambda w: w * 1.0)(1)
# ---
g = jax.grad(lambda a, c: jnp.sum(a * c), argnums=1)(f32, f16)
# ---
ga, gc = jax.grad(lambda a, c: jnp.sum(a * c), argnums=(0, 1))(f32, f16)
# ---
g = jax.grad(lambda w: jnp.sum(w).astype(jnp.int32))(f32)
# ---
g = jax.grad(lambda w: w * 2)(f32)
# ---
g, aux = jax.grad(lambda w: (jnp.sum(w * w), w.astype(jnp.int8)), has_aux=True)(f32)
# ---
gp, gq = jax.grad(lambda p: jnp.sum(p[0]) + jnp.sum(p[1]))((f32, f16))
# ---
value, g = jax.value_and_grad(lambda w: jnp.sum(w * w))(f32)
# ---
value, g = jax.value_and_grad(lambda w: jnp.sum(w.astype(jnp.float32)))(f16)
# ---
value, g = jax.value_and_grad(lambda w: w * 2.0)(3.0)
# ---
(value, aux), g = jax.value_and_grad(lambda w: (jnp.sum(w), w * 2), has_aux=True)(bf16)
# ---
def loss(params, x):
    w, b0 = params
    return jnp.mean((x @ w + b0) ** 2)

grads = jax.grad(loss)((m_f32, f32[:2]), m_f32)
grad_w, grad_b = grads
# ---
def loss(w, x):
    return jnp.sum((x * w) ** 2)

step = jax.jit(jax.value_and_grad(loss))
value, g = step(f32, f32)
# ---
y = jax.vmap(lambda x: x * 2.0)(f32)
y2 = jax.vmap(lambda x: x * 2.0)(a64)
y3 = jax.vmap(lambda x: 1.0)(f32)
y4 = jax.vmap(lambda x: x)(jnp.full(3, 1.0))
# ---
y = jax.vmap(lambda x, s: x * s, in_axes=(0, None))(f32, 2.0)
# ---
y = jax.vmap(lambda x, s: x * s, in_axes=(0, None))(f16, a64)
# ---
y = jax.vmap(lambda x, s: x * s, (0, None))(f16, 3)
# ---
y = jax.checkpoint(lambda x: x * 2.0)(f32)
y2 = jax.checkpoint(lambda x: x * 2.0)(2.0)
y3 = jax.remat(lambda x: x * 2.0)(f16)
# ---
@jax.checkpoint
def block(x):
    return jnp.tanh(x) * 0.5

y = block(bf16)
z = block(1.0)
# ---
@jax.custom_jvp
def cj(x):
    return x * 2.0

@cj.defjvp
def cj_jvp(primals, tangents):
    return cj(primals[0]), tangents[0] * 2.0

y = cj(f16)
z = cj(2.0)
# ---
@jax.custom_vjp
def cv(x):
    return x * 2.0

def cv_fwd(x):
    return cv(x), None

def cv_bwd(res, g):
    return (g * 2.0,)

cv.defvjp(cv_fwd, cv_bwd)
y = cv(f16)
z = cv(2.0)
# ---
y = jax.pmap(lambda x: x * 2.0)(jnp.ones((1, 3), jnp.float16))
y2 = jax.pmap(lambda x: x * 2.0)(np.ones((1, 3)))
# ---
y = jax.jit(lambda x: 1.0)(f32)
y2 = jax.jit(lambda x: x)(1.0)
# ---
from functools import partial

def scale(x, s):
    return x * s

y = partial(scale, s=0.5)(f16)
y2 = jax.jit(partial(scale, s=0.5))(f16)
y3 = partial(scale, a_f32)(2)
# ---
from functools import partial

y = partial(jnp.sum, axis=0)(f16)
y2 = partial(jax.lax.add, f32)(f16)
y3 = partial(jnp.where, b)(f32, 0.0)
# ---
import functools

@functools.partial(jax.jit, static_argnums=(1,))
def power(x, n):
    return x ** n

y = power(f32, 3)
# ---
from functools import partial

def apply(x, n):
    return x * n

jitted = partial(jax.jit, static_argnums=1)(apply)
y = jitted(f16, 2)
# ---
t = jax.tree_util.tree_map(lambda p: p * 0.5, (f32, i32))
t0, t1 = t
# ---
t = jax.tree.map(lambda p, g: p - 0.1 * g, (f32, f16), (f32, f16))
t0, t1 = t
# ---
t = jax.tree.map(lambda p: p * 0.5, [1, 2.0])
t0, t1 = t
# ---
t = jax.tree.map(lambda p: p * 0.5, [a64])
t0, = t
# ---
t = jax.tree.map(jnp.sqrt, (f16, (i8, bf16)))
t0, (t1, t2) = t
# ---
params = (m_f32, f32)
grads = (m_f16, f16)
new = jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)
w_new, b_new = new
# ---
leaves = jax.tree_util.tree_leaves((f32, [f16, None, i8]))
first = leaves[0]
third = leaves[2]
# ---
t = jax.tree.map(lambda p: p.astype(jnp.bfloat16), (f32, None))
t0, t1 = t
# ---
xq, x, fv = map(jnp.asarray, (f16, a64, 2.0))
# ---
u, v = map(lambda p, q: p * q, (i8, 2.0), [np.float16(1), 3])
# ---
def widened(p):
    return p.astype(jnp.result_type(p, 1.0))

w0, w1, w2 = map(widened, [i32, bf16, a64])
# ---
m0, = map(lambda p, q: p + q, (u8, 2.5), (i8,))  # as far as the shortest goes
# ---
# jax.jvp: each tangent has its primal's dtype (weak or not), else TypeError.
out, tangent = jax.jvp(lambda x: x * 2.0, (f32,), (f32,))
# ---
out, tangent = jax.jvp(jnp.sin, (jnp.linspace(0.0, 1.0, 3),), (f32,))
# ---
out, tangent = jax.jvp(lambda x: x * 2.0, (f32,), (jnp.ones(3),))
# ---
out, tangent = jax.jvp(lambda a, s: a * s, (f16, 2.0), (f16, 1.0))
# ---
out, tangent = jax.jvp(lambda a: a.astype(jnp.bfloat16), (a64,), (a64,))
# ---
out, tangent = jax.jvp(lambda x: jnp.sum(x), (i32,), (f32,))
# ---
# jnp.vectorize: the function of its positional arguments converted with jnp.asarray (interpax's
# `jnp.vectorize(jnp.matmul, signature=...)`, dynamiqs' `@partial(jnp.vectorize, excluded={1})`).
from functools import partial

A_CUBIC = np.array([[1, 0], [0, 1]])
F = jnp.ones((3, 2), jnp.float32)
coef = jnp.vectorize(jnp.matmul, signature="(n,n),(n)->(n)")(A_CUBIC, F)
scaled = jnp.vectorize(lambda x, y: x * y)(F, 2.0)
weak = jnp.vectorize(lambda x: x)(2.0)
halves = jnp.vectorize(lambda x: x / 2)(np.arange(3))


@partial(jnp.vectorize, signature="(n)->(n,n)", excluded={1})
def diag(v, offset):
    return jnp.diag(v, offset) * 1.5


diagonal = diag(F, 0)
