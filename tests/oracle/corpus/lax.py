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
