# Casts of values of unknown dtype (parameters called with several libraries: a variable).
# The cast's dtype is the requested one whatever the receiver's library is.
def cast(v):
    return v.astype(np.int32)

y = cast(f32)
y2 = cast(a_f16)
y3 = cast(np.float64(2.0))
# ---
def counts(v):
    return np.bincount(v).astype(np.int32) / np.float32(3)

y = counts(a_i8)
y2 = counts(u8)
y3 = counts(a_b)
# ---
def to_f32(v):
    return jnp.asarray(v, dtype=jnp.float32), jnp.array(v, jnp.int16), np.asarray(v, dtype=np.float32)

y = to_f32(a_i64)
y2 = to_f32(i8)
y3 = to_f32(2.5)
# ---
# oracle: modes=x64off,x64on
def mixed(x, v):
    return jnp.asarray(x, jnp.float32) + jnp.asarray(v, jnp.int32)

y = mixed(a_i64, b)
y2 = mixed(f16, a_f32)
# ---
# oracle: modes=strict
def mixed(x, v):
    return jnp.asarray(x, jnp.float32) + jnp.asarray(v, jnp.int32)

y = mixed(a_i64, b)
# ---
def narrow(x):
    return x.astype("float16"), x.astype(jnp.bfloat16)

y = narrow(c64)
y2 = narrow(a_u32)
# ---
y = np.bincount(a_u8)
y2 = jnp.bincount(i8)
y3 = np.bincount(a_i16, weights=a_f32)
y4 = np.bincount(a_f32)
# ---
y = jnp.bincount(f32)
# ---
y = np.bincount(3)
