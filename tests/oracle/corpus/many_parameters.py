# Functions of several parameters of unknown dtype (called with different dtypes, so their bodies
# are analysed for every member): far too many assignments to weigh each, yet a value computed
# from casts, shapes and comparisons has a few outcomes whatever the parameters are.
def cast_sum(x, w):
    return x.astype(jnp.float32) + w.astype(jnp.float32)

y = cast_sum(np.ones(3), jnp.ones(3, jnp.int8))
y2 = cast_sum(jnp.ones(3, jnp.int16), np.ones(3, np.uint8))
y3 = cast_sum(jnp.ones(3, jnp.int16), jnp.ones(3, jnp.bfloat16))
y4 = cast_sum(np.ones(3, np.float16), np.ones(3, np.int32))
# ---
def cast_dot(x, w):
    h = jnp.dot(x.astype(jnp.float32), w.astype(jnp.float32))
    g = h * 2
    return g + 1.0, jnp.sum(h), h > 0, jnp.add(x.astype(jnp.float32), w.astype(jnp.float32))

y = cast_dot(np.ones(3), jnp.ones(3, jnp.int8))
y2 = cast_dot(jnp.ones(3, jnp.float16), np.ones(3, np.uint8))
y3 = cast_dot(jnp.ones(3, jnp.int32), jnp.ones(3, jnp.bfloat16))
# ---
def requested(x, w, n):
    z = jnp.asarray(x, jnp.float32) * jnp.asarray(w, jnp.int8)
    return z + x.shape[0] + jnp.zeros(n), np.asarray(x, np.float32) + np.asarray(w, np.float16)

y = requested(np.ones(3), jnp.ones(3, jnp.int8), 3)
y2 = requested(jnp.ones(2, jnp.float16), np.ones(2, np.uint8), np.int32(2))
y3 = requested(np.ones(4, np.int64), 2.0, jnp.int32(4))
# ---
def compared(x, w):
    mask = (x > 0) & (w < 1)
    picked = jnp.where(mask, jnp.asarray(w, jnp.float16), jnp.asarray(x, jnp.bfloat16))
    return mask, picked, jnp.sum(mask), picked * 2

y = compared(np.ones(3), jnp.ones(3, jnp.int8))
y2 = compared(jnp.ones(3, jnp.float16), np.ones(3, np.uint8))
y3 = compared(jnp.ones(3, jnp.int32), 0.5)
# ---
def three(x, w, v):
    half = jnp.asarray(x, jnp.float16) + jnp.asarray(w, jnp.float16)
    return half * jnp.asarray(v, jnp.bfloat16), half, jnp.asarray(v, jnp.int32) + jnp.asarray(x, jnp.uint8)

y = three(np.ones(3), jnp.ones(3, jnp.int8), np.ones(3, np.float32))
y2 = three(jnp.ones(3, jnp.float16), 1, jnp.ones(3, jnp.bfloat16))
y3 = three(jnp.ones(3, jnp.int32), np.float32(2), 3.0)
# ---
def kept_and_cast(x, w):
    # the first operand keeps x's dtype: no single dtype for every member
    return x * 2 + w.astype(jnp.float32), jnp.asarray(x, jnp.float32) - jnp.asarray(w, jnp.float32)

y = kept_and_cast(np.ones(3, np.float32), jnp.ones(3, jnp.int8))
y2 = kept_and_cast(jnp.ones(3, jnp.float16), np.ones(3, np.uint8))
y3 = kept_and_cast(jnp.ones(3, jnp.int32), jnp.ones(3, jnp.float32))
# ---
def accumulated(x, w):
    acc = jnp.zeros(3, jnp.float32)
    for i in range(x.shape[0]):
        acc = acc + jnp.asarray(w, jnp.float32) * x.astype(jnp.float32)[i]
    return acc

y = accumulated(np.ones(3), jnp.ones(3, jnp.int8))
y2 = accumulated(jnp.ones(2, jnp.float16), np.ones(3, np.uint8))
y3 = accumulated(jnp.ones(3, jnp.int32), jnp.ones(3, jnp.bfloat16))
