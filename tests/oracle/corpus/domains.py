# Functions and operators that refuse some dtypes (linter/engine/domains.py), one refusal each.
y = np.cbrt(a_c64)
# ---
y = jnp.cbrt(c64)
# ---
y = np.signbit(s_c64)
# ---
y = np.deg2rad(a_c128)
# ---
y = np.floor(a_c64)
# ---
y = jnp.floor_divide(c64, 2)
# ---
y = np.logaddexp(a_c64, 1.0)
# ---
y = jnp.logaddexp(f32, 1j)
# ---
y = jnp.arctan2(c64, f32)
# ---
y = jnp.hypot(c64, f32)
# ---
y = +a_b
# ---
y = -s_b
# ---
y = np.sign(a_b)
# ---
y = jnp.sign(b)
# ---
y = ~a_f32
# ---
y = ~f32
# ---
y = a_f16 << 1
# ---
y = 1j // 7
# ---
y = 1.5 & 2
# ---
y = ~1.5
# ---
y = 7 < 1j
# ---
y = abs(int4a)
# ---
y = jnp.abs(int4a)
# ---
y = jnp.sum(int4a)
# ---
y = jnp.clip(f8e4, 1j, 2)
# ---
y = jnp.clip(c64, f32, f32)
# ---
y = jnp.argmax(c64)
# ---
y = np.argmax(c64)
y2 = np.argmin(c128)
