# Local functions (annotations, call-site seeds), jax.jit, vmap, lambdas.
def scale(x):
    return x * 2.0

y = scale(i8)
# ---
def scale(x):
    return x * 2.0

y = scale(f16)
z = scale(a_f32)
# ---
def affine(x, w, b0=0.0):
    return x * w + b0

y = affine(f32, 2)
z = affine(i8, 3, b0=1)
# ---
def f(x: jax.Array) -> jax.Array:
    return jnp.sin(x)

y = f(f16)
# ---
def norm(v: np.ndarray):
    return np.sqrt(np.sum(v * v))

n = norm(a_f32)
# ---
def g(n: int):
    return n * 2

y = g(3)
# ---
def g(t: float) -> float:
    return t / 2

y = g(1.0)
z = f32 * g(3.0)
# ---
def pair(x):
    return x, x + 1

a, b1 = pair(i8)
# ---
def choose(x, flag):
    if flag:
        return x
    return x * 1.5

y = choose(f16, True)
# ---
@jax.jit
def step(x):
    return x * 2.0 + 1

y = step(i8)
# ---
# J30
y = jax.jit(lambda x: x * 2.0)(i8)
# ---
@jax.jit
def loss(w, x):
    pred = x @ w
    return jnp.mean((pred - 1.0) ** 2)

value = loss(m_f32, m_f32)
# ---
@jax.jit
def update(p, g):
    return p - 0.01 * g

p = update(f32, f16)
# ---
from functools import partial

@partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n

y = power(f32, 3)
# ---
def body(x):
    return jnp.tanh(x) + 1

batched = jax.vmap(body)(m_f32)
# ---
sq = lambda v: v * v
y = sq(f16)
z = sq(3)
# ---
add_one = lambda v: v + 1
y = add_one(i8)
# ---
def outer(x):
    def inner(y):
        return y + 1.0
    return inner(x) * 2

z = outer(bf16)
# ---
def f(x):
    y = x.astype(jnp.float32)
    y = y / y.sum()
    return y

out = f(i8)
# ---
def normalize(x):
    mu = x.mean()
    return (x - mu) / (x.std() + 1e-6)

z = normalize(f16)
# ---
def relu(x):
    return jnp.maximum(x, 0)

y = relu(f32)
z = relu(i8)
# ---
def mse(pred, target):
    return ((pred - target) ** 2).mean()

e = mse(a_f32, a64)
# ---
def count(xs):
    total = 0
    for v in xs:
        total = total + v
    return total

c = count([1, 2, 3])
# ---
def cast(x, dtype=jnp.float16):
    return x.astype(dtype)

y = cast(f32)
# ---
def first(x):
    return x[0]

y = first(a_i8)
z = first(f16)
# ---
@jax.jit
def f(x):
    return jnp.where(x > 0, x, 0.0)

y = f(i8)
# ---
@jax.jit
def f(x):
    return x.sum()

y = f(u8)
# ---
grad = jax.grad(lambda w: jnp.sum(w * w))(f32)
# ---
def apply(fn, x):
    return fn(x)

y = apply(jnp.sin, f32)
# ---
def make():
    return jnp.zeros(3, jnp.int16)

z = make() + 1
# ---
def f(x: float):
    return jnp.asarray(x) * 2

y = f(1.5)
# ---
def f(x: "jax.Array"):
    return x + 1

y = f(f32)
# ---
def cond_sum(x):
    def true_fn(v):
        return v * 2
    def false_fn(v):
        return v - 1
    return jax.lax.cond(True, true_fn, false_fn, x)

y = cond_sum(f32)
# ---
def loop(x):
    return jax.lax.fori_loop(0, 3, lambda i, v: v * 0.5, x)

y = loop(f32)
# ---
# A nested function reads its enclosing function's variables when it runs.
def outer(x):
    scale = x * 2
    def inner(v):
        return v + scale
    first = inner(f16)
    scale = x.astype(jnp.float32)
    second = inner(f16)
    return first, second

a, b = outer(i8)
# ---
def weighted(x, w):
    return jax.lax.cond(True, lambda v: v * w, lambda v: w - v, x)

y = weighted(f32, 2.0)
y2 = weighted(bf16, 0.5)
