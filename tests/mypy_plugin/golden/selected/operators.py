# promolint mypy plugin golden output -- mypy 2.4.1, config selected: {"ignore": ["PRM006", "PRM007"], "select": ["PRM00"]}
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
# MYPY: error: this chain gives float32 as written but `np.uint8(1) + (1.0 + jnp.bfloat16(1))` gives bfloat16 (x64 off): NumPy promotes its own operands first, JAX the rest. Convert NumPy values with jnp.asarray first.  [promolint-mixed-dispatch]
numpy_chain = np.int8(1) + np.uint8(1) + np.float16(1)
# MYPY: error: this chain gives float32 as written but `np.int8(1) + (np.uint8(1) + np.float16(1))` gives float16 (x64 off): NumPy's promotion table is not associative. Cast to one dtype before combining.  [promolint-numpy-nonassociative]
small_float = jnp.ones(3, jnp.float8_e4m3fn) + f32
# MYPY: error: TypePromotionError in every mode: 8-bit floats do not promote implicitly (float8_e4m3fn, float32). Cast explicitly, e.g. `x.astype('float32')`.  [promolint-no-promotion-path]
scaled = f32 / np.sqrt(10)
host = jnp.ones(3, jnp.float32) + np.zeros(3)
default = jnp.zeros(3) + 1.0
counts = np.zeros(3, np.int32)
counts += 0.5
# MYPY: error: UFuncTypeError: Cannot cast ufunc output from float64 to int32 with casting rule 'same_kind'. Make the array a float array or write `a = a + x`.  [promolint-inplace-cast]
# MYPY: error: Argument 1 to "__iadd__" of "ndarray" has incompatible type "float"; expected "_SupportsArray[dtype[numpy.bool[builtins.bool] | integer[Any]]] | _NestedSequence[_SupportsArray[dtype[numpy.bool[builtins.bool] | integer[Any]]]] | int | _NestedSequence[int]"  [arg-type]
weights = np.zeros(3, np.float32)
weights += 0.5
reveal_type(np.ones(3, np.float32) + f32)
# MYPY: note: Revealed type is "jax._src.basearray.Array"
reveal_type(np.int8(1) + np.uint8(1))
# MYPY: note: Revealed type is "numpy.signedinteger[numpy._typing._nbit_base._16Bit]"
