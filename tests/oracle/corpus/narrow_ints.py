# NumPy runs ml_dtypes' narrow ints in int8 (float16 for inexact results) outside add,
# subtract, multiply, floor_divide and remainder (catalog.NUMPY_INTN_LOOPS).
a_i4 = np.ones(3, ml_dtypes.int4)
a_u4 = np.ones(3, ml_dtypes.uint4)
y = np.square(a_i4)
y2 = -a_i4
y3 = ~a_u4
y4 = a_i4.conjugate()
y5 = a_i4.round()
y6 = a_i4 / a_i4
y7 = a_i4 + a_i4
y8 = abs(a_i4)
y9 = np.sqrt(a_i4)
y10 = np.maximum(a_i4, a_i4)
y11 = np.negative(int4a)
y12 = a_i4 // a_i4
y13 = a_i4 & a_u4
y14 = np.clip(a_i4, a_i4, a_i4)
y15 = np.where(a_b, a_i4, a_i4)
y16 = np.concatenate([a_i4, a_i4])
y18 = np.matmul(a_i4, a_i4)
y19 = np.flip(a_i4)
# ---
# ml_dtypes' sub-byte ints are not np.integer: reductions keep them (no int_ accumulator, no
# float64 mean); max, min and ptp reduce in NumPy's int8 loop.  Their scalars negate themselves.
a_i4 = np.ones(3, ml_dtypes.int4)
a_u2 = np.ones(3, ml_dtypes.uint2)
y = a_i4.sum()
y2 = np.prod(a_u2)
y3 = a_i4.cumsum()
y4 = a_i4.mean()
y5 = np.var(a_u2)
y6 = a_i4.std()
y7 = a_i4.max()
y8 = np.ptp(a_u2)
y9 = np.min(a_i4)
s_i4 = np.int8(1).astype(ml_dtypes.int4)
y10 = -s_i4
y11 = +s_i4
y12 = ~s_i4
y13 = -np.array(1, ml_dtypes.int4)
# ---
# true_divide has no loop of ml_dtypes' own: with a narrow int the first inexact loop every
# operand fits, so a Python int or an int8 gives float16, an int16 float32.
a_i4 = np.ones(3, ml_dtypes.int4)
y = 2 / a_i4
y2 = a_i4 / np.int8(2)
y3 = a_i4 / np.int16(2)
y4 = np.true_divide(a_i4, 2)
y5 = np.int8(1).astype(ml_dtypes.uint4) / 2
y6 = a_i4 / 2j
