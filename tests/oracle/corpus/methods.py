# Array methods and attributes.
y = f32.astype(jnp.float16)
y2 = i8.astype("float32")
y3 = f32.astype(int)
y4 = f32.astype(jnp.float64)
# ---
y = a64.astype(np.float32)
y2 = a_i8.astype(float)
y3 = a_f32.astype("int16")
y4 = s_f64.astype(np.float16)
# ---
y = f32.view(jnp.int32)
y2 = bf16.view(jnp.int16)
y3 = a_f32.view(np.int32)
y4 = s_f16.view(np.int16)
# ---
y = jnp.asarray(1.0).view(jnp.int32)
# ---
y = s_f32.view(np.int16)
# ---
y = a_f32.view(np.int16)
y2 = a_f32.view(np.uint8)
y3 = a_i16.view(np.float16)
# ---
y = i8.sum()
y2 = u8.sum()
y3 = f16.sum()
y4 = b.sum()
# ---
y = u32.sum()
# ---
y = a_i8.sum()
y2 = a_u8.sum(axis=0)
y3 = a_f16.sum()
y4 = a_m.sum(axis=1)
# ---
y = i8.prod()
y2 = a_i16.prod()
# ---
y = i8.cumsum()
y2 = a_i8.cumsum()
# ---
y = i32.mean()
y2 = f16.mean()
y3 = a_i32.mean()
y4 = a_f16.mean()
# ---
y = f32.var()
y2 = i8.std()
y3 = a_i16.var()
y4 = a_f32.std()
# ---
y = f32.max()
y2 = i8.min()
y3 = a_f16.max()
y4 = a_u8.min()
# ---
y = f32.argmax()
y2 = a64.argmin()
y3 = i8.argsort()
# ---
y = b.any()
y2 = (f32 > 0).all()
y3 = a_b.any()
# ---
y = jnp.sum(f32).item()
y2 = i8[0].item()
y3 = b.any().item()
y4 = c64[1].item()
# ---
y = a_f32.max().item()
y2 = s_i8.item()
y3 = a_u8[0].item()
# ---
y = m_f32.dot(m_f32)
y2 = a_m.dot(a_m)
# ---
y = f32.dot(f16)
# ---
y = f32.clip(0, 1)
y2 = i8.clip(0, 5)
y3 = a_f16.clip(0, 1)
# ---
y = m_f32.T
y2 = a_m.T
y3 = m_i8.mT
# ---
y = c64.real
y2 = c64.imag
y3 = a_c128.real
y4 = f32.real
# ---
y = m_f32.reshape(4)
y2 = m_i8.transpose()
y3 = m_f16.flatten()
y4 = m_bf16.ravel()
# ---
y = a_m.reshape(4)
y2 = a_m.flatten()
y3 = a_i8.copy()
y4 = a_m.swapaxes(0, 1)
# ---
y = f32.squeeze()
y2 = f32.copy()
y3 = f16.round()
y4 = i8.repeat(2)
# ---
y = c64.conj()
y2 = a_c64.conjugate()
# ---
y = f32.sort()
y2 = a_f16.ptp() if hasattr(a_f16, "ptp") else np.ptp(a_f16)
# ---
y = f32.block_until_ready()
# ---
n = f32.ndim
s = f32.size
nb = a64.nbytes
isz = a_i8.itemsize
# ---
d = f32.dtype
y = jnp.zeros(3, dtype=d)
# ---
y = jnp.zeros(3, dtype=a_i8.dtype)
y2 = np.ones(2, dtype=f16.dtype)
# ---
y = f32.at[0].set(2.0)
# ---
y = i8.at[1].add(1)
y2 = f16.at[0].multiply(2.0)
# ---
y = f32.at[0].set(5)
y2 = i32.at[0].get()
# ---
y = a_f32 * f32.sum()
# ---
y = (i8 + 1.0).astype(jnp.int8)
# ---
y = f32[0]
y2 = a_m[0]
y3 = a64[1:]
y4 = a_m[0, 1]
# ---
y = i8[::2]
y2 = m_f32[:, 0]
y3 = f32[b]
# ---
y = a_i8[0] + 1
y2 = a_f32[0] * 2.0
# ---
y = s_f32.astype(np.float64)
y2 = s_i8.sum()
y3 = s_f16.max()
# ---
y = i8.cumprod()
y2 = a_i16.cumprod()
y3 = a_m.cumsum(axis=0)
