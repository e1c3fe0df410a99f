# Elementwise functions of NumPy and jax.numpy (facts D*).
# D01
y = jnp.sin(jnp.arange(3))
# ---
# D03
y = jnp.sqrt(2)
# ---
# D05
y = jnp.exp(i8)
# ---
# D15
y = jnp.arange(5) / 2
# ---
# D21
y = jnp.maximum(i8, 0.5)
# ---
y = jnp.sqrt(f16)
y2 = jnp.cbrt(bf16)
y3 = jnp.exp2(i64)
y4 = jnp.expm1(f32)
# ---
y = jnp.log(u8)
y2 = jnp.log2(f32)
y3 = jnp.log10(b)
y4 = jnp.log1p(i16)
# ---
y = jnp.sin(f16)
y2 = jnp.cos(i32)
y3 = jnp.tan(c64)
# ---
y = jnp.arcsin(f32)
y2 = jnp.arccos(f32)
y3 = jnp.arctan(i8)
# ---
y = jnp.sinh(f32)
y2 = jnp.cosh(bf16)
y3 = jnp.tanh(i32)
# ---
y = jnp.arcsinh(f32)
y2 = jnp.arccosh(f32 + 1)
y3 = jnp.arctanh(f32 * 0.5)
# ---
y = jnp.deg2rad(i8)
y2 = jnp.rad2deg(f32)
y3 = jnp.degrees(f16)
y4 = jnp.radians(90.0)
# ---
y = jnp.sin(1.0)
y2 = jnp.exp(1)
# ---
y = jnp.negative(i8)
y2 = jnp.positive(f16)
y3 = jnp.absolute(i32)
y4 = jnp.abs(c64)
# ---
y = jnp.square(i8)
y2 = jnp.conjugate(c64)
y3 = jnp.conj(f32)
y4 = jnp.sign(i16)
y5 = jnp.rint(f32)
# ---
y = jnp.floor(f32)
y2 = jnp.ceil(f16)
y3 = jnp.trunc(bf16)
# ---
y = jnp.floor(i32)
# ---
y = jnp.ceil(u8)
y2 = jnp.trunc(b)
# ---
y = jnp.add(i8, i16)
y2 = jnp.subtract(f32, 1)
y3 = jnp.multiply(f16, 2.0)
# ---
y = jnp.floor_divide(i32, 2)
y2 = jnp.mod(f32, 2)
y3 = jnp.remainder(i8, 3)
# ---
y = jnp.power(f32, 2)
y2 = jnp.power(i8, 2)
y3 = jnp.power(2.0, f16)
# ---
y = jnp.maximum(f32, f16)
y2 = jnp.minimum(i8, u8)
y3 = jnp.fmax(f32, 0)
y4 = jnp.fmin(bf16, 1.0)
# ---
y = jnp.bitwise_and(i8, 3)
y2 = jnp.bitwise_or(u8, u16)
y3 = jnp.bitwise_xor(b, b)
# ---
y = jnp.left_shift(i32, 1)
y2 = jnp.right_shift(u8, u8)
# ---
y = jnp.copysign(f32, -1.0)
y2 = jnp.heaviside(f32, 0.5)
# ---
y = jnp.true_divide(i32, 2)
y2 = jnp.divide(f16, 2)
y3 = jnp.divide(i8, i8)
# ---
y = jnp.arctan2(f32, f16)
y2 = jnp.hypot(i8, i8)
y3 = jnp.logaddexp(f32, 0.0)
y4 = jnp.logaddexp2(bf16, bf16)
# ---
y = jnp.isnan(f32)
y2 = jnp.isinf(i8)
y3 = jnp.isfinite(f16)
y4 = jnp.signbit(f32)
# ---
y = jnp.logical_not(b)
y2 = jnp.isneginf(f32)
y3 = jnp.isposinf(f32)
# ---
y = jnp.equal(i8, 1)
y2 = jnp.not_equal(f32, f16)
y3 = jnp.less(i32, 2.5)
y4 = jnp.less_equal(u8, u8)
# ---
y = jnp.greater(f32, 0)
y2 = jnp.greater_equal(i8, 0)
y3 = jnp.logical_and(b, b)
y4 = jnp.logical_or(b, i8 > 0)
y5 = jnp.logical_xor(b, b)
# ---
y = jnp.isclose(f32, 1.0)
# ---
y = jnp.matmul(m_f32, m_f16)
y2 = jnp.dot(f32, f32)
y3 = jnp.inner(i8, i8)
# ---
y = jnp.outer(f32, i8)
y2 = jnp.vdot(f16, f16)
y3 = jnp.kron(m_i8, m_i8)
# ---
y = np.sqrt(a_i8)
y2 = np.sqrt(a_u8)
y3 = np.sqrt(a_i16)
y4 = np.sqrt(a_i32)
# ---
y = np.exp(a_f16)
y2 = np.exp(a_b)
y3 = np.log(a64)
y4 = np.log1p(a_c64)
# ---
y = np.sin(1.0)
y2 = np.cos(2)
y3 = np.tan(s_f32)
# ---
y = np.sqrt(s_i8)
y2 = np.exp(s_i64)
# ---
y = np.cbrt(a_f32)
y2 = np.exp2(a_i16)
y3 = np.expm1(a_u8)
y4 = np.log2(a_f16)
y5 = np.log10(a_i64)
# ---
y = np.arcsin(a_f32)
y2 = np.arccos(a64)
y3 = np.arctan(a_i8)
y4 = np.sinh(a_f16)
y5 = np.cosh(a_f32)
y6 = np.tanh(a_i32)
# ---
y = np.arcsinh(a64)
y2 = np.arccosh(a64 + 1)
y3 = np.arctanh(a_f32 * 0.5)
# ---
y = np.deg2rad(a_i8)
y2 = np.rad2deg(a_f32)
y3 = np.degrees(a_f16)
y4 = np.radians(90.0)
# ---
y = np.negative(a_i8)
y2 = np.positive(a_f16)
y3 = np.absolute(a_i32)
y4 = np.abs(a_c64)
# ---
y = np.square(a_i8)
y2 = np.conjugate(a_c64)
y3 = np.conj(a_f32)
y4 = np.sign(a_i16)
y5 = np.rint(a_f32)
# ---
y = np.floor(a_f32)
y2 = np.ceil(a_f16)
y3 = np.trunc(a64)
# ---
y = np.floor(a_i32)
y2 = np.ceil(a_u8)
# ---
y = np.floor(2.5)
y2 = np.abs(-3)
y3 = np.square(s_f16)
# ---
y = np.add(a_i8, a_i16)
y2 = np.subtract(a_f32, 1)
y3 = np.multiply(a_f16, 2.0)
# ---
y = np.floor_divide(a_i32, 2)
y2 = np.mod(a_f32, 2)
y3 = np.remainder(a_i8, 3)
# ---
y = np.power(a_f32, 2)
y2 = np.power(a_i8, 2)
y3 = np.power(2.0, a_f16)
# ---
y = np.power(a_b, 2)
# ---
y = np.power(a_b, a_b)
# ---
y = np.maximum(a_f32, a_f16)
y2 = np.minimum(a_i8, a_u8)
y3 = np.fmax(a_f32, 0)
y4 = np.fmin(a64, 1.0)
# ---
y = np.bitwise_and(a_i8, 3)
y2 = np.bitwise_or(a_u8, a_i8)
y3 = np.bitwise_xor(a_b, a_b)
y4 = np.left_shift(a_i32, 1)
y5 = np.right_shift(a_u8, 1)
# ---
y = np.copysign(a_f32, -1.0)
y2 = np.heaviside(a_f32, 0.5)
# ---
y = np.true_divide(a_i32, 2)
y2 = np.divide(a_f16, 2)
y3 = np.divide(a_i8, a_i8)
# ---
y = np.arctan2(a_f32, a_f16)
y2 = np.hypot(a_i8, a_i8)
y3 = np.logaddexp(a_f32, 0.0)
y4 = np.logaddexp2(a64, a64)
# ---
y = np.isnan(a_f32)
y2 = np.isinf(a_i8)
y3 = np.isfinite(a_f16)
y4 = np.signbit(a_f32)
y5 = np.logical_not(a_b)
# ---
y = np.isneginf(a_f32)
y2 = np.isposinf(a64)
# ---
y = np.equal(a_i8, 1)
y2 = np.not_equal(a_f32, a_f16)
y3 = np.less(a_i32, 2.5)
y4 = np.less_equal(a_u8, a_u8)
# ---
y = np.greater(a_f32, 0)
y2 = np.greater_equal(a_i8, 0)
y3 = np.logical_and(a_b, a_b)
y4 = np.logical_or(a_b, a_i8 > 0)
y5 = np.logical_xor(a_b, a_b)
# ---
y = np.isclose(a_f32, 1.0)
y2 = np.isnan(2.0)
# ---
y = np.matmul(a_m, a_m)
y2 = np.dot(a_f32, a_f32)
y3 = np.inner(a_i8, a_i8)
# ---
y = np.outer(a_f32, a_i8)
y2 = np.vdot(a_f16, a_f16)
y3 = np.kron(a_m, a_m)
# ---
y = np.dot(a_i32, 2.5)
# ---
y = np.sqrt(a_bf16)
# ---
y = np.add(a_bf16, 1.0)
# ---
y = np.multiply(a_bf16, a_f16)
