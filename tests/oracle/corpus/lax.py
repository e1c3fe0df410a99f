# jax.lax (no implicit promotion) and jax.nn.
# J45
y = jax.lax.add(i8, 1)
# ---
y = jax.lax.add(f32, f32)
y2 = jax.lax.sub(i8, i8)
y3 = jax.lax.mul(f16, f16)
# ---
y = jax.lax.div(f32, f32)
y2 = jax.lax.rem(i32, i32)
y3 = jax.lax.pow(f32, f32)
# ---
y = jax.lax.pow(f32, -1)
# ---
y = jax.lax.pow(f32, i8)
y2 = jax.lax.pow(bf16, u8)
y3 = jax.lax.pow(f16, i32)
# ---
y = jax.lax.pow(f32, 2.0)
# ---
y = jax.lax.pow(i32, i32)
# ---
y = jax.lax.pow(f32, b)
# ---
y = jax.lax.pow(f32, f16)
# ---
y = jax.lax.max(f32, f32)
y2 = jax.lax.min(u8, u8)
y3 = jax.lax.atan2(f32, f32)
y4 = jax.lax.nextafter(f32, f32)
# ---
y = jax.lax.bitwise_and(u8, u8)
y2 = jax.lax.bitwise_or(b, b)
y3 = jax.lax.bitwise_xor(i32, i32)
# ---
y = jax.lax.shift_left(i32, i32)
y2 = jax.lax.shift_right_logical(u8, u8)
y3 = jax.lax.shift_right_arithmetic(i8, i8)
# ---
y = jax.lax.eq(f32, f32)
y2 = jax.lax.ne(i8, i8)
y3 = jax.lax.lt(f16, f16)
y4 = jax.lax.le(i32, i32)
y5 = jax.lax.gt(u8, u8)
y6 = jax.lax.ge(bf16, bf16)
# ---
y = jax.lax.complex(f32, f32)
# ---
y = jax.lax.add(f32, f16)
# ---
y = jax.lax.add(f32, 1.0)
# ---
y = jax.lax.mul(i32, 2)
# ---
y = jax.lax.convert_element_type(f32, jnp.int8)
y2 = jax.lax.convert_element_type(i8, jnp.float16)
y3 = jax.lax.convert_element_type(f32, jnp.float64)
# ---
y = jax.lax.neg(i8)
y2 = jax.lax.abs(f16)
y3 = jax.lax.sign(f32)
y4 = jax.lax.floor(bf16)
# ---
y = jax.lax.ceil(f32)
y2 = jax.lax.round(f16)
y3 = jax.lax.exp(f32)
y4 = jax.lax.log(f32)
# ---
y = jax.lax.sin(f16)
y2 = jax.lax.cos(f32)
y3 = jax.lax.tanh(bf16)
y4 = jax.lax.sqrt(f32)
# ---
y = jax.lax.rsqrt(f32)
y2 = jax.lax.logistic(f16)
y3 = jax.lax.stop_gradient(i8)
y4 = jax.lax.square(f32)
# ---
from jax import lax
y = lax.add(f32, f32) * 2
# ---
y = jax.nn.relu(f32)
y2 = jax.nn.gelu(f16)
y3 = jax.nn.sigmoid(bf16)
y4 = jax.nn.softplus(f32)
# ---
y = jax.nn.silu(f32)
y2 = jax.nn.swish(f16)
y3 = jax.nn.elu(f32)
y4 = jax.nn.leaky_relu(f32)
# ---
y = jax.nn.tanh(f32)
y2 = jax.nn.softmax(f32)
y3 = jax.nn.log_softmax(f16)
y4 = jax.nn.log_sigmoid(f32)
# ---
y = jax.nn.celu(f32)
y2 = jax.nn.selu(f32)
y3 = jax.nn.relu6(f16)
y4 = jax.nn.hard_tanh(f32)
# ---
y = jax.nn.glu(jnp.ones(4))
y2 = jax.nn.standardize(f32)
# ---
y = jax.nn.relu(i8)
# ---
y = jax.nn.softmax(i32)
# ---
y = jax.nn.one_hot(jnp.arange(3), 3)
y2 = jax.nn.one_hot(jnp.arange(3), 3, dtype=jnp.int8)
# ---
from jax.nn import relu, softmax
h = relu(f32 * 2.0 - 1.0)
p = softmax(h)
# ---
# The rest of lax's one-dtype set: dynamic slices, select, clamp, concatenate, pad, scatters.
y = jax.lax.dynamic_update_slice(f32, jnp.ones(1, jnp.float32), (0,))
y2 = jax.lax.dynamic_update_slice(jnp.full(3, 1.0), jnp.full(1, 2.0), (0,))
y3 = jax.lax.dynamic_update_slice(a_f32, jnp.ones(1, jnp.float32), (0,))
# ---
y = jax.lax.dynamic_update_slice(f32, jnp.ones(1, jnp.float16), (0,))
# ---
y = jax.lax.dynamic_update_slice(f32, jnp.full(1, 2.0), (0,))
# ---
y = jax.lax.dynamic_update_slice(f32, np.ones(1), (0,))
# ---
y = jax.lax.dynamic_update_slice(m_f32, f32, (0, 0))
# ---
y = jax.lax.dynamic_update_slice(f32, 1.0, (0,))
# ---
y = jax.lax.conv_general_dilated(jnp.ones((1, 1, 8), jnp.float32), jnp.ones((1, 1, 2), jnp.float32), (1,), "VALID")
y2 = jax.lax.conv(jnp.ones((1, 1, 8), jnp.float16), jnp.ones((1, 1, 2), jnp.float16), (1,), "VALID")
y3 = jax.lax.conv_general_dilated(jnp.full((1, 1, 8), 1.0), jnp.full((1, 1, 2), 2.0), (1,), "VALID")
y4 = jax.lax.conv_with_general_padding(jnp.ones((1, 1, 8), jnp.bfloat16), jnp.ones((1, 1, 2), jnp.bfloat16), (1,),
                                       [(0, 0)], None, None)
# ---
y = jax.lax.conv_general_dilated(jnp.ones((1, 1, 8), jnp.float32), jnp.ones((1, 1, 2), jnp.float16), (1,), "VALID")
# ---
y = jax.lax.conv(jnp.ones((1, 1, 8), jnp.float32), np.ones((1, 1, 2)), (1,), "VALID")
# ---
y = jax.lax.dynamic_slice(f32, (0,), (2,))
y2 = jax.lax.dynamic_slice(jnp.full(3, 1.0), (0,), (1,))
y3 = jax.lax.dynamic_slice(a64, (1,), (2,))
y4 = jax.lax.dynamic_slice(m_f32, (0, 1), (1, 1))
# ---
y = jax.lax.dynamic_slice(m_f32, (0, jnp.int32(0)), (1, 1))
# ---
y = jax.lax.dynamic_slice(m_f32, (jnp.int8(0), jnp.int32(0)), (1, 1))
# ---
y = jax.lax.dynamic_slice(m_f32, (0, np.int64(0)), (1, 1))
# ---
y = jax.lax.dynamic_update_slice(m_f32, m_f32, (0, jnp.int16(0)))
# ---
y = jax.lax.dynamic_slice_in_dim(f32, 0, 2)
y2 = jax.lax.dynamic_index_in_dim(i8, 1)
y3 = jax.lax.dynamic_update_slice_in_dim(f32, jnp.ones(1, jnp.float32), 0, 0)
y4 = jax.lax.dynamic_update_index_in_dim(f16, jnp.ones((), jnp.float16), 0, 0)
# ---
y = jax.lax.dynamic_update_slice_in_dim(f32, jnp.ones(1, jnp.float16), 0, 0)
# ---
y = jax.lax.dynamic_update_index_in_dim(f32, jnp.ones((), jnp.int32), 0, 0)
# ---
y = jax.lax.select(b, f32, f32)
y2 = jax.lax.select(b, jnp.full(3, 1.0), jnp.full(3, 2.0))
y3 = jax.lax.select(True, f16, f16)
y4 = jax.lax.select(i32, f32, f32)
y5 = jax.lax.select(b, f32, np.ones(3, np.float32))
# ---
y = jax.lax.select(b, f32, f16)
# ---
y = jax.lax.select(b, f32, jnp.full(3, 1.0))
# ---
y = jax.lax.select(b, f32, 1.0)
# ---
y = jax.lax.select(b, f32, a64)
# ---
y = jax.lax.select(True, 1.0, 2.0)
# ---
y = jax.lax.select_n(b, f32, f32)
y2 = jax.lax.select_n(i32, u8, u8, u8)
y3 = jax.lax.select_n(1, jnp.full(3, 1.0), jnp.full(3, 2.0))
y4 = jax.lax.select_n(b, bf16)
# ---
y = jax.lax.select_n(b, f32, f16)
# ---
y = jax.lax.select_n(f32, f32, f32)
# ---
y = jax.lax.clamp(0.0, f32, 1.0)
# ---
y = jax.lax.clamp(jnp.float32(0), f32, jnp.float32(1))
y2 = jax.lax.clamp(0.0, jnp.full(3, 0.5), 1.0)
y3 = jax.lax.clamp(np.float32(0), f32, np.float32(1))
y4 = jax.lax.clamp(0.0, 1.5, 2.0)
# ---
y = jax.lax.clamp(0, i8, 5)
# ---
y = jax.lax.clamp(0, i32, 5)
# ---
y = jax.lax.clamp(jnp.float16(0), f32, jnp.float16(1))
# ---
y = jax.lax.clamp(np.float64(0), f32, np.float64(1))
# ---
y = jax.lax.concatenate([f32, f32], 0)
y2 = jax.lax.concatenate((jnp.full(3, 1.0), jnp.full(3, 1.0)), 0)
y3 = jax.lax.concatenate([f16], 0)
y4 = jax.lax.concatenate([f32, a_f32], 0)
# ---
y = jax.lax.concatenate([f32, f16], 0)
# ---
y = jax.lax.concatenate([jnp.full(3, 1.0), f32], 0)
# ---
y = jax.lax.concatenate([f32, a64], 0)
# ---
y = jax.lax.concatenate([f32, m_f32], 0)
# ---
y = jax.lax.pad(f32, jnp.float32(0), [(1, 1, 0)])
y2 = jax.lax.pad(jnp.full(3, 1.0), 0.0, [(1, 1, 0)])
y3 = jax.lax.pad(f32, np.float32(0), [(1, 1, 0)])
# ---
y = jax.lax.pad(f32, 0.0, [(1, 1, 0)])
# ---
y = jax.lax.pad(f32, -jnp.inf, [(1, 1, 0)])
# ---
y = jax.lax.pad(i8, 0, [(1, 1, 0)])
# ---
y = jax.lax.pad(f32, jnp.float16(0), [(1, 1, 0)])
# ---
y = jax.lax.pad(f32, jnp.zeros(2, jnp.float32), [(1, 1, 0)])
# ---
dn = jax.lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
idx = jnp.array([[0], [2]], jnp.int32)
y = jax.lax.scatter(f32, idx, jnp.ones(2, jnp.float32), dn)
y2 = jax.lax.scatter_add(jnp.full(3, 1.0), idx, jnp.ones(2, jnp.float32), dn)
y3 = jax.lax.scatter_sub(i8, idx, jnp.ones(2, jnp.int8), dn)
y4 = jax.lax.scatter_mul(jnp.full(3, 1.0), idx, jnp.full(2, 2.0), dn)
y5 = jax.lax.scatter_min(f16, idx, jnp.ones(2, jnp.float16), dn)
y6 = jax.lax.scatter_max(f32, idx, np.ones(2, np.float32), dn)
# ---
dn = jax.lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
y = jax.lax.scatter_add(f32, jnp.array([[0], [2]]), jnp.ones(2, jnp.float16), dn)
# ---
dn = jax.lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
y = jax.lax.scatter_add(f32, jnp.array([[0], [2]]), jnp.full(2, 1.0), dn)
# ---
dn = jax.lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
y = jax.lax.scatter(i8, jnp.array([[0], [2]]), jnp.ones(2, jnp.int32), dn)
# ---
dn = jax.lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
y = jax.lax.gather(f32, jnp.array([[0], [2]]), dn, (1,))
y2 = jax.lax.gather(jnp.full(3, 1.0), jnp.array([[0], [2]]), dn, (1,))
# ---
# Collectives over vmap's named axis: a JAX operand's dtype; a Python or NumPy one untraced stays itself.
def body(v):
    y = jax.lax.psum(f32, 'i')
    y2 = jax.lax.psum(b, 'i')
    y3 = jax.lax.psum(1.0, 'i')
    y4 = jax.lax.psum(True, 'i')
    y5 = jax.lax.pmean(f16, 'i')
    y6 = jax.lax.pmean(2.0, 'i')
    y7 = jax.lax.pmean(i32, 'i')
    y8 = jax.lax.pmax(i8, 'i')
    y9 = jax.lax.pmin(a_f32, 'i')
    y10 = jax.lax.all_gather(a64, 'i')
    y11 = jax.lax.all_gather(bf16, 'i', tiled=True)
    y12 = jax.lax.ppermute(v, 'i', perm=[(0, 1), (1, 0)])
    y13 = jax.lax.pshuffle(v, 'i', perm=[1, 0])
    y14 = jax.lax.axis_index('i')
    y15 = jax.lax.psum((f32, i32), 'i')
    y16 = jax.lax.pmax(a_i64, 'i')
    return v


y = jax.vmap(body, axis_name='i')(m_f16)
