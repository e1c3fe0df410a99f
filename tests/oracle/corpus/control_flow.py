# lax's control flow: loops run their body with the carry, branches with the operands.
# J-carry: the body must return the carry's dtypes; weak initial values are promoted once.
y = jax.lax.fori_loop(0, 3, lambda i, c: c * 0.5, f32)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c + 1, 0)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c + i, 0)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c + jnp.int32(1), 0)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c + 1.5, 0)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c + jnp.float32(1), 0.0)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c + jnp.ones((), jnp.float32), jnp.asarray(0.0))
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: jnp.asarray(0.0), jnp.float32(1))
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c.astype(jnp.float16), f32)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c * np.float64(2), f32)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c + 1, i8)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c * 2, a64)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c * 2, a_f32)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: c, True)
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: (c[0] + 1, c[1] * 2.0), (0, f32))
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: (c[0] + 0.5, c[1]), (0, f32))
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: (c[0], c[1]), [f32, f32])
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: (c[0], c[1].astype(jnp.int8)), (f32, f32))
# ---
def body(i, carry):
    total, count = carry
    return total + jnp.float32(i), count + 1

total, count = jax.lax.fori_loop(0, 4, body, (0.0, 0))
# ---
def body(i, acc):
    return acc + jnp.sin(acc) * 0.1

def run(x):
    return jax.lax.fori_loop(0, 5, body, x)

y = run(f32)
z = run(bf16)
# ---
def body(i, acc):
    return acc.astype(jnp.float32) * 2

def run(x):
    return jax.lax.fori_loop(0, 5, body, x)

y = run(f32)
z = run(f16)
# ---
y = jax.lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2), (0, f32))
# ---
y = jax.lax.while_loop(lambda c: c < 3, lambda c: c + jnp.int32(1), 0)
# ---
y = jax.lax.while_loop(lambda c: c < 3, lambda c: c + 1.5, 0)
# ---
y = jax.lax.while_loop(lambda c: c < 3, lambda c: jnp.asarray(5.0), jnp.float32(0))
# ---
y = jax.lax.while_loop(lambda c: c < 3, lambda c: c + jnp.float16(1), jnp.float32(0))
# ---
y = jax.lax.while_loop(lambda c: c, lambda c: c - 1, 3)
# ---
y = jax.lax.while_loop(lambda c: c * 1.0, lambda c: c - 1, 3)
# ---
def cond_fun(state):
    step, _ = state
    return step < 10

def body_fun(state):
    step, x = state
    return step + 1, x - 0.1 * jnp.tanh(x)

steps, x = jax.lax.while_loop(cond_fun, body_fun, (0, f32))
# ---
carry, ys = jax.lax.scan(lambda c, x: (c + x, c * 2), f32, jnp.ones((2, 3), jnp.float32))
# ---
carry, ys = jax.lax.scan(lambda c, x: (c + x, c), 0.0, jnp.ones(2, jnp.float32))
# ---
carry, ys = jax.lax.scan(lambda c, x: (c + x, c), 0, jnp.ones(2, jnp.float32))
# ---
carry, ys = jax.lax.scan(lambda c, x: (jnp.asarray(1.0), c), jnp.float32(0), None, length=2)
# ---
carry, ys = jax.lax.scan(lambda c, x: (c + x, x), f32, jnp.ones((2, 3), jnp.float16))
# ---
carry, ys = jax.lax.scan(lambda c, x: (c, 1.0), f32, None, length=2)
# ---
carry, ys = jax.lax.scan(lambda c, x: (c, x * 2.0), f32, jnp.full((2,), 1.0))
# ---
carry, ys = jax.lax.scan(lambda c, x: (c, x), f32, np.ones((2, 3)))
# ---
carry, ys = jax.lax.scan(lambda c, x: (c, x[1]), f32, (jnp.ones(2), jnp.ones(2, jnp.int8)))
# ---
carry, ys = jax.lax.scan(lambda c, x: (c * x, None), f32, jnp.ones(2))
# ---
carry, ys = jax.lax.scan(lambda c, x: (c.astype(jnp.bfloat16), x), f32, jnp.ones(2))
# ---
def step(h, x):
    h = jnp.tanh(h @ m_f32 + x)
    return h, h.sum()

h, outs = jax.lax.scan(step, jnp.zeros(2, jnp.float32), jnp.ones((4, 2), jnp.float32))
# ---
def step(h, x):
    h = h * 0.9 + x
    return h, h

h, outs = jax.lax.scan(step, jnp.zeros(2, jnp.bfloat16), jnp.ones((4, 2), jnp.float32))
# ---
ys = jax.lax.map(lambda x: x * 2.0, f32)
ys2 = jax.lax.map(lambda x: x.astype(jnp.int8), m_f32)
ys3 = jax.lax.map(lambda x: 1.0, f32)
# ---
# J-branches: equal output types; the result is the first branch's (false_fun for cond).
y = jax.lax.cond(True, lambda x: x * 2, lambda x: x - 1, f32)
# ---
y = jax.lax.cond(True, lambda x: x, lambda x: x.astype(jnp.float16), f32)
# ---
y = jax.lax.cond(jnp.array(True), lambda x: x, lambda x: jnp.full(3, 1.0), f32)
# ---
y = jax.lax.cond(jnp.array(True), lambda x: jnp.full(3, 1.0), lambda x: x, f32)
# ---
y = jax.lax.cond(True, lambda: 1.0, lambda: 2.0)
# ---
y = jax.lax.cond(True, lambda: 1.0, lambda: 2)
# ---
y = jax.lax.cond(True, lambda: jnp.int32(1), lambda: 2)
# ---
y = jax.lax.cond(True, lambda: jnp.int8(1), lambda: 2)
# ---
y = jax.lax.cond(True, lambda x: (x, x), lambda x: (x, x.astype(jnp.int32)), f32)
# ---
y = jax.lax.cond(True, lambda x: x, lambda x: x, 1.0)
# ---
y = jax.lax.cond(True, lambda x: x, lambda x: x * 1.5, 1)
# ---
y = jax.lax.cond(True, lambda x: x, lambda x: x, a64)
# ---
y = jax.lax.cond(True, lambda x: x, lambda x: x, operand=f16)
# ---
y = jax.lax.cond(True, lambda x, z: x + z, lambda x, z: x - z, f32, f32)
# ---
y = jax.lax.cond(True, lambda x: (x, x), lambda x: [x, x], f32)
# ---
def true_fn(x):
    return x * 2

def false_fn(x):
    return jnp.zeros_like(x)

y = jax.lax.cond(True, true_fn, false_fn, bf16)
z = jax.lax.cond(True, true_fn, false_fn, 3.0)
# ---
def safe_log(x):
    return jax.lax.cond(True, lambda v: jnp.log(v), lambda v: jnp.zeros(3), x)

y = safe_log(f32)
z = safe_log(f16)
# ---
y = jax.lax.switch(1, [lambda x: x, lambda x: x * 2], f32)
# ---
y = jax.lax.switch(1, [lambda x: x, lambda x: x.astype(jnp.int32)], f32)
# ---
y = jax.lax.switch(1, [lambda x: x, lambda x: jnp.full(3, 1.0)], f32)
# ---
y = jax.lax.switch(0, [lambda: 1.0, lambda: 2.0])
# ---
y = jax.lax.switch(0, (lambda: 1.0, lambda: 2.0))
# ---
y = jax.lax.switch(0.0, (lambda: 1.0, lambda: 2.0))
# ---
y = jax.lax.switch(0, [lambda x: x.astype(jnp.int8)], f32)
# ---
y = jax.lax.switch(2, [jnp.sin, jnp.cos, jnp.tanh], f16)
# ---
# Dicts are pytrees (their keys sorted): carries, branches and tree_map see each entry.
y = jax.lax.fori_loop(0, 3, lambda i, c: {"w": c["w"] * 2, "b": c["b"] + 1}, {"w": f32, "b": 0.5})
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: {"w": c["w"].astype(jnp.float16), "b": c["b"]}, {"w": f32, "b": 0.5})
# ---
y = jax.lax.fori_loop(0, 3, lambda i, c: {"b": c["b"] * 1.5, "a": c["a"]}, {"a": f32, "b": 0})
# ---
y = jax.lax.cond(True, lambda d: d, lambda d: {"w": d["w"], "b": jnp.float32(1)}, {"w": f32, "b": 0.5})
# ---
y = jax.lax.cond(True, lambda d: {"w": d["w"]}, lambda d: {"v": d["w"]}, {"w": f32})
# ---
out = jax.tree_util.tree_map(lambda p: p * 2, {"w": f32, "b": 0.5})
# ---
# A carry whose dtype does not depend on the parameter it is made from.
def settle(x):
    return jax.lax.fori_loop(0, 3, lambda i, c: c.astype(jnp.int8), jnp.asarray(x, jnp.float32))

y = settle(bf16)
# ---
def halve(x):
    return jax.lax.fori_loop(0, 3, lambda i, c: c / 2, x)

y = halve(f16)
z = halve(i32)
