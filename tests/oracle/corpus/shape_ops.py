# where, clip, joining and reshaping (facts G*, H*).
# G01
c = i8 > 0
y = jnp.where(c, 1, 0)
# ---
# G02
c = i8 > 0
y = jnp.where(c, 1.0, 0)
# ---
# G05
c = i8 > 0
y = jnp.where(c, i8, 0.5)
# ---
y = jnp.where(b, f16, f32)
# ---
y = jnp.where(b, i8, 0)
# ---
y = jnp.where(f32 > 0, f32, 0.0)
# ---
y = np.where(a_b, a_i8, 0)
# ---
y = np.where(a_b, 1.0, 0)
# ---
y = np.where(a_b, a_f16, a_f32)
# ---
y = np.where(a_b, 1, 0)
# ---
y = jnp.clip(f32, 0, 1)
y2 = jnp.clip(i8, 0, 10)
# ---
y = jnp.clip(i8, 0.0, 1.0)
# ---
y = np.clip(a64, 0, 1)
y2 = np.clip(a_i8, 0, 10)
y3 = np.clip(a_f16, 0.0, 1.0)
# ---
# H01
y = jnp.concatenate([i8, f16])
# ---
# H05
y = jnp.concatenate([i8, np.arange(3)])
# ---
y = jnp.concatenate([f32, f32, f32])
y2 = jnp.concatenate((b, b))
# ---
y = jnp.stack([f16, bf16])
y2 = jnp.hstack([i8, i16])
y3 = jnp.vstack([f32, f32])
# ---
y = jnp.concatenate([i8, u8], dtype=jnp.float32)
# ---
y = np.concatenate([a_i8, a_f16])
y2 = np.stack([a_f32, a64])
y3 = np.hstack([a_u8, a_i8])
y4 = np.vstack((a_b, a_b))
# ---
y = np.concatenate([a_f32, a_f32], dtype=np.float16)
# ---
y = jnp.reshape(f32, (3, 1))
y2 = jnp.transpose(m_i8)
y3 = jnp.squeeze(jnp.ones((1, 3), jnp.int16))
y4 = jnp.expand_dims(f16, 0)
# ---
y = jnp.ravel(m_f32)
y2 = jnp.broadcast_to(i8, (2, 3))
y3 = jnp.tile(bf16, 2)
y4 = jnp.repeat(u8, 2)
# ---
y = jnp.flip(f32)
y2 = jnp.roll(i32, 1)
y3 = jnp.sort(f16)
# ---
y = jnp.triu(m_f32)
y2 = jnp.tril(m_i8)
y3 = jnp.diag(f32)
# ---
y = np.reshape(a64, (3, 1))
y2 = np.transpose(a_m)
y3 = np.squeeze(np.ones((1, 3), np.int16))
y4 = np.expand_dims(a_f16, 0)
# ---
y = np.ravel(a_m)
y2 = np.broadcast_to(a_i8, (2, 3))
y3 = np.tile(a_f32, 2)
y4 = np.repeat(a_u8, 2)
# ---
y = np.flip(a_f32)
y2 = np.roll(a_i32, 1)
y3 = np.sort(a_f16)
# ---
y = np.triu(a_m)
y2 = np.tril(a_m)
y3 = np.diag(a_f32)
# ---
y = np.reshape(f32, (3, 1))
# ---
y = np.flip(i8)
# ---
rows = [jnp.ones(3), jnp.zeros(3)]
y = jnp.stack(rows)
# ---
parts = (np.ones(2, np.int8), np.ones(2, np.int16))
y = np.concatenate(parts)
