# Python scalars converted to a requested dtype (calls._out_of_bounds), one refusal each, and
# Python ints out of a NumPy ufunc's promoted dtype.
y = np.asarray(1j, dtype=np.int8)
# ---
y = jnp.asarray(1j, dtype=float)
# ---
y = np.array([1j, 2], dtype=np.float32)
# ---
y = np.asarray(1e3, dtype=np.int8)
# ---
y = jnp.asarray(-1.5, dtype=np.uint8)
# ---
y = np.asarray(1e3, dtype=jnp.int4)
# ---
y = np.asarray(100, dtype=jnp.int4)
y2 = np.asarray(1j, dtype=bool)
y3 = np.asarray(1.5, dtype=np.int8)
y4 = jnp.asarray(1e3, dtype=np.int32)
# ---
y = np.multiply(np.int8(1), 1000)
# ---
y = np.maximum(a_u8, -1)
# ---
y = np.add(a_i8, 100)
y2 = 1j == np.float64(1)
y3 = 1j != s_f64
y4 = np.float64(1) == 1j
# ---
y = (2**40 << 1) / f32
