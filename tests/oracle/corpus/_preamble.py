# Shared by every snippet of the reveal-oracle corpus (prepended to each one).
import math

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

# JAX arrays: i64/u64/f64/c128 are 32-bit with x64 off (requested 64-bit dtypes are narrowed).
b = jnp.array([True, False, True])
i8 = jnp.ones(3, jnp.int8)
i16 = jnp.ones(3, jnp.int16)
i32 = jnp.ones(3, jnp.int32)
i64 = jnp.ones(3, jnp.int64)
u8 = jnp.ones(3, jnp.uint8)
u16 = jnp.ones(3, jnp.uint16)
u32 = jnp.ones(3, jnp.uint32)
u64 = jnp.ones(3, jnp.uint64)
f16 = jnp.ones(3, jnp.float16)
bf16 = jnp.ones(3, jnp.bfloat16)
f32 = jnp.ones(3, jnp.float32)
f64 = jnp.ones(3, jnp.float64)
c64 = jnp.ones(3, jnp.complex64)
c128 = jnp.ones(3, jnp.complex128)
f8e4 = jnp.ones(3, jnp.float8_e4m3fn)
f8e5 = jnp.ones(3, jnp.float8_e5m2)
int4a = jnp.ones(3, jnp.int4)
m_f32 = jnp.ones((2, 2), jnp.float32)
m_f16 = jnp.ones((2, 2), jnp.float16)
m_i8 = jnp.ones((2, 2), jnp.int8)
m_bf16 = jnp.ones((2, 2), jnp.bfloat16)
key = jax.random.PRNGKey(0)

# NumPy arrays.
a_b = np.array([True, False, True])
a_i8 = np.ones(3, np.int8)
a_i16 = np.ones(3, np.int16)
a_i32 = np.ones(3, np.int32)
a_i64 = np.ones(3, np.int64)
a_u8 = np.ones(3, np.uint8)
a_u32 = np.ones(3, np.uint32)
a_u64 = np.ones(3, np.uint64)
a_f16 = np.ones(3, np.float16)
a_f32 = np.ones(3, np.float32)
a64 = np.ones(3)
a_c64 = np.ones(3, np.complex64)
a_c128 = np.ones(3, np.complex128)
a_bf16 = np.ones(3, ml_dtypes.bfloat16)
a_m = np.ones((2, 2))

# NumPy scalars and 0-d arrays.
s_b = np.bool_(True)
s_i8 = np.int8(1)
s_i16 = np.int16(1)
s_i32 = np.int32(1)
s_i64 = np.int64(1)
s_u8 = np.uint8(1)
s_u64 = np.uint64(1)
s_f16 = np.float16(1)
s_f32 = np.float32(1)
s_f64 = np.float64(1)
s_c64 = np.complex64(1)
z_f64 = np.array(1.0)
z_i32 = np.array(1, np.int32)
