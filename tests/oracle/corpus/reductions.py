# Reductions: sums, means, extrema, arg-functions (facts E*).
# E01
y = jnp.sum(i8)
# ---
# E02
y = jnp.sum(b)
# ---
# E03
y = jnp.sum(u8)
# ---
# E06
y = jnp.mean(i32)
# ---
# E10
y = jnp.argmax(f32)
# ---
# E11
y = jnp.prod(i8)
# ---
y = jnp.sum(u32)
# ---
y = jnp.sum(i32)
y2 = jnp.sum(f16)
y3 = jnp.sum(bf16)
y4 = jnp.sum(c64)
# ---
y = jnp.sum(i16, axis=0)
y2 = jnp.sum(f32, dtype=jnp.float16)
# ---
y = jnp.prod(u8)
y2 = jnp.prod(f16)
y3 = jnp.nansum(f32)
y4 = jnp.nansum(i8)
# ---
y = jnp.cumsum(i8)
y2 = jnp.cumsum(b)
y3 = jnp.cumprod(f16)
# ---
y = jnp.cumsum(u8)
# ---
y = jnp.cumsum(i8, dtype=jnp.int32)
# ---
y = jnp.mean(i8)
y2 = jnp.mean(f16)
y3 = jnp.mean(b)
y4 = jnp.mean(i64)
# ---
y = jnp.average(f32)
y2 = jnp.nanmean(bf16)
y3 = jnp.var(i32)
y4 = jnp.std(f16)
# ---
y = jnp.mean(f32, dtype=jnp.float16)
# ---
y = jnp.max(i8)
y2 = jnp.min(f16)
y3 = jnp.amax(u8)
y4 = jnp.amin(bf16)
# ---
y = jnp.ptp(f32)
y2 = jnp.nanmax(f32)
y3 = jnp.nanmin(f16)
# ---
y = jnp.any(f32 > 0)
y2 = jnp.all(b)
y3 = jnp.any(i8)
# ---
y = jnp.argmin(i8)
y2 = jnp.argsort(f32)
y3 = jnp.count_nonzero(b)
y4 = jnp.searchsorted(f32, 0.5)
# ---
y = np.sum(a_i8)
y2 = np.sum(a_b)
y3 = np.sum(a_u8)
y4 = np.sum(a_f16)
# ---
y = np.sum(a_i8, axis=0)
y2 = np.sum(a_m, axis=1)
# ---
y = np.sum(a_f32, dtype=np.float64)
# ---
y = np.prod(a_i16)
y2 = np.nansum(a_f32)
y3 = np.prod(a_u32)
# ---
y = np.cumsum(a_i8)
y2 = np.cumprod(a_u8)
y3 = np.cumsum(a_f16)
# ---
y = np.mean(a_i32)
y2 = np.mean(a_i8)
y3 = np.mean(a_f16)
y4 = np.mean(a_b)
# ---
y = np.average(a_f32)
y2 = np.nanmean(a64)
y3 = np.var(a_i16)
y4 = np.std(a_f16)
# ---
y = np.mean(a_m, axis=0)
# ---
y = np.max(a_i8)
y2 = np.min(a_f16)
y3 = np.amax(a_u8)
y4 = np.amin(a64)
# ---
y = np.ptp(a_f32)
y2 = np.nanmax(a_f32)
y3 = np.nanmin(a_f16)
# ---
y = np.max(a_m, axis=0)
# ---
y = np.any(a_b)
y2 = np.all(a_f32 > 0)
# ---
y = np.argmax(a_f32)
y2 = np.argmin(a_i8)
y3 = np.argsort(a_f16)
y4 = np.count_nonzero(a_b)
# ---
y = np.searchsorted(a64, 0.5)
# ---
total = np.sum(a64) / len(a64)
# ---
values = np.array([3, 1, 2])
norm = values / np.sum(values)
# ---
x = jnp.linspace(0, 1, 10)
mu = jnp.mean(x)
sigma = jnp.std(x)
z = (x - mu) / sigma
# ---
data = np.random.rand(10)
centered = data - data.mean()
# ---
y = np.sum(s_i8)
y2 = np.mean(s_f32)
# ---
# average with weights makes the values and weights inexact together (JAX: int32 with float16
# weights average in float16); NumPy's is float64 for integer values, else result_type's.
y = jnp.average(jnp.arange(3), weights=jnp.ones(3, jnp.float16))
y2 = jnp.average(jnp.ones(3, jnp.bool_), weights=jnp.ones(3, jnp.int8))
y3 = jnp.average(c64, weights=f16)
y4 = np.average(a_i8, weights=np.ones(3, np.float16))
y5 = np.average(np.ones(3, np.float16), weights=np.ones(3, np.int8))
y6 = np.average(np.ones((2, 3), np.float32), weights=np.ones(3, np.float16), axis=1)
y7 = jnp.average(jnp.arange(3), weights=np.ones(3, np.float16))
