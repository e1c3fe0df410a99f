# Cases that differ in strict promotion mode, and literals around bool and small ints.
y = f32 + f16
# ---
y = i8 + i32
# ---
y = i8 + 1
y2 = f16 + 1.0
y3 = f32 * 2
# ---
y = b + True
# ---
y = b & False
# ---
y = f32 + 1j
# ---
y = c64 + 1.0
# ---
y = i32 + 2
z = y * 3
# ---
y = bf16 + bf16
# ---
y = f32 + np.float32(1)
# ---
y = f16 + np.float64(1)
# ---
y = f32 + np.float64(1)
# ---
y = jnp.float32(2) * f32
# ---
y = jnp.add(f32, f16)
# ---
y = jnp.concatenate([f32, f16])
# ---
y = jnp.where(b, f32, f16)
# ---
y = jnp.maximum(f32, 0.0)
y2 = jnp.maximum(i8, 0)
# ---
y = m_f32 @ m_f16
# ---
y = jnp.clip(f16, 0.0, 1.0)
# ---
y = f32 < 1
# ---
y = i8 < 1.5
# ---
y = b == 1
# ---
x = jnp.arange(3)
y = x / 3
# ---
x = jnp.arange(3)
y = x * 0.5
# ---
y = jnp.sum(i8) + 1
# ---
y = jnp.mean(f16) * 2
# ---
y = u8 + i8
# ---
y = 1.0 + jnp.asarray(1)
# ---
y = jnp.asarray(1) + jnp.asarray(1.0)
