# NumPy and JAX values meeting under operators: JAX's rules win in either order (facts C*).
# C01
y = np.zeros(3) + jnp.ones(3)
# ---
# C03
y = np.float64(1) + f32
# ---
# C07
y = np.float32(2) * f16
# ---
# C09
y = np.int16(1) + 1 + jnp.int16(1)
# ---
# C10
y = np.int16(1) + (1 + jnp.int16(1))
# ---
# C13
y = np.int8(1) + np.uint8(1) + jnp.float16(1)
# ---
# C15
y = np.uint8(1) + 1.0 + jnp.bfloat16(1)
# ---
# C16
y = np.uint8(1) + (1.0 + jnp.bfloat16(1))
# ---
# C17
y = np.arange(3) + jnp.arange(3)
# ---
# C21
y = np.array(1.0) + f16
# ---
# C23
y = np.int64(1) + i8
# ---
# C28
y = np.ones(3, np.int32) + jnp.asarray(2.5)
# ---
# C32
y = np.int8(1) + 1.0 + jnp.float16(1)
# ---
# C33
y = np.int8(1) + (1.0 + jnp.float16(1))
# ---
y = a64 + f32
y2 = f32 + a64
# ---
y = a_i8 * i8
# ---
y = a_f32 - bf16
# ---
y = a_i64 + f16
# ---
y = s_f64 * f16
# ---
y = f16 * s_f64
# ---
y = s_i32 + u8
# ---
y = z_f64 + i8
# ---
y = z_i32 * f32
# ---
cmp = a64 < f32
cmp2 = f32 > a_i8
# ---
prod = a_m @ m_f32
# ---
prod = m_f32 @ a_m
# ---
y = a_b & b
# ---
y = s_b + b
# ---
acc = a64
acc += f32
# ---
host = np.linspace(0, 1, 3)
dev = jnp.asarray(host)
mix = host * dev
# ---
weights = np.array([0.2, 0.3, 0.5])
score = jnp.dot(f32, weights)
# ---
y = a_u64 + i64
# ---
y = s_u64 + i8
# ---
y = a_c128 + f32
# ---
y = a_bf16 + f32
# ---
y = a_bf16 + f16
# ---
y = jnp.float32(1) + np.float16(2)
# ---
y = jnp.float16(1) + 2.0 + np.float16(2)
# ---
y = 2.0 * jnp.float16(1) * np.float32(1)
# ---
y = np.add(a64, f32)
# ---
y = np.multiply(np.float32(2), f16)
# ---
y = np.sin(f16)
# ---
y = np.concatenate([a_f32, f16])
# ---
y = np.sum(i8)
# ---
y = np.mean(i8)
# ---
y = np.max(f16)
# ---
y = np.argmax(f32)
# ---
y = jnp.add(a_i8, 1)
# ---
y = jnp.add(s_f64, 1)
# ---
y = jnp.sin(a_i32)
