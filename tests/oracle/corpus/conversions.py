# Python scalars converted to a requested dtype (calls/conversions.py), one refusal each, and
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
# ---
y = np.less((2+1j), 1)
y2 = np.arctan2(np.uint8(2), np.array(3, np.int8))
y3 = np.divide(300, a_u8)
y4 = np.clip(u8, 100, 2**40)
y5 = np.arctan2(a_u8, 1.5)
y6 = np.arctan2(a_i8, 1)
y7 = np.logaddexp(jnp.bfloat16(2), np.array(3, np.int8))
y8 = np.clip(a_i8, 0, 2**31)
y9 = np.clip(a_u8, -1, 5)
# ---
y = np.clip(a_i8, 2**31, s_i8)
# ---
y = np.clip(a_i8, 1000, 5)
# ---
y = np.copysign(100, jnp.asarray(True))
y2 = np.logaddexp(a_b, 7)
y3 = np.arctan2(a_u8, a_i8)
