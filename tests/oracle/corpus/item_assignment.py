# Item assignment: a NumPy array converts a Python scalar to its dtype (out of range: OverflowError).
a = np.zeros((2, 2), np.uint8)
a[0, 1] = 638
# ---
a = np.zeros(3, np.int8)
a[:] = -129
# ---
a = np.zeros(3, np.uint8)
a[0] = 300.0
# ---
a = np.zeros(3, np.uint8)
a[0] = 255
a[1] = -0.5
a[2] = 255.9
b = a + 1
# ---
a = np.zeros(3, np.float32)
a[0] = 1j
# ---
a = np.zeros(3, np.int8)
a[a > 0] = 1000
# ---
a = np.zeros(3, np.uint8)
a[0] = np.int64(300)
a[1] = 7 if a[0] > 0 else 0
# ---
a = np.zeros(3, ml_dtypes.int4)
a[0] = 100
# ---
j = jnp.zeros(3)
j[0] = 1.0
