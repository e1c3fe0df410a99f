# ruff: noqa: F821
"""Operators between JAX, NumPy and Python operands."""
import jax.numpy as jnp
import numpy as np

i8 = jnp.ones(3, jnp.int8)
f16 = jnp.ones(3, jnp.float16)
bf16 = jnp.ones(3, jnp.bfloat16)
f32 = jnp.ones(3, jnp.float32)

wraps = i8 + 1000
reflected = 1000 + i8
never = i8 == 1000
fits = i8 + 100
raises = np.ones(3, np.uint8) + (-1)
big = f32 + 2**40
mixed = np.ones(3, np.int32) + np.ones(3, np.float32)
same = np.ones(3, np.float32) + np.ones(3, np.float32)
strict_only = bf16 + f16
chain = np.uint8(1) + 1.0 + jnp.bfloat16(1)
numpy_chain = np.int8(1) + np.uint8(1) + np.float16(1)
small_float = jnp.ones(3, jnp.float8_e4m3fn) + f32
scaled = f32 / np.sqrt(10)
host = jnp.ones(3, jnp.float32) + np.zeros(3)
default = jnp.zeros(3) + 1.0
counts = np.zeros(3, np.int32)
counts += 0.5
weights = np.zeros(3, np.float32)
weights += 0.5
reveal_type(np.ones(3, np.float32) + f32)
reveal_type(np.int8(1) + np.uint8(1))
