# Values that keep the dtype of a parameter of unknown dtype but not its weak flag or library:
# reveal says "the dtype of x" with the flag and library they have whatever x is.
def to_numpy(x):
    return np.asarray(x), np.array(x), np.copy(x)

y = to_numpy(f32)
y2 = to_numpy(a_i8)
y3 = to_numpy(2.5)
y4 = to_numpy(np.float16(1.0))
y5 = to_numpy(7)
# ---
# (called with several libraries, a parameter is a variable rather than a set of candidates)
def like(x):
    return jnp.zeros((2,), dtype=x.dtype), jnp.asarray(1.0, dtype=x.dtype), jnp.full((3,), 2, x.dtype)

y = like(f32)
y2 = like(jnp.asarray(1.5))
y3 = like(a_u8)
y4 = like(s_f16)
# ---
def cast_like(w):
    return a_f32.astype(w.dtype), np.zeros(3, dtype=w.dtype), np.empty_like(a_i8, dtype=w.dtype)

y = cast_like(a_i16)
y2 = cast_like(bf16)
y3 = cast_like(s_b)
# ---
def kept_through_numpy(x):
    n = np.asarray(x)
    return n.reshape(-1), n[0:1], n.T, n.copy()

y = kept_through_numpy(f16)
y2 = kept_through_numpy(a_i32)
y3 = kept_through_numpy(3)
